"""collect_submissions treats answers/ as a stranger's files: refuse clearly, never follow, keep the rest."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from drawcheck.intake import IntakeError, Submission, collect_submissions

GOOD = "sequenceDiagram\n    A->>B: hi\n"


@pytest.fixture
def answers(tmp_path: Path) -> Path:
    folder = tmp_path / "answers"
    folder.mkdir()
    (folder / "octocat.mmd").write_text(GOOD, encoding="utf-8")
    return folder


def errors_by_file(errors: list[IntakeError]) -> dict[str, IntakeError]:
    return {e.file: e for e in errors}


def test_good_files_are_collected_with_handle_path_and_text(answers):
    (answers / "octocat.corrected.mmd").write_text(GOOD + "    B->>A: again\n", encoding="utf-8")
    (answers / "Mona-Lisa-2.mmd").write_text(GOOD, encoding="utf-8")
    (answers / "_template.mmd").write_text("template", encoding="utf-8")
    (answers / "README.md").write_text("# how to", encoding="utf-8")
    subs, errors = collect_submissions(answers)
    assert errors == []
    assert [(s.handle, s.corrected, s.rel_path) for s in subs] == [
        ("Mona-Lisa-2", False, "answers/Mona-Lisa-2.mmd"),
        ("octocat", False, "answers/octocat.mmd"),
        ("octocat", True, "answers/octocat.corrected.mmd"),
    ]
    assert all(isinstance(s, Submission) for s in subs)
    assert subs[1].text == GOOD and subs[1].path == answers / "octocat.mmd"


def test_rel_path_follows_root(answers, tmp_path):
    subs, _ = collect_submissions(answers, root=tmp_path.parent)
    assert subs[0].rel_path == f"{tmp_path.name}/answers/octocat.mmd"


def test_symlink_to_etc_passwd_is_refused_and_never_read(answers):
    (answers / "mallory.mmd").symlink_to("/etc/passwd")
    subs, errors = collect_submissions(answers)
    assert [s.handle for s in subs] == ["octocat"]
    err = errors_by_file(errors)["answers/mallory.mmd"]
    assert err.line == 1 and "symbolic link" in err.message
    assert all("root:" not in s.text for s in subs)


def test_symlink_to_a_good_file_is_refused_too(answers):
    (answers / "copycat.mmd").symlink_to(answers / "octocat.mmd")
    subs, errors = collect_submissions(answers)
    assert [s.handle for s in subs] == ["octocat"]
    assert "symbolic link" in errors_by_file(errors)["answers/copycat.mmd"].message


def test_symlinked_answers_dir_is_refused(tmp_path, answers):
    link = tmp_path / "linked"
    link.symlink_to(answers, target_is_directory=True)
    subs, errors = collect_submissions(link)
    assert subs == []
    assert len(errors) == 1 and errors[0].file == "linked" and "symbolic link" in errors[0].message


def test_symlinked_subfolder_and_plain_subfolder_are_refused(answers, tmp_path):
    (answers / "nested").mkdir()
    (answers / "nested" / "eve.mmd").write_text(GOOD, encoding="utf-8")
    (answers / "outside").symlink_to(tmp_path, target_is_directory=True)
    subs, errors = collect_submissions(answers)
    assert [s.handle for s in subs] == ["octocat"]
    found = errors_by_file(errors)
    assert "folders" in found["answers/nested"].message
    assert "symbolic link" in found["answers/outside"].message


def test_non_utf8_is_refused_with_the_line_of_the_bad_byte(answers):
    (answers / "latin.mmd").write_bytes(b"sequenceDiagram\n    A->>B: caf\xe9\n")
    subs, errors = collect_submissions(answers)
    err = errors_by_file(errors)["answers/latin.mmd"]
    assert err.line == 2 and "UTF-8" in err.message
    assert [s.handle for s in subs] == ["octocat"]


def test_binary_with_nul_is_refused(answers):
    (answers / "blob.mmd").write_bytes(b"sequenceDiagram\n\x00\x01")
    _, errors = collect_submissions(answers)
    assert errors_by_file(errors)["answers/blob.mmd"].line == 2


def test_300_kb_file_is_refused(answers):
    (answers / "big.mmd").write_text("sequenceDiagram\n" + "%%" + "x" * 300_000 + "\n", encoding="utf-8")
    subs, errors = collect_submissions(answers)
    err = errors_by_file(errors)["answers/big.mmd"]
    assert "262,144 bytes" in err.message
    assert [s.handle for s in subs] == ["octocat"]


def test_max_bytes_is_a_real_limit(answers):
    (answers / "edge.mmd").write_bytes(b"x" * 100)
    subs, errors = collect_submissions(answers, max_bytes=100)
    assert "edge" in [s.handle for s in subs]
    subs, errors = collect_submissions(answers, max_bytes=99)
    assert "edge" not in [s.handle for s in subs] and "answers/edge.mmd" in errors_by_file(errors)


def test_3000_lines_are_refused_naming_the_first_line_over(answers):
    (answers / "long.mmd").write_text("sequenceDiagram\n" + "    A->>B: x\n" * 2999, encoding="utf-8")
    (answers / "fits.mmd").write_text("sequenceDiagram\n" + "    A->>B: x\n" * 1999, encoding="utf-8")
    subs, errors = collect_submissions(answers)
    err = errors_by_file(errors)["answers/long.mmd"]
    assert err.line == 2001 and "3,000 lines" in err.message
    assert [s.handle for s in subs] == ["fits", "octocat"]


@pytest.mark.parametrize(
    "name, says",
    [
        ("my answer.mmd", "space"),
        ("jos\u00e9.mmd", "characters outside"),
        ("\u0430lice.mmd", "characters outside"),  # Cyrillic a
        (".hidden.mmd", "dot"),
        ("..mmd", "dot"),
        ("-dash.mmd", "not a GitHub handle"),
        ("double--dash.mmd", "not a GitHub handle"),
        ("under_score.mmd", "not a GitHub handle"),
        ("a" * 40 + ".mmd", "39 characters"),
        ("notes.txt", ".mmd"),
        ("octocat.MMD", ".mmd"),
        ("octocat.draft.mmd", "not a GitHub handle"),
        (".mmd", "dot"),
    ],
)
def test_odd_names_are_refused_with_a_hint(answers, name, says):
    (answers / name).write_text(GOOD, encoding="utf-8")
    subs, errors = collect_submissions(answers)
    err = errors_by_file(errors)[f"answers/{name}"]
    assert says in err.message and "octocat.mmd" in err.message
    assert [s.handle for s in subs] == ["octocat"]


def test_handles_differing_only_by_case_are_both_refused(answers):
    (answers / "Alice.mmd").write_text(GOOD, encoding="utf-8")
    (answers / "alice.mmd").write_text(GOOD, encoding="utf-8")
    subs, errors = collect_submissions(answers)
    found = errors_by_file(errors)
    assert "answers/alice.mmd" in found["answers/Alice.mmd"].message
    assert "answers/Alice.mmd" in found["answers/alice.mmd"].message
    assert [s.handle for s in subs] == ["octocat"]


def test_fifo_is_refused_without_blocking(answers):
    os.mkfifo(answers / "pipe.mmd")
    subs, errors = collect_submissions(answers)
    assert "answers/pipe.mmd" in errors_by_file(errors)
    assert [s.handle for s in subs] == ["octocat"]


def test_line_endings_and_bom_are_normalised(answers):
    (answers / "crlf.mmd").write_bytes(b"\xef\xbb\xbfsequenceDiagram\r\n    A->>B: x\r\n")
    subs, _ = collect_submissions(answers)
    assert {s.handle: s.text for s in subs}["crlf"] == "sequenceDiagram\n    A->>B: x\n"


def test_missing_folder_gives_nothing_and_a_file_gives_an_error(tmp_path):
    assert collect_submissions(tmp_path / "nope") == ([], [])
    (tmp_path / "answers").write_text("x")
    subs, errors = collect_submissions(tmp_path / "answers")
    assert subs == [] and errors[0].file == "answers"


def test_result_is_deterministic_and_sorted(answers):
    for name in ["zed.mmd", "Bob.mmd", "amy.corrected.mmd", "amy.mmd", "bad name.mmd", "x.txt"]:
        (answers / name).write_text(GOOD, encoding="utf-8")
    first = collect_submissions(answers)
    assert first == collect_submissions(answers)
    assert [s.rel_path for s in first[0]] == [
        "answers/amy.mmd", "answers/amy.corrected.mmd", "answers/Bob.mmd", "answers/octocat.mmd", "answers/zed.mmd",
    ]
    assert [e.file for e in first[1]] == ["answers/bad name.mmd", "answers/x.txt"]
    assert str(first[1][0]).startswith("answers/bad name.mmd:1: ")

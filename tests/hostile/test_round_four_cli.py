"""Round four: every CLI entry that reads a learner file (`drawcheck parse`, `drawcheck check`, `drawcheck
pr-check --files`, the pre-commit hook) reads it as the site's intake does. In a checkout of a stranger's
files, a linked folder (`answers/kubectl-apply -> /outside`) never leads out of the repository, a FIFO or a
device is never opened, a folder, a missing file, an oversized or overlong file each get one clear error
with file:line, in bounded time, and nothing of a file outside the repository is printed."""

from __future__ import annotations

import html
import os
import subprocess
import sys

import pytest

import round_four

CANARY = "outside-canary-7c2e"
COMMANDS = {
    "parse": ["parse", "--format", "text"],
    "parse-json": ["parse"],
    "check": ["check"],
    "check-json": ["check", "--format", "json"],
    "check-markdown": ["check", "--format", "markdown"],
    "pre-commit": ["pr-check", "--files"],
}


@pytest.fixture(scope="module")
def checkout(tmp_path_factory):
    """A repository checkout holding a stranger's answers, and a folder outside it with a private file."""
    tmp = tmp_path_factory.mktemp("round-four-cli")
    outside = tmp / "outside"
    outside.mkdir()
    (outside / "secret.mmd").write_text(f"sequenceDiagram\n    A->>B: {CANARY}\n", encoding="utf-8")
    repo = tmp / "repo"
    (repo / "answers").mkdir(parents=True)
    (repo / "mkdocs.yml").write_text((round_four.ROOT / "mkdocs.yml").read_text(encoding="utf-8"), encoding="utf-8")
    (repo / "reference").symlink_to(round_four.ROOT / "reference")  # the site's own data, not the learner's
    answers = repo / "answers"
    (answers / "ada.mmd").write_text(round_four.REFERENCE, encoding="utf-8")
    (answers / "kubectl-apply").symlink_to(outside)  # a linked exercise folder
    (answers / "deep").mkdir()
    (answers / "deep" / "up").symlink_to(outside)
    os.mkfifo(answers / "fifo.mmd")
    (answers / "folder.mmd").mkdir()
    (answers / "zero.mmd").symlink_to("/dev/zero")
    (answers / "big.mmd").write_text("sequenceDiagram\n" + "    A->>B: x\n" * 3000, encoding="utf-8")
    (answers / "huge.mmd").write_bytes(b"sequenceDiagram\n" + b"%" * 2_000_000)
    return repo


HOSTILE = {  # path in the checkout -> what the error must say
    "answers/kubectl-apply/secret.mmd": "a folder on the way to this file is a symbolic link",
    "answers/deep/up/secret.mmd": "a folder on the way to this file is a symbolic link",
    "answers/fifo.mmd": "not a regular file",
    "answers/folder.mmd": "not a regular file",
    "answers/zero.mmd": "symbolic link",
    "answers/missing.mmd": "no such file",
    "answers/big.mmd": "more than the 2,000 allowed",
    "answers/huge.mmd": "larger than 262,144 bytes",
}


def _run(repo, command: list[str], *paths: str):
    env = {**os.environ, "GITHUB_STEP_SUMMARY": "", "NO_COLOR": "1"}
    return subprocess.run([sys.executable, "-m", "drawcheck.cli", *command, *paths], cwd=repo, capture_output=True,
                          text=True, env=env, timeout=120)


@pytest.mark.parametrize("command", sorted(COMMANDS))
@pytest.mark.parametrize("path", sorted(HOSTILE))
def test_a_hostile_path_gets_one_clear_error(checkout, command, path):
    done = _run(checkout, COMMANDS[command], path, "answers/ada.mmd")
    out = done.stdout + done.stderr
    if command == "check-markdown":
        out = html.unescape(out)  # Markdown: every punctuation character is a character reference
    assert done.returncode in (1, 2), out
    assert "Traceback" not in out and "internal error" not in out, out
    assert CANARY not in out
    says = HOSTILE[path]
    if command == "pre-commit" and path.startswith("answers/deep/"):
        says = "no exercise's folder"  # the hook refuses a folder the site never reads before opening anything
    assert says in out, out
    assert path in out  # the error names the file
    if command.startswith("check") or command.startswith("parse"):
        assert "answers/ada.mmd" in out  # the good file beside it is still read


def test_a_file_outside_the_checkout_named_on_purpose_is_still_read(checkout):
    """The rule guards the checkout: a path the user gives outside it (their own file) is theirs to read."""
    outside = checkout.parent / "outside" / "secret.mmd"
    done = _run(checkout, ["parse", "--format", "text"], str(outside))
    assert done.returncode == 0 and "ok" in done.stdout, done.stdout + done.stderr

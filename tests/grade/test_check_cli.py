"""`drawcheck check`: formats, exit codes, escaping, default reference."""

from __future__ import annotations

import json
from pathlib import Path

from drawcheck.cli import main

REPO = Path(__file__).resolve().parents[2]
EXERCISE = REPO / "reference" / "two-cycles" / "exercise.yml"

GOLDEN = Path(__file__).resolve().parent / "golden"
CORRECT = REPO / "reference" / "two-cycles" / "reference.mmd"


def drawing(tmp_path: Path, name: str, golden: str) -> Path:
    import yaml

    path = tmp_path / name
    path.write_text(yaml.safe_load((GOLDEN / f"{golden}.yml").read_text())["drawing"])
    return path


def test_json_format_is_exactly_the_documented_shape(tmp_path, capsys):
    f = drawing(tmp_path, "permit.mmd", "boundary-before-permit-go")
    assert main(["check", str(f), str(CORRECT), "--format", "json", "--reference", str(EXERCISE)]) == 1
    data = json.loads(capsys.readouterr().out)
    assert list(data) == ["results"] and len(data["results"]) == 2
    first, second = data["results"]
    assert set(first) == {"file", "status", "score", "points", "boundary", "findings"}
    assert first["file"] == str(f) and first["status"] == "corrections" and 0 < first["score"] < 1
    assert all(set(p) == {"point", "label", "line", "cycle"} for p in first["points"])
    assert first["boundary"] == {"after": "Reserve", "before": "Permit", "line": 16}
    assert all({"kind", "point", "line", "severity", "message"} <= set(x) <= {"kind", "point", "line", "severity",
                                                                            "message", "version", "read", "number"}
               for x in first["findings"])
    assert sorted(x["number"] for x in first["findings"] if "number" in x) == \
        list(range(1, 1 + sum(x["severity"] == "correction" for x in first["findings"])))  # docs/grading.md
    # every finding with a line says what was read there
    assert all(x["read"] for x in first["findings"] if x["line"] is not None)
    b = next(x for x in first["findings"] if x["kind"] == "boundary")
    assert b["version"] == "v1.15–v1.17" and b["severity"] == "correction"
    assert second["status"] == "correct" and second["score"] == 1.0


def test_exit_codes(tmp_path, capsys):
    ok = str(CORRECT)
    assert main(["check", ok, "--reference", str(EXERCISE)]) == 0
    bad = drawing(tmp_path, "semi.mmd", "syntax-semicolon")
    wrong = drawing(tmp_path, "wrong.mmd", "no-reason-a")
    assert main(["check", str(wrong), "--reference", str(EXERCISE)]) == 1
    assert main(["check", ok, str(wrong), str(bad), "--reference", str(EXERCISE)]) == 2
    assert main(["check", str(tmp_path / "missing.mmd"), "--reference", str(EXERCISE)]) == 2
    capsys.readouterr()


def test_bad_reference_exits_2_with_file_and_line(tmp_path, capsys):
    ref = tmp_path / "exercise.yml"
    ref.write_text("exercise: x\ntitle: X\ncycles: {a: {name: a, words: [a]}}\nsteps:\n  - {id: S, cycle: b, tier: A}\n")
    assert main(["check", str(CORRECT), "--reference", str(ref)]) == 2
    err = capsys.readouterr().err
    assert f"{ref}:5:" in err and "use one of: a" in err


def test_text_format_numbers_circles_without_colour_off_a_tty(tmp_path, capsys, monkeypatch):
    monkeypatch.delenv("NO_COLOR", raising=False)
    f = drawing(tmp_path, "a.mmd", "assume-after-reserve-a")
    assert main(["check", str(f), "--reference", str(EXERCISE)]) == 1
    out = capsys.readouterr().out
    assert "\033[" not in out
    assert out.splitlines()[0].startswith(f"{f}: corrections, score ")
    first = next(line for line in out.splitlines() if line.startswith("  ① "))
    assert first.startswith("  ①    line 14   correction the assume (AssumePod) comes before Reserve")
    assert first.endswith("(your drawing matches Kubernetes v1.15 to about v1.18) (read: AssumePod) [cache-function]")
    # the numbers are the feedback page's: corrections only, in render.circles' order; hints unnumbered
    from drawcheck.grade import grade_file
    from drawcheck.reference import load_reference
    from drawcheck.render.circles import number_corrections

    result = grade_file(str(f), reference=load_reference(str(EXERCISE)))
    marks = [line.split()[0] for line in out.splitlines()[1:]]
    assert marks[: len(result.corrections)] == [n.circle for n in number_corrections(result)]
    assert set(marks[len(result.corrections):]) <= {"-"}


def test_colour_only_on_a_tty_and_never_with_no_color(tmp_path, monkeypatch):
    from drawcheck.grade import grade_file
    from drawcheck.grade.cli import text_report
    from drawcheck.reference import load_reference

    r = grade_file(drawing(tmp_path, "a.mmd", "assume-after-reserve-a"), reference=load_reference(EXERCISE))
    assert "\033[31m" in text_report(r, colour=True)
    assert "\033[" not in text_report(r, colour=False)

    class Tty:
        def __init__(self):
            self.parts = []

        def isatty(self):
            return True

        def write(self, s):
            self.parts.append(s)

    import drawcheck.grade.cli as cli

    for no_color, expect in (("", True), ("1", False)):
        tty = Tty()
        monkeypatch.setattr(cli.sys, "stdout", tty)
        if no_color:
            monkeypatch.setenv("NO_COLOR", no_color)
        else:
            monkeypatch.delenv("NO_COLOR", raising=False)
        main(["check", str(tmp_path / "a.mmd"), "--reference", str(EXERCISE)])
        assert ("\033[" in "".join(tty.parts)) is expect


def test_github_format_escapes_learner_text(tmp_path, capsys):
    f = tmp_path / "a,b:c.mmd"
    f.write_text(CORRECT.read_text().replace("S->>P: PreFilter", "S->>P: Pre%Filtr\r"))
    assert main(["check", str(f), "--format", "github", "--reference", str(EXERCISE)]) == 0
    lines = capsys.readouterr().out.splitlines()
    name = next(x for x in lines if "title=drawcheck%3A name" in x)
    assert name.startswith("::notice file=") and "a%2Cb%3Ac.mmd,line=10," in name
    assert "Pre%25Filtr" in name and "\r" not in name
    assert all(x.startswith(("::warning ", "::notice ", "::error ")) for x in lines)


def test_default_reference_is_found_from_the_package(tmp_path, capsys, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["check", str(CORRECT)]) == 0
    assert "correct, score 1.00" in capsys.readouterr().out


def test_github_format_stays_within_the_caps_and_writes_the_job_summary(tmp_path, capsys, monkeypatch):
    summary = tmp_path / "summary.md"
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    files = []
    for i in range(8):  # 8 empty-ish drawings: far more findings than GitHub shows per step
        f = tmp_path / f"learner{i}.mmd"
        f.write_text("sequenceDiagram\n    participant S\n    S->>S: PreFilter\n")
        files.append(str(f))
    assert main(["check", *files, "--format", "github", "--reference", str(EXERCISE)]) == 1
    lines = capsys.readouterr().out.splitlines()
    for level in ("warning", "notice"):
        mine = [x for x in lines if x.startswith(f"::{level} ")]
        assert 0 < len(mine) <= 10
    assert any("more" in x and "job summary" in x for x in lines)
    table = summary.read_text()
    assert all(f"learner{i}&#46;mmd" in table for i in range(8))


def test_a_flood_of_errors_gives_twenty_and_a_closing_line(tmp_path, capsys):
    """2,000 broken lines (256 KB): the report lists the first 20 with their lines, then says where it stopped."""
    f = tmp_path / "flood.mmd"
    f.write_text("sequenceDiagram\n" + "".join(f"    S=>P: {i} " + "x" * 100 + "\n" for i in range(1990)))
    assert main(["check", str(f), "--format", "json", "--reference", str(EXERCISE)]) == 2
    (result,) = json.loads(capsys.readouterr().out)["results"]
    syntax = [x for x in result["findings"] if x["kind"] == "syntax"]
    stopped = [x for x in syntax if "stopped reading" in x["message"]]
    assert len(stopped) == 1 and stopped[0] is syntax[-1] and stopped[0]["line"] == 21
    assert "line 21 after 20 errors" in stopped[0]["message"]
    lined = [x["line"] for x in syntax[:-1] if "maxTextSize" not in x["message"]]
    assert lined == list(range(2, 22))  # one per line, each with its line
    assert main(["check", str(f), "--reference", str(EXERCISE)]) == 2
    text = capsys.readouterr().out
    assert text.count("line ") <= 25 and "fix these first" in text


def test_the_reference_may_be_the_exercises_folder(tmp_path, capsys):
    """`--reference reference/two-cycles`, the folder mkdocs.yml names, reads its exercise.yml."""
    assert main(["check", str(CORRECT), "--reference", str(EXERCISE.parent)]) == 0
    assert "correct" in capsys.readouterr().out
    assert main(["check", str(CORRECT), "--reference", str(tmp_path)]) == 2  # a folder with no exercise.yml
    assert "exercise.yml" in capsys.readouterr().err

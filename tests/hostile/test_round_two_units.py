"""Issue #16, one rule per test: handles, includes, marks, linear regexes, the CLI."""

from __future__ import annotations

import os
import subprocess
import sys
import time

import pytest

from drawcheck import safety
from drawcheck.intake import collect_submissions
from drawcheck.snippets import include_problem

ROOT = __import__("pathlib").Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
BIG = 262_144


@pytest.mark.parametrize("name", ["index.mmd", "INDEX.mmd", "README.mmd", "readme.corrected.mmd", "example-x.mmd",
                                  "EXAMPLE-y.mmd"])
def test_handles_that_collide_with_site_pages_or_examples_are_refused(tmp_path, name):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / name).write_text(REFERENCE)
    found, errors = collect_submissions(tmp_path / "answers")
    assert found == [] and [e.file for e in errors] == [f"answers/{name}"]
    assert "page of the site" in errors[0].message or "examples" in errors[0].message


def test_listed_examples_are_accepted(tmp_path):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "example-one.mmd").write_text(REFERENCE)
    found, errors = collect_submissions(tmp_path / "answers", examples=["example-one"])
    assert [s.handle for s in found] == ["example-one"] and errors == []


def test_a_symlinked_template_is_refused(tmp_path):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "_template.mmd").symlink_to("/etc/passwd")
    _, errors = collect_submissions(tmp_path / "answers")
    assert [e.file for e in errors] == ["answers/_template.mmd"]


def test_includes_must_be_real_safe_files_inside_the_repository(tmp_path):
    (tmp_path / "a").mkdir()
    (tmp_path / "a" / "ok.mmd").write_text(REFERENCE)
    (tmp_path / "a" / "bad.mmd").write_text("sequenceDiagram\n    A->>B: x\n```\n<script>alert(1)</script>\n")
    (tmp_path / "a" / "link.mmd").symlink_to("/etc/passwd")
    (tmp_path / "linked").symlink_to(tmp_path / "a")
    assert include_problem(str(tmp_path / "a" / "ok.mmd"), str(tmp_path)) is None
    assert include_problem(str(tmp_path / "a" / "bad.mmd"), str(tmp_path))[0] == 3
    assert "symbolic link" in include_problem(str(tmp_path / "a" / "link.mmd"), str(tmp_path))[1]
    assert "symbolic link" in include_problem(str(tmp_path / "linked" / "ok.mmd"), str(tmp_path))[1]
    assert "outside" in include_problem("/etc/passwd", str(tmp_path))[1]


@pytest.mark.parametrize("text", ["a ##[error]b", "::error::x", "x::y", "###[group]", "\x1b[2J##[x]", "a\u2028::b"])
def test_no_workflow_command_survives_any_escaper(text):
    for out in (safety.log_text(text), safety.workflow_text(text), safety.workflow_property(text)):
        assert "##[" not in out and "::" not in out and "\x1b" not in out


def test_mark_glyphs_and_colours_are_reserved():
    assert safety.unmark("\u2460 \u3251 \u32b1 \u2776 \u24b6 1\u20dd") == "(1) (21) (36) (1) (A) 1"
    marks = ("rgba(46, 160, 67, 0.22)", "rgba(220, 50, 47, 0.18)", "rgba(255, 170, 0, 0.22)")
    for near in marks + ("rgba(46,160,67,0.2)", "rgba(46, 160, 67, 0.12)", "rgb(209, 234, 213)"):
        assert safety.learner_rect_colour(near, reserved=marks, neutral="N") == "N", near
    for far in ("rgb(227, 238, 252)", "rgb(232, 246, 232)", "rgb(10, 20, 30)"):
        assert safety.learner_rect_colour(far, reserved=marks, neutral="N") == far


# Every regex outside parse/ that sees learner text, fed its worst case at the site's size limit. A linear
# regex takes milliseconds here; the quadratic ones this replaces took tens of seconds to minutes.
def _worst_cases():
    from drawcheck.render import feedback

    runs = {ch: ch * BIG for ch in " a1-#&:<\\%{$"}
    cases = [(f"feedback._ASSUMED {k!r}", feedback._ASSUMED.match, "assumed" + v) for k, v in runs.items()]
    cases += [(f"feedback._ASSUMED digits+{k!r}", feedback._ASSUMED.match, "assumed 1" + v) for k, v in runs.items()]
    cases += [(f"find_unsafe {k!r}", lambda t: safety.find_unsafe(None, t), "sequenceDiagram\n A->>B: " + v)
              for k, v in runs.items()]
    cases += [("find_unsafe lines", lambda t: safety.find_unsafe(None, t), "<\n" * (BIG // 2)),
              ("find_unsafe entities", lambda t: safety.find_unsafe(None, t), "&#" * (BIG // 2)),
              ("find_unsafe json", lambda t: safety.find_unsafe(None, t), "links A: \\u006a" * (BIG // 12))]
    for name in ("mermaid_text", "html_text", "log_text", "workflow_text", "workflow_property", "learner_label",
                 "neutralise_commands", "unmark", "display_name"):
        fn = getattr(safety, name)
        cases += [(f"{name} {k!r}", (lambda f: lambda t: f(t))(fn), v) for k, v in runs.items()]
        cases.append((f"{name} mixed", (lambda f: lambda t: f(t))(fn), ":#[\u2460" * (BIG // 4)))
    cases += [("learner_rect_colour", lambda t: safety.learner_rect_colour(t, reserved=(), neutral="N"),
               "rgb(1" + " " * BIG)]
    return cases


@pytest.mark.parametrize("name,fn,text", _worst_cases(), ids=lambda v: v if isinstance(v, str) and len(v) < 80 else "")
def test_every_regex_on_learner_text_is_linear(name, fn, text):
    start = time.process_time()
    fn(text)
    assert time.process_time() - start < 3, f"{name} is not linear"


def test_grading_worst_cases_end_quickly_or_with_the_time_budget(tmp_path):
    """recognise/ and grade/ regexes, through the whole check, under the CLI's budget."""
    shapes = {"spaces": "S->>P: x" + " " * BIG, "words": "S->>P: " + "a " * (BIG // 2),
              "note": "Note over S: reason: " + "go " * (BIG // 3), "digits": "S->>P: " + "1" * BIG}
    for name, body in shapes.items():
        path = tmp_path / f"{name}.mmd"
        path.write_text(("sequenceDiagram\n    " + body)[:BIG - 10] + "\n")
        done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "check", "--max-seconds", "20", str(path)],
                              capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr and done.returncode in (0, 1, 2), name
        assert "took longer than" not in done.stdout, f"{name}: grading is not linear"


@pytest.mark.parametrize("content", [b"\xff\xfe", b"sequenceDiagram\n" + b"loop x\n" * 900 + b"end\n" * 900,
                                     b"x" * (BIG + 1), b"\0", b"sequenceDiagram\n" + b"A->>B: x\n" * 2001])
def test_the_cli_never_prints_a_traceback(tmp_path, content):
    path = tmp_path / "x.mmd"
    path.write_bytes(content)
    for command in ("check", "parse"):
        done = subprocess.run([sys.executable, "-m", "drawcheck.cli", command, str(path), str(tmp_path)],
                              capture_output=True, text=True, timeout=120)
        assert "Traceback" not in done.stderr + done.stdout and done.returncode == 2, (command, done.stderr[-500:])
        assert "x.mmd" in done.stdout


def test_a_file_name_that_is_not_utf8_prints_under_strict_utf8(tmp_path):
    name = os.fsdecode(b"bad-\xff.mmd")
    (tmp_path / name).write_text(REFERENCE)
    env = {**os.environ, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    for fmt in ("text", "json", "github"):
        done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "check", "--format", fmt, str(tmp_path / name)],
                              capture_output=True, env=env, timeout=120)
        assert b"Traceback" not in done.stderr and done.returncode in (0, 1), (fmt, done.stderr[-300:])

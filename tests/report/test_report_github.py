"""Log lines, GitHub annotations (within GitHub's caps, none dropped silently) and the job summary."""

from __future__ import annotations

import re

import pytest

from drawcheck.grade.model import Finding, Result
from drawcheck.report import annotation, annotation_level, annotations, format_log_line, job_summary, report_lines
from drawcheck.report.lines import ReportLine

EVIL = "oops\n::stop-commands::pwned\r\n::error file=x::y %0A"


def _item(n=1, message="m", file="answers/a.mmd", kind="order"):
    return ReportLine(file, n, kind, "correction", message)


def test_log_line_format_and_flattening():
    assert format_log_line(_item(14, "Permit runs in the scheduling cycle")) == \
        "drawcheck: answers/a.mmd:14: Permit runs in the scheduling cycle"
    assert format_log_line(ReportLine("answers/a.mmd", None, "missing", "correction", "x", "v1.15", "Kubernetes")) == \
        "drawcheck: answers/a.mmd: x (your drawing matches Kubernetes v1.15)"
    assert format_log_line(ReportLine("answers/a.mmd", 3, "missing", "correction", "x", "v1.15")) == \
        "drawcheck: answers/a.mmd:3: x (your drawing matches v1.15)"
    line = format_log_line(_item(2, "a\x1b[31mred\nnext"))
    assert "\n" not in line and "\x1b" not in line


def test_report_lines_classify_errors_and_sort_by_line():
    r = Result("answers/a.mmd", "invalid", 0.0, findings=[
        Finding("order", "Permit", 9, "correction", "late"),
        Finding("syntax", None, 3, "correction", "bad arrow"),
        Finding("cache-function", None, None, "correction", "name it"),
        Finding("extra", None, 5, "hint", "not a point"),
    ])
    items = report_lines(r)
    assert [(i.line, i.severity) for i in items] == [(3, "error"), (5, "hint"), (9, "correction"), (None, "correction")]


def test_annotation_escapes_learner_text_so_it_cannot_issue_commands():
    cmd = annotation("notice", _item(7, EVIL, file="answers/a,b:c.mmd"))
    assert cmd.count("\n") == 0 and "\r" not in cmd
    assert cmd.startswith("::notice file=answers/a%2Cb%3Ac.mmd,line=7,title=drawcheck%3A order::")
    assert cmd.endswith("::oops : :stop-commands: :pwned : :error file=x: :y %250A")  # one line, % escaped, no `::`


def test_annotation_levels_follow_log_levels():
    assert [annotation_level(n) for n in (10, 20, 30, 40, 50)] == ["notice", "notice", "warning", "error", "error"]


def _count(cmds, level):
    shown = [c for c in cmds if c.startswith(f"::{level} file=")]
    more = [int(m.group(1)) for c in cmds if c.startswith(f"::{level} title=")
            for m in [re.search(r"::\+(\d+) more", c)]]
    return len(shown), sum(more), len([c for c in cmds if c.startswith(f"::{level} ")])


def test_caps_per_level_keep_a_summary_annotation_and_drop_nothing():
    items = [("notice", _item(i)) for i in range(25)] + [("error", _item(i)) for i in range(3)]
    cmds = annotations(items, per_level=10, total=50)
    assert _count(cmds, "notice") == (9, 16, 10)
    assert _count(cmds, "error") == (3, 0, 3)
    assert "see the job summary" in cmds[-1]


@pytest.mark.parametrize("total", [3, 12, 25, 50])
def test_total_cap_is_respected_and_every_finding_accounted_for(total):
    items = [(lv, _item(i)) for lv in ("error", "warning", "notice") for i in range(14)]
    cmds = annotations(items, per_level=10, total=total)
    assert len(cmds) <= min(total, 30)
    for level in ("error", "warning", "notice"):
        shown, more, emitted = _count(cmds, level)
        assert emitted >= 1 and shown + more == 14 and emitted <= 10


def test_job_summary_lists_every_finding_escaped():
    r = Result("answers/a.mmd", "corrections", 0.25, findings=[
        Finding("order", "Permit", 9, "correction", "a | b <script>"),
        Finding("missing", "Bind", None, "correction", "Bind is missing", "v1.15"),
    ])
    text = job_summary([r, Result("answers/b.mmd", "invalid", 0.0)], product="Kubernetes")
    assert "| <code>answers&#47;a&#46;mmd</code> | corrections | 25 % | 2 |" in text
    assert "| <code>answers&#47;b&#46;mmd</code> | invalid | — | 0 |" in text
    assert "### Findings (2)" in text
    assert "a &#124; b &#60;script&#62;" in text and "<script>" not in text
    assert "*(your drawing matches Kubernetes v1&#46;15)*" in text


def test_github_annotations_for_the_cli_respect_the_caps():
    from drawcheck.report import github_annotations

    results = [Result(f"answers/l{i}.mmd", "invalid", 0.0, findings=[
        Finding("syntax", None, 2, "correction", "bad"), Finding("order", "Permit", 5, "correction", "late", "v1.15"),
        Finding("extra", None, 7, "hint", "not a point")]) for i in range(12)]
    cmds = github_annotations(results, product="Kubernetes", total=25)
    assert len(cmds) <= 25
    for level in ("error", "warning", "notice"):
        shown, more, emitted = _count(cmds, level)
        assert shown + more == 12 and emitted <= 10
    assert any("(your drawing matches Kubernetes v1.15)" in c for c in cmds)

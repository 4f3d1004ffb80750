"""Under GitHub Actions the build prints annotations on the answer files' lines and writes the job summary."""

from __future__ import annotations

import re

from plugin_site import CORPUS, ROOT, build
from drawcheck.grade import grade_text
from drawcheck.reference import load_reference
from drawcheck.report import report_lines

REFERENCE = load_reference(str(ROOT / "reference" / "two-cycles" / "exercise.yml"))
COMMAND = re.compile(r"^::(notice|warning|error) (?:file=([^,]+),(?:line=(\d+),)?)?title=[^:]+::(.*)$")


def _findings(names):
    out = []
    for name in names:
        text = (CORPUS / name).read_text(encoding="utf-8")
        out += report_lines(grade_text(text, file=f"answers/{name}", reference=REFERENCE), product=REFERENCE.product)
    return out


def test_annotations_and_summary_cover_every_finding(site_factory, caplog, capsys, monkeypatch, tmp_path):
    summary = tmp_path / "summary.md"
    summary.write_text("earlier step\n", encoding="utf-8")
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(summary))
    built = build(site_factory(), caplog, strict=False)
    assert built.error is None
    commands = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::")]
    parsed = [COMMAND.match(c) for c in commands]
    assert commands and all(parsed), [c for c, m in zip(commands, parsed) if not m]

    items = [i for i in _findings(sorted(p.name for p in CORPUS.glob("*.mmd"))) if i.severity != "hint"]
    levels = {"error": "error", "correction": "notice"}  # errors always; corrections by their log level, INFO
    assert len(commands) <= 25
    for level in ("notice", "error"):
        expected = [i for i in items if levels[i.severity] == level]
        shown = [m for m in parsed if m.group(1) == level and m.group(2)]
        more = sum(int(x) for m in parsed if m.group(1) == level and not m.group(2)
                   for x in re.findall(r"^\+(\d+) more", m.group(4)))
        assert len(shown) + more == len(expected) and 0 < len(shown) <= 10
        for m in shown:
            assert any(i.file == m.group(2) and str(i.line or "") == (m.group(3) or "") for i in expected)
    assert any(m.group(1) == "error" and m.group(2) == "answers/margaret.mmd" and m.group(3) == "4" for m in parsed)

    text = summary.read_text(encoding="utf-8")
    assert text.startswith("earlier step\n")  # appended, not overwritten
    all_items = _findings(sorted(p.name for p in CORPUS.glob("*.mmd")))
    assert f"### Findings ({len(all_items)})" in text
    for name in ("ada", "grace", "margaret", "mallory"):
        assert f"<code>answers&#47;{name}&#46;mmd</code>" in text


def test_caps_hold_with_many_broken_files(site_factory, caplog, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "s.md"))
    broken = {f"learner-{i}.mmd": "sequenceDiagram\n    S->>: broken\n" for i in range(30)}
    build(site_factory(broken, corpus=False), caplog, strict=False)
    commands = [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::")]
    errors = [c for c in commands if c.startswith("::error ")]
    assert len(errors) == 10
    assert re.search(r"::\+21 more error finding\(s\) in 21 file\(s\) — see the job summary$", errors[-1])
    assert len(commands) <= 25


def test_nothing_is_printed_outside_github_actions(site_factory, caplog, capsys, tmp_path):
    built = build(site_factory(), caplog, strict=False)
    assert built.records  # findings were logged...
    assert not [ln for ln in capsys.readouterr().out.splitlines() if ln.startswith("::")]  # ...but not annotated


def test_learner_text_cannot_issue_workflow_commands(site_factory, caplog, capsys, monkeypatch, tmp_path):
    monkeypatch.setenv("GITHUB_ACTIONS", "true")
    monkeypatch.setenv("GITHUB_STEP_SUMMARY", str(tmp_path / "s.md"))
    evil = "sequenceDiagram\n    participant S\n    S->>S: PreFiltr ::stop-commands::tok\n    S->>S: ::error file=x::owned\n"
    build(site_factory({"eve.mmd": evil}, corpus=False), caplog, strict=False)
    out = capsys.readouterr().out.splitlines()
    assert out and all(COMMAND.match(ln) for ln in out if ln.startswith("::"))
    assert not any(ln.startswith("::stop-commands") or ln.startswith("::error file=x") for ln in out)

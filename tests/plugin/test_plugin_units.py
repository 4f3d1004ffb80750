"""Small pure helpers of the plugin: nav lookup, option line numbers, the build report's levels."""

from __future__ import annotations

import io
import logging

from drawcheck.grade.model import Finding, Result
from drawcheck.plugin.build_report import BuildReport
from drawcheck.plugin.options import option_line
from drawcheck.plugin.pages import nav_mentions
from drawcheck.render.model import Graded, Refused


def test_nav_mentions_finds_nested_entries():
    nav = ["index.md", {"Section": [{"Overview": "feedback/index.md"}]}]
    assert nav_mentions(nav, "feedback/index.md")
    assert not nav_mentions(["index.md", {"A": "table.md"}], "feedback/index.md")


def test_option_line(tmp_path):
    yml = tmp_path / "mkdocs.yml"
    yml.write_text("site_name: x\nplugins:\n  - search\n  - drawcheck:\n      answers_dir: nope\n", encoding="utf-8")
    assert option_line(str(yml), "answers_dir") == 5
    assert option_line(str(yml), "feedback_dir") == 4  # falls back to the plugin's own line
    assert option_line(str(tmp_path / "missing.yml"), "x") == 1


def test_build_report_levels_and_github_output(caplog, tmp_path):
    summary = tmp_path / "s.md"
    out = io.StringIO()
    report = BuildReport(correction_level="INFO", error_level="ERROR", github=True, per_level=10, total=25,
                         product="Kubernetes", environ={"GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary)},
                         stdout=out)
    result = Result("answers/a.mmd", "invalid", 0.0, findings=[
        Finding("syntax", None, 2, "correction", "bad arrow"),
        Finding("order", "Permit", 5, "correction", "late", "v1.15"),
        Finding("extra", None, 7, "hint", "not a point")])
    caplog.set_level(logging.DEBUG, logger="mkdocs.plugins.drawcheck")
    report.emit([Graded("a", "answers/a.mmd", result)], [Refused("answers/b c.mmd", 1, "bad name")])
    got = {(r.levelno, r.getMessage()) for r in caplog.records}
    assert (logging.ERROR, "drawcheck: answers/a.mmd:2: bad arrow") in got
    assert (logging.INFO, "drawcheck: answers/a.mmd:5: late (your drawing matches Kubernetes v1.15)") in got
    assert (logging.DEBUG, "drawcheck: answers/a.mmd:7: not a point") in got
    assert (logging.ERROR, "drawcheck: answers/b c.mmd:1: bad name") in got
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("::error file=answers/a.mmd,line=2,")
    assert any(ln.startswith("::error file=answers/b c.mmd,line=1,") for ln in lines)
    assert any(ln.startswith("::notice file=answers/a.mmd,line=5,") for ln in lines)
    assert not any("not a point" in ln for ln in lines)  # hints are not annotated
    assert "### Findings (4)" in summary.read_text(encoding="utf-8")


def test_build_report_is_quiet_outside_github(tmp_path):
    out = io.StringIO()
    report = BuildReport(correction_level="INFO", error_level="WARNING", github=True, per_level=10, total=25,
                         environ={"GITHUB_STEP_SUMMARY": str(tmp_path / "s.md")}, stdout=out)
    report.emit([Graded("a", "answers/a.mmd", Result("answers/a.mmd", "corrections", 0.5,
                                                      findings=[Finding("order", "X", 1, "correction", "m")]))], [])
    assert out.getvalue() == "" and not (tmp_path / "s.md").exists()


def test_shim_is_loaded_right_after_the_mermaid_script():
    from drawcheck.plugin.mermaid import insert_shim

    html = '<body><script src="../../assets/javascripts/mermaid.min.js"></script><script>x</script></body>'
    out = insert_shim(html, "feedback/ada/")
    assert out.index("mermaid.min.js") < out.index("drawcheck-mermaid.js") < out.index("<script>x")
    assert '<script src="../../assets/javascripts/drawcheck-mermaid.js"></script>' in out
    assert insert_shim("<body>no diagrams</body>", "") == "<body>no diagrams</body>"
    top = insert_shim('<script src="https://cdn.example/mermaid@12.3.0/dist/mermaid.min.js"></script>', "")
    assert top.endswith('<script src="assets/javascripts/drawcheck-mermaid.js"></script>')

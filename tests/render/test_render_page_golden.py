"""Golden feedback pages: one YAML per case in golden/pages/ with the learner's drawing, the grader's result,
and the whole page Markdown expected (correct shown once, status naming the corrections, the table, links,
the compiler-style syntax-error page with the part that parsed).

Regenerate after a deliberate change with DRAWCHECK_UPDATE_GOLDEN=1 (then read the diff before committing).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from drawcheck.grade.model import Finding, Result
from drawcheck.parse import parse_text
from drawcheck.render.feedback import feedback_page, feedback_setup
from drawcheck.render.model import Graded, page_links

from render_fixtures import make_reference
from test_render_golden import _Literal, _result

CASES = sorted((Path(__file__).parent / "golden" / "pages").glob("*.yml"))


def _graded(data: dict) -> Graded:
    diagram = parse_text(data["input"])
    if diagram.valid:
        result = _result(data)
    else:  # as the grader reports a file that does not parse: one syntax finding per error
        result = Result("answers/case.mmd", "invalid", 0.0,
                        findings=[Finding("syntax", None, e.line, "correction", e.message) for e in diagram.errors])
    return Graded("case", "answers/case.mmd", result, diagram)


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_page_golden(case):
    data = yaml.safe_load(case.read_text(encoding="utf-8"))
    links = page_links(repo_url=data.get("repo_url"), edit_uri=data.get("edit_uri"), reference="../index.md#check-your-drawing")
    got = feedback_page(_graded(data), feedback_setup(make_reference(), links))
    if os.environ.get("DRAWCHECK_UPDATE_GOLDEN"):
        data["expected"] = got
        case.write_text(yaml.dump(data, Dumper=_Literal, sort_keys=False, allow_unicode=True, width=120,
                                  default_flow_style=None), encoding="utf-8")
    assert got == data["expected"]
    for block in got.split("```mermaid\n")[1:]:  # every drawing on the page is one Mermaid accepts
        assert parse_text(block.split("```")[0]).valid


def test_there_are_page_cases():
    assert len(CASES) >= 4

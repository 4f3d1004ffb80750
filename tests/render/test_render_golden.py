"""Golden cases: one YAML per case with the learner's drawing, the grader's result, and the circled Mermaid expected.

Regenerate after a deliberate change with DRAWCHECK_UPDATE_GOLDEN=1 (then read the diff before committing).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
import yaml

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint, Finding, Result
from drawcheck.parse import parse_text
from drawcheck.render.feedback import feedback_setup, number_corrections, overlay
from drawcheck.render.mermaid import render_diagram

from render_fixtures import make_reference

class _Literal(yaml.SafeDumper):
    """Multi-line strings as `|` blocks, so a golden file reads like the diagram it holds."""


_Literal.add_representer(str, lambda d, s: d.represent_scalar("tag:yaml.org,2002:str", s, style="|" if "\n" in s else None))
CASES = sorted(Path(__file__).with_name("golden").glob("*.yml"))


def _result(data: dict) -> Result:
    return Result(
        file="answers/case.mmd", status=data.get("status", "corrections"), score=data.get("score", 0.5),
        points=[DrawnPoint(p[0], p[0], p[1], None) for p in data.get("points", [])],
        boundary=BoundaryPlacement(*data["boundary"]) if data.get("boundary") else None,
        findings=[Finding(f["kind"], f.get("point"), f.get("line"), f.get("severity", "correction"), f["message"])
                  for f in data.get("findings", [])],
    )


@pytest.mark.parametrize("case", CASES, ids=[c.stem for c in CASES])
def test_golden(case):
    data = yaml.safe_load(case.read_text(encoding="utf-8"))
    diagram = parse_text(data["input"])
    assert diagram.valid, diagram.errors
    result = _result(data)
    circles, insertions = overlay(result, feedback_setup(make_reference()), number_corrections(result))
    got = render_diagram(diagram, circles=circles, insertions=insertions, autonumber=not (circles or insertions))
    if os.environ.get("DRAWCHECK_UPDATE_GOLDEN"):
        data["expected"] = got
        case.write_text(yaml.dump(data, Dumper=_Literal, sort_keys=False, allow_unicode=True, width=120,
                                           default_flow_style=None), encoding="utf-8")
    assert got == data["expected"]
    assert parse_text(got).valid


def test_there_are_golden_cases():
    assert len(CASES) >= 3

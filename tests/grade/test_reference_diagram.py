"""The site's reference drawing must grade as correct against the reference data."""

from __future__ import annotations

from drawcheck.grade import grade_text


def test_reference_mmd_is_correct(reference):
    result = grade_text(reference.reference_diagram, file="reference.mmd", reference=reference)
    assert result.status == "correct", [(f.kind, f.point, f.line, f.message) for f in result.findings]
    assert result.score == 1.0
    assert not result.corrections
    drawn = {p.point for p in result.points}
    required = {s.id for s in reference.steps if s.required}
    assert required <= drawn
    assert result.boundary is not None and result.boundary.after == reference.boundary.after
    cycles = {p.point: p.cycle for p in result.points}
    for step in reference.steps:
        if step.id in cycles and reference.cycles[step.cycle].role == "main":
            assert cycles[step.id] == step.cycle, step.id

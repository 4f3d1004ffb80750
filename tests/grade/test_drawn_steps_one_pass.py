"""The one pass over the drawn steps, and the checks that read notable items instead of every mention,
equal their plain definitions (written out here as they were before the pass), on the golden drawings
and on random variants of them, for both reference exercises."""

from __future__ import annotations

import pytest

from drawcheck.grade import checks
from drawcheck.parse import parse_text
from drawcheck.recognise import recognise

from test_recognise_one_pass import DRAWINGS  # the golden drawings and random variants of them


def _sides_by_definition(rec, ref):
    """(early, late, strays), walking the reference's steps in order."""
    spec, found = ref.boundary, rec.boundary
    if spec is None or found is None:
        return [], [], []
    cut = ref.step(spec.after).index
    before_cut, after_cut, wrong_before, wrong_after = [], [], [], []
    for s in ref.steps:
        if s.branch is not None or ref.cycles[s.cycle].role != "main" or s.tier == "D":
            continue
        m = rec.first.get(s.id)
        if m is None:
            continue
        drawn_after = m.item.index >= found.index
        if s.index <= cut:
            before_cut.append(m)
            if drawn_after:
                wrong_before.append(m)
        else:
            after_cut.append(m)
            if not drawn_after:
                wrong_after.append(m)
    strays, early, late = [], wrong_before, wrong_after
    if early and {m.step for m in early} != {m.step for m in before_cut[-len(early):]}:
        strays, early = strays + early, []
    if late and {m.step for m in late} != {m.step for m in after_cut[:len(late)]}:
        strays, late = strays + late, []
    return early, late, strays


def _points_by_definition(rec, ref):
    """(step, label, line, cycle) of each drawn step; an unlabelled one on a side takes that side's cycle."""
    out = []
    for m in rec.first.values():
        cycle = m.item.cycle
        if cycle is None and rec.boundary is not None and ref.cycles[ref.step(m.step).cycle].role == "main":
            cycle = rec.effective_cycle(m.item, ref.boundary.cycles)
        out.append((m.step, m.label, m.line, cycle))
    return out


def _in_order_by_definition(rec, ref):
    path = [s.id for s in checks.main_path_steps(ref)]
    drawn = [ref.step(step).index for step in rec.first if step in path]
    return drawn == sorted(drawn)


def _labelled_wrong_by_definition(rec, ref):
    branch_cycles = {c.id for c in ref.cycles.values() if c.role == "branch"}
    out = []
    for m in rec.first.values():
        step = ref.step(m.step)
        fine = {step.cycle, *step.also_in, *branch_cycles}
        if m.item.cycle is not None and m.item.cycle not in fine:
            out.append((m, m.item.cycle))
    return out


def _misnamed_by_definition(rec):
    """(step, label, line, how) of every mention not written exactly, in source order."""
    return [(m.step, m.label, m.line, m.how) for m in rec.mentions if m.how != "exact"]


def _misnamed_from_notable(rec):
    return [(step, label, item.line, how)
            for item in rec.notable if item.info.misnamed and item.role != "boundary"
            for step, label, _, how, _ in item.info.hits if how != "exact"]


@pytest.mark.parametrize("exercise", ["reference", "tcp_reference"])
def test_the_pass_equals_the_definitions(request, exercise):
    ref = request.getfixturevalue(exercise)
    seen = {"early": 0, "late": 0, "strays": 0, "out of order": 0, "labelled wrong": 0, "misnamed": 0}
    for text in DRAWINGS:
        rec = recognise(parse_text(text), ref)
        steps = checks.drawn_steps(rec, ref)
        early, late, strays = _sides_by_definition(rec, ref)
        assert (steps.early, steps.late, steps.strays) == (early, late, strays)
        assert [(p.point, p.label, p.line, p.cycle) for p in steps.points] == _points_by_definition(rec, ref)
        assert steps.in_order == _in_order_by_definition(rec, ref)
        assert steps.labelled_wrong == _labelled_wrong_by_definition(rec, ref)
        assert _misnamed_from_notable(rec) == _misnamed_by_definition(rec)
        seen["early"] += bool(early)
        seen["late"] += bool(late)
        seen["strays"] += bool(strays)
        seen["out of order"] += not steps.in_order
        seen["labelled wrong"] += bool(steps.labelled_wrong)
        seen["misnamed"] += bool(_misnamed_by_definition(rec))
    if exercise == "reference":  # the drawings exercise every branch of the pass
        assert all(seen.values()), seen


def test_missing_lists_absent_steps_in_reference_order(reference):
    for text in DRAWINGS:
        rec = recognise(parse_text(text), reference)
        found = checks.missing(rec, reference)
        expected = [f for f in (f for f, _ in checks.missing(recognise(parse_text("sequenceDiagram\n"), reference),
                                                              reference))
                    if f.point not in rec.first]
        assert [f for f, _ in found] == expected

"""Where the drawn steps are: their points and phases, the boundary's placement, their order and sides.

`Plan` is built once per exercise (when it loads); `lay_out` runs once per drawing, before the checks.
"""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint
from drawcheck.recognise import Mention, Recognised
from drawcheck.reference.model import Reference, Step

TIER_WEIGHT = {"A": 3, "B": 3, "C": 2, "D": 1}


@dataclass(frozen=True, slots=True)
class StepFacts:
    """What placing a drawn step needs to know of it."""

    position: int  # its reference position when on the main path, else -1
    weight: int  # what keeping it in order is worth (by its tier)
    before: bool | None  # for a step a moved boundary can explain: does it belong before the boundary?
    rank: int  # its place in the reference's list of steps
    fine: frozenset  # the phases it may be drawn in (its own, also_in, any branch phase)
    off_sides: bool  # outside both sides of the boundary: the boundary cannot tell its phase
    placement: bool  # a boundary placement may be named after it


@dataclass(frozen=True, slots=True)
class Plan:
    main_path: tuple[Step, ...]  # steps on the straight line through the main phases, in reference order
    facts: dict[str, StepFacts]


def plan(ref: Reference) -> Plan:
    claimed = ref.claimed
    path = tuple(s for s in ref.steps
                 if s.branch is None and ref.phases[s.cycle].role == "main" and s.id not in claimed)
    on_path = {s.id for s in path}
    placement = on_path | claimed
    boundary = ref.boundary
    cut = ref.step(boundary.after).index if boundary is not None else None
    branch_phases = [p.id for p in ref.phases.values() if p.role == "branch"]
    facts = {}
    for rank, s in enumerate(ref.steps):
        main = ref.phases[s.cycle].role == "main"
        sided = cut is not None and s.branch is None and main and s.tier != "D"
        facts[s.id] = StepFacts(
            position=s.index if s.id in on_path else -1, weight=TIER_WEIGHT[s.tier],
            before=(s.index <= cut) if sided else None, rank=rank,
            fine=frozenset((s.cycle, *s.also_in, *branch_phases)), off_sides=not main, placement=s.id in placement,
        )
    return Plan(path, facts)


@dataclass(frozen=True, slots=True)
class Layout:
    """What one pass over the drawn steps (`first`, in source order) finds."""

    points: list[DrawnPoint]  # every drawn step with its phase (the boundary's side when unlabelled)
    placement: BoundaryPlacement | None
    in_order: bool  # the main-path steps are drawn in reference order
    early: list[Mention]  # steps on the wrong side of the boundary that a moved boundary explains
    late: list[Mention]
    strays: list[Mention]  # any other step on its wrong side: that step is misplaced, not the boundary
    labelled_wrong: list[tuple[Mention, str]]  # steps labelled with a phase they do not run in


def drawn_order(rec: Recognised, facts: dict[str, StepFacts]) -> list[Mention]:
    """The drawn steps (`first`) in the order the drawing says they run: source order, except that the
    branches of a `par` run side by side and those of an `alt` or `critical` instead of each other, so
    their steps are interleaved by reference position (each branch keeps its own order). An old name for
    several of today's steps draws them all at one place; there it counts once, as the first of them in
    the reference (that it merges them is the name check's to say, not an order mistake)."""
    out: list[Mention] = []
    group: list[Mention] = []
    for m in _one_per_merged_name(list(rec.first.values()), facts):
        block = m.item.context.branch_of[0] if m.item.context.branch_of else None
        if group and block != group[0].item.context.branch_of[0]:
            out += _interleave(group, facts)
            group = []
        if block is None:
            out.append(m)
        else:
            group.append(m)
    return out + _interleave(group, facts)


def _one_per_merged_name(mentions: list[Mention], facts: dict[str, StepFacts]) -> list[Mention]:
    """`mentions` without the steps an old name draws beside the first of its steps in the reference."""
    merged = {(m.item.index, m.pos): m.legacy for m in mentions if m.legacy is not None and m.legacy.also}
    if not merged:
        return mentions
    first: dict[tuple[int, int], Mention] = {}
    for m in mentions:
        legacy = merged.get((m.item.index, m.pos))
        if legacy is not None and (m.legacy is legacy or m.step in legacy.also):
            kept = first.get((m.item.index, m.pos))
            if kept is None or _reference_place(facts[m.step]) < _reference_place(facts[kept.step]):
                first[(m.item.index, m.pos)] = m
    return [m for m in mentions if first.get((m.item.index, m.pos), m) is m]


def _reference_place(f: StepFacts) -> tuple[bool, int]:
    return f.position < 0, f.position  # steps off the main path last


def _interleave(group: list[Mention], facts: dict[str, StepFacts]) -> list[Mention]:
    branches: dict[tuple[int, int], list[Mention]] = {}
    for m in group:
        branches.setdefault(m.item.context.branch_of, []).append(m)
    heads = [b for b in branches.values()]
    out = []
    while heads:
        # the branch whose next step comes first in the reference (steps off the main path go at once)
        pick = min(heads, key=lambda b: facts[b[0].step].position)
        out.append(pick.pop(0))
        heads = [b for b in heads if b]
    return out


def lay_out(rec: Recognised, ref: Reference, the_plan: Plan) -> Layout:
    facts = the_plan.facts
    found = rec.boundary
    points: list[DrawnPoint] = []
    labelled_wrong: list[tuple[Mention, str]] = []
    in_order, last = True, -1
    cut = found.index if found is not None else None
    before_phase, after_phase = ref.boundary.phases if found is not None else (None, None)
    before = after = None
    wrong_sides = False
    for m in drawn_order(rec, facts):
        if facts[m.step].position >= 0:
            if facts[m.step].position < last:
                in_order = False
            last = facts[m.step].position
    for m in rec.first.values():
        f = facts[m.step]
        phase = m.item.phase
        if phase is not None and phase not in f.fine:
            labelled_wrong.append((m, phase))
        if cut is not None:
            drawn_after = m.item.index >= cut
            if phase is None and not f.off_sides:  # the boundary says; it cannot tell for a step outside both sides
                phase = after_phase if drawn_after else before_phase
            if f.placement:
                if not drawn_after:
                    before = m.step
                elif after is None:
                    after = m.step
            if f.before is drawn_after:  # None (no side) is neither
                wrong_sides = True
        points.append(DrawnPoint(m.step, m.label, m.line, phase))
    if cut is None:
        return Layout(points, None, in_order, [], [], [], labelled_wrong)
    early, late, strays = _wrong_sides(rec, facts, cut) if wrong_sides else ([], [], [])
    return Layout(points, BoundaryPlacement(before, after, found.line, len(late) - len(early)),
                  in_order, early, late, strays, labelled_wrong)


def _wrong_sides(rec: Recognised, facts: dict[str, StepFacts], cut: int) -> tuple[list, list, list]:
    """(early, late, strays): steps on the wrong side of the learner's boundary, in reference order.

    `early`/`late` are the ones a moved boundary explains: the last steps before the real boundary
    drawn after it, or the first ones after it drawn before.
    """
    sided = sorted(((facts[m.step].rank, m) for m in rec.first.values() if facts[m.step].before is not None),
                   key=lambda pair: pair[0])
    before_cut = [m for _, m in sided if facts[m.step].before]
    after_cut = [m for _, m in sided if not facts[m.step].before]
    early = [m for m in before_cut if m.item.index >= cut]
    late = [m for m in after_cut if m.item.index < cut]
    strays: list[Mention] = []
    if early and {m.step for m in early} != {m.step for m in before_cut[-len(early):]}:
        strays += early
        early = []
    if late and {m.step for m in late} != {m.step for m in after_cut[:len(late)]}:
        strays += late
        late = []
    return early, late, strays

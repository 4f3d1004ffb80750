"""One function per kind of circle. Each returns (Finding, edits) pairs.

`edits` is how many edit operations the finding stands for (a boundary two steps
off is two moves); the score uses it, the learner never sees it.
"""

from __future__ import annotations

from typing import NamedTuple

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint, Finding
from drawcheck.recognise import (
    Mention, Recognised, branch_words_hit, reason_groups_hit,
)
from drawcheck.recognise.names import compact, matcher
from drawcheck.reference.model import Reference, Step

Scored = list[tuple[Finding, int]]
TIER_WEIGHT = {"A": 3, "B": 3, "C": 2, "D": 1}


def _severity_for_tier(step: Step) -> str:
    return "correction" if step.tier in ("A", "B", "C") else "hint"


def main_path_steps(ref: Reference) -> list[Step]:
    """Steps on the straight line through both cycles, in reference order."""
    path = ref._derived.get("main_path")
    if path is None:
        cf = ref.cache_function.step if ref.cache_function else None
        path = ref._derived["main_path"] = [
            s for s in ref.steps if s.branch is None and ref.cycles[s.cycle].role == "main" and s.id != cf]
    return path


def names(rec: Recognised, ref: Reference) -> Scored:
    """Spelling near misses and old names: hints."""
    out: Scored = []
    seen = set()
    for item in rec.notable:  # the mentions that are not exact, in source order: their items are notable
        if not item.info.misnamed or item.role == "boundary":
            continue  # a boundary (an async arrow named after the second cycle included) draws no step
        for step_id, label, _, how, legacy in item.info.hits:
            if how == "exact" or (step_id, label.lower()) in seen:
                continue
            seen.add((step_id, label.lower()))
            if how == "typo":
                msg = f"'{label}' reads as {ref.step(step_id).name}: check the spelling"
                out.append((Finding("name", step_id, item.line, "hint", msg), 0))
            elif how == "legacy" and legacy is not None:
                out.append((Finding("name", step_id, item.line, "hint", legacy.message, legacy.versions), 0))
    return out


def extras(rec: Recognised, ref: Reference) -> Scored:
    """Names that are no step at all: hints that say what happens there instead."""
    by_name = ref._derived.get("not_steps_by_name")
    if by_name is None:
        by_name = ref._derived["not_steps_by_name"] = {n.name: n for n in ref.not_steps}
    out: Scored = []
    seen = set()
    for item in rec.notable:
        if not item.info.has_not_step or item.role == "reason":
            continue
        steps_here = {m.target for m in item.matches if m.kind == "step"}
        for m in item.matches:
            if m.kind != "not-step" or m.target in seen:
                continue
            ns = by_name[m.target]
            if ns.means and ns.means in steps_here:
                continue
            if ns.whole and item.kind == "label":
                continue  # a common word naming a block (`critical ...`), not a step
            seen.add(m.target)
            out.append((Finding("extra", None, item.line, "hint", ns.hint), 0))
    return out


def missing(rec: Recognised, ref: Reference) -> Scored:
    table = ref._derived.get("missing_findings")
    if table is None:
        table = ref._derived["missing_findings"] = _missing_findings(ref)
    absent = table.steps.difference(rec.first)
    if not absent:
        return []  # the common case: all drawn
    return [table.findings[step_id] for step_id in sorted(absent, key=table.rank.__getitem__)]


class _MissingTable(NamedTuple):
    steps: frozenset  # the steps that earn a finding when absent
    findings: dict[str, tuple[Finding, int]]  # step id -> (finding, edits)
    rank: dict[str, int]  # step id -> its place in the reference order


def _missing_findings(ref: Reference) -> _MissingTable:
    """The finding each step earns when it is absent (the same for every drawing: built once)."""
    out = []
    cf = ref.cache_function.step if ref.cache_function else None
    for step in ref.steps:
        if step.id == cf:
            continue
        if step.required:
            severity = "correction"
        elif step.tier == "C":
            severity = "hint"
        else:
            continue
        msg = f"{step.name} is missing: it {step.teach}" if step.teach else f"{step.name} is missing"
        out.append((step.id, Finding("missing", step.id, None, severity, msg), 1 if severity == "correction" else 0))
    return _MissingTable(frozenset(step_id for step_id, _, _ in out), {step_id: (f, e) for step_id, f, e in out},
                         {step_id: rank for rank, (step_id, _, _) in enumerate(out)})


def branches(rec: Recognised, ref: Reference) -> Scored:
    """Branch steps (run only on a condition) must be drawn as a branch, after what they depend on."""
    out: Scored = []
    branch_steps = ref._derived.get("branch_steps")
    if branch_steps is None:
        branch_steps = ref._derived["branch_steps"] = [s for s in ref.steps if s.branch is not None]
    first = rec.first
    for step in branch_steps:
        m = first.get(step.id)
        if m is None:
            continue
        item = m.item
        conditional = (
            item.conditional
            or branch_words_hit(ref, step.branch, item.text)
            or (item.cycle is not None and ref.cycles[item.cycle].role == "branch")
        )
        severity = "correction" if step.required else "hint"
        edits = 1 if severity == "correction" else 0
        if not conditional:
            note = step.main_path
            msg = note.message if note else f"{step.name} runs only {ref.branches[step.branch].name}: draw it as a branch"
            out.append((Finding("order", step.id, m.line, severity, msg, note.versions if note else None), edits))
            continue
        late = None  # the first step it must come before that is drawn before it
        for b in step.before:
            other = first.get(b)
            if other is not None and other.order < m.order:
                late = b
                break
        if late is not None and not any(
                s.cycle == step.cycle and s.id in rec.first and rec.first[s.id].order > m.order
                for s in main_path_steps(ref)):
            late = None  # drawn after its whole cycle: a section of branches, not a place in the flow
        for anchor in step.after:
            a = rec.first.get(anchor)
            if a is not None and m.order < a.order:
                msg = f"{step.name} can only run after {ref.step(anchor).name}: draw it later"
                out.append((Finding("order", step.id, m.line, severity, msg), edits))
                break
        else:
            if late is not None:
                after = " and ".join(ref.step(a).name for a in step.after)
                msg = (f"{step.name} runs {ref.branches[step.branch].name}, right after {after} and before "
                       f"{ref.step(late).name}: draw it earlier") if after else (
                       f"{step.name} runs before {ref.step(late).name}: draw it earlier")
                out.append((Finding("order", step.id, m.line, severity, msg), edits))
    return out


def _heaviest_increasing(seq: list[tuple[int, int]]) -> set[int]:
    """Positions of the max-weight strictly increasing subsequence of (key, weight) pairs (weights >= 1):
    the first heaviest chain, ties to the earliest."""
    n = len(seq)
    keys = [k for k, _ in seq]
    if all(a < b for a, b in zip(keys, keys[1:])):
        return set(range(n))  # already in order: the common case
    best = [w for _, w in seq]  # heaviest chain ending at each position
    prev = [-1] * n
    for i in range(1, n):
        key, top, extends = keys[i], 0, -1
        for j in range(i):  # the first heaviest chain it can extend (a plain loop: a drawing has ~15 steps)
            if keys[j] < key and best[j] > top:
                top, extends = best[j], j
        if extends >= 0:
            best[i] += top
            prev[i] = extends
    i = best.index(max(best))
    keep = set()
    while i != -1:
        keep.add(i)
        i = prev[i]
    return keep


def order(rec: Recognised, ref: Reference, steps: "DrawnSteps") -> Scored:
    """Steps outside the longest increasing subsequence of the reference order are out of place."""
    if steps.in_order:
        return []  # the common case
    table = _step_table(ref)
    drawn = [m for m in rec.first.values() if table[m.step].position >= 0]  # main-path steps, in source order
    keep = _heaviest_increasing([(table[m.step].position, table[m.step].weight) for m in drawn])
    if len(keep) == len(drawn):
        return []
    notes = ref._derived.get("out_of_order_notes")
    if notes is None:
        notes = ref._derived["out_of_order_notes"] = _out_of_order_notes(ref)
    out: Scored = []
    for k, m in enumerate(drawn):
        if k not in keep:
            msg, severity, edits = notes[m.step]
            out.append((Finding("order", m.step, m.line, severity, msg), edits))
    return out


def _out_of_order_notes(ref: Reference) -> dict[str, tuple[str, str, int]]:
    """Main-path step id -> (message, severity, edits) when it is drawn out of order (built once)."""
    path = main_path_steps(ref)
    on_path = {s.id for s in path}
    neighbours = [s for s in path if s.tier != "D"]
    notes = {}
    for step in path:
        prev = next((s for s in reversed(neighbours) if s.index < step.index and s.id in on_path), None)
        nxt = next((s for s in neighbours if s.index > step.index), None)
        if prev and nxt:
            msg = f"{step.name} runs after {prev.name} and before {nxt.name}"
        elif nxt:
            msg = f"{step.name} runs before {nxt.name}"
        else:
            msg = f"{step.name} runs after {prev.name}" if prev else f"{step.name} is out of order"
        severity = "correction" if step.tier in ("A", "B") else "hint"
        notes[step.id] = (msg, severity, 1 if severity == "correction" else 0)
    return notes


class _StepFacts(NamedTuple):
    """What the one pass over the drawn steps needs to know of a step (a table built once per reference)."""

    position: int  # its reference position when on the main path, else -1
    weight: int  # what keeping it in order is worth (by its tier)
    before: bool | None  # for a step a moved boundary can explain: does it belong before the boundary?
    rank: int  # its place in the reference's list of steps
    fine: frozenset  # the cycles it may be drawn in (its own, also_in, any failure region)
    off_sides: bool  # outside both sides of the boundary: the boundary cannot tell its cycle
    placement: bool  # a boundary placement may be named after it


def _step_table(ref: Reference) -> dict[str, _StepFacts]:
    table = ref._derived.get("step_table")
    if table is None:
        path = main_path_steps(ref)
        on_path = {s.id for s in path}
        placement = set(on_path)
        if ref.cache_function:
            placement.add(ref.cache_function.step)
        cut = ref.step(ref.boundary.after).index if ref.boundary is not None else None
        branch_cycles = [c.id for c in ref.cycles.values() if c.role == "branch"]
        table = ref._derived["step_table"] = {}
        for rank, s in enumerate(ref.steps):
            main = ref.cycles[s.cycle].role == "main"
            sided = cut is not None and s.branch is None and main and s.tier != "D"
            table[s.id] = _StepFacts(
                position=s.index if s.id in on_path else -1,
                weight=TIER_WEIGHT[s.tier],
                before=(s.index <= cut) if sided else None,
                rank=rank,
                fine=frozenset((s.cycle, *s.also_in, *branch_cycles)),
                off_sides=not main,
                placement=s.id in placement,
            )
    return table


class DrawnSteps(NamedTuple):
    """What one pass over the drawn steps (`rec.first`, in source order) finds for the order, boundary,
    cycles and points."""

    points: list[DrawnPoint]  # every drawn step with its cycle (the boundary's side when unlabelled)
    placement: BoundaryPlacement | None
    in_order: bool  # the main-path steps are drawn in reference order
    early: list[Mention]  # steps on the wrong side of the boundary that a moved boundary explains
    late: list[Mention]
    strays: list[Mention]  # any other step on its wrong side: that step is misplaced, not the boundary
    labelled_wrong: list[tuple[Mention, str]]  # steps labelled with a cycle they do not run in


def drawn_steps(rec: Recognised, ref: Reference) -> DrawnSteps:
    """The drawn steps in one pass: their points, the boundary placement, order and sides."""
    table = _step_table(ref)
    found = rec.boundary
    points: list[DrawnPoint] = []
    labelled_wrong: list[tuple[Mention, str]] = []
    in_order, last = True, -1
    cut = found.index if found is not None else None
    before_cycle, after_cycle = ref.boundary.cycles if found is not None else (None, None)
    before = after = None
    wrong_sides = False
    for m in rec.first.values():
        step, label, line, item, _, _, _, _ = m  # unpacked: cheaper than reading a tuple's fields by name
        position, _, belongs_before, _, fine, off_sides, placement = table[step]
        if position >= 0:
            if position < last:
                in_order = False
            last = position
        cycle = item.cycle
        if cycle is not None and cycle not in fine:
            labelled_wrong.append((m, cycle))
        if cut is not None:
            drawn_after = item.index >= cut
            if cycle is None and not off_sides:  # the boundary says; it cannot tell for a step outside both sides
                cycle = after_cycle if drawn_after else before_cycle
            if placement:
                if not drawn_after:
                    before = step
                elif after is None:
                    after = step
            if belongs_before is drawn_after:  # None (no side) is neither
                wrong_sides = True
        points.append(DrawnPoint(step, label, line, cycle))
    if cut is None:
        return DrawnSteps(points, None, in_order, [], [], [], labelled_wrong)
    early, late, strays = _wrong_sides(rec, table, cut) if wrong_sides else ([], [], [])
    return DrawnSteps(points, BoundaryPlacement(before, after, found.line, len(late) - len(early)),
                      in_order, early, late, strays, labelled_wrong)


def _wrong_sides(rec: Recognised, table: dict[str, _StepFacts], cut: int) -> tuple[list, list, list]:
    """(early, late, strays): steps on the wrong side of the learner's boundary, in reference order.

    `early`/`late` are the ones a moved boundary explains: the last steps before the real boundary
    drawn after it, or the first ones after it drawn before.
    """
    sided = sorted((table[m.step].rank, m) for m in rec.first.values() if table[m.step].before is not None)
    before_cut = [m for _, m in sided if table[m.step].before]
    after_cut = [m for _, m in sided if not table[m.step].before]
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


def _plural(n: int) -> dict[str, str]:
    """Template helpers: {step_word} step/steps, {runs} runs/run."""
    return {"step_word": "step" if n == 1 else "steps", "runs": "runs" if n == 1 else "run"}


def boundary(rec: Recognised, ref: Reference, steps: DrawnSteps) -> tuple[Scored, set[str]]:
    """The boundary itself; returns the steps it circles (so wrong-cycle does not repeat them)."""
    spec = ref.boundary
    if spec is None:
        return [], set()
    if rec.boundary is None:
        if not rec.cycles_marked:
            return [], set()  # one omission, one finding: `cycles` says both
        return [(Finding("boundary", None, None, "correction", spec.missing), 1)], set()
    if rec.boundary.source == "cycles":
        return [], set()
    early, late = steps.early, steps.late
    out: Scored = []
    after_name = ref.step(spec.after).name
    line = rec.boundary.line
    if early:
        ids = tuple(m.step for m in early)
        names_ = ", ".join(ref.step(i).name for i in ids)
        msg = spec.early.format(n=len(ids), steps=names_, after=after_name, **_plural(len(ids)))
        version = None
        for older in spec.older:
            if set(older.early) == set(ids) and not late:
                msg, version = older.note.message, older.note.versions
                break
        out.append((Finding("boundary", None, line, "correction", msg, version), len(ids)))
    if late:
        names_ = ", ".join(ref.step(m.step).name for m in late)
        msg = spec.late.format(n=len(late), steps=names_, after=after_name, **_plural(len(late)))
        out.append((Finding("boundary", None, line, "correction", msg), len(late)))
    return out, {m.step for m in early + late}


def cycles(rec: Recognised, ref: Reference, already: set[str], steps: DrawnSteps) -> Scored:
    """Steps explicitly labelled with a cycle they do not run in, and steps on the wrong side of the boundary."""
    out: Scored = []
    if not rec.cycles_marked and ref.boundary is not None:
        c0, c1 = (ref.cycle_name(c) for c in ref.boundary.cycles)
        msg = (f"mark the boundary or the cycles: draw the `go` statement after {ref.step(ref.boundary.after).name}, "
               f"or label which steps run in the {c0} and which in the {c1} (a Note or a rect)")
        out.append((Finding("cycles", None, None, "correction", msg), 1))
    wrong = [(ref.step(m.step), m, drawn) for m, drawn in steps.labelled_wrong if m.step not in already]
    if steps.strays:
        table = _step_table(ref)
        for m in steps.strays:  # unlabelled: the cycle of the side it is drawn on
            drawn = rec.effective_cycle(m.item, ref.boundary.cycles)
            if m.item.cycle is None and drawn is not None and drawn not in table[m.step].fine and m.step not in already:
                wrong.append((ref.step(m.step), m, drawn))
    if len(wrong) > 1:
        wrong.sort(key=lambda w: w[0].index)
    for step, m, drawn in wrong:
        cond = m.item.conditional_line
        if step.branch and cond is not None and (m.item.cycle_line or 0) < cond:
            continue  # a branch drawn as a branch: the cycle label around it came from outside the branch
        severity = _severity_for_tier(step)
        note = step.wrong_cycle
        if note:
            msg, version = note.message, note.versions
        else:
            msg = f"{step.name} runs in the {ref.cycle_name(step.cycle)}, not the {ref.cycle_name(drawn)}"
            version = None
        out.append((Finding("wrong-cycle", step.id, m.line, severity, msg, version), 1 if severity == "correction" else 0))
    return out


def reason(rec: Recognised, ref: Reference) -> Scored:
    spec = ref.reason
    if spec is None:
        return []
    item = rec.reason
    if item is None:
        line = rec.boundary.line if rec.boundary else None
        return [(Finding("reason", None, line, "correction", spec.missing), 1)]
    hit = reason_groups_hit(ref, item.text)
    if len(hit) < spec.min_groups:
        return [(Finding("reason", None, item.line, "correction", spec.wrong), 1)]
    out: Scored = []
    for group in spec.groups:
        if group.hint_if_absent and group not in hit:
            out.append((Finding("reason", None, item.line, "hint", group.hint_if_absent), 0))
    return out


def cache_function(rec: Recognised, ref: Reference) -> tuple[Scored, str | None]:
    """Is the function at the cache boundary named, right, and before the steps it must precede?"""
    spec = ref.cache_function
    if spec is None:
        return [], None
    m = rec.first.get(spec.step)
    if m is not None:
        for b in spec.before:
            other = rec.first.get(b)
            if other is None:
                continue
            if other.item is m.item and other.pos < m.pos:
                note = spec.same_line
                return [(Finding("cache-function", spec.step, m.line, "correction", note.message, note.versions), 1)], m.label
            if m.order > other.order:
                note = spec.misplaced
                # the older releases had it after, but never on the other side of the boundary
                cycles = ref.boundary.cycles if ref.boundary else None
                same_side = rec.effective_cycle(m.item, cycles) in (None, ref.step(spec.step).cycle)
                version = note.versions if same_side else None
                return [(Finding("cache-function", spec.step, m.line, "correction", note.message, version), 1)], m.label
        return [], m.label
    wrong_by_key = ref._derived.get("wrong_cache_functions")
    if wrong_by_key is None:
        wrong_by_key = ref._derived["wrong_cache_functions"] = _wrong_cache_functions(ref)
    fallback_line = None
    for item in rec.notable:
        if item.role != "cache" and not item.to_cache:
            continue
        for hit in item.matches:
            message = wrong_by_key.get(hit.target)
            if message:
                return [(Finding("cache-function", spec.step, item.line, "correction", message), 1)], item.text
        if item.role == "cache" and fallback_line is None:
            fallback_line = item.line
    return [(Finding("cache-function", spec.step, fallback_line, "correction", spec.missing), 1)], None


def _wrong_cache_functions(ref: Reference) -> dict[str, str]:
    """Match target of each wrong cache-boundary function -> what the learner is told (built once)."""
    wrong_by_key: dict[str, str] = {}
    names_ = matcher(ref)
    for w in ref.cache_function.wrong:
        for n in w.names:
            for hit in names_.find(n):
                wrong_by_key.setdefault(hit.target, w.message)
            wrong_by_key.setdefault(compact(n), w.message)
    return wrong_by_key


def beliefs(rec: Recognised, ref: Reference) -> Scored:
    out: Scored = []
    seen = set()
    for item in rec.notable:
        if not item.info.beliefs:
            continue
        for b in item.info.beliefs:
            if id(b) in seen:
                continue
            seen.add(id(b))
            out.append((Finding(b.kind, b.point, item.line, b.severity, b.message, b.versions),
                        1 if b.severity == "correction" else 0))
    return out

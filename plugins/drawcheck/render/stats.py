"""Class-wide numbers: where the boundary was drawn, which steps were missed or misplaced."""

from __future__ import annotations

from collections import Counter
from typing import Iterable

from drawcheck.grade.model import BoundaryPlacement, FindingKind, Result

BUCKETS = ("2+ early", "1 early", "correct", "late", "none")
MISPLACED_KINDS = (FindingKind.ORDER, FindingKind.WRONG_PHASE)


def boundary_offset(boundary: BoundaryPlacement | None, reference=None) -> int | None:
    """Signed distance, in drawn steps, from the learner's boundary to the true one (<0: early).

    The grader measures it (BoundaryPlacement.offset), so the overview and the corrections agree."""
    return None if boundary is None else boundary.offset


def boundary_bucket(offset: int | None) -> str:
    """One of BUCKETS for an offset from `boundary_offset`."""
    if offset is None:
        return "none"
    if offset <= -2:
        return "2+ early"
    if offset == -1:
        return "1 early"
    return "correct" if offset == 0 else "late"


def boundary_histogram(results: Iterable[Result], reference) -> dict[str, int]:
    """How many learners drew the boundary in each bucket, every bucket present."""
    counts = Counter(boundary_bucket(boundary_offset(r.boundary, reference)) for r in results)
    return {b: counts.get(b, 0) for b in BUCKETS}


def step_counts(results: Iterable[Result], kinds: tuple[str, ...]) -> list[tuple[str, int]]:
    """(step id, learners with a correction of `kinds` on it), most first; each learner counted once per step.

    Hints (e.g. an optional framework step left out) are not counted."""
    counts: Counter[str] = Counter()
    for r in results:
        counts.update({f.point for f in r.corrections if f.kind in kinds and f.point})
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))


def describe_boundary(boundary: BoundaryPlacement | None, reference) -> str:
    """"after A, before B (1 early)" with the reference's step names — plain text, no learner text."""
    if boundary is None:
        return "not drawn"

    def name(step_id):
        try:
            return reference.step(step_id).name
        except (KeyError, LookupError, ValueError):
            return None

    parts = []
    if boundary.after and name(boundary.after):
        parts.append(f"after {name(boundary.after)}")
    if boundary.before and name(boundary.before):
        parts.append(f"before {name(boundary.before)}")
    where = ", ".join(parts) or f"at line {boundary.line}"
    return f"{where} ({boundary_bucket(boundary_offset(boundary, reference))})"

"""What grading produces: findings with lines, the recognised points, a score."""

from __future__ import annotations

from dataclasses import asdict, dataclass, field
from typing import Literal

Severity = Literal["correction", "hint"]
Status = Literal["correct", "corrections", "invalid"]

FINDING_KINDS = (
    "missing", "extra", "order", "wrong-cycle", "boundary", "reason",
    "cache-function", "syntax", "unsafe", "cycles", "name",
)


@dataclass(slots=True, unsafe_hash=True)  # treat as immutable; not frozen=True, whose __init__ is 4x slower
class Finding:
    """One circle on the learner's drawing."""

    kind: str  # one of FINDING_KINDS
    point: str | None  # canonical step id, or None when the finding is about the whole drawing
    line: int | None  # 1-based line in the learner's file; None when nothing was drawn there
    severity: Severity
    message: str  # one clause, teaches the fix
    version: str | None = None  # versions (of the reference's `product`) in which the learner's belief was true

    def to_json(self) -> dict:
        data = {k: v for k, v in asdict(self).items() if v is not None or k in ("point", "line")}
        return data


@dataclass(slots=True, unsafe_hash=True)  # treat as immutable; not frozen=True, whose __init__ is 4x slower
class DrawnPoint:
    """A reference step the learner drew, where, and in which cycle they put it."""

    point: str  # canonical step id
    label: str  # the learner's own text for it
    line: int
    cycle: str | None  # a cycle id of the reference, or None when the drawing does not say


@dataclass(slots=True, unsafe_hash=True)  # treat as immutable; not frozen=True, whose __init__ is 4x slower
class BoundaryPlacement:
    """Where the learner put the boundary: between two canonical steps, at a line."""

    after: str | None
    before: str | None
    line: int
    offset: int | None = None  # drawn steps between it and the true boundary: <0 too early, >0 too late


@dataclass(slots=True)
class Result:
    """Everything known about one submission."""

    file: str
    status: Status
    score: float
    points: list[DrawnPoint] = field(default_factory=list)
    boundary: BoundaryPlacement | None = None
    findings: list[Finding] = field(default_factory=list)
    reason: str | None = None  # the learner's one-line reason, as written
    cache_function: str | None = None  # the learner's cache-boundary function, as written

    @property
    def corrections(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "correction"]

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "status": self.status,
            "score": round(self.score, 4),
            "points": [asdict(p) for p in self.points],
            "boundary": ({"after": self.boundary.after, "before": self.boundary.before, "line": self.boundary.line}
                         if self.boundary else None),
            "findings": [f.to_json() for f in self.findings],
        }

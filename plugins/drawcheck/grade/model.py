"""What grading produces: findings with lines, the recognised points, a score."""

from __future__ import annotations

import enum
from dataclasses import dataclass, field
from typing import Literal

Severity = Literal["correction", "hint"]
Status = Literal["correct", "corrections", "invalid"]


class FindingKind(str, enum.Enum):
    """What a finding is about. The values are the kinds in JSON, annotations and docs/grading.md; a str
    enum, so `finding.kind == "missing"` and `json.dumps` keep working. Findings of one line are listed
    in this order."""

    MISSING = "missing"
    EXTRA = "extra"
    ORDER = "order"
    WRONG_PHASE = "wrong-cycle"
    BOUNDARY = "boundary"
    REASON = "reason"
    NAMED_FUNCTION = "cache-function"  # the published kind name, kept for existing JSON and annotations
    SYNTAX = "syntax"
    UNSAFE = "unsafe"
    PHASES = "cycles"
    NAME = "name"
    DIRECTION = "direction"
    BELIEF = "belief"  # a misconception the drawing's shape reveals (an arrow between participants, an order)
    INTAKE = "intake"  # a file the site refused before grading (made by the plugin)

    __str__ = str.__str__  # "missing", not "FindingKind.MISSING"
    __format__ = str.__format__

    @property
    def rank(self) -> int:
        return _RANK[self]


_RANK = {kind: i for i, kind in enumerate(FindingKind)}
# The kinds the flagship's checks and the parser give (as before the enum); `direction` and `belief` (checks
# only some exercises configure) and `intake` (the plugin's refusals) are FindingKinds too.
FINDING_KINDS = tuple(kind.value for kind in FindingKind
                      if kind not in (FindingKind.DIRECTION, FindingKind.BELIEF, FindingKind.INTAKE))


@dataclass(slots=True, unsafe_hash=True)  # treat as immutable
class Finding:
    """One circle on the learner's drawing."""

    kind: FindingKind  # a plain string of FINDING_KINDS is turned into its FindingKind
    point: str | None  # canonical step id, or None when the finding is about the whole drawing
    line: int | None  # 1-based line in the learner's file; None when nothing was drawn there
    severity: Severity
    message: str  # one clause, teaches the fix
    version: str | None = None  # versions (of the reference's `product`) in which the learner's belief was true
    read: str | None = None  # what the grader read on `line`: the learner's text it is about (None: no line)

    def __post_init__(self):
        if not isinstance(self.kind, FindingKind):
            self.kind = FindingKind(self.kind)

    def to_json(self) -> dict:
        data = {"kind": self.kind.value, "point": self.point, "line": self.line, "severity": self.severity,
                "message": self.message, "version": self.version, "read": self.read}
        return {k: v for k, v in data.items() if v is not None or k in ("point", "line")}


@dataclass(frozen=True, slots=True)
class DrawnPoint:
    """A reference step the learner drew, where, and in which phase they put it."""

    point: str  # canonical step id
    label: str  # the learner's own text for it
    line: int
    cycle: str | None  # a phase id of the reference, or None when the drawing does not say


@dataclass(frozen=True, slots=True)
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
    cache_function: str | None = None  # the learner's named function, as written
    said: dict[str, str] = field(default_factory=dict)  # check section -> the learner's own words it read

    @property
    def corrections(self) -> list[Finding]:
        return [f for f in self.findings if f.severity == "correction"]

    def to_json(self) -> dict:
        return {
            "file": self.file,
            "status": self.status,
            "score": round(self.score, 4),
            "points": [{"point": p.point, "label": p.label, "line": p.line, "cycle": p.cycle} for p in self.points],
            "boundary": ({"after": self.boundary.after, "before": self.boundary.before, "line": self.boundary.line}
                         if self.boundary else None),
            "findings": [f.to_json() for f in self.findings],
        }

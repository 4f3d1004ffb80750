"""The reference data of one exercise, as loaded from its YAML file.

Everything an instructor may want to change lives in the YAML: step names,
cycles, synonyms, hints, version notes. The code only knows the shapes below.
"""

from __future__ import annotations

from dataclasses import dataclass, field

TIERS = ("A", "B", "C", "D")
CYCLE_ROLES = ("main", "outside", "branch")


class ReferenceError(Exception):
    """The reference YAML is wrong: `file:line: message`, ready for a log."""

    def __init__(self, file: str, line: int | None, message: str):
        self.file = file
        self.line = line
        self.message = message
        where = f"{file}:{line}" if line else file
        super().__init__(f"{where}: {message}")


@dataclass(frozen=True, slots=True)
class Note:
    """A message for the learner, and the versions in which their belief was true."""

    message: str
    versions: str | None = None


@dataclass(frozen=True, slots=True)
class LegacyName:
    """An old or unofficial name for a step; drawing it earns a hint, not a correction."""

    name: str
    message: str
    versions: str | None = None
    whole: bool = False  # match only when it is the whole text of a line
    also: tuple[str, ...] = ()  # further steps the old name covers (one old name for two of today's steps)


@dataclass(frozen=True, slots=True)
class Cycle:
    id: str
    name: str  # as shown to learners, e.g. "first phase"
    words: tuple[str, ...]  # phrases that label a region of the drawing with this cycle
    role: str = "main"  # "main": one side of the boundary, ordered; "outside": in neither, no fixed order;
    # "branch": a failure region
    line: int = 0


@dataclass(frozen=True, slots=True)
class BranchKind:
    """A condition under which a branch step runs (e.g. "nothing fits", "on failure")."""

    id: str
    name: str
    words: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Step:
    id: str  # canonical, as drawn in the reference
    name: str  # display
    cycle: str
    tier: str  # "A" | "B" | "C" | "D"
    required: bool
    index: int  # position in the reference order
    teach: str = ""  # one clause: what it does / where it runs
    synonyms: tuple[str, ...] = ()
    legacy: tuple[LegacyName, ...] = ()
    branch: str | None = None  # id of a BranchKind: drawn only conditionally
    after: tuple[str, ...] = ()  # for branch steps: steps it must come after
    before: tuple[str, ...] = ()  # for branch steps: steps it must come before (when drawn)
    also_in: tuple[str, ...] = ()  # further cycles in which drawing it is fine
    wrong_cycle: Note | None = None  # message when drawn in another cycle
    main_path: Note | None = None  # message when a branch step is drawn unconditionally
    line: int = 0


@dataclass(frozen=True, slots=True)
class NotStep:
    """A name learners draw that is no step of this exercise."""

    name: str
    hint: str
    means: str | None = None  # a step it is often written next to; no hint when both are on one line
    whole: bool = False  # a hint only when it is the whole text of a line (a common word otherwise)
    line: int = 0


@dataclass(frozen=True, slots=True)
class OlderBoundary:
    early: tuple[str, ...]  # the steps the learner put after the boundary
    note: Note


@dataclass(frozen=True, slots=True)
class BoundarySpec:
    after: str  # the last step before the boundary
    cycles: tuple[str, str]  # (cycle before, cycle after)
    markers: tuple[str, ...]  # texts that draw the boundary itself, anywhere in a line
    missing: str
    early: str  # template: {n} {steps} {after}
    late: str
    older: tuple[OlderBoundary, ...] = ()
    starts: tuple[str, ...] = ()  # texts that draw the boundary only at the start of a line


@dataclass(frozen=True, slots=True)
class ReasonGroup:
    name: str
    words: tuple[str, ...]
    hint_if_absent: str | None = None


@dataclass(frozen=True, slots=True)
class ReasonSpec:
    prefixes: tuple[str, ...]
    groups: tuple[ReasonGroup, ...]
    missing: str
    wrong: str
    min_groups: int = 1  # how many groups a real reason must touch


@dataclass(frozen=True, slots=True)
class WrongFunction:
    names: tuple[str, ...]
    message: str


@dataclass(frozen=True, slots=True)
class CacheFunctionSpec:
    step: str  # the step that is the function at the cache boundary
    prefixes: tuple[str, ...]  # "cache function: ..." lines
    participant_words: tuple[str, ...]  # a message to a participant named like this names a cache function
    before: tuple[str, ...]  # steps it must precede
    missing: str
    misplaced: Note  # drawn after one of `before`
    same_line: Note  # drawn on the same line as one of `before` (treated as the same thing)
    wrong: tuple[WrongFunction, ...] = ()


@dataclass(frozen=True, slots=True)
class Belief:
    """A phrase that reveals an outdated belief; earns a finding wherever it is written."""

    words: tuple[str, ...]
    kind: str
    severity: str
    message: str
    versions: str | None = None
    point: str | None = None
    with_words: tuple[str, ...] = ()  # when set, one of these must be in the same text too


@dataclass(slots=True)
class Reference:
    exercise_id: str
    title: str
    steps: list[Step]
    path: str = ""
    product: str = ""  # what `versions` refer to, e.g. a project name
    explanations: dict[str, str] = field(default_factory=dict)
    reference_diagram: str = ""
    cycles: dict[str, Cycle] = field(default_factory=dict)
    branches: dict[str, BranchKind] = field(default_factory=dict)
    not_steps: list[NotStep] = field(default_factory=list)
    labels: tuple[str, ...] = ()  # names that are fine as labels: neither steps nor mistakes
    ignore_words: tuple[str, ...] = ()  # never spelling-checked
    boundary: BoundarySpec | None = None
    reason: ReasonSpec | None = None
    cache_function: CacheFunctionSpec | None = None
    beliefs: list[Belief] = field(default_factory=list)
    _by_id: dict[str, Step] = field(default_factory=dict, repr=False)
    _matcher: object = field(default=None, repr=False)
    _derived: dict = field(default_factory=dict, repr=False)  # compiled patterns, built on first use

    def step(self, step_id: str) -> Step:
        if not self._by_id:
            self._by_id = {s.id: s for s in self.steps}
        return self._by_id[step_id]

    def has_step(self, step_id: str) -> bool:
        if not self._by_id:
            self._by_id = {s.id: s for s in self.steps}
        return step_id in self._by_id

    def cycle_name(self, cycle_id: str | None) -> str:
        if cycle_id is None:
            return "no cycle"
        c = self.cycles.get(cycle_id)
        return c.name if c else cycle_id

"""The reference data of one exercise, as loaded from its YAML file.

The reference is steps, phases (the YAML's `cycles:`), and the checks configured by the YAML's other
sections (drawcheck.grade.checks). Everything shown to learners comes from the YAML.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # pragma: no cover
    from drawcheck.reference.source import Source

TIERS = ("A", "B", "C", "D")
PHASE_ROLES = ("main", "outside", "branch")


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
    """A message for the learner, the versions in which their belief was true, and where that is written."""

    message: str
    versions: str | None = None
    sources: tuple[Source, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class LegacyName:
    """An old or unofficial name for a step; drawing it earns a hint, not a correction."""

    name: str
    message: str
    versions: str | None = None
    whole: bool = False  # match only when it is the whole text of a line
    also: tuple[str, ...] = ()  # further steps the old name covers (one old name for two of today's steps)
    sources: tuple[Source, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class Phase:
    """A part of the exercise's sequence (the YAML's `cycles:`), e.g. "first phase"."""

    id: str
    name: str  # as shown to learners
    words: tuple[str, ...]  # phrases that label a region of the drawing with this phase
    role: str = "main"  # "main": one side of the boundary, ordered; "outside": in neither, no fixed order;
    # "branch": a region of conditional steps
    line: int = 0
    loose_words: tuple[str, ...] = ()  # words that label a region or a lifeline with this phase, never a step
    # itself: they also describe other work (a word for "in parallel" said of a step of another phase too)
    tag_words: tuple[str, ...] = ()  # words that name this phase only as a text's leading tag (`[first] Sow`,
    # `first: Sow`), where they are no step's name (a step's `-ing` form written as the phase's short name)


@dataclass(frozen=True, slots=True)
class Step:
    id: str  # canonical, as drawn in the reference
    name: str  # display
    cycle: str  # its phase id
    tier: str  # "A" | "B" | "C" | "D"
    required: bool
    index: int  # position in the reference order
    teach: str = ""  # one clause: what it does / where it runs
    synonyms: tuple[str, ...] = ()
    callers: tuple[str, ...] = ()  # functions that run it among other steps: they draw it only where no name of
    # its own does (a caller drawn with the plugin calls under it is no step of its own)
    legacy: tuple[LegacyName, ...] = ()
    branch: str | None = None  # id of a branch kind (the `branches:` section): drawn only conditionally
    after: tuple[str, ...] = ()  # for branch steps: steps it must come after
    before: tuple[str, ...] = ()  # for branch steps: steps it must come before (when drawn)
    also_in: tuple[str, ...] = ()  # further phases in which drawing it is fine
    wrong_cycle: Note | None = None  # message when drawn in another phase
    main_path: Note | None = None  # message when a branch step is drawn unconditionally
    repeats: bool = False  # done more than once in a run (a report sent at each change): a drawing of it before
    # the steps that come before it is one of its repeats; its place is its first drawing after them
    sources: tuple[Source, ...] = ()
    line: int = 0


@dataclass(frozen=True, slots=True)
class PageTexts:
    """Texts of the feedback page that depend on the exercise (the YAML's `feedback:` section)."""

    correct: str = "None: every check of this exercise passes."
    assumed_example: str = "Note over A: assumed 1: ..."  # how to fill in "What I had assumed"


@dataclass(slots=True)
class Reference:
    """One exercise: built by `load_reference`, never changed afterwards."""

    exercise_id: str
    title: str
    steps: tuple[Step, ...]
    phases: dict[str, Phase]
    checks: tuple = ()  # drawcheck.grade.checks.Check objects, in the order they run
    path: str = ""
    product: str = ""  # what `versions` refer to, e.g. a project name
    explanations: dict[str, str] = field(default_factory=dict)
    reference_diagram: str = ""
    labels: tuple[str, ...] = ()  # names that are fine as labels: neither steps nor mistakes
    ignore_words: tuple[str, ...] = ()  # never spelling-checked (compacted)
    denials: tuple[str, ...] = ()  # words that, right before a step's name, deny it: `not sown` (compacted)
    retractions: tuple[str, ...] = ()  # words that take back what was written: `Sow — sorry, PreSow`
    page: PageTexts = field(default_factory=PageTexts)
    vocabulary: object = None  # the NameMatcher of every name above (drawcheck.recognise.names)
    plan: object = None  # drawcheck.grade.layout.Plan: where each step belongs (built when it loads)
    roles: tuple = ()  # the text roles the checks read (drawcheck.recognise.Role), in precedence order
    by_id: dict[str, Step] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        self.by_id = {s.id: s for s in self.steps}

    def step(self, step_id: str) -> Step:
        return self.by_id[step_id]

    def has_step(self, step_id: str) -> bool:
        return step_id in self.by_id

    def phase_name(self, phase_id: str | None) -> str:
        phase = self.phases.get(phase_id) if phase_id is not None else None
        return phase.name if phase else str(phase_id)

    cycle_name = phase_name

    @property
    def cycles(self) -> dict[str, Phase]:
        return self.phases

    def check(self, section: str):
        """The check configured by `section` of the YAML, or None when the exercise has none."""
        return next((c for c in self.checks if c.section == section), None)

    @property
    def boundary(self):
        """The boundary check (the split of two phases at one step), or None."""
        return self.check("boundary")

    @property
    def claimed(self) -> frozenset[str]:
        """Steps a check grades on its own (e.g. a named function): neither missing nor ordered as steps."""
        return frozenset(s for c in self.checks for s in c.claims)

    def all_notes(self):
        """(what, line, versions, sources) of every note that may carry a `source:`."""
        for step in self.steps:
            for legacy in step.legacy:
                yield f"legacy name {legacy.name!r} of {step.id}", legacy.line, legacy.versions, legacy.sources
            for note in (step.wrong_cycle, step.main_path):
                if note is not None:
                    yield f"a note of step {step.id}", note.line, note.versions, note.sources
        for c in self.checks:
            yield from c.notes()

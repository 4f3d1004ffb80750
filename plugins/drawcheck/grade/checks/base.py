"""The check interface: one concept of an exercise, configured by one section of its YAML.

A check's life:
  1. `load(r, node, core)` when the exercise loads: validate its section (`node`; None for a core check
     whose section is absent), with ReferenceError at file:line, and compile what it needs;
  2. `prepare(ref)` once the whole reference exists (its vocabulary included);
  3. `grade(drawing)` per drawing: its findings, each with the edits it stands for, and what the learner
     wrote for it (`said`);
  4. `overlay(finding, result, ref)`: the marks of one of its findings on the circled drawing, as data.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, ClassVar, Iterator

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint, Finding, FindingKind, Result

if TYPE_CHECKING:  # pragma: no cover
    from drawcheck.reference.source import Source
    from drawcheck.grade.layout import Layout
    from drawcheck.recognise import Recognised, Role
    from drawcheck.reference.model import Reference, Step
    from drawcheck.reference.reader import Reader

Scored = list[tuple[Finding, int]]  # (finding, edits): how many edit operations it stands for (for the score)


@dataclass(frozen=True, slots=True)
class Mark:
    """One mark on the circled drawing.

    kind "circle": a remark on the learner's line `line` (None: at the end); "missing": something not
    drawn, inserted after the statement at `line` (None: first); "boundary": where the boundary truly is,
    inserted the same way. `order` sorts insertions that share an anchor (the reference order).
    """

    kind: str
    line: int | None
    label: str
    order: float = 0.0


@dataclass(frozen=True, slots=True, kw_only=True)
class Cited:
    """An entry of a check's section that may cite its sources (for the source rule), and its line."""

    sources: tuple[Source, ...] = ()
    line: int = 0


def cited(r: Reader, mapping: dict, item, where: str) -> dict:
    """The `sources` and `line` of a `Cited` entry written at `item`."""
    return {"sources": r.source(mapping, where), "line": item.start_mark.line + 1}


@dataclass(frozen=True, slots=True)
class Outcome:
    findings: Scored = field(default_factory=list)
    said: str | None = None  # the learner's own words this check read (a reason, a function name)
    replaces: frozenset = frozenset()  # (point, line) of further earlier findings it replaces (`supersedes`)


@dataclass(frozen=True, slots=True)
class Drawing:
    """What every check reads: the reference, the recognised drawing, and where its steps are."""

    reference: Reference
    recognised: Recognised
    layout: Layout


@dataclass(frozen=True, slots=True)
class Core:
    """What a check may consult while its section loads: the steps and phases, already validated."""

    steps: dict[str, Step]
    phases: dict
    reader: Reader

    def step(self, node, where: str) -> str:
        """The step id written at `node`, or a ReferenceError that lists the step ids."""
        value = self.reader.string(node, where)
        if value not in self.steps:
            self.reader.fail(node, f"{where} names {value!r}, which is not a step id; step ids: "
                                   f"{', '.join(sorted(self.steps))}")
        return value

    def phase(self, node, where: str) -> str:
        return self.reader.choice(node, where, tuple(self.phases))


class Check:
    """Base class of every check; see the module docstring. Subclasses set the class attributes."""

    section: ClassVar[str]  # the YAML key that configures it
    core: ClassVar[bool] = False  # runs for every exercise, its section only overriding messages
    kinds: ClassVar[tuple[FindingKind, ...]] = ()  # the finding kinds it owns (their overlay is its own)
    supersedes: ClassVar[tuple[FindingKind, ...]] = ()  # kinds of earlier findings it replaces on one step and line
    yields_to: ClassVar[tuple[FindingKind, ...]] = ()  # kinds of earlier findings that make its own, on one step and line, redundant
    messages: ClassVar[dict[str, str]] = {}  # default message templates; the section's `messages:` overrides them

    claims: frozenset[str] = frozenset()  # steps it grades on its own: not missing, not ordered as steps
    weight: int = 0  # what it adds to the score's denominator: the edits a drawing can get wrong here
    line: int = 0  # where its section starts

    @classmethod
    def load(cls, r: Reader, node, core: Core) -> Check:
        raise NotImplementedError

    def prepare(self, ref: Reference) -> None:
        """Compile what needs the whole reference (e.g. its vocabulary)."""

    def role(self) -> Role | None:
        """A part a text may play for this check (e.g. `reason: ...`), or None."""
        return None

    def grade(self, drawing: Drawing) -> Outcome:
        raise NotImplementedError

    def overlay(self, finding: Finding, result: Result, ref: Reference) -> tuple[Mark, ...]:
        return (Mark("circle", finding.line, finding.message),)

    def notes(self) -> Iterator[tuple[str, int, str | None, tuple]]:
        """(what, line, versions, sources) of every note in its section, for the source rule."""
        return iter(())


@dataclass(eq=False)
class MessagesCheck(Check):
    """A core check whose section, when written, only overrides its message templates: `messages: {...}`."""

    core = True
    texts: dict[str, str]

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, (), ("messages",)) if node is not None else {}
        return cls(r.templates(m.get("messages"), f"{cls.section}.messages", cls.messages))


__all__ = ["BoundaryPlacement", "Check", "Cited", "Core", "Drawing", "DrawnPoint", "Finding", "FindingKind", "Mark",
           "MessagesCheck", "Outcome", "Scored"]

"""Names that are no step at all (section `not_steps:`): findings that say what happens there instead.

An invented extension point (`severity: correction`, e.g. PostScore) drawn as a step is a correction; a
common word that is no step (`Commit`, `Validate`) stays a hint, and so does any name used as a block label.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, cited, Finding, FindingKind, Outcome
from drawcheck.recognise.names import compact

SEVERITIES = ("correction", "hint")


@dataclass(frozen=True, slots=True)
class NotStep(Cited):
    """A name learners draw that is no step of this exercise."""

    name: str
    hint: str
    means: str | None = None  # a step it is often written next to; no hint when both are on one line
    whole: bool = False  # a hint only when it is the whole text of a line (a common word otherwise)
    severity: str = "hint"  # "correction" for an invented extension point


@dataclass(eq=False)
class ExtrasCheck(Check):
    """Section `not_steps:` — a list of `{name, hint, means?, whole?, severity?, source?}`."""

    section = "not_steps"
    kinds = (FindingKind.EXTRA,)

    entries: tuple[NotStep, ...]
    by_name: dict[str, NotStep] = field(init=False)

    def __post_init__(self):
        self.by_name = {n.name: n for n in self.entries}

    @classmethod
    def load(cls, r, node, core):
        out = []
        seen = set()
        for item in r.seq(node, cls.section):
            m = r.mapping(item, "a not_steps entry", ("name", "hint"), ("means", "whole", "severity", "source"))
            name = r.string(m["name"], "not_steps.name")
            if compact(name) in seen:
                r.fail(m["name"], f"duplicate not_steps name {name!r}; list it once")
            seen.add(compact(name))
            out.append(NotStep(name, r.string(m["hint"], "not_steps.hint"),
                               core.step(m["means"], "not_steps.means") if "means" in m else None,
                               r.boolean(m["whole"], "not_steps.whole") if "whole" in m else False,
                               r.choice(m["severity"], "not_steps.severity", SEVERITIES) if "severity" in m else "hint",
                               **cited(r, m, item, "not_steps")))
        return cls(tuple(out))

    def grade(self, drawing: Drawing) -> Outcome:
        out = []
        seen = set()
        for item in drawing.recognised.items:
            if item.role == "reason":
                continue  # a reason may mention anything
            not_steps = item.reading.names("not-step")
            if not not_steps:
                continue
            steps_here = {m.target for m in item.reading.names("step")}
            for m in not_steps:
                ns = self.by_name[m.target]
                if m.target in seen or (ns.means and ns.means in steps_here):
                    continue
                if ns.whole and item.kind == "label":
                    continue  # a common word naming a block (`critical ...`), not a step
                seen.add(m.target)
                severity = ns.severity if item.kind != "label" else "hint"  # a block named so draws no step
                out.append((Finding(FindingKind.EXTRA, None, item.line, severity, ns.hint),
                            1 if severity == "correction" else 0))
        return Outcome(out)

    def notes(self):
        for n in self.entries:
            yield f"not_steps {n.name!r}", n.line, None, n.sources

"""The function the exercise asks the learner to name (a step of its own), right, and before the steps
it must precede.

Section `named_function:` — `step`, `prefixes` (how a line naming it starts), `participant_words` (a
message to a participant named so names it too), `before`, the messages `missing`, `misplaced`,
`same_line`, `wrong` ({names, message} for functions often named instead), `shown_as`, and
`versions_only_before` (the `misplaced` versions drew it after `before`, but still before these steps:
drawn after one of them, it matches no release and gets no version note).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, cited, Finding, FindingKind, Outcome
from drawcheck.recognise import BOUNDARY, PLAIN, Role, prefix_regex, words_regex
from drawcheck.recognise.names import compact
from drawcheck.reference.model import Note

ROLE = "named-function"


@dataclass(frozen=True, slots=True)
class WrongFunction(Cited):
    names: tuple[str, ...]
    message: str


@dataclass(eq=False, kw_only=True)
class NamedFunctionCheck(Check):
    section = "named_function"
    kinds = (FindingKind.NAMED_FUNCTION,)
    yields_to = (FindingKind.WRONG_PHASE,)  # one circle per step and line: drawn in the wrong phase says it all
    weight = 1

    step: str
    prefixes: tuple[str, ...]
    participant_words: tuple[str, ...]
    before: tuple[str, ...]
    missing: str
    misplaced: Note
    same_line: Note
    wrong: tuple[WrongFunction, ...]
    shown_as: str
    versions_only_before: tuple[str, ...] = ()
    pattern: re.Pattern | None = field(init=False)
    participant_pattern: re.Pattern | None = field(init=False)
    wrong_by_name: dict[str, str] = field(init=False, default_factory=dict)

    def __post_init__(self):
        self.claims = frozenset((self.step,))
        self.pattern = prefix_regex(self.prefixes)
        self.participant_pattern = words_regex(self.participant_words)

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, ("step", "prefixes", "before", "missing", "misplaced", "same_line"),
                      ("participant_words", "wrong", "shown_as", "versions_only_before"))
        wrong = []
        for item in r.seq(m["wrong"], f"{cls.section}.wrong") if "wrong" in m else ():
            wm = r.mapping(item, f"a {cls.section}.wrong entry", ("names", "message"), ("source",))
            wrong.append(WrongFunction(r.strings(wm["names"], "names"), r.string(wm["message"], "message"),
                                       **cited(r, wm, item, f"{cls.section}.wrong")))
        where = cls.section
        return cls(
            step=core.step(m["step"], f"{where}.step"), prefixes=r.strings(m["prefixes"], f"{where}.prefixes"),
            participant_words=r.strings(m["participant_words"], "participant_words") if "participant_words" in m else (),
            before=tuple(core.step(n, f"{where}.before") for n in r.seq(m["before"], f"{where}.before")),
            missing=r.string(m["missing"], f"{where}.missing"), misplaced=r.note(m["misplaced"], f"{where}.misplaced"),
            same_line=r.note(m["same_line"], f"{where}.same_line"), wrong=tuple(wrong),
            shown_as=r.optional_string(m, "shown_as", where, "Named function"),
            versions_only_before=tuple(core.step(n, f"{where}.versions_only_before")
                                       for n in r.seq(m["versions_only_before"], f"{where}.versions_only_before"))
            if "versions_only_before" in m else (),
        )

    def prepare(self, ref) -> None:
        for w in self.wrong:  # match target of each wrong function -> what the learner is told
            for name in w.names:
                for hit in ref.vocabulary.find(name):
                    self.wrong_by_name.setdefault(hit.target, w.message)
                self.wrong_by_name.setdefault(compact(name), w.message)

    def role(self):
        return Role(ROLE, self.pattern, draws=frozenset((self.step,)), anchored=True) if self.pattern else None

    def grade(self, drawing: Drawing) -> Outcome:
        ref, rec = drawing.reference, drawing.recognised
        m = rec.first.get(self.step)
        if m is not None:
            for b in self.before:
                other = rec.first.get(b)
                if other is None:
                    continue
                if other.item is m.item and other.pos < m.pos:
                    return Outcome([self._finding(m.line, self.same_line.message, self.same_line.versions)], m.label)
                if m.order > other.order:
                    # the older releases had it after, but never on the other side of the boundary, nor after
                    # the steps in `versions_only_before`
                    pair = ref.boundary.phases if ref.boundary else None
                    same_side = rec.effective_phase(m.item, pair) in (None, ref.step(self.step).cycle)
                    as_released = not any(s in rec.first and rec.first[s].order < m.order
                                          for s in self.versions_only_before)
                    version = self.misplaced.versions if same_side and as_released else None
                    return Outcome([self._finding(m.line, self.misplaced.message, version)], m.label)
            return Outcome([], m.label)
        named = [item for item in rec.items if item.role == ROLE]
        # a line that names the function speaks for it; a message to its home only when no line does
        homes = {pid for pid, actor in rec.actors.items() if actor.says(self.participant_pattern)} if not named else ()
        for item in named or [item for item in rec.items if self._talks_to_it(item, homes)]:
            for hit in item.matches:
                message = self.wrong_by_name.get(hit.target)
                if message:
                    return Outcome([self._finding(item.line, message)], item.text)
        return Outcome([self._finding(named[0].line if named else None, self.missing)])

    def _talks_to_it(self, item, homes) -> bool:
        """A message to or from, or a note over, a participant named like the function's home (`homes`: each
        participant asked once; asking every message's was square time, 2.1 s for a long name and 3,000 messages)."""
        if self.participant_pattern is None or item.header or item.role not in (PLAIN, BOUNDARY):
            return False
        return any(a in homes for a in item.actors)

    def _finding(self, line, message, version=None):
        return (Finding(FindingKind.NAMED_FUNCTION, self.step, line, "correction", message, version), 1)

    def notes(self):
        for what, note in (("misplaced", self.misplaced), ("same_line", self.same_line)):
            yield f"{self.section}.{what}", note.line, note.versions, note.sources
        for w in self.wrong:
            yield f"a {self.section}.wrong entry", w.line, None, w.sources

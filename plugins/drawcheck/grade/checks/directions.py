"""Steps drawn between the right participants, in the right direction (who calls or watches whom).

Section `directions:` — a list of `{step, from, to, message, source?}`: `from`/`to` are words naming
the participant the step goes out from and the one it goes to. The step's first message is checked:
drawn the other way round is a correction, unless another message draws it the right way (the first was a
mention in passing); drawn between participants neither side names is left alone (the grader cannot tell
who they are).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Cited, Drawing, cited, Finding, FindingKind, Outcome
from drawcheck.recognise import says, words_regex


@dataclass(frozen=True, slots=True)
class Direction(Cited):
    step: str
    source_words: tuple[str, ...]
    target_words: tuple[str, ...]
    message: str


@dataclass(eq=False)
class DirectionsCheck(Check):
    section = "directions"
    kinds = (FindingKind.DIRECTION,)

    rules: tuple[Direction, ...]
    patterns: list = field(init=False)

    def __post_init__(self):
        self.patterns = [(d, words_regex(d.source_words), words_regex(d.target_words)) for d in self.rules]
        self.weight = len(self.rules)

    @classmethod
    def load(cls, r, node, core):
        out = []
        seen = set()
        for item in r.seq(node, cls.section):
            m = r.mapping(item, "a directions entry", ("step", "from", "to", "message"), ("source",))
            step = core.step(m["step"], "directions.step")
            if step in seen:
                r.fail(m["step"], f"directions lists step {step!r} twice; keep one entry per step")
            seen.add(step)
            out.append(Direction(step, r.strings(m["from"], "directions.from"), r.strings(m["to"], "directions.to"),
                                 r.string(m["message"], "directions.message"), **cited(r, m, item, "directions")))
        return cls(tuple(out))

    def grade(self, drawing: Drawing) -> Outcome:
        rec = drawing.recognised
        out = []
        named: dict[tuple[str, int], bool] = {}  # (participant, id of a rule's words) -> its names say them
        for rule, from_rx, to_rx in self.patterns:
            m = rec.first.get(rule.step)
            if m is None or m.item.kind != "message" or m.item.source == m.item.target:
                continue
            if self._goes(rec, m.item, to_rx, from_rx, named) and not any(
                    self._goes(rec, other.item, from_rx, to_rx, named) for other in rec.mentions
                    if other.step == rule.step and other.item.kind == "message"
                    and rec.steps_at[other.item.index] == {rule.step}):
                # drawn the other way round, and nowhere the right way by a message of its own (a reply that
                # names it in passing, "none yet, so sow them", before the step itself is no belief about its
                # direction; a later step's message that names it too, "store the sowing", draws that step)
                out.append((Finding(FindingKind.DIRECTION, rule.step, m.line, "correction", rule.message), 1))
        return Outcome(out)

    def _goes(self, rec, item, from_rx, to_rx, named: dict) -> bool:
        """Does the message go from a participant `from_rx` names to one `to_rx` names (and not from both)? Each
        participant's names are read once for each pattern (`named`): reading them again for every message that
        draws the step was square time (a name of 24,000 characters and 1,750 such messages: 10.9 s)."""
        if item.source == item.target:
            return False

        def names(pid, rx) -> bool:
            key = (pid, id(rx))
            if key not in named:
                named[key] = any(says(rx, n) for n in self._names(rec, pid))
            return named[key]

        return names(item.source, from_rx) and names(item.target, to_rx) and not names(item.source, to_rx)

    @staticmethod
    def _names(rec, pid: str) -> tuple[str, ...]:
        actor = rec.actors.get(pid)
        return actor.names if actor else (pid,)

    def notes(self):
        for d in self.rules:
            yield "a directions entry", d.line, None, d.sources

"""Participants that make calls of their own (e.g. an outside service the framework calls): a message to
or from one draws only the steps it is allowed to, and no old name is read in it.

Section `own_calls:` — `participant_words` (words in the participant's name), `draws` (the steps such a
call still draws, e.g. a call that does a step's work itself; omitted: none), `why` (a comment for the
exercise's authors). It grades nothing itself: it gives those messages their role.
"""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.checks.base import Check, Drawing, Outcome
from drawcheck.recognise import Role, words_regex

ROLE = "own-call"


@dataclass(eq=False)
class OwnCallsCheck(Check):
    section = "own_calls"

    participant_words: tuple[str, ...]
    draws: frozenset[str]

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, ("participant_words",), ("draws", "why"))
        draws = tuple(core.step(n, f"{cls.section}.draws") for n in r.seq(m["draws"], f"{cls.section}.draws")) \
            if "draws" in m else ()
        if "why" in m:
            r.string(m["why"], f"{cls.section}.why")
        return cls(r.strings(m["participant_words"], f"{cls.section}.participant_words"), frozenset(draws))

    def role(self) -> Role:
        return Role(ROLE, None, draws=self.draws, participants=words_regex(self.participant_words))

    def grade(self, drawing: Drawing) -> Outcome:
        return Outcome()

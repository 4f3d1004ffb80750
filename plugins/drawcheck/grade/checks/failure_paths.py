"""Main-path steps run on the success path: one drawn only inside failure branches is not drawn there.

A failure branch is a conditional block branch (`alt`/`else`, `opt`, `break`, a `critical`'s `option`) whose
label says one of the section's `words` (`alt no free address`, `break access denied`, `option the call
fails`), unless one of its `negations` stands one or two words before that word (`alt no error`). The success
path is the flow that goes on without it: an `alt`'s other branches, the flow after an `opt` or a `break`. A
required main-path step whose every drawing is inside a failure branch is an `order` correction where it is
first drawn; one drawn on the success path too may be drawn again on failure (a retry, a clean-up).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Drawing, Finding, FindingKind, Outcome
from drawcheck.recognise import words_regex
from drawcheck.recognise.phrases import clauses

NEGATION_WORDS = 2  # a negation this many words before a failure word denies it: `no error`, `did not fail`


@dataclass(eq=False)
class FailurePathsCheck(Check):
    """Section `failure_paths:`: `words`, `negations` (optional), `messages: {failure_only}`."""

    section = "failure_paths"
    supersedes = (FindingKind.ORDER,)  # one circle per step and line: drawn only on failure says more
    messages = {
        "failure_only": "{step} runs when nothing goes wrong too: draw it outside the failure branch",
    }

    words: re.Pattern
    negations: re.Pattern | None
    texts: dict[str, str]
    steps: tuple = field(init=False, default=())

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, ("words",), ("negations", "messages"))
        negations = r.strings(m["negations"], f"{cls.section}.negations") if "negations" in m else ()
        return cls(words_regex(r.strings(m["words"], f"{cls.section}.words")), words_regex(negations),
                   r.templates(m.get("messages"), f"{cls.section}.messages", cls.messages))

    def prepare(self, ref) -> None:
        claimed = ref.claimed
        self.steps = tuple(s for s in ref.steps if s.required and s.branch is None and s.id not in claimed)

    def grade(self, drawing: Drawing) -> Outcome:
        rec = drawing.recognised
        failing = {i.line for i in rec.items if i.kind == "label" and i.says(self.words) and self.fails(i.text)}
        if not failing:
            return Outcome()
        drawn_outside = {o.step for o in rec.mentions if failing.isdisjoint(o.item.context.conditions)}
        out = []
        for step in self.steps:
            m = rec.first.get(step.id)
            if m is None or step.id in drawn_outside:
                continue
            msg = self.texts["failure_only"].format(step=step.name)
            out.append((Finding(FindingKind.ORDER, step.id, m.line, "correction", msg), 1))
        return Outcome(out)

    def fails(self, label: str) -> bool:
        """Does a block branch's label say a failure word that no negation right before it denies?"""
        for clause in clauses(label):
            for hit in self.words.finditer(clause):
                before = " " + " ".join(clause[:hit.start()].split()[-NEGATION_WORDS:]) + " "
                if self.negations is None or self.negations.search(before) is None:
                    return True
        return False

"""Main-path steps outside the heaviest increasing subsequence of the reference order are out of place."""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Drawing, Finding, FindingKind, MessagesCheck, Outcome
from drawcheck.grade.layout import drawn_order


def heaviest_increasing(seq: list[tuple[int, int]]) -> set[int]:
    """Positions of the max-weight strictly increasing subsequence of (key, weight) pairs (weights >= 1):
    the first heaviest chain, ties to the earliest."""
    n = len(seq)
    keys = [k for k, _ in seq]
    best = [w for _, w in seq]  # heaviest chain ending at each position
    prev = [-1] * n
    for i in range(1, n):
        top, extends = 0, -1
        for j in range(i):  # the first heaviest chain it can extend
            if keys[j] < keys[i] and best[j] > top:
                top, extends = best[j], j
        if extends >= 0:
            best[i] += top
            prev[i] = extends
    keep = set()
    i = best.index(max(best)) if best else -1
    while i != -1:
        keep.add(i)
        i = prev[i]
    return keep


@dataclass(eq=False)
class OrderCheck(MessagesCheck):
    """Section `order:` (optional): `messages: {between, before, after, anywhere}`."""

    section = "order"
    kinds = (FindingKind.ORDER,)
    messages = {
        "between": "{step} runs after {previous} and before {next}",
        "before": "{step} runs before {next}",
        "after": "{step} runs after {previous}",
        "anywhere": "{step} is out of order",
    }

    notes_by_step: dict[str, tuple[str, str, int]] = field(init=False, default_factory=dict)  # step ->
    # (message, severity, edits)

    def prepare(self, ref) -> None:
        path = ref.plan.main_path
        neighbours = [s for s in path if s.tier != "D"]
        for step in path:
            prev = next((s for s in reversed(neighbours) if s.index < step.index), None)
            nxt = next((s for s in neighbours if s.index > step.index), None)
            key = "between" if prev and nxt else "before" if nxt else "after" if prev else "anywhere"
            msg = self.texts[key].format(step=step.name, previous=prev.name if prev else "",
                                         next=nxt.name if nxt else "")
            severity = "correction" if step.tier in ("A", "B") else "hint"
            self.notes_by_step[step.id] = (msg, severity, 1 if severity == "correction" else 0)

    def grade(self, drawing: Drawing) -> Outcome:
        if drawing.layout.in_order:
            return Outcome()
        facts = drawing.reference.plan.facts
        drawn = [m for m in drawn_order(drawing.recognised, facts) if facts[m.step].position >= 0]
        keep = heaviest_increasing([(facts[m.step].position, facts[m.step].weight) for m in drawn])
        out = []
        for k, m in enumerate(drawn):
            if k not in keep:
                msg, severity, edits = self.notes_by_step[m.step]
                if m.how == "typo":  # read only by its spelling: unsure, so never a correction
                    severity, edits = "hint", 0
                out.append((Finding(FindingKind.ORDER, m.step, m.line, severity, msg), edits))
        return Outcome(out)

"""Steps the drawing leaves out: a correction for a required step, a hint for a tier-C one.

A required step is only a hint when a text drawcheck cannot read stands where it belongs: a message or note in
letters outside ASCII that names nothing drawcheck knows, between the steps drawn before and after it (`unread`;
a language the exercise does not list may name it there)."""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Drawing, Finding, FindingKind, Mark, MessagesCheck, Outcome
from drawcheck.recognise import PLAIN
from drawcheck.recognise.phrases import foreign_letters


@dataclass(eq=False)
class MissingCheck(MessagesCheck):
    """Section `missing:` (optional): `messages: {missing, missing_plain, mark}`."""

    section = "missing"
    kinds = (FindingKind.MISSING,)
    messages = {
        "missing": "{step} is missing: it {teach}",  # for a step with `teach:`
        "missing_plain": "{step} is missing",
        "mark": "missing: {step}",  # inserted on the circled drawing where it belongs
        "unread": "{step} is missing, unless this line names it: drawcheck could not read its words (is it in a "
                  "language the exercise does not list yet?); a reviewer will read it",
    }

    findings: dict[str, tuple[Finding, int]] = field(init=False, default_factory=dict)  # step id -> what its
    # absence earns, in reference order

    def prepare(self, ref) -> None:
        claimed = ref.claimed
        for step in ref.steps:
            if step.id in claimed or not (step.required or step.tier == "C"):
                continue
            severity = "correction" if step.required else "hint"
            msg = (self.texts["missing"] if step.teach else self.texts["missing_plain"]).format(
                step=step.name, teach=step.teach)
            self.findings[step.id] = (Finding(FindingKind.MISSING, step.id, None, severity, msg),
                                      1 if step.required else 0)
        self.weight = sum(1 for s in ref.steps if s.required and s.id not in claimed)

    def grade(self, drawing: Drawing) -> Outcome:
        rec, ref = drawing.recognised, drawing.reference
        first = rec.first
        missing = [(step_id, scored) for step_id, scored in self.findings.items() if step_id not in first]
        if not any(finding.severity == "correction" for _, (finding, _edits) in missing):
            return Outcome([scored for _, scored in missing])
        unread = [item for item in rec.items if foreign_letters(item.text) and item.kind in ("message", "note")
                  and item.role == PLAIN and not item.header and not item.reading.names("step")]
        if not unread:
            return Outcome([scored for _, scored in missing])
        drawn = {m.item.index for m in rec.mentions}
        unread = [item for item in unread if item.index not in drawn]
        slots: dict[tuple[int, int], list[str]] = {}  # (item indices of the steps drawn around) -> steps missing there
        for step_id, _ in missing:
            slots.setdefault(_neighbours(ref, first, ref.step(step_id).index, len(rec.items)), []).append(step_id)
        read_as = {}  # a step -> the unread text that may be it: as many such texts in its place as steps missing
        for (before, after), steps in slots.items():
            there = [item for item in unread if before < item.index < after]
            if len(there) >= len(steps):
                read_as.update(zip(steps, there))
        out = []
        for step_id, (finding, edits) in missing:
            item = read_as.get(step_id)
            if item is None or finding.severity != "correction":
                out.append((finding, edits))
                continue
            message = self.texts["unread"].format(step=ref.step(step_id).name)
            out.append((Finding(FindingKind.MISSING, step_id, item.line, "hint", message), 0))
        return Outcome(out)

    def overlay(self, finding, result, ref):
        if not finding.point or finding.line is not None:
            return super().overlay(finding, result, ref)
        if not ref.has_step(finding.point):
            return (Mark("missing", None, self.texts["mark"].format(step=finding.point)),)
        target = ref.step(finding.point)
        best = None  # the drawn step that comes last before it in reference order
        for p in result.points:
            if ref.has_step(p.point):
                index = ref.step(p.point).index
                if index < target.index and (best is None or index > best[0]):
                    best = (index, p.line)
        return (Mark("missing", best[1] if best else None, self.texts["mark"].format(step=target.name),
                     target.index),)


def _neighbours(ref, first, index: int, end: int) -> tuple[int, int]:
    """The item indices of the steps drawn nearest before and after reference position `index` (-1 and `end`
    where none is)."""
    before = max(((ref.step(step).index, m.item.index) for step, m in first.items()
                  if ref.step(step).index < index), default=(-1, -1))[1]
    after = min(((ref.step(step).index, m.item.index) for step, m in first.items()
                 if ref.step(step).index > index), default=(-1, end))[1]
    return before, after

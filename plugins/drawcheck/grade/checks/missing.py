"""Steps the drawing leaves out: a correction for a required step, a hint for a tier-C one."""

from __future__ import annotations

from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Drawing, Finding, FindingKind, Mark, MessagesCheck, Outcome


@dataclass(eq=False)
class MissingCheck(MessagesCheck):
    """Section `missing:` (optional): `messages: {missing, missing_plain, mark}`."""

    section = "missing"
    kinds = (FindingKind.MISSING,)
    messages = {
        "missing": "{step} is missing: it {teach}",  # for a step with `teach:`
        "missing_plain": "{step} is missing",
        "mark": "missing: {step}",  # inserted on the circled drawing where it belongs
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
        first = drawing.recognised.first
        return Outcome([scored for step_id, scored in self.findings.items() if step_id not in first])

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

"""Steps drawn in a phase they do not run in: labelled so, or unlabelled on the wrong side of the boundary.

The phases themselves are the YAML's `cycles:` section; this check's own section `phases:` (optional)
holds `messages: {wrong}` and `labels:` (`correction`, the default, or `hint`: for an exercise whose phases
only describe the sequence, a step under another phase's label is a hint, a correction only when its own
text names that phase; and no finding at all for a step of a later phase under an earlier phase's label (the
drawing moved on without a new label, as a sequence does) or for a step under a label whose section has not
begun yet (no step of the label's phase drawn under it before: a caption that names a later phase early). A step's `wrong_cycle:` note replaces the message
for that step.
"""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.checks.base import Drawing, Finding, FindingKind, MessagesCheck, Outcome
from drawcheck.recognise import BY_PARTICIPANTS


@dataclass(eq=False)
class PhasesCheck(MessagesCheck):
    section = "phases"
    kinds = (FindingKind.WRONG_PHASE,)
    supersedes = (FindingKind.ORDER,)  # one circle per step and line: a step in the wrong phase is not also out of order
    messages = {"wrong": "{step} runs in the {phase}, not the {drawn}"}
    labels: str = "correction"  # what a step labelled with another phase earns (`labels:`): correction | hint

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, cls.section, (), ("messages", "labels")) if node is not None else {}
        labels = r.choice(m["labels"], f"{cls.section}.labels", ("correction", "hint")) if "labels" in m else "correction"
        return cls(r.templates(m.get("messages"), f"{cls.section}.messages", cls.messages), labels)

    def grade(self, drawing: Drawing) -> Outcome:
        ref, rec, layout = drawing.reference, drawing.recognised, drawing.layout
        boundary = ref.boundary
        already = boundary.circled(rec, layout) if boundary is not None else set()
        wrong = [(ref.step(m.step), m, drawn) for m, drawn in layout.labelled_wrong if m.step not in already]
        facts = ref.plan.facts
        for m in layout.strays:  # unlabelled: the phase of the side it is drawn on
            drawn = rec.effective_phase(m.item, boundary.phases)
            if m.item.phase is None and drawn is not None and drawn not in facts[m.step].fine and m.step not in already:
                wrong.append((ref.step(m.step), m, drawn))
        wrong.sort(key=lambda w: w[0].index)
        out = []
        guessed = rec.boundary is not None and rec.boundary.guessed
        order = {phase: i for i, phase in enumerate(ref.phases)}  # the phases as the YAML lists them
        for step, m, drawn in wrong:
            if self.labels == "hint" and m.item.reading.inline is None and (
                    order[step.cycle] > order[drawn] or not self._section_started(drawing, m, drawn)):
                continue  # a label the drawing has moved on from, or whose section has not begun: it describes no step
            by_participants = m.pos == BY_PARTICIPANTS
            if by_participants and any(ref.step(h.target).cycle == drawn for h in m.item.hits):
                continue  # its message's words name a step of that phase: the label is that step's
            cond = m.item.context.conditional_line
            if step.branch and cond is not None and (m.item.phase_line or 0) < cond:
                continue  # a branch drawn as a branch: the phase label around it came from outside the branch
            severity = "correction" if step.tier in ("A", "B", "C") else "hint"
            if guessed and m.item.phase is None:
                severity = "hint"  # its side of a boundary read from an ambiguous mark: a guess, never a correction
            if m.how == "typo":
                severity = "hint"  # the step was read only by its spelling: unsure, so never a correction
            if self.labels == "hint" and (m.item.reading.inline is None or by_participants):
                severity = "hint"  # a label around it, not its own words: descriptive phases are no rule
            note = step.wrong_cycle
            if note:
                msg, version = note.message, note.versions
            else:
                msg = self.texts["wrong"].format(step=step.name, phase=ref.phase_name(step.cycle),
                                                 drawn=ref.phase_name(drawn))
                version = None
            out.append((Finding(FindingKind.WRONG_PHASE, step.id, m.line, severity, msg, version),
                        1 if severity == "correction" else 0))
        return Outcome(out)

    @staticmethod
    def _section_started(drawing: Drawing, m, drawn: str) -> bool:
        """Is a step of phase `drawn` drawn under the same label before `m` (descriptive phases: a label
        written early, "every sower is already in the field", holds its section only once the section begins)?"""
        ref = drawing.reference
        return any(o.item.phase == drawn and o.item.phase_line == m.item.phase_line and o.order < m.order
                   and ref.step(o.step).cycle == drawn for o in drawing.recognised.first.values())

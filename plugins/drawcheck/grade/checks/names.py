"""Spelling near misses and old names of steps: hints (the old names live in each step's `legacy:`)."""

from __future__ import annotations

from drawcheck.grade.checks.base import Drawing, Finding, FindingKind, MessagesCheck, Outcome
from drawcheck.recognise import BOUNDARY


class NamesCheck(MessagesCheck):
    """Section `names:` (optional): `messages: {typo: ...}`."""

    section = "names"
    kinds = (FindingKind.NAME,)
    messages = {"typo": "'{label}' reads as {step}: check the spelling"}

    def grade(self, drawing: Drawing) -> Outcome:
        ref = drawing.reference
        out = []
        seen = set()
        for item in drawing.recognised.items:
            if item.role == BOUNDARY or not item.reading.misnamed:
                continue  # a boundary (an async arrow named after the second phase included) draws no step
            for hit in item.hits:
                label = item.text[hit.start:hit.end]  # the learner's words for the step
                if hit.how == "exact" or (hit.target, label.lower()) in seen:
                    continue
                seen.add((hit.target, label.lower()))
                if hit.how == "typo":
                    msg = self.texts["typo"].format(label=label, step=ref.step(hit.target).name)
                    out.append((Finding(FindingKind.NAME, hit.target, item.line, "hint", msg), 0))
                elif hit.legacy is not None and not self._each_drawn_by_its_own_name(hit, item, drawing):
                    out.append((Finding(FindingKind.NAME, hit.target, item.line, "hint", hit.legacy.message,
                                        hit.legacy.versions), 0))
        return Outcome(out)

    @staticmethod
    def _each_drawn_by_its_own_name(hit, item, drawing) -> bool:
        """An old name for several steps (`legacy.also`) whose every step another text draws by a name of its own:
        the drawing tells them apart, and the old name in passing needs no hint."""
        first = drawing.recognised.first
        return bool(hit.legacy.also) and all(
            (m := first.get(step)) is not None and m.how == "exact" and m.item is not item
            for step in (hit.target, *hit.legacy.also))

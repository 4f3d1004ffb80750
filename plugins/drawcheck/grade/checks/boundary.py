"""The boundary: where the drawing splits two phases, and whether it is right after the step that ends
the first one. Also circles a drawing that marks neither the boundary nor its phases.

Section `boundary:` — `after` (step), `cycles` ([phase before, phase after]), `markers`/`starts` (texts
that draw the boundary), the messages `missing`, `early`, `late`, `unmarked`, `true_boundary`, `guessed`
(a boundary read from an ambiguous mark: its findings are hints that say what was read), and `older`
(earlier releases' boundaries, with their versions).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from drawcheck.grade.checks.base import Check, Drawing, Finding, FindingKind, Mark, Outcome
from drawcheck.recognise import BOUNDARY, Role, marker_regex
from drawcheck.reference.model import Note

PLACEHOLDERS = "{after} the last step before it, {steps} the misplaced ones, {n}, {step_word}, {runs}"


@dataclass(frozen=True, slots=True)
class OlderBoundary:
    early: tuple[str, ...]  # the steps the learner put after the boundary
    note: Note


def plural(n: int) -> dict[str, str]:
    """Template helpers: {step_word} step/steps, {runs} runs/run."""
    return {"step_word": "step" if n == 1 else "steps", "runs": "runs" if n == 1 else "run"}


@dataclass(eq=False, kw_only=True)
class BoundaryCheck(Check):
    section = "boundary"
    kinds = (FindingKind.BOUNDARY, FindingKind.PHASES)
    weight = 2  # the boundary, and marking the phases at all
    messages = {
        "unmarked": "mark the boundary or the phases: show where {after} ends the {before_phase}, or label which "
                    "steps run in the {before_phase} and which in the {after_phase} (a Note or a rect)",
        "true_boundary": "the boundary is here",
        "guessed": "this reads {what} on line {line} as your boundary; if that is what you meant: {message}",
    }
    # what a guessed boundary was read from (FoundBoundary.source), for the `guessed` message
    guessed_from = {"async": "the async arrow", "par": "the `par` block", "rects": "the second unlabelled `rect`"}

    after: str  # the last step before the boundary
    phases: tuple[str, str]  # (phase before, phase after)
    markers: tuple[str, ...]  # texts that draw the boundary anywhere in a line
    starts: tuple[str, ...]  # ... only at its start
    missing: str  # message: no boundary drawn
    early: str  # message: steps drawn after it that run before it
    late: str  # message: steps drawn before it that run after it
    older: tuple[OlderBoundary, ...]
    texts: dict[str, str]  # the other messages (`messages` with the section's own)
    sources: tuple = ()  # where the code shows the boundary
    pattern: re.Pattern | None = field(init=False)
    unmarked: str = field(init=False, default="")

    def __post_init__(self):
        self.pattern = marker_regex(self.markers, self.starts)

    @classmethod
    def load(cls, r, node, core):
        m = r.mapping(node, "boundary", ("after", "cycles", "markers", "missing", "early", "late"),
                      ("older", "starts", "unmarked", "true_boundary", "source"))
        pair = r.seq(m["cycles"], "boundary.cycles")
        if len(pair) != 2:
            r.fail(m["cycles"], "boundary.cycles must list exactly two phase ids: [the one before, the one after]")
        older = []
        for item in r.seq(m["older"], "boundary.older") if "older" in m else ():
            om = r.mapping(item, "a boundary.older entry", ("early", "message", "versions"), ("source",))
            early = tuple(core.step(n, "boundary.older.early") for n in r.seq(om["early"], "boundary.older.early"))
            older.append(OlderBoundary(early, Note(r.string(om["message"], "message"), r.string(om["versions"], "versions"),
                                                   r.source(om, "boundary.older"), item.start_mark.line + 1)))
        texts = dict(cls.messages)
        texts.update({k: r.string(m[k], f"boundary.{k}") for k in ("unmarked", "true_boundary", "guessed") if k in m})
        return cls(
            after=core.step(m["after"], "boundary.after"),
            phases=tuple(core.phase(n, "boundary.cycles") for n in pair),
            markers=r.strings(m["markers"], "boundary.markers"),
            starts=r.strings(m["starts"], "boundary.starts") if "starts" in m else (),
            missing=r.string(m["missing"], "boundary.missing"), early=r.string(m["early"], "boundary.early"),
            late=r.string(m["late"], "boundary.late"), older=tuple(older), texts=texts,
            sources=r.source(m, "boundary"),
        )

    def prepare(self, ref) -> None:
        before, after = self.phases
        self.unmarked = self.texts["unmarked"].format(
            after=ref.step(self.after).name, before_phase=ref.phase_name(before), after_phase=ref.phase_name(after))

    def role(self):
        return Role(BOUNDARY, self.pattern, headers=True) if self.pattern else None

    def grade(self, drawing: Drawing) -> Outcome:
        rec, layout, ref = drawing.recognised, drawing.layout, drawing.reference
        if not rec.phases_marked:
            return Outcome([(Finding(FindingKind.PHASES, None, None, "correction", self.unmarked), 1)])
        if rec.boundary is None:
            return Outcome([(Finding(FindingKind.BOUNDARY, None, None, "correction", self.missing), 1)])
        if rec.boundary.source == "cycles":
            return Outcome()
        out = []
        after_name = ref.step(self.after).name
        line = rec.boundary.line
        early, late = layout.early, layout.late
        if early:
            ids = tuple(m.step for m in early)
            names = ", ".join(ref.step(i).name for i in ids)
            msg = self.early.format(n=len(ids), steps=names, after=after_name, **plural(len(ids)))
            version = None
            for older in self.older:
                if set(older.early) == set(ids) and not late:
                    msg, version = older.note.message, older.note.versions
                    break
            out.append((Finding(FindingKind.BOUNDARY, None, line, "correction", msg, version), len(ids)))
        if late:
            names = ", ".join(ref.step(m.step).name for m in late)
            msg = self.late.format(n=len(late), steps=names, after=after_name, **plural(len(late)))
            out.append((Finding(FindingKind.BOUNDARY, None, line, "correction", msg), len(late)))
        if rec.boundary.guessed:  # an ambiguous mark: say what was read, as a hint, never as a correction
            what = self.guessed_from[rec.boundary.source]
            out = [(Finding(f.kind, f.point, f.line, "hint",
                            self.texts["guessed"].format(what=what, line=line, message=f.message), f.version), 0)
                   for f, _ in out]
        return Outcome(out)

    def circled(self, rec, layout) -> set[str]:
        """The steps its findings already circle (the phases check does not circle them again)."""
        if rec.boundary is None or rec.boundary.source == "cycles":
            return set()  # a boundary read from the phase labels is never circled: the labels are
        return {m.step for m in layout.early + layout.late}

    def overlay(self, finding, result, ref):
        """The remark, and where the boundary truly is: after the drawn `after` step (else the last drawn
        step of the first phase)."""
        anchor = next((p.line for p in result.points if p.point == self.after), None)
        if anchor is None:
            best = None
            for p in result.points:
                s = ref.step(p.point) if ref.has_step(p.point) else None
                if s is not None and s.cycle == self.phases[0] and (best is None or s.index > best[0]):
                    best = (s.index, p.line)
            anchor = best[1] if best else None
        return (Mark("circle", finding.line, finding.message),
                Mark("boundary", anchor, self.texts["true_boundary"], ref.step(self.after).index + 0.5))

    def notes(self):
        for older in self.older:
            yield "a boundary.older entry", older.note.line, older.note.versions, older.note.sources

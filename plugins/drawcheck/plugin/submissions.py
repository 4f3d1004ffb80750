"""SubmissionsManager: collect every answer file and grade it, once per build."""

from __future__ import annotations

import logging
import os

from drawcheck.grade.model import Finding, Result
from drawcheck.render.feedback import feedback_setup
from drawcheck.render.model import Graded, Refused

log = logging.getLogger("mkdocs.plugins.drawcheck")


def _crash_result(file: str, exc: Exception) -> Result:
    message = f"drawcheck could not check this file ({type(exc).__name__}); please report it with the file attached"
    return _invalid(file, message)


def _invalid(file: str, message: str, line: int | None = None) -> Result:
    return Result(file=file, status="invalid", score=0.0, findings=[Finding("syntax", None, line, "correction", message)])


def _over_time(file: str, seconds: float) -> Result:
    return _invalid(file, f"checking this file took longer than {seconds:g} s, so it was stopped; a drawing for this "
                          "exercise is checked in milliseconds, so keep only your diagram (no long runs of repeated "
                          "text, no deep nesting)", 1)


def drawn_for_the_page(graded: Graded, setup) -> str | None:
    """Why the feedback page could not draw this diagram, when its redrawn copy (render.feedback.page_drawing)
    is over Mermaid's text limit: entity codes such as `#44;` make the copy longer than the file. Otherwise
    the copy is kept in `graded.drawing`, so the page does not draw it again."""
    from drawcheck.render.feedback import page_drawing
    from drawcheck.safety import MERMAID_MAX_TEXT, mermaid_length

    drawing = page_drawing(graded, setup)
    length = mermaid_length(drawing) if drawing is not None else 0
    if length <= MERMAID_MAX_TEXT:
        graded.drawing = drawing
        return None
    return (f"your drawing, redrawn for the feedback page, is {length:,} characters long, more than the "
            f"{MERMAID_MAX_TEXT:,} Mermaid can draw (punctuation is written as codes such as #44;, which makes it "
            "longer than your file); shorten the texts or draw fewer steps")


class SubmissionsManager:
    """Reads `answers_dir` through intake, parses and grades each file; one learner's file never stops another's."""

    def __init__(self, *, answers_dir: str, site_root: str, reference, max_bytes: int, max_lines: int,
                 examples: list[str] | tuple[str, ...] = (), max_seconds: float | None = 10,
                 only: str | None = None, page_setup=None):
        self.answers_dir = answers_dir
        self.site_root = site_root
        self.reference = reference
        self.max_bytes = max_bytes
        self.max_lines = max_lines
        self.examples = frozenset(e.lower() for e in examples)
        self.max_seconds = max_seconds
        self.only = only  # DRAWCHECK_ONLY: grade this handle's files alone
        # what every page's drawing shares, once per build (the exercise's FeedbackPages hands its own)
        self.page_setup = page_setup or feedback_setup(reference)

    def _label(self, path) -> str:
        return os.path.relpath(os.fspath(path), self.site_root).replace(os.sep, "/")

    def _error_label(self, file) -> str:
        path = os.fspath(file)
        if os.path.isabs(path):
            return self._label(path)
        if os.path.lexists(os.path.join(self.answers_dir, path)):
            return self._label(os.path.join(self.answers_dir, path))
        return path.replace(os.sep, "/")

    def collect(self) -> tuple[list[Graded], list[Refused]]:
        from drawcheck.intake import collect_submissions

        # errors named from the site's root: answers/<exercise>/x.mmd, as the learner's repository has it
        submissions, errors = collect_submissions(self.answers_dir, max_bytes=self.max_bytes, max_lines=self.max_lines,
                                                  examples=self.examples, root=self.site_root)
        refused = [Refused(self._error_label(e.file), e.line, e.message) for e in errors]
        firsts: dict[str, Graded] = {}
        corrected: dict[str, Graded] = {}
        for sub in submissions:
            if self.only and sub.handle.lower() != self.only.lower():
                continue
            graded = self.grade(sub.handle, self._label(sub.path), sub.text)
            graded.example = sub.handle.lower() in self.examples
            (corrected if sub.corrected else firsts)[sub.handle] = graded
        for handle, g in corrected.items():
            if handle in firsts:
                firsts[handle].corrected = g
            else:
                firsts[handle] = g  # only a corrected drawing: show it as the drawing
        return sorted(firsts.values(), key=lambda g: g.handle.lower()), refused

    def grade(self, handle: str, file: str, text: str) -> Graded:
        """Parse once, grade the parsed drawing, within the time budget; any crash or overrun becomes a
        finding on that file alone."""
        from drawcheck.intake import TimeBudgetExceeded, time_budget

        try:
            with time_budget(self.max_seconds):
                return self._grade(handle, file, text)
        except TimeBudgetExceeded:
            return Graded(handle, file, _over_time(file, self.max_seconds), None)

    def _grade(self, handle: str, file: str, text: str) -> Graded:
        from drawcheck.grade import grade_diagram
        from drawcheck.intake import TimeBudgetExceeded
        from drawcheck.parse import parse_text

        try:
            diagram = parse_text(text)
        except TimeBudgetExceeded:
            raise
        except Exception as exc:  # noqa: BLE001 - a stranger's file must not stop the build
            log.debug("parse failed for %s", file, exc_info=True)
            return Graded(handle, file, _crash_result(file, exc), None)
        try:
            graded = Graded(handle, file, grade_diagram(diagram, text, file=file, reference=self.reference), diagram)
            too_long = drawn_for_the_page(graded, self.page_setup)
        except TimeBudgetExceeded:
            raise
        except Exception as exc:  # noqa: BLE001
            log.debug("grade failed for %s", file, exc_info=True)
            return Graded(handle, file, _crash_result(file, exc), diagram)
        if too_long:
            return Graded(handle, file, _invalid(file, too_long, 1), None)
        return graded

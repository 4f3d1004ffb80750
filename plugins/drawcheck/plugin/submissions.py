"""SubmissionsManager: collect every answer file and grade it, once per build."""

from __future__ import annotations

import logging
import os

from drawcheck.grade.model import Finding, Result
from drawcheck.render.model import Graded, Refused

log = logging.getLogger("mkdocs.plugins.drawcheck")


def _crash_result(file: str, exc: Exception) -> Result:
    message = f"drawcheck could not check this file ({type(exc).__name__}); please report it with the file attached"
    return Result(file=file, status="invalid", score=0.0,
                  findings=[Finding("syntax", None, None, "correction", message)])


class SubmissionsManager:
    """Reads `answers_dir` through intake, parses and grades each file; one learner's file never stops another's."""

    def __init__(self, *, answers_dir: str, site_root: str, reference, max_bytes: int, max_lines: int,
                 only: str | None = None):
        self.answers_dir = answers_dir
        self.site_root = site_root
        self.reference = reference
        self.max_bytes = max_bytes
        self.max_lines = max_lines
        self.only = only  # DRAWCHECK_ONLY: grade this handle's files alone

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

        submissions, errors = collect_submissions(self.answers_dir, max_bytes=self.max_bytes, max_lines=self.max_lines)
        refused = [Refused(self._error_label(e.file), e.line, e.message) for e in errors]
        firsts: dict[str, Graded] = {}
        corrected: dict[str, Graded] = {}
        for sub in submissions:
            if self.only and sub.handle.lower() != self.only.lower():
                continue
            graded = self.grade(sub.handle, self._label(sub.path), sub.text)
            (corrected if sub.corrected else firsts)[sub.handle] = graded
        for handle, g in corrected.items():
            if handle in firsts:
                firsts[handle].corrected = g
            else:
                firsts[handle] = g  # only a corrected drawing: show it as the drawing
        return sorted(firsts.values(), key=lambda g: g.handle.lower()), refused

    def grade(self, handle: str, file: str, text: str) -> Graded:
        """Parse once, grade the parsed drawing; any crash becomes a finding on that file alone."""
        from drawcheck.grade import grade_diagram
        from drawcheck.parse import parse_text

        try:
            diagram = parse_text(text)
        except Exception as exc:  # noqa: BLE001 - a stranger's file must not stop the build
            log.debug("parse failed for %s", file, exc_info=True)
            return Graded(handle, file, _crash_result(file, exc), None)
        try:
            result = grade_diagram(diagram, text, file=file, reference=self.reference)
        except Exception as exc:  # noqa: BLE001
            log.debug("grade failed for %s", file, exc_info=True)
            return Graded(handle, file, _crash_result(file, exc), diagram)
        return Graded(handle, file, result, diagram)

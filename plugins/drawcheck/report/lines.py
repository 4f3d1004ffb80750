"""One report line per finding: what the build log and annotations are made of."""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import Result
from drawcheck.render.circles import UNGRADED_KINDS, circle, numbers_by_finding
from drawcheck.safety import log_text

ERROR_KINDS = UNGRADED_KINDS


@dataclass(frozen=True, slots=True)
class ReportLine:
    """One finding of one file, already classified as error / correction / hint."""

    file: str
    line: int | None
    kind: str
    severity: str  # "error" | "correction" | "hint"
    message: str
    version: str | None = None
    product: str = ""  # what `version` refers to, the exercise's product (Reference.product)
    number: int | None = None  # the correction's number on the feedback page (render.circles); None: hints, errors
    point: str | None = None  # the step the finding is about

    @property
    def mark(self) -> str:
        """The circled number the feedback page gives this correction (`②`), or "" for hints and errors."""
        return circle(self.number) if self.number else ""

    @property
    def version_note(self) -> str:
        """` (your drawing matches <product> <versions>)` when the learner's belief held in older releases."""
        if not self.version:
            return ""
        return f" (your drawing matches {self.product} {self.version})" if self.product else f" (your drawing matches {self.version})"


def report_lines(result: Result, *, product: str = "") -> list[ReportLine]:
    """Every finding of `result` in line order; syntax/unsafe findings become errors; corrections carry the
    feedback page's numbers."""
    numbers = numbers_by_finding(result)
    out = []
    for f in sorted(result.findings, key=lambda f: (f.line is None, f.line or 0)):
        severity = "error" if f.kind in ERROR_KINDS else f.severity
        out.append(ReportLine(result.file, f.line, f.kind, severity, f.message, f.version, product,
                              numbers.get(id(f)), f.point))
    return out


def location(file: str, line: int | None) -> str:
    return f"{file}:{line}" if line else file


def format_log_line(item: ReportLine) -> str:
    """`drawcheck: answers/x.mmd:14: <message>`."""
    return f"drawcheck: {log_text(location(item.file, item.line))}: {log_text(item.message + item.version_note, max_chars=1000)}"

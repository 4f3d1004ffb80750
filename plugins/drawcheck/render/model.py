"""What the renderers need about one graded submission (built by the plugin, or by hand in tests)."""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import Finding, FindingKind, Result
from drawcheck.parse.model import Diagram


@dataclass(slots=True)
class Graded:
    """One learner file, graded: `diagram` is None when it could not be parsed at all."""

    handle: str
    file: str  # path relative to the site root, e.g. "answers/ada.mmd"
    result: Result
    diagram: Diagram | None = None
    corrected: "Graded | None" = None
    example: bool = False  # one of the site's own examples (the plugin's `examples:` option), not a learner's

    @property
    def errors(self) -> list[Finding]:
        """Findings that make the file unusable (syntax, unsafe content)."""
        return [f for f in self.result.findings if f.kind in (FindingKind.SYNTAX, FindingKind.UNSAFE)]


@dataclass(frozen=True, slots=True)
class Refused:
    """A file intake refused (symlink, not UTF-8, too big, bad name): no page, a row in the overview."""

    file: str
    line: int | None
    message: str

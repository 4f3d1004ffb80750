"""What the renderers need about one graded submission (built by the plugin, or by hand in tests)."""

from __future__ import annotations

from dataclasses import dataclass
from urllib.parse import quote

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
    drawing: str | None = None  # render.feedback.page_drawing, when the plugin drew it already (to check its length)

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


@dataclass(frozen=True, slots=True)
class PageLinks:
    """Where a feedback page links to: the reference (relative to the page), and each learner line in the
    repository when the site knows it (mkdocs `repo_url` on GitHub, branch from `edit_uri`)."""

    reference: str = "../index.md#check-your-drawing"
    repo_url: str = ""  # e.g. https://github.com/org/drawcheck
    branch: str = ""

    def line_url(self, file: str, line: int) -> str | None:
        """The line on GitHub, or None when the repository is not known."""
        if not (self.repo_url and self.branch) or not str(file).startswith("answers/"):
            return None
        return f"{self.repo_url.rstrip('/')}/blob/{quote(self.branch, safe='')}/{quote(file, safe='/')}#L{int(line)}"


def page_links(*, repo_url: str | None, edit_uri: str | None, reference: str) -> PageLinks:
    """PageLinks from mkdocs' `repo_url` and `edit_uri` (`edit/<branch>/docs/` or `blob/<branch>/docs/`)."""
    import re

    repo = (repo_url or "").rstrip("/")
    if not re.fullmatch(r"https://github\.com/[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+", repo):
        return PageLinks(reference=reference)
    m = re.match(r"^/?(?:edit|blob|tree)/([A-Za-z0-9_.\-]+)/", edit_uri or "")
    return PageLinks(reference=reference, repo_url=repo, branch=m.group(1) if m else "")

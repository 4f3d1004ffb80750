"""FeedbackPages: the generated Markdown files (class overview + one page per submission)."""

from __future__ import annotations

from mkdocs.structure.files import File, Files, InclusionLevel

from drawcheck.render import feedback_page, overview_page
from drawcheck.render.model import Graded, Refused


class FeedbackPages:
    """Adds `<feedback_dir>/index.md` (in the nav) and `<feedback_dir>/<handle>.md` (not in the nav)."""

    def __init__(self, *, feedback_dir: str, reference):
        self.feedback_dir = feedback_dir.strip("/")
        self.reference = reference

    @property
    def overview_uri(self) -> str:
        return f"{self.feedback_dir}/index.md"

    def page_uri(self, handle: str) -> str:
        return f"{self.feedback_dir}/{handle}.md"

    def add_to(self, files: Files, config, graded: list[Graded], refused: list[Refused]) -> None:
        for uri in [self.overview_uri] + [self.page_uri(g.handle) for g in graded]:
            existing = files.get_file_from_path(uri)
            if existing is not None:
                files.remove(existing)
        files.append(File.generated(config, self.overview_uri, content=overview_page(graded, refused, self.reference)))
        for g in graded:
            files.append(File.generated(config, self.page_uri(g.handle), content=feedback_page(g, self.reference),
                                        inclusion=InclusionLevel.NOT_IN_NAV))


def nav_mentions(nav, uri: str) -> bool:
    """Whether mkdocs.yml's nav (lists/dicts/strings) lists `uri` anywhere."""
    if isinstance(nav, str):
        return nav.strip("/") == uri
    if isinstance(nav, dict):
        return any(nav_mentions(v, uri) for v in nav.values())
    if isinstance(nav, list):
        return any(nav_mentions(v, uri) for v in nav)
    return False

"""FeedbackPages: the generated Markdown files (class overview + one page per submission)."""

from __future__ import annotations

import logging

from mkdocs.structure.files import File, Files, InclusionLevel

from drawcheck import render
from drawcheck.render.model import Graded, Refused

log = logging.getLogger("mkdocs.plugins.drawcheck")


def fallback_page(g: Graded) -> str:
    """Shown when rendering one submission failed: the build goes on, the log says why."""
    return (f"# Feedback: {render.feedback.handle_text(g.handle)}\n\n"
            "!!! failure \"This page could not be drawn\"\n\n"
            "    drawcheck failed while drawing this feedback; the build log has the details.\n")


class FeedbackPages:
    """Adds `<feedback_dir>/index.md` (in the nav) and `<feedback_dir>/<handle>.md` (not in the nav)."""

    def __init__(self, *, feedback_dir: str, reference, error_level: int = logging.WARNING):
        self.feedback_dir = feedback_dir.strip("/")
        self.reference = reference
        self.error_level = error_level

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
        files.append(File.generated(config, self.overview_uri,
                                    content=render.overview_page(graded, refused, self.reference)))
        for g in graded:
            files.append(File.generated(config, self.page_uri(g.handle), content=self.page(g),
                                        inclusion=InclusionLevel.NOT_IN_NAV))

    def page(self, g: Graded) -> str:
        try:
            return render.feedback_page(g, self.reference)
        except Exception as exc:  # noqa: BLE001 - one learner's page must not stop the others
            log.log(self.error_level, "drawcheck: %s: the feedback page could not be drawn (%s)", g.file,
                    type(exc).__name__)
            log.debug("render failed for %s", g.file, exc_info=True)
            return fallback_page(g)


def nav_mentions(nav, uri: str) -> bool:
    """Whether mkdocs.yml's nav (lists/dicts/strings) lists `uri` anywhere."""
    if isinstance(nav, str):
        return nav.strip("/") == uri
    if isinstance(nav, dict):
        return any(nav_mentions(v, uri) for v in nav.values())
    if isinstance(nav, list):
        return any(nav_mentions(v, uri) for v in nav)
    return False

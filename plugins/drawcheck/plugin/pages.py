"""FeedbackPages: the generated Markdown files (class overview + one page per submission)."""

from __future__ import annotations

import dataclasses
import logging
from urllib.parse import quote

from mkdocs.structure.files import File, Files, InclusionLevel

from drawcheck import render, safety
from drawcheck.render.model import Graded, Refused, page_links
from drawcheck.report import results_document

log = logging.getLogger("mkdocs.plugins.drawcheck")


def ungradable_page(g: Graded) -> str:
    """A file intake refused (too big, not UTF-8, ...): what is wrong with it, where, and what to do."""
    out = [f"# Feedback: {render.feedback.handle_text(g.handle)}", "",
           '!!! failure "This file could not be graded"', "",
           "    The site did not read your drawing, so nothing in it was graded yet. Fix this and push again:", ""]
    out += [""] + render.errors.compiler_errors(g.file, g.diagram, g.result.findings)
    if g.corrected is not None:
        out += [f"Your other file, <code>{safety.html_text(g.corrected.file)}</code>, was not graded on its own: "
                "a corrected drawing is graded together with the first one."]
    out += ["", "[← Class overview](index.md)", ""]
    return "\n".join(out)


def is_ungradable(g: Graded) -> bool:
    return g.diagram is None and any(f.kind == "intake" for f in g.result.findings)


def fallback_page(g: Graded) -> str:
    """Shown when rendering one submission failed: the build goes on, the log says why."""
    return (f"# Feedback: {render.feedback.handle_text(g.handle)}\n\n"
            "!!! failure \"This page could not be drawn\"\n\n"
            "    drawcheck failed while drawing this feedback; the build log has the details.\n")


class FeedbackPages:
    """Adds `<feedback_dir>/index.md` (in the nav) and `<feedback_dir>/<handle>.md` (not in the nav)."""

    def __init__(self, *, feedback_dir: str, reference, error_level: int = logging.WARNING, title: str | None = None):
        self.feedback_dir = feedback_dir.strip("/")
        self.reference = reference
        self.error_level = error_level
        self.setup = render.feedback_setup(reference)  # what every page shares; `add_to` sets its links
        self.title = title  # the exercise's title, in the overview's heading on a site of several exercises

    @property
    def results_uri(self) -> str:
        return f"{self.feedback_dir}/results.json"

    @property
    def overview_uri(self) -> str:
        return f"{self.feedback_dir}/index.md"

    def page_uri(self, handle: str) -> str:
        return f"{self.feedback_dir}/{handle}.md"

    def add_to(self, files: Files, config, graded: list[Graded], refused: list[Refused], *,
               only: str | None = None) -> None:
        for uri in [self.overview_uri, self.results_uri] + [self.page_uri(g.handle) for g in graded]:
            existing = files.get_file_from_path(uri)
            if existing is not None:
                files.remove(existing)
        self.setup = dataclasses.replace(self.setup, links=page_links(
            repo_url=config.get("repo_url"), edit_uri=config.get("edit_uri"), reference=self.reference_link()))
        overview = self.overview(graded, refused)
        if self.title:
            overview = overview.replace("# Class overview", f"# Class overview: {safety.html_text(self.title)}", 1)
        if only:
            overview = overview.replace("\n", f"\n\n!!! note \"Only {render.feedback.handle_text(only)}\"\n\n"
                                        f"    DRAWCHECK_ONLY is set: this build graded {render.feedback.handle_text(only)}'s "
                                        "files alone.\n", 1)
        files.append(File.generated(config, self.overview_uri, content=overview))
        results = [r for g in graded for r in ([g.result] + ([g.corrected.result] if g.corrected else []))]
        files.append(File.generated(config, self.results_uri, content=results_document(
            results, exercise=getattr(self.reference, "exercise_id", ""))))
        for g in graded:
            files.append(File.generated(config, self.page_uri(g.handle), content=self.page(g),
                                        inclusion=InclusionLevel.NOT_IN_NAV))

    def reference_link(self) -> str:
        """The exercise page's reference section, relative to a feedback page (the site's home page)."""
        import posixpath

        return posixpath.relpath("index.md", self.feedback_dir) + "#check-your-drawing"

    def overview(self, graded: list[Graded], refused: list[Refused]) -> str:
        try:
            return render.overview_page(graded, refused, self.reference)
        except Exception as exc:  # noqa: BLE001 - the learners' own pages must still be built
            log.log(self.error_level, "drawcheck: the class overview could not be drawn (%s)", type(exc).__name__)
            log.debug("overview failed", exc_info=True)
            links = [f"- [{render.feedback.handle_text(g.handle)}]({quote(g.handle)}.md)" for g in graded]
            return "# Class overview\n\nThe charts could not be drawn; the build log has the details.\n\n" + \
                "\n".join(links) + "\n"

    def page(self, g: Graded) -> str:
        if is_ungradable(g):
            return ungradable_page(g)
        try:
            return render.feedback_page(g, self.setup)
        except Exception as exc:  # noqa: BLE001 - one learner's page must not stop the others
            log.log(self.error_level, "drawcheck: %s: the feedback page could not be drawn (%s)",
                    safety.log_text(g.file), type(exc).__name__)
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

"""ExerciseManager: one exercise of the site, from its answer folders to its generated pages."""

from __future__ import annotations

import logging
import os

from drawcheck.grade.model import Finding, Result
from drawcheck.intake import EXAMPLE_PREFIX, HANDLE_PATTERN, RESERVED_HANDLES
from drawcheck.plugin.exercises import Exercise
from drawcheck.plugin.pages import FeedbackPages, nav_mentions
from drawcheck.plugin.submissions import SubmissionsManager
from drawcheck.render.model import Graded, Refused

log = logging.getLogger("mkdocs.plugins.drawcheck")

ONLY_VARIABLE = "DRAWCHECK_ONLY"


def handle_of_file(file: str) -> str | None:
    """`answers/ada.mmd` or `answers/x/ada.corrected.mmd` -> "ada"; None when the name is no learner's handle
    (not a handle, or one kept for the site's own pages and examples: such a file is an overview row only)."""
    name = file.rsplit("/", 1)[-1]
    for suffix in (".corrected.mmd", ".mmd"):
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            reserved = stem.lower() in RESERVED_HANDLES or stem.lower().startswith(EXAMPLE_PREFIX)
            return stem if HANDLE_PATTERN.fullmatch(stem) and not reserved else None
    return None


def ungradable(r: Refused) -> Graded:
    """A refused file with a learner's handle, as a submission that could not be graded (it gets a page)."""
    handle = handle_of_file(r.file)
    result = Result(file=r.file, status="invalid", score=0.0,
                    findings=[Finding("intake", None, r.line, "correction", r.message)])
    return Graded(handle or r.file, r.file, result, None)


def give_pages_to_refused(graded: list[Graded], refused: list[Refused]) -> tuple[list[Graded], list[Refused]]:
    """Refused files named after one handle become "could not be graded" submissions; the rest stay rows."""
    by_handle = {g.handle.lower(): g for g in graded}
    counts: dict[str, int] = {}
    for r in refused:
        handle = handle_of_file(r.file)
        if handle:
            counts[handle.lower()] = counts.get(handle.lower(), 0) + 1
    rows: list[Refused] = []
    for r in refused:
        handle = handle_of_file(r.file)
        key = handle.lower() if handle else ""
        existing = by_handle.get(key)
        if not handle or counts[key] > 1 or (existing is not None and
                                              (existing.handle != handle or existing.corrected is not None)):
            rows.append(r)  # no name to give it, or two files claim it (intake said why)
            continue
        page = ungradable(r)
        if existing is None:
            by_handle[key] = page
        elif r.file.endswith(".corrected.mmd"):
            existing.corrected = page
        else:
            page.corrected, by_handle[key] = existing, page
    return sorted(by_handle.values(), key=lambda g: g.handle.lower()), rows


class ExerciseManager:
    """Grades one exercise's answer folders and adds its overview and feedback pages to the site."""

    def __init__(self, exercise: Exercise, reference, *, site_root: str, max_bytes: int, max_lines: int,
                 error_level: int, reserved: set[str], skip_folders: set[str], only: str | None = None,
                 several: bool = False, examples: tuple[str, ...] = (), max_seconds: float | None = 10):
        self.exercise = exercise
        self.reference = reference
        self.site_root = site_root
        self.reserved = reserved
        self.skip_folders = skip_folders  # other exercises' folders inside the flat answers folder
        self.only = only
        self.pages = FeedbackPages(feedback_dir=exercise.feedback_dir, reference=reference, error_level=error_level,
                                   title=self.overview_heading if several else None)
        folders = [d for d in (exercise.answers_dir, exercise.flat_answers_dir) if d]
        self.sources = [SubmissionsManager(answers_dir=d, site_root=site_root, reference=reference,
                                           max_bytes=max_bytes, max_lines=max_lines, only=only, examples=examples,
                                           max_seconds=max_seconds, page_setup=self.pages.setup) for d in folders]

    @property
    def product(self) -> str:
        return getattr(self.reference, "product", "")

    @property
    def overview_heading(self) -> str:
        return getattr(self.reference, "title", "") or self.exercise.id

    @property
    def answer_folders(self) -> list[str]:
        """The folders this exercise reads answers from (each one's files only, not its subfolders)."""
        return [s.answers_dir for s in self.sources]

    @property
    def reference_folder(self) -> str:
        return os.path.dirname(self.exercise.reference)

    def add_to_nav(self, nav, *, overview_title: str, several: bool) -> None:
        if not isinstance(nav, list) or nav_mentions(nav, self.pages.overview_uri):
            return
        title = self.exercise.nav_title or (f"{overview_title}: {self.overview_heading}" if several
                                            else overview_title)
        nav.append({title: self.pages.overview_uri})

    def collect(self) -> tuple[list[Graded], list[Refused]]:
        """Every submission of this exercise; a handle in both the flat and the exercise folder is graded once."""
        graded: dict[str, Graded] = {}
        refused: list[Refused] = []
        for source in self.sources:  # the exercise's own folder first, then the flat one
            found, errors = source.collect()
            errors = [e for e in errors if e.file not in self.skip_folders and self._wanted(e.file)]
            found, rows = give_pages_to_refused(found, errors)
            refused += rows
            for g in found:
                if g.handle.lower() in graded:
                    kept = graded[g.handle.lower()].file
                    refused.append(Refused(g.file, 1, f"{kept} is graded for this exercise; "
                                                      f"delete this copy, {g.file}, so there is one drawing"))
                elif g.handle.lower() in self.reserved:
                    refused.append(Refused(g.file, 1, f"a page named {g.handle!r} would take the address of the "
                                                      f"site's own page {self.pages.feedback_dir}/{g.handle}/; "
                                                      "ask the instructor to move this exercise's feedback_dir"))
                else:
                    graded[g.handle.lower()] = g
        found = sorted(graded.values(), key=lambda g: g.handle.lower())
        if self.only and not found and not refused:
            log.info("drawcheck: %s=%s: no answer file of %s in %s", ONLY_VARIABLE, self.only, self.only,
                     ", ".join(self._label(s.answers_dir) for s in self.sources))
        return found, refused

    def add_pages(self, files, config, graded: list[Graded], refused: list[Refused]) -> None:
        self.pages.add_to(files, config, graded, refused, only=self.only)

    def _wanted(self, file: str) -> bool:
        if not self.only:
            return True
        handle = handle_of_file(file)
        return handle is not None and handle.lower() == self.only.lower()

    def _label(self, path: str) -> str:
        return os.path.relpath(path, self.site_root).replace(os.sep, "/")

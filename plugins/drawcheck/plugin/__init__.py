"""The `drawcheck` MkDocs plugin: thin hooks that hand the work to small managers."""

from __future__ import annotations

import logging
import os

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from drawcheck.intake import HANDLE_PATTERN
from drawcheck.plugin import mermaid, search
from drawcheck.plugin.build_report import BuildReport
from drawcheck.plugin.config import DrawcheckConfig
from drawcheck.plugin.exercise_manager import ONLY_VARIABLE, ExerciseManager
from drawcheck.plugin.exercises import Exercise, exercise_line, reserved_page_names, resolve_exercises
from drawcheck.plugin.options import check_options, docs_link, option_line

log = logging.getLogger("mkdocs.plugins.drawcheck")


def load_reference_or_stop(exercise: Exercise, config_file: str | None):
    """The exercise reference; any problem in it stops the build with file:line."""
    from drawcheck.reference import ReferenceError, load_reference

    if not os.path.isfile(exercise.reference):
        line = option_line(config_file, exercise.option) if exercise.index is None else \
            exercise_line(config_file, exercise.index, "reference")
        raise PluginError(f"drawcheck: {config_file or 'mkdocs.yml'}:{line}: reference file {exercise.reference} "
                          "does not exist; set `reference:` under `plugins: - drawcheck:` to the exercise YAML, "
                          "e.g. reference/two-cycles/exercise.yml")
    try:
        return load_reference(exercise.reference)
    except ReferenceError as exc:
        raise PluginError(f"drawcheck: {exc}") from exc


def only_handle() -> str | None:
    """`DRAWCHECK_ONLY=<handle>`: build just that learner's pages (for `scripts/dev serve --only`)."""
    only = os.environ.get(ONLY_VARIABLE, "").strip()
    if only and not HANDLE_PATTERN.fullmatch(only):
        raise PluginError(f"drawcheck: {ONLY_VARIABLE}={only!r} is not a GitHub handle; e.g. {ONLY_VARIABLE}=octocat")
    return only or None


class DrawcheckPlugin(BasePlugin[DrawcheckConfig]):
    exercises: list[ExerciseManager] | None = None
    report: BuildReport | None = None

    def on_config(self, config, **kwargs):
        if not self.config.enabled:
            return config
        config_dir = os.path.dirname(config.config_file_path or ".")
        version = self.config.mermaid_version or mermaid.pinned_version(config_dir)
        source = mermaid.script_source(config.docs_dir, self.config.mermaid_local, self.config.mermaid_cdn, version)
        mermaid.configure_mermaid2(config, source)

        check_options(self.config, config_dir, config.config_file_path)
        problem = docs_link(config_dir, config.docs_dir)
        if problem:
            raise PluginError(f"drawcheck: {problem}")
        exercises = resolve_exercises(self.config, config_dir, config.config_file_path)
        self.exercises = [self._manager(e, exercises, config_dir, config.config_file_path) for e in exercises]
        self.report = BuildReport(
            correction_level=self.config.correction_log_level, error_level=self.config.error_log_level,
            github=self.config.github_annotations, per_level=self.config.annotations_per_level,
            total=self.config.annotations_total, product=self.exercises[0].product)
        for manager in self.exercises:
            manager.add_to_nav(config.nav, overview_title=self.config.overview_title, several=len(exercises) > 1)
        return config

    def _manager(self, exercise, exercises, config_dir, config_file) -> ExerciseManager:
        inside_flat = {os.path.relpath(e.answers_dir, config_dir).replace(os.sep, "/") for e in exercises
                       if e.answers_dir}
        return ExerciseManager(
            exercise, load_reference_or_stop(exercise, config_file), site_root=config_dir,
            max_bytes=self.config.max_file_bytes, max_lines=self.config.max_file_lines,
            error_level=logging.getLevelName(self.config.error_log_level),
            reserved=reserved_page_names(exercise, exercises), skip_folders=inside_flat, only=only_handle(),
            several=len(exercises) > 1, examples=tuple(self.config.examples),
            max_seconds=self.config.max_seconds_per_file)

    def on_files(self, files, *, config):
        if self.exercises is None:
            return files
        files.append(File.generated(config, mermaid.SHIM_URI, abs_src_path=mermaid.SHIM_SOURCE))
        files.append(File.generated(config, mermaid.STYLE_URI, abs_src_path=mermaid.STYLE_SOURCE))
        for manager in self.exercises:
            graded, refused = manager.collect()
            self.report.add(graded, refused, product=manager.product)
            manager.add_pages(files, config, graded, refused)
        self.report.publish()
        return files

    def on_serve(self, server, *, config, builder):
        """Rebuild when an answer or the reference data changes. MkDocs watches by polling, walking a watched
        folder every half second and following every symbolic link in it: so an answers folder (whose links
        intake never reads) is watched only when it is a real folder, and only the files directly in it
        (all intake reads), or `answers/a -> .` and `answers/b -> .` would make one poll walk 2^40 paths."""
        for manager in self.exercises or []:
            for path in manager.answer_folders:
                if os.path.isdir(path) and not os.path.islink(path):
                    server.watch(path, recursive=False)
            if os.path.isdir(manager.reference_folder):  # the site's own data, with its explanations/ folder
                server.watch(manager.reference_folder)
        return server

    def on_page_markdown(self, markdown, *, page, config, files):
        overviews = {manager.pages.overview_uri for manager in self.exercises or []}
        for manager in self.exercises or []:
            if page.file.src_uri not in overviews:  # another exercise's overview may sit inside the flagship's folder
                search.exclude_feedback_from_search(page, manager.pages.feedback_dir, manager.pages.overview_uri)
        return markdown

    @event_priority(-100)  # after mkdocs-mermaid2 has added the Mermaid script tag
    def on_post_page(self, output, *, page, config):
        if self.exercises is None:
            return output
        return mermaid.insert_shim(output, page.url)

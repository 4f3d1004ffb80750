"""The `drawcheck` MkDocs plugin: thin hooks that hand the work to small managers."""

from __future__ import annotations

import logging
import os

from mkdocs.exceptions import PluginError
from mkdocs.plugins import BasePlugin, event_priority
from mkdocs.structure.files import File

from drawcheck.plugin import mermaid, search
from drawcheck.plugin.build_report import BuildReport
from drawcheck.plugin.config import DrawcheckConfig
from drawcheck.plugin.options import check_options, option_line
from drawcheck.plugin.pages import FeedbackPages, nav_mentions
from drawcheck.plugin.submissions import SubmissionsManager

log = logging.getLogger("mkdocs.plugins.drawcheck")


def load_reference_or_stop(path: str, config_file: str | None):
    """The exercise reference; any problem in it stops the build with file:line."""
    from drawcheck.reference import ReferenceError, load_reference

    if not os.path.isfile(path):
        where = f"{config_file}:{option_line(config_file, 'reference')}" if config_file else "mkdocs.yml"
        raise PluginError(f"drawcheck: {where}: reference file {path} does not exist; set `reference:` under "
                          "`plugins: - drawcheck:` to the exercise YAML, e.g. reference/two-cycles/exercise.yml")
    try:
        return load_reference(path)
    except ReferenceError as exc:
        raise PluginError(f"drawcheck: {exc}") from exc


class DrawcheckPlugin(BasePlugin[DrawcheckConfig]):
    submissions: SubmissionsManager | None = None
    pages: FeedbackPages | None = None
    report: BuildReport | None = None

    def on_config(self, config, **kwargs):
        if not self.config.enabled:
            return config
        config_dir = os.path.dirname(config.config_file_path or ".")
        version = self.config.mermaid_version or mermaid.pinned_version(config_dir)
        source = mermaid.script_source(config.docs_dir, self.config.mermaid_local, self.config.mermaid_cdn, version)
        mermaid.configure_mermaid2(config, source)

        check_options(self.config, config_dir, config.config_file_path)
        reference = load_reference_or_stop(os.path.join(config_dir, self.config.reference), config.config_file_path)
        self.submissions = SubmissionsManager(
            answers_dir=os.path.join(config_dir, self.config.answers_dir), site_root=config_dir, reference=reference,
            max_bytes=self.config.max_file_bytes, max_lines=self.config.max_file_lines)
        self.pages = FeedbackPages(feedback_dir=self.config.feedback_dir, reference=reference,
                                   error_level=logging.getLevelName(self.config.error_log_level))
        self.report = BuildReport(
            correction_level=self.config.correction_log_level, error_level=self.config.error_log_level,
            github=self.config.github_annotations, per_level=self.config.annotations_per_level,
            total=self.config.annotations_total, product=getattr(reference, "product", ""))
        if isinstance(config.nav, list) and not nav_mentions(config.nav, self.pages.overview_uri):
            config.nav.append({self.config.overview_title: self.pages.overview_uri})
        return config

    def on_files(self, files, *, config):
        if self.submissions is None:
            return files
        files.append(File.generated(config, mermaid.SHIM_URI, abs_src_path=mermaid.SHIM_SOURCE))
        graded, refused = self.submissions.collect()
        self.report.emit(graded, refused)
        self.pages.add_to(files, config, graded, refused)
        return files

    def on_serve(self, server, *, config, builder):
        if self.submissions is not None:
            server.watch(self.submissions.answers_dir)
            server.watch(os.path.dirname(os.path.join(os.path.dirname(config.config_file_path or "."),
                                                      self.config.reference)))
        return server

    def on_page_markdown(self, markdown, *, page, config, files):
        if self.pages is not None:
            search.exclude_feedback_from_search(page, self.pages.feedback_dir, self.pages.overview_uri)
        return markdown

    @event_priority(-100)  # after mkdocs-mermaid2 has added the Mermaid script tag
    def on_post_page(self, output, *, page, config):
        if self.submissions is None:
            return output
        return mermaid.insert_shim(output, page.url)

"""BuildReport: the build log lines, GitHub annotations and job summary for one build."""

from __future__ import annotations

import logging
import os
import sys

from drawcheck.grade.model import Finding, Result
from drawcheck.render.model import Graded, Refused
from drawcheck.plugin.summary import bounded_summary
from drawcheck.report import annotation_level, annotations, format_log_line, report_lines

log = logging.getLogger("mkdocs.plugins.drawcheck")


def refused_result(r: Refused) -> Result:
    """A refused file as a Result, so logs, annotations and the summary treat it like the others."""
    return Result(file=r.file, status="invalid", score=0.0,
                  findings=[Finding("intake", None, r.line, "correction", r.message)])


def all_results(graded: list[Graded], refused: list[Refused]) -> list[Result]:
    out = []
    for g in graded:
        out.append(g.result)
        if g.corrected is not None:
            out.append(g.corrected.result)
    return out + [refused_result(r) for r in refused]


class BuildReport:
    """Logs one line per finding; under GitHub Actions also prints annotations and writes the summary.

    A learner file's problems are logged at `error_level` (INFO by default, so `--strict` builds go on) and
    are still annotated as errors on GitHub: the PR check, not the deploy, is where they fail.
    """

    def __init__(self, *, correction_level: str, error_level: str, github: bool, per_level: int, total: int,
                 product: str = "", environ=os.environ, stdout=None):
        self.product = product
        self.levels = {"error": logging.getLevelName(error_level),
                       "correction": logging.getLevelName(correction_level),
                       "hint": logging.DEBUG}
        self.github = github and environ.get("GITHUB_ACTIONS") == "true"
        self.summary_path = environ.get("GITHUB_STEP_SUMMARY")
        self.per_level = per_level
        self.total = total
        self.stdout = stdout
        self.results: list[Result] = []
        self.pending: list = []

    def add(self, graded: list[Graded], refused: list[Refused], *, product: str | None = None) -> None:
        """Log every finding of one exercise's submissions and keep them for `publish`."""
        product = self.product if product is None else product
        results = all_results(graded, refused)
        for result in results:
            for item in report_lines(result, product=product):
                level = self.levels[item.severity]
                if log.isEnabledFor(level):  # hints are DEBUG: most builds never show them, so never format them
                    log.log(level, format_log_line(item))
                if item.severity != "hint" and self.github:  # annotations are printed under GitHub Actions only
                    self.pending.append(("error" if item.severity == "error" else annotation_level(level), item))
        self.results += results

    def publish(self) -> None:
        """Under GitHub Actions: the annotations (within the caps) and a summary of bounded size."""
        results, pending = self.results, self.pending
        self.results, self.pending = [], []
        if not self.github:
            return
        out = self.stdout or sys.stdout
        for command in annotations(pending, per_level=self.per_level, total=self.total):
            print(command, file=out)
        out.flush()
        if self.summary_path:
            with open(self.summary_path, "a", encoding="utf-8") as fh:
                fh.write(bounded_summary(results, title="drawcheck: site build", product=self.product))

    def emit(self, graded: list[Graded], refused: list[Refused]) -> None:
        self.add(graded, refused)
        self.publish()

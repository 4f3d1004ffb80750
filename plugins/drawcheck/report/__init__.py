"""report: findings -> log lines, GitHub annotations, job summary, JSON.

Pure functions, shared by the MkDocs plugin and `drawcheck check --format github`.
"""

from drawcheck.report.github import (  # noqa: F401
    annotation, annotation_level, annotations, github_annotations, job_summary,
)
from drawcheck.report.lines import ReportLine, format_log_line, report_lines  # noqa: F401
from drawcheck.report.json_report import results_document  # noqa: F401

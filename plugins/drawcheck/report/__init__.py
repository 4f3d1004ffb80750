"""report: findings -> log lines, GitHub annotations, job summary, JSON.

Pure functions, shared by the MkDocs plugin and `drawcheck check --format github`.
"""

from drawcheck.report.github import annotation, annotation_level, annotations, job_summary  # noqa: F401
from drawcheck.report.lines import ReportLine, format_log_line, report_lines  # noqa: F401

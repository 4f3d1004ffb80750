"""GitHub Actions output: workflow-command annotations (within GitHub's caps) and the job summary.

GitHub shows at most 10 error, 10 warning and 10 notice annotations per step and 50 per job.
When a level has more, the last slot becomes one annotation "+N more — see the job summary";
the job summary always lists every finding.
"""

from __future__ import annotations

from typing import Iterable, Sequence

from drawcheck.grade.model import Result
from drawcheck.report.lines import ReportLine, location, report_lines
from drawcheck.safety import html_text, log_text, workflow_property, workflow_text

LEVELS = ("error", "warning", "notice")
PER_STEP_CAP = 10
PER_JOB_CAP = 50


def annotation_level(log_level: int) -> str:
    """The annotation command for a logging level: ERROR+ -> error, WARNING -> warning, else notice."""
    if log_level >= 40:
        return "error"
    return "warning" if log_level >= 30 else "notice"


def annotation_title(item: ReportLine) -> str:
    """`drawcheck ② order: <step>` for a correction (its number on the feedback page), `drawcheck: extra`
    for a hint or an error (they have no number)."""
    if not item.number:
        return f"drawcheck: {item.kind}"
    return f"drawcheck {item.mark} {item.kind}" + (f": {item.point}" if item.point else "")


def annotation(level: str, item: ReportLine) -> str:
    """One `::level file=...,line=...,title=...::message` command; learner text cannot escape it."""
    props = [f"file={workflow_property(item.file)}"]
    if item.line:
        props.append(f"line={int(item.line)}")
    props.append(f"title={workflow_property(annotation_title(item))}")
    return f"::{level} {','.join(props)}::{workflow_text(log_text(item.message + item.version_note, max_chars=1000))}"


def _caps(counts: dict[str, int], per_level: int, total: int) -> dict[str, int]:
    caps = {lv: min(per_level, n) for lv, n in counts.items() if n}
    while sum(caps.values()) > max(total, len(caps)):
        biggest = max(caps, key=lambda lv: caps[lv])
        caps[biggest] -= 1
    return caps


def annotations(items: Iterable[tuple[str, ReportLine]], *, per_level: int = PER_STEP_CAP,
                total: int = PER_JOB_CAP, where: str = "see the job summary") -> list[str]:
    """Commands for (level, item) pairs, at most `per_level` per level and `total` overall.

    A level over its cap keeps cap-1 findings and ends with one "+N more" annotation, so every
    finding is either annotated or counted.
    """
    by_level: dict[str, list[ReportLine]] = {lv: [] for lv in LEVELS}
    for level, item in items:
        by_level[level].append(item)
    caps = _caps({lv: len(v) for lv, v in by_level.items()}, per_level, total)
    out = []
    for level in LEVELS:
        found = by_level[level]
        if not found:
            continue
        cap = caps[level]
        if len(found) <= cap:
            out += [annotation(level, item) for item in found]
            continue
        shown = found[: cap - 1]
        out += [annotation(level, item) for item in shown]
        more = len(found) - len(shown)
        files = len({i.file for i in found[cap - 1:]})
        out.append(f"::{level} title={workflow_property('drawcheck')}::"
                   f"{workflow_text(f'+{more} more {level} finding(s) in {files} file(s) — {where}')}")
    return out


def _cell(text: str) -> str:
    return html_text(text).replace("|", "&#124;")


def job_summary(results: Sequence[Result], *, title: str = "drawcheck", product: str = "") -> str:
    """Markdown for `$GITHUB_STEP_SUMMARY`: one row per file, then every finding, each correction with its
    number on the feedback page (`#`)."""
    out = [f"## {title}", "", "| File | Status | Score | Corrections |", "|---|---|---|---|"]
    for r in results:
        score = "—" if r.status == "invalid" else f"{round(r.score * 100)} %"
        out.append(f"| <code>{_cell(r.file)}</code> | {_cell(r.status)} | {score} | {len(r.corrections)} |")
    items = [i for r in results for i in report_lines(r, product=product)]
    out += ["", f"### Findings ({len(items)})", ""]
    if items:
        out += ["| # | Where | Kind | Severity | Message |", "|---|---|---|---|---|"]
        for i in items:
            version = f" *({_cell(i.version_note.strip()[1:-1])})*" if i.version else ""
            out.append(f"| {i.mark} | <code>{_cell(location(i.file, i.line))}</code> | {_cell(i.kind)} | {i.severity} | "
                       f"{_cell(i.message)}{version} |")
    else:
        out.append("No findings.")
    return "\n".join(out) + "\n"


def default_level(item: ReportLine) -> str:
    """Annotation level by severity: error for unusable files, warning for corrections, notice for hints."""
    return {"error": "error", "correction": "warning"}.get(item.severity, "notice")


def github_annotations(results: Sequence[Result], *, product: str = "", level=default_level,
                       per_level: int = PER_STEP_CAP, total: int = PER_JOB_CAP) -> list[str]:
    """Every finding of `results` as annotations, within the caps (for `drawcheck check --format github`)."""
    items = [(level(i), i) for r in results for i in report_lines(r, product=product)]
    return annotations(items, per_level=per_level, total=total)

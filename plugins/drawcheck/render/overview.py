"""The class overview page: every submission in one table, and three charts."""

from __future__ import annotations

from functools import lru_cache
from urllib.parse import quote

from drawcheck import safety
from drawcheck.grade.model import FindingKind
from drawcheck.render.feedback import format_score, handle_text
from drawcheck.render.model import Graded, Refused
from drawcheck.render.stats import (
    MISPLACED_KINDS, boundary_histogram, describe_boundary, step_counts,
)
from drawcheck.render.svg import bar_chart

html_text = lru_cache(maxsize=32768)(safety.html_text)  # grader messages repeat across a class


def _step_name(reference, step_id: str) -> str:
    try:
        return reference.step(step_id).name
    except (KeyError, LookupError, ValueError):
        return step_id


def _status(g: Graded) -> str:
    r = g.result
    if r.status == "invalid":
        return "needs fixing"
    if any(f.kind == FindingKind.UNSAFE for f in r.findings):
        return "needs fixing (content the site refuses)"
    if r.status == "correct":
        return "correct"
    return f"{len(r.corrections)} correction(s)"


def overview_rows(graded: list[Graded], refused: list[Refused], reference) -> list[str]:
    boundary = reference.boundary is not None  # an exercise without a boundary has no boundary column
    rows = ["| Learner | Status | Score | " + ("Boundary drawn | " if boundary else "") + "Corrected drawing |",
            "|---|---|---|---|" + ("---|" if boundary else "")]
    for g in sorted(graded, key=lambda g: g.handle.lower()):
        name = handle_text(g.handle) + (" *(example)*" if g.example else "")
        link = f"[{name}]({quote(g.handle)}.md)"
        score = "—" if g.result.status == "invalid" else format_score(g.result.score)
        corrected = _status(g.corrected) if g.corrected else "—"
        drawn = f"{describe_boundary(g.result.boundary, reference)} | " if boundary else ""
        rows.append(f"| {link} | {_status(g)} | {score} | {drawn}{corrected} |")
    for r in refused:
        where = f"{html_text(r.file)}:{r.line}" if r.line else html_text(r.file)
        rows.append(f"| <code>{where}</code> | refused: {html_text(r.message)} | — | " + ("— | " if boundary else "") + "— |")
    return rows


def overview_page(graded: list[Graded], refused: list[Refused], reference) -> str:
    """Markdown of `feedback/index.md`."""
    results = [g.result for g in graded if g.result.status != "invalid"]
    histogram = boundary_histogram(results, reference)
    missed = [(_step_name(reference, s), n) for s, n in step_counts(results, ("missing",))[:12]]
    misplaced = [(_step_name(reference, s), n) for s, n in step_counts(results, MISPLACED_KINDS)[:12]]
    invalid = sum(1 for g in graded if g.result.status == "invalid")
    correct = sum(1 for g in graded if g.result.status == "correct")
    out = [
        "# Class overview", "",
        f"**{len(graded)}** submission(s): {correct} correct, {len(graded) - correct - invalid} with corrections, "
        f"{invalid} that could not be checked" + (f", {len(refused)} refused file(s)" if refused else "") + ".",
        "",
        *(["## Where the boundary was drawn", "",
           bar_chart(list(histogram.items()), title="Boundary relative to the true one", highlight="correct"), ""]
          if reference.boundary is not None else []),
        "## Most-missed steps", "",
        bar_chart(missed, title="Learners who left the step out"), "",
        "## Most-misplaced steps", "",
        bar_chart(misplaced, title="Learners who drew the step in the wrong place or cycle"), "",
        "## Every submission", "",
        "All results as JSON, for your own tools: [results.json](results.json).", "",
    ]
    out += overview_rows(graded, refused, reference)
    out.append("")
    return "\n".join(out)

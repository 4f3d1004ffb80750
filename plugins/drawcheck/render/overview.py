"""The class overview page: headline counts, a sortable table, the learner × step grid, and charts.

Only learners' submissions count in the class figures; the examples that ship with the site
(`Graded.example`) are listed in their own section. Every figure adds up: submissions = graded +
could not be graded, where "could not be graded" is a drawing with errors to fix or a file the site
refused. The table works as a plain table; the overview script makes it sortable and filterable.
"""

from __future__ import annotations

from urllib.parse import quote

from drawcheck import safety
from drawcheck.safety import html_text
from drawcheck.render.charts import Bar, bar_chart, score_histogram
from drawcheck.render.feedback import format_score, handle_text
from drawcheck.render.grid import grid_table, legend
from drawcheck.render.model import Graded, Refused
from drawcheck.render.stats import (
    BUCKETS, MISPLACED_KINDS, boundary_histogram, describe_boundary, step_counts,
)


MAX_NAMED_STEPS = 4  # per kind in the Corrections column; the rest as "+N"
CHART_STEPS = 12

KIND_WORDS = {
    "missing": "missing", "extra": "extra", "order": "out of order", "wrong-cycle": "wrong cycle",
    "boundary": "boundary", "reason": "reason", "cache-function": "cache function", "cycles": "cycles",
    "name": "name", "syntax": "syntax error", "unsafe": "refused content",
}

# Status words, each with a symbol so no colour alone tells them apart.
CORRECT, CORRECTIONS, NOT_GRADED, REFUSED = "correct", "corrections", "could not be graded", "refused"
STATUS_SYMBOLS = {CORRECT: "✓", CORRECTIONS: "✗", NOT_GRADED: "⚠", REFUSED: "⊘"}


def _step_name(reference, step_id: str) -> str:
    try:
        return reference.step(step_id).name
    except (KeyError, LookupError, ValueError):
        return step_id


def status_word(g: Graded) -> str:
    """One of CORRECT, CORRECTIONS, NOT_GRADED."""
    r = g.result
    if r.status == "invalid" or any(f.kind == "unsafe" for f in r.findings):
        return NOT_GRADED
    return CORRECT if r.status == "correct" else CORRECTIONS


def status_cell(word: str, detail: str = "") -> str:
    css = word.replace(" ", "-")
    text = f"{STATUS_SYMBOLS[word]} {word}" + (f" ({detail})" if detail else "")
    return f'<span class="dc-status dc-status--{css}">{text}</span>'


def _status(g: Graded, word: str) -> str:
    """The status cell of `g`, whose `status_word` is `word`."""
    if word == CORRECTIONS:
        return status_cell(word, str(len(g.result.corrections)))
    return status_cell(word)


def which_corrections(g: Graded, word: str, reference) -> str:
    """Short text of which corrections a drawing (of `status_word` `word`) has: "missing: A, B · wrong cycle: C"
    (step names from the reference)."""
    r = g.result
    findings = [f for f in r.findings if f.kind in ("syntax", "unsafe")] if word == NOT_GRADED \
        else r.corrections
    if not findings:
        return "—"
    by_kind: dict[str, list[str]] = {}
    for f in findings:
        names = by_kind.setdefault(f.kind, [])
        name = _step_name(reference, f.point) if f.point else (f"line {f.line}" if f.line else "")
        if name and name not in names:
            names.append(name)
    parts = []
    for kind, names in by_kind.items():
        word = KIND_WORDS.get(kind, kind)
        shown = ", ".join(html_text(n) for n in names[:MAX_NAMED_STEPS])
        more = f" +{len(names) - MAX_NAMED_STEPS}" if len(names) > MAX_NAMED_STEPS else ""
        parts.append(f'<span class="dc-kind">{html_text(word)}{": " + shown + more if shown else ""}</span>')
    return " · ".join(parts)


def _link(g: Graded) -> str:
    return f"[{handle_text(g.handle)}]({quote(g.handle)}.md)"


def overview_rows(graded: list[Graded], refused: list[Refused], reference) -> list[str]:
    """The table of submissions, one row each, sorted by handle; refused files last."""
    boundary = reference.boundary is not None  # an exercise without a boundary has no boundary column
    rows = ["| Learner | Status | Corrections | Score | " + ("Boundary drawn | " if boundary else "") + "Corrected drawing |",
            "|---|---|---|--:|" + ("---|" if boundary else "") + "---|"]
    for g in sorted(graded, key=lambda g: g.handle.lower()):
        word = status_word(g)
        score = "—" if word == NOT_GRADED else format_score(g.result.score)
        corrected = _status(g.corrected, status_word(g.corrected)) if g.corrected else "—"
        drawn = ""
        if boundary:
            drawn = "— | " if word == NOT_GRADED else f"{describe_boundary(g.result.boundary, reference)} | "
        rows.append(f"| {_link(g)} | {_status(g, word)} | {which_corrections(g, word, reference)} | {score} | {drawn}"
                    f"{corrected} |")
    for r in refused:
        where = f"{html_text(r.file)}:{r.line}" if r.line else html_text(r.file)
        rows.append(f"| <code>{where}</code> | {status_cell(REFUSED)} | {html_text(r.message)} | — | "
                    + ("— | " if boundary else "") + "— |")
    return rows


def headline(learners: list[Graded], refused: list[Refused], examples: list[Graded]) -> str:
    """Counts that add up: submissions = graded + could not be graded."""
    words = [status_word(g) for g in learners]
    correct, corrections, errors = words.count(CORRECT), words.count(CORRECTIONS), words.count(NOT_GRADED)
    graded = correct + corrections
    not_graded = errors + len(refused)
    text = (f"**{graded + not_graded}** learner submission(s): **{graded}** graded ({correct} correct, "
            f"{corrections} with corrections) and **{not_graded}** could not be graded ({errors} with errors "
            f"to fix, {len(refused)} refused by the site).")
    if examples:
        text += (f" The {len(examples)} example(s) that ship with the site are not counted; "
                 "they are listed under [Shipped examples](#shipped-examples).")
    return text


def _grid_section(learners: list[Graded], reference) -> list[str]:
    rows = [(_link(g), g.result) for g in sorted(learners, key=lambda g: g.handle.lower())
            if status_word(g) != NOT_GRADED]
    out = ["## Learner × step grid", ""]
    if not rows:
        return out + ["No learner's drawing could be graded yet.", ""]
    steps = [(s.id, html_text(s.name)) for s in sorted(reference.steps, key=lambda s: s.index)]
    left_out = len(learners) - len(rows)
    out += [f"Which step each graded learner drew right, wrong, or left out, in the reference order."
            + (f" The {left_out} drawing(s) that could not be graded are not in the grid." if left_out else ""), "",
            legend(), "",
            '<div class="dc-grid" markdown="1" data-search-exclude role="region" tabindex="0" '
            'aria-label="Learner × step grid (scrolls sideways)" aria-describedby="dc-grid-legend">', ""]
    out += grid_table(rows, steps)
    out += ["", "</div>", ""]
    return out


def _charts(learners: list[Graded], reference) -> list[str]:
    results = [g.result for g in learners if status_word(g) != NOT_GRADED]
    scale = len(results)
    scores = score_histogram([r.score for r in results])
    boundary = boundary_histogram(results, reference)
    missed = [(_step_name(reference, s), n) for s, n in step_counts(results, ("missing",))[:CHART_STEPS]]
    misplaced = [(_step_name(reference, s), n) for s, n in step_counts(results, MISPLACED_KINDS)[:CHART_STEPS]]
    common = "Every chart counts the graded learners; "
    return [
        "## Scores", "",
        bar_chart([Bar(label, n) for label, n in scores], chart_id="chart-scores", title="Score histogram",
                  description=common + "each bar is the learners whose score falls in that range.",
                  scale=scale, label_header="Score"), "",
        *(["## Where the boundary was drawn", "",
            bar_chart([Bar(b, boundary.get(b, 0), highlight=b == "correct",
                           note="the true boundary" if b == "correct" else "") for b in BUCKETS],
                      chart_id="chart-boundary", title="Boundary relative to the true one",
                      description=common + "each bar is the learners who put the boundary there.",
                      scale=scale, label_header="Boundary"), ""]
          if reference.boundary is not None else []),  # an exercise without a boundary has no such chart
        "## Most-missed steps", "",
        bar_chart([Bar(label, n) for label, n in missed], chart_id="chart-missed",
                  title="Learners who left the step out",
                  description=common + f"the {CHART_STEPS} steps left out most.", scale=scale,
                  label_header="Step"), "",
        "## Most-misplaced steps", "",
        bar_chart([Bar(label, n) for label, n in misplaced], chart_id="chart-misplaced",
                  title="Learners who drew the step in the wrong place or cycle",
                  description=common + f"the {CHART_STEPS} steps misplaced most.", scale=scale,
                  label_header="Step"), "",
    ]


def _examples_section(examples: list[Graded], reference) -> list[str]:
    if not examples:
        return []
    out = ["## Shipped examples", "",
           "These drawings ship with the site to show what feedback looks like; no learner drew them, "
           "and they are in none of the figures above.", "",
           '<div class="dc-table" markdown="1">', ""]
    out += overview_rows(examples, [], reference)
    return out + ["", "</div>", ""]


def overview_page(graded: list[Graded], refused: list[Refused], reference) -> str:
    """Markdown of `feedback/index.md`."""
    learners = [g for g in graded if not g.example]
    examples = [g for g in graded if g.example]
    out = [
        "# Class overview", "",
        headline(learners, refused, examples), "",
        "## Every submission", "",
        "Sort by any column, search, or filter by status or correction (with JavaScript on); "
        "each learner links to their feedback page. All results as JSON, for your own tools: "
        "[results.json](results.json).", "",
        '<div class="dc-table" data-dc-sortable markdown="1">', "",
    ]
    out += overview_rows(learners, refused, reference)
    out += ["", "</div>", ""]
    out += _grid_section(learners, reference)
    out += _charts(learners, reference)
    out += _examples_section(examples, reference)
    return "\n".join(out)

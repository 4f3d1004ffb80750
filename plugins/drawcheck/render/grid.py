"""The learner × step grid: for each learner, which steps they drew right, wrong, or left out."""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import Result

RIGHT, WRONG, MISSING, NOT_DRAWN = "right", "wrong", "missing", "not drawn"


@dataclass(frozen=True, slots=True)
class Mark:
    """How one state is shown: a symbol, a word (the legend's), the legend's CSS class, and the grid cell."""

    symbol: str
    word: str
    css: str
    cell: str  # what a grid cell holds: light, since the grid has one per learner and step


MARKS = {
    RIGHT: Mark("✓", "right", "dc-mark--right", "✓"),  # the grid's default colour is right's (drawcheck.css)
    WRONG: Mark("✗", "wrong", "dc-mark--wrong", '<b class="dc-w">✗</b>'),
    MISSING: Mark("−", "missing", "dc-mark--missing", '<b class="dc-m">−</b>'),
    NOT_DRAWN: Mark("·", "not drawn (optional)", "dc-mark--none", ""),  # an empty cell: an optional step not drawn
}


def mark_html(state: str) -> str:
    """One grid cell's content: the state's symbol (coloured by CSS), nothing for an optional step not drawn.

    No per-cell words: the column header names the step, the row header the learner, the legend the symbols."""
    return MARKS[state].cell


def step_states(result: Result, step_ids: list[str]) -> dict[str, str]:
    """Each step's state in one graded drawing.

    wrong: a correction names the step (order, cycle, name, ...); missing: a correction says it is left
    out; right: drawn, no correction on it; not drawn: neither (an optional step, at most a hint)."""
    drawn = {p.point for p in result.points}
    wrong = {f.point for f in result.corrections if f.point and f.kind != "missing"}
    missing = {f.point for f in result.corrections if f.point and f.kind == "missing"}
    states = {}
    for step in step_ids:
        if step in wrong:
            states[step] = WRONG
        elif step in missing:
            states[step] = MISSING
        elif step in drawn:
            states[step] = RIGHT
        else:
            states[step] = NOT_DRAWN
    return states


def legend() -> str:
    """What each cell of the grid means; read aloud with its symbols, since the cells have no words."""
    items = "".join(f'<li><span class="dc-mark {m.css}">{m.symbol}</span> {m.word}</li>'
                    for m in MARKS.values() if m.cell)
    items += '<li><span class="dc-mark dc-mark--none">blank</span> not drawn (optional step)</li>'
    return f'<ul class="dc-legend" id="dc-grid-legend" aria-label="Legend of the learner × step grid">{items}</ul>'


def grid_table(rows: list[tuple[str, Result]], steps: list[tuple[str, str]]) -> list[str]:
    """Markdown lines of the grid: `rows` are (learner cell, result), `steps` (step id, step name).

    One symbol a cell, no alignment and no per-cell text, so 1,000 learners stay light (bench/build.py);
    the last row counts, per step, the learners who drew it right."""
    ids = [s for s, _ in steps]
    header = "| Learner | " + " | ".join(f'<span class="dc-grid__step">{name}</span>' for _, name in steps) + " |"
    out = [header, "|---|" + "|".join("---" for _ in steps) + "|"]
    right = dict.fromkeys(ids, 0)
    for learner, result in rows:
        states = step_states(result, ids)
        for step, state in states.items():
            right[step] += state == RIGHT
        out.append(f"| {learner} | " + " | ".join(mark_html(states[s]) for s in ids) + " |")
    out.append(f"| **Drawn right by** ({len(rows)}) | " + " | ".join(f"**{right[s]}**" for s in ids) + " |")
    return out

"""The learner × step grid: for each learner, which steps they drew right, wrong, or left out."""

from __future__ import annotations

from dataclasses import dataclass

from drawcheck.grade.model import Result
from drawcheck.render.a11y import hidden

RIGHT, WRONG, MISSING, NOT_DRAWN = "right", "wrong", "missing", "not drawn"


@dataclass(frozen=True, slots=True)
class Mark:
    """How one state is shown: a symbol, a word (for screen readers and the legend), a CSS class."""

    symbol: str
    word: str
    css: str


MARKS = {
    RIGHT: Mark("✓", "right", "dc-mark--right"),
    WRONG: Mark("✗", "wrong", "dc-mark--wrong"),
    MISSING: Mark("−", "missing", "dc-mark--missing"),
    NOT_DRAWN: Mark("·", "not drawn (optional)", "dc-mark--none"),
}


def mark_html(state: str) -> str:
    """One grid cell: the symbol, coloured, with its word for screen readers."""
    mark = MARKS[state]
    return f'<span class="dc-mark {mark.css}" title="{mark.word}" aria-hidden="true">{mark.symbol}</span>' + \
        hidden(mark.word)


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
    items = "".join(f'<li><span class="dc-mark {m.css}" aria-hidden="true">{m.symbol}</span> {m.word}</li>'
                    for m in MARKS.values())
    return f'<ul class="dc-legend" aria-label="Legend">{items}</ul>'


def grid_table(rows: list[tuple[str, Result]], steps: list[tuple[str, str]]) -> list[str]:
    """Markdown lines of the grid: `rows` are (learner cell, result), `steps` (step id, step name).

    The last row counts, per step, the learners who drew it right."""
    ids = [s for s, _ in steps]
    header = "| Learner | " + " | ".join(f'<span class="dc-grid__step">{name}</span>' for _, name in steps) + " |"
    out = [header, "|---|" + "|".join(":-:" for _ in steps) + "|"]
    right = dict.fromkeys(ids, 0)
    for learner, result in rows:
        states = step_states(result, ids)
        for step, state in states.items():
            right[step] += state == RIGHT
        out.append(f"| {learner} | " + " | ".join(mark_html(states[s]) for s in ids) + " |")
    out.append(f"| **Drawn right by** ({len(rows)}) | " + " | ".join(f"**{right[s]}**" for s in ids) + " |")
    return out

"""Bar charts that are tables: each row a label, a bar on a scale shared by the charts, and the count.

A chart drawn as an HTML table keeps its text at the page's size at any width, is read out by screen
readers as the data it shows (the table is the text alternative), and needs no script or plotting
library. Bars are plain spans sized in percent of a `scale` the caller passes, so charts that are
compared on one page share one scale (e.g. every learner who was graded).
"""

from __future__ import annotations

from dataclasses import dataclass
from html import escape


@dataclass(frozen=True, slots=True)
class Bar:
    label: str  # plain text; escaped here
    count: int
    highlight: bool = False  # drawn in the accent colour, and said in words ("the true boundary")
    note: str = ""  # plain text said after the label, e.g. "the true boundary"


def share(count: int, scale: int) -> str:
    """"40 %" of `scale`; "—" when there is nothing to compare with."""
    return f"{round(100 * count / scale)} %" if scale > 0 else "—"


def bar_chart(bars: list[Bar], *, chart_id: str, title: str, description: str, scale: int,
              unit: str = "learners", label_header: str = "") -> str:
    """One `<figure>`: a caption (title + description), then a table of label | bar | count.

    `scale` is the count a full-width bar stands for; counts above it are drawn full width.
    The returned HTML has no blank line, so Markdown passes it through as one block.
    """
    cid = escape(chart_id, quote=True)
    head = escape(label_header or "Value")
    parts = [
        f'<figure class="dc-chart" id="{cid}">',
        f'<figcaption><span class="dc-chart__title" id="{cid}-title">{escape(title)}</span> '
        f'<span class="dc-chart__description">{escape(description)} Bars are on one scale: a full bar is '
        f'{scale} {escape(unit)}.</span></figcaption>',
        f'<table class="dc-chart__table"><thead><tr><th scope="col">{head}</th>'
        f'<th scope="col">Share of {scale} {escape(unit)}</th><th scope="col">{escape(unit.capitalize())}</th>'
        "</tr></thead><tbody>",
    ]
    if not bars:
        parts.append('<tr><td colspan="3">nothing to show yet</td></tr>')
    for bar in bars:
        width = 0.0 if scale <= 0 else min(100.0, 100.0 * bar.count / scale)
        kind = " dc-bar--highlight" if bar.highlight else ""
        row = ' class="dc-chart__row--highlight"' if bar.highlight else ""
        note = f' <span class="dc-chart__note">({escape(bar.note)})</span>' if bar.note else ""
        parts.append(
            f'<tr{row}><th scope="row">{escape(bar.label)}{note}</th>'
            f'<td class="dc-chart__bar-cell"><span class="dc-bar{kind}" style="width: {width:.1f}%"></span>'
            f'<span class="dc-chart__share">{share(bar.count, scale)}</span></td>'
            f'<td class="dc-chart__count">{bar.count}</td></tr>'
        )
    parts.append("</tbody></table></figure>")
    return "".join(parts)


SCORE_BINS = tuple((low, low + 9) for low in range(0, 90, 10)) + ((90, 100),)


def score_bin_label(low: int, high: int) -> str:
    return f"{low}–{high} %"


def score_histogram(scores: list[float]) -> list[tuple[str, int]]:
    """(label, learners) for each tenth of the score range, lowest first; every bin present."""
    counts = [0] * len(SCORE_BINS)
    for score in scores:
        percent = round(max(0.0, min(1.0, score)) * 100)
        counts[min(percent // 10, len(SCORE_BINS) - 1)] += 1
    return [(score_bin_label(low, high), n) for (low, high), n in zip(SCORE_BINS, counts)]

"""Small inline SVG bar charts, drawn at build time (no plotting library)."""

from __future__ import annotations

from html import escape


def bar_chart(bars: list[tuple[str, int]], *, title: str, highlight: str | None = None,
              width: int = 560, bar_height: int = 22, label_width: int = 170) -> str:
    """A horizontal bar chart as one line-free `<svg>` element (safe to drop into Markdown).

    `bars` are (label, count); `highlight` names the bar drawn in the accent colour.
    """
    gap = 6
    top = 28
    height = top + max(1, len(bars)) * (bar_height + gap) + 4
    peak = max((n for _, n in bars), default=0) or 1
    room = width - label_width - 50
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" role="img" viewBox="0 0 {width} {height}" '
        f'width="100%" style="max-width:{width}px" aria-label="{escape(title)}">',
        f"<title>{escape(title)}</title>",
        f'<text x="0" y="16" font-size="14" font-weight="bold" fill="currentColor">{escape(title)}</text>',
    ]
    if not bars:
        parts.append(f'<text x="0" y="{top + 14}" font-size="13" fill="currentColor">nothing to show yet</text>')
    for i, (label, count) in enumerate(bars):
        y = top + i * (bar_height + gap)
        length = round(room * count / peak)
        fill = "#e8590c" if label == highlight else "#5c6bc0"
        parts.append(
            f'<text x="{label_width - 8}" y="{y + bar_height * 0.7:.0f}" font-size="13" text-anchor="end" '
            f'fill="currentColor">{escape(label)}</text>'
        )
        parts.append(f'<rect x="{label_width}" y="{y}" width="{length}" height="{bar_height}" rx="3" fill="{fill}"/>')
        parts.append(
            f'<text x="{label_width + length + 6}" y="{y + bar_height * 0.7:.0f}" font-size="13" '
            f'fill="currentColor">{count}</text>'
        )
    parts.append("</svg>")
    return "".join(parts)

"""The texts of the circled drawing: the learner's labels as they wrote them, the site's short marks,
and the diagram's accessible name.

Learner labels keep their `<br>` line breaks (Mermaid's documented way to break a label) and lose the
backticks of `` `code` `` (Mermaid would show them raw); everything else goes through
`safety.learner_label`. Each mark on the drawing is short: its number, a symbol and a word telling the
kind apart without colour (✗ wrong, + missing, ↔ boundary); the full sentence is in the table beside it.
"""

from __future__ import annotations

import re

from drawcheck import safety

LINE_BREAK = re.compile(r"<br\s*/?>", re.I)
_CODE = re.compile(r"`([^`\n]*)`")
MAX_LABEL_LINES = 8  # a label's `<br>` breaks past this many lines become spaces
MARK_CHARS = 28  # the longest short mark text after the number

READABLE_MARKER = "%% drawcheck: readable"
"""First line after `sequenceDiagram` in a drawing the site keeps readable (never scaled below 12.8 px text);
learner text cannot make it: `%` is always an entity code in learner labels."""

SYMBOLS = {"circle": "\u2717", "missing": "+", "boundary": "\u2194"}  # ✗ wrong, + missing, ↔ boundary
KIND_WORDS = {
    "wrong-cycle": "wrong cycle", "boundary": "boundary", "order": "order", "extra": "extra step",
    "reason": "reason", "cache-function": "cache function", "cycles": "cycles", "name": "name",
    "direction": "direction", "missing": "missing",
}


def learner_text(text: str) -> str:
    """A learner's label for the redrawn diagram: escaped, with its `<br>` breaks kept and backticks dropped."""
    lines = LINE_BREAK.split(_CODE.sub(r"\1", str(text)))
    if len(lines) > MAX_LABEL_LINES:
        lines = lines[: MAX_LABEL_LINES - 1] + [" ".join(lines[MAX_LABEL_LINES - 1:])]
    return "<br>".join(safety.learner_label(line) for line in lines)


def plain_text(text: str) -> str:
    """A learner's label as plain text for the page (breaks as spaces, no backticks): `html_text` input."""
    return " ".join(LINE_BREAK.sub(" ", _CODE.sub(r"\1", str(text))).split())


def kind_word(kind: object) -> str:
    return KIND_WORDS.get(str(kind), str(kind).replace("-", " "))


def short_mark(style: str, kind: object, label: str) -> str:
    """The text after the number of one mark on the drawing, e.g. "✗ wrong cycle", "+ missing: <step>"."""
    symbol = SYMBOLS.get(style, SYMBOLS["circle"])
    if style == "missing":
        text = label if len(label) <= MARK_CHARS else label[: MARK_CHARS - 1].rstrip() + "\u2026"
    elif style == "boundary":
        text = "true boundary"
    else:
        text = kind_word(kind)
    return f"{symbol} {text}"


_ACC_UNSAFE = re.compile(r"[^A-Za-z0-9 .,()/'\u00c0-\u024f-]")


def accessible_name_lines(title: str, descr: str = "") -> list[str]:
    """`accTitle:` / `accDescr:` lines for a generated diagram; characters Mermaid could read as syntax
    (`:`, `;`, `#`, `%`, `{`, ...) are dropped, line breaks become spaces."""
    def clean(s: str) -> str:
        return " ".join(_ACC_UNSAFE.sub(" ", str(s)).split())[:300]

    title, descr = clean(title), clean(descr)
    return ([f"accTitle: {title}"] if title else []) + ([f"accDescr: {descr}"] if descr else [])

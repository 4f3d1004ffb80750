"""Accessible names for what the site generates: Mermaid's accTitle/accDescr, visually hidden words."""

from __future__ import annotations

from drawcheck import safety

MAX_TITLE_CHARS = 200
MAX_DESCRIPTION_CHARS = 1000


def mermaid_accessibility(title: str, description: str = "") -> list[str]:
    """The `accTitle:` and `accDescr:` lines that name a Mermaid diagram (put them after its header line).

    Mermaid writes them into the SVG's <title> and <desc> and points aria-labelledby/aria-describedby at
    them, so a screen reader announces the diagram by name. Both texts go through
    `safety.mermaid_text` (one line, every syntax character as an entity code), so learner text in them
    can neither end the line nor start a statement. An empty description gives no `accDescr` line.
    """
    lines = [f"accTitle: {safety.mermaid_text(title, max_chars=MAX_TITLE_CHARS) or 'Diagram'}"]
    text = safety.mermaid_text(description, max_chars=MAX_DESCRIPTION_CHARS)
    if text:
        lines.append(f"accDescr: {text}")
    return lines


def with_accessibility(mermaid: str, title: str, description: str = "") -> str:
    """`mermaid` (a whole diagram) with the accTitle/accDescr lines right after its header line.

    The header is the first line that is not blank, a `%%` comment, or part of front matter."""
    lines = mermaid.split("\n")
    i, in_front_matter = 0, False
    while i < len(lines):
        stripped = lines[i].strip()
        if stripped == "---" and (i == 0 or in_front_matter):
            in_front_matter = not in_front_matter
        elif not in_front_matter and stripped and not stripped.startswith("%%"):
            break
        i += 1
    indent = " " * (len(lines[i]) - len(lines[i].lstrip()) + 4) if i < len(lines) else "    "
    extra = [indent + line for line in mermaid_accessibility(title, description)]
    return "\n".join(lines[: i + 1] + extra + lines[i + 1:])


def hidden(text: str) -> str:
    """`text` (already safe HTML) read by screen readers, not shown: the site's `.dc-sr` class."""
    return f'<span class="dc-sr">{text}</span>'

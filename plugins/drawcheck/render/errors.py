"""The syntax-error page like a good compiler's: each error with its position, the source lines around
it with the line and column marked, and the fix; then the part of the drawing that did parse, drawn."""

from __future__ import annotations

import re
import unicodedata

from drawcheck import safety

CONTEXT = 2  # source lines shown before and after the line of an error
MAX_ERRORS = 20
MAX_SOURCE_CHARS = 160  # a source line is cut past this many characters
_PUNCT = re.compile(r"[!-/:-@\[-`{-~]")


def source_html(line: str) -> str:
    """One learner source line for a `<pre>` block: shown as written (indentation kept), never markup:
    ASCII punctuation as character references (no `::`, `--8<--`, HTML or Markdown survives),
    mark glyphs made plain, invisible characters dropped."""
    text = safety.unmark(line).expandtabs(4)
    text = "".join(ch for ch in text if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cn", "Cs"))
    if len(text) > MAX_SOURCE_CHARS:
        text = text[: MAX_SOURCE_CHARS - 1] + "\u2026"
    return _PUNCT.sub(lambda m: f"&#{ord(m.group())};", text)


def source_excerpt(source_lines: list[str], line: int, column: int = 0) -> str:
    """The lines around `line` (1-based) as one `<pre>` block: numbered, the error line marked `>` and
    highlighted, a caret under `column` (1-based; 0: none)."""
    first, last = max(1, line - CONTEXT), min(len(source_lines), line + CONTEXT)
    width = len(str(last))
    rows = []
    for n in range(first, last + 1):
        text = source_html(source_lines[n - 1])
        if n == line:
            rows.append(f'<mark>&gt; {n:>{width}} &#124; {text}</mark>')
            if column and column <= MAX_SOURCE_CHARS:
                rows.append(f"  {' ' * width} &#124; {' ' * (column - 1)}^")
        else:
            rows.append(f"  {n:>{width}} &#124; {text}")
    return '<pre class="drawcheck-source"><code>' + "\n".join(rows) + "</code></pre>"


def compiler_errors(file: str, diagram, findings) -> list[str]:
    """Markdown for every error of one file (top-level blocks: the `<pre>` excerpts stay verbatim)."""
    errors = list(getattr(diagram, "errors", None) or [])
    source_lines = list(getattr(diagram, "source_lines", None) or [])
    out = []
    if errors:
        for e in errors[:MAX_ERRORS]:
            out += _one(file, e.line, e.column, e.message, e.hint, source_lines)
        # findings the parser did not give (unsafe content) follow
        parsed = {(e.line, e.message) for e in errors}
        rest = [f for f in findings if str(f.kind) != "syntax" and (f.line, f.message) not in parsed]
    else:
        rest = list(findings)
    for f in rest[: max(0, MAX_ERRORS - len(out))]:
        out += _one(file, f.line, 0, f.message, "", source_lines)
    if len(errors) + len(rest) > MAX_ERRORS:
        out += [f"*{len(errors) + len(rest) - MAX_ERRORS} more error(s) not shown; fix these first.*", ""]
    return out


def _one(file: str, line: int | None, column: int, message: str, hint: str, source_lines: list[str]) -> list[str]:
    where = f"{file}:{line}:{column}" if line and column else (f"{file}:{line}" if line else file)
    said = f"line {line}, column {column}" if line and column else (f"line {line}" if line else "whole file")
    out = [f"**<code>{safety.html_text(where)}</code>** ({said}) error: {safety.html_text(message)}", ""]
    if line and 1 <= line <= len(source_lines):
        out += [source_excerpt(source_lines, line, column), ""]
    if hint:
        out += [f"**Fix:** {safety.html_text(hint)}", ""]
    return out


def parsed_part(diagram) -> str | None:
    """The statements that parsed before the errors, redrawn; None when there is nothing to draw or the
    redrawn part would not be a drawable diagram on its own."""
    from drawcheck.parse import parse_text
    from drawcheck.parse.model import Block, Message, Note
    from drawcheck.render.circled import plain_text
    from drawcheck.render.mermaid import render_diagram

    if diagram is None or diagram.valid or not any(isinstance(s, (Message, Note, Block)) for s, _ in diagram.walk()):
        return None
    text = render_diagram(diagram, readable=True, acc_title="The part of your drawing that parsed",
                          acc_descr=f"{sum(1 for _ in diagram.walk())} statements before the first error")
    return text if parse_text(text).valid else None

"""Feedback page for one submission: the drawing, the numbered corrections, the drawing circled."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache

from drawcheck import safety
from drawcheck.grade.checks import Mark
from drawcheck.grade.model import Finding, Result
from drawcheck.render.circles import circle
from drawcheck.render.mermaid import Circle, Insertion, render_diagram
from drawcheck.render.model import Graded
from drawcheck.render.stats import describe_boundary

html_text = lru_cache(maxsize=32768)(safety.html_text)  # grader messages repeat across a class

# one optional group between the space runs (two `\s*` around an optional group backtrack quadratically)
_ASSUMED = re.compile(r"^\s*assumed\s*(?:(?P<n>\d+|[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf])\s*)?:(?P<text>.*)$", re.I | re.S)


@dataclass(frozen=True, slots=True)
class Numbered:
    number: int
    finding: Finding

    @property
    def circle(self) -> str:
        return circle(self.number)


def number_corrections(result: Result) -> list[Numbered]:
    """Corrections in reading order (by line; those with no line last), numbered from 1."""
    ordered = sorted(result.corrections, key=lambda f: (f.line is None, f.line or 0))
    return [Numbered(i, f) for i, f in enumerate(ordered, 1)]


def overlay(result: Result, reference, numbered: list[Numbered]) -> tuple[list[Circle], list[Insertion]]:
    """The marks of each numbered correction, as the check that owns its kind draws them: circles on
    wrong lines; what is missing and where the boundary truly is, inserted where they belong."""
    owners = {kind: check for check in reference.checks for kind in check.kinds}
    circles: list[Circle] = []
    insertions: list[Insertion] = []
    for n in numbered:
        f = n.finding
        check = owners.get(f.kind)
        marks = check.overlay(f, result, reference) if check else (Mark("circle", f.line, f.message),)
        for mark in marks:
            if mark.kind == "circle":
                circles.append(Circle(n.circle, mark.line, mark.label))
            else:
                insertions.append(Insertion(n.circle, mark.line, mark.label, mark.kind, order=mark.order))
    # Insertions sharing an anchor keep the reference order: a missing step after the boundary goes after it.
    insertions.sort(key=lambda ins: ins.order)
    return circles, insertions


def assumed_notes(diagram) -> dict[str, str]:
    """The learner's `Note ...: assumed 3: ...` notes in their corrected drawing: {"3" or "": text}."""
    found: dict[str, str] = {}
    if diagram is None:
        return found
    from drawcheck.parse.model import Note

    unnumbered = 0
    for s, _chain in diagram.walk():
        if isinstance(s, Note):
            m = _ASSUMED.match(s.text)
            if m:
                key = m.group("n") or ""
                if key and not (key.isascii() and key.isdigit()):
                    key = str(_circle_number(key))
                if not key:
                    unnumbered += 1
                    key = f"?{unnumbered}"
                found[key] = m.group("text").strip()
    return found


def _circle_number(ch: str) -> int:
    for i in range(1, 51):
        if circle(i) == ch:
            return i
    return 0


def _fence(mermaid: str, indent: str = "") -> str:
    body = "\n".join(indent + line if line else line for line in mermaid.rstrip("\n").split("\n"))
    return f"{indent}```mermaid\n{body}\n{indent}```"


def _indent(text: str, indent: str = "    ") -> str:
    return "\n".join(indent + line if line.strip() else "" for line in text.rstrip("\n").split("\n"))


def corrected_name(file: str) -> str:
    """answers/ada.mmd -> answers/ada.corrected.mmd (unchanged when already the corrected file)."""
    if file.endswith(".corrected.mmd"):
        return file
    return file[:-4] + ".corrected.mmd" if file.endswith(".mmd") else file + ".corrected.mmd"


def format_score(score: float) -> str:
    return f"{round(score * 100)} %" if 0 <= score <= 1 else f"{score:g}"


def _summary_line(g: Graded, reference) -> str:
    r = g.result
    if r.status == "invalid":
        return f"**Status:** could not be checked ({len(g.errors)} error(s) to fix first)"
    corrections = len(r.corrections)
    status = "correct" if r.status == "correct" else f"{corrections} correction(s)"
    line = f"**Status:** {status} · **Score:** {format_score(r.score)}"
    if reference.boundary is None:  # an exercise without a boundary: nothing to say about one
        return line
    return f"{line} · **Boundary:** {describe_boundary(r.boundary, reference)}"


def _errors_section(g: Graded) -> list[str]:
    out = ["!!! failure \"This drawing could not be checked\"", "",
           "    Fix these first; nothing else was graded. Each line number is in "
           f"<code>{html_text(g.file)}</code>.", ""]
    for f in g.errors or g.result.corrections:
        where = f"line {f.line}" if f.line else "whole file"
        out.append(f"    - **{where}** ({html_text(f.kind)}): {html_text(f.message)}")
    out.append("")
    return out


def _corrections_table(numbered: list[Numbered], assumed: dict[str, str], product: str) -> list[str]:
    out = ["| # | Line | Correction | What I had assumed |", "|---|---|---|---|"]
    for n in numbered:
        line = str(n.finding.line) if n.finding.line else "—"
        version = f" *(your drawing matches {html_text((product + ' ' + n.finding.version).strip())})*" if n.finding.version else ""
        mine = html_text(assumed.get(str(n.number), ""))
        out.append(f"| {n.circle} | {line} | {html_text(n.finding.message)}{version} | {mine} |")
    return out


def _circled(g: Graded, reference) -> tuple[str | None, list[Numbered]]:
    numbered = number_corrections(g.result)
    if g.diagram is None or not g.diagram.valid:
        return None, numbered
    circles, insertions = overlay(g.result, reference, numbered)
    return render_diagram(g.diagram, circles=circles, insertions=insertions), numbered


def _as_written(g: Graded, title: str | None) -> list[str]:
    """The drawing re-emitted safely (or its errors), under an optional column title."""
    out = [f"**{title}** — <code>{html_text(g.file)}</code>", ""] if title else []
    if g.diagram is None or not g.diagram.valid:
        return out + _errors_section(g)
    out += [_fence(render_diagram(g.diagram)), ""]
    if g.diagram.directives or g.diagram.front_matter is not None:
        out += ["*Directives and front matter in your file were not applied.*", ""]
    return out


def _drawing_block(g: Graded, reference) -> list[str]:
    """The status line and the drawing with circles (or the errors when it cannot be drawn)."""
    circled, _ = _circled(g, reference)
    out = [_summary_line(g, reference), ""]
    if circled is None:
        out += _errors_section(g)
    else:
        out += [_fence(circled), ""]
    return out


def _reference_blocks(reference) -> list[str]:
    out = ['??? note "Reference sequence (open after you have drawn yours)"', "", _fence(reference.reference_diagram, "    "), ""]
    explanations = dict(reference.explanations)
    keys = sorted(explanations, key=lambda k: (k != "boundary", k))
    for key in keys:
        text = explanations[key].strip("\n")
        title = key.replace("-", " ").replace("_", " ").capitalize()
        lines = text.split("\n")
        if lines and lines[0].startswith("# "):
            title, text = lines[0][2:].strip(), "\n".join(lines[1:]).strip("\n")
        out += [f'??? note "{title.replace(chr(34), chr(39))}"', "", _indent(text), ""]
    return out


def _in_your_words(result: Result, reference) -> list[str]:
    """What the learner wrote for each check that reads their own words, under that check's title."""
    said = dict(result.said)
    said.setdefault("reason", result.reason)  # results built by hand set only the two fields
    said.setdefault("named_function", result.cache_function)
    out = []
    for check in reference.checks:
        text = said.get(check.section)
        if text and getattr(check, "shown_as", None):
            out.append(f"- **{html_text(check.shown_as)}:** {html_text(text)}")
    return out


def handle_text(handle: str) -> str:
    """A handle for Markdown: as is when intake's pattern vouches for it (letters, digits, inner hyphens)."""
    from drawcheck.intake import HANDLE_PATTERN

    return handle if HANDLE_PATTERN.fullmatch(handle) else html_text(handle)


def feedback_page(g: Graded, reference) -> str:
    """Markdown of `feedback/<handle>.md`. Every piece of learner text is escaped or re-emitted."""
    handle = handle_text(g.handle)
    out = [f"# Feedback: {handle}", ""]
    if g.example:
        out += ['!!! example "Example submission"', "",
                "    This drawing ships with the site to show what feedback looks like. "
                "It was not drawn by a learner.", ""]
    out += [_summary_line(g, reference), ""]
    circled, numbered = _circled(g, reference)

    if g.corrected is not None:
        # Both drawings as written, side by side; each circled one gets the full width below.
        out += ["## Your drawings", "", '<div class="grid" markdown>', "", '<div markdown>', ""]
        out += _as_written(g, "First drawing")
        out += ["</div>", "", '<div markdown>', ""]
        out += _as_written(g.corrected, "Corrected drawing")
        out += ["</div>", "", "</div>", ""]
    else:
        out += ["## Your drawing", ""] + _as_written(g, None)

    if circled is not None:
        out += ["## Your drawing, circled", "", _fence(circled), ""]
        if g.corrected is not None:
            out += ["## Your corrected drawing, circled", ""] + _drawing_block(g.corrected, reference)
        legend = "Red: drawn wrong. Amber, dotted arrow: missing, inserted where it belongs."
        if reference.boundary is not None:
            legend += " Green: where the boundary truly is."
        out += [legend, ""]

    invalid = g.result.status == "invalid"
    if numbered and not invalid:
        out += ["## Corrections", ""]
        assumed = assumed_notes(g.corrected.diagram if g.corrected else None)
        out += _corrections_table(numbered, assumed, getattr(reference, "product", "")) + [""]
        out += ["Fill in *What I had assumed*: in <code>" + html_text(corrected_name(g.file)) + "</code>, your corrected "
                f"drawing, add one note per circle, e.g. `{reference.page.assumed_example}`. It shows up in this "
                "column on the next build.", ""]
    elif g.result.status == "correct":
        out += ["## Corrections", "", reference.page.correct, ""]  # the instructor's Markdown

    hints = [f for f in g.result.findings if f.severity == "hint"]
    if hints and not invalid:
        out += ["## Hints", ""]
        out += [f"- line {f.line}: {html_text(f.message)}" if f.line else f"- {html_text(f.message)}" for f in hints]
        out += [""]

    words = _in_your_words(g.result, reference)
    if words:
        out += ["## In your words", ""] + words + [""]

    out += ["## Check yourself", ""] + _reference_blocks(reference)
    out += ["[← Class overview](index.md)", ""]
    return "\n".join(out)

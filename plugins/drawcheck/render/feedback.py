"""Feedback page for one submission: the drawing, the numbered corrections, the drawing circled."""

from __future__ import annotations

import re
from dataclasses import dataclass

from drawcheck import safety
from drawcheck.safety import html_text
from drawcheck.grade.checks import Mark
from drawcheck.grade.model import Finding, Result
from drawcheck.intake import HANDLE_PATTERN
from drawcheck.parse.model import Autonumber, Note
from drawcheck.render.circled import kind_word, plain_text, short_mark
from drawcheck.render.circles import Numbered, circle, circle_number, number_corrections  # noqa: F401
from drawcheck.render.errors import compiler_errors, parsed_part
from drawcheck.render.mermaid import Circle, Insertion, render_diagram
from drawcheck.render.model import Graded, PageLinks
from drawcheck.render.stats import describe_boundary


# one optional group between the space runs (two `\s*` around an optional group backtrack quadratically)
_ASSUMED = re.compile(r"^\s*assumed\s*(?:(?P<n>\d+|[\u2460-\u2473\u3251-\u325f\u32b1-\u32bf])\s*)?:(?P<text>.*)$", re.I | re.S)


@dataclass(frozen=True, slots=True)
class FeedbackSetup:
    """What every feedback page of one exercise shares, worked out once per build (`feedback_setup`) and
    handed to each page: nothing here depends on the learner."""

    reference: object
    links: PageLinks
    mark_owners: dict  # finding kind -> the check that draws that kind's marks on the circled drawing
    legend: str  # the line under a circled drawing saying what its marks mean
    correct_note: str  # the instructor's Markdown for a correct drawing, indented into its admonition
    worded_checks: tuple[tuple[str, str], ...]  # (section, title as HTML) of each check that reads the learner's words
    product: str  # the exercise's product (Reference.product), before a finding's version


def feedback_setup(reference, links: PageLinks | None = None) -> FeedbackSetup:
    """The parts of every feedback page of `reference`'s exercise that are the same for every learner."""
    return FeedbackSetup(
        reference=reference, links=links or PageLinks(),
        mark_owners={kind: check for check in reference.checks for kind in check.kinds},
        legend=_legend(reference),
        correct_note="    " + reference.page.correct.replace("\n", "\n    "),  # the instructor's Markdown
        worded_checks=tuple((check.section, html_text(check.shown_as)) for check in reference.checks
                            if getattr(check, "shown_as", None)),
        product=getattr(reference, "product", ""))


def overlay(result: Result, setup: FeedbackSetup, numbered: list[Numbered]) -> tuple[list[Circle], list[Insertion]]:
    """The marks of each numbered correction, as the check that owns its kind draws them: circles on
    wrong lines; what is missing and where the boundary truly is, inserted where they belong."""
    circles: list[Circle] = []
    insertions: list[Insertion] = []
    for n in numbered:
        f = n.finding
        check = setup.mark_owners.get(f.kind)
        marks = check.overlay(f, result, setup.reference) if check else (Mark("circle", f.line, f.message),)
        for mark in marks:
            text = short_mark(mark.kind, f.kind, mark.label)  # the full sentence is in the table
            if mark.kind == "circle":
                circles.append(Circle(n.circle, mark.line, text))
            else:
                insertions.append(Insertion(n.circle, mark.line, text, mark.kind, order=mark.order))
    # Insertions sharing an anchor keep the reference order: a missing step after the boundary goes after it.
    insertions.sort(key=lambda ins: ins.order)
    return circles, insertions


def assumed_notes(diagram) -> dict[str, str]:
    """The learner's `Note ...: assumed 3: ...` notes in their corrected drawing: {"3" or "": text}."""
    found: dict[str, str] = {}
    if diagram is None:
        return found
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
    return circle_number(ch) or 0


def _fence(mermaid: str) -> str:
    return "```mermaid\n" + mermaid.rstrip("\n") + "\n```"


def _indent(text: str, indent: str = "    ") -> str:
    return "\n".join(indent + line if line.strip() else "" for line in text.rstrip("\n").split("\n"))


def corrected_name(file: str) -> str:
    """answers/ada.mmd -> answers/ada.corrected.mmd (unchanged when already the corrected file)."""
    if file.endswith(".corrected.mmd"):
        return file
    return file[:-4] + ".corrected.mmd" if file.endswith(".mmd") else file + ".corrected.mmd"


def format_score(score: float) -> str:
    return f"{round(score * 100)} %" if 0 <= score <= 1 else f"{score:g}"


SEARCH_EXCLUDED = ["---", "search:", "  exclude: true", "---", ""]
"""Front matter keeping a feedback page out of the site search (Material's search plugin reads it): a
class of learners' pages would otherwise fill the index and every search result."""

MAX_STATUS_ITEMS = 4  # corrections named in the status line; the rest are counted


def correction_phrase(f: Finding) -> str:
    """A few words naming one correction, for the status line: "<step> in the wrong cycle"."""
    point = plain_text(f.point) if f.point else ""
    kind = str(f.kind)
    if kind == "wrong-cycle" and point:
        return f"{point} in the wrong cycle"
    if kind == "missing" and point:
        return f"{point} missing"
    if kind == "order" and point:
        return f"{point} out of order"
    if kind == "extra" and point:
        return f"extra step {point}"
    if kind in ("boundary", "reason", "cache-function", "cycles") or not point:
        return kind_word(kind)
    return f"{point}: {kind_word(kind)}"


def status_text(g: Graded, numbered: list[Numbered]) -> str:
    """What the status line says: "correct", or how many corrections (`numbered`, of `g`) and which."""
    r = g.result
    if r.status == "invalid":
        n = len(g.errors) or len(r.corrections)
        return f"could not be checked: {n} error{'s' * (n != 1)} to fix first"
    if r.status == "correct":
        return "correct"
    names = [correction_phrase(n.finding) for n in numbered[:MAX_STATUS_ITEMS]]
    if len(numbered) > MAX_STATUS_ITEMS:
        names.append(f"and {len(numbered) - MAX_STATUS_ITEMS} more")
    count = f"{len(numbered)} correction{'s' * (len(numbered) != 1)}"
    return f"{count}: {', '.join(names)}" if names else count


def _summary_line(g: Graded, numbered: list[Numbered], reference) -> str:
    r = g.result
    if r.status == "invalid":
        return f"**Status:** {html_text(status_text(g, numbered))}"
    line = f"**Status:** {html_text(status_text(g, numbered))} · **Score:** {format_score(r.score)}"
    if reference.boundary is None:  # an exercise without a boundary: nothing to say about one
        return line
    return f"{line} · **Boundary:** {describe_boundary(r.boundary, reference)}"


def _line_link(file: str, line: int | None, links: PageLinks) -> str:
    if not line:
        return "not drawn"
    url = links.line_url(file, line)
    return f"[line {int(line)}]({url})" if url else f"line {int(line)}"


def _corrections_table(numbered: list[Numbered], assumed: dict[str, str] | None, product: str, file: str,
                       links: PageLinks) -> list[str]:
    """One row per correction: its number and line in one narrow cell, the full sentence beside it; the
    "What I had assumed" column only when there is a corrected drawing to fill it from."""
    head = ["| | Correction |", "|---|---|"]
    if assumed is not None:
        head = ["| | Correction | What I had assumed |", "|---|---|---|"]
    out = list(head)
    for n in numbered:
        f = n.finding
        version = f" *(your drawing matches {html_text((product + ' ' + f.version).strip())})*" if f.version else ""
        where = f"**{n.circle}**<br>{_line_link(file, f.line, links)}"
        row = f"| {where} | {html_text(f.message)}{version} |"
        if assumed is not None:
            row += f" {html_text(assumed.get(str(n.number), ''))} |"
        out.append(row)
    return out


def _has_autonumber(diagram) -> bool:
    return any(isinstance(s, Autonumber) and not s.off for s in diagram.statements)


def page_drawing(g: Graded, setup: FeedbackSetup) -> str | None:
    """The Mermaid the feedback page shows for this drawing: circled when it has corrections, as drawn when
    not; None when it could not be parsed. The plugin draws it once, to check its length, and keeps it in
    `g.drawing` for the page."""
    return _drawing(g, setup, number_corrections(g.result))


def _drawing(g: Graded, setup: FeedbackSetup, numbered: list[Numbered]) -> str | None:
    if g.diagram is None or not g.diagram.valid:
        return None
    circles, insertions = overlay(g.result, setup, numbered)
    title = f"{plain_text(g.file)}, circled" if numbered else plain_text(g.file)
    return render_diagram(g.diagram, circles=circles, insertions=insertions, autonumber=not numbered,
                          readable=True, acc_title=title, acc_descr=status_text(g, numbered))


def zoom_controls(label: str) -> list[str]:
    """Buttons that show the drawing fitted, at full size or at 150 % (drawcheck-feedback.js; keyboard: Tab, Enter)."""
    return [f'<div class="drawcheck-zoom" role="group" aria-label="Size of {html_text(label)}">'
            '<button type="button" class="md-button" data-drawcheck-zoom="fit" aria-pressed="true">Fit</button> '
            '<button type="button" class="md-button" data-drawcheck-zoom="1" aria-pressed="false">Full size</button> '
            '<button type="button" class="md-button" data-drawcheck-zoom="1.5" aria-pressed="false">150 %</button>'
            '</div>', ""]


def drawing(mermaid: str, label: str) -> list[str]:
    """A drawing in its scrollable, zoomable frame (keyboard users can focus it to scroll)."""
    return (['<div class="drawcheck-drawing" markdown>', ""] + zoom_controls(label)
            + [f'<div class="drawcheck-frame" tabindex="0" role="region" aria-label="{html_text(label)}" markdown>', "",
               _fence(mermaid), "", "</div>", "", "</div>", ""])


def _errors_section(g: Graded) -> list[str]:
    """Every error like a compiler's: where, the source around it with the line marked, the fix; then the
    part of the drawing that did parse."""
    out = ['!!! failure "This drawing could not be checked"', "",
           "    Fix the errors below first; nothing else was graded. Each one shows your lines around it, "
           "the line marked `>` and the column `^`.", ""]
    out += compiler_errors(g.file, g.diagram, g.errors or g.result.corrections)
    partial = parsed_part(g.diagram)
    if partial is not None:
        out += ["### The part that did parse", "",
                "What the site could read of your drawing, drawn as it read it:", ""]
        out += drawing(partial, f"{g.file}, the part that parsed")
    return out


def _legend(reference) -> str:
    legend = ("Each mark is a number on the step, then its kind: **✗ wrong** (red), **+ missing** (amber, dotted "
              "arrow, inserted where it belongs)")
    if reference.boundary is not None:
        legend += ", **↔ true boundary** (green, where the boundary truly is)"
    return legend + ". The full sentence for each number is in the table below."


def _in_your_words(result: Result, setup: FeedbackSetup) -> list[str]:
    """What the learner wrote for each check that reads their own words, under that check's title."""
    said = dict(result.said)
    said.setdefault("reason", result.reason)  # results built by hand set only the two fields
    said.setdefault("named_function", result.cache_function)
    out = []
    for section, title in setup.worded_checks:
        text = said.get(section)
        if text:
            out.append(f"- **{title}:** {html_text(plain_text(text))}")
    return out


def handle_text(handle: str) -> str:
    """A handle for Markdown: as is when intake's pattern vouches for it (letters, digits, inner hyphens)."""
    return handle if HANDLE_PATTERN.fullmatch(handle) else html_text(handle)


def _circled_section(g: Graded, numbered: list[Numbered], setup: FeedbackSetup, heading: str) -> list[str]:
    """One drawing: shown once as drawn when correct, else circled with its corrections (`numbered`) beside it."""
    circled = g.drawing if g.drawing is not None else _drawing(g, setup, numbered)
    out = [f"## {heading}", ""]
    if circled is None:
        return out + _summary_line_block(g, numbered, setup.reference) + _errors_section(g)
    if not numbered:
        return out + drawing(circled, f"{g.file}") 
    out += drawing(circled, f"{g.file}, circled") + [setup.legend, ""]
    if _has_autonumber(g.diagram):
        out += ["*Your `autonumber` step numbers are left out of the circled copy, so they cannot be taken for "
                "the circled correction numbers.*", ""]
    return out


def _summary_line_block(g: Graded, numbered: list[Numbered], reference) -> list[str]:
    return [_summary_line(g, numbered, reference), ""] if g.corrected is not None else []


def feedback_page(g: Graded, setup: FeedbackSetup) -> str:
    """Markdown of `feedback/<handle>.md`. Every piece of learner text is escaped or re-emitted."""
    reference, links = setup.reference, setup.links
    numbered = number_corrections(g.result)
    handle = handle_text(g.handle)
    out = SEARCH_EXCLUDED + [f"# Feedback: {handle}", ""]
    if g.example:
        out += ['!!! example "Example submission"', "",
                "    This drawing ships with the site to show what feedback looks like. "
                "It was not drawn by a learner.", ""]
    r = g.result
    invalid = r.status == "invalid"
    if r.status == "correct":
        out += ['!!! success "Correct"', "", f"    {_summary_line(g, numbered, reference)}", "",
                setup.correct_note, ""]
    else:
        out += [_summary_line(g, numbered, reference), ""]

    if invalid:
        out += _errors_section(g)
    else:
        out += _circled_section(g, numbered, setup, "Your drawing" if r.status == "correct" else "Your drawing, circled")
        if numbered:
            out += ["## Corrections", ""]
            assumed = assumed_notes(g.corrected.diagram) if g.corrected is not None else None
            out += _corrections_table(numbered, assumed, setup.product, g.file, links) + [""]
            if g.corrected is None:
                out += ["Next: copy your drawing to <code>" + html_text(corrected_name(g.file)) + "</code>, fix it, "
                        f"and add one note per number saying what you had assumed, e.g. "
                        f"`{reference.page.assumed_example}`. The next build shows both drawings and your notes.", ""]
    if g.corrected is not None:
        more = number_corrections(g.corrected.result)
        out += ["## Your corrected drawing", "", _summary_line(g.corrected, more, reference), ""]
        if g.corrected.result.status == "invalid":
            out += _errors_section(g.corrected)
        else:
            out += _circled_section(g.corrected, more, setup, "Your corrected drawing, circled")[2:]
            if more:
                out += _corrections_table(more, None, setup.product, g.corrected.file, links) + [""]

    hints = [f for f in r.findings if f.severity == "hint"]
    if hints and not invalid:
        out += ["## Hints", ""]
        out += [f"- {_line_link(g.file, f.line, links)}: {html_text(f.message)}" if f.line else f"- {html_text(f.message)}"
                for f in hints]
        out += [""]

    words = _in_your_words(r, setup)
    if words and not invalid:
        out += ["## In your words", ""] + words + [""]

    out += ["## Check yourself", "",
            f"Compare with [the reference sequence and its explanations]({links.reference}) on the exercise page.", ""]
    out += ["[← Class overview](index.md)", ""]
    return "\n".join(out)

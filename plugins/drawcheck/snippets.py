"""`drawcheck.snippets`: pymdownx.snippets that only includes real files inside the repository.

pymdownx.snippets checks the *path* it is given (`restrict_base_path`), not what a symbolic link points
to, so `answers/_template.mmd -> /etc/passwd` would put the password file on a page and in the search
index. This extension (same options; use it instead of `pymdownx.snippets` in mkdocs.yml) withholds an
include when the file, or any folder on its way from the base path, is a symbolic link, when it resolves
outside the base path, is not a regular file, is larger than `max_bytes`, is not UTF-8, or, for a Mermaid
file (`.mmd`), when it does not parse or holds anything `drawcheck.safety.find_unsafe` refuses: the
file is checked like any answer. An answer is redrawn before the site draws it, but an include is drawn
as written (the how-to-submit page draws `answers/_template.mmd`, a file a pull request may change), so it
must also hold nothing a redrawn answer never carries (`beyond_the_drawing`, for files under `answers/`): no `link`, `links`,
`properties` or `details` (live links in the participant's menu), no `accTitle`/`accDescr` (what a screen
reader says of the drawing), no glyph reserved for the site's marks and no rect or box colour that could
pass for a mark's. A withheld include shows a short placeholder diagram and logs a
warning naming file:line (so `mkdocs build --strict` fails); the rest of the site still builds.
"""

from __future__ import annotations

import logging
import os
import re
import stat

from pymdownx.snippets import SnippetExtension, SnippetPreprocessor

from drawcheck.safety import log_text

log = logging.getLogger("mkdocs.plugins.drawcheck")

__all__ = ["SafeSnippetExtension", "makeExtension", "include_problem", "beyond_the_drawing", "WITHHELD"]

WITHHELD = os.path.join(os.path.dirname(__file__), "plugin", "assets", "withheld.mmd")
"""What a withheld include shows: a valid one-note diagram (it is shown in text and mermaid fences)."""

MAX_INCLUDE_BYTES = 262144


def include_problem(path: str, base: str, *, max_bytes: int = MAX_INCLUDE_BYTES) -> tuple[int, str] | None:
    """(line, what is wrong) when `path` (found under `base`) must not be included, else None."""
    base_real = os.path.realpath(base)
    rel = os.path.relpath(os.path.abspath(path), os.path.abspath(base))
    if rel == os.pardir or rel.startswith(os.pardir + os.sep) or os.path.isabs(rel):
        return 1, "it is outside the repository"
    current = os.path.abspath(base)
    for part in rel.split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return 1, f"{os.path.relpath(current, base)} is a symbolic link; the site includes real files only"
    real = os.path.realpath(path)
    if os.path.commonpath([real, base_real]) != base_real:
        return 1, "it resolves to a file outside the repository"
    from drawcheck.intake import read_untrusted

    try:
        data = read_untrusted(path, max_bytes)
    except OSError as exc:
        return 1, f"it could not be read ({exc.strerror or exc})"
    if len(data) > max_bytes:
        return 1, f"it is larger than {max_bytes:,} bytes"
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        return data[: exc.start].count(b"\n") + 1, "it is not UTF-8 text"
    if path.endswith(".mmd"):
        return _diagram_problem(text, learners=rel.split(os.sep)[0] == LEARNERS_FOLDER)
    return None


LEARNERS_FOLDER = "answers"
"""Where a pull request may change files unreviewed (CODEOWNERS owns everything else): its includes are the
strangers' (`answers/_template.mmd`)."""


def _diagram_problem(text: str, *, learners: bool = True) -> tuple[int, str] | None:
    """A Mermaid file is included only when it passes the same checks as a learner's answer; one from the
    learners' folder (`learners`) also only when it holds nothing `beyond_the_drawing`."""
    from drawcheck.parse import parse_text
    from drawcheck.safety import find_unsafe

    try:
        diagram = parse_text(text)
    except Exception as exc:  # noqa: BLE001 - a bad file must not stop the build
        return 1, f"it could not be parsed ({type(exc).__name__})"
    items = find_unsafe(diagram, text)
    if items:
        return items[0].line, items[0].what
    if diagram.errors:
        return diagram.errors[0].line, diagram.errors[0].message
    return beyond_the_drawing(diagram, text) if learners else None


_ACC_LINE = re.compile(r"^\s*acc(?:Title|Descr)\b")


def beyond_the_drawing(diagram, text: str) -> tuple[int, str] | None:
    """(line, what) of the first thing in a parsed Mermaid file that the site's redrawn answers never carry
    (render/mermaid.py drops or neutralises it), else None: an include is drawn as written."""
    from drawcheck.parse.model import Block, Link
    from drawcheck.render.colours import as_rgb, learner_colour
    from drawcheck.render.mermaid import MARK_FILLS, NEUTRAL_FILL
    from drawcheck.safety import unmark

    found: list[tuple[int, str]] = []
    stacks: dict = {}  # composited stacks, shared by these checks
    for number, line in enumerate(text.split("\n"), 1):
        if _ACC_LINE.match(line):
            found.append((number, "accTitle/accDescr set what a screen reader says of the drawing; remove the line"))
        elif unmark(line) != line:
            found.append((number, "a circled number or a mark's symbol beside a number looks like the site's own "
                                  "marks; write the number plainly"))
    for s, chain in diagram.walk():
        if isinstance(s, Link):
            found.append((s.line, f"`{s.keyword}` puts links or properties on a participant; remove the line"))
        elif isinstance(s, Block) and s.kind == "rect":
            under = tuple(as_rgb(block.label) for block, _branch in chain if block.kind == "rect")
            if _passes_for_a_mark(s.label, NEUTRAL_FILL, under, learner_colour, MARK_FILLS, stacks):
                found.append((s.line, "this rect's colour could pass for one of the site's marks; choose another"))
    for box in diagram.boxes:
        if _passes_for_a_mark(box.color or "", "transparent", (), learner_colour, MARK_FILLS, stacks):
            found.append((box.line, "this box's colour could pass for one of the site's marks; choose another"))
    return min(found) if found else None


def _passes_for_a_mark(colour: str, neutral: str, under: tuple[str, ...], learner_colour, marks, stacks) -> bool:
    """A colour the site would draw (a CSS colour) but for its closeness to a mark's."""
    return (learner_colour(colour, reserved=(), neutral=neutral, under=under, stacks=stacks) != neutral
            and learner_colour(colour, reserved=marks, neutral=neutral, under=under, stacks=stacks) == neutral)


class SafeSnippetPreprocessor(SnippetPreprocessor):
    def get_snippet_path(self, path):
        snippet = super().get_snippet_path(path)
        if snippet is None:  # a dangling symbolic link is a withheld file too, not a missing one
            snippet = next((os.path.join(b, path) for b in self.base_path
                            if os.path.isdir(b) and os.path.islink(os.path.join(b, path))), None)
            if snippet is None:
                return None
        base = next((b for b in self.base_path if os.path.isdir(b)
                     and os.path.abspath(snippet).startswith(os.path.join(os.path.abspath(b), ""))),
                    self.base_path[0] if self.base_path else os.getcwd())
        problem = include_problem(snippet, base)
        if problem is None:
            return snippet
        line, what = problem
        where = os.path.relpath(os.path.abspath(snippet), os.path.abspath(base)).replace(os.sep, "/")
        log.warning("drawcheck: %s:%d: not included in the page: %s", log_text(where, max_chars=None), line,
                    log_text(what, max_chars=None))
        return WITHHELD


class SafeSnippetExtension(SnippetExtension):
    def extendMarkdown(self, md):
        self.md = md
        md.registerExtension(self)
        md.preprocessors.register(SafeSnippetPreprocessor(self.getConfigs(), md), "snippet", 32)


def makeExtension(*args, **kwargs):
    return SafeSnippetExtension(*args, **kwargs)

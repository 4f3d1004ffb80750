"""Feedback as GitHub Markdown, for a job summary or a pull-request comment.

Per file: the status and score, the learner's drawing drawn back with the circles as a ```mermaid block
(GitHub draws those), the corrections table with each line number linked to the file's line in the pull
request, the hints, and a link to the published feedback page. Everything stays under `MAX_BYTES`.

Learner text is untrusted here too. Inline text goes through `safety.html_text` (no HTML, no Markdown
construct, no `::` or `##[`), then `markdown_text` breaks what GitHub would still act on in plain text:
@-mentions, #123 cross-references and autolinks. The drawing is re-emitted by the renderer (every label is
Mermaid entity codes, no backtick), so it cannot close its fence.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import quote

from drawcheck import safety
from drawcheck.render.model import Graded

MAX_BYTES = 60_000
"""The whole report, in UTF-8 bytes (GitHub's comment limit is 65,536 characters)."""

MESSAGE_CHARS = 400
"""Longest learner-derived text kept in one table cell."""

WORD_JOINER = "&#8288;"  # U+2060: invisible, not a word character, so `@​name` is no mention
_REPO = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9_.-]{0,99})/[A-Za-z0-9_.-]{1,100}")
_SHA = re.compile(r"[0-9a-fA-F]{7,64}")
# What html_text leaves that GitHub still acts on: `&#64;` (@) and `&#35;` (#) read back as the characters,
# then mentions and issue references are found in the text (`GH&#45;12` is `GH-12`, an issue reference too);
# `&#58;&#47;&#47;` (://) and `www.` autolink.
_ACTIONABLE = re.compile(r"&#64;|&#35;|(?i:gh)&#45;(?=[0-9])|&#58;(?=&#47;)|(?i:www)(?=&#46;)")


def markdown_text(s: object, *, max_chars: int | None = MESSAGE_CHARS) -> str:
    """`s` as inline GitHub Markdown: `safety.html_text`, then no mention, cross-reference or autolink."""
    escaped = safety.html_text(s, max_chars=max_chars)
    return _ACTIONABLE.sub(lambda m: m.group() + WORD_JOINER, escaped)


def cell_text(s: object, *, max_chars: int | None = MESSAGE_CHARS) -> str:
    """`markdown_text` for a table cell: `|` is already a character reference, so a cell cannot split."""
    return markdown_text(s, max_chars=max_chars)


@dataclass(frozen=True, slots=True)
class Links:
    """Where line numbers and the feedback page link to. Empty fields: no links."""

    repo: str = ""  # owner/name
    sha: str = ""  # the commit the PR's files are read at (the head SHA)
    site_url: str = ""  # the published site, e.g. https://org.github.io/drawcheck/
    pages: tuple[tuple[str, str], ...] = ()  # answers folder ("" for answers/) -> its exercise's pages' folder

    def __post_init__(self) -> None:
        if self.repo and not _REPO.fullmatch(self.repo):
            raise ValueError(f"--repo must look like owner/name, not {safety.log_text(self.repo)!r}")
        if self.sha and not _SHA.fullmatch(self.sha):
            raise ValueError(f"--sha must be a commit hash (hex), not {safety.log_text(self.sha)!r}")
        if self.site_url and not re.fullmatch(r"https?://[^\s<>\"'`()\[\]]+", self.site_url):
            raise ValueError(f"--site-url must be an http(s) address, not {safety.log_text(self.site_url)!r}")

    def line(self, path: str, line: int | None) -> str:
        """The line number, as a link to that line of `path` in the PR when repo and sha are known."""
        if not line:
            return "—"
        if not (self.repo and self.sha):
            return str(int(line))
        url = f"https://github.com/{self.repo}/blob/{self.sha}/{quote(path, safe='/')}#L{int(line)}"
        return f"[{int(line)}]({url})"

    def feedback_page(self, handle: str, folder: str = "") -> str | None:
        """The published page of `handle` in the exercise whose answers are in `answers/<folder>/`: in the
        folder `pages` gives it (`pr_check.page_folders`: as mkdocs.yml sets it), none for a folder it does
        not list; without `pages`, in `feedback/` (`feedback/<folder>/` for another folder)."""
        from drawcheck.intake import HANDLE_PATTERN

        if not self.site_url or not HANDLE_PATTERN.fullmatch(handle):
            return None
        where = dict(self.pages).get(folder) if self.pages else ("feedback/" + folder if folder else "feedback")
        if not where:
            return None
        return f"{self.site_url.rstrip('/')}/{quote(where.strip('/'), safe='/')}/{handle}/"


def circled_drawing(g: Graded, reference) -> str | None:
    """The learner's drawing with the circles, as the feedback page draws it; None when it cannot be drawn.

    The one place this module reaches into the renderer (its public functions only).
    """
    from drawcheck.render.circles import number_corrections
    from drawcheck.render.feedback import feedback_setup, overlay
    from drawcheck.render.mermaid import render_diagram

    if g.diagram is None or not g.diagram.valid:
        return None
    circles, insertions = overlay(g.result, feedback_setup(reference), number_corrections(g.result))
    return untinted_marks(render_diagram(g.diagram, circles=circles, insertions=insertions,
                                         autonumber=not circles and not insertions))


_BLOCK_OPENERS = frozenset({"box", "rect", "loop", "alt", "opt", "par", "par_over", "critical", "break"})
_BOX_COLOUR = re.compile(r"(\s*box )((?:rgba?|hsla?)\([^)]*\)|\S+)")
CLEAR_FILL = "rgba(0, 0, 0, 0)"


def untinted_marks(mermaid: str) -> str:
    """A circled drawing for GitHub, whose Mermaid runs without the site's script (which draws each mark on a
    patch of the page's colour): every rect around a mark and, when there is a mark, every box is drawn clear,
    so no learner tint lies beneath a mark and each mark shows exactly its colour (its meaning) there too. A
    learner rect left then over fewer tints than the renderer checked it over is checked again over those
    (`_recheck`): on its own it may pass for a mark."""
    from drawcheck.render.mermaid import MARK_FILLS

    marks = {f"rect {fill}" for fill in MARK_FILLS}
    lines = mermaid.split("\n")
    opened: list[int] = []  # the lines that opened the blocks around this one
    around_marks: set[int] = set()
    for number, line in enumerate(lines):
        statement = line.strip()
        if statement in marks:
            around_marks.update(i for i in opened if lines[i].strip().startswith("rect "))
        if statement == "end" and opened:
            opened.pop()
        elif statement.split(" ", 1)[0] in _BLOCK_OPENERS:
            opened.append(number)
    if not around_marks and not any(line.strip() in marks for line in lines):
        return mermaid
    for number in around_marks:
        if lines[number].strip() not in marks:
            lines[number] = lines[number].split("rect ", 1)[0] + f"rect {CLEAR_FILL}"
    lines = [_BOX_COLOUR.sub(r"\1transparent", line, count=1) if line.lstrip().startswith("box ") else line
             for line in lines]
    return "\n".join(_recheck(lines, marks))


def _recheck(lines: list[str], marks: set[str]) -> list[str]:
    """`lines` with each learner rect checked over the rects still drawn beneath it (no box: all are clear)."""
    from drawcheck.render.colours import as_rgb, learner_colour
    from drawcheck.render.mermaid import MARK_FILLS, NEUTRAL_FILL

    beneath: list[str | None] = []  # per open block: its fill when it is a rect that is drawn, else None
    stacks: dict = {}  # composited stacks, shared by these checks
    out = []
    for line in lines:
        statement = line.strip()
        if statement == "end" and beneath:
            beneath.pop()
        elif statement.split(" ", 1)[0] in _BLOCK_OPENERS:
            fill = statement[len("rect "):] if statement.startswith("rect ") else None
            if fill is not None and statement not in marks and fill not in (CLEAR_FILL, NEUTRAL_FILL):
                under = tuple(as_rgb(f) for f in beneath if f is not None)
                if learner_colour(fill, reserved=MARK_FILLS, neutral=NEUTRAL_FILL, under=under,
                                  stacks=stacks) == NEUTRAL_FILL:
                    fill, line = NEUTRAL_FILL, line.split("rect ", 1)[0] + f"rect {NEUTRAL_FILL}"
            beneath.append(None if fill == CLEAR_FILL else fill)
        out.append(line)
    return out


def _fence(mermaid: str) -> list[str]:
    body = mermaid.rstrip("\n")
    fence = "```"
    while fence in body:  # never happens for the renderer's output; a longer fence if it ever did
        fence += "`"
    return [f"{fence}mermaid", body, fence]


def _file_name(path: str) -> str:
    return f"{markdown_text(path, max_chars=120)}"


def _score(g: Graded) -> str:
    from drawcheck.render.feedback import format_score

    return format_score(g.result.score)


def _status_line(g: Graded) -> str:
    r = g.result
    errors = [f for f in r.findings if f.kind in ("syntax", "unsafe", "intake")]
    if r.status == "invalid" or errors:
        return f"**Could not be checked:** {len(errors)} problem(s) to fix first; nothing else was graded."
    if r.status == "correct":
        return f"**Correct** · score {_score(g)}: every check of this exercise passes."
    return f"**{len(r.corrections)} correction(s)** · score {_score(g)}"


def _rows(g: Graded, links: Links, product: str) -> tuple[list[str], str]:
    """The corrections table's rows (numbered as the circles are) and its header."""
    from drawcheck.render.circles import number_corrections

    r = g.result
    errors = [f for f in r.findings if f.kind in ("syntax", "unsafe", "intake")]
    if r.status == "invalid" or errors:
        rows = [f"| {links.line(g.file, f.line)} | {cell_text(f.message)} |" for f in errors or r.corrections]
        return rows, "| Line | What to fix |\n|---|---|"
    rows = []
    for n in number_corrections(r):
        f = n.finding
        version = f" *(your drawing matches {cell_text((product + ' ' + f.version).strip())})*" if f.version else ""
        rows.append(f"| {n.circle} | {links.line(g.file, f.line)} | {cell_text(f.message)}{version} |")
    return rows, "| # | Line | Correction |\n|---|---|---|"


def _hints(g: Graded, links: Links) -> list[str]:
    return [f"- line {links.line(g.file, f.line)}: {markdown_text(f.message)}" if f.line else f"- {markdown_text(f.message)}"
            for f in g.result.findings if f.severity == "hint" and f.kind not in ("syntax", "unsafe", "intake")]


def file_section(g: Graded, reference, links: Links, *, budget: int = MAX_BYTES) -> str:
    """One file's feedback within `budget` bytes: drawing, table and hints are cut, with a note, to fit."""
    product = getattr(reference, "product", "")
    head = [f"### {_file_name(g.file)}", "", _status_line(g), ""]
    page = links.feedback_page(g.handle, answer_folder(g.file))
    tail = ([f"[Your feedback page]({page}) shows the same, with the reference to check yourself against, "
             "once this pull request is merged.", ""] if page else [])
    drawing = circled_drawing(g, reference)
    drawing_lines = (_fence(drawing) + ["", "Each number marks a correction in the table: ✗ wrong (red), + missing "
                                            "(amber, dotted arrow, where it belongs), ↔ true boundary (green).", ""]) if drawing else []
    rows, table_head = _rows(g, links, product)
    hints = _hints(g, links)

    def assemble(drawing_part: list[str], shown_rows: int, shown_hints: int) -> str:
        out = list(head) + drawing_part
        if rows:
            out += [table_head] + rows[:shown_rows]
            if shown_rows < len(rows):
                out.append(f"| | | *{len(rows) - shown_rows} more: too long to show here{'; see your feedback page' if page else ''}* |"
                           if table_head.startswith("| #") else
                           f"| | *{len(rows) - shown_rows} more: too long to show here* |")
            out.append("")
        if hints:
            out += ["**Hints**", ""] + hints[:shown_hints]
            if shown_hints < len(hints):
                out.append(f"- *{len(hints) - shown_hints} more hint(s) not shown*")
            out.append("")
        return "\n".join(out + tail) + "\n"

    full = assemble(drawing_lines, len(rows), len(hints))
    if _size(full) <= budget:
        return full
    note = ["*Your drawing is too large to draw back here" + ("; your feedback page shows it.*" if page else ".*"), ""]
    without_drawing = assemble(note if drawing else [], len(rows), len(hints))
    if _size(without_drawing) <= budget:
        return without_drawing
    shown_rows, shown_hints = len(rows), 0
    while shown_rows > 0 and _size(assemble(note if drawing else [], shown_rows, shown_hints)) > budget:
        shown_rows = shown_rows // 2 if shown_rows > 8 else shown_rows - 1
    return assemble(note if drawing else [], shown_rows, shown_hints)


def _size(text: str) -> int:
    return len(text.encode("utf-8"))


def markdown_report(graded: list[Graded], reference, *, links: Links = Links(), title: str = "drawcheck feedback",
                    max_bytes: int = MAX_BYTES, preface: list[str] | None = None,
                    references: dict[str, object] | None = None) -> str:
    """Every file's feedback, in order, under `max_bytes` UTF-8 bytes; files that do not fit are counted.

    `references`: the exercise of each file (by `Graded.file`) when they differ; `reference` for the rest."""
    out = [f"## {markdown_text(title)}", ""] + list(preface or [])
    if not graded:
        out += ["No answer files to check.", ""]
    reserve = 400  # room for the "more files" note
    used = _size("\n".join(out) + "\n")
    shown = 0
    for i, g in enumerate(graded):
        remaining = max_bytes - used - reserve
        share = max(remaining // (len(graded) - i), 2_000)
        section = file_section(g, (references or {}).get(g.file, reference), links, budget=min(share, remaining))
        if _size(section) > remaining:
            break
        out.append(section)
        used += _size(section) + 1
        shown += 1
    if shown < len(graded):
        out += [f"*{len(graded) - shown} more file(s) not shown: this report is limited to {max_bytes // 1000} KB.*", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def answer_folder(path: str) -> str:
    """answers/ada.mmd -> "" and answers/<exercise>/ada.mmd -> "<exercise>": the exercise's folder."""
    parts = str(path).replace("\\", "/").split("/")
    return parts[1] if len(parts) == 3 and parts[0] == "answers" else ""


def handle_of(path: str) -> str:
    """answers/ada.mmd and answers/ada.corrected.mmd -> "ada"."""
    name = PurePosixPath(str(path).replace("\\", "/")).name
    for suffix in (".corrected.mmd", ".mmd"):
        if name.endswith(suffix):
            return name[: -len(suffix)]
    return name

"""Learner text is untrusted: escape it for each place it goes, and find what the site refuses.

Escapers (use one every time learner text reaches a page, a diagram, a log or a workflow command):

- `mermaid_text`  a label inside one Mermaid sequenceDiagram line (message, note, alias, block label)
- `html_text`     inline text in HTML or Markdown (not inside code spans)
- `log_text`      one line of a build log (also job summaries and PR comments, before Markdown escaping)
- `workflow_text` / `workflow_property`  a GitHub workflow command's message / property value
- `learner_label` a learner's label inside a redrawn diagram: `mermaid_text` without the site's mark glyphs
- `mark_label`    the site's own numbered mark (`① text`) for a redrawn diagram
- `learner_rect_colour`  a learner's `rect` colour, or a neutral one when it could pass for a mark's colour
- `display_name`  a file name (maybe not UTF-8) as printable text

Every text that reaches a runner's log (log lines, annotations, summaries, PR comments) goes through
`log_text`, `workflow_text` or `workflow_property`: they drop control characters (ESC included) and break
both forms of GitHub Actions workflow commands anywhere in a line: `::cmd::` becomes `: :cmd: :` and
`##[cmd]` becomes `# #[cmd]` (the runner reads `::` only at a line's start and `##[` anywhere; see
`tests/hostile/runner_commands.py`, a port of its parser).

`find_unsafe` lists the content the site will not render as written, each with its line.

How Mermaid 12.3.0 treats `#NNN;` (checked in dist/mermaid.js): before parsing, `encodeEntities` turns
every `#\\w+;` into a placeholder (`\\uFB02\\xB0\\xB0NNN\\xB6\\xDF`), so the lexer never sees the `#`, `;` or
the character itself; DOMPurify then sanitises text that holds no `<`; after the SVG is serialised,
`decodeEntities` turns the placeholder into `&#NNN;`, which the browser's HTML parser reads back as a
single text character. So `#60;` is drawn as a visible `<` and can never start a tag.
"""

from __future__ import annotations

import html
import re
import unicodedata
from dataclasses import dataclass
from typing import TYPE_CHECKING, Iterable

from drawcheck.css_colours import colour_value

if TYPE_CHECKING:  # pragma: no cover
    from drawcheck.parse.model import Diagram

__all__ = [
    "UnsafeItem", "find_unsafe", "mermaid_text", "html_text", "log_text",
    "workflow_text", "workflow_property", "MAX_LABEL_CHARS", "fence_mermaid_custom",
    "neutralise_commands", "unmark", "MARK_SYMBOLS", "learner_label", "mark_label", "learner_rect_colour", "display_name",
    "MERMAID_MAX_TEXT", "mermaid_length",
]

MAX_LABEL_CHARS = 200
"""Longest label `mermaid_text` keeps (in characters of the original text)."""

# Characters Mermaid 12.3.0 uses for its entity placeholders; never let them through raw.
_PLACEHOLDER_CHARS = frozenset("\ufb02\xb0\xb6\xdf")
_INVISIBLE_CATEGORIES = ("Cc", "Cf", "Co", "Cn", "Cs")
_LINE_BREAKS = re.compile(r"\r\n|\r|\n|\u2028|\u2029|\x85|\x0b|\x0c")  # all become spaces in labels
_SOURCE_LINES = re.compile(r"\r\n|\r|\n")  # how the parser (and GitHub) number a file's lines


def _flatten(s: object) -> str:
    """One line of plain characters: line breaks and tabs become spaces, invisible characters go."""
    text = str(s)
    if text.isprintable():  # no line break, tab or invisible character (nor a space other than " ") in it
        return text
    text = _LINE_BREAKS.sub(" ", text).replace("\t", " ")
    return "".join(ch for ch in text if unicodedata.category(ch) not in _INVISIBLE_CATEGORIES)


def _shorten(text: str, max_chars: int | None) -> str:
    if max_chars is not None and len(text) > max_chars:
        if max_chars < 1:
            return ""
        return text[: max_chars - 1].rstrip() + "\u2026"
    return text


_MERMAID_UNSAFE = re.compile(r"[^A-Za-z0-9 .!?_]")
_WRAP_START = re.compile(r"(?i)(no)?wrap")


def _mermaid_code(match: re.Match) -> str:
    ch = match.group()
    if not ch.isascii() and ch not in _PLACEHOLDER_CHARS and unicodedata.category(ch)[0] in "LMN":
        return ch
    return f"#{ord(ch)};"


def mermaid_text(s: object, *, max_chars: int | None = MAX_LABEL_CHARS) -> str:
    """`s` as label text for one Mermaid sequenceDiagram line; renders as the same visible text.

    Letters, digits, spaces and `. ! ? _` stay; every other character (all other ASCII punctuation,
    Mermaid's placeholder characters) becomes a Mermaid entity code such as `#60;`, so no HTML, arrow,
    comment (`%%`, `#`), statement end (`;`, newline), `:`, `$$`, `{{`, `--8<--` or `@{` survives as
    syntax. Line breaks and tabs become spaces; invisible characters are dropped; at most `max_chars`
    characters are kept (an ellipsis marks a cut).
    """
    text = _shorten(" ".join(_flatten(s).split()), max_chars)
    result = _MERMAID_UNSAFE.sub(_mermaid_code, text)
    # `:wrap` / `:nowrap` right after a colon switch Mermaid's wrapping; never start with them.
    if _WRAP_START.match(result):
        result = f"#{ord(result[0])};" + result[1:]
    return result


_ASCII_PUNCT = re.compile(r"[!-/:-@\[-`{-~]")
_CHARACTER_REFERENCES = {chr(code): f"&#{code};" for code in range(0x21, 0x7f) if not chr(code).isalnum()}
"""Every ASCII punctuation character (`!` to `~` but letters and digits) -> its numeric character reference."""


def _character_reference(match: re.Match) -> str:
    return _CHARACTER_REFERENCES[match.group()]



def html_text(s: object, *, max_chars: int | None = None) -> str:
    """`s` as inline HTML/Markdown text: shown as written, never markup, never a Markdown construct.

    HTML-escapes `& < > " '`, writes every other ASCII punctuation character as a numeric character
    reference (so `*`, `_`, `` ` ``, `[`, `#`, `|`, `{{`, `--8<--`, `???` are plain text to Markdown,
    pymdownx.snippets and Jinja), and flattens line breaks so no new block can start.
    Glyphs reserved for the site's marks become plain (`①` -> `(1)`), so learner text quoted on a page
    cannot pass for a numbered correction. Not for code spans or fenced code, where references show literally.
    """
    text = _shorten(" ".join(_flatten(unmark(s)).split()), max_chars)
    return _ASCII_PUNCT.sub(_character_reference, text)


_COMMAND_COLONS = re.compile(r":(?=:)")
_LEGACY_COMMAND = re.compile(r"#(?=#\[)")


def neutralise_commands(text: str) -> str:
    """`text` with no GitHub Actions workflow command left in it, in either form, anywhere.

    `::` becomes `: :` (the runner obeys `::cmd::` at a line's start, after spaces) and `##[` becomes
    `# #[` (the legacy form, obeyed anywhere in a line). Only spaces are inserted, so no new `::` or
    `##[` can appear, and the text still reads the same.
    """
    if ":" in text:
        text = _COMMAND_COLONS.sub(": ", text)
    if "##[" in text:
        text = _LEGACY_COMMAND.sub("# ", text)
    return text


def log_text(s: object, *, max_chars: int | None = 300) -> str:
    """`s` for one build-log line: no line breaks, no control or direction-changing characters, no
    workflow command (`::` / `##[` anywhere). Also the text to put in a job summary or PR comment
    (then escape it for Markdown, e.g. with `html_text`)."""
    return neutralise_commands(_shorten(" ".join(_flatten(display_name(s)).split()), max_chars))


def workflow_text(s: object) -> str:
    """`s` as the message of a GitHub workflow command (`::error file=..::MESSAGE`).

    Control characters go (line breaks become `%0D` / `%0A`, as the runner unescapes them), and no
    `::` or `##[` survives."""
    text = _flat_lines(display_name(s))
    if not (text.isascii() and text.replace("\n", "").replace("\r", "").isprintable()):
        text = "".join(ch for ch in text if ch in "\r\n" or not _is_invisible(ch))
    text = neutralise_commands(text)
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def workflow_property(s: object) -> str:
    """`s` as a property value of a GitHub workflow command (`file=`, `title=`, ...): one line of
    visible characters, `%`, `:` and `,` escaped, no `##[`."""
    return workflow_text(log_text(s, max_chars=None)).replace(":", "%3A").replace(",", "%2C")


def _is_invisible(ch: str) -> bool:
    return unicodedata.category(ch) in _INVISIBLE_CATEGORIES


def _flat_lines(text: str) -> str:
    """Unicode line breaks (U+2028, NEL, ...) as `\n`, so the runner's unescaping is the only way to a newline."""
    return _OTHER_BREAKS.sub("\n", text.replace("\t", " "))


_OTHER_BREAKS = re.compile("[\u2028\u2029\x85\x0b\x0c]")


def display_name(s: object) -> str:
    """`s` as text that can be printed to a strict UTF-8 stream: in a file name that is not UTF-8
    (Python keeps its bad bytes as lone surrogates) each bad byte becomes U+FFFD."""
    if isinstance(s, bytes):
        return s.decode("utf-8", errors="replace")
    text = str(s)
    if text.isascii():
        return text
    return _SURROGATE.sub("\ufffd", text)


_SURROGATE = re.compile("[\ud800-\udfff]")


# --------------------------------------------------------------------------- the site's marks
#
# A feedback page draws the grader's marks on the learner's own diagram: a circled number (① ... ㊿) in a
# rect of one of the mark colours. Learner text never carries a circled or enclosed number or letter
# (each becomes "(n)"), and a learner rect whose colour could pass for a mark's is drawn neutral, so no
# learner file can draw something that looks like the site's mark.

_ENCLOSING_MARKS = "\u0488\u0489\u1abe\u20dd-\u20e0\u20e2-\u20e4\ua670-\ua672"  # every character of category Me
_CIRCLES = ("\u25ef\u25cb\u29bf\u2b58\u25c9\u25cc-\u25cf\u2b24\u2b55\u2b57\u2b59\u26aa\u26ab\u3007"
            "\u2295-\u229d\u29b5-\u29c3\u2a00-\u2a02\U0001f518\U0001f534\U0001f535\U0001f7e0-\U0001f7eb"
            "\u23fa\u25d0-\u25d7\u25f4-\u25f7\u2686-\u2689\u26ac\u274d\U0001f311-\U0001f318"
            "\u20d8-\u20da")
"""Circles, discs, circled operators and the coloured circle and square emoji: next to a digit, each passes
for a mark (`🔴 1`, `⊗ 2`) or the legend's colour swatches. Also the half-black and quadrant circles, the record
button, the moon phases (round eight), and the combining ring overlays U+20D8..U+20DA, which draw a ring over
the digit before them as the enclosing marks do."""
_KEYCAP_TEN = "\U0001f51f"  # 🔟: `1` + U+20E3 loses its keycap (an enclosing mark); ten comes in one piece
MARK_GLYPHS = re.compile(
    f"[\u2460-\u24ff\u2776-\u2793\u3200-\u32ff\U0001f100-\U0001f1e5{_KEYCAP_TEN}{_ENCLOSING_MARKS}{_CIRCLES}]"
)
"""Characters reserved for the site's marks: circled, parenthesised and enclosed numbers and letters
(Enclosed Alphanumerics and its supplement, dingbat circled digits, enclosed CJK), every enclosing
combining mark (`1` + U+20DD or U+0489 draws a circled 1) and `_CIRCLES`."""
_PLAIN_CIRCLES = re.compile(f"[{_CIRCLES}]")


def _unmark_one(match: re.Match) -> str:
    ch = match.group()
    if unicodedata.category(ch) == "Me" or _PLAIN_CIRCLES.match(ch):
        return ""
    if ch == _KEYCAP_TEN:
        return "(10)"
    value = unicodedata.numeric(ch, None)
    if value is not None and float(value).is_integer():
        return f"({int(value)})"
    plain = unicodedata.normalize("NFKC", ch).strip("()")
    return f"({plain})" if plain and plain.isalnum() else ""


def _expand(spec: str) -> str:
    """Every character of a regex-class-like `spec` ("a-dxz" -> "abcdxz")."""
    return re.sub(r"(.)-(.)", lambda m: "".join(map(chr, range(ord(m[1]), ord(m[2]) + 1))), spec)


# The symbols of the marks' kinds (render/circled.py SYMBOLS: ✗ wrong, ↔ boundary; the overview's ✓ right)
# and every glyph that passes for one. Next to a number they make a label read like a mark ("1 ✗ wrong
# cycle"), so there each becomes its plain ASCII spelling; elsewhere ("A ↔ B") it stays.
_CROSSES = _expand("\u00d7\u2573\u2612\u2613\u2327\u2715-\u2718\u274c\u274e\u2a2f\u2a09\u2a30\u2a31\u2a34\u2a35"
                   "\U0001f5d9\U0001f5f4\U0001f5f6\U0001f7a8-\U0001f7ae")
_DOUBLE_ARROWS = _expand("\u2194\u2195\u21ad\u21c4\u21c6\u21d4\u21d5\u21f9\u21fc\u21ff\u27f7\u27fa\u27fc"
                         "\u2904\u2948\u294a-\u2951\u2b04\u2b0c\u2b0d\u2b64\u2b65\U0001f8d8")
_TICKS = "\u2713\u2714\u2705\u2611\u237b\U0001f5f8\U0001f5f9"
_PLAIN_SYMBOL = {**dict.fromkeys(_CROSSES, "x"), **dict.fromkeys(_DOUBLE_ARROWS, "<->"), **dict.fromkeys(_TICKS, "v")}
MARK_SYMBOLS = re.compile("[" + "".join(_PLAIN_SYMBOL) + "]")
"""Glyphs that pass for the symbol of a mark's kind: crosses, double-headed arrows, check marks."""
_NUMBER_GAP = 4  # at most this many spaces, brackets or punctuation between a symbol and "its" number


def _is_gap(ch: str) -> bool:
    """Between a symbol and its number: spaces, brackets, punctuation (of any script: `（１） ✗`, `【1】 ✗`, `1。✗`),
    invisible or combining marks, more symbols."""
    return (ch.isspace() or ch in ".,:;()[]#-" or unicodedata.category(ch) in _GAP_CATEGORIES
            or ch in _PLAIN_SYMBOL)


_GAP_CATEGORIES = frozenset({"Cf", "Mn", "Me", "Pc", "Pd", "Ps", "Pe", "Pi", "Pf", "Po"})


def _number_beside(text: str, start: int, end: int) -> bool:
    """A number (any script's digit, a superscript, a roman numeral) within a short gap before `start` or after `end`."""
    for step, at in ((-1, start - 1), (1, end)):
        for _ in range(_NUMBER_GAP + 1):
            if not 0 <= at < len(text):
                break
            ch = text[at]
            if unicodedata.numeric(ch, None) is not None:
                return True
            if not _is_gap(ch):
                break
            at += step
    return False


def _unmark_symbols(text: str) -> str:
    out, last = [], 0
    for m in MARK_SYMBOLS.finditer(text):
        if _number_beside(text, m.start(), m.end()):
            out += [text[last:m.start()], _PLAIN_SYMBOL[m.group()]]
            last = m.end()
    return "".join(out) + text[last:] if out else text


def unmark(s: object) -> str:
    """`s` without the glyphs reserved for the site's marks: `①` becomes `(1)`, `Ⓐ` becomes `(A)`; and beside a
    number, no symbol of a mark's kind: `1 ✗` becomes `1 x`, `↔ 2` becomes `<-> 2`, `✓ 3` becomes `v 3`."""
    text = str(s)
    if text.isascii():
        return text
    text = MARK_GLYPHS.sub(_unmark_one, text)
    return _unmark_symbols(text) if MARK_SYMBOLS.search(text) else text


def learner_label(s: object, *, max_chars: int | None = MAX_LABEL_CHARS) -> str:
    """A learner's label for a redrawn diagram: `mermaid_text(unmark(s))`."""
    return mermaid_text(unmark(s), max_chars=max_chars)


def mark_label(number: str, text: object) -> str:
    """The site's own mark for a redrawn diagram: its circled `number`, then `text` without mark glyphs."""
    return mermaid_text(f"{number} {unmark(text)}")


_COLOUR = re.compile(  # ASCII only: CSS reads no other digit or space, and the form is copied into the drawing
    r"(?ai)(rgba?|hsla?)\(\s*(\d{1,3})(%?)\s*,\s*(\d{1,3})(%?)\s*,\s*(\d{1,3})(%?)\s*(?:,\s*(0|1|0?\.\d{1,6})\s*)?\)"
)
MARK_COLOUR_DISTANCE = 25.0
"""How far (Euclidean, 0-255 RGB, as drawn on the page) a learner rect's colour must stay from every mark colour."""

PAGE_BACKGROUNDS = ("rgb(255, 255, 255)", "hsl(225, 15%, 14%)", "rgb(13, 17, 23)", "rgb(34, 39, 46)", "rgb(10, 12, 16)")
"""What the drawings are drawn on: Material's default scheme (white) and its slate (dark) scheme
(`--md-default-bg-color: hsla(var(--md-hue), 15%, 14%, 1)`, `--md-hue: 225deg`); and, for the PR comment and
the job summary, GitHub's pages: light (white), dark, dark dimmed and dark high contrast. A rect's fill is
translucent, so a colour far from every mark on white can be a mark's very colour on a dark page."""


def _rgb_alpha(colour: str) -> tuple[tuple[float, float, float], float] | None:
    """The value of a plain rgb()/rgba()/hsl()/hsla() colour (`_COLOUR`: the only forms copied into a redrawn
    drawing), else None."""
    return colour_value(colour) if _COLOUR.fullmatch(colour.strip()) else None


def _over(rgb, alpha: float, below) -> tuple[float, float, float]:
    return tuple(v * alpha + u * (1 - alpha) for v, u in zip(rgb, below))


def _distance(a, b) -> float:
    return sum((x - y) ** 2 for x, y in zip(a, b)) ** 0.5


_NESTING = 4  # rects of one colour nested this deep are still checked (each level deepens the tint)

_PAGES = tuple(page for page, _alpha in filter(None, map(_rgb_alpha, PAGE_BACKGROUNDS)))


def _composited(under: tuple[str, ...], stacks: dict | None) -> tuple[tuple[tuple[float, float, float], ...], bool]:
    """The colours `under` (bottom first) composite to on each of `PAGE_BACKGROUNDS`, and whether any of them is a
    colour: each stack from the one below it, kept in `stacks` (the caller's, for one drawing), so the rects side by
    side in a stack (or one inside another) share its work. (Compositing every stack again for every rect was square
    in the nesting: 1,300 rects inside 98 took 5.2 s for the PR comment.) Nesting is at most parse's MAX_DEPTH."""
    if not under:
        return _PAGES, False
    if stacks is not None and under in stacks:
        return stacks[under]
    below, layered = _composited(under[:-1], stacks)
    layer = _rgb_alpha(under[-1])
    found = (below, layered) if layer is None else (tuple(_over(layer[0], layer[1], b) for b in below), True)
    if stacks is not None:
        stacks[under] = found
    return found


def learner_rect_colour(label: str, *, reserved: Iterable[str], neutral: str, under: Iterable[str] = (),
                        stacks: dict | None = None) -> str:
    """The colour to redraw a learner's `rect <label>` with: the learner's own when it is a plain
    rgb()/rgba()/hsl()/hsla() colour that stays clear of every `reserved` (mark) colour, as drawn on each of
    `PAGE_BACKGROUNDS`, over the colours drawn beneath it (`under`, bottom first: a box, the enclosing rects)
    and also when the learner nests up to four rects of it, and on the bare page (the site's script grounds every
    rect of a mark's fill on the page's colour, wherever it is); else `neutral`. `stacks`: a dict one drawing's
    checks share (see `_composited`)."""
    parsed = _rgb_alpha(label)
    if parsed is None:
        return neutral
    rgb, alpha = parsed
    composited, layered = _composited(tuple(under), stacks)
    marks = [p for p in map(_rgb_alpha, reserved) if p is not None]
    for page, over_layers in zip(_PAGES, composited):
        shown = [_over(mark_rgb, mark_alpha, page) for mark_rgb, mark_alpha in marks]  # as the page shows them
        for below in ((over_layers, page) if layered else (page,)):
            tints = [_over(rgb, 1 - (1 - alpha) ** depth, below) for depth in range(1, _NESTING + 1)]
            if any(_distance(drawn, tint) < MARK_COLOUR_DISTANCE for drawn in shown for tint in tints):
                return neutral
    return label.strip()


# --------------------------------------------------------------------------- Mermaid's size limit

MERMAID_MAX_TEXT = 50_000
"""Mermaid 12.3.0's default `maxTextSize`: a longer diagram is drawn as "Maximum text size exceeded"."""


def mermaid_length(text: str) -> int:
    """Length of `text` as Mermaid measures it (JavaScript string length: UTF-16 code units)."""
    if text.isascii():
        return len(text)
    return len(text.encode("utf-16-le", errors="surrogatepass")) // 2


# --------------------------------------------------------------------------- find_unsafe


@dataclass(frozen=True, slots=True)
class UnsafeItem:
    """Content the site refuses to render as written: where it is and what it is, for a beginner."""

    line: int
    what: str


_TAG = re.compile(r"</?[A-Za-z!?]")  # as the HTML tokenizer sees a tag start
_ALLOWED_TAG = re.compile(r"(?i)<br\s*/?>")
_HANDLER = re.compile(r"(?i)\bon[a-z]{3,}\s*=")
_SCRIPTY = re.compile(r"(?i)</?(script|iframe|object|embed|svg|math|style|img|link|meta|base|form)\b")
_DIRECTIVE = re.compile(r"%%\s*\{")
_KATEX = re.compile(r"\$\$")
_TEMPLATE = re.compile(r"\{\{|\{%|\{#")
_SNIPPET = re.compile(r"-\s*8\s*<\s*-")  # as `-+ 8 < -+` finds, without its square-time backtracking
_WORKFLOW = re.compile(
    r"(?i)::\s*(error|warning|notice|debug|group|endgroup|add-mask|stop-commands|set-output|set-env|"
    r"add-path|save-state|echo|add-matcher|remove-matcher)\b[^\n]*?::"
)
_BAD_SCHEME = re.compile(r"(?i)(javascript|vbscript|livescript|data)\s*:")
_ALWAYS_BAD_SCHEME = re.compile(r"(?i)(javascript|vbscript|livescript)\s*:")
_LINK_LINE = re.compile(r"(?i)^\s*(links?|properties|details)\b")
_MD_BLOCK_START = re.compile(r"^\s*(```|~~~|\?\?\?|!!!|///|-{3,}\s*$|\*{3,}\s*$|<!--|-->)")
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
_MERMAID_ENTITY = re.compile(r"#(\w+);")


def _decode_mermaid_entities(text: str) -> str:
    def one(m: re.Match) -> str:
        inner = m.group(1)
        if inner.lstrip("+").isdigit():
            try:
                return chr(int(inner.lstrip("+")))
            except (ValueError, OverflowError):
                return m.group(0)
        return html.unescape(f"&{inner};")

    return _MERMAID_ENTITY.sub(one, text)


_JSON_ESCAPE = re.compile(r"\\u([0-9a-fA-F]{4})|\\(.)")


def _decode_json_escapes(text: str) -> str:
    """`links`/`properties` values are JSON: `\\u006a` is `j` once Mermaid parses them."""
    if "\\" not in text:
        return text
    return _JSON_ESCAPE.sub(lambda m: chr(int(m.group(1), 16)) if m.group(1) else m.group(2), text)


def _decoded_views(line: str) -> list[str]:
    """The line as written, and as a browser might read it after Mermaid, HTML and JSON decoding."""
    views = [line]
    frontier = [line]
    for _ in range(3):
        nxt = []
        for view in frontier:
            for decoded in (html.unescape(view), _decode_mermaid_entities(view), _decode_json_escapes(view)):
                if decoded not in views:
                    views.append(decoded)
                    nxt.append(decoded)
        if not nxt:
            break
        frontier = nxt
    return views


_URL_IGNORED = re.compile(r"[\s\x00-\x1f\x7f-\x9f\u00ad\u200b-\u200f\u2028-\u202e\u2060-\u206f\ufeff]+")


def _squeeze(text: str) -> str:
    """What a URL parser sees: whitespace and invisible characters inside a scheme are ignored."""
    return _URL_IGNORED.sub("", text)


def _front_matter_span(lines: list[str]) -> tuple[int, int] | None:
    """0-based (start, end) of a leading `---` ... `---` block, as Mermaid finds it."""
    first = next((i for i, ln in enumerate(lines) if ln.strip()), None)
    if first is None or lines[first].strip() != "---":
        return None
    for j in range(first + 1, len(lines)):
        if lines[j].strip() == "---":
            return first, j
    return first, len(lines) - 1


def _indentation(line: str) -> int:
    return len(line) - len(line.lstrip(" \t"))


def _front_matter_items(lines: list[str], start: int, end: int) -> list[UnsafeItem]:
    """The first key of the front matter other than `title:`. Its keys are the lines at the indentation of its
    first one (YAML allows a whole block indented, ` title: x` / ` config: ...`); a line indented further
    continues a multi-line title value."""
    body = lines[start + 1:end]
    keys_at = None
    for offset, ln in enumerate(body):
        stripped = ln.strip()
        if not stripped or stripped.startswith("#"):
            continue
        if keys_at is None:
            keys_at = _indentation(ln)
        if _indentation(ln) > keys_at:
            continue  # continuation of a multi-line title value
        if re.match(r"""^["']?title["']?\s*:""", stripped):
            continue
        return [UnsafeItem(
            start + 2 + offset,
            "front matter may only hold `title:`; settings such as `config:` would change how the "
            "site draws diagrams. Remove the `---` block and put `title ...` inside the diagram instead",
        )]
    return []


_DIRECTIVE_MESSAGE = "%%{...}%% directives change how the site draws diagrams and are not allowed; delete the line"
_TEXT_CHECKS = (  # (pattern searched in every reading of a line, what the learner is told)
    (_DIRECTIVE, _DIRECTIVE_MESSAGE),
    (_KATEX, "$$ starts a maths formula; write the text without $$"),
    (_TEMPLATE, "{{ }} and {% %} are template syntax; write the text without curly braces"),
    (_SNIPPET, "--8<-- would include another file into the page; remove it"),
)


_COMMENT_LINE = re.compile(r"[ \t]*%%(?![ \t]*\{)")
"""A Mermaid comment line (`%% note to self`), as Mermaid drops it: not a `%%{` directive."""
_TEXT_ONLY = (_KATEX, _TEMPLATE)
"""Checks of what is harmful only as drawn text: a comment, which no page shows, may hold it."""


def find_unsafe(diagram: "Diagram | None", text: str) -> list[UnsafeItem]:
    """Everything in `text` the site refuses to render as written, one item per line and problem.

    `diagram` (the parse of `text`) adds the directives and front matter the parser saw; the raw
    text is scanned line by line either way, so a file that does not parse is still checked.
    """
    if not _may_be_unsafe(text):
        return _directive_items(diagram)
    lines = _SOURCE_LINES.split(text) if "\r" in text else text.split("\n")
    items: dict[tuple[int, str], UnsafeItem] = {}

    def add(line: int, what: str) -> None:
        items.setdefault((line, what), UnsafeItem(line, what))

    span = _front_matter_span(lines)
    if span is not None:
        for item in _front_matter_items(lines, *span):
            add(item.line, item.what)

    suspect = _suspect_lines(text)
    for index, raw in enumerate(lines):
        if suspect is not None and index not in suspect:
            continue  # nothing on this line can trip a check
        number = index + 1
        in_front_matter = span is not None and span[0] <= index <= span[1]
        # one string holding the line as written and every decoded reading of it
        joined = "\n".join(_decoded_views(raw)) if ("&" in raw or "#" in raw or "\\" in raw) else raw
        if _CONTROL.search(raw):
            add(number, "a control character (invisible) is in this line; delete it and retype the text")
        if _BIDI.search(raw):
            add(number, "an invisible character that reverses text direction is in this line; delete it")
        # a `%%` comment is dropped before Mermaid reads the drawing, and so from every page: only what could
        # still act in it is refused (script, handlers, links, directives, commands)
        comment = not in_front_matter and _COMMENT_LINE.match(raw) is not None
        if _SCRIPTY.search(joined):
            add(number, "HTML such as <script>, <iframe> or <img> is not allowed; write plain words instead")
        elif not comment and _TAG.search(_ALLOWED_TAG.sub(" ", joined)):
            add(number, "HTML tags (text like <b> or </details>) are not allowed; write plain words instead")
        if _HANDLER.search(joined):
            add(number, "text like onerror= or onload= is an HTML event handler and is not allowed; remove it")
        schemes = _BAD_SCHEME if _LINK_LINE.match(raw) else _ALWAYS_BAD_SCHEME
        if schemes.search(_squeeze(joined)):
            add(number, "javascript:, vbscript: and data: links are not allowed; link to an https:// page or remove it")
        for pattern, message in _TEXT_CHECKS:
            if pattern.search(joined) and not (comment and pattern in _TEXT_ONLY):
                add(number, message)
        if _WORKFLOW.search(joined) or raw.lstrip().startswith("::"):
            add(number, "text like ::error:: is a GitHub Actions command; write it without the double colons")
        if not in_front_matter and _MD_BLOCK_START.match(raw):
            add(number, "a line starting with ```, ~~~, ???, !!!, --- or <!-- would break the page around "
                        "your diagram; remove or reword it")

    for item in _directive_items(diagram):
        add(item.line, item.what)

    return sorted(items.values(), key=lambda item: (item.line, item.what))


# Without one of these no check in find_unsafe can fire (entity, JSON and invisible-character
# forms all need one too): a suspect character, `::`, a Markdown block start at a line start, or
# `script:` / `data:` once spaces are squeezed out. Most drawings have none, so their per-line scan
# is skipped; most others have one or two suspect lines, and only those are scanned. The tests in
# tests/safety compare both shortcuts with the full scan.
_QUIET_BYTES = bytes(b for b in range(128) if b in (9, 10) or (32 <= b < 127 and chr(b) not in "<=&#\\$%{"))
_BLOCK_START_AFTER_NEWLINE = re.compile(rb"\n(?:```|~~~|\?\?\?|!!!|///|--|\*\*\*)")  # spaces and tabs removed
_LOWER_CASE = bytes(range(256)).lower()  # a bytes.translate table
# A bytes.translate table: ASCII lower-cased, and every byte that is not quiet (a suspect character, a control
# character) made NUL, so one pass both flattens the text and marks what needs the full scan.
_LOWER_CASE_LOUD_AS_NUL = bytes(_LOWER_CASE[b] if b in _QUIET_BYTES else 0 for b in range(256))


def _may_be_unsafe(text: str) -> bool:
    """False only when no line of `text` can trigger any check of find_unsafe."""
    if not text.isascii():
        return True  # Unicode spaces and invisibles: let the full scan decide
    data = text.encode("ascii")
    if b"::" in data:
        return True
    flat = b"\n" + data.translate(_LOWER_CASE_LOUD_AS_NUL, b" \t")  # each line lower-cased, without spaces and tabs
    return (b"\0" in flat or bool(_BLOCK_START_AFTER_NEWLINE.search(flat))
            or b"script:" in flat or b"data:" in flat)


def _suspect_lines(text: str) -> set[int] | None:
    """0-based numbers of the lines on which a check of find_unsafe may fire; None: maybe any line."""
    if not text.isascii() or "\r" in text:
        return None  # rare: other line ends and invisible characters, scan every line
    data = text.encode("ascii")
    positions = _positions(data, b"::")
    for byte in set(data.translate(None, _QUIET_BYTES)):
        positions += _positions(data, bytes((byte,)))
    flat = b"\n" + data.translate(_LOWER_CASE, b" \t")  # newlines stay, so line numbers do too
    starts = [m.start() + 1 for m in _BLOCK_START_AFTER_NEWLINE.finditer(flat)]
    squeezed = _positions(flat, b"script:") + _positions(flat, b"data:")
    if len(positions) + len(starts) + len(squeezed) > _MAX_SUSPECTS:
        return None  # so many that counting lines for each would cost more than scanning them all
    lines = {data.count(b"\n", 0, p) for p in positions}
    lines.update(flat.count(b"\n", 0, p) - 1 for p in starts + squeezed)  # -1: the newline put in front
    return lines


_MAX_SUSPECTS = 64


def _positions(data: bytes, needle: bytes) -> list[int]:
    out = []
    at = data.find(needle)
    while at != -1:
        out.append(at)
        at = data.find(needle, at + 1)
    return out


def _directive_items(diagram) -> list[UnsafeItem]:
    directives = getattr(diagram, "directives", None)
    if not directives:
        return []  # most drawings: no set to build and sort
    return sorted({UnsafeItem(d.line, _DIRECTIVE_MESSAGE) for d in directives},
                  key=lambda item: (item.line, item.what))


# --------------------------------------------------------------------------- Markdown fence


def fence_mermaid_custom(source, language, class_name, options, md, **kwargs):
    """pymdownx.superfences format for ```mermaid fences that HTML-escapes the diagram source.

    mkdocs-mermaid2's own `fence_mermaid_custom` writes the source into the page unescaped, so a label
    such as `<img src=x onerror=...>` becomes a live element before Mermaid ever runs. This one writes
    `<pre class="mermaid"><code>ESCAPED</code></pre>` (Material reads it back with textContent). The
    function name is what mkdocs-mermaid2 looks for to load Mermaid for Material, so keep it.
    """
    from pymdownx.superfences import fence_code_format

    return fence_code_format(source, language, class_name, options, md, **kwargs)

"""What Mermaid 12.3.0 does to the text before its sequence lexer sees it.

In order: CRLF/CR -> LF; YAML front matter cut off (and parsed: bad YAML fails
the diagram); `%%{...}%%` directives cut out anywhere; whole-line `%%` comments
(with the blank space before them) cut out; leading whitespace trimmed; the
diagram type detected; `#name;` entity codes encoded; a final newline added.
Nothing here is ever *applied*: front matter and directives are only recorded.

Because text is cut out, we keep a map from each lexed line back to the line
of the original file, so every error and node points at the learner's line.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from dataclasses import dataclass, field

from drawcheck.parse.jsregex import DOT, FLAGS, JS_WS_CHARS, WS, js_trim_start

_NEWLINES = re.compile(r"\r\n?")
_TAG_START = re.compile(r"<\w", FLAGS)
_WORD_RUN = re.compile(r"\w+", FLAGS)
_ATTR_DQ = re.compile(r'="([^"]*)"')
DIRECTIVE = re.compile(
    r"%{2}\{" + WS + r"*(?:(\w+)" + WS + r"*:|(\w+))" + WS + r"*(?:(\w+)|((?:(?!\}%{2})" + DOT + r"|\r?\n)*))?"
    + WS + r"*(?:\}%{2})?",
    FLAGS | re.IGNORECASE,
)
_ENTITY = re.compile(r"#(\w+);", FLAGS)
_INT = re.compile(r"\+?\d+\Z", FLAGS)
_SEQUENCE = re.compile(WS + r"*sequenceDiagram", FLAGS)
C4_DETECTOR = re.compile(r"\A" + WS + r"*C4Context|C4Container|C4Component|C4Dynamic|C4Deployment", FLAGS)
_ERROR = re.compile(WS + r"*error" + WS + r"*\Z", FLAGS | re.IGNORECASE)
_DASHES = re.compile(WS + r"*---", FLAGS)
_LINE_TERMINATORS = "\n\r\u2028\u2029"

# Mermaid's stand-ins for `#` `;` of entity codes; we turn them back when reading values.
ENC_INT = "\ufb02\u00b0\u00b0"
ENC_NAME = "\ufb02\u00b0"
ENC_END = "\u00b6\u00df"


def quote_attributes(text: str) -> str:
    r"""Mermaid's `text.replace(/<(\w+)([^>]*)>/g, ...)` turning `="..."` into `='...'` inside each tag, computed
    in linear time (the regex itself backtracks quadratically over `<` and a long word with no `>` after it).

    `[^>]*` reaches the first `>` after the tag's name whatever the split, so a tag is `<`, its name (the longest
    word run), and everything up to the next `>`; with no `>` left, no later `<` starts a tag either."""
    out = []
    done = 0
    search = 0
    while (m := _TAG_START.search(text, search)) is not None:
        name_end = _WORD_RUN.match(text, m.start() + 1).end()
        close = text.find(">", name_end)
        if close == -1:
            break
        out.append(text[done:name_end])
        out.append(_ATTR_DQ.sub(r"='\1'", text[name_end:close]))
        done = search = close
    out.append(text[done:])
    return "".join(out)


def decode_entities(s: str) -> str:
    """Undo Mermaid's entity encoding so values read as written (`#35;`)."""
    if "\ufb02" not in s and "\u00b6" not in s:
        return s
    return s.replace(ENC_INT, "#").replace(ENC_NAME, "#").replace(ENC_END, ";")


@dataclass(slots=True)
class FrontMatter:
    body: str
    line: int  # line of the opening ---
    end_line: int
    error: str | None = None  # YAML error, which makes Mermaid fail
    error_line: int | None = None
    refused: bool = False  # the error is drawcheck's refusal (see yaml_refusal), not invalid YAML


@dataclass(slots=True)
class Prepared:
    text: str  # what the lexer reads
    line_of: list[int]  # lexed line index -> original 1-based line
    diagram_type: str  # "sequence", or what Mermaid would detect instead ("unknown", "c4", "---", ...)
    front_matter: FrontMatter | None = None
    directives: list[tuple[int, str]] = field(default_factory=list)
    comments: list[tuple[int, str]] = field(default_factory=list)
    original_line_count: int = 1

    def line(self, index: int) -> int:
        if index < len(self.line_of):
            return self.line_of[index]
        return self.line_of[-1] if self.line_of else 1


class _Map:
    """Offsets in a shortened text -> offsets in the text before the cut."""

    __slots__ = ("new_starts", "old_starts")

    def __init__(self, new_starts: list[int], old_starts: list[int]):
        self.new_starts = new_starts
        self.old_starts = old_starts

    def back_many(self, positions: list[int]) -> list[int]:
        """back() for ascending positions, in one pass."""
        new_starts, old_starts = self.new_starts, self.old_starts
        out = []
        j = 0
        last = len(new_starts) - 1
        for pos in positions:
            while j < last and new_starts[j + 1] <= pos:
                j += 1
            out.append(old_starts[j] + (pos - new_starts[j]))
        return out

    def back(self, pos: int) -> int:
        i = bisect_right(self.new_starts, pos) - 1
        if i < 0:
            return pos
        return self.old_starts[i] + (pos - self.new_starts[i])


def _lines_of_offsets(offsets: list[int], newline_at: list[int]) -> list[int]:
    """1-based line of each offset (offsets ascending), in one pass."""
    out = []
    j = 0
    n = len(newline_at)
    for off in offsets:
        while j < n and newline_at[j] < off:
            j += 1
        out.append(j + 1)
    return out


def _cut(text: str, spans: list[tuple[int, int]]) -> tuple[str, _Map | None]:
    if not spans:
        return text, None
    pieces, new_starts, old_starts = [], [], []
    kept = 0
    prev = 0
    for start, end in spans:
        if start > prev:
            new_starts.append(kept)
            old_starts.append(prev)
            pieces.append(text[prev:start])
            kept += start - prev
        prev = end
    new_starts.append(kept)
    old_starts.append(prev)
    pieces.append(text[prev:])
    return "".join(pieces), _Map(new_starts, old_starts)


def _is_js_ws(ch: str) -> bool:
    return ch in JS_WS_CHARS


def match_front_matter(text: str) -> tuple[str, str, int] | None:
    """Mermaid's front matter match: (indent, body, length of the whole block) or None."""
    n = len(text)
    cursor = 0
    while cursor < n and _is_js_ws(text[cursor]) and text[cursor] not in "\n\r":
        cursor += 1
    indent = text[:cursor]
    if not text.startswith("---", cursor):
        return None
    opening_ends = []
    i = cursor + 3
    while i < n and _is_js_ws(text[i]):
        if text[i] in "\n\r":
            opening_ends.append(i)
        i += 1
    if not opening_ends:
        return None
    fence = indent + "---"

    def closing_end(i: int) -> int:
        if text[i] in "\n\r" and text.startswith(fence, i + 1):
            index = -1
            j = i + 1 + len(fence)
            while j < n and _is_js_ws(text[j]):
                if text[j] in "\n\r":
                    index = j
                j += 1
            return index
        return -1

    last_closing = -1
    pos = text.find("\n" + fence, opening_ends[0] + 1)
    candidates = []
    while pos != -1:
        candidates.append(pos)
        pos = text.find("\n" + fence, pos + 1)
    for c in candidates:
        if closing_end(c) != -1:
            last_closing = c
    if last_closing == -1:
        return None
    opening_end = opening_ends[0]
    for cand in opening_ends:
        if cand < last_closing:
            opening_end = cand
    body_start = opening_end + 1
    for c in candidates:
        if body_start <= c <= last_closing:
            end = closing_end(c)
            if end != -1:
                return indent, text[body_start:c], end + 1
    return None


def _comment_spans(text: str) -> list[tuple[int, int]]:
    """Whole-line `%%` comments Mermaid deletes: /^\\s*%%(?!{)[^\\n]+\\n?/gm."""
    spans = []
    last_end = 0
    search = 0
    n = len(text)
    while True:
        i = text.find("%%", search)
        if i == -1:
            break
        search = i + 1
        if i + 2 >= n or text[i + 2] in "{\n":
            continue
        # start of the whitespace run before the %% (not before the previous match)
        w = i
        while w > last_end and _is_js_ws(text[w - 1]):
            w -= 1
        start = -1
        p = w
        while p <= i:
            if p == 0 or text[p - 1] in _LINE_TERMINATORS:
                start = p
                break
            nl = -1
            for t in _LINE_TERMINATORS:
                k = text.find(t, p, i)
                if k != -1 and (nl == -1 or k < nl):
                    nl = k
            if nl == -1:
                break
            p = nl + 1
        if start == -1:
            continue
        end = text.find("\n", i + 2)
        end = n if end == -1 else end + 1
        spans.append((start, end))
        last_end = end
        search = end
    return spans


def _strip_any_comments(text: str) -> str:
    out = []
    consumed = 0
    search = 0
    while search < len(text):
        marker = text.find("%%", search)
        if marker == -1:
            break
        line_end = text.find("\n", marker)
        if line_end == -1:
            break
        start = marker
        while start > consumed and _is_js_ws(text[start - 1]):
            start -= 1
        out.append(text[consumed:start] + "\n")
        consumed = line_end + 1
        search = consumed
    out.append(text[consumed:])
    return "".join(out)


def detect_type(text: str) -> str:
    """Which diagram Mermaid's detectors pick (only the ones that can win before `sequence`)."""
    fm = match_front_matter(text) if "---" in text else None
    if fm:
        text = text[fm[2]:]
    if "%%" in text:
        text = _strip_any_comments(DIRECTIVE.sub("", text))
    if _ERROR.match(text):
        return "error"
    if _DASHES.match(text):
        return "---"
    if "C4" in text and C4_DETECTOR.search(text):
        return "c4"
    if _SEQUENCE.match(text):
        return "sequence"
    first = js_trim_start(text).split("\n", 1)[0].strip()
    return "other:" + first[:40] if first else "empty"


_JS_LINE_BREAKS = re.compile("([\n\r\u2028\u2029])")


def _drop_last_semicolon(text: str, word: str) -> str:
    """Mermaid's `text.replace(/WORD.*:\\S*#.*;/g, s => s.slice(0, -1))`, computed in linear time.

    On a line where WORD is followed by a `:`, then (with no space) a `#`, then a `;`,
    the line's last `;` is dropped. The regex itself backtracks quadratically.
    """
    parts = _JS_LINE_BREAKS.split(text)
    changed = False
    for k in range(0, len(parts), 2):
        seg = parts[k]
        start = seg.find(word)
        if start == -1:
            continue
        last_semi = seg.rfind(";")
        colon = seg.find(":", start + len(word))
        while colon != -1 and colon < last_semi:
            j = colon + 1
            while j < len(seg) and seg[j] != "#" and seg[j] not in JS_WS_CHARS:
                j += 1
            if j < len(seg) and seg[j] == "#":
                if j < last_semi:
                    parts[k] = seg[:last_semi] + seg[last_semi + 1:]
                    changed = True
                break
            colon = seg.find(":", j)
    return "".join(parts) if changed else text


def encode_entities(text: str) -> str:
    if "style" in text:
        text = _drop_last_semicolon(text, "style")
    if "classDef" in text:
        text = _drop_last_semicolon(text, "classDef")
    if "#" in text:
        text = _ENTITY.sub(lambda m: (ENC_INT if _INT.match(m.group(1)) else ENC_NAME) + m.group(1) + ENC_END, text)
    return text


MAX_YAML_DEPTH = 20  # nesting of mappings and lists in front matter and `@{...}`: a few levels are plenty
MAX_YAML_CHARS = 10_000  # length of one front matter or `@{...}`: a few lines are plenty


def _yaml_loader():
    """PyYAML's safe loader (libyaml's when installed), refusing duplicate keys as js-yaml does."""
    import yaml

    class StrictLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
        pass

    def construct_mapping(loader, node, deep=False):
        seen = set()
        for key_node, _ in node.value:
            key = loader.construct_object(key_node, deep=True)
            try:
                hashable = key in seen
            except TypeError:
                continue
            if hashable:
                raise yaml.constructor.ConstructorError(
                    None, None, "duplicated mapping key %r" % (key,), key_node.start_mark)
            seen.add(key)
        return yaml.SafeLoader.construct_mapping(loader, node, deep)

    StrictLoader.add_constructor(yaml.resolver.BaseResolver.DEFAULT_MAPPING_TAG, construct_mapping)
    return StrictLoader


def _flow_depth_over(body: str, limit: int) -> int | None:
    """0-based line where `[`/`{` nesting first passes `limit` (counted in the raw text, strings too), or None.
    PyYAML's scanner is quadratic in flow nesting, so this runs before it."""
    depth = 0
    for i, ch in enumerate(body):
        if ch in "[{":
            depth += 1
            if depth > limit:
                return body.count("\n", 0, i)
        elif ch in "]}" and depth:
            depth -= 1
    return None


def yaml_refusal(body: str) -> tuple[str, int] | None:
    """What drawcheck refuses in YAML that js-yaml would read: (message, 0-based line) or None.

    Anchors, aliases and `<<` merges (`&a`, `*a`): a few hundred bytes of aliases expand to gigabytes; more than
    MAX_YAML_CHARS characters; nesting deeper than MAX_YAML_DEPTH. Checked before anything is constructed, on
    PyYAML's event stream (its scanner and parser loop, they do not recurse)."""
    import yaml

    if len(body) > MAX_YAML_CHARS:
        return "the YAML has %d characters, more than the %d drawcheck reads" % (len(body), MAX_YAML_CHARS), 0
    deep = _flow_depth_over(body, MAX_YAML_DEPTH)
    if deep is not None:
        return "the YAML is nested more than %d levels deep" % MAX_YAML_DEPTH, deep
    depth = 0
    try:
        for event in yaml.parse(body, Loader=_yaml_loader()):
            line = event.start_mark.line
            if isinstance(event, yaml.AliasEvent) or getattr(event, "anchor", None) is not None:
                return "YAML anchors and aliases (`&name`, `*name`) are not allowed: write each value out", line
            if isinstance(event, yaml.ScalarEvent) and event.value == "<<" and not event.style:  # plain `<<`
                return "the YAML merge key `<<` is not allowed: write each key out", line
            if isinstance(event, (yaml.MappingStartEvent, yaml.SequenceStartEvent)):
                depth += 1
                if depth > MAX_YAML_DEPTH:
                    return "the YAML is nested more than %d levels deep" % MAX_YAML_DEPTH, line
            elif isinstance(event, (yaml.MappingEndEvent, yaml.SequenceEndEvent)):
                depth -= 1
    except yaml.YAMLError:
        return None  # not YAML at all: load_yaml says why
    return None


def load_yaml(body: str):
    """(document, None) for YAML js-yaml would read and drawcheck accepts, else (None, (problem, 0-based line),
    refused) where `refused` tells drawcheck's refusal (yaml_refusal) from YAML that is not valid."""
    import yaml

    refused = yaml_refusal(body)
    if refused:
        return None, refused, True
    try:
        return yaml.load(body, Loader=_yaml_loader()), None, False
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None) or getattr(exc, "context_mark", None)
        line = mark.line if mark is not None else 0
        problem = getattr(exc, "problem", None) or str(exc).splitlines()[0]
        return None, (problem, line), False
    except Exception as exc:  # noqa: BLE001 - any loader failure is a refusal
        return None, (str(exc), 0), False


def prepare(raw: str) -> Prepared:
    norm = _NEWLINES.sub("\n", raw) if "\r" in raw else raw
    if "<" in norm and '="' in norm:
        norm = quote_attributes(norm)
    newline_cache: list[list[int]] = []

    def newlines_in_norm() -> list[int]:
        if not newline_cache:
            newline_cache.append([m.start() for m in re.finditer("\n", norm)])
        return newline_cache[0]

    def norm_line(pos: int) -> int:
        return bisect_right(newlines_in_norm(), pos - 1) + 1

    maps: list[_Map] = []
    text = norm
    front = None
    fm = match_front_matter(text)
    if fm is not None:
        indent, body, length = fm
        open_line = norm_line(len(indent))
        close_line = norm_line(length - 1) if length else open_line
        front = FrontMatter(body=body, line=open_line, end_line=close_line)
        yaml_body = body
        if indent:
            yaml_body = "\n".join(l[len(indent):] if l.startswith(indent) else l for l in body.split("\n"))
        _doc, problem, refused = load_yaml(yaml_body)
        if problem:
            front.error, front.error_line, front.refused = problem[0], open_line + 1 + problem[1], refused
        text, m = _cut(text, [(0, length)])
        maps.append(m)

    def to_norm(pos: int) -> int:
        for mp in reversed(maps):
            pos = mp.back(pos)
        return pos

    directives = []
    if "%%" in text:
        spans = []
        for m in DIRECTIVE.finditer(text):
            spans.append((m.start(), m.end()))
            directives.append((norm_line(to_norm(m.start())), m.group()))
        if spans:
            text, m = _cut(text, spans)
            maps.append(m)

    comments = []
    if "%%" in text:
        spans = _comment_spans(text)
        if spans:
            for start, end in spans:
                i = text.find("%%", start)
                comments.append((norm_line(to_norm(i)), text[i:end].rstrip("\n")))
            text, m = _cut(text, spans)
            maps.append(m)
    trimmed = js_trim_start(text)
    if len(trimmed) != len(text):
        text, m = _cut(text, [(0, len(text) - len(trimmed))])
        maps.append(m)

    diagram_type = detect_type(text)
    if maps:
        starts = [0] + [m.end() for m in re.finditer("\n", text)]
        for mp in reversed(maps):
            starts = mp.back_many(starts)
        line_of = _lines_of_offsets(starts, newlines_in_norm())
    else:
        line_of = list(range(1, text.count("\n") + 2))
    line_of.append(line_of[-1])  # the "\n" Mermaid appends
    return Prepared(
        text=encode_entities(text) + "\n",
        line_of=line_of,
        diagram_type=diagram_type,
        front_matter=front,
        directives=directives,
        comments=comments,
        original_line_count=norm.count("\n") + 1,
    )

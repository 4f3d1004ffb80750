"""Semantics-preserving rewrites of a Mermaid sequenceDiagram, each with the line map it implies.

A transformation is a pure function `(doc, ctx, rng) -> Doc | None` (None: it does not apply to this
drawing). A `Doc` is the drawing's lines, each with the original lines it holds, so a finding on
original line n can be looked for on `doc.line_map()[n]` after any chain of transformations.
Step labels are found through the exercise's own step names (`ctx.step_names`), never listed here.
"""

from __future__ import annotations

import random
import re
from dataclasses import dataclass, field, replace
from typing import Callable

# ---------------------------------------------------------------- the document


@dataclass(frozen=True)
class Doc:
    lines: tuple[str, ...]
    origins: tuple[tuple[int, ...], ...]  # the 1-based original lines each line holds
    newline: str = "\n"
    trailing_newline: bool = True

    @classmethod
    def from_text(cls, text: str) -> "Doc":
        trailing = text.endswith("\n")
        lines = text.split("\n")
        if trailing:
            lines = lines[:-1]
        return cls(tuple(lines), tuple((i + 1,) for i in range(len(lines))), "\n", trailing)

    def text(self) -> str:
        body = self.newline.join(self.lines)
        return body + self.newline if self.trailing_newline else body

    def line_map(self) -> dict[int, int]:
        """original line -> the (first) line holding it now."""
        out: dict[int, int] = {}
        for number, origin in enumerate(self.origins, start=1):
            for o in origin:
                out.setdefault(o, number)
        return out

    def lines_of(self) -> dict[int, set[int]]:
        """original line -> every line that holds it now (a region's opener holds its labelling note too)."""
        out: dict[int, set[int]] = {}
        for number, origin in enumerate(self.origins, start=1):
            for o in origin:
                out.setdefault(o, set()).add(number)
        return out

    def edit(self, rows: list[tuple[str, tuple[int, ...]]]) -> "Doc":
        return replace(self, lines=tuple(r[0] for r in rows), origins=tuple(r[1] for r in rows))

    def rows(self) -> list[tuple[str, tuple[int, ...]]]:
        return list(zip(self.lines, self.origins))


@dataclass(frozen=True)
class Context:
    exercise: str  # the reference's exercise id
    step_names: frozenset[str]  # normalised names, ids and synonyms of the exercise's steps
    framework_label: str | None  # a participant label naming the framework the steps run in, if any
    filler: str  # neutral words that can follow a step name on its line
    details: dict[str, tuple[str, ...]]  # normalised step name -> details that may follow it (its plugins)
    wrappers: tuple[str, ...] = ()  # the exercise's `wrappers` (`Run{step}Plugins`): calls named after a step
    header_lines: Callable[[str], set[int]] | None = None  # text -> lines of its notes that head a phase


def normalise(text: str) -> str:
    return re.sub(r"[\s_\-]+", "", text).casefold()


# ---------------------------------------------------------------- reading lines

ID = r"[A-Za-z_][A-Za-z0-9_]*"
ARROW = r"<<-->>|<<->>|-->>|->>|--x|-x|--\)|-\)|-->|->"
MESSAGE = re.compile(rf"^(?P<ind>\s*)(?P<src>{ID})(?P<s1>\s*)(?P<arrow>{ARROW})(?P<act>[+-]?)(?P<s2>\s*)"
                     rf"(?P<tgt>{ID})(?P<s3>\s*):(?P<text>[^;]*)$")
# Mermaid's keywords are read in any case
DECLARATION = re.compile(rf"^(?P<ind>\s*)(?P<kw>participant|actor)\s+(?P<id>{ID})(?:\s+as\s+(?P<label>[^;]*?))?\s*$",
                         re.I)
NOTE = re.compile(rf"^(?P<ind>\s*)(?P<head>note\s+(?:left of|right of|over)\s+)(?P<actors>{ID}(?:\s*,\s*{ID})?)"
                  r"(?P<s>\s*):(?P<text>[^;]*)$", re.I)
ACTIVATION = re.compile(rf"^(?P<ind>\s*)(?P<kw>activate|deactivate)\s+(?P<id>{ID})\s*$", re.I)
BLOCK = re.compile(r"^\s*(rect|loop|alt|opt|par|par_over|critical|break)\b", re.I)
BRANCH = re.compile(r"^\s*(else|and|option)\b", re.I)
BOX = re.compile(r"^\s*box\b", re.I)
END = re.compile(r"^\s*end\s*;?\s*$", re.I)
HEADER = re.compile(r"^\s*sequenceDiagram\s*$")
# lines a `;` may end: one statement each, and not a text Mermaid reads to the end of the line
STATEMENT = (MESSAGE, NOTE, ACTIVATION, END)


def header_index(doc: Doc) -> int | None:
    return next((i for i, line in enumerate(doc.lines) if HEADER.match(line)), None)


def _box_lines(doc: Doc) -> set[int]:
    inside: set[int] = set()
    depth_box = False
    for i, line in enumerate(doc.lines):
        if BOX.match(line):
            depth_box = True
            inside.add(i)
        elif depth_box:
            inside.add(i)
            if END.match(line):
                depth_box = False
    return inside


def declarations(doc: Doc) -> dict[str, tuple[int, re.Match]]:
    out = {}
    for i, line in enumerate(doc.lines):
        m = DECLARATION.match(line)
        if m and m["id"] not in out:
            out[m["id"]] = (i, m)
    return out


def _safe_doc(doc: Doc) -> bool:
    """Only drawings this module can read line by line: no `create`/`destroy`, links, metadata, `;`."""
    for line in doc.lines:
        s = line.strip()
        if re.match(r"^(create|destroy|links?|properties|details)\b", s) or "@{" in s or ";" in s:
            return False
    return True


def _first_statement(doc: Doc) -> int:
    """Index of the first line after the header, front matter, declarations, boxes, comments and blanks."""
    start = (header_index(doc) or 0) + 1
    boxed = _box_lines(doc)
    i = start
    while i < len(doc.lines):
        s = doc.lines[i].strip()
        if re.match(r"^accDescr\s*\{", s):  # a multi-line description, up to its `}`
            while i < len(doc.lines) and "}" not in doc.lines[i]:
                i += 1
            i += 1
            continue
        if not s or s.startswith("%%") or DECLARATION.match(doc.lines[i]) or i in boxed \
                or re.match(r"^(autonumber|title|accTitle|accDescr)\b", s):
            i += 1
            continue
        break
    return i


def step_label(text: str, ctx: Context) -> bool:
    return normalise(text) in ctx.step_names


# ---------------------------------------------------------------- participants


def _fresh_ids(doc: Doc, n: int, prefix: str = "Pq") -> list[str]:
    used = set(re.findall(ID, "\n".join(doc.lines)))
    out, k = [], 1
    while len(out) < n:
        if f"{prefix}{k}" not in used:
            out.append(f"{prefix}{k}")
        k += 1
    return out


def _rename_in_line(line: str, renames: dict[str, str]) -> str:
    def sub(ident: str) -> str:
        return renames.get(ident, ident)
    if m := MESSAGE.match(line):
        return (f"{m['ind']}{sub(m['src'])}{m['s1']}{m['arrow']}{m['act']}{m['s2']}{sub(m['tgt'])}{m['s3']}:"
                f"{m['text']}")
    if m := NOTE.match(line):
        actors = re.sub(ID, lambda a: sub(a.group(0)), m["actors"])
        return f"{m['ind']}{m['head']}{actors}{m['s']}:{m['text']}"
    if m := ACTIVATION.match(line):
        return f"{m['ind']}{m['kw']} {sub(m['id'])}"
    if m := DECLARATION.match(line):
        label = m["label"] if m["label"] is not None else m["id"]
        if m["id"] in renames:
            return f"{m['ind']}{m['kw']} {renames[m['id']]} as {label}"
    return line


def _every_id_use_is_readable(doc: Doc, ids: set[str]) -> set[str]:
    """The ids whose every use sits on a line this module can rewrite."""
    ok = set(ids)
    for line in doc.lines:
        if MESSAGE.match(line) or NOTE.match(line) or ACTIVATION.match(line) or DECLARATION.match(line):
            continue
        s = line.strip()
        if s.startswith("%%") or BLOCK.match(line) or BRANCH.match(line) or BOX.match(line) or END.match(line):
            continue  # labels: an id in a label is just a word
        for ident in list(ok):
            if re.search(rf"(?<![A-Za-z0-9_]){ident}(?![A-Za-z0-9_])", line):
                ok.discard(ident)
    return ok


def rename_ids(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """Every declared participant gets a new id; its label stays (the old id becomes the label)."""
    if not _safe_doc(doc):
        return None
    ids = _every_id_use_is_readable(doc, set(declarations(doc)))
    if not ids:
        return None
    ordered = sorted(ids)
    renames = dict(zip(ordered, _fresh_ids(doc, len(ordered))))
    return doc.edit([(_rename_in_line(line, renames), o) for line, o in doc.rows()])


MERMAID_WORDS = frozenset(("end", "note", "participant", "actor", "as", "loop", "alt", "else", "opt", "par", "and",
                           "rect", "box", "critical", "option", "break", "activate", "deactivate", "autonumber",
                           "title", "create", "destroy", "link", "links", "properties", "details", "over", "left",
                           "right", "of", "off", "sequencediagram"))


def ids_from_labels(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """Ids made from the labels' first words (`participant sched as Scheduler thread`), as people write them."""
    if not _safe_doc(doc):
        return None
    decl = declarations(doc)
    ids = _every_id_use_is_readable(doc, set(decl))
    used = set(re.findall(ID, "\n".join(doc.lines)))
    renames = {}
    for ident in sorted(ids):
        m = decl[ident][1]
        if m["label"] is None:
            continue
        word = re.match(r"[A-Za-z]+", m["label"].strip().strip('"'))
        if word is None:
            continue
        new = word.group(0).lower()
        k = 1
        while new in used or new in renames.values() or new in MERMAID_WORDS:
            new, k = f"{word.group(0).lower()}{k}", k + 1
        renames[ident] = new
        used.add(new)
    if not renames:
        return None
    return doc.edit([(_rename_in_line(line, renames), o) for line, o in doc.rows()])


def _each_line(doc: Doc, rewrite: Callable[[str], str | None]) -> Doc | None:
    """`doc` with every line `rewrite` rewrites (it gives the new line, or None to keep the line as it is);
    None when it rewrites none."""
    return _around_lines(doc, lambda line: None if (new := rewrite(line)) is None else ([], new, []))


def _around_lines(doc: Doc, around: Callable[[str], tuple[list[str], str, list[str]] | None]) -> Doc | None:
    """`doc` with lines added around some lines: `around` gives (lines before, the line, lines after), or None
    to keep the line as it is; the added lines stand for nothing in the original. None when nothing changes."""
    rows, changed = [], False
    for line, o in doc.rows():
        new = around(line)
        if new is None:
            rows.append((line, o))
            continue
        before, line, after = new
        rows += [(b, ()) for b in before] + [(line, o)] + [(a, ()) for a in after]
        changed = True
    return doc.edit(rows) if changed else None


def _relabel_participants(doc: Doc, change: Callable[[str], str]) -> Doc | None:
    def relabel(line: str) -> str | None:
        m = DECLARATION.match(line)
        if not (m and m["label"] and '"' not in m["label"]):
            return None
        new = change(m["label"])
        return f"{m['ind']}{m['kw']} {m['id']} as {new}" if new != m["label"] else None
    return _each_line(doc, relabel)


def participant_label_case(doc, ctx, rng):
    """Participant labels in another case (`BINDING GOROUTINE`, `api server`)."""
    return _relabel_participants(doc, lambda t: rng.choice([str.upper, str.lower, str.title])(t))


def participant_label_forms(doc, ctx, rng):
    """Participant labels kebab-, snake- or no-break-spaced (`binding-goroutine`, `API_server`)."""
    return _relabel_participants(doc, lambda t: t.replace(" ", rng.choice(["-", "_", "\u00a0"])))


def participant_actor(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """`participant` <-> `actor` (only the drawn shape changes)."""
    def swap(line: str) -> str | None:
        m = DECLARATION.match(line)
        return line.replace(m["kw"], "actor" if m["kw"].lower() == "participant" else "participant", 1) if m else None
    return _each_line(doc, swap)


def reorder_declarations(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """Declare the participants (outside boxes) in another order."""
    boxed = _box_lines(doc)
    idx = [i for i, line in enumerate(doc.lines) if DECLARATION.match(line) and i not in boxed]
    if len(idx) < 2:
        return None
    rows = doc.rows()
    moved = [rows[i] for i in idx]
    for _ in range(5):
        rng.shuffle(moved)
        if [r[1] for r in moved] != [rows[i][1] for i in idx]:
            break
    else:
        moved.reverse()
    # all declarations go where the first one was, in the new order
    first = idx[0]
    keep = [r for i, r in enumerate(rows) if i not in set(idx)]
    pos = sum(1 for i in range(first) if i not in set(idx))
    return doc.edit(keep[:pos] + moved + keep[pos:])


def implicit_participants(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """Drop the declarations whose label is their id: Mermaid creates them where they are first used."""
    if not _safe_doc(doc):
        return None
    boxed = _box_lines(doc)
    rows, dropped = [], False
    for i, (line, o) in enumerate(doc.rows()):
        m = DECLARATION.match(line)
        if m and i not in boxed and m["label"] is None and m["kw"].lower() == "participant":
            dropped = True
            continue
        rows.append((line, o))
    return doc.edit(rows) if dropped else None


def alias_forms(doc: Doc, ctx: Context, rng: random.Random) -> Doc | None:
    """`participant X` -> `participant X as X`; `participant X as a b` -> `participant X as "a b"`."""
    def alias(line: str) -> str | None:
        m = DECLARATION.match(line)
        if not m or '"' in line:
            return None
        label = m["label"] if m["label"] is not None else m["id"]
        if " " in label:
            return f'{m["ind"]}{m["kw"]} {m["id"]} as "{label}"'
        return f'{m["ind"]}{m["kw"]} {m["id"]} as {label}' if m["label"] is None else None
    return _each_line(doc, alias)


# ---------------------------------------------------------------- decoration


def _insert_after_header(doc: Doc, new: list[str]) -> Doc | None:
    h = header_index(doc)
    if h is None:
        return None
    rows = doc.rows()
    indent = "    "
    return doc.edit(rows[:h + 1] + [(indent + n, ()) for n in new] + rows[h + 1:])


def add_autonumber(doc, ctx, rng):
    if any(line.strip().startswith("autonumber") for line in doc.lines):
        return None
    return _insert_after_header(doc, ["autonumber"])


def add_title(doc, ctx, rng):
    if any(re.match(r"^\s*title\b", line) for line in doc.lines):
        return None
    return _insert_after_header(doc, [rng.choice(["title My drawing", "title: My drawing"])])


def add_acc(doc, ctx, rng):
    if any(re.match(r"^\s*acc(Title|Descr)\b", line) for line in doc.lines):
        return None
    if rng.random() < 0.5:
        return _insert_after_header(doc, ["accTitle: My drawing", "accDescr: the sequence as I remember it"])
    return _insert_after_header(doc, ["accTitle: My drawing", "accDescr {", "    the sequence", "    as I remember it",
                                      "}"])


def add_front_matter(doc, ctx, rng):
    if doc.lines and doc.lines[0].strip() == "---":
        return None
    return doc.edit([("---", ()), ("title: My drawing", ()), ("---", ())] + doc.rows())


def add_comments(doc, ctx, rng):
    return _sprinkle(doc, rng, lambda: "    %% " + rng.choice(["check this", "todo", "as I remember it", "---"]))


def add_blank_lines(doc, ctx, rng):
    return _sprinkle(doc, rng, lambda: "")


def _sprinkle(doc, rng, extra: Callable[[], str]) -> Doc | None:
    """A line `extra()` after some of the lines from the header on."""
    h = header_index(doc)
    if h is None:
        return None
    rows = []
    for i, (line, o) in enumerate(doc.rows()):
        rows.append((line, o))
        if i >= h and rng.random() < 0.4:
            rows.append((extra(), ()))
    return doc.edit(rows)


def trailing_spaces(doc, ctx, rng):
    """Spaces and tabs at line ends. Not after `autonumber` nor after a participant's `@{...}`: Mermaid then
    reads the next line as part of it."""
    return doc.edit([(line + rng.choice(["  ", " ", "\t", "   "])
                      if line.strip() and line.strip() != "---" and not line.strip().lower().startswith("autonumber")
                      and not (DECLARATION_WORD.match(line) and line.rstrip().endswith("}"))
                      else line, o) for line, o in doc.rows()])


DECLARATION_WORD = re.compile(r"^\s*(participant|actor)\b", re.I)


def tab_indent(doc, ctx, rng):
    rows = []
    for line, o in doc.rows():
        stripped = line.lstrip(" ")
        depth = (len(line) - len(stripped)) // 4 + (1 if (len(line) - len(stripped)) % 4 else 0)
        rows.append(("\t" * depth + stripped, o))
    return doc.edit(rows)


KEYWORDS = re.compile(r"^(\s*)(participant|actor|note|rect|loop|alt|else|opt|par|and|critical|option|break|box|end|"
                      r"activate|deactivate|autonumber|title)\b", re.I)


def keyword_case(doc, ctx, rng):
    """Keywords in another case (`Participant`, `NOTE`, `End`): Mermaid's lexer ignores case."""
    rows, h = [], header_index(doc) or 0
    for i, (line, o) in enumerate(doc.rows()):
        m = KEYWORDS.match(line)
        if m and i > h:  # front matter is YAML: its `title:` key keeps its case
            kw = rng.choice([m[2].upper(), m[2].capitalize(), m[2].lower()])
            line = m[1] + kw + line[m.end():]
        rows.append((line, o))
    return doc.edit(rows)


def flush_left(doc, ctx, rng):
    return doc.edit([(line.lstrip(), o) for line, o in doc.rows()])


def crlf(doc, ctx, rng):
    return replace(doc, newline="\r\n")


def semicolons(doc, ctx, rng):
    """End statements with `;`."""
    if not _safe_doc(doc):
        return None
    return _each_line(doc, lambda line: line.rstrip() + ";"
                      if any(p.match(line) for p in STATEMENT) or DECLARATION.match(line) else None)


def join_statements(doc, ctx, rng):
    """Two consecutive messages or notes on one line, joined by `;`."""
    if not _safe_doc(doc):
        return None
    rows = doc.rows()
    out, i, changed = [], 0, False
    while i < len(rows):
        line, o = rows[i]
        if i + 1 < len(rows) and (MESSAGE.match(line) or NOTE.match(line)) and \
                (MESSAGE.match(rows[i + 1][0]) or NOTE.match(rows[i + 1][0])) and rng.random() < 0.5:
            out.append((line.rstrip() + "; " + rows[i + 1][0].strip(), o + rows[i + 1][1]))
            i += 2
            changed = True
            continue
        out.append((line, o))
        i += 1
    return doc.edit(out) if changed else None


# ---------------------------------------------------------------- arrows and activations

SAME_MEANING = {"->>": ["->", "-x"], "->": ["->>", "-x"], "-x": ["->>", "->"],
                "-->>": ["-->", "--x"], "-->": ["-->>", "--x"], "--x": ["-->>", "-->"]}


def arrows(doc, ctx, rng):
    """A call arrow for another call arrow, a reply (dashed) arrow for another (async `-)` kept)."""
    def rearrow(line: str) -> str | None:
        m = MESSAGE.match(line)
        if not m or m["arrow"] not in SAME_MEANING:
            return None
        new = rng.choice(SAME_MEANING[m["arrow"]])
        return f"{m['ind']}{m['src']}{m['s1']}{new}{m['act']}{m['s2'] or ''}{m['tgt']}{m['s3']}:{m['text']}"
    return _each_line(doc, rearrow)


def activations(doc, ctx, rng):
    """`activate`/`deactivate` around self-messages; `+`/`-` on a message and its answer as statements."""
    if not _safe_doc(doc):
        return None

    def around(line):
        m = MESSAGE.match(line)
        if m and m["act"]:
            bare = f"{m['ind']}{m['src']}{m['s1']}{m['arrow']}{m['s2']}{m['tgt']}{m['s3']}:{m['text']}"
            who = m["tgt"] if m["act"] == "+" else m["src"]
            return [], bare, [f"{m['ind']}{'activate' if m['act'] == '+' else 'deactivate'} {who}"]
        if m and m["src"] == m["tgt"] and rng.random() < 0.5:
            return [f"{m['ind']}activate {m['src']}"], line, [f"{m['ind']}deactivate {m['src']}"]
        return None
    return _around_lines(doc, around)


def plus_minus(doc, ctx, rng):
    """`A->>+B: x` with `deactivate B` after it."""
    def around(line):
        m = MESSAGE.match(line)
        if m and not m["act"] and m["src"] != m["tgt"] and m["arrow"] not in ("-)", "--)") and rng.random() < 0.5:
            return [], f"{m['ind']}{m['src']}{m['s1']}{m['arrow']}+{m['tgt']}{m['s3']}:{m['text']}", \
                [f"{m['ind']}deactivate {m['tgt']}"]
        return None
    return _around_lines(doc, around)


# ---------------------------------------------------------------- wrapping


def wrap_rect(doc, ctx, rng):
    """Everything after the declarations inside one `rect rgb(...)`."""
    start = _first_statement(doc)
    if start >= len(doc.lines):
        return None
    rows = doc.rows()
    body = [("    " + line if line.strip() else line, o) for line, o in rows[start:]]
    return doc.edit(rows[:start] + [("    rect rgb(240, 240, 255)", ())] + body + [("    end", ())])


def wrap_box(doc, ctx, rng):
    """The declared participants inside one `box`."""
    if any(BOX.match(line) for line in doc.lines) or not _safe_doc(doc):
        return None
    idx = [i for i, line in enumerate(doc.lines) if DECLARATION.match(line)]
    if not idx or idx != list(range(idx[0], idx[0] + len(idx))):
        return None
    rows = doc.rows()
    a, b = idx[0], idx[-1] + 1
    inner = [("    " + line, o) for line, o in rows[a:b]]
    return doc.edit(rows[:a] + [("    box rgb(250, 250, 250) Team", ())] + inner + [("    end", ())] + rows[b:])


def _depths(doc: Doc) -> list[int]:
    """How many blocks (and boxes) are open at each line, the line's own opening not counted."""
    out, depth = [], 0
    for line in doc.lines:
        if END.match(line):
            depth -= 1
        out.append(depth)
        if BLOCK.match(line) or BOX.match(line):
            depth += 1
    return out


def headers_to_rects(doc, ctx, rng):
    """Top-level section-header notes (`Note over S: <phase>`) as `rect` regions labelled by that note."""
    if ctx.header_lines is None:
        return None
    heads = ctx.header_lines(doc.text())
    depths = _depths(doc)
    starts = [i for i, o in enumerate(doc.origins)
              if o and o[0] in heads and depths[i] == 0 and NOTE.match(doc.lines[i])]
    if not starts:
        return None
    rows = doc.rows()
    # each region runs to the next header, else to the last line at depth 0 that closes or draws something
    last = max(i for i, line in enumerate(doc.lines) if line.strip() and depths[i] == 0 and not line.strip()
               .startswith("%%"))
    bounds = list(zip(starts, starts[1:] + [last + 1]))
    out, k = [], 0
    for i, row in enumerate(rows):
        for a, b in bounds:
            if i == b and b <= last:
                out.append(("    end", ()))
            if i == a:  # the opener and the note in it together are the header: it holds the note's line
                out.append((f"    rect rgb({200 + 10 * k}, 230, 250)", row[1]))
                k += 1
        out.append(row)
    if bounds[-1][1] == last + 1:
        out.insert(len(out) - (len(rows) - 1 - last), ("    end", ()))
    return doc.edit(out)


def note_after_message(doc, ctx, rng):
    """A Note that repeats nothing, after some messages."""
    def around(line):
        m = MESSAGE.match(line)
        if m and rng.random() < 0.3 and not m["arrow"].endswith(")"):
            return [], line, [f"{m['ind']}Note right of {m['tgt']}: see above"]
        return None
    return _around_lines(doc, around)


# ---------------------------------------------------------------- step labels


def _relabel(doc: Doc, ctx: Context, rng: random.Random, change: Callable[[str], str | None]) -> Doc | None:
    def relabel(line: str) -> str | None:
        m = MESSAGE.match(line)
        if not m or not step_label(m["text"], ctx):
            return None
        new = change(m["text"].strip())
        if new is None or new == m["text"].strip():
            return None
        return f"{m['ind']}{m['src']}{m['s1']}{m['arrow']}{m['act']}{m['s2']}{m['tgt']}{m['s3']}: {new}"
    return _each_line(doc, relabel)


STEP_WORD = re.compile(r"(?<![\w.#&])[A-Za-z][A-Za-z]+(?:[ _-][A-Za-z]+)?(?![\w(])")


def _reword(doc: Doc, ctx: Context, rng: random.Random, change: Callable[[str], str | None]) -> Doc | None:
    """Like `_relabel`, for a step name written among other words (`PostFilter 抢占`, `run Filter plugins`)."""
    def sub(w: re.Match) -> str:
        word = w.group(0)
        return (change(word) or word) if normalise(word) in ctx.step_names else word

    def reword(line: str) -> str | None:
        m = MESSAGE.match(line)
        if not m or step_label(m["text"], ctx):
            return None
        text = STEP_WORD.sub(sub, m["text"])
        return line[:m.start("text")] + text if text != m["text"] else None
    return _each_line(doc, reword)


def _form(t: str, rng: random.Random) -> str | None:
    words = _words(t)
    if len(words) < 2:
        return None
    # camelCase is an identifier's form: of ASCII words (and of words in a script without case, where it
    # is the compound written without spaces, `점수정규화`), never of `201 Created` or `admisión mutante`
    identifier = not any(w[:1].isdigit() for w in words) and not any(
        not c.isascii() and c.isupper() != c.islower() for c in t)
    kind = rng.choice(["camel", "spaced", "snake", "kebab"] if identifier else ["spaced", "snake", "kebab"])
    if kind == "camel":
        return "".join(w[:1].upper() + w[1:] for w in words)
    return {"spaced": " ", "snake": "_", "kebab": "-"}[kind].join(words)


def word_case(doc, ctx, rng):
    return _reword(doc, ctx, rng, lambda t: rng.choice([t.upper(), t.lower(), t.title()]))


def word_forms(doc, ctx, rng):
    return _reword(doc, ctx, rng, lambda t: _form(t, rng))


def _words(label: str) -> list[str]:
    spaced = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", label)
    return [w for w in re.split(r"[\s_\-]+", spaced) if w]


def label_case(doc, ctx, rng):
    return _relabel(doc, ctx, rng, lambda t: rng.choice([t.upper(), t.lower(), t.title()]))


def label_forms(doc, ctx, rng):
    return _relabel(doc, ctx, rng, lambda t: _form(t, rng))


def label_numbers(doc, ctx, rng):
    counter = iter(range(1, 1000))
    return _relabel(doc, ctx, rng, lambda t: rng.choice(
        ["{n}. {t}", "Step {n}: {t}", "{n}) {t}", "({n}) {t}", "{n}: {t}", "Step {n} - {t}", "[{n}] {t}"]).format(
        n=next(counter), t=t))


def label_detail(doc, ctx, rng):
    """A step name with what runs it in parentheses (`Filter (NodeResourcesFit)`)."""
    def detail(t: str) -> str | None:
        options = ctx.details.get(normalise(t))
        if not options:
            return None
        return rng.choice(["{t} ({d})", "{t} [{d}]", "{t}（{d}）", "{t} - {d}", "{t}: {d}"]).format(
            t=t, d=rng.choice(options))
    return _relabel(doc, ctx, rng, detail)


def label_wrappers(doc, ctx, rng):
    """A step drawn as the call that runs its plugins (`RunFilterPlugins`, `Run Filter plugins`)."""
    def wrap(t: str) -> str | None:
        if not ctx.wrappers or not ctx.details.get(normalise(t)) or not re.fullmatch(r"[A-Za-z]+", t) \
                or any(normalise(w.replace("{step}", "")) in normalise(t) for w in ctx.wrappers):
            return None  # a step's own name, not already a wrapper's call
        template = rng.choice(ctx.wrappers)
        joined = template.format(step=t)
        spaced = " ".join(_words(template.replace("{step}", " {step} "))).format(step=t)
        return rng.choice([joined, spaced, joined.lower(), spaced.lower()])
    return _relabel(doc, ctx, rng, wrap)


def label_br(doc, ctx, rng):
    return _relabel(doc, ctx, rng, lambda t: f"{t}{rng.choice(['<br>', '<br/>', '<br />'])}{ctx.filler}")


def label_entities(doc, ctx, rng):
    """Punctuation in message and note texts written as Mermaid entity codes (`#40;` for `(`)."""
    codes = {"(": "#40;", ")": "#41;", ",": "#44;", ":": "#58;", "+": "#43;"}

    def encode(line: str) -> str | None:
        m = MESSAGE.match(line) or NOTE.match(line)
        if m and any(c in m["text"] for c in codes) and "#" not in m["text"]:
            return line[:m.start("text")] + "".join(codes.get(c, c) for c in m["text"])
        return None
    return _each_line(doc, encode)


def note_placement(doc, ctx, rng):
    """A note on another side of its (first) participant (`left of` / `right of` / `over`), keyword in any case."""
    def place(line: str) -> str | None:
        m = NOTE.match(line)
        if not m:
            return None
        # a note across two participants: beside or over the first of them
        actor = m["actors"].split(",")[0].strip()
        spanned = "," in m["actors"]
        where = rng.choice([p for p in ("left of", "right of", "over") if spanned or p not in m["head"].lower()])
        return f"{m['ind']}{rng.choice(['Note', 'note', 'NOTE'])} {where} {actor}{m['s']}:{m['text']}"
    return _each_line(doc, place)


def note_span_order(doc, ctx, rng):
    """`Note over A,B` as `Note over B,A` (one note across both, either way)."""
    def swap(line: str) -> str | None:
        m = NOTE.match(line)
        if not (m and "," in m["actors"] and "over" in m["head"].lower()):
            return None
        a, b = [x.strip() for x in m["actors"].split(",")]
        return f"{m['ind']}{m['head']}{b},{a}{m['s']}:{m['text']}"
    return _each_line(doc, swap)


def inner_spaces(doc, ctx, rng):
    """Two spaces for one inside message and note texts."""
    return _respace(doc, lambda: "  ")


def _recase(doc, rng, pattern) -> Doc | None:
    def recase(line: str) -> str | None:
        m = pattern.match(line)
        if not (m and m["text"].strip()):
            return None
        return line[:m.start("text")] + rng.choice([str.upper, str.lower, str.title])(m["text"])
    return _each_line(doc, recase)


def opt_to_alt(doc, ctx, rng):
    """`opt x` as `alt x`: an alt with one branch is an opt."""
    def alt(line: str) -> str | None:
        m = re.match(r"^(\s*)opt\b(.*)$", line, re.I)
        return f"{m[1]}alt{m[2]}" if m else None
    return _each_line(doc, alt)


def block_label_case(doc, ctx, rng):
    """Block labels in another case (`opt NO NODE FITS`, `Loop Every Pod`)."""
    def recase(line: str) -> str | None:
        m = re.match(r"^(\s*(?:loop|alt|else|opt|par|and|critical|option|break|box)\b)(.*)$", line, re.I)
        if m and m[2].strip() and "rgb" not in m[2].lower():
            return m[1] + rng.choice([str.upper, str.lower, str.title])(m[2])
        return None
    return _each_line(doc, recase)


def note_case(doc, ctx, rng):
    """Whole note texts in upper, lower or title case (`NOTE OVER S: SCHEDULING CYCLE`)."""
    return _recase(doc, rng, NOTE)


def message_case(doc, ctx, rng):
    """Whole message texts in upper, lower or title case (`GO SCHED.RUNBINDINGCYCLE`, `Select Host`)."""
    return _recase(doc, rng, MESSAGE)


def label_punct(doc, ctx, rng):
    return _relabel(doc, ctx, rng, lambda t: t + rng.choice([".", "...", " !", "?", " -"]))


def label_quotes(doc, ctx, rng):
    return _relabel(doc, ctx, rng, lambda t: rng.choice(['"{t}"', "'{t}'", "«{t}»", "“{t}”"]).format(t=t))


def spacing(doc, ctx, rng):
    """Spaces around arrows and colons, or none."""
    def respace(line: str) -> str | None:
        m = MESSAGE.match(line)
        if not m:
            return None
        sp = rng.choice(["", " ", "  "])
        return (f"{m['ind']}{m['src']}{sp}{m['arrow']}{m['act']}{sp}{m['tgt']}{sp}:{rng.choice(['', ' '])}"
                f"{m['text'].lstrip()}")
    return _each_line(doc, respace)


def label_nbsp(doc, ctx, rng):
    """Look-alike spaces (no-break, narrow, figure, ideographic, thin) inside message and note texts."""
    return _respace(doc, lambda: rng.choice(["\u00a0", "\u202f", "\u2007", "\u3000", "\u2009"]))


def _respace(doc, space: Callable[[], str]) -> Doc | None:
    """Every space inside message and note texts as `space()` (one pick per line)."""
    def respace(line: str) -> str | None:
        m = MESSAGE.match(line) or NOTE.match(line)
        if not (m and " " in m["text"].strip()):
            return None
        return line[:m.start("text")] + " " + m["text"].strip().replace(" ", space())
    return _each_line(doc, respace)


def self_to_framework(doc, ctx, rng):
    """`S->>S: Step` becomes `S->>F: Step`, F a new participant named after the framework."""
    if ctx.framework_label is None or not _safe_doc(doc):
        return None
    h = header_index(doc)
    if h is None:
        return None
    (fid,) = _fresh_ids(doc, 1, "Fw")
    rows, changed = [], False
    for line, o in doc.rows():
        m = MESSAGE.match(line)
        if m and m["src"] == m["tgt"] and step_label(m["text"], ctx) and not m["act"]:
            line = f"{m['ind']}{m['src']}{m['s1']}{m['arrow']}{m['s2']}{fid}{m['s3']}:{m['text']}"
            changed = True
        rows.append((line, o))
    if not changed:
        return None
    boxed = _box_lines(doc)
    # declared last, after the other declarations (outside any box)
    decl = [i for i, line in enumerate(doc.lines) if DECLARATION.match(line) and i not in boxed]
    at = (max(decl) + 1) if decl else (max(boxed) + 1 if boxed else h + 1)
    return doc.edit(rows[:at] + [(f"    participant {fid} as {ctx.framework_label}", ())] + rows[at:])


TRANSFORMS: dict[str, Callable] = {
    "rename-ids": rename_ids,
    "ids-from-labels": ids_from_labels,
    "participant-actor": participant_actor,
    "participant-label-case": participant_label_case,
    "participant-label-forms": participant_label_forms,
    "reorder-declarations": reorder_declarations,
    "implicit-participants": implicit_participants,
    "alias-forms": alias_forms,
    "autonumber": add_autonumber,
    "title": add_title,
    "acc-title-descr": add_acc,
    "front-matter": add_front_matter,
    "comments": add_comments,
    "blank-lines": add_blank_lines,
    "trailing-spaces": trailing_spaces,
    "tabs": tab_indent,
    "crlf": crlf,
    "keyword-case": keyword_case,
    "flush-left": flush_left,
    "semicolons": semicolons,
    "join-statements": join_statements,
    "arrows": arrows,
    "activations": activations,
    "plus-minus": plus_minus,
    "wrap-rect": wrap_rect,
    "wrap-box": wrap_box,
    "note-after-message": note_after_message,
    "headers-to-rects": headers_to_rects,
    "label-case": label_case,
    "label-forms": label_forms,
    "word-case": word_case,
    "word-forms": word_forms,
    "label-numbers": label_numbers,
    "label-detail": label_detail,
    "label-br": label_br,
    "label-wrappers": label_wrappers,
    "label-entities": label_entities,
    "label-nbsp": label_nbsp,
    "note-placement": note_placement,
    "spacing": spacing,
    "note-span-order": note_span_order,
    "inner-spaces": inner_spaces,
    "label-punct": label_punct,
    "note-case": note_case,
    "opt-alt": opt_to_alt,
    "block-label-case": block_label_case,
    "message-case": message_case,
    "label-quotes": label_quotes,
    "self-to-framework": self_to_framework,
}


def apply_chain(doc: Doc, names: list[str], ctx: Context, rng: random.Random) -> tuple[Doc, list[str]]:
    """Apply the named transformations in turn; those that do not apply are skipped (and not listed)."""
    applied = []
    for name in names:
        out = TRANSFORMS[name](doc, ctx, rng)
        if out is not None:
            doc, applied = out, applied + [name]
    return doc, applied

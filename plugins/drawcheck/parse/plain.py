"""One pass for plain files: the common case, read straight into the model.

Most learner files are plain statement lines (messages, declarations, notes,
activations, blocks, boxes), perhaps with whole-line `%%` comments. For such a file
`read_plain` reads each line with the lexer's whole-line forms (PLAIN_LINE, the
forms of FAST_LINE, which the lexer proves equal to Mermaid's rule-by-rule reading)
and builds the Diagram at once, replaying the parser's database rules inline: no
token list, no second pass. A message line whose head (its part before the `:`)
an earlier line of the file had is read without the regex.

It returns None as soon as anything needs the full pipeline: preprocessing that
would change the text, a `;`, a line PLAIN_LINE does not read, or anything that
would be an error. The full parser then reads the file and reports it. (A name that
starts with a keyword, such as `end user`, is such a case.)
tests/parse/test_plain_reader.py proves the two give equal Diagrams.
"""

from __future__ import annotations

import re

from drawcheck.parse.grammar import BRANCH_KEYWORDS, BRANCH_OF, MAX_DEPTH, parse_box_data
from drawcheck.parse.jsregex import FLAGS, JS_WS_CHARS, WS_NO_NL
from drawcheck.parse.lexer import AS_AHEAD, KEYWORD_START, PLACEMENTS, PLAIN_LINE, kept_text, parse_message
from drawcheck.parse.model import Activation, Autonumber, Block, Box, Branch, Diagram, Participant, new_message, new_note
from drawcheck.parse.preprocess import C4_DETECTOR, decode_entities

HEADER = "sequenceDiagram\n"
_GROUP = PLAIN_LINE.groupindex
_MESSAGE = tuple(_GROUP[n] for n in ("a", "arrow", "mod", "b", "MSG"))  # the text: each form's last group
_NOTE = tuple(_GROUP[n] for n in ("place", "n1", "n2", "NOTE"))
_BLOCK = (_GROUP["blk"], _GROUP["blabel"])
_DECLARE_AS = (_GROUP["pkw"], _GROUP["pn"], _GROUP["PART_AS"])
_DECLARE = (_GROUP["pkw"], _GROUP["PART"])
_ACTIVATE = (_GROUP["akw"], _GROUP["ACT"])
_END = _GROUP["END"]
# Names seen not to start with a keyword, shared by every file read (a class reuses its participant names).
_PLAIN_NAMES: set[str] = set()
MAX_PLAIN_NAMES = 50_000


def clear_name_memo() -> None:
    """Forget every remembered name: a cold start, for benchmarks and tests."""
    _PLAIN_NAMES.clear()


# `box LABEL` alone on its line, read as the lexer's LINE state reads it (no `;` or `#`: those end the text).
BOX_LINE = re.compile(r"[ \t]*+(?i:box)(?![A-Za-z0-9_])(?:" + WS_NO_NL + r"++([^#\n;]*+))?\Z", FLAGS)


def changed_by_preprocessing(raw: str) -> bool:
    """Would Mermaid's preprocessing change more than whole-line `%%` comments? (Entity codes, CR, directives,
    tag attributes, line separators, a C4 keyword: the full pipeline handles those.)"""
    return ("#" in raw or "\r" in raw or "%%{" in raw or "\u2028" in raw or "\u2029" in raw
            or ("<" in raw and '="' in raw) or ("C4" in raw and C4_DETECTOR.search(raw) is not None))


def _is_comment(stripped: str) -> bool:
    """A whole-line comment that Mermaid's preprocessing deletes (`%%` and at least one more character)."""
    return stripped.startswith("%%") and len(stripped) > 2


def _alias_follows(lines: list[str], start: int) -> bool:
    """Is the next statement line `as ...`? Mermaid then reads it as the alias of the declaration before it."""
    for k in range(start, len(lines)):
        stripped = lines[k].lstrip(JS_WS_CHARS)
        if stripped and not _is_comment(stripped):
            return AS_AHEAD.match("\n" + stripped + "\n") is not None
    return False


def read_plain(raw: str) -> Diagram | None:
    """The Diagram of a plain, valid file, equal to what the full parser makes of it; None for anything else.

    One loop on purpose: this is the hot path of every build, and a function call per line would cost a good
    share of its time."""
    if not raw.startswith(HEADER) or changed_by_preprocessing(raw) or ";" in raw:
        return None  # (a `;` ends a statement mid-line: PLAIN_LINE reads lines without `#` or `;`)
    lines = raw.split("\n")
    # Without `wrap:` or the stand-ins of entity codes, a text is kept as written, only trimmed.
    rewrites_text = "wrap:" in raw or "\ufb02" in raw or "\u00b6" in raw
    d = Diagram(header_line=1)
    actors: dict[str, Participant] = {}
    box_of: dict[str, Box] = {}
    active: dict[str, int] = {}
    open_blocks: list[tuple[Block, list]] = []  # each open block, with the statement list it sits in
    box: Box | None = None  # the open `box`, which holds only declarations
    out = d.statements
    match = PLAIN_LINE.match
    plain_names = _PLAIN_NAMES  # names known not to start with a keyword, from every file read
    if len(plain_names) > MAX_PLAIN_NAMES:
        plain_names.clear()
    used: set[str] = set()  # names of messages and notes in this file, checked and declared
    new_participant = Participant

    def declare(pid: str, label: str | None, kind: str | None, line: int) -> bool:
        """Mermaid's database adding or updating a participant; False where it reports an error."""
        old = actors.get(pid)
        if old is None:
            p = actors[pid] = new_participant(pid, pid if label is None else label, kind or "participant", line)
            d.participants.append(p)
            if box is not None:
                p.box = box.label
                box.participants.append(pid)
                box_of[pid] = box
            return True
        if box is not None:
            old_box = box_of.get(pid)
            if old_box is None:
                old.box = box.label
                box_of[pid] = box
            elif old_box is not box:
                return False  # a participant can be in only one box
        if label is not None:  # a later declaration relabels the participant
            old.label, old.kind, old.metadata = label, kind, {}
        return True

    def admit(names: tuple[str, ...], line: int) -> bool:
        """The names of a message or note, where one is new in this file: each must not start with a keyword
        (False: the full pipeline reads such a file), and is declared if it is not yet."""
        for name in names:
            if name not in used:
                if name not in plain_names:
                    if KEYWORD_START.match(name):
                        return False
                    plain_names.add(name)
                if name not in actors:
                    declare(name, None, None, line)
                used.add(name)
        return True

    heads: dict[str, tuple[str, str, str, str]] = {}  # message line's part before its `:` -> source, arrow, mod, target
    for n, line in enumerate(lines[1:], 2):  # n: the line's number
        head, colon, text = line.partition(":")
        message = heads.get(head) if colon else None
        if message is not None:  # an earlier line had this head (a message's part before its `:`): no regex needed
            form = "MSG"
            text = text.strip(JS_WS_CHARS)
        elif (m := match(line)) is not None:
            form = m.lastgroup
        else:
            stripped = line.lstrip(" \t")
            if not stripped:
                continue
            if _is_comment(stripped):
                d.comments.append((n, stripped))
                continue
            b = BOX_LINE.match(line)
            if b is None or box is not None:
                return None
            label, color = parse_box_data(decode_entities(b.group(1) or ""))
            box = Box(label, color, n, n)
            d.boxes.append(box)
            continue
        if box is not None:  # inside a box: declarations and its `end` only
            if form == "END" and m.group(_END).lower() == "end":
                box.end_line = n
                box = None
                continue
            if form != "PART" and form != "PART_AS":
                return None
        if form == "MSG":
            if message is None:
                source, arrow, mod, target, text = m.group(*_MESSAGE)
                heads[head] = source, arrow, mod, target
            else:
                source, arrow, mod, target = message
            if (source not in used or target not in used) and not admit((source, target), n):
                return None
            if mod == "+":
                active[target] = active.get(target, 0) + 1
            elif mod:
                if active.get(source, 0) < 1:
                    return None
                active[source] -= 1
            if rewrites_text:
                text = kept_text(text)
            out.append(new_message((source, target, text, arrow, n, mod == "+", mod == "-", False, False)))
        elif form == "NOTE":
            place, first, second, text = m.group(*_NOTE)
            token_type, placement = PLACEMENTS[place.lower()]
            if second is not None and token_type != "over":
                return None
            names = (first,) if second is None else (first, second)
            if (first not in used or names[-1] not in used) and not admit(names, n):
                return None
            out.append(new_note((placement, names, kept_text(text) if rewrites_text else text, n)))
        elif form == "BLOCK":
            keyword, label = m.group(*_BLOCK)
            kind = keyword.lower()
            if not label:
                label = ""
            elif rewrites_text:
                label = decode_entities(parse_message(label))
            if kind in BRANCH_KEYWORDS:
                if not open_blocks or BRANCH_OF.get(open_blocks[-1][0].kind) != kind:
                    return None
                branch = Branch(kind, label, n)
                open_blocks[-1][0].branches.append(branch)
            else:
                if len(open_blocks) >= MAX_DEPTH:
                    return None
                branch = Branch(kind, label, n)
                block = Block(kind, label, n, n, [branch])
                out.append(block)
                open_blocks.append((block, out))
            out = branch.statements
        elif form == "END":
            if m.group(_END).lower() == "autonumber":
                out.append(Autonumber(n))
            elif not open_blocks:
                return None
            else:
                block, out = open_blocks.pop()
                block.end_line = n
        elif form == "PART_AS":
            keyword, pid, label = m.group(*_DECLARE_AS)
            kind = "participant" if keyword.lower() == "participant" else "actor"
            if rewrites_text:
                label = decode_entities(parse_message(label))
            if not declare(pid, label, kind, n):
                return None
        elif _alias_follows(lines, n):
            return None
        elif form == "PART":
            keyword, pid = m.group(*_DECLARE)
            if not declare(pid, None, "participant" if keyword.lower() == "participant" else "actor", n):
                return None
        else:  # ACT
            keyword, actor = m.group(*_ACTIVATE)
            if keyword.lower() == "activate":
                active[actor] = active.get(actor, 0) + 1
                out.append(Activation(actor, True, n))
            elif active.get(actor, 0) < 1:
                return None
            else:
                active[actor] -= 1
                out.append(Activation(actor, False, n))
    if open_blocks or box is not None:
        return None
    return d

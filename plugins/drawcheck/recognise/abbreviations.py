"""An abbreviation key: a note, a title or `%%` comments that say what the drawing's short names stand for.

`Note over A,B: short names: PS = PreSow, H = Harvest` makes every `PS` and `H` of the drawing read as `PreSow`
and `Harvest`, and the key itself draws nothing (a key, like a colour legend: recognise/legend.py). An entry is a
short name, then what it stands for: after `=`, `:`, `→`, `means` (`PS: PreSow`), or after a space alone
(`ps PreSow`); entries are parted by commas, semicolons, `<br>`, `·`, `•` or `|`, or written one after another
(`PS=PreSow H=Harvest`). A short name in brackets may stand for a phase (`[FP]: first phase`).
"""

from __future__ import annotations

import dataclasses
import re

from drawcheck.parse.model import Block, Diagram, Message, Note
from drawcheck.recognise.legend import note_parts

_SHORT = r"(?P<short>\[[A-Za-z][A-Za-z0-9]{0,5}\]|[A-Za-z][A-Za-z0-9]{0,5})"
_SAID = re.compile(r"(?<![\w\[])" + _SHORT + r"\s*(?::=|=|→|->|⇒|:|\bmeans\b|\bstands for\b)\s*")
_SPACED = re.compile(r"(?<![\w\[])" + _SHORT + r"\s+")
_MORE_PARTS = re.compile(r"(?<!\s)(?:\s*+[·•|]\s*+|\s++(?=[A-Za-z][A-Za-z0-9]{0,5}=))")  # beyond commas, semicolons,
# `<br>`; a space run is tried from its start only (linear)
MIN_ENTRIES = 2  # one `x = y` is a remark; a key gives two short names at least
MAX_ENTRY = 80  # characters: an entry is a short name and a name; a longer part is a sentence
MAX_WORDS = 6  # and so in words (`key: PS = PreSow (per bed)`)
LONGEST = 48  # characters a short name may stand for: a name of a few words
WRITTEN_OUT = 10_000  # characters the written-out names may add to the drawing's texts in all (a key's names written
# out hundreds of times); past that, a text keeps its short names. Without a bound the texts grew with the square of
# the file (`X = <20,000 characters>` and 15,000 `X`s: 1.1 GB, 25 s), and 24-fold with LONGEST alone (15 s)


def _entry(part: str, names) -> tuple[str, str] | None:
    """(short name, what it stands for) of one part of a key: the first short name, written with what it says
    or before a space, that names nothing itself and is followed by one name alone (and what brackets add) that it
    shortens."""
    for pattern in (_SAID, _SPACED):
        for m in pattern.finditer(part):
            long = part[m.end():].strip()
            short = m.group("short")
            if not long or len(long) > LONGEST or not _shortens(short.strip("[]"), long) \
                    or not names.may_start_a_name(long):
                continue
            found = names.find(long, spelling=False)
            if found and found[0].start == 0 and found[0].end == len(long.split("(")[0].rstrip()) \
                    and found[0].kind in ("step", "cycle") and not names.find(short.strip("[]"), spelling=False):
                return short, f"[{long}]" if short.startswith("[") else long  # a tag stays a tag
    return None


def _shortens(short: str, long: str) -> bool:
    """Are `short`'s letters `long`'s, in order, from its first (`psw` of PreSow; not `is` of `assumed`)?"""
    rest = long.lower()
    if not rest.startswith(short[0].lower()):
        return False
    for ch in short.lower():
        at = rest.find(ch)
        if at < 0:
            return False
        rest = rest[at + 1:]
    return True


def _entries(text: str, names) -> dict[str, str]:
    entries = {}
    for piece in note_parts(text):
        for part in _MORE_PARTS.split(piece):
            entry = _entry(part, names) if part and len(part) <= MAX_ENTRY and len(part.split()) <= MAX_WORDS else None
            if entry is not None:
                entries.setdefault(*entry)
    return entries


def find_key(diagram: Diagram, names) -> tuple[Note | None, dict[str, str]] | None:
    """The first text that gives two short names or more, each for a step's or a phase's name (and none of them a name the exercise knows already): a note at the top level, else the title or the
    accessible description, else the `%%` comments read together; with {short name: what it stands for}. The
    note is None when the key is no note."""
    for s in diagram.statements:
        if isinstance(s, Note):
            entries = _entries(s.text or "", names)
            if len(entries) >= MIN_ENTRIES:
                return s, entries
    comments = "<br>".join(text for _line, text in diagram.comments)
    for text in (diagram.title, diagram.acc_descr, comments):
        entries = _entries(text or "", names)
        if len(entries) >= MIN_ENTRIES:
            return None, entries
    return None


def with_abbreviations(diagram: Diagram, names) -> Diagram:
    """The diagram as its abbreviation key reads it: each short name, as a whole word, written out (while the texts
    grow by WRITTEN_OUT characters at most), and a key note gone. Without a key, the diagram itself."""
    key = find_key(diagram, names)
    if key is None:
        return diagram
    note, entries = key
    short = re.compile(r"(?<![A-Za-z0-9_])(?:" + "|".join(map(re.escape, sorted(entries, key=len, reverse=True)))
                       + r")(?![A-Za-z0-9_])")

    room = [WRITTEN_OUT]  # characters the texts may still grow by

    def expand(text: str | None) -> str | None:
        if not text or not room[0]:
            return text
        written = short.sub(lambda m: entries[m.group()], text)
        if len(written) - len(text) > room[0]:
            room[0] = 0
            return text
        room[0] -= len(written) - len(text)
        return written

    return dataclasses.replace(diagram, statements=_expanded(diagram.statements, note, expand))


def _expanded(statements, key: Note | None, expand) -> list:
    out = []
    for s in statements:
        if s is key:
            continue
        if isinstance(s, (Message, Note)):
            s = dataclasses.replace(s, text=expand(s.text))
        elif isinstance(s, Block):
            s = dataclasses.replace(s, label=expand(s.label), branches=[
                dataclasses.replace(b, label=expand(b.label), statements=_expanded(b.statements, key, expand))
                for b in s.branches])
        out.append(s)
    return out

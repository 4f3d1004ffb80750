"""An abbreviation key: a note that says what the drawing's short names stand for.

`Note over A,B: short names: PS = PreSow, H = Harvest` makes every `PS` and `H` of the drawing read as `PreSow`
and `Harvest`, and the key itself draws nothing (a key, like a colour legend: recognise/legend.py).
"""

from __future__ import annotations

import dataclasses
import re

from drawcheck.parse.model import Block, Diagram, Message, Note
from drawcheck.recognise.legend import note_parts

_SAYS_WHAT = re.compile(r"=|→|->|\bmeans\b|\bstands for\b")
_ENTRY = re.compile(r"\s*(?:[^:=]*:\s*)?(?P<short>[A-Za-z][A-Za-z0-9]{0,5})\s*(?::=|=|→|->|\bmeans\b|\bstands for\b)"
                    r"\s*(?P<long>.*\S)")
MIN_ENTRIES = 2  # one `x = y` is a remark; a key gives two short names at least
LONGEST = 48  # characters a short name may stand for: a name of a few words
WRITTEN_OUT = 10_000  # characters the written-out names may add to the drawing's texts in all (a key's names written
# out hundreds of times); past that, a text keeps its short names. Without a bound the texts grew with the square of
# the file (`X = <20,000 characters>` and 15,000 `X`s: 1.1 GB, 25 s), and 24-fold with LONGEST alone (15 s)


def find_key(statements, names) -> tuple[Note, dict[str, str]] | None:
    """The first note at the top level that gives two short names or more, each for words that name a step (at
    most LONGEST characters; none of them a name the exercise knows already); with {short name: what it stands
    for}."""
    for s in statements:
        if not isinstance(s, Note) or not _SAYS_WHAT.search(s.text or ""):
            continue
        entries = {}
        for part in note_parts(s.text):
            m = _ENTRY.match(part)
            if m is None or len(m.group("long")) > LONGEST:
                continue
            if any(n.kind == "step" for n in names.find(m.group("long"), spelling=False)) \
                    and not names.find(m.group("short"), spelling=False):
                entries[m.group("short")] = m.group("long")
        if len(entries) >= MIN_ENTRIES:
            return s, entries
    return None


def with_abbreviations(diagram: Diagram, names) -> Diagram:
    """The diagram as its abbreviation key reads it: each short name, as a whole word, written out (while the texts
    grow by WRITTEN_OUT characters at most), and the key gone. Without a key, the diagram itself."""
    key = find_key(diagram.statements, names)
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


def _expanded(statements, key: Note, expand) -> list:
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

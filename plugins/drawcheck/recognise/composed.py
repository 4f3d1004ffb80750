"""Learner text in one Unicode form: letters typed as a base and combining marks (NFD, as some keyboards and
macOS file names write `ệ`) read like the composed letters the exercise's words are written in (NFC)."""

from __future__ import annotations

import dataclasses
import unicodedata

from drawcheck.parse.model import Block, Diagram, Message, Note


MAX_MARKS = 30
"""Marks in a row a text may carry and still be composed (Unicode's stream-safe format, UAX #15, allows 30 on one
letter). CPython sorts a run of marks into canonical order by insertion, in one call no time budget can stop: square
in the run (48,000 marks, highest class first, took 5.7 s). A text with a longer run is read as written."""


def _nfc(text: str | None) -> str | None:
    if text is None or text.isascii() or unicodedata.is_normalized("NFC", text) or _too_many_marks(text):
        return text
    return unicodedata.normalize("NFC", text)


def _too_many_marks(text: str) -> bool:
    """More than MAX_MARKS combining marks in a row? (Every character of a combining class above 0, or whose
    decomposition starts with one, is of general category M: a test checks it of Python's Unicode data.)"""
    run = 0
    for ch in text:
        if ch.isascii() or not unicodedata.category(ch).startswith("M"):
            run = 0
        else:
            run += 1
            if run > MAX_MARKS:
                return True
    return False


def _texts(diagram: Diagram):
    yield from (p.label for p in diagram.participants)
    yield from (p.box for p in diagram.participants)
    yield from (text for _line, text in diagram.comments)
    for s, _chain in diagram.walk():
        if isinstance(s, (Message, Note)):
            yield s.text
        elif isinstance(s, Block):
            yield s.label
            yield from (b.label for b in s.branches)


def composed(diagram: Diagram) -> Diagram:
    """The diagram with every text recognition reads in composed form (the diagram itself when it is already)."""
    source = diagram.source_lines  # what the texts were read from: composed there, composed everywhere
    if (source and all(line.isascii() or unicodedata.is_normalized("NFC", line) for line in source)) or all(
            t is None or t.isascii() or unicodedata.is_normalized("NFC", t) for t in _texts(diagram)):
        return diagram
    return dataclasses.replace(
        diagram, statements=_composed(diagram.statements),
        participants=[dataclasses.replace(p, label=_nfc(p.label), box=_nfc(p.box)) for p in diagram.participants],
        comments=[(line, _nfc(text)) for line, text in diagram.comments])


def _composed(statements) -> list:
    out = []
    for s in statements:
        if isinstance(s, (Message, Note)):
            s = dataclasses.replace(s, text=_nfc(s.text))
        elif isinstance(s, Block):
            s = dataclasses.replace(s, label=_nfc(s.label), branches=[
                dataclasses.replace(b, label=_nfc(b.label), statements=_composed(b.statements)) for b in s.branches])
        out.append(s)
    return out

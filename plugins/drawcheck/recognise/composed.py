"""Learner text in one Unicode form: letters typed as a base and combining marks (NFD, as some keyboards and
macOS file names write `ệ`) read like the composed letters the exercise's words are written in (NFC)."""

from __future__ import annotations

import dataclasses
import unicodedata

from drawcheck.parse.model import Block, Diagram, Message, Note


def _nfc(text: str | None) -> str | None:
    return text if text is None or text.isascii() else unicodedata.normalize("NFC", text)


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

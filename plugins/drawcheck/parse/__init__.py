"""parse: Mermaid sequenceDiagram text -> typed model with lines.

`parse_text`, `parse_bytes` and `parse_file` never raise on bad input: every
problem becomes a ParseError in `Diagram.errors` (empty exactly when Mermaid
12.3.0 would accept the file).
"""

from __future__ import annotations

import os

from drawcheck.parse.model import (  # noqa: F401
    Activation, Autonumber, Block, Box, Branch, Diagram, Directive, Link, Message, Note,
    ParseError, Participant, Statement,
)
from drawcheck.parse.parser import parse_source

__all__ = [
    "parse_text", "parse_bytes", "parse_file", "Activation", "Autonumber", "Block", "Box", "Branch", "Diagram",
    "Directive", "Link", "Message", "Note", "ParseError", "Participant", "Statement",
]


def parse_text(text: str) -> Diagram:
    """Parse Mermaid sequenceDiagram text the way Mermaid 12.3.0 reads it."""
    return parse_source(text)


def parse_bytes(data: bytes) -> Diagram:
    """Parse raw file bytes; bytes that are not UTF-8 give a ParseError naming the line."""
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - (data.rfind(b"\n", 0, exc.start) + 1) + 1
        d = Diagram()
        d.errors.append(ParseError(
            line=line, column=column, message="the file is not UTF-8 text (byte 0x%02x cannot be read)" % data[exc.start],
            hint="save the file as UTF-8 in your editor"))
        return d
    return parse_text(text)


def parse_file(path: str | os.PathLike) -> Diagram:
    """Read and parse a file; an unreadable file gives a ParseError, not an exception."""
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        d = Diagram()
        d.errors.append(ParseError(line=1, column=1, message="cannot read the file: %s" % (exc.strerror or exc)))
        return d
    return parse_bytes(data)

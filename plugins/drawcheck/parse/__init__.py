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
from drawcheck.parse.parser import MAX_CHARS, MAX_LINES, parse_source

__all__ = [
    "parse_text", "parse_bytes", "parse_file", "Activation", "Autonumber", "Block", "Box", "Branch", "Diagram",
    "Directive", "Link", "Message", "Note", "ParseError", "Participant", "Statement", "MAX_CHARS", "MAX_LINES",
]


def parse_text(text: str, *, max_chars: int = MAX_CHARS, max_lines: int = MAX_LINES) -> Diagram:
    """Parse Mermaid sequenceDiagram text the way Mermaid 12.3.0 reads it.

    A text over `max_chars` characters or `max_lines` lines is not read: one ParseError on line 1 names the limit.
    """
    return parse_source(text, max_chars=max_chars, max_lines=max_lines)


def parse_bytes(data: bytes, *, max_bytes: int = MAX_CHARS, max_lines: int = MAX_LINES) -> Diagram:
    """Parse raw file bytes; bytes that are not UTF-8 give a ParseError naming the line."""
    if len(data) > max_bytes:
        d = Diagram()
        d.errors.append(ParseError(
            line=1, column=1, message="the file has %d bytes, more than the %d drawcheck reads; it was not read"
            % (len(data), max_bytes), expected="at most %d bytes" % max_bytes, found="%d bytes" % len(data),
            hint="keep only your diagram: the exercise needs a few dozen lines"))
        return d
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
    return parse_text(text, max_chars=max_bytes, max_lines=max_lines)


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

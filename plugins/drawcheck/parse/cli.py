"""`drawcheck parse FILE...`: print what Mermaid would read from each file.

`--format json` (default) prints one JSON object per file per line; `--format text`
prints `file:line:column: message` for each error, or `file: ok (...)`.
Exit status: 0 when every file is valid, 2 when any is invalid or unreadable.
"""

from __future__ import annotations

import argparse
import json
import sys

from drawcheck.parse import parse_file
from drawcheck.parse.model import Block, Diagram, Message, Note


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="Mermaid sequenceDiagram files (.mmd)")
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: one object per file per line (default); text: readable errors")


def diagram_json(file: str, d: Diagram) -> dict:
    messages, notes, blocks = [], [], []
    for statement, _chain in d.walk():
        if isinstance(statement, Message):
            messages.append({"from": statement.source, "to": statement.target, "text": statement.text,
                             "arrow": statement.arrow, "line": statement.line})
        elif isinstance(statement, Note):
            notes.append({"placement": statement.placement, "actors": list(statement.actors),
                          "text": statement.text, "line": statement.line})
        elif isinstance(statement, Block):
            blocks.append({"kind": statement.kind, "label": statement.label, "line": statement.line,
                           "end_line": statement.end_line})
    return {
        "file": file,
        "valid": d.valid,
        "errors": [{"line": e.line, "column": e.column, "message": e.message, "expected": e.expected,
                    "found": e.found, "hint": e.hint} for e in d.errors],
        "participants": [{"id": p.id, "label": p.label, "kind": p.kind, "line": p.line} for p in d.participants],
        "messages": messages,
        "notes": notes,
        "blocks": blocks,
    }


def _text_report(file: str, d: Diagram) -> str:
    if d.valid:
        data = diagram_json(file, d)
        return "%s: ok (%d participants, %d messages, %d notes, %d blocks)" % (
            file, len(data["participants"]), len(data["messages"]), len(data["notes"]), len(data["blocks"]))
    lines = []
    for e in d.errors:
        line = "%s:%d:%d: %s" % (file, e.line, e.column, e.message)
        if e.hint:
            line += "\n    hint: " + e.hint
        lines.append(line)
    return "\n".join(lines)


def run(args: argparse.Namespace) -> int:
    status = 0
    out = sys.stdout
    for file in args.files:
        d = parse_file(file)
        if not d.valid:
            status = 2
        if args.format == "json":
            out.write(json.dumps(diagram_json(file, d), ensure_ascii=False) + "\n")
        else:
            out.write(_text_report(file, d) + "\n")
    return status


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="drawcheck parse")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

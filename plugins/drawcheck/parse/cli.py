"""`drawcheck parse FILE...`: print what Mermaid would read from each file.

`--format json` (default) prints one JSON object per file per line; `--format text`
prints `file:line:column: message` for each error, or `file: ok (...)`.
Exit status: 0 when every file is valid, 2 when any is invalid or unreadable.
"""

from __future__ import annotations

import argparse
import json
import sys

from drawcheck.parse import parse_text
from drawcheck.parse.model import Block, Diagram, Message, Note


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="Mermaid sequenceDiagram files (.mmd)")
    parser.add_argument("--format", choices=("json", "text"), default="json",
                        help="json: one object per file per line (default); text: readable errors")
    from drawcheck.grade.cli import add_limit_arguments

    add_limit_arguments(parser)


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
    from drawcheck.report.json_report import log_safe_json
    from drawcheck.safety import display_name, log_text

    for path in args.files:
        file = display_name(path)
        d, problem = _parse_within_limits(path, file, args)
        if problem is not None:
            status = 2
            if args.format == "json":
                out.write(log_safe_json(json.dumps({"file": file, "valid": False, "errors": [
                    {"line": problem[0], "column": 1, "message": problem[1], "expected": [], "found": None,
                     "hint": None}]}, ensure_ascii=False)) + "\n")
            else:
                out.write(log_text(f"{file}:{problem[0]}:1: {problem[1]}", max_chars=None) + "\n")
            continue
        if not d.valid:
            status = 2
        if args.format == "json":
            out.write(log_safe_json(json.dumps(diagram_json(file, d), ensure_ascii=False)) + "\n")
        else:
            out.write("\n".join(log_text(line, max_chars=None) for line in _text_report(file, d).split("\n")) + "\n")
    return status


def _parse_within_limits(path: str, file: str, args: argparse.Namespace):
    """(diagram, None), or (None, (line, message)) for a file refused by the site's limits or that failed."""
    from drawcheck.intake import TimeBudgetExceeded, read_answer, time_budget

    text, error = read_answer(path, max_bytes=args.max_bytes, max_lines=args.max_lines, label=file)
    if error is not None:
        return None, (error.line, error.message)
    try:
        with time_budget(args.max_seconds):
            return parse_text(text), None
    except TimeBudgetExceeded:
        return None, (1, f"parsing this file took longer than {args.max_seconds:g} s, so it was stopped")
    except RecursionError:
        return None, (1, "this drawing is nested too deeply to read; use fewer blocks inside blocks")
    except Exception as exc:  # noqa: BLE001 - never a traceback
        return None, (1, f"drawcheck could not parse this file ({type(exc).__name__}); please report it")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="drawcheck parse")
    add_arguments(parser)
    return run(parser.parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())

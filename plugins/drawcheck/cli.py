"""`drawcheck` command line: `drawcheck parse FILE...` and `drawcheck check FILE...`.

Each subcommand lives next to the stage it exposes; this file only dispatches.
"""

from __future__ import annotations

import argparse
import sys
from importlib import import_module

SUBCOMMANDS = {
    "parse": ("drawcheck.parse.cli", "Parse Mermaid sequenceDiagram files and print what Mermaid would read."),
    "check": ("drawcheck.grade.cli", "Check drawings against the exercise reference and list every correction."),
    "pr-check": ("drawcheck.report.pr_check", "Check the answer files a pull request adds or changes (CI, pre-commit)."),
}


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The whole command line; with `command`, only that subcommand's module is imported (its options)."""
    parser = argparse.ArgumentParser(prog="drawcheck", description="Draw a protocol from memory, then get it checked.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{parse,check}")
    for name, (module, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        if command is None or name == command:
            import_module(module).add_arguments(sp)
        sp.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    """Run one subcommand; any input gives a clear message and an exit status, never a traceback."""
    for stream in (sys.stdout, sys.stderr):
        if hasattr(stream, "reconfigure"):
            stream.reconfigure(errors="replace")  # a file name that is not UTF-8 must not stop the output
    words = sys.argv[1:] if argv is None else argv
    args = build_parser(words[0] if words and words[0] in SUBCOMMANDS else None).parse_args(argv)
    try:
        return import_module(args._module).run(args)
    except KeyboardInterrupt:
        print("drawcheck: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 1
    except Exception as exc:  # noqa: BLE001 - an internal error still gets one line, not a traceback
        print(f"drawcheck: internal error ({type(exc).__name__}); please report it with the files you checked",
              file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())

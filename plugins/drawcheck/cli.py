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


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="drawcheck", description="Draw a protocol from memory, then get it checked.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="{parse,check}")
    for name, (module, help_text) in SUBCOMMANDS.items():
        sp = sub.add_parser(name, help=help_text, description=help_text)
        import_module(module).add_arguments(sp)
        sp.set_defaults(_module=module)
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return import_module(args._module).run(args)


if __name__ == "__main__":
    sys.exit(main())

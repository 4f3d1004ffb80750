"""Checks on the plugin's options that types alone cannot express; errors name mkdocs.yml:line."""

from __future__ import annotations

import os
import re

from mkdocs.exceptions import PluginError


def option_line(config_file: str | None, option: str) -> int:
    """Line of `option:` in mkdocs.yml (else of `- drawcheck`, else 1)."""
    try:
        with open(config_file or "", encoding="utf-8") as fh:
            lines = fh.read().split("\n")
    except OSError:
        return 1
    for pattern in (rf"^\s*-?\s*{re.escape(option)}\s*:", r"^\s*-\s*drawcheck\b"):
        for number, text in enumerate(lines, 1):
            if re.match(pattern, text):
                return number
    return 1


def _fail(config_file: str | None, option: str, message: str) -> PluginError:
    where = f"{config_file or 'mkdocs.yml'}:{option_line(config_file, option)}"
    return PluginError(f"drawcheck: {where}: option `{option}`: {message}")


def check_options(options, config_dir: str, config_file: str | None) -> None:
    """Raise PluginError for the first unusable option, with an example of a valid value."""
    answers = os.path.join(config_dir, options.answers_dir)
    if not os.path.isdir(answers):
        raise _fail(config_file, "answers_dir", f"folder {answers} does not exist; e.g. `answers_dir: answers`")
    feedback = options.feedback_dir.strip("/")
    if not feedback or ".." in feedback.split("/") or os.path.isabs(options.feedback_dir):
        raise _fail(config_file, "feedback_dir",
                    f"{options.feedback_dir!r} must be a folder inside docs, e.g. `feedback_dir: feedback`")
    if not 1 <= options.annotations_per_level <= 10:
        raise _fail(config_file, "annotations_per_level",
                    f"{options.annotations_per_level} is outside 1..10 (GitHub shows 10 per level per step)")
    if not 3 <= options.annotations_total <= 50:
        raise _fail(config_file, "annotations_total",
                    f"{options.annotations_total} is outside 3..50 (GitHub shows 50 per job)")
    if options.max_file_bytes < 1 or options.max_file_lines < 1:
        option = "max_file_bytes" if options.max_file_bytes < 1 else "max_file_lines"
        raise _fail(config_file, option, "must be a positive number, e.g. `max_file_lines: 2000`")

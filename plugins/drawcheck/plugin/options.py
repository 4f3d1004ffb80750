"""Checks on the plugin's options that types alone cannot express; errors name mkdocs.yml:line."""

from __future__ import annotations

import os
import re

from mkdocs.exceptions import PluginError

from drawcheck.intake import EXAMPLE_PREFIX, HANDLE_PATTERN


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


def outside_or_linked(config_dir: str, rel: str) -> str | None:
    """Why the site must not read `rel` (relative to `config_dir`): a symbolic link on the way, or outside it."""
    root = os.path.realpath(config_dir)
    path = os.path.normpath(os.path.join(config_dir, rel))
    if os.path.isabs(rel) or os.path.commonpath([os.path.abspath(path), os.path.abspath(config_dir)]) != os.path.abspath(config_dir):
        return f"{rel} is outside the repository; give a path inside it"
    current = os.path.abspath(config_dir)
    for part in os.path.relpath(path, config_dir).split(os.sep):
        current = os.path.join(current, part)
        if os.path.islink(current):
            return f"{os.path.relpath(current, config_dir)} is a symbolic link; the site reads real files only"
    if os.path.commonpath([os.path.realpath(path), root]) != root:
        return f"{rel} resolves outside the repository"
    return None


def link_inside(config_dir: str, folder: str) -> str | None:
    """Why the site must not read the reference `folder`: a symbolic link anywhere inside it."""
    for here, dirs, names in os.walk(folder):
        for name in sorted(dirs + names):
            if os.path.islink(os.path.join(here, name)):
                rel = os.path.relpath(os.path.join(here, name), config_dir).replace(os.sep, "/")
                return f"{rel} is a symbolic link; the reference data must be real files inside the repository"
    return None


def docs_link(config_dir: str, docs_dir: str) -> str | None:
    """Why the site must not be built from `docs_dir`: a symbolic link inside it.

    MkDocs follows links while it lists docs_dir, so one link to `/` would walk (and publish) the whole machine;
    this look does not follow them."""
    for here, dirs, names in os.walk(docs_dir):
        for name in sorted(dirs + names):
            if os.path.islink(os.path.join(here, name)):
                rel = os.path.relpath(os.path.join(here, name), config_dir).replace(os.sep, "/")
                return (f"{rel} is a symbolic link; the site publishes real files only: replace the link "
                        "with the file itself, or remove it")
    return None


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
    for handle in options.examples:
        if not (HANDLE_PATTERN.fullmatch(handle) and handle.lower().startswith(EXAMPLE_PREFIX)):
            raise _fail(config_file, "examples", f"{handle!r} is not an example handle; list handles such as "
                        "`example-blocking-wait` (the file is answers/example-blocking-wait.mmd)")
    if options.max_seconds_per_file < 0:
        raise _fail(config_file, "max_seconds_per_file", "must be 0 (no budget) or more, e.g. `max_seconds_per_file: 10`")
    for option, rel in (("reference", options.reference), ("answers_dir", options.answers_dir)):
        problem = outside_or_linked(config_dir, rel)
        if problem:
            raise _fail(config_file, option, problem)
    problem = link_inside(config_dir, os.path.dirname(os.path.join(config_dir, options.reference)))
    if problem:
        raise _fail(config_file, "reference", problem)
    if options.max_file_bytes < 1 or options.max_file_lines < 1:
        option = "max_file_bytes" if options.max_file_bytes < 1 else "max_file_lines"
        raise _fail(config_file, option, "must be a positive number, e.g. `max_file_lines: 2000`")

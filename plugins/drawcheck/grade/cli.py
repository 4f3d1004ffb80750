"""`drawcheck check FILE... [--format text|json|github] [--reference PATH]`.

Exit status: 0 every drawing correct, 1 some corrections, 2 invalid input
(a syntax error, an unreadable file, or bad reference data).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path

from drawcheck.grade import grade_diagram
from drawcheck.grade.model import Finding, Result
from drawcheck.intake import TimeBudgetExceeded, read_answer, time_budget
from drawcheck.reference import ReferenceError, load_reference
from drawcheck.report.github import github_annotations, job_summary
from drawcheck.report.json_report import log_safe_json, result_json
from drawcheck.report.lines import ReportLine
from drawcheck.parse import parse_text
from drawcheck.render.model import Graded
from drawcheck.report.markdown import handle_of
from drawcheck.safety import display_name, log_text

DEFAULT_REFERENCE = os.path.join("reference", "two-cycles", "exercise.yml")
_COLOURS = {"correction": "\033[31m", "hint": "\033[33m", "correct": "\033[32m", "bold": "\033[1m", "off": "\033[0m"}


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("files", nargs="+", metavar="FILE", help="Mermaid sequenceDiagram files (answers/<handle>.mmd)")
    parser.add_argument("--format", choices=("text", "json", "github", "markdown"), default="text",
                        help="text for people (default), json for tools, github for workflow annotations, "
                             "markdown for a job summary or PR comment (the drawing circled, lines linked)")
    parser.add_argument("--repo", default=None, help="markdown: owner/name the line links point into "
                        "(default: $GITHUB_REPOSITORY)")
    parser.add_argument("--sha", default=None, help="markdown: the commit the line links point at (default: $GITHUB_SHA)")
    parser.add_argument("--site-url", default=None, help="markdown: the published site, for the link to each "
                        "feedback page (default: $DRAWCHECK_SITE_URL)")
    parser.add_argument("--reference", metavar="PATH", default=None,
                        help="the exercise's reference YAML, or its folder, for every FILE (default: each file's own exercise, by its "
                             "folder answers/<exercise>/ as mkdocs.yml lists them; answers/<handle>.mmd and "
                             f"other files: {DEFAULT_REFERENCE} under the current folder, else next to the "
                             "drawcheck package)")
    add_limit_arguments(parser)


def add_limit_arguments(parser: argparse.ArgumentParser) -> None:
    """The site's intake limits (the plugin's max_file_bytes, max_file_lines, max_seconds_per_file)."""
    parser.add_argument("--max-bytes", type=int, default=262144, metavar="N",
                        help="refuse files larger than N bytes (default: 262144, as the site)")
    parser.add_argument("--max-lines", type=int, default=2000, metavar="N",
                        help="refuse files of more than N lines (default: 2000, as the site)")
    parser.add_argument("--max-seconds", type=float, default=10, metavar="S",
                        help="stop checking one file after S seconds (default: 10, as the site; 0: no limit)")


def _invalid(file: str, message: str, line: int | None = None) -> Result:
    return Result(file=file, status="invalid", score=0.0, findings=[Finding("syntax", None, line, "correction", message)])


def check_one(path: str, reference, args: argparse.Namespace) -> Graded:
    """One file under the site's limits (from `args`), as `check_file` does."""
    return check_file(path, reference, max_bytes=args.max_bytes, max_lines=args.max_lines,
                      max_seconds=args.max_seconds)


def check_file(path: str, reference, *, max_bytes: int = 262144, max_lines: int = 2000, max_seconds: float = 10,
               label: str | None = None) -> Graded:
    """One file under the site's limits, parsed once: refused, over time, crashed or graded, always a Graded."""
    name = display_name(label if label is not None else path)
    handle = handle_of(name)
    text, error = read_answer(path, max_bytes=max_bytes, max_lines=max_lines, label=name)
    if error is not None:
        return Graded(handle, name, _invalid(name, error.message, error.line))
    try:
        with time_budget(max_seconds):
            diagram = parse_text(text)
            return Graded(handle, name, grade_diagram(diagram, text, file=name, reference=reference), diagram)
    except TimeBudgetExceeded:
        return Graded(handle, name, _invalid(name, f"checking this file took longer than {max_seconds:g} s, so it was stopped; "
                              "keep only your diagram (no long runs of repeated text, no deep nesting)", 1))
    except RecursionError:
        return Graded(handle, name, _invalid(name, "this drawing is nested too deeply to check; use fewer blocks "
                                                   "inside blocks", 1))
    except Exception as exc:  # noqa: BLE001 - one file must not stop the others, and never a traceback
        return Graded(handle, name, _invalid(name, f"drawcheck could not check this file ({type(exc).__name__}); "
                                                   "please report it with the file attached"))


def default_reference(root: str | None = None) -> str:
    """The flagship's exercise YAML: under `root` (default: the current folder), else next to the package."""
    here = os.path.join(root or os.getcwd(), DEFAULT_REFERENCE)
    if os.path.exists(here):
        return here
    repo = Path(__file__).resolve().parents[3]  # plugins/drawcheck/grade/cli.py -> repo root
    return str(repo / DEFAULT_REFERENCE)


def exercise_paths(files: list[str], explicit: str | None) -> list[str]:
    """The exercise YAML each file is checked against: `--reference` for every file; else the exercise whose
    answers folder holds it (answers/<exercise>/<handle>.mmd, as its site's mkdocs.yml lists them, the same
    reading as the PR check's); else the flagship's."""
    if explicit:  # the exercise's folder (as mkdocs.yml names it) or its YAML
        path = os.path.join(explicit, "exercise.yml") if os.path.isdir(explicit) else explicit
        return [path] * len(files)
    from drawcheck.report.pr_check import answer_folders, answer_path_folder

    folders_of: dict[str, dict[str, str]] = {}  # site root -> its answer folders
    paths = []
    for f in files:
        root = _site_root(f)
        if root not in folders_of:
            folders_of[root] = answer_folders(root, default_reference(root))
        folders = folders_of[root]
        folder = answer_path_folder(Path(os.path.relpath(os.path.abspath(f), root)).as_posix())
        paths.append(folders.get(folder) or folders.get("") or default_reference(root))
    return paths


def _site_root(file: str) -> str:
    """The site a file is an answer of: the folder holding mkdocs.yml next to the file's answers/ folder (so
    the check works from any folder); else the current folder."""
    from drawcheck.report.pr_check import ANSWERS

    here = Path(os.path.abspath(file)).parent
    for folder in (here, *here.parents):
        if folder.name == ANSWERS and (folder.parent / "mkdocs.yml").is_file():
            return str(folder.parent)
    return os.getcwd()


def _load(path: str):
    """An exercise's reference data, or None after saying on stderr why it cannot be read."""
    try:
        return load_reference(path)
    except ReferenceError as exc:
        print(f"drawcheck: {log_text(str(exc), max_chars=None)}", file=sys.stderr)
    except Exception as exc:  # noqa: BLE001 - never a traceback
        print(f"drawcheck: {log_text(display_name(path), max_chars=None)}: cannot read the reference data "
              f"({type(exc).__name__})", file=sys.stderr)
    return None


def run(args: argparse.Namespace) -> int:
    paths = exercise_paths(args.files, args.reference)
    references = {path: _load(path) for path in dict.fromkeys(paths)}
    if any(r is None for r in references.values()):
        return 2
    groups: dict[str, list[Graded]] = {path: [] for path in references}  # each exercise's files, in the given order
    for f, path in zip(args.files, paths):
        groups[path].append(check_one(f, references[path], args))
    out = sys.stdout
    if args.format == "markdown":
        return markdown_run(args, [(references[p], g) for p, g in groups.items()], out)
    results = [g.result for group in groups.values() for g in group]
    if args.format == "json":
        out.write(log_safe_json(json.dumps({"results": [result_json(r) for r in results]}, indent=2, ensure_ascii=False)))
        out.write("\n")
    elif args.format == "github":
        summary = os.environ.get("GITHUB_STEP_SUMMARY")
        for path, group in groups.items():
            mine, product = [g.result for g in group], references[path].product
            for line in github_annotations(mine, product=product):
                out.write(line + "\n")
            if summary:
                with open(summary, "a", encoding="utf-8") as fh:
                    fh.write(job_summary(mine, product=product))
    else:
        colour = out.isatty() and not os.environ.get("NO_COLOR")
        for path, group in groups.items():
            for g in group:
                out.write(text_report(g.result, colour=colour, product=references[path].product))
    return exit_code(results)


def markdown_run(args: argparse.Namespace, groups: list[tuple[object, list[Graded]]], out) -> int:
    """One Markdown report per exercise among the files (a job summary or PR comment)."""
    from drawcheck.report.markdown import Links, markdown_report
    from drawcheck.report.pr_check import page_folders

    pages: dict[str, str] = {}  # where each exercise's pages are, as the files' site's mkdocs.yml sets it
    for root in dict.fromkeys(_site_root(f) for f in args.files):
        pages = {**page_folders(root), **pages}
    try:
        links = Links(repo=args.repo or os.environ.get("GITHUB_REPOSITORY", ""),
                      sha=args.sha or os.environ.get("GITHUB_SHA", ""),
                      site_url=args.site_url or os.environ.get("DRAWCHECK_SITE_URL", ""),
                      pages=tuple(pages.items()))
    except ValueError as exc:
        print(f"drawcheck: {exc}", file=sys.stderr)
        return 2
    for reference, graded in groups:
        out.write(markdown_report(graded, reference, links=links))
    return exit_code([g.result for _, graded in groups for g in graded])


def exit_code(results: list[Result]) -> int:
    if any(r.status == "invalid" for r in results):
        return 2
    return 1 if any(r.status == "corrections" for r in results) else 0


def text_report(r: Result, *, colour: bool = False, product: str = "") -> str:
    """What a learner reads: the corrections numbered as the feedback page's circles (render.circles), then
    the hints, unnumbered."""
    from drawcheck.render.circles import number_corrections

    def paint(text: str, key: str) -> str:
        return f"{_COLOURS[key]}{text}{_COLOURS['off']}" if colour else text

    n_corr = sum(1 for f in r.findings if f.severity == "correction")
    n_hint = len(r.findings) - n_corr
    status_key = "correct" if r.status == "correct" else "correction"
    head = (f"{paint(log_text(r.file, max_chars=None), 'bold')}: {paint(r.status, status_key)}, "
            f"score {r.score:.2f} ({n_corr} correction{'s' * (n_corr != 1)}, {n_hint} hint{'s' * (n_hint != 1)})")
    lines = [head]
    numbered = [(n.circle, n.finding) for n in number_corrections(r)]
    numbered_ids = {id(f) for _, f in numbered}
    hints = [("-", f) for f in r.findings if id(f) not in numbered_ids]  # hints, and errors: no number
    for mark, f in numbered + hints:
        where = f"line {f.line}" if f.line else "not drawn"
        label = paint(f"{f.severity:<10}", f.severity)
        text = log_text(f.message + ReportLine(r.file, f.line, f.kind, f.severity, f.message, f.version, product).version_note,
                        max_chars=None)
        if f.read:
            text += " (read: " + log_text(f.read) + ")"
        lines.append(f"  {mark:<4} {where:<9} {label} {text} [{f.kind}]")
    return "\n".join(lines) + "\n"

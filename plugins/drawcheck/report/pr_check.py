"""`drawcheck pr-check`: the pull-request check. Grades only the answer files the PR adds or changes.

    drawcheck pr-check --event "$GITHUB_EVENT_PATH" [--base SHA] [--head SHA] [--artifact DIR]
    drawcheck pr-check --files FILE...        (the pre-commit hook: the same check on staged files)

The changed files come from `git diff --raw base...head` and are read from git's objects at the head
commit, never by building the class, so the time does not grow with the number of answers. A submission PR
(one that touches anything under answers/) must touch only `answers/<author>.mmd` and
`answers/<author>.corrected.mmd`, or the same in an exercise's folder (`answers/<exercise>/`, as mkdocs.yml
lists the exercises; each file is graded against its own exercise), as regular files; PRs that touch no
answers are site changes, which the
workflow checks with the full `mkdocs build --strict` (this command says `mode=site` in $GITHUB_OUTPUT).

Exit status: 0 the files were graded (corrections are a passing check, with annotations); 1 a file is
invalid or unsafe, or the PR strays outside the author's own answer files; 2 bad arguments or event.
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path

from drawcheck.safety import log_text, workflow_property, workflow_text

ANSWERS = "answers"
MAX_EVENT_BYTES = 25 * 1024 * 1024  # GitHub's webhook payload cap
MAX_SUMMARY_BYTES = 1024 * 1024  # GitHub drops a step summary over 1 MiB
MAX_ANSWER_BYTES = 262144  # the site's max_file_bytes
ERROR_KINDS = ("syntax", "unsafe", "intake")
_MODES = {"100644": "file", "100755": "file", "120000": "symlink", "160000": "submodule", "040000": "folder"}


@dataclass(frozen=True, slots=True)
class PullRequest:
    """What the check needs from the event payload (`pull_request.*`)."""

    number: int
    author: str  # pull_request.user.login
    head_sha: str
    base_sha: str


@dataclass(frozen=True, slots=True)
class Change:
    """One path the PR changes, from `git diff --raw`: status A/M/D/T, the new mode and blob."""

    status: str
    path: str
    new_mode: str
    new_blob: str

    @property
    def kind(self) -> str:
        return _MODES.get(self.new_mode, "file")


class CheckError(Exception):
    """A problem with the event, the arguments or git: exit 2, one line."""


# --------------------------------------------------------------------------- the event and the diff


def pull_request_of(event_path: str) -> PullRequest:
    """The PR's number, author login and head/base commits from a `pull_request` event payload."""
    try:
        with open(event_path, "rb") as fh:
            data = fh.read(MAX_EVENT_BYTES + 1)
        event = json.loads(data)
    except (OSError, ValueError) as exc:
        raise CheckError(f"cannot read the event payload {log_text(event_path)} ({type(exc).__name__})") from None
    pr = event.get("pull_request") if isinstance(event, dict) else None
    if not isinstance(pr, dict):
        raise CheckError("the event payload has no pull_request: run this check on `pull_request` events")
    try:
        number = pr["number"] if isinstance(pr.get("number"), int) else event["number"]
        author = pr["user"]["login"]
        head, base = pr["head"]["sha"], pr["base"]["sha"]
    except (KeyError, TypeError):
        raise CheckError("the event's pull_request lacks number, user.login, head.sha or base.sha") from None
    if not (isinstance(number, int) and isinstance(author, str) and _is_sha(head) and _is_sha(base)):
        raise CheckError("the event's pull_request has a malformed number, user.login, head.sha or base.sha")
    return PullRequest(number, author, head, base)


def _is_sha(s: object) -> bool:
    return isinstance(s, str) and len(s) in (40, 64) and all(c in "0123456789abcdef" for c in s)


def _git(repo: str, *args: str) -> bytes:
    done = subprocess.run(["git", "-C", repo, *args], capture_output=True)
    if done.returncode != 0:
        err = done.stderr.decode("utf-8", "replace").strip().splitlines()
        raise CheckError(f"git {args[0]} failed: {log_text(err[-1] if err else done.returncode)}")
    return done.stdout


def changed_files(repo: str, base: str, head: str) -> list[Change]:
    """What `head` changes since its merge base with `base` (what the PR's "Files changed" shows)."""
    out = _git(repo, "diff", "--raw", "-z", "--no-renames", "--no-ext-diff", "--no-textconv", f"{base}...{head}", "--")
    fields = out.split(b"\0")
    changes = []
    for i in range(0, len(fields) - 1, 2):
        meta, raw_path = fields[i].decode("ascii", "replace"), fields[i + 1]
        parts = meta.lstrip(":").split()
        if len(parts) < 5:
            continue
        _old_mode, new_mode, _old_blob, new_blob, status = parts[:5]
        changes.append(Change(status[:1], os.fsdecode(raw_path), new_mode, new_blob))
    return changes


# --------------------------------------------------------------------------- the submission rules


def is_submission(changes: list[Change]) -> bool:
    return any(c.path == ANSWERS or c.path.startswith(ANSWERS + "/") for c in changes)


def answer_folders(repo_root: str, default_reference: str) -> dict[str, str]:
    """Each exercise's folder under answers/ ("" for answers/ itself, the flagship's) -> its exercise YAML,
    as the repository's mkdocs.yml lists them (read as YAML, no tag run; a submission cannot change it)."""
    import yaml

    from drawcheck.plugin.exercises import EXERCISE_FILE, mapping_get, plugin_options_node

    entries = mapping_get(plugin_options_node(os.path.join(repo_root, "mkdocs.yml")), "exercises")
    folders: dict[str, str] = {}
    for entry in entries.value if isinstance(entries, yaml.SequenceNode) else []:
        ident, reference = mapping_get(entry, "id"), mapping_get(entry, "reference")
        if not (isinstance(ident, yaml.ScalarNode) and isinstance(reference, yaml.ScalarNode)):
            continue  # the full build names what is wrong with the entry
        path = os.path.join(repo_root, reference.value)
        path = os.path.join(path, EXERCISE_FILE) if os.path.isdir(path) else path
        answers = mapping_get(entry, "answers_dir")
        folder = answers.value if isinstance(answers, yaml.ScalarNode) else f"{ANSWERS}/{ident.value}"
        if not folders:
            folders[""] = path  # the flagship also grades answers/<handle>.mmd
        if folder.strip("/").startswith(ANSWERS + "/"):
            folders[folder.strip("/")[len(ANSWERS) + 1:]] = path
    return folders or {"": default_reference}


def page_folders(repo_root: str) -> dict[str, str]:
    """Each exercise's folder under answers/ ("" for answers/ itself) -> the folder of its pages in the site, as
    `exercises.resolve_exercises` resolves mkdocs.yml (read as YAML, no tag run): the plugin's `feedback_dir`
    (`feedback`) for the flagship, which also grades answers/ itself, `<feedback_dir>/<id>` for the others,
    unless an exercise sets its own `feedback_dir`."""
    import yaml

    from drawcheck.plugin.exercises import mapping_get, plugin_options_node

    def option(node, key: str, default: str) -> str:
        value = mapping_get(node, key)
        return value.value if isinstance(value, yaml.ScalarNode) and value.value else default

    options = plugin_options_node(os.path.join(repo_root, "mkdocs.yml"))
    base = option(options, "feedback_dir", "feedback").strip("/")
    entries = mapping_get(options, "exercises")
    pages: dict[str, str] = {}
    for index, entry in enumerate(entries.value if isinstance(entries, yaml.SequenceNode) else []):
        ident = option(entry, "id", "")
        if not ident:
            continue  # the full build names what is wrong with the entry
        feedback = option(entry, "feedback_dir", base if index == 0 else f"{base}/{ident}").strip("/")
        answers = option(entry, "answers_dir", f"{ANSWERS}/{ident}").strip("/")
        if index == 0:
            pages[""] = feedback
        if answers.startswith(ANSWERS + "/"):
            pages.setdefault(answers[len(ANSWERS) + 1:], feedback)
    return pages or {"": base}


def reserved_handles(pages: dict[str, str]) -> dict[str, dict[str, str]]:
    """Each answers folder -> the handles (lower-cased) whose page would take the address of another exercise's
    pages inside its own (`feedback/<exercise>/` in the flagship's `feedback/`), each with that folder: the
    site refuses them (`exercises.reserved_page_names`), so the check does too."""
    folders = set(pages.values())
    return {folder: {other[len(mine) + 1:].split("/")[0].lower(): other for other in sorted(folders)
                     if other.startswith(mine + "/")} for folder, mine in pages.items()}


def answer_path_folder(path: str) -> str | None:
    """answers/ada.mmd -> "", answers/x/ada.mmd -> "x", anything deeper or elsewhere -> None."""
    parts = path.split("/")
    if parts[0] != ANSWERS or not 2 <= len(parts) <= 3:
        return None
    return parts[1] if len(parts) == 3 else ""


def own_answer_names(author: str, folders=("",)) -> set[str]:
    """The paths under answers/ a PR by `author` may write: its files in each exercise's folder. A folder is a
    real path, spelled exactly; the file name is the login in any case, so the names are lower-cased
    (compare with `_answer_key`)."""
    login = author.lower()
    return {f"{folder}/{name}" if folder else name for folder in folders
            for name in (f"{login}.mmd", f"{login}.corrected.mmd")}


def _answer_key(path: str) -> str:
    """`answers/<folder>/<Name>.mmd` -> `<folder>/<name>.mmd`: the folder as written, the file name lower-cased."""
    folder, _, name = path[len(ANSWERS) + 1:].rpartition("/")
    return f"{folder}/{name.lower()}" if folder else name.lower()


def scope_problem(changes: list[Change], author: str, folders=("",)) -> str | None:
    """One clear message when a submission PR strays outside the author's own answer files, else None."""
    outside = [c.path for c in changes if not c.path.startswith(ANSWERS + "/")]
    if outside:
        return (f"this pull request changes answers/ and also {_few(outside)}. A submission may only add or change "
                f"answers/{author}.mmd (and answers/{author}.corrected.mmd); open a separate pull request "
                "for the other files")
    links = [c.path for c in changes if c.status != "D" and c.kind != "file"]
    if links:
        what = {c.path: c.kind for c in changes}
        return (f"{_few(links)} is a {what[links[0]]}, not a plain file. Commit your drawing itself as "
                f"answers/{author}.mmd")
    allowed = own_answer_names(author, folders)
    foreign = [c.path for c in changes if _answer_key(c.path) not in allowed]
    if foreign:
        where = " or ".join(f"answers/{f + '/' if f else ''}{author}.mmd" for f in sorted(folders))
        return (f"this pull request writes {_few(foreign)}, but it was opened by {author}: a submission may "
                f"only add or change {where} (and its .corrected.mmd), named with your GitHub login")
    return None


def _few(paths: list[str]) -> str:
    shown = ", ".join(log_text(p, max_chars=120) for p in paths[:3])
    return shown + (f" and {len(paths) - 3} more" if len(paths) > 3 else "")


# --------------------------------------------------------------------------- grading the files


def grade_blobs(files: dict[str, bytes], *, reference, max_bytes: int = 262144, max_lines: int = 2000,
                folder: str = "", reserved: dict[str, str] | None = None):
    """Grade `{"answers/[folder/]x.mmd": contents}` through the same intake as the site, in a temporary folder.

    Returns Graded for every file, in path order; a file intake refuses gets an `invalid` one whose
    finding (kind `intake`) says why, as does a handle in `reserved` (lower-cased handle -> the folder of the
    site's pages its page would replace: `reserved_handles`). A refused file whose name is no learner's handle
    (the site gives it no page) is named by its path, so no feedback page is linked for it.
    """
    from drawcheck.grade.model import Finding, Result
    from drawcheck.intake import IntakeError, collect_submissions
    from drawcheck.plugin.exercise_manager import handle_of_file
    from drawcheck.plugin.submissions import SubmissionsManager
    from drawcheck.render.model import Graded
    from drawcheck.report.markdown import handle_of

    with tempfile.TemporaryDirectory(prefix="drawcheck-pr-") as tmp:
        answers = os.path.join(tmp, ANSWERS, folder)
        os.makedirs(answers)
        for rel, data in files.items():
            name = rel.rsplit("/", 1)[1]
            with open(os.path.join(answers, name), "xb") as fh:
                fh.write(data)
        submissions, refused = collect_submissions(answers, max_bytes=max_bytes, max_lines=max_lines, root=tmp)
        taken = [s for s in submissions if s.handle.lower() in (reserved or {})]
        submissions = [s for s in submissions if s not in taken]
        refused += [IntakeError(s.rel_path, 1, f"a page named {s.handle!r} would take the address of the site's own "
                                               f"page {reserved[s.handle.lower()]}/; ask the instructor to move "
                                               "this exercise's feedback_dir") for s in taken]
        manager = SubmissionsManager(answers_dir=answers, site_root=tmp, reference=reference,
                                     max_bytes=max_bytes, max_lines=max_lines)
        graded = [manager.grade(s.handle, s.rel_path, s.text) for s in submissions]
    for error in refused:
        finding = Finding("intake", None, error.line, "correction", error.message)
        handle = handle_of_file(error.file)
        if handle is not None and handle.lower() in (reserved or {}):
            handle = None
        graded.append(Graded(handle or error.file, error.file, Result(error.file, "invalid", 0.0, findings=[finding])))
    seen = {g.file for g in graded}
    for rel in files:  # skipped by intake (README.md, _template.mmd): say so rather than pass silently
        if rel not in seen:
            finding = Finding("intake", None, 1, "correction", "this file is not an answer and is not checked; "
                              "name your drawing answers/<your-github-handle>.mmd")
            graded.append(Graded(handle_of(rel), rel, Result(rel, "invalid", 0.0, findings=[finding])))
    return sorted(graded, key=lambda g: g.file)


def read_changed(repo: str, changes: list[Change], max_bytes: int, folders=("",)) -> dict[str, bytes]:
    """The contents at the head commit of every answer file the PR adds or changes (at most max_bytes + 1)."""
    out = {}
    for c in changes:
        if c.status == "D" or c.kind != "file" or answer_path_folder(c.path) not in folders:
            continue
        size = int(_git(repo, "cat-file", "-s", c.new_blob).strip() or 0)
        out[c.path] = b"x" * (max_bytes + 1) if size > max_bytes else _git(repo, "cat-file", "blob", c.new_blob)
    return out


def has_errors(g) -> bool:
    return g.result.status == "invalid" or any(f.kind in ERROR_KINDS for f in g.result.findings)


# --------------------------------------------------------------------------- outputs


def error_command(message: str) -> str:
    """One `::error` line; a learner's `##[` (the runner's legacy form, obeyed anywhere in a line) is broken up."""
    text = workflow_text(log_text(message, max_chars=2000)).replace("##[", "#\u2060#[")
    return f"::error title={workflow_property('drawcheck')}::{text}"


def _append(path: str | None, text: str) -> None:
    if path:
        with open(path, "a", encoding="utf-8") as fh:
            fh.write(text)


def write_artifact(folder: str, *, pr: PullRequest, mode: str, comment: str | None) -> None:
    """`pr.json` ({"number", "head_sha", "mode"}) and, for a submission, `comment.md`: what pr_comment posts."""
    os.makedirs(folder, exist_ok=True)
    with open(os.path.join(folder, "pr.json"), "w", encoding="utf-8") as fh:
        json.dump({"number": pr.number, "head_sha": pr.head_sha, "mode": mode}, fh)
    if comment is not None:
        with open(os.path.join(folder, "comment.md"), "w", encoding="utf-8") as fh:
            fh.write(comment)


# --------------------------------------------------------------------------- the command


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--event", metavar="PATH", default=os.environ.get("GITHUB_EVENT_PATH"),
                        help="the pull_request event payload (default: $GITHUB_EVENT_PATH)")
    parser.add_argument("--base", metavar="SHA", help="the PR's base commit (default: pull_request.base.sha)")
    parser.add_argument("--head", metavar="SHA", help="the PR's head commit (default: pull_request.head.sha)")
    parser.add_argument("--repo-root", metavar="DIR", default=".", help="the git checkout (default: .)")
    parser.add_argument("--artifact", metavar="DIR", help="write comment.md and pr.json here for the comment workflow")
    parser.add_argument("--summary", metavar="PATH", default=os.environ.get("GITHUB_STEP_SUMMARY"),
                        help="append the Markdown here (default: $GITHUB_STEP_SUMMARY)")
    parser.add_argument("--site-url", default=os.environ.get("DRAWCHECK_SITE_URL", ""),
                        help="the published site, for links to feedback pages (default: $DRAWCHECK_SITE_URL)")
    parser.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", ""),
                        help="owner/name for line links (default: $GITHUB_REPOSITORY)")
    parser.add_argument("--reference", metavar="PATH", default=None, help="the exercise's reference YAML")
    parser.add_argument("--files", nargs="+", metavar="FILE",
                        help="check these files instead of a PR's diff (the pre-commit hook)")


def run(args: argparse.Namespace) -> int:
    from drawcheck.grade.cli import default_reference
    from drawcheck.reference import ReferenceError, load_reference

    try:
        reference = load_reference(args.reference or default_reference())
    except ReferenceError as exc:
        print(f"drawcheck: {log_text(str(exc), max_chars=None)}", file=sys.stderr)
        return 2
    try:
        if args.files:
            return check_files(args.files, reference=reference)
        return check_pull_request(args, reference=reference)
    except CheckError as exc:
        print(error_command(str(exc)))
        print(f"drawcheck: {exc}", file=sys.stderr)
        return 2


def check_files(paths: list[str], *, reference, out=None, repo_root: str = ".") -> int:
    """The pre-commit hook: the PR check's grading on files in the working tree, each against its exercise."""
    from drawcheck.grade.cli import default_reference, text_report
    from drawcheck.intake import read_answer_bytes

    out = out or sys.stdout
    folders = answer_folders(repo_root, default_reference())
    reserved = reserved_handles(page_folders(repo_root))
    files: dict[str, dict[str, bytes]] = {}
    problems = []
    for path in paths:
        rel = Path(os.path.normpath(path)).as_posix()
        folder = answer_path_folder(rel)
        if rel.startswith(ANSWERS + "/") and folder not in folders:  # as the site: it never reads this file
            places = " or ".join(f"{ANSWERS}/{f + '/' if f else ''}<your-handle>.mmd" for f in sorted(folders))
            problems.append(f"{rel}: the site never reads this file, as {rel.rsplit('/', 1)[0]}/ is no exercise's "
                            f"folder (folder names are spelled exactly); put your drawing in {places}")
            continue
        folder = folder if folder in folders else ""  # a file outside answers/: graded as the flagship
        name = rel.rsplit("/", 1)[-1]
        # as the site reads answers: a regular file (no FIFO or device is opened), no symbolic link on the way
        # inside the repository; at most one byte over the size limit, which the grading then reports
        data, error = read_answer_bytes(path, max_bytes=MAX_ANSWER_BYTES, within=repo_root, label=rel)
        if error is not None:
            problems.append(f"{rel}: {error.message}")
            continue
        files.setdefault(folder, {})[f"{ANSWERS}/{folder + '/' if folder else ''}{name}"] = data
    graded = []
    for folder, mine in files.items():
        exercise = reference if folder == "" else _exercise(folders[folder])
        for g in grade_blobs(mine, reference=exercise, folder=folder, reserved=reserved.get(folder)):
            graded.append(g)
            out.write(text_report(g.result, product=exercise.product))
    for p in problems:
        out.write(f"drawcheck: {log_text(p)}\n")
    failed = problems or [g for g in graded if has_errors(g)]
    if failed:
        out.write("drawcheck: fix the errors above before you push; corrections alone never stop a commit\n")
    return 1 if failed else 0


def _exercise(path: str):
    """An exercise's reference data for its answer folder; the repository's own data, so a problem is the site's."""
    from drawcheck.reference import ReferenceError, load_reference

    try:
        return load_reference(path)
    except ReferenceError as exc:
        raise CheckError(f"the site's exercise data cannot be read: {exc}") from exc


def check_pull_request(args: argparse.Namespace, *, reference, out=None) -> int:
    from drawcheck.grade.cli import default_reference
    from drawcheck.report.github import github_annotations
    from drawcheck.report.markdown import Links, markdown_report, markdown_text

    out = out or sys.stdout
    if not args.event:
        raise CheckError("no event payload: pass --event PATH (on GitHub, $GITHUB_EVENT_PATH)")
    pr = pull_request_of(args.event)
    base, head = args.base or pr.base_sha, args.head or pr.head_sha
    changes = changed_files(args.repo_root, base, head)
    output = os.environ.get("GITHUB_OUTPUT")

    if not is_submission(changes):
        _append(output, "mode=site\n")
        out.write("drawcheck: this pull request changes no answer files: a site change, checked by the full build\n")
        if args.artifact:
            write_artifact(args.artifact, pr=pr, mode="site", comment=None)
        return 0
    _append(output, "mode=submission\n")

    pages = page_folders(args.repo_root)
    links = Links(repo=args.repo, sha=head, site_url=args.site_url, pages=tuple(pages.items()))
    folders = answer_folders(args.repo_root, args.reference or default_reference())
    reserved = reserved_handles(pages)
    problem = scope_problem(changes, pr.author, folders)
    references: dict[str, object] = {}
    if problem:
        graded, failed = [], True
        preface = [f"**This pull request cannot be checked:** {markdown_text(problem, max_chars=2000)}", ""]
        out.write(error_command(problem) + "\n")
    else:
        files = read_changed(args.repo_root, changes, 262144, folders)
        graded = []
        for folder, reference_path in folders.items():
            mine = {p: data for p, data in files.items() if answer_path_folder(p) == folder}
            if not mine:
                continue
            exercise = reference if folder == "" else _exercise(reference_path)
            group = grade_blobs(mine, reference=exercise, folder=folder, reserved=reserved.get(folder))
            references.update({g.file: exercise for g in group})
            graded += group
            for line in github_annotations([g.result for g in group], product=exercise.product):
                out.write(line + "\n")
        graded.sort(key=lambda g: g.file)
        bad = [g.file for g in graded if has_errors(g)]
        failed = bool(bad)
        preface = []
        if bad:
            message = (f"{_few(bad)} could not be checked: fix the errors marked on its lines (syntax, unsafe "
                       "content or a file the site refuses), then push again")
            out.write(error_command(message) + "\n")
            preface = [f"**Fix this first:** {markdown_text(message, max_chars=2000)}", ""]
        if not graded:
            preface = ["This pull request only deletes answer files; nothing to check.", ""]
    comment = markdown_report(graded, reference, links=links, preface=preface, references=references)
    if len(comment.encode("utf-8")) < MAX_SUMMARY_BYTES:
        _append(args.summary, comment)
    if args.artifact:
        write_artifact(args.artifact, pr=pr, mode="submission", comment=comment)
    return 1 if failed else 0

"""Read the learners' files from `answers/` as untrusted input.

Every file arrived in a stranger's pull request. `collect_submissions` reads only regular files directly
inside the answers folder, never follows a symbolic link, and turns every problem into an `IntakeError`
naming the file, so one bad file never stops the others.
"""

from __future__ import annotations

import errno
import os
import re
import signal
import stat
import threading
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable

from drawcheck.safety import display_name

__all__ = ["Submission", "IntakeError", "collect_submissions", "HANDLE_PATTERN", "RESERVED_HANDLES",
           "EXAMPLE_PREFIX", "read_untrusted", "read_answer", "read_answer_bytes", "time_budget", "TimeBudgetExceeded"]

HANDLE_PATTERN = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}")
"""A GitHub handle: letters, digits and single hyphens inside, 1 to 39 characters."""

RESERVED_HANDLES = frozenset({"index", "readme"})
"""Handles (any case) whose feedback page would replace a page of the site (`feedback/index.md`, ...)."""

EXAMPLE_PREFIX = "example-"
"""Handles starting with this are the site's own examples, accepted only when the config lists them."""

_SUFFIX = ".mmd"
_CORRECTED_SUFFIX = ".corrected.mmd"
_IGNORED_NAMES = {"readme.md"}
_VALID_NAME_HELP = "name it after your GitHub handle, e.g. answers/octocat.mmd (letters, digits and hyphens only)"


@dataclass(frozen=True, slots=True)
class Submission:
    """One learner file: `<handle>.mmd`, or `<handle>.corrected.mmd` when `corrected` is true."""

    handle: str
    path: Path
    rel_path: str  # e.g. "answers/octocat.mmd": what logs and annotations show
    text: str  # line endings normalised to "\n"
    corrected: bool


@dataclass(frozen=True, slots=True)
class IntakeError:
    """A file that was not read, and what to do about it. `line` is 1 when the whole file is at fault."""

    file: str
    line: int
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}: {self.message}"


def _handle_of(name: str) -> tuple[str, bool] | None:
    """(handle, corrected) for a well-formed submission name, else None."""
    for suffix, corrected in ((_CORRECTED_SUFFIX, True), (_SUFFIX, False)):
        if name.endswith(suffix):
            stem = name[: -len(suffix)]
            if HANDLE_PATTERN.fullmatch(stem):
                return stem, corrected
            return None
    return None


def _handle_problem(handle: str, examples: frozenset[str]) -> str | None:
    """Why a well-formed handle is still refused, or None."""
    if handle.lower() in RESERVED_HANDLES:
        return (f"{handle!r} is the name of a page of the site, so its feedback page would replace that page; "
                "name the file after your GitHub handle, e.g. answers/octocat.mmd")
    if handle.lower().startswith(EXAMPLE_PREFIX) and handle.lower() not in examples:
        return (f"handles starting with {EXAMPLE_PREFIX!r} are kept for the site's own examples (the `examples:` "
                "option of the drawcheck plugin in mkdocs.yml lists them); name the file after your GitHub handle, "
                "e.g. answers/octocat.mmd")
    return None


def _name_problem(name: str) -> str:
    if name.startswith("."):
        return f"the name starts with a dot, which hides the file; {_VALID_NAME_HELP}"
    if not (name.endswith(_SUFFIX)):
        return f"only Mermaid files ending in .mmd belong here; {_VALID_NAME_HELP}"
    if any(ch.isspace() for ch in name):
        return f"the name has a space in it; {_VALID_NAME_HELP}"
    if display_name(name) != name:
        return f"the name is not UTF-8 text; {_VALID_NAME_HELP}"
    if not name.isascii():
        return f"the name has characters outside A-Z, a-z, 0-9 and '-'; {_VALID_NAME_HELP}"
    stem = name[: -len(_CORRECTED_SUFFIX)] if name.endswith(_CORRECTED_SUFFIX) else name[: -len(_SUFFIX)]
    if len(stem) > 39:
        return f"a GitHub handle has at most 39 characters, this one has {len(stem)}; {_VALID_NAME_HELP}"
    return f"{stem!r} is not a GitHub handle; {_VALID_NAME_HELP}"


def read_untrusted(path: str, max_bytes: int, *, dir_fd: int | None = None) -> bytes:
    """Read a regular file without following a symlink at the last step; at most max_bytes + 1 bytes.
    `dir_fd`: an open folder that a relative `path` is in."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    fd = os.open(path, flags, dir_fd=dir_fd)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", path)
        chunks, remaining = [], max_bytes + 1
        while remaining > 0:
            chunk = os.read(fd, min(remaining, 65536))
            if not chunk:
                break
            chunks.append(chunk)
            remaining -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def _decode(data: bytes, rel: str) -> tuple[str | None, IntakeError | None]:
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        return None, IntakeError(rel, line, "this file is not UTF-8 text; save it as UTF-8 in your editor and commit again")
    if "\x00" in text:
        line = text[: text.index("\x00")].count("\n") + 1
        return None, IntakeError(rel, line, "this file holds a NUL byte, so it is not a text file; save it as plain UTF-8 text")
    text = text.removeprefix("\ufeff").replace("\r\n", "\n").replace("\r", "\n")
    return text, None


def _decode_within(data: bytes, rel: str, max_lines: int) -> tuple[str | None, IntakeError | None]:
    text, error = _decode(data, rel)
    if error is not None:
        return None, error
    line_count = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    if line_count > max_lines:
        return None, IntakeError(rel, max_lines + 1, f"this file has {line_count:,} lines, more than the {max_lines:,} allowed; keep only your diagram")
    return text, None


class LinkedFolder(OSError):
    """A folder on the way to a file (below the folder it is read from) is a symbolic link."""


def _read_within(base: str, parts: list[str], max_bytes: int) -> bytes:
    """Read `base/parts...` one folder at a time, each opened without following a symbolic link (so no link on
    the way can lead out of `base`), the file last, checked to be a regular file before it is opened."""
    folder_flags = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | getattr(os, "O_NOFOLLOW", 0)
    fd = os.open(base, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
    try:
        for part in parts[:-1]:
            try:
                inner = os.open(part, folder_flags, dir_fd=fd)
            except OSError as exc:
                if exc.errno in (errno.ELOOP, errno.ENOTDIR) and stat.S_ISLNK(os.lstat(part, dir_fd=fd).st_mode):
                    raise LinkedFolder(errno.ELOOP, f"{part} is a symbolic link") from None
                raise
            os.close(fd)
            fd = inner
        mode = os.lstat(parts[-1], dir_fd=fd).st_mode  # never open a FIFO or a device (opening one can act)
        if stat.S_ISLNK(mode):
            raise OSError(errno.ELOOP, "a symbolic link", parts[-1])
        if not stat.S_ISREG(mode):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", parts[-1])
        return read_untrusted(parts[-1], max_bytes, dir_fd=fd)
    finally:
        os.close(fd)


def _below(path: str, base: str) -> list[str] | None:
    """`path`'s components below `base` (as written, `..` resolved lexically), or None when it is not below it."""
    absolute = os.path.normpath(os.path.join(os.path.abspath(base), path))
    root = os.path.abspath(base)
    if os.path.commonpath([absolute, root]) != root or absolute == root:
        return None
    return os.path.relpath(absolute, root).split(os.sep)


def read_answer(path: str | os.PathLike, *, max_bytes: int = 262144, max_lines: int = 2000,
                label: str | None = None, within: str | os.PathLike | None = ".") -> tuple[str | None, IntakeError | None]:
    """One file named on a command line, read under the site's intake limits: (text, None) or (None, error).

    Same rules as `collect_submissions` for the content: a regular file (never a FIFO, device or folder, which
    are not even opened), no symbolic link at the last step, at most `max_bytes` bytes and `max_lines` lines,
    UTF-8 without NUL. A file below `within` (default: the current folder, e.g. a repository with a pull
    request checked out) is reached without following any symbolic link on the way, so a linked folder such as
    `answers/x -> /home` in a stranger's files cannot lead out of it; a path outside it is the caller's own
    choice. `label` names the file in the error.
    """
    data, error = read_answer_bytes(path, max_bytes=max_bytes, label=label, within=within)
    if error is not None:
        return None, error
    rel = display_name(label if label is not None else os.fspath(path))
    if len(data) > max_bytes:
        return None, IntakeError(rel, 1, f"this file is larger than {max_bytes:,} bytes; a diagram for this exercise fits in a few kilobytes, so remove what is not part of it")
    return _decode_within(data, rel, max_lines)


def read_answer_bytes(path: str | os.PathLike, *, max_bytes: int = 262144, label: str | None = None,
                      within: str | os.PathLike | None = ".") -> tuple[bytes | None, IntakeError | None]:
    """The file-level half of `read_answer`: at most `max_bytes` + 1 bytes of a regular file reached as
    `read_answer` says, or the error naming `label` (default: the path)."""
    rel = display_name(label if label is not None else os.fspath(path))
    parts = _below(os.fspath(path), os.fspath(within)) if within is not None else None
    try:
        if parts is not None:
            return _read_within(os.fspath(within), parts, max_bytes), None
        if not stat.S_ISREG(os.stat(path).st_mode) and not os.path.islink(path):
            raise IsADirectoryError(errno.EISDIR, "not a regular file", os.fspath(path))
        return read_untrusted(os.fspath(path), max_bytes), None
    except LinkedFolder as exc:
        return None, IntakeError(rel, 1, f"a folder on the way to this file is a symbolic link ({display_name(exc.strerror)}), "
                                         "which drawcheck never follows; check the file in its real folder")
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            return None, IntakeError(rel, 1, "this is a symbolic link, which drawcheck never follows; check the file itself")
        if isinstance(exc, IsADirectoryError) or exc.errno == errno.EISDIR:
            return None, IntakeError(rel, 1, "this is not a regular file; give a .mmd text file")
        if isinstance(exc, FileNotFoundError):
            return None, IntakeError(rel, 1, "this file could not be read (there is no such file); check the name and the folder")
        return None, IntakeError(rel, 1, f"this file could not be read ({exc.strerror or exc})")


class TimeBudgetExceeded(Exception):
    """Checking one file took longer than its time budget."""


@contextmanager
def time_budget(seconds: float | None):
    """Raise TimeBudgetExceeded inside the block once `seconds` (wall time) have passed.

    Uses SIGALRM, so it works in the main thread of a POSIX process (the MkDocs build and the CLI);
    elsewhere, or with `seconds` None or 0, the block runs without a budget. Regular-expression matching is
    interrupted too (the `re` engine checks for signals).
    """
    usable = (seconds and hasattr(signal, "setitimer") and threading.current_thread() is threading.main_thread())
    if not usable:
        yield
        return

    def expired(signum, frame):
        raise TimeBudgetExceeded(f"took longer than {seconds:g} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, previous)


def _linked_folder_on_the_way(folder: Path, base: Path) -> str | None:
    """The first folder between `base` and `folder` (both excluded) that is a symbolic link, relative to `base`."""
    parts = _below(os.fspath(folder), os.fspath(base))
    for depth in range(1, len(parts or ())):
        rel = "/".join(parts[:depth])
        if os.path.islink(os.path.join(base, *parts[:depth])):
            return rel
    return None


def collect_submissions(
    answers_dir: str | os.PathLike,
    *,
    max_bytes: int = 262144,
    max_lines: int = 2000,
    root: str | os.PathLike | None = None,
    examples: Iterable[str] = (),
) -> tuple[list[Submission], list[IntakeError]]:
    """Every readable submission in `answers_dir`, and an error for every file that was refused.

    Reads `<handle>.mmd` and `<handle>.corrected.mmd`; skips names starting with `_` (templates) and
    README.md (a symbolic link among them is still refused). Refuses symbolic links (never followed, the
    folder itself and every folder between `root` and it included), folders, non-UTF-8 files and names,
    files over `max_bytes` bytes or `max_lines` lines, names that are not a GitHub handle, handles that name a page of the site
    (`RESERVED_HANDLES`, any case), handles starting with `example-` that `examples` does not list, and
    handles that differ only by case (GitHub treats them as one person). `rel_path` and
    `IntakeError.file` are relative to `root` (default: the folder that holds `answers_dir`).
    Both lists are sorted, so the same folder always gives the same result.
    """
    answers = Path(answers_dir)
    base = Path(root) if root is not None else answers.parent
    try:
        dir_rel = os.path.relpath(answers, base)
    except ValueError:
        dir_rel = str(answers)
    dir_rel = dir_rel.replace(os.sep, "/")

    try:
        dir_stat = os.lstat(answers)
    except FileNotFoundError:
        return [], []
    if stat.S_ISLNK(dir_stat.st_mode):
        return [], [IntakeError(dir_rel, 1, f"{dir_rel} is a symbolic link; it must be a real folder in the repository")]
    linked = _linked_folder_on_the_way(answers, base)
    if linked is not None:  # answers -> /elsewhere would lead answers/<exercise>/ out of the repository
        return [], [IntakeError(linked, 1, f"{linked} is a symbolic link, so {dir_rel} is not a real folder in the "
                                           "repository; it must be a real folder")]
    if not stat.S_ISDIR(dir_stat.st_mode):
        return [], [IntakeError(dir_rel, 1, f"{dir_rel} must be a folder of .mmd files")]

    with os.scandir(answers) as entries:
        listing = sorted(entries, key=lambda e: e.name)

    allowed_examples = frozenset(e.lower() for e in examples)
    found: list[Submission] = []
    errors: list[IntakeError] = []
    for entry in listing:
        name = entry.name
        rel = f"{dir_rel}/{display_name(name)}"
        if name.startswith("_") or name.lower() in _IGNORED_NAMES:
            if entry.is_symlink():  # the pages include the template: a link could pull in any file
                errors.append(IntakeError(rel, 1, "this is a symbolic link, which the site never follows; commit the file itself"))
            continue
        if entry.is_symlink():
            errors.append(IntakeError(rel, 1, "this is a symbolic link, which the site never follows; commit the .mmd file itself"))
            continue
        if entry.is_dir(follow_symlinks=False):
            errors.append(IntakeError(rel, 1, f"folders inside {dir_rel}/ are not read; put your file directly in {dir_rel}/ as <your-handle>.mmd"))
            continue
        parsed = _handle_of(name)
        if parsed is None:
            errors.append(IntakeError(rel, 1, _name_problem(name)))
            continue
        refusal = _handle_problem(parsed[0], allowed_examples)
        if refusal is not None:
            errors.append(IntakeError(rel, 1, refusal))
            continue
        if not entry.is_file(follow_symlinks=False):
            errors.append(IntakeError(rel, 1, "this is not a regular file; commit a plain .mmd text file"))
            continue
        try:
            data = read_untrusted(os.path.join(answers, name), max_bytes)
        except OSError as exc:
            if exc.errno == errno.ELOOP:
                message = "this is a symbolic link, which the site never follows; commit the .mmd file itself"
            else:
                message = f"this file could not be read ({exc.strerror or exc}); commit a plain .mmd text file"
            errors.append(IntakeError(rel, 1, message))
            continue
        if len(data) > max_bytes:
            errors.append(IntakeError(rel, 1, f"this file is larger than {max_bytes:,} bytes; a diagram for this exercise fits in a few kilobytes, so remove what is not part of it"))
            continue
        text, error = _decode_within(data, rel, max_lines)
        if error is not None:
            errors.append(error)
            continue
        handle, corrected = parsed
        found.append(Submission(handle, answers / name, rel, text, corrected))

    # GitHub handles are case-insensitive: two spellings of one handle cannot both be trusted.
    # (grouped once, so the work grows with the number of files, not its square)
    spellings: dict[str, set[str]] = {}
    files_of: dict[str, list[Submission]] = {}
    for sub in found:
        spellings.setdefault(sub.handle.lower(), set()).add(sub.handle)
        files_of.setdefault(sub.handle.lower(), []).append(sub)
    clashing = {key for key, names in spellings.items() if len(names) > 1}
    if clashing:
        kept = []
        for sub in found:
            key = sub.handle.lower()
            if key not in clashing:
                kept.append(sub)
                continue
            others = sorted(s.rel_path for s in files_of[key] if s.handle != sub.handle)
            errors.append(IntakeError(
                sub.rel_path, 1,
                f"the handle {sub.handle!r} differs only by upper/lower case from {', '.join(others)}; "
                "GitHub treats them as the same person, so keep one file and delete the other",
            ))
        found = kept

    found.sort(key=lambda s: (s.handle.lower(), s.handle, s.corrected))
    errors.sort(key=lambda e: (e.file, e.line, e.message))
    return found, errors

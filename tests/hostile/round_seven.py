r"""Round seven: what got past rounds one to six (`test_round_seven.py`).

- `mkdocs serve` (`scripts/dev serve`, e.g. on a stranger's pull request checked out to look at it) watched each
  answers folder recursively, and MkDocs watches by polling: every 0.5 s watchdog's `DirectorySnapshot` walks the
  folder, following every symbolic link (`os.stat`). Intake never reads a link, but the watcher did: two links
  `answers/a -> .` and `answers/b -> .` made the first poll walk 2^40 paths (answers/a/b/a/..., until the kernel's
  40 links per path), storing each: one core busy and memory growing until the machine runs out; a link
  `answers/up -> /` walked the whole disk every half second. Now `on_serve` watches an answers folder only when it
  is a real folder, and not recursively: intake reads only the files directly in it (each exercise's own folder
  is watched in its own right).
- The PR check graded `answers/kubectl-apply.mmd` (GitHub lets anyone register the login `kubectl-apply`) as a
  flagship answer and passed, and its comment linked "Your feedback page" to
  `feedback/kubectl-apply/`: the other exercise's class overview. The site refuses that handle (its page would
  take that overview's address), so the check now refuses it too, with the site's words
  (`pr_check.reserved_handles`, from the same rule as `exercises.reserved_page_names`).
- The comment's link for `answers/two-cycles/<login>.mmd` (the flagship's own folder, which the site grades) was
  `feedback/two-cycles/<login>/`, a page that does not exist: the flagship's pages are in `feedback/`, and any
  exercise's `feedback_dir` may be set in mkdocs.yml. `Links.pages` now maps each answers folder to its exercise's
  feedback folder, read from mkdocs.yml as the plugin resolves it (`pr_check.page_folders`); the link is left out
  for a folder it does not know, and for a refused file whose name is no learner's handle (`example-*`, `index`,
  `readme`: the site gives it no page; `answers/example-one-lane.mmd` was linked to the site's own example).
- `drawcheck parse` and `drawcheck check --format json` printed U+061C ARABIC LETTER MARK from a learner's label raw
  to the terminal (`log_safe_json` escaped the other bidi marks, U+200E/U+200F, but not this one, which
  `safety._BIDI` refuses on the line): now escaped too.

Seen, not fixed (not drawcheck's code): MkDocs itself lists docs/ with `os.walk(..., followlinks=True)` and
watches it by polling, so `docs/a -> .` and `docs/b -> .` would do to `mkdocs build` what the answers links did to
`serve`. Only a site change can add them: its PR check runs the PR's own code anyway (read-only token, the job's
15-minute timeout), and a reviewer sees the links in the diff.

Tried and held (`test_round_seven.py` keeps the interesting ones):

- the terminal: ESC/CSI (`\x1b[2J`), OSC title and OSC 8 hyperlinks (`\x1b]0;...\x07`, `\x1b]8;;url\x1b\\`),
  C1 controls (`\x9b`, `\x9d ... \x9c`), backspaces, CR and bidi overrides, in a label, a note, an alias, a comment,
  a block label, a broken line, and in file names, through `parse` (text, json), `check` (text, json, github,
  markdown) and `pr-check --files`: no control or format character reaches stdout or stderr but U+061C above (the
  file name of a refused file is shown with `repr`, its escape visible);
- names: Cyrillic `а`, full-width letters, zero-width joiners, NFD accents are refused (not ASCII); case twins are
  refused both; `octocat.mmd.` and `octocat..mmd` are no handle; the PR check lowercases the file name only (a
  Kelvin sign `K` lowers to `k`, so `answers/\u212aim.mmd` matches login `kim`'s key, but intake then refuses the
  non-ASCII name: the check fails); a login `example-one-lane` may write `answers/example-one-lane.mmd` but intake
  (with no examples listed) refuses it, so the check fails; a rename is a delete plus an add (`--no-renames`),
  and a delete of another's file is foreign too;
- a PR that touches `reference/`, `mkdocs.yml` or `docs/` (with or without answers): without answers it is a site
  change (its artifact is `mode=site` and the comment workflow posts its fixed notice, as for any file outside
  answers/); with answers it fails the scope check, which reads the base's mkdocs.yml (the grader's worktree);
- limits at their edges: exactly 262,144 bytes is read (and then refused by Mermaid's 50,000 characters with a
  line), one byte more is refused; a BOM and 262,141 bytes pass; 2,000 lines (with or without a final newline)
  pass, 2,001 (or 2,000 and a blank line, or 2,001 CR-only lines) are refused at line 2,001; a file of only a BOM,
  an empty file and a file of blanks "have no diagram" at line 1; NUL, invalid UTF-8, an overlong `<`, a
  surrogate, UTF-16 and UTF-32 with a BOM are refused at their line; a folder `x.mmd` (or `x.corrected.mmd`) is
  refused; NEL, form feed and U+2028 inside a line never renumber the lines (nothing splits with `splitlines`).
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")

LOOPS = {"a": ".", "b": ".", "c": "..", "up": "/"}
"""Symbolic links in an answers folder (name -> target) that a recursive, link-following walk never finishes."""

ALM = "\u061c"

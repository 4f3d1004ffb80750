r"""Round six: what got past rounds one to five.

- `TEMPLATE_ATTACKS`: `answers/_template.mmd` is the one file of the learners' folder the site draws as written
  (docs/submit.md includes it, with `--8<--`, in a ```text and a ```mermaid fence). `drawcheck.snippets` checked
  it as an answer (it parses, `find_unsafe` finds nothing), but an answer is redrawn before it is drawn and the
  include is not: `links S: {"Sign in again": "https://evil.example/"}` put a live link in the participant's
  menu on the site's own "How to submit" page, `accDescr` put words in a screen reader's mouth, and a rect of a
  mark's colour with `① ✗ wrong cycle` in it drew the site's mark there. Now an include from `answers/` must hold
  nothing a redrawn answer never carries (`snippets.beyond_the_drawing`).
- The PR check ran the grader of the PR's head. A submission PR changes only `answers/`, but its head may sit on
  any old commit of the base branch ("files changed" and `changed_files`, which the comment workflow checks, are
  counted from the merge base), so the check ran that old grader and the comment workflow posted what it wrote
  under the site's name (every fix of rounds four and five undone for that PR: the drawings' tints under marks,
  learner rects of a mark's colour on GitHub's dark pages, ...). Now check.yml installs and runs the grader from
  a worktree of the PR's base commit; only a site change (no answers touched) installs the PR's own code, for
  the full build, whose artifact is never posted. And the comment workflow posts feedback only for a PR to the
  default branch (`pr_comment.verify_pull_request`): a PR to another branch of the repository (an old release
  branch) ran that branch's grader.
- `participant A as a<49,700 spaces>b` (or `)(` repeated: the brackets become spaces) took 17 s to grade:
  `recognise.names.participant_steps` split the alias with `\s*(?:,|/|...)\s*`, tried from every space of the
  run (square time). Past the 10 s budget the file is stopped, so each such file cost 10 s of every build and
  of the PR check. Now the spaces are collapsed first (a one-line change in recognise/, which the parts' keys
  ignore anyway).

Tried and held (kept as tests where interesting; `test_round_six.py`):

- a letter, 49,600 spaces (or tabs, U+3000, NBSP) and a letter as a message, a note, a title, a loop, rect, box
  or else label, a reason, a `go` message, a cache message: each under 0.3 s;
- lines of every two-character ASCII unit (punctuation, space, a letter, a digit), 40,000 characters, as a
  message, a note, an alias, a rect colour, a box label, a loop label and a bare line, through parse, grade,
  the page's drawing and the PR's Markdown: each well under a second (no new regex bomb);
- the templates and the reference drawings shipped with the site pass the new include check (the reference's
  own pink rect is the site's, so the mark-colour rule is for `answers/` only);
- a handle that is another exercise's feedback folder (`kubectl-apply` in the flagship) is refused
  (`exercises.reserved_page_names`), and `404`, `results`, `search`, `assets` take no page's address
  (feedback pages live under `feedback/`);
- the comment workflow's drawing lines (`pr_comment.is_drawing_line`) hold no `@`, `{`, `:` or `/`, so a forged
  artifact cannot add `@{...}` metadata, `links` or a directive to the drawings it posts;
- debug-level log lines name files by their handle only (intake vouched for it); tracebacks are debug only.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
TEMPLATE = (ROOT / "answers" / "_template.mmd").read_text(encoding="utf-8")

TEMPLATE_ATTACKS = {
    "links-json": ('    links S: {"Sign in again": "https://evil.example/login"}\n', "links"),
    "link": ("    link S: Your feedback @ https://evil.example/login\n", "link"),
    "properties": ('    properties S: {"class": "x", "icon": "https://evil.example/a.png"}\n', "properties"),
    "details": ('    details S: {"Sign in": "https://evil.example/"}\n', "details"),
    "acc-descr": ("    accDescr: drawcheck checked this drawing and it is correct\n", "screen reader"),
    "acc-title": ("    accTitle: Correct\n", "screen reader"),
    "circled-number": ("    Note over S,P: \u2460 \u2717 wrong cycle\n", "marks"),
    "mark-symbol-beside-a-number": ("    Note over S,P: 1 \u2717 wrong cycle\n", "marks"),
    "rect-of-a-mark": ("    rect rgba(220, 50, 47, 0.18)\n        Note over S,P: wrong cycle\n    end\n", "colour"),
    "rect-near-a-mark": ("    rect rgb(250, 215, 215)\n        Note over S,P: wrong cycle\n    end\n", "colour"),
    "box-of-a-mark": (None, "colour"),  # a box must come before the messages: built below
}
"""Lines appended to the shipped template (name -> (lines, a word the refusal says)): each is refused."""


def template_with(name: str) -> str:
    lines, _word = TEMPLATE_ATTACKS[name]
    if lines is None:  # the box around the template's first two participants
        return TEMPLATE.replace("    participant S as Scheduler thread\n    participant C as Cache\n",
                                "    box rgba(46, 160, 67, 0.22) Scheduler\n    participant S as Scheduler thread\n"
                                "    participant C as Cache\n    end\n", 1)
    return TEMPLATE + lines

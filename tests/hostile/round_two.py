"""Issue #16's attacks (and more), as answer files and site files for a real build.

`answers()` gives {file name (str or bytes): content}; `poison(project)` turns the copied project's
template and includes into attacks. Used by tests/hostile/test_round_two_build.py (build log, runner
replay, site files) and tests/browser/test_hostile_site.py (Chromium).
"""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
CANARY_ENV = "DRAWCHECK_LEAK_CANARY"
CANARY = "leak-canary-5f1d"  # in the build's environment and in the project's .git/config
SCRIPT_TEMPLATE = ("sequenceDiagram\n    participant S\n```\n\n<script>window.__pwned='template'</script>\n"
                   "<img src=x onerror=\"window.__pwned='template-img'\">\n```text\n")
FAKE_MARK = ("sequenceDiagram\n    participant S as Scheduler\n    rect rgba(46, 160, 67, 0.22)\n"
             "        Note over S: \u2460 the boundary is here\n    end\n    rect rgba(220, 50, 47, 0.18)\n"
             "        S->>S: \u2461 PreFilter is wrong 1\u20dd\n    end\n")
REFUSED_HANDLES = ["index.mmd", "README.mmd", "Readme.mmd", "INDEX.corrected.mmd", "example-x.mmd",
                   "Example-Evil.mmd"]
COMMAND_NAMES = ["##[error file=mkdocs.yml;line=4]x.mmd", "##[stop-commands]tok.mmd", "##[group]fold.mmd",
                 "::error::x.mmd", "esc\x1b[31mred.mmd"]


def answers() -> dict:
    out: dict = {name: REFERENCE for name in REFUSED_HANDLES + COMMAND_NAMES}
    out["good-reference.mmd"] = REFERENCE
    out["fake-mark.mmd"] = FAKE_MARK
    out["dup-key.mmd"] = ('sequenceDiagram\n    participant C@{ "##[error]x": 1, "##[error]x": 2 }\n'
                          "    C->>C: PreFilter\n")
    out["dup-front.mmd"] = '---\ntitle: a\n"##[warning]y": 1\n"##[warning]y": 2\n---\nsequenceDiagram\n    A->>B: x\n'
    out["actor-id.mmd"] = "sequenceDiagram\n    participant S\n    deactivate S##[notice]x#\n"
    out["colons.mmd"] = "sequenceDiagram\n    S->>P: ::error file=mkdocs.yml::pwned\n    S->>P: x ##[debug]y\n"
    out["long-rewrite.mmd"] = "sequenceDiagram\n" + "".join(
        f"    S->>P: {',' * 190} {i}\n" for i in range(80))  # ~16 KB that redraws to over 50,000
    out["spaces.mmd"] = REFERENCE
    out["spaces.corrected.mmd"] = REFERENCE.rstrip("\n") + "\n    Note over S: assumed" + " " * 200_000 + "\n"
    out[os.fsencode("bad-\udcff.mmd") if os.name == "posix" else "bad.mmd"] = REFERENCE
    return out


def poison(project: Path) -> None:
    """Make the template an attack, and include links to outside files from a docs page."""
    (project / "answers" / "_template.mmd").write_text(SCRIPT_TEMPLATE, encoding="utf-8")
    git = project / ".git"
    git.mkdir(exist_ok=True)
    (git / "config").write_text(f"[core]\n\tsecret = {CANARY}\n", encoding="utf-8")
    (project / "answers" / "_passwd.mmd").symlink_to("/etc/passwd")
    (project / "answers" / "_environ.mmd").symlink_to("/proc/self/environ")
    (project / "answers" / "_git.mmd").symlink_to("../.git/config")
    (project / "answers" / "_dangling.mmd").symlink_to("/nonexistent/file")
    (project / "docs" / "leak.md").write_text(
        "# Leak\n\n" + "".join(f'```text\n--8<-- "answers/{n}"\n```\n\n' for n in
                                ("_passwd.mmd", "_environ.mmd", "_git.mmd", "_dangling.mmd")),
        encoding="utf-8")  # (`--8<-- "../.git/config"` itself is outside base_path: a missing-snippet error)


def leaked(text: str) -> list[str]:
    """Which outside file's contents appear in `text`."""
    return [what for what, mark in (("/etc/passwd", "root:x:0:0"), ("environ/.git/config", CANARY),
                                     ("template script", "window.__pwned='template'")) if mark in text]

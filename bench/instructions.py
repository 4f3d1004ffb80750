"""drawcheck's share of a full-site build, counted in CPU instructions (valgrind), not seconds.

    .venv/bin/python bench/instructions.py [--submissions 1000] [--keep DIR]

On a shared machine a build's CPU time swings by a quarter from run to run, so bench/build.py's
shares move by several points. Instruction counts do not move. Four runs under
`valgrind --tool=cachegrind --cache-sim=no`, each in a fresh child, on the site bench/build.py makes:

- build:   the whole `mkdocs build` (load_config + build), as bench/build.py's child runs it;
- hooks:   load_config, then drawcheck's on_config and on_files alone (log lines on, to a file);
- setup:   load_config alone, the baseline `hooks` is counted from;
- imports: the imports alone, the baseline `build` is counted from.

drawcheck's share = (hooks - setup) / (build - imports), where `imports` is a child that only starts and
imports what the build child imports before load_config. Its per-page hooks (on_page_markdown,
on_post_page: about 2 % of its time) are left out of the count. Instructions are not time (the regex
engine and BeautifulSoup run at different speeds per instruction), so read this beside bench/build.py.
Needs valgrind; one run of 1,000 answers takes about 15 minutes.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from build import CHILD, make_site  # noqa: E402

HOOKS = r"""
import logging, sys
site, mode = sys.argv[1], sys.argv[2]
log = logging.getLogger("mkdocs")
log.addHandler(logging.FileHandler(site + "/drawcheck-hooks.log", encoding="utf-8"))
log.setLevel(logging.INFO)
import mermaid2.plugin  # what bench/build.py's child imports before it starts
import mkdocs.commands.build
from drawcheck.plugin import DrawcheckPlugin
from mkdocs.config import load_config
from mkdocs.structure.files import Files
if mode == "imports":
    sys.exit(0)
config = load_config(site + "/mkdocs.yml", site_dir=site + "/site", strict=False)
if mode == "hooks":
    plugin = config.plugins["drawcheck"]
    config.plugins._current_plugin = "drawcheck"
    plugin.on_files(Files([]), config=plugin.on_config(config))
"""


def instructions(args: list[str], cwd: Path) -> int:
    """Instructions the child `python args...` executes, as cachegrind counts them."""
    proc = subprocess.run(["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
                           sys.executable, *args], cwd=cwd, capture_output=True, text=True)
    if proc.returncode != 0:
        raise SystemExit(f"{' '.join(args[:2])} failed under valgrind:\n{proc.stderr[-3000:]}")
    found = re.search(r"I\s+refs:\s+([\d,]+)", proc.stderr)
    if found is None:
        raise SystemExit("valgrind printed no instruction count:\n" + proc.stderr[-3000:])
    return int(found.group(1).replace(",", ""))


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--submissions", type=int, default=1000)
    ap.add_argument("--keep", help="build in this folder and keep it")
    args = ap.parse_args(argv)
    if shutil.which("valgrind") is None:
        raise SystemExit("bench/instructions.py needs valgrind (apt-get install -y valgrind)")

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="drawcheck-instructions-"))
    if args.keep and base.exists():
        shutil.rmtree(base)
    site = base / "drawcheck"
    make_site(site, args.submissions)
    counts = {
        "imports": instructions(["-c", HOOKS, str(site), "imports"], site),
        "setup": instructions(["-c", HOOKS, str(site), "setup"], site),
        "hooks": instructions(["-c", HOOKS, str(site), "hooks"], site),
        "build": instructions(["-c", CHILD, str(site), "drawcheck"], site),
    }
    own = counts["hooks"] - counts["setup"]
    build = counts["build"] - counts["imports"]
    print(json.dumps({
        "submissions": args.submissions,
        "instructions_g": {k: round(v / 1e9, 3) for k, v in counts.items()},
        "drawcheck_on_config_and_on_files_g": round(own / 1e9, 3),
        "drawcheck_instructions_per_answer_file_m": round(own / 1e6 / sum(not p.name.startswith("_") for p in (site / "answers").glob("*.mmd")), 2),
        "drawcheck_share_by_instructions": round(own / build, 4),
        "site": str(base),
    }, indent=2))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

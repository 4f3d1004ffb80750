"""Parse + grade time of this tree against another revision, interleaved in one process.

Run: .venv/bin/python bench/compare.py REV [--rounds 20] [--count 2000]

On a shared machine one tree's time swings by a quarter from run to run, and
instruction counts do not always follow time (memory effects). So the other
revision's package is loaded beside this tree's, under another name
(`drawcheck_base`), and the two are timed in turns, chunk by chunk, on the same
drawings (bench/grade.py's variants), the order alternating. Each round gives a
time ratio; the median of the rounds is printed, with its quartiles. A ratio
below 1 means this tree is faster. Two copies of one tree measure within about 2%.
"""

from __future__ import annotations

import argparse
import importlib
import re
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
BASE_NAME = "drawcheck_base"
EXERCISE = Path("reference") / "two-cycles" / "exercise.yml"


def export_as(rev: str, into: Path) -> Path:
    """The package and reference of `rev` under `into`, the package renamed to BASE_NAME."""
    archive = subprocess.run(["git", "-C", str(REPO), "archive", rev, "plugins/drawcheck", "reference"],
                             capture_output=True, check=True).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    package = into / "plugins" / "drawcheck"
    for path in package.rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        path.write_text(re.sub(r"\bdrawcheck(?=\.|\s+import|\s*$)", BASE_NAME, text, flags=re.M), encoding="utf-8")
    package.rename(package.with_name(BASE_NAME))
    return into


def arm(package: str, root: Path, warm_up: list[str]):
    """(parse + grade, parse) functions of `package`, its caches warmed on `warm_up`."""
    parse_text = importlib.import_module(package + ".parse").parse_text
    grade_diagram = importlib.import_module(package + ".grade").grade_diagram
    ref = importlib.import_module(package + ".reference").load_reference(root / EXERCISE)

    def both(text: str):
        return grade_diagram(parse_text(text), text, file="x.mmd", reference=ref)

    for t in warm_up:
        both(t)
    return both, parse_text


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("rev", help="the revision to compare with (e.g. HEAD~3)")
    ap.add_argument("--rounds", type=int, default=20)
    ap.add_argument("--count", type=int, default=2000, help="drawings timed in each round")
    args = ap.parse_args()
    sys.path.insert(0, str(REPO / "bench"))
    from grade import variants  # also puts this tree's plugins/ first on sys.path

    with tempfile.TemporaryDirectory() as tmp:
        other = export_as(args.rev, Path(tmp))
        sys.path.insert(0, str(other / "plugins"))
        texts = variants(args.count + 2000)
        timed, warm_up = texts[:args.count], texts[args.count:]
        arms = [arm(BASE_NAME, other, warm_up), arm("drawcheck", REPO, warm_up)]
        chunks = [timed[k:k + 100] for k in range(0, len(timed), 100)]
        spent = [[[0.0, 0.0], [0.0, 0.0]] for _ in range(args.rounds)]  # round -> arm -> (both, parse)
        clock = time.process_time
        for r in range(args.rounds):
            for c, chunk in enumerate(chunks):
                for a in ((0, 1) if (r + c) % 2 == 0 else (1, 0)):
                    for kind, fn in enumerate(arms[a]):
                        start = clock()
                        for t in chunk:
                            fn(t)
                        spent[r][a][kind] += clock() - start
    print(f"us per drawing (median of {args.rounds} rounds): {args.rev} | this tree | ratio (quartiles)")
    for kind, label in enumerate(("parse + grade", "parse")):
        theirs = [s[0][kind] / len(timed) * 1e6 for s in spent]
        mine = [s[1][kind] / len(timed) * 1e6 for s in spent]
        ratios = [m / t for m, t in zip(mine, theirs)]
        low, mid, high = statistics.quantiles(ratios, n=4)
        print(f"{label:14s} {statistics.median(theirs):7.1f} {statistics.median(mine):7.1f}  "
              f"{statistics.median(ratios):.3f} ({low:.3f} to {high:.3f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Parse + grade time of this tree against another revision, in interleaved runs.

Run: .venv/bin/python bench/compare.py REV [--pairs 12] [--count 3000]

On a shared machine one tree's time swings by a quarter from run to run, and
instruction counts do not always follow time (memory effects). So the two trees
are timed in pairs of runs, each in a fresh process, the order alternating, on
the same drawings (bench/grade.py's variants of this tree), and the median of the
pairs' time ratios is printed. A ratio below 1 means this tree is faster.
"""

from __future__ import annotations

import argparse
import json
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
TREE_PARTS = ["plugins", "reference"]


def run_arm(root: str, texts_file: str) -> None:
    """In a child process: grade the warm-up drawings, then print CPU microseconds per timed drawing."""
    sys.path.insert(0, str(Path(root) / "plugins"))
    from drawcheck.grade import grade_diagram
    from drawcheck.parse import parse_text
    from drawcheck.reference import load_reference

    import drawcheck
    assert Path(drawcheck.__file__).resolve().is_relative_to(Path(root).resolve()), drawcheck.__file__
    data = json.loads(Path(texts_file).read_text(encoding="utf-8"))
    ref = load_reference(Path(root) / "reference" / "two-cycles" / "exercise.yml")
    for t in data["warm_up"]:
        grade_diagram(parse_text(t), t, file="x.mmd", reference=ref)
    start = time.process_time()
    for t in data["timed"]:
        grade_diagram(parse_text(t), t, file="x.mmd", reference=ref)
    print((time.process_time() - start) / len(data["timed"]) * 1e6)


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("rev", nargs="?", help="the revision to compare with (e.g. HEAD~3)")
    ap.add_argument("--pairs", type=int, default=12)
    ap.add_argument("--count", type=int, default=3000, help="drawings timed in each run")
    ap.add_argument("--arm", nargs=2, metavar=("ROOT", "TEXTS"), help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.arm:
        run_arm(*args.arm)
        return 0
    if not args.rev:
        ap.error("name a revision to compare with")
    sys.path.insert(0, str(REPO / "bench"))
    from grade import variants

    with tempfile.TemporaryDirectory() as tmp:
        other = Path(tmp) / "other"
        other.mkdir()
        archive = subprocess.run(["git", "-C", str(REPO), "archive", args.rev, *TREE_PARTS],
                                 capture_output=True, check=True).stdout
        subprocess.run(["tar", "-x", "-C", str(other)], input=archive, check=True)
        texts = variants(args.count + 2000)
        texts_file = Path(tmp) / "texts.json"
        texts_file.write_text(json.dumps({"timed": texts[:args.count], "warm_up": texts[args.count:]}))

        def arm(root: Path) -> float:
            out = subprocess.run([sys.executable, __file__, "--arm", str(root), str(texts_file)],
                                 capture_output=True, text=True, check=True).stdout
            return float(out.strip().splitlines()[-1])

        ratios = []
        print(f"us per drawing: {args.rev} | this tree | ratio")
        for k in range(args.pairs):
            if k % 2:
                mine, theirs = arm(REPO), arm(other)
            else:
                theirs, mine = arm(other), arm(REPO)
            ratios.append(mine / theirs)
            print(f"{theirs:8.1f} {mine:8.1f} {mine / theirs:7.3f}")
    low, _, high = statistics.quantiles(ratios, n=4)
    print(f"median ratio (this tree / {args.rev}): {statistics.median(ratios):.3f}, quartiles {low:.3f} to {high:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""What one `mkdocs serve` reload costs, with and without DRAWCHECK_ONLY, at 1 and N answers.

    .venv/bin/python bench/serve.py [--submissions 1000] [--repeat 3]

A reload of `mkdocs serve` is a full build (load_config + build) into the served folder; this times exactly
that, in this process, on a copy of the repository whose answers/ holds 1 or N learners' files (copies of
the plugin tests' corpus under new handles). DRAWCHECK_ONLY names one learner, as
`scripts/dev serve --only <handle>` does. Prints the median wall-clock seconds of each case.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import statistics
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CORPUS = ROOT / "tests" / "plugin" / "answers"


def make_site(where: Path, submissions: int) -> Path:
    root = where / f"site-{submissions}"
    root.mkdir()
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy(ROOT / name, root / name)
    for name in ("docs", "reference"):
        shutil.copytree(ROOT / name, root / name)
    (root / "answers").mkdir()
    shutil.copy(ROOT / "answers" / "_template.mmd", root / "answers" / "_template.mmd")
    sources = [p for p in sorted(CORPUS.glob("*.mmd")) if ".corrected." not in p.name]
    for i in range(submissions):
        handle = "me" if i == 0 else f"learner-{i}"
        shutil.copy(sources[i % len(sources)], root / "answers" / f"{handle}.mmd")
    return root


def reload_seconds(root: Path, only: str | None, repeat: int) -> float:
    from mkdocs.commands.build import build
    from mkdocs.config import load_config

    if only:
        os.environ["DRAWCHECK_ONLY"] = only
    else:
        os.environ.pop("DRAWCHECK_ONLY", None)
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        config = load_config(str(root / "mkdocs.yml"), site_dir=str(root.parent / f"{root.name}-out"))
        build(config, dirty=False)
        times.append(time.perf_counter() - start)
    os.environ.pop("DRAWCHECK_ONLY", None)
    return statistics.median(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--submissions", type=int, default=1000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    logging.getLogger("mkdocs").setLevel(logging.ERROR)
    os.environ["NO_MKDOCS_2_WARNING"] = "1"
    os.environ.pop("GITHUB_ACTIONS", None)
    with tempfile.TemporaryDirectory() as tmp:
        one, many = make_site(Path(tmp), 1), make_site(Path(tmp), args.submissions)
        rows = [
            ("1 answer, whole class", reload_seconds(one, None, args.repeat)),
            ("1 answer, DRAWCHECK_ONLY=me", reload_seconds(one, "me", args.repeat)),
            (f"{args.submissions} answers, DRAWCHECK_ONLY=me", reload_seconds(many, "me", args.repeat)),
            (f"{args.submissions} answers, whole class", reload_seconds(many, None, max(1, args.repeat // 2))),
        ]
    width = max(len(name) for name, _ in rows)
    for name, seconds in rows:
        print(f"{name:<{width}}  {seconds:6.2f} s")
    only_one, only_many = rows[1][1], rows[2][1]
    print(f"reload with DRAWCHECK_ONLY: {only_many / only_one:.2f}x the one-answer time at "
          f"{args.submissions} answers (whole class: {rows[3][1] / rows[0][1]:.1f}x)")


if __name__ == "__main__":
    main()

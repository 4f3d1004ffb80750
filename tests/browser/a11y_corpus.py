"""A class of learners for the accessibility tests: every page kind, and 30+ learners for the overview.

Built from the reference drawing and the shipped examples by dropping, swapping and renaming steps,
so the class has correct drawings, drawings with each kind of correction, broken files, a file the
site refuses, and the shipped examples (which must stay out of the class figures).
"""

from __future__ import annotations

import random
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import learners  # noqa: E402  (bench/learners.py)
STEP = re.compile(r"^(\s*)(\w+)(->>|-->>|-\))(\w+): (.+?)\s*$")

CORRECT = "ada"  # the reference drawing, as a learner would hand it in
BROKEN = "brook"  # a drawing Mermaid cannot read: could not be graded
WITH_CORRECTIONS = "cora"  # steps dropped and swapped
REFUSED_NAME = "Not A Handle!.mmd"  # intake refuses the name: a row in the overview, no page


def reference_lines() -> list[str]:
    return (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8").splitlines()


def example_bases() -> list[list[str]]:
    return [p.read_text(encoding="utf-8").splitlines() for p in sorted((ROOT / "answers").glob("example-*.mmd"))
            if not p.name.endswith(".corrected.mmd")]


def mutate(lines: list[str], rng: random.Random, changes: int) -> list[str]:
    """Steps dropped or swapped (twice as many drops), as bench/learners.py changes a drawing."""
    return learners.mutate(lines, rng, changes, step=STEP, actions=("drop", "swap", "drop"), left_out="    %% left out")


def class_answers(learners: int = 34, seed: int = 14) -> dict[str, str | bytes]:
    """{file name: content} for the answers folder: the page kinds above plus `learners` more."""
    rng = random.Random(seed)
    ref = reference_lines()
    answers: dict[str, str | bytes] = {
        f"{CORRECT}.mmd": "\n".join(ref) + "\n",
        f"{BROKEN}.mmd": "sequenceDiagram\n    participant S as Scheduler\n    S->>: no target\n    alt open\n",
        f"{WITH_CORRECTIONS}.mmd": "\n".join(mutate(ref, random.Random(3), 4)) + "\n",
        REFUSED_NAME: "\n".join(ref) + "\n",
    }
    for p in sorted((ROOT / "answers").glob("example-*.mmd")):
        answers[p.name] = p.read_text(encoding="utf-8")
    bases = [ref] + example_bases()
    for i in range(learners):
        lines = mutate(rng.choice(bases), rng, rng.randint(0, 4))
        if rng.random() < 0.06:
            lines.insert(2, "    S->>: broken arrow")
        answers[f"learner-{i:02d}.mmd"] = "\n".join(lines) + "\n"
    return answers

"""Made-up learners: the shipped drawings with steps left out, swapped or renamed, reproducibly.

Shared by bench/build.py (1,000 submissions) and tests/browser/a11y_corpus.py (a class of 30+), so both
make their classes the same way; each keeps its own step pattern and choice of changes.
"""

from __future__ import annotations

import random
import re

ONE_WORD_STEP = re.compile(r"^(\s*)(\w+)(->>|-->>|-\))(\w+): (\w+)\s*$")
"""A message line whose text is one word (`S->>P: Filter`)."""


def mutate(lines: list[str], rng: random.Random, changes: int, *, step: re.Pattern = ONE_WORD_STEP,
           actions: tuple[str, ...] = ("drop", "swap", "rename"), left_out: str = "    %% (left out)") -> list[str]:
    """A copy of `lines` with `changes` random changes to the lines `step` matches, each one of `actions`:
    drop (the line becomes the comment `left_out`), swap (two step lines trade places), rename
    (Score -> Scoring, Filter -> Filtering)."""
    lines = list(lines)
    steps = [i for i, line in enumerate(lines) if step.match(line)]
    for _ in range(changes):
        action = rng.choice(actions)
        if action == "drop" and steps:
            lines[rng.choice(steps)] = left_out
        elif action == "swap" and len(steps) > 1:
            a, b = rng.sample(steps, 2)
            lines[a], lines[b] = lines[b], lines[a]
        elif action == "rename" and steps:
            i = rng.choice(steps)
            lines[i] = lines[i].replace("Score", "Scoring").replace("Filter", "Filtering")
    return lines

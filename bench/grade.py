"""Parse + grade throughput on one core: `.venv/bin/python bench/grade.py [N]`.

Typical drawings are made from the golden cases (tests/grade/golden): each copy gets
random participant aliases, one random typo, one dropped line and one swapped pair
of lines, so texts vary the way a class's submissions do. Target: >= 5,000/s.
"""

from __future__ import annotations

import random
import re
import statistics
import sys
import time
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "plugins"))

from drawcheck.grade import grade_diagram  # noqa: E402
from drawcheck.parse import parse_text  # noqa: E402
from drawcheck.reference import load_reference  # noqa: E402

EXERCISE = REPO / "reference" / "two-cycles" / "exercise.yml"
TARGET = 5000


def variants(n: int, seed: int = 7) -> list[str]:
    rng = random.Random(seed)
    bases = [yaml.safe_load(p.read_text())["drawing"] for p in sorted((REPO / "tests/grade/golden").glob("*.yml"))]
    out = []
    for i in range(n):
        text = rng.choice(bases)
        for alias in set(re.findall(r"participant (\w+)", text)):
            text = re.sub(rf"\b{alias}\b(?=[-:,)>\s])", f"{alias}{rng.randrange(100)}", text)
        lines = text.splitlines()
        body = [k for k, line in enumerate(lines) if "->>" in line]
        if body and rng.random() < 0.5:
            k = rng.choice(body)
            lines[k] = re.sub(r"(: \w)(\w)(\w)", r"\1\3\2", lines[k], count=1)  # a typo
        if len(body) > 2 and rng.random() < 0.3:
            del lines[rng.choice(body)]
        if len(body) > 3 and rng.random() < 0.3:
            a = rng.choice(body[:-1])
            if a + 1 < len(lines):
                lines[a], lines[a + 1] = lines[a + 1], lines[a]
        out.append("\n".join(lines) + "\n")
    return out


def rate(fn, items) -> float:
    start = time.perf_counter()
    for x in items:
        fn(x)
    return len(items) / (time.perf_counter() - start)


def main() -> int:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 20000
    texts = variants(n)
    avg_lines = statistics.mean(t.count("\n") for t in texts)
    cold_ref = load_reference(EXERCISE)
    t0 = time.perf_counter()
    grade_diagram(parse_text(texts[0]), texts[0], file="x.mmd", reference=cold_ref)
    first_ms = (time.perf_counter() - t0) * 1000

    ref = load_reference(EXERCISE)
    diagrams = [parse_text(t) for t in texts[:2000]]  # warm-up for the parser too
    for t, d in zip(texts[:2000], diagrams):
        grade_diagram(d, t, file="x.mmd", reference=ref)
    diagrams = [parse_text(t) for t in texts]

    parse_rate = rate(parse_text, texts)
    pairs = list(zip(diagrams, texts))
    grade_rate = rate(lambda p: grade_diagram(p[0], p[1], file="x.mmd", reference=ref), pairs)
    both_rate = rate(lambda t: grade_diagram(parse_text(t), t, file="x.mmd", reference=ref), texts)
    fresh = load_reference(EXERCISE)  # empty name caches: every distinct text is matched once
    cold_rate = rate(lambda t: grade_diagram(parse_text(t), t, file="x.mmd", reference=fresh), texts[:3000])

    print(f"drawings: {n} (avg {avg_lines:.1f} lines), one core, Python {sys.version.split()[0]}")
    print(f"first drawing incl. building name tables: {first_ms:.1f} ms")
    print(f"parse only:            {parse_rate:8.0f} drawings/s")
    print(f"grade only:            {grade_rate:8.0f} drawings/s")
    print(f"parse + grade (warm):  {both_rate:8.0f} drawings/s  (target {TARGET})")
    print(f"parse + grade (cold):  {cold_rate:8.0f} drawings/s  (first 3000, fresh caches)")
    return 0 if both_rate >= TARGET else 1


if __name__ == "__main__":
    sys.exit(main())

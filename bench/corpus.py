"""Precision and recall of the grader's corrections on the independent corpus (no timing).

`.venv/bin/python bench/corpus.py [--heldout] [--files]`: grades every drawing in tests/grade/corpus (with
`--heldout`: each corpus in tests/grade/heldout, written blind to the grader) against its golden
expectations (tests/grade/test_corpus.py explains the format) and prints the totals, then every drawing
graded wrongly with its missed and false corrections (all drawings with `--files`).
"""

from __future__ import annotations

import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(REPO / "plugins"))
sys.path.insert(0, str(REPO / "tests" / "grade"))

from drawcheck.reference import load_reference  # noqa: E402
from test_corpus import summary  # noqa: E402
from test_heldout import CORPORA, HELDOUT  # noqa: E402


def main(argv: list[str]) -> int:
    if "--heldout" not in argv:
        return report("tests/grade/corpus", summary(), argv)
    for corpus, exercise in CORPORA.items():
        report(f"tests/grade/heldout/{corpus}", summary(load_reference(exercise), HELDOUT / corpus), argv)
        print()
    return 0


def report(title: str, s: dict, argv: list[str]) -> int:
    print(f"== {title}")
    print(f"drawings: {s['drawings']} ({s['correct_drawings']} correct), graded right: {s['drawings_graded_right']}")
    print(f"correct drawings that got a correction: {s['correct_drawings_with_a_correction']}")
    print(f"corrections expected: {s['expected']}, found: {s['found']}, missed: {s['missed']}, false: {s['false']}")
    print(f"precision: {s['precision']:.3f}  recall: {s['recall']:.3f}")
    valid_fp = s["false"] - s["false_on_invalid_files"]
    print(f"on sequence diagrams without syntax errors: {valid_fp} false, precision "
          f"{s['found'] / (s['found'] + valid_fp):.3f}")
    for name, f in s["files"].items():
        if f["ok"] and "--files" not in argv:
            continue
        print(f"\n{name} ({'correct' if f['correct'] else 'wrong'}): {'ok' if f['ok'] else 'WRONG'}")
        for m in f["missed"]:
            print(f"  missed: {m}")
        for kind, point, line, message in f["false"]:
            print(f"  false:  {kind} {point} line {line}: {message}")
        for kind, point, line, message in f["hints_not_allowed"]:
            print(f"  hint:   {kind} {point} line {line}: {message}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))

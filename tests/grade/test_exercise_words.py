"""No exercise's words in the package's Python: every name, phase and message comes from the exercise YAML.

The words are taken from each shipped exercise's YAML (step ids, phase ids and names, product) plus a
fixed list of the flagship's domain words; generic engine words ("step", "phase", "boundary") may stay.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "plugins" / "drawcheck"
EXERCISES = sorted((ROOT / "reference").glob("*/exercise.yml")) + [ROOT / "tests" / "grade" / "tcp" / "exercise.yml"]
DOMAIN_WORDS = ("kubernetes", "goroutine", "scheduler", "kubelet", "kubectl", "etcd", "apiserver", "go statement",
                "pod", "pods", "cri", "cni")
FOLDERS = sorted({p.relative_to(PACKAGE).parts[0] for p in PACKAGE.rglob("*.py")})  # every module, render/ included
# Exercise words that are also the engine's own: a drawing's Score, Python's errors, Material's `!!! failure`,
# a request and a status (an HTTP request, a result's status).
ENGINE_WORDS = {"Score", "error", "failure", "request", "status"}


def _words(path: Path) -> tuple[set[str], set[str]]:
    """(names matched case-sensitively as whole words, words and phrases matched in any case)."""
    data = yaml.safe_load(path.read_text(encoding="utf-8"))
    names = {s["id"] for s in data["steps"]}
    words = {c for c in data["cycles"]} | {c["name"] for c in data["cycles"].values()} | set(DOMAIN_WORDS)
    if data.get("product"):
        words.add(data["product"])
    return names - ENGINE_WORDS, words - ENGINE_WORDS


def _hits(text: str, names: set[str], words: set[str]) -> list[str]:
    found = [n for n in names if re.search(rf"(?<![A-Za-z0-9_]){re.escape(n)}(?![A-Za-z0-9_])", text)]
    low = text.lower()
    found += [w for w in words if re.search(rf"(?<![a-z0-9]){re.escape(w.lower())}(?![a-z0-9])", low)]
    return sorted(found)


def _modules(folder: str) -> list[Path]:
    path = PACKAGE / folder
    return sorted(path.rglob("*.py")) if path.is_dir() else [path]


@pytest.mark.parametrize("exercise", EXERCISES, ids=lambda p: p.parent.name)
@pytest.mark.parametrize("folder", FOLDERS)
def test_no_exercise_word_in_the_engine(exercise, folder):
    names, words = _words(exercise)
    modules = _modules(folder)
    assert modules, folder
    assert {"recognise", "grade", "render", "reference"} <= set(FOLDERS)
    for path in modules:
        hits = _hits(path.read_text(encoding="utf-8"), names, words)
        assert not hits, f"{path.relative_to(ROOT)} mentions {hits} of {exercise.parent.name}: move them to its YAML"


def test_the_scan_finds_a_word_when_there_is_one():
    names, words = _words(ROOT / "reference" / "two-cycles" / "exercise.yml")
    assert _hits('MESSAGE = "Permit runs in the scheduling cycle"', names, words) == ["Permit", "scheduling",
                                                                                     "scheduling cycle"]
    assert _hits("permitted = filtered  # no step id as a whole word", names, words) == []

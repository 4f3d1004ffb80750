"""Every way docs/submit.md says a drawing may mark the cycles is understood by the check.

Each file in conventions/ is a complete, correct drawing in one convention (plus two wrong ones), so a
promise on the How-to-submit page that the grader does not keep fails here. (That each file is valid
Mermaid is checked in test_reference_files.py, in one node run with the reference and the template.)
"""

from __future__ import annotations

from pathlib import Path

import pytest

from drawcheck.grade import grade_file
from drawcheck.reference import load_reference

ROOT = Path(__file__).resolve().parents[2]
CONVENTIONS = Path(__file__).with_name("conventions")
CORRECT = ["note-headers", "box-groups", "participant-per-cycle", "par-blocks"]
WRONG = ["early-boundary", "postfilter-main-path"]


@pytest.fixture(scope="module")
def reference():
    return load_reference(ROOT / "reference" / "two-cycles" / "exercise.yml")


def test_the_convention_files_are_the_ones_tested_here():
    assert sorted(p.stem for p in CONVENTIONS.glob("*.mmd")) == sorted(CORRECT + WRONG)


@pytest.mark.parametrize("name", ["reference"] + CORRECT)
def test_a_correct_drawing_in_each_convention_has_no_corrections(reference, name):
    path = ROOT / "reference" / "two-cycles" / "reference.mmd" if name == "reference" else CONVENTIONS / f"{name}.mmd"
    result = grade_file(path, reference=reference)
    assert [f.message for f in result.corrections] == []
    assert result.status == "correct"
    assert result.boundary is not None and result.boundary.after == "Permit"
    assert result.reason and result.cache_function


def test_the_cycles_are_read_from_each_convention(reference):
    for name in CORRECT:
        result = grade_file(CONVENTIONS / f"{name}.mmd", reference=reference)
        cycles = {p.point: p.cycle for p in result.points}
        assert cycles["Permit"] == "scheduling", name
        assert cycles["PreBind"] == "binding", name


def test_the_v1_15_boundary_is_a_correction_that_names_its_versions(reference):
    result = grade_file(CONVENTIONS / "early-boundary.mmd", reference=reference)
    boundary = [f for f in result.corrections if f.kind == "boundary"]
    assert len(boundary) == 1 and "v1.15" in (boundary[0].version or "")


def test_postfilter_on_the_main_path_is_a_correction(reference):
    result = grade_file(CONVENTIONS / "postfilter-main-path.mmd", reference=reference)
    assert [f.point for f in result.corrections] == ["PostFilter"]


def test_the_template_is_clean_but_unfinished(reference):
    result = grade_file(ROOT / "answers" / "_template.mmd", reference=reference)
    kinds = {f.kind for f in result.corrections}
    assert "syntax" not in kinds and "unsafe" not in kinds
    assert "missing" in kinds and result.status == "corrections"

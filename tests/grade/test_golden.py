"""Golden cases: one YAML per drawing with the expected status, boundary and every finding.

A case lists ALL findings (kind, point, line, severity); `message`, `version` and `read` are
substrings that must appear. Adding a case = adding a file to tests/grade/golden/.
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import yaml

from drawcheck.grade import grade_text

GOLDEN = sorted((Path(__file__).parent / "golden").glob("*.yml"))
CASE_KEYS = {"description", "classes", "status", "boundary", "drawing", "findings"}
FINDING_KEYS = {"kind", "point", "line", "severity", "message", "version", "read"}

# Every realistic mistake class must be covered by at least two drawings.
MISTAKE_CLASSES = (
    "permit-in-binding", "boundary-before-permit", "assume-after-reserve", "postfilter-main-path",
    "unreserve-success-path", "missing-normalizescore", "no-reason", "wrong-reason", "updatesnapshot-cache-fn",
    "no-cycles", "postscore-extra", "typos-hints", "waitonpermit-in-scheduling", "boundary-late", "syntax",
    "reserve-is-assume",
)
CONVENTIONS = (
    "convention-rect", "convention-section-notes", "convention-box", "convention-participants",
    "convention-async-arrow", "convention-go-message", "convention-par", "convention-rect-colours",
)


def _load(path: Path) -> dict:
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(case) <= CASE_KEYS, f"{path.name}: unknown keys {set(case) - CASE_KEYS}"
    for f in case["findings"]:
        assert set(f) <= FINDING_KEYS, f"{path.name}: unknown finding keys {set(f) - FINDING_KEYS}"
    return case


def _key(f) -> tuple:
    return (f["kind"], f.get("point") or "", f.get("line") or 0, f["severity"])


@pytest.mark.parametrize("path", GOLDEN, ids=lambda p: p.stem)
def test_golden_case(path, reference):
    case = _load(path)
    result = grade_text(case["drawing"], file=path.stem + ".mmd", reference=reference)
    assert result.status == case["status"], [(f.kind, f.point, f.line, f.message) for f in result.findings]
    got = sorted(result.findings, key=lambda f: _key({"kind": f.kind, "point": f.point, "line": f.line,
                                                        "severity": f.severity}))
    want = sorted(case["findings"], key=_key)
    got_keys = [(f.kind, f.point or "", f.line or 0, f.severity) for f in got]
    assert got_keys == [_key(f) for f in want]
    for g, w in zip(got, want):
        if "message" in w:
            assert w["message"] in g.message, (g.kind, g.point, g.message)
        if "version" in w:
            assert g.version is not None and w["version"] in g.version, (g.kind, g.point, g.version)
        if "read" in w:
            assert g.read is not None and w["read"] in g.read, (g.kind, g.point, g.read)
    # precision first: every finding on a line names what was read there
    assert all(f.read for f in result.findings if f.line is not None), [(f.kind, f.line) for f in result.findings]
    if "boundary" in case:
        b = case["boundary"]
        assert result.boundary is not None
        assert (result.boundary.after, result.boundary.before, result.boundary.line) == (b["after"], b["before"], b["line"])
    if case["status"] == "correct":
        assert result.corrections == []
        assert result.score == 1.0
    else:
        assert result.corrections


def test_golden_corpus_is_big_and_covers_every_mistake_twice():
    assert len(GOLDEN) >= 30
    classes = Counter(c for p in GOLDEN for c in _load(p)["classes"])
    for name in MISTAKE_CLASSES:
        assert classes[name] >= 2, f"mistake class {name!r} has {classes[name]} golden drawing(s); need 2"


def test_every_cycle_convention_has_a_correct_drawing():
    cases = [_load(p) for p in GOLDEN]
    for conv in CONVENTIONS:
        correct = [c for c in cases if conv in c["classes"] and c["status"] == "correct"]
        assert correct, f"no correct golden drawing uses {conv}"
        assert all(f["severity"] == "hint" for c in correct for f in c["findings"])

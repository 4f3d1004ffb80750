"""A second exercise (TCP handshake, its own YAML) graded by the same code.

Proves the grader hard-codes nothing about the Kubernetes exercise: every name,
cycle, message and version below comes from tests/grade/tcp/exercise.yml.
"""

from __future__ import annotations

import re
from pathlib import Path

import yaml

from drawcheck.grade import grade_file

HERE = Path(__file__).resolve().parent
PLUGIN = HERE.parents[1] / "plugins" / "drawcheck"


def test_correct_tcp_drawing(tcp_reference):
    r = grade_file(HERE / "tcp" / "correct.mmd", reference=tcp_reference)
    assert r.status == "correct", [(f.kind, f.message) for f in r.findings]
    assert r.score == 1.0
    assert [p.point for p in r.points] == ["Listen", "SYN", "RST", "SYN-ACK", "ACK", "Data", "FIN"]
    cycles = {p.point: p.cycle for p in r.points}
    assert cycles["SYN-ACK"] == "handshake" and cycles["Data"] == "established"
    assert cycles["Listen"] is None  # outside both sides, drawn without a label
    assert (r.boundary.after, r.boundary.before, r.boundary.line) == ("ACK", "Data", 12)


def test_tcp_mistakes_are_circled(tcp_reference):
    r = grade_file(HERE / "tcp" / "mistakes.mmd", reference=tcp_reference)
    got = {(f.kind, f.point, f.line, f.severity) for f in r.findings}
    assert got == {
        ("order", "RST", 5, "correction"),  # RST on the main path
        ("extra", None, 6, "hint"),  # SYN2 is no step
        ("boundary", None, 7, "correction"),  # connect() returns before ACK
        ("reason", None, 7, "correction"),
        ("missing", "SYN-ACK", None, "correction"),
    }
    boundary = next(f for f in r.findings if f.kind == "boundary")
    assert boundary.version == "RFC 7413"
    assert r.status == "corrections"
    assert 0 < r.score < 1


def test_no_exercise_names_in_grader_code():
    """No step id, not-step name or cycle word of the Kubernetes exercise appears in the grader's Python."""
    data = yaml.safe_load((HERE.parents[1] / "reference" / "two-cycles" / "exercise.yml").read_text())
    names = {s["id"] for s in data["steps"]}
    names |= {n["name"] for n in data["not_steps"] if re.search("[a-z][A-Z]", n["name"])}  # PostScore, not "Commit"
    words = {"kubernetes", "goroutine", "scheduling", "binding"}
    files = [p for d in ("reference", "recognise", "grade") for p in (PLUGIN / d).glob("*.py")]
    assert len(files) >= 6
    for path in files:
        text = path.read_text(encoding="utf-8")
        for name in names:
            assert not re.search(rf"\b{re.escape(name)}\b", text), f"{path.name} names the step {name!r}"
        for word in words:
            assert word not in text.lower(), f"{path.name} mentions {word!r}"

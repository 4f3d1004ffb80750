"""grade: a learner's drawing vs the reference -> findings with lines, a score, a status.

Public API: `grade_text(text, *, file, reference)`, `grade_file(path, *, reference)` and
`grade_diagram(diagram, text, *, file, reference)`. Each check the exercise configures
(drawcheck.grade.checks) grades the recognised drawing; the score formula and the finding kinds
are documented in docs/grading.md.
"""

from __future__ import annotations

import dataclasses
import os

from drawcheck.grade.checks import Drawing
from drawcheck.grade.layout import lay_out
from drawcheck.grade.model import (  # noqa: F401
    FINDING_KINDS, BoundaryPlacement, DrawnPoint, Finding, FindingKind, Result,
)
from drawcheck.parse import parse_bytes, parse_text
from drawcheck.parse.model import Diagram
from drawcheck.recognise import Recognised, recognise
from drawcheck.reference.model import Reference

try:  # the safety module is optional for grading; when present its items become `unsafe` findings
    from drawcheck.safety import find_unsafe as _find_unsafe
except ImportError:  # pragma: no cover - only while the module does not exist
    _find_unsafe = None

__all__ = ["grade_text", "grade_file", "grade_diagram", "max_edits", "Result", "Finding", "FindingKind"]


def grade_text(text: str, *, file: str, reference: Reference) -> Result:
    """Parse and grade one drawing given as text."""
    return grade_diagram(parse_text(text), text, file=file, reference=reference)


def grade_file(path: str | os.PathLike, *, reference: Reference, display_name: str | None = None) -> Result:
    """Read, parse and grade one file; an unreadable or non-UTF-8 file gives an `invalid` result."""
    name = display_name or os.fspath(path)
    try:
        with open(path, "rb") as fh:
            data = fh.read()
    except OSError as exc:
        finding = Finding(FindingKind.SYNTAX, None, None, "correction", f"cannot read the file ({exc.strerror or exc})")
        return Result(file=name, status="invalid", score=0.0, findings=[finding])
    diagram = parse_bytes(data)
    text = data.decode("utf-8", errors="replace")
    return grade_diagram(diagram, text, file=name, reference=reference)


def max_edits(ref: Reference) -> int:
    """The denominator of the score: every item the drawing can get wrong once, as the checks count them."""
    return max(sum(c.weight for c in ref.checks), 1)


def grade_diagram(diagram: Diagram, text: str, *, file: str, reference: Reference) -> Result:
    """Grade an already parsed drawing (the plugin parses once and reuses the Diagram)."""
    scored: list[tuple[Finding, int]] = []
    for err in diagram.errors:
        msg = err.message + (f" ({err.hint})" if err.hint else "")
        scored.append((Finding(FindingKind.SYNTAX, None, err.line, "correction", msg), 0))
    if _find_unsafe is not None:
        for item in _find_unsafe(diagram, text):
            scored.append((Finding(FindingKind.UNSAFE, None, item.line, "correction", item.what), 0))
    if diagram.errors:
        # what a misparse would say about the steps is not the learner's drawing: the errors and nothing else
        _name_what_was_read(scored, None, diagram)
        findings = sorted((f for f, _ in scored), key=lambda f: (f.line is None, f.line or 0, f.kind.rank))
        return Result(file=file, status="invalid", score=0.0, findings=findings)

    rec = recognise(diagram, reference)
    layout = lay_out(rec, reference, reference.plan)
    drawing = Drawing(reference, rec, layout)
    said: dict[str, str] = {}
    for check in reference.checks:
        outcome = check.grade(drawing)
        if check.yields_to and outcome.findings:
            taken = {(f.point, f.line) for f, _ in scored if f.kind in check.yields_to}
            outcome = dataclasses.replace(outcome, findings=[(f, e) for f, e in outcome.findings
                                                             if (f.point, f.line) not in taken])
        if check.supersedes and outcome.findings:
            # one circle per step and line: the later check's, unless it is a hint where a correction stands
            kept = {(f.point, f.line) for f, _ in scored if f.kind in check.supersedes and f.severity == "correction"}
            findings = [(f, e) for f, e in outcome.findings if f.severity == "correction" or (f.point, f.line) not in kept]
            outcome = dataclasses.replace(outcome, findings=findings)
            replaced = {(f.point, f.line) for f, _ in findings} | outcome.replaces
            scored = [(f, e) for f, e in scored if f.kind not in check.supersedes or (f.point, f.line) not in replaced]
        scored += outcome.findings
        if outcome.said is not None:
            said[check.section] = outcome.said

    _name_what_was_read(scored, rec, diagram)
    edits = sum(e for f, e in scored if f.severity == "correction")
    corrections = any(f.severity == "correction" for f, _ in scored)
    # by line (none last), then kind, then the order the checks found them in
    order = sorted(range(len(scored)), key=lambda i: (scored[i][0].line is None, scored[i][0].line or 0,
                                                      scored[i][0].kind.rank, i))
    status = "corrections" if corrections else "correct"
    return Result(
        file=file, status=status, score=max(0.0, 1.0 - edits / max_edits(reference)), points=layout.points,
        boundary=layout.placement, findings=[scored[i][0] for i in order], reason=said.get("reason"),
        cache_function=said.get("named_function"), said=said,
    )


def _name_what_was_read(scored: list[tuple[Finding, int]], rec: Recognised | None, diagram: Diagram) -> None:
    """Every finding with a line says what was read there: the learner's words for its step on that line,
    else the text drawn there, else the line as written."""
    by_line: dict[int, str] = {}
    for item in rec.items if rec is not None else ():
        by_line.setdefault(item.line, item.text)
    labels = {(m.step, m.line): m.label for m in rec.mentions} if rec is not None else {}
    for f, _ in scored:
        if f.line is None or f.read is not None:
            continue
        read = labels.get((f.point, f.line)) or by_line.get(f.line)
        if read is None and 0 < f.line <= len(diagram.source_lines):
            read = diagram.source_lines[f.line - 1].strip()
        f.read = read or None

"""grade: a learner's drawing vs the reference -> findings with lines, a score, a status.

Public API: `grade_text(text, *, file, reference)` and `grade_file(path, *, reference)`.
The score formula and finding kinds are documented in docs/grading.md.
"""

from __future__ import annotations

import os

from drawcheck.grade import checks
from drawcheck.grade.model import FINDING_KINDS, BoundaryPlacement, DrawnPoint, Finding, Result  # noqa: F401
from drawcheck.parse import parse_bytes, parse_text
from drawcheck.parse.model import Diagram
from drawcheck.recognise import recognise
from drawcheck.reference.model import Reference

try:  # the safety module is optional for grading; when present its items become `unsafe` findings
    from drawcheck.safety import find_unsafe as _find_unsafe
except ImportError:  # pragma: no cover - only while the module does not exist
    _find_unsafe = None

__all__ = ["grade_text", "grade_file", "grade_diagram", "max_edits", "Result", "Finding"]


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
        finding = Finding("syntax", None, None, "correction", f"cannot read the file ({exc.strerror or exc})")
        return Result(file=name, status="invalid", score=0.0, findings=[finding])
    diagram = parse_bytes(data)
    text = data.decode("utf-8", errors="replace")
    return grade_diagram(diagram, text, file=name, reference=reference)


def max_edits(ref: Reference) -> int:
    """The denominator of the score: every required item the drawing can get wrong once."""
    cached = ref._derived.get("max_edits")
    if cached is not None:
        return cached
    n = sum(1 for s in ref.steps if s.required and not (ref.cache_function and s.id == ref.cache_function.step))
    n += sum(1 for spec in (ref.boundary, ref.reason, ref.cache_function) if spec is not None)
    if ref.boundary is not None:
        n += 1  # marking the cycles at all
    ref._derived["max_edits"] = max(n, 1)
    return max(n, 1)


def grade_diagram(diagram: Diagram, text: str, *, file: str, reference: Reference) -> Result:
    """Grade an already parsed drawing (the plugin parses once and reuses the Diagram)."""
    ref = reference
    scored: list[tuple[Finding, int]] = []
    for err in diagram.errors:
        msg = err.message + (f" ({err.hint})" if err.hint else "")
        scored.append((Finding("syntax", None, err.line, "correction", msg), 0))
    if _find_unsafe is not None:
        for item in _find_unsafe(diagram, text):
            scored.append((Finding("unsafe", None, item.line, "correction", item.what), 0))

    rec = recognise(diagram, ref)
    scored += checks.names(rec, ref)
    scored += checks.extras(rec, ref)
    scored += checks.missing(rec, ref)
    scored += checks.branches(rec, ref)
    steps = checks.drawn_steps(rec, ref)
    scored += checks.order(rec, ref, steps)
    boundary_findings, circled = checks.boundary(rec, ref, steps)
    scored += boundary_findings
    cycle_findings = checks.cycles(rec, ref, circled, steps)
    if cycle_findings:
        # one circle per step and line: a step in the wrong cycle is not also out of order there
        wrong = {(f.point, f.line) for f, _ in cycle_findings if f.kind == "wrong-cycle"}
        scored = [(f, e) for f, e in scored if f.kind != "order" or (f.point, f.line) not in wrong]
    scored += cycle_findings
    scored += checks.reason(rec, ref)
    cache_findings, cache_text = checks.cache_function(rec, ref)
    scored += cache_findings
    scored += checks.beliefs(rec, ref)

    edits = 0
    corrections = False
    ordered = []  # (sort key, position, finding): by line (none last), then kind; a stable sort
    for position, (f, e) in enumerate(scored):
        if f.severity == "correction":
            edits += e
            corrections = True
        line = f.line
        ordered.append((line is None, line or 0, _KIND_RANK.get(f.kind, 99), position, f))
    score = max(0.0, 1.0 - edits / max_edits(ref))
    ordered.sort()
    findings = [entry[4] for entry in ordered]
    status = "invalid" if diagram.errors else "corrections" if corrections else "correct"
    return Result(
        file=file, status=status, score=score, points=steps.points, boundary=steps.placement,
        findings=findings, reason=rec.reason.text if rec.reason else None, cache_function=cache_text,
    )


_KIND_RANK = {kind: i for i, kind in enumerate(FINDING_KINDS)}


"""The circled drawing against the real two-cycles reference: insertions keep the reference order."""

from __future__ import annotations

from pathlib import Path

from drawcheck.grade import grade_text
from drawcheck.parse import parse_text
from drawcheck.reference import load_reference
from drawcheck.render.feedback import feedback_page, feedback_setup
from drawcheck.render.model import Graded

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = load_reference(str(ROOT / "reference/two-cycles/exercise.yml"))

NO_CYCLES_NO_PREBIND = """sequenceDiagram
    participant S as Scheduler
    S->>S: PreFilter
    S->>S: Filter
    S->>S: PreScore
    S->>S: Score
    S->>S: NormalizeScore
    S->>S: assume (AssumePod)
    S->>S: Reserve
    S->>S: Permit
    S->>S: Bind
    S->>S: PostBind
"""


def _circled(text: str) -> str:
    result = grade_text(text, file="answers/ada.mmd", reference=REFERENCE)
    page = feedback_page(Graded("ada", "answers/ada.mmd", result, parse_text(text)), feedback_setup(REFERENCE))
    blocks = page.split("```mermaid")
    return blocks[1]  # the drawing, drawn back with the circles (shown once)


def test_true_boundary_is_drawn_right_after_permit_before_a_missing_prebind():
    circled = _circled(NO_CYCLES_NO_PREBIND)
    permit = circled.index("S#58; Permit") if "S#58; Permit" in circled else circled.index(": Permit")
    boundary = circled.index("#8596; true boundary")
    prebind = circled.index("missing#58; PreBind")
    assert permit < boundary < prebind < circled.index(": Bind")


def test_missing_steps_are_not_drawn_as_async_arrows():
    circled = _circled(NO_CYCLES_NO_PREBIND)
    missing_lines = [ln for ln in circled.splitlines() if "missing#58;" in ln]
    assert missing_lines and all("-->>" in ln and "--)" not in ln for ln in missing_lines)


def _boundary_drawing(before_go: list[str], after_go: list[str]) -> str:
    lines = ["sequenceDiagram", "    participant S as Scheduler thread", "    participant B as Binding goroutine"]
    lines += [f"    S->>S: {step}" for step in before_go]
    lines += ["    S-)B: go runBindingCycle",
              "    Note over S,B: reason: binding waits on the API write, the scheduling thread must not, the pod is assumed"]
    lines += [f"    B->>B: {step}" for step in after_go]
    return "\n".join(lines) + "\n"


SCHEDULING = ["PreFilter", "Filter", "PreScore", "Score", "NormalizeScore", "assume (AssumePod)", "Reserve", "Permit"]
BINDING = ["WaitOnPermit", "PreBind", "Bind", "PostBind"]


def test_overview_bucket_agrees_with_the_boundary_correction():
    from drawcheck.render.stats import boundary_bucket, boundary_offset, describe_boundary

    cases = {
        "correct": (SCHEDULING, BINDING),
        "1 early": (SCHEDULING[:-1], ["Permit"] + BINDING),
        "2+ early": (SCHEDULING[:-2], ["Reserve", "Permit"] + BINDING),
        "late": (SCHEDULING + ["WaitOnPermit"], BINDING[1:]),  # the blocking-wait belief
    }
    for bucket, (before, after) in cases.items():
        result = grade_text(_boundary_drawing(before, after), file="answers/x.mmd", reference=REFERENCE)
        assert boundary_bucket(boundary_offset(result.boundary)) == bucket, (bucket, result.boundary)
        has_boundary_correction = any(f.kind == "boundary" for f in result.corrections)
        assert has_boundary_correction is (bucket != "correct"), (bucket, result.findings)
        assert describe_boundary(result.boundary, REFERENCE).endswith(f"({bucket})")

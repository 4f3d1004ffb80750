"""Hand-built objects for the render tests: a small reference, a learner's diagram, its result."""

from __future__ import annotations

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint, Finding, Result
from drawcheck.parse.model import Block, Branch, Diagram, Message, Note, Participant
from drawcheck.reference.model import BoundarySpec, Reference, Step

STEPS = [
    ("PreFilter", "scheduling", True), ("Filter", "scheduling", True), ("PostFilter", "scheduling", True),
    ("PreScore", "scheduling", True), ("Score", "scheduling", True), ("NormalizeScore", "scheduling", True),
    ("Reserve", "scheduling", True), ("Permit", "scheduling", True), ("WaitOnPermit", "binding", False),
    ("PreBind", "binding", True), ("Bind", "binding", True), ("PostBind", "binding", True),
    ("Unreserve", "failure", True),
]


def make_reference() -> Reference:
    steps = [Step(id=i, name=i, cycle=c, tier="A" if r else "C", required=r, index=n)
             for n, (i, c, r) in enumerate(STEPS)]
    return Reference(
        exercise_id="two-cycles", title="Two cycles", steps=steps, product="Kubernetes", path="reference/two-cycles/exercise.yml",
        explanations={"boundary": "# Why the boundary is there\n\nBinding runs in a goroutine.\n\n- point one",
                      "cache": "Assume before Reserve."},
        reference_diagram="sequenceDiagram\n    participant S as Scheduler\n    S->>S: PreFilter\n",
        boundary=BoundarySpec(after="Permit", cycles=("scheduling", "binding"), markers=("go",),
                              missing="no boundary", early="early", late="late"),
    )


def make_diagram() -> Diagram:
    """Scheduler/Plugins drawing; boundary (a note) between Reserve and Permit; NormalizeScore missing."""
    d = Diagram(header_line=1)
    d.participants = [Participant("S", "Scheduler", "participant", 2), Participant("P", "Plugins <b>", "actor", 3)]
    d.statements = [
        Message("S", "P", "PreFilter", "->>", 4),
        Message("S", "P", "Filter", "->>", 5),
        Block("alt", "no node fits", 6, 9, [
            Branch("alt", "no node fits", 6, [Message("S", "P", "PostFilter", "->>", 7)]),
            Branch("else", "some fit", 8, [Message("S", "P", "Score; %%{init}%%", "->>", 9)]),
        ]),
        Message("S", "P", "Reserve", "->>", 11),
        Note("over", ("S", "P"), "go func: boundary", 12),
        Message("S", "P", "Permit", "-->>", 13),
        Message("S", "P", "Bind", "->>", 14),
    ]
    return d


def make_result() -> Result:
    return Result(
        file="answers/ada.mmd", status="corrections", score=0.5,
        points=[DrawnPoint("PreFilter", "PreFilter", 4, "scheduling"), DrawnPoint("Filter", "Filter", 5, "scheduling"),
                DrawnPoint("PostFilter", "PostFilter", 7, "scheduling"), DrawnPoint("Score", "Score", 9, "scheduling"),
                DrawnPoint("Reserve", "Reserve", 11, "scheduling"), DrawnPoint("Permit", "Permit", 13, "binding"),
                DrawnPoint("Bind", "Bind", 14, "binding")],
        boundary=BoundaryPlacement(after="Reserve", before="Permit", line=12, offset=-1),
        findings=[
            Finding("wrong-cycle", "Permit", 13, "correction", "Permit runs in the scheduling cycle", "v1.15–v1.17"),
            Finding("boundary", None, 12, "correction", "the boundary is one point too early: after Permit"),
            Finding("missing", "NormalizeScore", None, "correction", "NormalizeScore is missing"),
            Finding("cache-function", None, None, "correction", "name the function at the cache boundary"),
            Finding("extra", None, 9, "hint", "<script>alert(1)</script> is not a point"),
        ],
        reason="because <img src=x onerror=alert(1)> --8<-- \"/etc/passwd\"",
        cache_function="Reserve",
    )



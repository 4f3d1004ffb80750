"""Hand-built objects for the render tests: a small reference, a learner's diagram, its result."""

from __future__ import annotations

from drawcheck.grade.model import BoundaryPlacement, DrawnPoint, Finding, Result
from drawcheck.parse.model import Block, Branch, Diagram, Message, Note, Participant
from drawcheck.reference import Reference, parse_reference

STEPS = [
    ("PreFilter", "scheduling", True), ("Filter", "scheduling", True), ("PostFilter", "scheduling", True),
    ("PreScore", "scheduling", True), ("Score", "scheduling", True), ("NormalizeScore", "scheduling", True),
    ("Reserve", "scheduling", True), ("Permit", "scheduling", True), ("WaitOnPermit", "binding", False),
    ("PreBind", "binding", True), ("Bind", "binding", True), ("PostBind", "binding", True),
    ("Unreserve", "failure", True),
]

EXERCISE = """\
exercise: two-cycles
title: Two cycles
product: Kubernetes
cycles:
  scheduling: {name: scheduling cycle, words: [scheduling cycle]}
  binding: {name: binding cycle, words: [binding cycle]}
  failure: {name: failure path, role: branch, words: [failure path]}
steps:
%s
boundary:
  after: Permit
  cycles: [scheduling, binding]
  markers: [go]
  missing: no boundary
  early: early
  late: late
  true_boundary: "the boundary is here: the go statement that starts the binding cycle"
reason: {prefixes: [reason], groups: [{name: why, words: [wait]}], missing: no reason, wrong: wrong reason,
         shown_as: Reason at the boundary}
named_function:
  step: Reserve
  prefixes: [cache]
  before: [Permit]
  missing: name it
  misplaced: too late
  same_line: same line
  shown_as: Function at the cache boundary
feedback:
  correct: "None: every point, the boundary, the reason and the cache function match."
  assumed_example: "Note over Scheduler: assumed 1: Permit waits in the binding cycle"
"""


def make_reference() -> Reference:
    steps = "\n".join(f"  - {{id: {i}, cycle: {c}, tier: {'A' if r else 'C'}}}" for i, c, r in STEPS)
    ref = parse_reference(EXERCISE % steps, file="reference/two-cycles/exercise.yml")
    ref.explanations = {"boundary": "# Why the boundary is there\n\nBinding runs in a goroutine.\n\n- point one",
                        "cache": "Assume before Reserve."}
    ref.reference_diagram = "sequenceDiagram\n    participant S as Scheduler\n    S->>S: PreFilter\n"
    return ref


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

"""The check interface: a registry keyed by YAML section, checks only where configured, an exercise of
another shape (many participants, watches, no boundary) from data alone, and `source:` on notes."""

from __future__ import annotations

import gc
import json
from pathlib import Path

import pytest

from drawcheck.grade import grade_text, max_edits
from drawcheck.grade.checks import REGISTRY
from drawcheck.grade.model import FINDING_KINDS, FindingKind
from drawcheck.reference import ReferenceError, load_reference, parse_reference, refuse_unsourced, unsourced

ROOT = Path(__file__).resolve().parents[2]

# A throw-away exercise of another shape: messages between several participants, one step a watch.
ROLLOUT = """\
exercise: rollout
title: From apply to running
product: Orchestra
cycles:
  control: {name: control plane, words: [control plane]}
  node: {name: node agent, words: [node agent]}
steps:
  - {id: Submit, cycle: control, tier: A, teach: "sends the object to the front door"}
  - {id: Admit, cycle: control, tier: A, teach: "checks who may do it"}
  - {id: Store, cycle: control, tier: A, teach: "writes the object to the store", synonyms: [persist]}
  - {id: Place, cycle: control, tier: A, teach: "picks a machine"}
  - {id: Watch, cycle: node, tier: A, teach: "is how the agent learns of its work", synonyms: [watches, list watch]}
  - {id: Start, cycle: node, tier: A, teach: "starts the process"}
  - {id: Report, cycle: node, tier: B, teach: "writes the status back"}
directions:
  - step: Watch
    from: [agent]
    to: [front door]
    message: "the agent watches the front door; the front door never calls the agent"
    source: {url: "https://example.org/agent", section: Watch}
"""

RIGHT = """\
sequenceDiagram
    participant C as client
    participant F as front door
    participant S as store
    participant A as agent
    C->>F: Submit
    F->>F: Admit
    F->>S: Store
    F->>F: Place
    A->>F: Watch
    A->>A: Start
    A->>F: Report
"""


@pytest.fixture
def rollout(tmp_path):
    path = tmp_path / "exercise.yml"
    path.write_text(ROLLOUT, encoding="utf-8")
    return load_reference(path)


def test_the_registry_is_keyed_by_section_and_each_kind_has_one_owner():
    assert list(REGISTRY) == ["names", "not_steps", "missing", "branches", "order", "failure_paths", "boundary",
                              "phases", "reason", "named_function", "beliefs", "directions", "own_calls",
                              "misconceptions"]
    owners = [k for cls in REGISTRY.values() for k in cls.kinds]
    assert len(owners) == len(set(owners))
    assert isinstance(FindingKind.MISSING, str) and FindingKind("cache-function") is FindingKind.NAMED_FUNCTION
    assert set(FINDING_KINDS) == {k.value for k in FindingKind} - {"direction", "belief", "intake"}
    assert json.dumps({"kind": FindingKind.WRONG_PHASE}) == '{"kind": "wrong-cycle"}'
    assert f"{FindingKind.ORDER}" == "order" and str(FindingKind.ORDER) == "order"


def test_checks_run_only_where_configured(rollout, reference):
    assert [c.section for c in rollout.checks] == ["names", "missing", "order", "phases", "directions"]
    assert rollout.boundary is None and rollout.roles == ()
    assert [c.section for c in reference.checks] == ["names", "not_steps", "missing", "branches", "order",
                                                     "failure_paths", "boundary", "phases", "reason", "named_function",
                                                     "beliefs", "own_calls"]
    # the flagship's denominator: 12 required steps without the named one + boundary, phases, reason, function
    assert max_edits(reference) == sum(1 for s in reference.steps if s.required and s.id != "Assume") + 4


def test_an_exercise_of_another_shape_from_data_alone(rollout):
    r = grade_text(RIGHT, file="ada.mmd", reference=rollout)
    assert r.status == "correct", [(f.kind, f.message) for f in r.findings]
    assert r.score == 1.0 and r.boundary is None
    assert [p.point for p in r.points] == ["Submit", "Admit", "Store", "Place", "Watch", "Start", "Report"]


def test_a_watch_drawn_the_wrong_way_round_is_a_correction(rollout):
    wrong = RIGHT.replace("A->>F: Watch", "F->>A: Watch")
    r = grade_text(wrong, file="ada.mmd", reference=rollout)
    assert [(f.kind, f.point, f.line, f.severity) for f in r.findings] == [("direction", "Watch", 10, "correction")]
    assert "never calls the agent" in r.findings[0].message
    assert r.score == pytest.approx(1 - 1 / max_edits(rollout))
    # between participants the rule does not name: the grader cannot tell, so it says nothing
    unknown = RIGHT.replace("A->>F: Watch", "S->>C: Watch")
    assert not [f for f in grade_text(unknown, file="x.mmd", reference=rollout).findings if f.kind == "direction"]


def test_order_and_missing_work_without_a_boundary(rollout):
    text = RIGHT.replace("    F->>F: Admit\n", "").replace("A->>A: Start", "A->>A: Start\n    F->>F: Admit")
    r = grade_text(text, file="x.mmd", reference=rollout)
    assert ("order", "Admit", 11, "correction") in [(f.kind, f.point, f.line, f.severity) for f in r.findings]
    r = grade_text(RIGHT.replace("    A->>F: Report\n", ""), file="x.mmd", reference=rollout)
    assert [(f.kind, f.point, f.message) for f in r.findings] == [
        ("missing", "Report", "Report is missing: it writes the status back")]


def test_message_templates_come_from_the_section(tmp_path):
    text = ROLLOUT + "missing:\n  messages: {missing: \"{step} fehlt: es {teach}\"}\n"
    ref = parse_reference(text, file=str(tmp_path / "e.yml"))
    r = grade_text(RIGHT.replace("    A->>F: Report\n", ""), file="x.mmd", reference=ref)
    assert r.findings[0].message == "Report fehlt: es writes the status back"
    with pytest.raises(ReferenceError) as info:
        parse_reference(ROLLOUT + "missing:\n  messages: {absent: x}\n", file="e.yml")
    assert "unknown key 'absent'" in info.value.message and info.value.line == ROLLOUT.count("\n") + 2


def test_a_directions_rule_names_a_step(tmp_path):
    text = ROLLOUT.replace("  - step: Watch", "  - step: Peek")
    with pytest.raises(ReferenceError) as info:
        parse_reference(text, file="e.yml")
    assert "'Peek', which is not a step id" in info.value.message
    assert info.value.line == text.splitlines().index("  - step: Peek") + 1


SOURCED = {
    "{repo: o/r, ref: v1.37.0, path: pkg/a.go, line: 123}": "https://github.com/o/r/blob/v1.37.0/pkg/a.go#L123",
    "{repo: o/r, ref: v1.37.0, path: pkg/a.go, lines: 120-131}": "https://github.com/o/r/blob/v1.37.0/pkg/a.go#L120-L131",
    "{repo: o/r, ref: master, commit: " + "a" * 40 + ", path: x.go, line: 1}": "https://github.com/o/r/blob/" + "a" * 40 + "/x.go#L1",
    "{kep: 624, section: Binding cycle}": "https://example.org/keps/624-framework",
    "{pr: 24197}": "https://github.com/o/r/pull/24197",
    "{pr: 70227, repo: other/repo}": "https://github.com/other/repo/pull/70227",
    '{url: "https://example.org/docs/", section: Bind}': "https://example.org/docs/",
}
WITH_NOTE = """\
exercise: tiny
title: Tiny
sources: {repo: o/r, keps: {624: "https://example.org/keps/624-framework"}}
cycles:
  first: {name: first phase, words: [first phase]}
steps:
  - id: Alpha
    cycle: first
    tier: A
    legacy:
      - name: alef
        message: old name
        versions: v1
        source: SOURCE
  - id: Beta
    cycle: first
    tier: A
    wrong_cycle: {message: m, versions: v2, source: {pr: 2}}
"""


@pytest.mark.parametrize("written,url", SOURCED.items())
def test_each_source_form_maps_to_its_url(written, url):
    ref = parse_reference(WITH_NOTE.replace("SOURCE", written), file="e.yml")
    (source,) = ref.step("Alpha").legacy[0].sources
    assert source.url == url and source.line == 14


@pytest.mark.parametrize("written,expect", [
    ("{pr: 0}", "above 0"), ("{repo: o/r, ref: v1.37.0, path: a.go}", "exactly one of"),
    ("{repo: o/r, ref: latest, path: a.go, line: 1}", "must be a tag"), ("{kep: 9}", "KEP 9 is not listed"),
    ('{url: "http://x"}', "https://"), ("{repo: o/r, ref: v1.0.0, path: ../a.go, line: 1}", "inside the repository"),
    ("{pr: 1, colour: red}", "unknown key 'colour'"), ("{repo: o/r, ref: v1.0.0, path: a, lines: 9-3}", "first line first"),
])
def test_a_bad_source_is_refused_at_its_line(written, expect):
    with pytest.raises(ReferenceError) as info:
        parse_reference(WITH_NOTE.replace("SOURCE", written), file="e.yml")
    assert expect in info.value.message and info.value.line == 14


def test_a_version_note_without_a_source_is_refused(tmp_path):
    text = WITH_NOTE.replace("        source: SOURCE\n", "").replace(", source: {pr: 2}}", "}")
    ref = parse_reference(text, file="e.yml", require_sources=False)  # only for listing what is missing
    assert [line for _, line in unsourced(ref)] == [11, 17]
    with pytest.raises(ReferenceError) as info:
        parse_reference(text, file="e.yml")
    assert info.value.line == 11 and "needs `source:`" in info.value.message and "1 more" in info.value.message
    sourced = text.replace("        versions: v1\n", "        versions: v1\n        source: {pr: 1}\n").replace(
        "{message: m, versions: v2}", "{message: m, versions: v2, source: {pr: 2}}")
    refuse_unsourced(parse_reference(sourced, file="e.yml"))  # nothing missing: no error


def test_the_flagship_data_loads_with_its_sources():
    ref = load_reference(ROOT / "reference" / "two-cycles" / "exercise.yml")
    for _, _, _, sources in ref.all_notes():
        assert all(s.url.startswith("https://") for s in sources)


def test_grading_leaves_no_reference_cycles(reference):
    """Every object made while grading is freed at once (frozen dataclasses, no memo tables)."""
    texts = [p.read_text(encoding="utf-8") for p in sorted((ROOT / "answers").glob("*.mmd"))][:30]
    gc.collect()
    gc.disable()
    try:
        for text in texts:
            grade_text(text, file="x.mmd", reference=reference)
        assert gc.collect() == 0
    finally:
        gc.enable()


def test_own_calls_narrow_what_a_participants_messages_draw():
    # a message to a participant named with `participant_words` draws only the steps in `draws`
    section = "own_calls:\n  participant_words: [helper]\n  draws: [Admit]\n"
    ref = parse_reference(ROLLOUT + section, file="e.yml")
    text = RIGHT.replace("participant F as ", "participant H as helper\n    participant F as ")
    text = text.replace("    A->>F: Report\n", "    A->>H: Report\n")
    r = grade_text(text, file="x.mmd", reference=ref)
    assert ("missing", "Report") in [(f.kind, f.point) for f in r.findings]
    assert ("missing", "Report") not in [(f.kind, f.point) for f in grade_text(
        text, file="x.mmd", reference=rollout_reference()).findings]
    with pytest.raises(ReferenceError) as info:
        parse_reference(ROLLOUT + section.replace("[Admit]", "[Peek]"), file="e.yml")
    assert "'Peek', which is not a step id" in info.value.message


def rollout_reference():
    return parse_reference(ROLLOUT, file="e.yml")


@pytest.mark.parametrize("label,on_main_path", [("critical no node fits", False), ("critical filtering", True)])
def test_a_critical_block_labelled_with_a_branchs_words_holds_that_branch(reference, label, on_main_path):
    """Mermaid's first `critical` branch always runs, but `critical <the branch's condition>` is the
    learner's condition: the branch step inside is drawn as a branch."""
    text = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    assert "        opt no node fits\n" in text
    drawn = text.replace("        opt no node fits\n", f"        {label}\n", 1)
    result = grade_text(drawn, file="c.mmd", reference=reference)
    flagged = [f for f in result.findings if f.kind == FindingKind.ORDER and f.point == "PostFilter"]
    assert bool(flagged) == on_main_path


@pytest.mark.parametrize("success_branch,flagged", [("        G->>P: PostBind\n        G->>P: Unreserve\n", True),
                                                    ("        G->>P: PostBind\n", False)])
def test_a_branch_step_in_the_alt_branch_beside_its_own_is_on_the_other_path(reference, success_branch, flagged):
    """`alt bind succeeded … else bind failed`: Unreserve drawn in both branches is on the success path in the first."""
    text = ("sequenceDiagram\n    participant S\n    participant P\n    participant G\n"
            "    S->>P: PreFilter\n    S->>P: Filter\n    S->>P: Reserve\n    S->>P: Permit\n    S-)G: go bindingCycle\n"
            "    G->>P: PreBind\n    G->>P: Bind\n    alt bind succeeded\n" + success_branch +
            "    else bind failed\n        G->>P: Unreserve\n    end\n")
    result = grade_text(text, file="u.mmd", reference=reference)
    order = [(f.point, f.line) for f in result.findings if f.kind == FindingKind.ORDER and f.point == "Unreserve"]
    assert order == ([("Unreserve", 14)] if flagged else [])


@pytest.mark.parametrize("reason,belief", [
    ("binding waits (a Permit wait of up to 15 minutes, a slow API write), the thread does not wait, "
     "it is safe because the pod is assumed", False),  # the 15 minutes are the Permit wait's
    ("binding waits on the API server, so it must not hold the thread, the assumed pod expires after 15 min", True),
    ("binding is slow and the thread does not wait, the pod is assumed, it expires after 30 s", True),
])
def test_a_beliefs_with_words_stand_in_its_clause_or_the_next_one(reference, reason, belief):
    text = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    old = "reason: binding waits on the API server, so it must not hold the one scheduling thread, safe as the pod is assumed"
    assert old in text
    result = grade_text(text.replace(old, "reason: " + reason), file="b.mmd", reference=reference)
    expiry = [f for f in result.findings if f.kind == FindingKind.NAMED_FUNCTION and "expire" in f.message]
    assert bool(expiry) == belief


def test_a_step_in_a_loop_over_the_nodes_stays_where_it_is_when_a_later_message_names_it_in_passing(reference):
    text = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    assert "        S->>P: Score (per node, in parallel)\n        S->>P: NormalizeScore\n" in text
    drawn = text.replace("        S->>P: Score (per node, in parallel)\n        S->>P: NormalizeScore\n",
                         "        loop each feasible node\n            S->>P: Score\n        end\n"
                         "        S->>P: NormalizeScore, so that the scores compare\n")
    result = grade_text(drawn, file="l.mmd", reference=reference)
    assert [f for f in result.findings if f.severity == "correction"] == []


@pytest.mark.parametrize("note,is_reason", [("ok: a kötés lassú, az ütemező nem vár, a pod feltételezett", True),
                                            ("ok#58; a kötés lassú", True),  # the colon as Mermaid's entity code
                                            ("ok", False)])
def test_a_reason_prefix_with_its_colon_is_no_answer(reference, note, is_reason):
    from drawcheck.parse import parse_text
    from drawcheck.recognise import recognise

    text = "sequenceDiagram\n    participant S\n    participant F\n    F-->>S: " + note + "\n"
    (item,) = recognise(parse_text(text), reference).items
    assert (item.role == "reason") == is_reason


REASON_LINE = ("    Note over S,B: reason: binding waits on the API server, so it must not hold the one scheduling thread, "
               "safe as the pod is assumed\n")


def _reference_with(reference_text: str, old: str, new: str) -> str:
    assert old in reference_text
    return reference_text.replace(old, new)


@pytest.mark.parametrize("note,verdict", [
    # beside the `go`, naming a step: the reason when it touches every idea
    ("async bind, safe b/c the pod is assumed, the loop does not wait for the API", None),
    # a belief beside it, naming steps, is no reason (two ideas only)
    ("a Permit wait blocks the scheduler", "correction"),
    # in letters outside ASCII, words not listed (Estonian): no verdict, a hint
    ("põhjus: sidumine peab kirjutama serverisse, ajastaja läheb järgmise podi juurde", "hint"),
    # Vietnamese is listed: read, two ideas, no verdict withheld
    ("lý do: ràng buộc phải ghi vào máy chủ, luồng lập lịch chuyển sang pod tiếp theo", None),
])
def test_an_unlabelled_note_beside_the_boundary(reference, note, verdict):
    text = _reference_with((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8"),
                           REASON_LINE, f"    Note over S,B: {note}\n")
    reasons = [f for f in grade_text(text, file="r.mmd", reference=reference).findings if f.kind == FindingKind.REASON]
    assert [f.severity for f in reasons if f.severity == "correction" or "could not read" in f.message] == (
        [verdict] if verdict else [])


@pytest.mark.parametrize("changes", [
    [("        S->>P: Score (per node, in parallel)\n", "        S->>P: ~~NormalizeScore~~ Score (per node)\n")],
    [("        S->>C: UpdateSnapshot\n", ""),
     ("        B->>P: PostBind\n", "        B->>P: PostBind\n        Note over B: TODO UpdateSnapshot goes at the top? left it out\n")],
    [("        S->>C: UpdateSnapshot\n", "        S->>C: UpdateSnapshot (pkg/scheduler/bind_one.go:42)\n")],
])
def test_what_a_text_crosses_out_or_leaves_to_do_draws_nothing(reference, changes):
    """`~~Name~~`, a `TODO` note and a file's name are no drawing of a step: no mistake comes of them."""
    text = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    for old, new in changes:
        text = _reference_with(text, old, new)
    assert [f for f in grade_text(text, file="t.mmd", reference=reference).findings if f.severity == "correction"] == []


def test_an_answer_is_no_steps_place_after_a_loop(reference):
    """`loop for each Score plugin` then `P-->>S: scores scaled`: the answer names Score in passing."""
    text = _reference_with((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8"),
                           "        S->>P: Score (per node, in parallel)\n        S->>P: NormalizeScore\n",
                           "        loop for each Score plugin\n            S->>P: Score(node)\n        end\n"
                           "        S->>P: NormalizeScore\n        P-->>S: scores scaled to 0..100\n")
    assert [f for f in grade_text(text, file="a.mmd", reference=reference).findings if f.severity == "correction"] == []


def test_a_question_and_its_answer_read_as_the_answer(reference):
    """`Q: why there? A: reason: ...` (the exercise's questions answered in notes): the answer is the reason."""
    text = _reference_with((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8"),
                           REASON_LINE, "    Note over S,B: Q: why is the go there? A: reason: binding waits on the API "
                                        "server, the thread moves on to the next pod, safe as the pod is assumed\n")
    assert [f for f in grade_text(text, file="q.mmd", reference=reference).findings if f.kind == FindingKind.REASON] == []


def test_a_steps_question_draws_no_step_it_asks_about(reference):
    """`Permit: may it bind now?` is Permit: the Bind it asks about is no Bind in the scheduling cycle."""
    text = _reference_with((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8"),
                           "        S->>P: Permit\n", "        S->>P: \"Permit: may it bind now?\"\n")
    assert [f for f in grade_text(text, file="p.mmd", reference=reference).findings if f.severity == "correction"] == []
    bare = text.replace("\"Permit: may it bind now?\"", "Permit, then it may bind now")
    assert [f.point for f in grade_text(bare, file="b.mmd", reference=reference).findings
            if f.severity == "correction"] == ["Bind"]  # said, not asked: drawn in the scheduling cycle


def test_a_failure_section_drawn_before_the_whole_flow_is_no_early_step(reference):
    text = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    failure = text[text.index("    rect rgb(252, 232, 230)\n"):text.rindex("    end\n") + len("    end\n")]
    moved = text.replace(failure, "").replace("    rect rgb(227, 238, 252)\n", failure + "    rect rgb(227, 238, 252)\n", 1)
    assert moved != text and moved.index("Unreserve") < moved.index("PreFilter")
    assert [f for f in grade_text(moved, file="f.mmd", reference=reference).findings if f.severity == "correction"] == []


def test_a_branch_step_on_the_main_path_is_a_branch_when_the_note_after_it_says_so(reference):
    """`S->>P: PreFilter → Filter → PostFilter?` then `Note: PostFilter only if Filter leaves no node`."""
    text = _reference_with((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8"),
                           "        opt no node fits\n            S->>P: PostFilter (preemption)\n"
                           "            Note over S,P: the cycle ends, the pod goes back to the queue\n        end\n",
                           "        S->>P: PostFilter?\n        Note right of P: PostFilter only if Filter leaves no node\n")
    assert [f for f in grade_text(text, file="b.mmd", reference=reference).findings if f.severity == "correction"] == []
    bare = text.replace("        Note right of P: PostFilter only if Filter leaves no node\n", "")
    assert [f.point for f in grade_text(bare, file="m.mmd", reference=reference).findings
            if f.severity == "correction"] == ["PostFilter"]

"""Golden tests of the second exercise: every reference/kubectl-apply/examples/*.yml, graded by the real engine.

Each example's expected status, drawn points (step -> line) and findings (kind, step, line, severity; a
`belief` names its misconception by message, a `name` finding by a substring, a `version` by a substring
of the version note) must be exactly what grading gives. The expectations are the data's
(examples/README.md); the status `hints` is the engine's `correct` with hints only.
"""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from drawcheck.grade import grade_file, grade_text
from drawcheck.grade.model import FindingKind
from drawcheck.reference import ReferenceError, load_reference, parse_reference

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "kubectl-apply"
EXAMPLES = sorted((EXERCISE / "examples").glob("*.yml"))

# Examples the engine still grades otherwise than their expectations say (strict xfails), with why.
ENGINE_GAPS: dict[str, str] = {}


@pytest.fixture(scope="module")
def ref():
    return load_reference(EXERCISE / "exercise.yml", require_sources=True)


@pytest.fixture(scope="module")
def data():
    return yaml.safe_load((EXERCISE / "exercise.yml").read_text(encoding="utf-8"))


def test_the_reference_drawing_grades_correct_with_every_drawn_step(ref):
    result = grade_file(EXERCISE / "reference.mmd", reference=ref)
    assert result.status == "correct" and result.findings == [] and result.score == 1.0
    drawn = {p.point for p in result.points}
    not_drawn = {s.id for s in ref.steps if s.cycle == "controllers" or s.id in ("RelistStatus", "KubectlSeesRunning")}
    assert drawn == {s.id for s in ref.steps} - not_drawn


@pytest.mark.parametrize("path", EXAMPLES, ids=lambda p: p.stem)
def test_example_grades_as_expected(path, ref, data, request):
    if path.stem in ENGINE_GAPS:
        request.applymarker(pytest.mark.xfail(reason=ENGINE_GAPS[path.stem], strict=True))
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    result = grade_file(path.with_name(case["drawing"]), reference=ref)
    messages = {m["id"]: m["message"] for m in data["misconceptions"]["rules"]}

    assert result.status == {"hints": "correct"}.get(case["status"], case["status"])
    if case["status"] == "hints":
        assert result.findings and all(f.severity == "hint" for f in result.findings)
    assert {p.point: p.line for p in result.points} == case["points"]
    got = sorted((f.kind.value, f.point, f.line, f.severity) for f in result.findings)
    want = sorted((f["kind"], f["point"], f["line"], f["severity"]) for f in case["findings"])
    assert got == want
    for f in case["findings"]:
        finding = next(g for g in result.findings if (g.kind.value, g.point, g.line) == (f["kind"], f["point"], f["line"]))
        if f["kind"] == "belief":
            assert finding.message == messages[f["misconception"]]
        if "message" in f:
            assert f["message"] in finding.message
        if "version" in f:
            assert f["version"] in (finding.version or "")


def test_each_misconception_is_found_only_by_its_shape(ref):
    """The same drawing, once right and once with one arrow reversed or one pair of steps swapped."""
    right = (EXERCISE / "reference.mmd").read_text(encoding="utf-8")
    assert not [f for f in grade_text(right, file="r.mmd", reference=ref).findings if f.kind == FindingKind.BELIEF]
    swaps = {
        "        K->>R: PullImage\n": "",  # moved before the sandbox below
        "        K->>R: RunPodSandbox\n": "        K->>R: PullImage\n        K->>R: RunPodSandbox\n",
    }
    wrong = right
    for old, new in swaps.items():
        assert old in wrong
        wrong = wrong.replace(old, new, 1)
    beliefs = [f for f in grade_text(wrong, file="w.mmd", reference=ref).findings if f.kind == FindingKind.BELIEF]
    assert [(f.point, f.severity) for f in beliefs] == [("PullImage", "correction")]
    line = wrong.splitlines().index("        K->>R: PullImage") + 1
    assert beliefs[0].line == line

    pushed = right.replace("A-->>K: watch event: pod bound to node-1", "A->>K: run this pod")
    beliefs = [f for f in grade_text(pushed, file="p.mmd", reference=ref).findings if f.kind == FindingKind.BELIEF]
    assert [f.point for f in beliefs] == ["KubeletWatch"]
    # the same arrow as a dashed event, or with watch words, is the watch: no misconception
    for ok in ("A-->>K: run this pod", "A->>K: watch event: run this pod", "A-)K: run this pod"):
        text = right.replace("A-->>K: watch event: pod bound to node-1", ok)
        assert not [f for f in grade_text(text, file="o.mmd", reference=ref).findings
                    if f.kind == FindingKind.BELIEF], ok


def test_unknown_participants_are_left_alone(ref):
    """A participant the exercise cannot name (`X`) reveals nothing: the grader cannot tell who it is."""
    text = (EXERCISE / "reference.mmd").read_text(encoding="utf-8").replace(
        "participant R as Container runtime (CRI)", "participant R as X")
    beliefs = [f for f in grade_text(text, file="x.mmd", reference=ref).findings if f.kind == FindingKind.BELIEF]
    assert beliefs == []


MINI = """\
exercise: mini
title: Mini
cycles: {one: {name: one, words: [phase one]}}
steps:
  - {id: Ask, cycle: one, tier: A}
  - {id: Answer, cycle: one, tier: A}
misconceptions:
  participants:
    client: {name: client, words: [client]}
    server: {name: server, words: [server]}
  rules:
"""


@pytest.mark.parametrize("rules, error", [
    ("    - {id: a, message: m, when: [{arrow: {from: client, to: nobody}}]}\n", "not a participant"),
    ("    - {id: a, message: m, when: [{order: [Ask]}]}\n", "two steps"),
    ("    - {id: a, message: m, when: [{order: [Ask, Nope]}]}\n", "not a step id"),
    ("    - {id: a, message: m, when: [{arrow: {from: client, to: server}, order: [Ask, Answer]}]}\n", "either"),
    ("    - {id: a, message: m, when: [{arrow: {from: client, to: server}, arrows: [push]}]}\n", "use one of"),
    ("    - {id: a, message: m, when: []}\n", "at least one shape"),
    ("    - {id: a, message: m, when: [{order: [Ask, Answer]}]}\n    - {id: a, message: n, when: [{order: [Ask, Answer]}]}\n",
     "listed twice"),
])
def test_bad_rules_are_refused_at_their_line(rules, error):
    with pytest.raises(ReferenceError) as exc:
        parse_reference(MINI + rules, file="mini.yml")
    assert error in str(exc.value) and exc.value.line is not None and exc.value.line >= 12


def test_a_rule_written_in_the_test_grades(tmp_path):
    ref = parse_reference(MINI + "    - {id: server-asks, message: the client asks first, point: Ask, "
                                 "when: [{arrow: {from: server, to: client}, arrows: [call]}]}\n", file="mini.yml")
    wrong = "sequenceDiagram\n    participant C as client\n    participant S as server\n    S->>C: Ask\n    C-->>S: Answer\n"
    result = grade_text(wrong, file="w.mmd", reference=ref)
    assert [(f.kind.value, f.point, f.line) for f in result.findings] == [("belief", "Ask", 4)]
    right = wrong.replace("S->>C: Ask", "C->>S: Ask").replace("C-->>S: Answer", "S-->>C: Answer")
    assert grade_text(right, file="r.mmd", reference=ref).findings == []
    assert result.score < 1.0


def test_named_sources_are_validated():
    base = MINI.split("misconceptions:")[0]
    with pytest.raises(ReferenceError, match="https://"):
        parse_reference("sources:\n  named:\n    bad: &bad {url: 'http://example.org'}\n" + base, file="m.yml")
    ref = parse_reference("sources:\n  named:\n    good: &good {url: 'https://example.org'}\n" + base.replace(
        "{id: Ask, cycle: one, tier: A}", "{id: Ask, cycle: one, tier: A, source: *good}"), file="m.yml")
    assert ref.step("Ask").sources[0].url == "https://example.org"


def test_from_not_and_unless_words_narrow_an_arrow_shape():
    rules = ("    - {id: not-the-client, message: only the client asks, point: Ask,\n"
             "       when: [{arrow: {from: any, to: server}, step: Ask, from_not: client, unless_words: [relay]}]}\n")
    ref = parse_reference(MINI.replace("    server: {name: server, words: [server]}\n",
                                       "    server: {name: server, words: [server]}\n"
                                       "    proxy: {name: proxy, words: [proxy]}\n") + rules, file="mini.yml")
    head = "sequenceDiagram\n    participant C as client\n    participant P as proxy\n    participant S as server\n"

    def beliefs(body):
        return [(f.point, f.line) for f in grade_text(head + body, file="m.mmd", reference=ref).findings
                if f.kind == FindingKind.BELIEF]

    assert beliefs("    P->>S: Ask\n    S-->>C: Answer\n") == [("Ask", 5)]
    assert beliefs("    C->>S: Ask\n    S-->>C: Answer\n") == []
    assert beliefs("    P->>S: Ask (relay)\n    S-->>C: Answer\n") == []
    assert beliefs("    X->>S: Ask\n    S-->>C: Answer\n") == []  # X is nobody the exercise knows


# --- steps drawn by whom a message goes between (`misconceptions.between`) ---------------------------------

HEAD = """\
sequenceDiagram
    participant U as kubectl
    participant A as kube-apiserver
    participant E as etcd
    participant S as kube-scheduler
    participant K as kubelet
    participant R as containerd
    participant N as Calico
"""
BODY = """\
    U->>A: kubectl apply -f pod.yaml
    A->>A: authentication
    A->>A: authorization
    A->>A: mutating admission
    A->>A: schema validation
    A->>A: validating admission
    A->>E: {persist}
    E-->>A: ok
    A-->>U: 201 Created
    A-->>S: {sched_event}
    S->>S: filter and score nodes
    S->>A: POST binding node-1
    A->>E: {persist}
    A-)K: {kubelet_event}
    K->>R: RunPodSandbox
    R->>N: {cni}
    K->>R: PullImage
    K->>R: CreateContainer
    K->>R: StartContainer
    K->>A: {status}
    A->>E: {persist}
"""


def _drawing(**words):
    texts = {"persist": "Put", "sched_event": "pod web", "kubelet_event": "pod web", "cni": "ADD",
             "status": "status Running", **words}
    return HEAD + BODY.format(**texts)


APPLY = "    U->>A: kubectl apply -f pod.yaml\n"


def _before_the_apply(*lines: str) -> str:
    """The drawing with `lines` drawn right before kubectl's apply."""
    return _drawing().replace(APPLY, "".join(f"    {line}\n" for line in lines) + APPLY)


def _points_of_a_correct(text: str, ref) -> dict[str, int]:
    """Where each step of `text`, a drawing that must get no correction, is drawn."""
    result = grade_text(text, file="c.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    return {p.point: p.line for p in result.points}


@pytest.mark.parametrize("words", [
    {},
    {"persist": "txn put", "sched_event": "WatchEvent", "kubelet_event": "event", "cni": "setup"},
    {"persist": "保存", "sched_event": "watch イベント", "kubelet_event": "이벤트", "status": "ステータス更新 Running"},
    {"sched_event": "pod/web (ADDED)", "kubelet_event": "pod/web (MODIFIED)"},
])
def test_messages_naming_no_step_draw_the_step_of_their_participants(ref, words):
    result = grade_text(_drawing(**words), file="b.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    points = {p.point: p.line for p in result.points}
    # each write to etcd is the one its place says: the pod's, the binding's, the status's
    assert (points["Persist"], points["PersistBinding"], points["PersistStatus"]) == (15, 21, 29)
    assert (points["SchedulerWatch"], points["KubeletWatch"], points["CNIAdd"], points["StatusUpdate"]) == (18, 22, 24, 28)


def test_an_answer_to_a_step_draws_nothing(ref):
    """`E-->>A: ok` after the write, or the API server's answer to the Binding, is no step of its own."""
    text = _drawing().replace("    S->>A: POST binding node-1\n", "    S->>A: POST binding node-1\n    A-->>S: ok\n")
    result = grade_text(text, file="a.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    assert {p.point: p.line for p in result.points}["SchedulerWatch"] == 18


def test_a_call_where_the_watch_event_is_is_that_step_drawn_wrongly(ref):
    """Not also a missing step: one mistake, one correction, on its line."""
    for old, new, point, rule in (
            ("    A-->>S: pod web\n", "    A->>S: please schedule this pod\n", "SchedulerWatch", "apiserver-calls-scheduler"),
            ("    A-)K: pod web\n", "    A->>K: run this pod on node-1\n", "KubeletWatch", "apiserver-pushes-pod"),
            ("    A-)K: pod web\n", "    S->>K: start pod web\n", "KubeletWatch", "scheduler-tells-kubelet")):
        text = _drawing().replace(old, new)
        corrections = [(f.kind.value, f.point) for f in grade_text(text, file="w.mmd", reference=ref).findings
                       if f.severity == "correction"]
        assert corrections == [("belief", point)], rule


def test_the_scheduler_writing_etcd_is_its_binding_drawn_wrongly(ref):
    text = _drawing().replace("    S->>A: POST binding node-1\n", "    S->>E: write nodeName node-1\n")
    corrections = [(f.kind.value, f.point) for f in grade_text(text, file="w.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert corrections == [("belief", "Bind")]


def test_validate_after_validate_schema_is_validating_admission(ref):
    text = _drawing().replace("A->>A: schema validation\n    A->>A: validating admission",
                              "A->>A: validate schema\n    A->>A: validate")
    result = grade_text(text, file="v.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    assert {p.point: p.line for p in result.points}["ValidatingAdmission"] == 14


def test_kubectl_waiting_for_running_is_a_correction(ref):
    text = _drawing().replace("    A-->>U: 201 Created\n", "") + "    A-->>U: 201 Created, running\n"
    corrections = [(f.kind.value, f.point) for f in grade_text(text, file="k.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert corrections == [("belief", "Created")]


# --- phase labels are descriptive here: a hint, a correction only in the step's own words -------------------

def test_a_step_under_a_later_phase_label_is_a_hint(ref):
    """Once a label's section has begun (a step of its phase drawn under it), a step of an earlier phase under
    it is a hint; before that, the label is a caption written early and says nothing of it."""
    text = _drawing().replace("    S->>A: POST binding node-1\n", "")
    text = text.replace("    K->>R: RunPodSandbox\n", "    Note over K,R: on the node\n    K->>R: RunPodSandbox\n"
                        "    S->>A: POST binding node-1\n")
    findings = grade_text(text, file="p.mmd", reference=ref).findings
    wrong = [(f.point, f.severity) for f in findings if f.kind == FindingKind.WRONG_PHASE]
    assert ("Bind", "correction") not in wrong
    # one circle on Bind's line: its order correction, where the phase label alone would be a hint
    bind = [f for f in findings if f.point == "Bind"]
    assert [(f.kind, f.severity) for f in bind] == [(FindingKind.ORDER, "correction")] or wrong == [("Bind", "hint")]
    early = _drawing().replace("    A-->>S: pod web\n", "    Note over A,S: on the node\n    A-->>S: pod web\n")
    assert [f for f in grade_text(early, file="e.mmd", reference=ref).findings
            if f.kind == FindingKind.WRONG_PHASE] == []


def test_a_label_the_drawing_moved_on_from_describes_no_later_step(ref):
    """Descriptive phases: one label at the top ("watches opened at startup", "my request goes through the
    checks") is left behind as the drawing goes on; the later phases' steps under it are not in the wrong place."""
    for note in ("Note over S,K: watches opened at startup", "Note over U,A: my request goes through the checks",
                 "Note over A,S: scheduling"):
        at = "    A-->>S: pod web\n" if "scheduling" in note else "    U->>A: "
        text = _drawing().replace(at, f"    {note}\n{at}", 1)
        result = grade_text(text, file="m.mmd", reference=ref)
        assert [f for f in result.findings if f.kind == FindingKind.WRONG_PHASE] == [], note
        assert result.status == "correct"


def test_a_step_under_another_phase_label_is_only_a_hint(ref):
    own = _drawing().replace("K->>R: PullImage", "K->>R: PullImage (scheduling)")
    wrong = [f for f in grade_text(own, file="o.mmd", reference=ref).findings if f.kind == FindingKind.WRONG_PHASE]
    assert [(f.point, f.severity) for f in wrong] == [("PullImage", "correction")]


@pytest.mark.parametrize("entry, error", [
    ("{from: client, to: nobody, steps: [Ask]}", "use one of"),
    ("{from: client, to: server, steps: [Nope]}", "not a step id"),
    ("{from: client, to: server}", "steps"),
    ("{from: client, to: server, steps: [Ask], over_names: maybe}", "over_names"),
])
def test_bad_between_entries_are_refused_at_their_line(entry, error):
    text = MINI.replace("  rules:\n", f"  between:\n    - {entry}\n  rules:\n") + \
        "    - {id: a, message: m, when: [{order: [Answer, Ask]}]}\n"
    with pytest.raises(ReferenceError) as exc:
        parse_reference(text, file="mini.yml")
    assert error in str(exc.value) and exc.value.line is not None and exc.value.line >= 12


def test_a_between_entry_written_in_the_test_draws_its_step():
    text = MINI.replace("  rules:\n", "  between:\n    - {from: server, to: client, steps: [Answer]}\n  rules:\n") + \
        "    - {id: a, message: m, when: [{order: [Answer, Ask]}]}\n"
    ref = parse_reference(text, file="mini.yml")
    head = "sequenceDiagram\n    participant C as client\n    participant S as server\n"
    result = grade_text(head + "    C->>S: Ask\n    S->>S: think\n    S-->>C: here\n", file="m.mmd", reference=ref)
    assert result.findings == [] and {p.point: p.line for p in result.points} == {"Ask": 4, "Answer": 6}
    # the answer to a message that drew a step is that step's answer, not another step
    result = grade_text(head + "    C->>S: Ask\n    S-->>C: here\n", file="m.mmd", reference=ref)
    assert [(f.kind.value, f.point) for f in result.findings] == [("missing", "Answer")]


def test_a_watch_drawn_as_the_watchers_request_where_it_delivers_is_the_event(ref):
    """docs/kubectl-apply.md: "either as the watch request from the watcher or as the event it delivers"."""
    text = _drawing().replace("    A-->>S: pod web\n", "    S->>A: watch pods without a node (long-lived)\n") \
        .replace("    A-)K: pod web\n", "    K->>A: watch pods on my node\n")
    result = grade_text(text, file="w.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    points = {p.point: p.line for p in result.points}
    assert (points["SchedulerWatch"], points["KubeletWatch"]) == (18, 22)
    # the same requests before the apply open the watches: the events are still to be drawn
    opened = HEAD + "    S->>A: watch pods without a node\n    K->>A: watch pods on my node\n" + \
        BODY.format(persist="Put", sched_event="pod web", kubelet_event="pod web", cni="ADD", status="status Running")
    result = grade_text(opened, file="o.mmd", reference=ref)
    assert result.findings == [] or all(f.severity == "hint" for f in result.findings)
    points = {p.point: p.line for p in result.points}
    assert (points["SchedulerOpensWatch"], points["SchedulerWatch"], points["KubeletWatch"]) == (9, 20, 24)


def test_an_old_name_qualified_by_one_of_its_steps_draws_only_that_step(ref):
    """"admission (mutating)" is mutating admission, not both phases at once (which would put validating
    admission before schema validation)."""
    text = _drawing().replace("A->>A: mutating admission", "A->>A: admission webhooks (mutating)") \
        .replace("A->>A: validating admission", "A->>A: PodSecurity admission")
    result = grade_text(text, file="q.mmd", reference=ref)
    assert result.findings == []
    points = {p.point: p.line for p in result.points}
    assert (points["MutatingAdmission"], points["SchemaValidation"], points["ValidatingAdmission"]) == (12, 13, 14)
    one_box = _drawing().replace("    A->>A: mutating admission\n", "").replace("A->>A: validating admission",
                                                                             "A->>A: admission")
    kinds = {(f.kind.value, f.severity) for f in grade_text(one_box, file="o.mmd", reference=ref).findings}
    assert ("name", "hint") in kinds  # the old name alone still covers both, with its hint


@pytest.mark.parametrize("old, new, want", [
    # one swap, one correction: the belief replaces the order finding of the step found out of order
    ("    A->>A: authentication\n    A->>A: authorization\n", "    A->>A: authorization\n    A->>A: authentication\n",
     [("belief", "Authenticate", 11)]),
    ("    K->>R: RunPodSandbox\n    R->>N: ADD\n    K->>R: PullImage\n",
     "    K->>R: PullImage\n    K->>R: RunPodSandbox\n    R->>N: ADD\n", [("belief", "PullImage", 23)]),
    # a step drawn between the wrong participants is that step: not also missing
    ("    K->>A: status Running\n", "    R->>A: container is running\n", [("belief", "StatusUpdate", 28)]),
    ("    R->>N: ADD\n", "    K->>N: ADD\n", [("belief", "CNIAdd", 24)]),
    ("    K->>R: StartContainer\n", "    A->>R: StartContainer\n", [("belief", "StartContainer", 27)]),
])
def test_one_mistake_one_correction(ref, old, new, want):
    text = _drawing()
    assert old in text
    result = grade_text(text.replace(old, new), file="m.mmd", reference=ref)
    assert [(f.kind.value, f.point, f.line) for f in result.findings if f.severity == "correction"] == want


def test_a_step_drawn_by_a_note_is_not_drawn_again_by_a_later_answer(ref):
    text = _drawing().replace("    A-)K: pod web\n", "    Note over A,K: the kubelet's watch delivers the bound pod\n") \
        .replace("    K->>A: status Running\n    A->>E: Put\n", "    K->>A: status Running\n    A->>E: Put\n    A-->>K: 200 OK\n")
    result = grade_text(text, file="n.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    assert {p.point: p.line for p in result.points}["KubeletWatch"] == 22


CONVENTIONS = sorted((Path(__file__).parent / "kubectl_apply_conventions").glob("*.mmd"))


@pytest.mark.parametrize("path", CONVENTIONS, ids=lambda p: p.stem)
def test_correct_drawings_in_other_conventions_get_no_correction(ref, path):
    result = grade_file(path, reference=ref)
    assert [(f.kind.value, f.point, f.line, f.message) for f in result.findings if f.severity == "correction"] == []
    drawn = {p.point for p in result.points}
    assert {s.id for s in ref.steps if s.required} <= drawn


def test_an_old_name_for_two_steps_is_placed_once_in_the_order(ref):
    """`admission` draws mutating and validating admission at one line: schema validation drawn after it is
    in order (the name hint says it merges two phases), but the merged name drawn before authentication
    is out of order, at its own line."""
    path = EXERCISE / "examples" / "mistake-apply-waits-and-one-admission.mmd"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert not [f for f in grade_text("\n".join(lines), file="a.mmd", reference=ref).findings if f.kind == FindingKind.ORDER]
    admission = lines.index("    A->>A: admission")
    authn = lines.index("    A->>A: authn")
    moved = lines[:authn] + [lines[admission]] + [l for i, l in enumerate(lines) if i >= authn and i != admission]
    order = [f for f in grade_text("\n".join(moved), file="a.mmd", reference=ref).findings if f.kind == FindingKind.ORDER]
    assert [(f.point, f.line, f.severity) for f in order] == [("MutatingAdmission", authn + 1, "correction")]


# --- drawings of blind round f/g (session 9): each rule in general ------------------------------------------

def _corrections(text, ref):
    return [(f.kind.value, f.point, f.line) for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.severity == "correction"]


def test_a_reply_naming_a_step_in_passing_is_no_direction_when_the_step_goes_the_right_way(ref):
    text = _drawing().replace("    U->>A: kubectl apply -f pod.yaml\n",
                              "    U->>A: GET pods/web\n    A-->>U: 404, so apply will create it\n"
                              "    U->>A: kubectl apply -f pod.yaml\n")
    assert _corrections(text, ref) == []
    # drawn only the other way round, it is still a direction correction
    wrong = _drawing().replace("    U->>A: kubectl apply -f pod.yaml\n", "    A->>U: kubectl apply -f pod.yaml\n")
    assert ("direction", "Apply", 9) in _corrections(wrong, ref)


def test_a_webhook_call_is_the_admission_step_its_webhook_is_named_after(ref):
    """In-process mutating plugins, then the mutating webhook's review: still mutating admission, not the next
    admission step by place."""
    head = HEAD.replace("    participant N as Calico\n", "    participant N as Calico\n"
                        "    participant MW as mutating webhook (sidecar injector)\n"
                        "    participant VW as validating webhook\n")
    body = BODY.format(persist="Put", sched_event="pod web", kubelet_event="pod web", cni="ADD",
                       status="status Running")
    body = body.replace("    A->>A: mutating admission\n",
                        "    A->>A: mutating admission plugins\n    A->>MW: mutating admission: AdmissionReview\n")
    body = body.replace("    A->>A: validating admission\n",
                        "    A->>A: validating admission\n    A->>VW: AdmissionReview\n")
    result = grade_text(head + body, file="w.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    points = {p.point: p.line for p in result.points}
    assert (points["MutatingAdmission"], points["ValidatingAdmission"]) == (14, 17)


def test_the_api_server_answering_the_runtime_is_no_call_to_it(ref):
    """The runtime's own (wrong) status PATCH is one correction; the API server's `200` back to it is none."""
    text = _drawing().replace("    K->>A: status Running\n", "    R->>A: PATCH pods/web/status Running\n"
                              "    A-->>R: 200\n")
    corrections = _corrections(text, ref)
    assert corrections == [("belief", "StatusUpdate", 28)]  # the PATCH line


def test_a_write_to_etcd_before_the_apply_is_another_objects(ref):
    text = _before_the_apply("S->>A: update Lease kube-scheduler", "A->>E: Put")
    assert _points_of_a_correct(text, ref)["Persist"] == 17


def test_writes_of_other_objects_and_the_pod_named_again_are_read_as_such(ref):
    """A Deployment: its write is the applied object's (Persist); the ReplicaSet's write is none of the pod's;
    the controller's `persist the pod` names Persist again (several words), not the binding's write by place;
    a Lease written before the apply, named `persist`, is no Persist."""
    text = _drawing().replace("    U->>A: kubectl apply -f pod.yaml\n",
                              "    S->>A: renew Lease\n    A->>E: persist the Lease\n"
                              "    U->>A: kubectl apply -f pod.yaml\n")
    text = text.replace("    A-->>U: 201 Created\n", "    A-->>U: 201 Created\n    A->>E: persist ReplicaSet web-7c9f\n"
                        "    A->>E: persist the pod, no node yet\n")
    result = grade_text(text, file="d.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    assert [f for f in result.findings if f.kind == FindingKind.ORDER] == []
    points = {p.point: p.line for p in result.points}
    assert (points["Persist"], points["PersistBinding"], points["PersistStatus"]) == (17, 25, 33)


def test_a_step_tried_in_a_retry_loop_is_where_it_is_drawn_after_the_loop(ref):
    """ImagePullBackOff: the status PATCHed while the pull is retried is a try; the status update after
    StartContainer is the step's place."""
    text = _drawing().replace("    K->>R: PullImage\n",
                              "    loop until the pull succeeds\n        K->>R: PullImage\n        R-->>K: ErrImagePull\n"
                              "        K->>A: status Waiting\n        A->>E: Put\n    end\n    K->>R: PullImage\n")
    result = grade_text(text, file="r.mmd", reference=ref)
    assert [f for f in result.findings if f.severity == "correction"] == []
    points = {p.point: p.line for p in result.points}
    assert (points["StatusUpdate"], points["PersistStatus"]) == (34, 35)  # after StartContainer, not in the loop


def test_a_phase_word_after_a_dot_is_part_of_a_name_no_label(ref):
    text = _drawing().replace("    K->>A: status Running\n", "    K->>A: statusManager.SyncPod: PATCH status Running\n")
    result = grade_text(text, file="s.mmd", reference=ref)
    assert [f for f in result.findings if f.kind == FindingKind.WRONG_PHASE] == []
    own = _drawing().replace("    K->>A: status Running\n", "    K->>A: statusManager (SyncPod)\n")
    assert [(f.point, f.severity) for f in grade_text(own, file="o.mmd", reference=ref).findings
            if f.kind == FindingKind.WRONG_PHASE] == [("StatusUpdate", "correction")]


def test_one_swap_shown_by_a_misconception_is_one_circle(ref):
    """Validating admission drawn before schema validation and mutating admission: the misconception's one
    correction, not also an order correction on a step between them."""
    text = _drawing().replace("    A->>A: mutating admission\n    A->>A: schema validation\n    A->>A: validating admission\n",
                              "    A->>A: validating admission\n    A->>A: schema validation\n    A->>A: mutating admission\n")
    corrections = [(f.kind.value, f.point) for f in grade_text(text, file="v.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert len(corrections) == 1 and corrections[0][0] == "belief"


@pytest.mark.parametrize("bind", ["POST pods/sandboxed/binding (node-1)", "POST /api/v1/namespaces/demo/pods/sandbox-demo/binding",
                                  "POST pods/sandbox-demo/binding node-1"])
def test_a_request_path_names_the_step_by_its_last_part(ref, bind):
    """The pod's own name in a path (`sandboxed`, `sandbox-demo`) names no step: only the path's last part does."""
    text = _drawing().replace("    S->>A: POST binding node-1\n", f"    S->>A: {bind}\n")
    assert _points_of_a_correct(text, ref)["RunPodSandbox"] == 23


def test_an_answer_shows_no_misconception_of_its_own(ref):
    """The scheduler writing etcd itself is one mistake: etcd's answer to that write is no event etcd sends it."""
    text = _drawing().replace("    S->>A: POST binding node-1\n    A->>E: {persist}\n".replace("{persist}", "Put"),
                              "    S->>E: Put spec.nodeName node-1\n    E-->>S: ok, revision 7\n")
    beliefs = [(f.kind.value, f.line) for f in grade_text(text, file="e.mmd", reference=ref).findings
               if f.severity == "correction"]
    assert beliefs == [("belief", 20)]


@pytest.mark.parametrize("label", ["etcd (only the API server talks to it)", "etcd [the kubelet never writes it]"])
def test_a_participants_remark_in_brackets_does_not_say_who_it_is(ref, label):
    """`etcd (only the API server talks to it)` is etcd: its name outside the brackets says so first."""
    text = _drawing().replace("    participant E as etcd\n", f"    participant E as {label}\n")
    assert "participant E as etcd\n" not in text
    points = _points_of_a_correct(text, ref)
    assert (points["Persist"], points["PersistBinding"], points["PersistStatus"]) == (15, 21, 29)


def test_a_note_before_the_apply_is_no_step_of_the_flow(ref):
    """`Note: the scheduler and the kubelet watch from the start` names the kubelet's watch before the apply:
    the watch event drawn later by a message is still the step."""
    text = _before_the_apply("Note over S,K: beforehand: the kubelet's watch delivers the bound pod, the scheduler's too")
    assert _points_of_a_correct(text, ref)["KubeletWatch"] == 23


def test_a_denied_name_draws_nothing(ref):
    """`200 OK (dry run), not persisted`: the dry run's answer says the pod is not stored; it draws no write."""
    text = _before_the_apply("U->>A: kubectl apply --dry-run=server", "A-->>U: 200 OK (dry run), not persisted")
    assert _points_of_a_correct(text, ref)["Persist"] == 17
    said = text.replace("not persisted", "persisted")
    assert {p.point: p.line for p in grade_text(said, file="s.mmd", reference=ref).points}["Persist"] == 10  # said: drawn there


def test_the_scheduler_patching_the_pods_node_name_is_a_misconception(ref):
    text = _drawing().replace("    S->>A: POST binding node-1\n", "    S->>A: PATCH pods/web spec.nodeName=node-1\n")
    corrections = [(f.kind.value, f.point, f.line) for f in grade_text(text, file="p.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert corrections == [("belief", "Bind", 20)]


def test_an_old_name_for_several_steps_in_passing_needs_no_hint_when_each_is_drawn(ref):
    """`admission` names both admission phases: in a note beside a drawing that draws each by its own name it is
    prose (no hint); drawn alone, it earns the hint that names the two phases."""
    noted = _before_the_apply("Note over A: every create goes through the same authentication, authorization and admission")
    assert [f for f in grade_text(noted, file="n.mmd", reference=ref).findings if f.kind == FindingKind.NAME] == []
    alone = _drawing().replace("    A->>A: mutating admission\n", "    A->>A: admission\n").replace(
        "    A->>A: validating admission\n", "")
    assert [f.point for f in grade_text(alone, file="a.mmd", reference=ref).findings
            if f.kind == FindingKind.NAME] == ["MutatingAdmission"]


def test_the_handler_chain_drawn_as_participants_draws_each_stage(ref):
    """`participant Authn as Authentication filter` ... each stage a participant the request passes through."""
    text = _drawing().replace("    participant A as kube-apiserver\n", "    participant Authn as Authentication filter\n"
                              "    participant Authz as Authorization filter\n    participant A as kube-apiserver\n")
    text = text.replace("    U->>A: kubectl apply -f pod.yaml\n    A->>A: authentication\n    A->>A: authorization\n",
                        "    U->>Authn: kubectl apply -f pod.yaml\n    Authn->>Authz: user=alice\n    Authz->>A: allowed\n")
    points = _points_of_a_correct(text, ref)
    assert (points["Apply"], points["Authenticate"], points["Authorize"]) == (11, 11, 12)


def test_admission_plugins_drawn_as_participants_draw_their_phase(ref):
    """`participant LR as LimitRanger (mutating admission plugin)`: a call to it is the phase it is a plugin of; an
    `Authorizer (Node, RBAC)` is part of the API server (its bracket's `Node` is no kubelet)."""
    text = _drawing().replace("    participant A as kube-apiserver\n", "    participant A as kube-apiserver\n"
                              "    participant AZ as Authorizer (Node, RBAC)\n"
                              "    participant LR as LimitRanger (mutating admission plugin)\n"
                              "    participant PS as PodSecurity (validating admission plugin)\n")
    text = text.replace("    A->>A: authorization\n", "    A->>AZ: authorize: may alice create pods? -> allow\n")
    text = text.replace("    A->>A: mutating admission\n", "    A->>LR: admit: default requests and limits\n")
    text = text.replace("    A->>A: validating admission\n", "    A->>PS: check: baseline profile ok\n")
    assert [f for f in grade_text(text, file="p.mmd", reference=ref).findings if f.severity == "correction"] == []
    points = _points_of_a_correct(text, ref)
    assert points["MutatingAdmission"] < points["SchemaValidation"] < points["ValidatingAdmission"]

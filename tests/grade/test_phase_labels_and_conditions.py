"""Words that say where a text stands, not what it says: a phase a label announces is no idea of a reason, and a
condition the scheduler writes is not the kubelet's status."""

from __future__ import annotations

from drawcheck.grade import grade_text
from test_unlisted_languages import KUBECTL, REASON, TWO_CYCLES, _corrections

CRITICAL = TWO_CYCLES.split("    S-)B:")[0].format(prescore="S->>P: PreScore") + """\
    critical {label}
        S->>S: WaitOnPermit
        S->>P: PreBind
        S->>P: Bind
        S->>P: PostBind
    option a binding step failed
        S->>P: Unreserve
        S->>C: ForgetPod
    end
"""


def _reason_corrections(text, ref):
    return [f for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.kind == "reason" and f.severity == "correction"]


def test_the_phase_a_boundary_label_announces_is_no_idea_of_its_reason(reference):
    assert _reason_corrections(CRITICAL.format(label="binding cycle, runs in go func() so the scheduler is not blocked"),
                               reference)
    assert not _reason_corrections(CRITICAL.format(
        label="binding cycle, in go func(): the API write is slow, so the scheduler is not blocked"), reference)


STATUS = KUBECTL.format(scheduler="scheduler", event="watch event: new pod, no node",
                        binding="POST binding node-1").replace(
    "    S->>A: POST binding node-1\n    A->>E: persist nodeName\n",
    "    alt no node fits\n        S->>A: {patch}\n    else node-1 fits\n        S->>A: POST binding node-1\n"
    "        A->>E: persist nodeName\n    end\n")


def test_the_schedulers_pod_scheduled_condition_is_not_the_kubelets_status(kubectl_reference):
    ref = kubectl_reference
    corrections = [(f.kind, f.point) for f in grade_text(STATUS.format(patch="PATCH status PodScheduled=False"),
                                                        file="x.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert corrections == []
    early = grade_text(STATUS.format(patch="PATCH status Running"), file="x.mmd", reference=ref).findings
    assert any(f.point == "StatusUpdate" and f.severity == "correction" for f in early)


def test_a_step_that_sends_the_pod_back_to_the_queue_stays_in_its_cycle(reference):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason="Note over S,B: reason: the API write is slow, the "
                             "scheduling thread must not wait, safe as the pod is assumed")
    back = text.replace("S->>P: PostFilter\n", "S->>P: PostFilter, do preemption, pod back to queue\n")
    assert back != text
    assert [f for f in grade_text(back, file="x.mmd", reference=reference).findings if f.severity == "correction"] == []
    labelled = text.replace("    S->>C: UpdateSnapshot\n", "    S->>C: UpdateSnapshot\n    S->>P: PreEnqueue (scheduling queue)\n")
    assert [f for f in grade_text(labelled, file="x.mmd", reference=reference).findings
            if f.severity == "correction"] == []  # `scheduling queue` still labels a step: it is in its phase
    unlabelled = labelled.replace(" (scheduling queue)", "")
    assert any(f.point == "PreEnqueue" and f.kind == "wrong-cycle"  # a hint: its tier
               for f in grade_text(unlabelled, file="x.mmd", reference=reference).findings)


def test_a_header_note_labels_what_is_under_it_not_a_lane_beside_it(reference):
    """`Note over S,P: meanwhile the thread runs the next pod's scheduling cycle` between two binding steps of the
    goroutine's lane (not under the note) leaves those steps in the binding cycle."""
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason="Note over S,B: reason: the API write is slow, the "
                             "scheduling thread must not wait, safe as the pod is assumed")
    beside = text.replace("    B->>P: PreBind\n", "    Note over S,P: meanwhile the thread runs the next scheduling cycle\n"
                          "    B->>P: PreBind\n")
    assert beside != text
    assert [f for f in grade_text(beside, file="x.mmd", reference=reference).findings if f.severity == "correction"] == []
    over = beside.replace("Note over S,P: meanwhile", "Note over S,B: meanwhile")
    assert any(f.kind == "wrong-cycle" and f.point == "PreBind"
               for f in grade_text(over, file="x.mmd", reference=reference).findings)


def _tagged(text: str, tag: str) -> str:
    """Every step of the binding cycle written after `tag` (`binding: PreBind`, `[binding] PreBind`)."""
    for step in ("WaitOnPermit", "PreBind", "Bind", "PostBind"):
        text = text.replace(f"B: {step}\n", f"B: {tag}{step}\n").replace(f"P: {step}\n", f"P: {tag}{step}\n")
    return text


def test_a_phase_short_name_as_a_leading_tag_labels_the_step_and_draws_none(reference):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason=REASON)
    for tag in ("binding: ", "Binding : ", "[binding] ", "binding： "):
        tagged = _tagged(text, tag)
        assert tagged.count(tag) == 4
        assert _corrections(tagged, reference) == [], tag  # `binding` here is the phase, not Bind's -ing form
    wrong = text.replace("B->>P: PreBind\n", "B->>P: [scheduling] PreBind\n")
    line = wrong.splitlines().index("    B->>P: [scheduling] PreBind") + 1
    assert ("wrong-cycle", "PreBind", line) in _corrections(wrong, reference)
    # the tag names a phase only before a step; alone, `binding` is still what it was
    assert ("missing", "Bind", None) not in _corrections(text.replace("B->>P: Bind\n", "B->>P: binding: done\n"),
                                                         reference)


def test_a_step_reported_more_than_once_is_placed_by_its_report_after_what_it_follows(kubectl_reference):
    text = KUBECTL.format(scheduler="scheduler", event="watch event: new pod, no node", binding="POST binding node-1")
    early = "    K->>A: PATCH status ContainerCreating\n    A->>E: persist status\n"
    twice = text.replace("    K->>R: PullImage\n", early + "    K->>R: PullImage\n")
    assert twice.count("PATCH status") == 2
    assert _corrections(twice, kubectl_reference) == []  # the early report is one of the kubelet's reports
    once = twice.replace("    K->>A: PATCH status Running\n    A->>E: persist status\n", "")
    assert once.count("PATCH status") == 1
    assert ("order", "StatusUpdate", once.splitlines().index("    K->>A: PATCH status ContainerCreating") + 1) \
        in _corrections(once, kubectl_reference)  # reported only before the container runs: out of order

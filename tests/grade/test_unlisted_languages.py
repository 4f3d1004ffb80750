"""Drawings in languages, names and habits no word list of the exercise has: what drawcheck does not read,
it does not call wrong (a hint, for a reviewer), and what it can tell from the drawing itself, it tells."""

from __future__ import annotations

import pytest

from drawcheck.grade import grade_text


TWO_CYCLES = """\
sequenceDiagram
    participant S as Scheduler thread
    participant C as Cache
    participant P as Plugins
    participant B as Binding goroutine
    Note over S,P: scheduling cycle
    S->>C: UpdateSnapshot
    S->>P: PreFilter
    S->>P: Filter
    opt no node fits
        S->>P: PostFilter
    end
    {prescore}
    S->>P: Score
    S->>P: NormalizeScore
    S->>C: AssumePod
    S->>P: Reserve
    S->>P: Permit
    S-)B: go sched.runBindingCycle()
    {reason}
    Note over B,P: binding cycle
    B->>B: WaitOnPermit
    B->>P: PreBind
    B->>P: Bind
    B->>P: PostBind
    opt on failure
        B->>P: Unreserve
        B->>C: ForgetPod
    end
"""
REASON = "Note over S,B: reason: binding waits on the API server, the scheduling thread goes on, safe as the pod is assumed"


def _corrections(text, ref):
    return [(f.kind, f.point, f.line) for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.severity == "correction"]


def _hints(text, ref, kind):
    return [(f.point, f.line) for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.severity == "hint" and f.kind == kind]


def test_the_base_drawing_is_correct(reference):
    assert _corrections(TWO_CYCLES.format(prescore="S->>P: PreScore", reason=REASON), reference) == []


@pytest.mark.parametrize("unread", ["S->>P: پری اسکور", "S->>P: প্রি-স্কোর", "Note over S: ቅድመ ነጥብ"])
def test_a_step_written_in_words_not_listed_is_a_hint_on_its_line(reference, unread):
    text = TWO_CYCLES.format(prescore=unread, reason=REASON)
    assert ("missing", "PreScore", None) not in _corrections(text, reference)
    assert _hints(text, reference, "missing")[:1] == [("PreScore", 13)]


def test_a_step_left_out_stays_a_correction(reference):
    left_out = TWO_CYCLES.format(prescore="S->>P: Score", reason=REASON).replace("    S->>P: Score\n    S->>P: Score\n",
                                                                               "    S->>P: Score\n")
    assert ("missing", "PreScore", None) in _corrections(left_out, reference)
    ascii_words = TWO_CYCLES.format(prescore="S->>P: hesabu kabla", reason=REASON)  # unread, but ASCII: a word of ours?
    assert ("missing", "PreScore", None) in _corrections(ascii_words, reference)


def test_one_unread_text_where_two_steps_are_missing_reads_as_neither(reference):
    text = TWO_CYCLES.format(prescore="S->>P: پری اسکور", reason=REASON).replace("    S->>P: Score\n", "")
    assert {("missing", "PreScore", None), ("missing", "Score", None)} <= set(_corrections(text, reference))


@pytest.mark.parametrize("reason", [
    "Note over S,B: காரணம்: Bind மெதுவான API அழைப்பு, நூல் காத்திருக்காமல் அடுத்த pod-ஐ எடுக்கிறது",
    "Note over S,B: მიზეზი: API server-ში ჩაწერა ნელია, არ ელოდება, pod უკვე assume-ებულია ქეშში",
    "Note over S,B: sababu: kuandika kwa API ni polepole, mpangaji haisubiri Bind, ni salama",
])
def test_a_labelled_sentence_by_the_boundary_is_an_unread_reason_that_draws_no_step(reference, reason):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason=reason)
    assert _corrections(text, reference) == []  # neither a missing reason nor a step (Bind, assume) out of place
    assert set(_hints(text, reference, "reason")) <= {(None, 20)}


def test_a_step_named_after_the_label_is_no_reason(reference):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason=REASON).replace(
        "    B->>B: WaitOnPermit\n", "    Note over B: WaitOnPermit: this goroutine waits here until every plugin allows it\n")
    assert _corrections(text, reference) == []  # drawn by its note, where it belongs


ABBREVIATED = """\
sequenceDiagram
    participant S as sched
    participant P as plugins
    participant B as bind goroutine
    Note over S,B: abbreviations: PF = PreFilter, PoF = PostFilter, PS = PreScore<br>NS = NormalizeScore, WoP = WaitOnPermit
    Note over S,P: scheduling cycle
    S->>P: UpdateSnapshot
    S->>P: PF
    S->>P: Filter
    opt none fits
        S->>P: PoF
    end
    S->>P: PS
    S->>P: Score
    S->>P: NS
    S->>P: AssumePod
    S->>P: Reserve
    S->>P: Permit
    S-)B: go runBindingCycle
    Note over S,B: reason: the API write is slow, the scheduling thread must not wait, safe as the pod is assumed
    Note over B,P: binding cycle
    B->>B: WoP
    B->>P: PreBind
    B->>P: Bind
    B->>P: PostBind
    opt failure
        B->>P: Unreserve
        B->>P: ForgetPod
    end
"""


def test_an_abbreviation_key_is_read_and_draws_nothing(reference):
    assert _corrections(ABBREVIATED, reference) == []
    swapped = ABBREVIATED.replace("S->>P: PF\n    S->>P: Filter", "S->>P: Filter\n    S->>P: PF")
    assert ("order", "PreFilter", 9) in _corrections(swapped, reference) or \
        ("order", "Filter", 8) in _corrections(swapped, reference)


def test_one_short_name_is_no_key(reference):
    text = ABBREVIATED.replace("abbreviations: PF = PreFilter, PoF = PostFilter, PS = PreScore<br>NS = NormalizeScore, "
                               "WoP = WaitOnPermit", "PF = PreFilter")
    assert ("missing", "PostFilter", None) in _corrections(text, reference)


KUBECTL = """\
sequenceDiagram
    participant U as kubectl
    participant A as API server
    participant E as etcd
    participant S as {scheduler}
    participant K as kubelet
    participant R as containerd
    U->>A: kubectl apply (POST pod)
    A->>A: authentication
    A->>A: authorization
    A->>A: mutating admission
    A->>A: schema validation
    A->>A: validating admission
    A->>E: persist pod
    A-->>U: 201 Created
    A--)S: {event}
    S->>S: filter and score nodes, pick one
    S->>A: {binding}
    A->>E: persist nodeName
    A--)K: watch event: pod bound
    K->>R: RunPodSandbox
    R->>R: CNI ADD
    K->>R: PullImage
    K->>R: CreateContainer
    K->>R: StartContainer
    K->>A: PATCH status Running
    A->>E: persist status
"""


def test_a_participant_named_in_no_listed_language_is_who_sends_its_steps(kubectl_reference):
    text = KUBECTL.format(scheduler="Penjadual", event="peristiwa watch: pod baharu tanpa nod",
                          binding="POST pods/web/binding")
    assert ("missing", "SchedulerWatch", None) not in _corrections(text, kubectl_reference)
    unknown = KUBECTL.format(scheduler="Penjadual", event="peristiwa watch: pod baharu tanpa nod",
                             binding="hantar keputusan")  # it sends nothing of a single participant's
    assert ("missing", "SchedulerWatch", None) in _corrections(unknown, kubectl_reference)


def test_a_line_break_is_no_request_path(kubectl_reference):
    text = KUBECTL.format(scheduler="kube-scheduler", event="watch event<br/>pod added, no node",
                          binding="POST binding<br/>node-9")
    assert _corrections(text, kubectl_reference) == []


def test_an_ascii_labelled_sentence_by_the_boundary_gets_the_unread_hint(reference):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore",
                             reason="Note over S,B: sababu: kuandika ni polepole, mpangaji haisubiri, ni salama")
    assert _corrections(text, reference) == [] and _hints(text, reference, "reason") == [(None, 20)]
    unlabelled = TWO_CYCLES.format(prescore="S->>P: PreScore", reason="Note over S,B: kuandika ni polepole, ni salama")
    assert ("reason", None, 19) in _corrections(unlabelled, reference)


SHORTHAND = ABBREVIATED.replace(
    "    Note over S,B: abbreviations: PF = PreFilter, PoF = PostFilter, PS = PreScore<br>NS = NormalizeScore, "
    "WoP = WaitOnPermit\n", "{key}")


def test_a_key_in_a_comment_a_title_or_the_last_note_in_any_of_its_forms_is_read(reference):
    keys = [
        "    %% key: PF=PreFilter PoF=PostFilter PS=PreScore\n    %%      NS=NormalizeScore WoP=WaitOnPermit\n",
        "    title key: PF PreFilter, PoF PostFilter, PS PreScore, NS NormalizeScore, WoP WaitOnPermit\n",
        "    Note over S,B: abbrev — PF: PreFilter, PoF: PostFilter, PS: PreScore, NS: NormalizeScore, WoP: WaitOnPermit\n",
        "    Note over S,B: PF PreFilter · PoF PostFilter · PS PreScore · NS NormalizeScore · WoP WaitOnPermit\n",
        "    Note over S,B: PF → PreFilter | PoF → PostFilter | PS → PreScore | NS → NormalizeScore | WoP → WaitOnPermit\n",
    ]
    for key in keys:
        text = SHORTHAND.format(key=key)
        assert "PF" in text and _corrections(text, reference) == [], key
    last = SHORTHAND.format(key="") + "    Note over S,B: legend: " + keys[3].split(": ", 1)[1]
    assert _corrections(last, reference) == []
    assert ("missing", "PreFilter", None) in _corrections(SHORTHAND.format(key=""), reference)  # no key, no PreFilter


def test_words_after_words_are_no_key_unless_each_short_name_shortens_its_name(reference):
    # `runs async`, `is assumed`: a sentence, not a key; the reason it is stays a reason
    reason = "Note over S,B: reason: the API write is slow and runs async, the thread goes on, safe as the pod is assumed"
    text = ABBREVIATED.replace(
        "Note over S,B: reason: the API write is slow, the scheduling thread must not wait, safe as the pod is assumed",
        reason)
    assert reason in text
    assert _corrections(text, reference) == []


def test_a_bracketed_short_name_stands_for_a_phase(reference):
    text = SHORTHAND.format(key="    Note over S,B: PF: PreFilter, WoP: WaitOnPermit, PoF: PostFilter, PS: PreScore, "
                                "NS: NormalizeScore, [SC]: scheduling cycle, [BC]: binding cycle\n")
    text = text.replace("S->>P: Reserve", "S->>P: [SC] Reserve").replace("B->>P: PreBind", "B->>P: [BC] PreBind")
    assert _corrections(text, reference) == []
    wrong = text.replace("B->>P: [BC] PreBind", "B->>P: [SC] PreBind")
    assert ("wrong-cycle", "PreBind", wrong.splitlines().index("    B->>P: [SC] PreBind") + 1) \
        in _corrections(wrong, reference)

"""Recognition: names in free text, and cycles/boundary on hand-built diagrams."""

from __future__ import annotations

import pytest

from drawcheck.parse.model import Block, Box, Branch, Diagram, Message, Note, Participant
from drawcheck.recognise import recognise
from drawcheck.recognise.names import matcher


@pytest.mark.parametrize("text,steps,how", [
    ("Pre-filter", ["PreFilter"], "exact"),
    ("pre filter plugins", ["PreFilter"], "exact"),
    ("PRE_FILTER", ["PreFilter"], "exact"),
    ("Normalize Score", ["NormalizeScore"], "exact"),
    ("Score + normalize", ["Score", "NormalizeScore"], "exact"),
    ("RunFilterPluginsWithNominatedPods", ["Filter"], "exact"),
    ("RunReservePluginsUnreserve", ["Unreserve"], "exact"),
    ("RunReservePluginsReserve", ["Reserve"], "exact"),
    ("RunPreBindPreFlights", ["PreBindPreFlight"], "exact"),
    ("RunPostBindPlugins", ["PostBind"], "exact"),
    ("Un-reserve", ["Unreserve"], "exact"),
    ("Queue sort", ["QueueSort"], "exact"),
    ("Filters", ["Filter"], "exact"),
    ("wait on permit", ["WaitOnPermit"], "exact"),
    ("Cache.AssumePod(pod)", ["Assume"], "exact"),
    ("predicates", ["Filter"], "legacy"),
    ("prioritize", ["Score"], "legacy"),
    ("Prefiltr", ["PreFilter"], "typo"),
    ("NormalizeScroe", ["NormalizeScore"], "typo"),
    ("Unreserv", ["Unreserve"], "typo"),
    ("PreScoring the nodes", ["PreScore"], "exact"),  # a one-word camelCase name inflects as a whole
    ("Pre-scoring", ["PreScore"], "exact"),
    ("PreFiltering", ["PreFilter"], "exact"),
    ("NormalizeScoring", ["NormalizeScore"], "exact"),
    ("PostBinding", ["PostBind"], "exact"),
    ("WaitOnPermits", ["WaitOnPermit"], "exact"),
    ("preemptie", ["PostFilter"], "exact"),  # Dutch: with `preempting` no spelling guess of it
])
def test_step_names(reference, text, steps, how):
    found = [m for m in matcher(reference).find(text) if m.kind == "step"]
    assert [m.target for m in found] == steps
    assert {m.how for m in found} == {how}


@pytest.mark.parametrize("text", [
    "go sched.runBindingCycle(ctx)", "binding cycle", "scheduling thread", "the next pod", "FinishBinding",
    "Bind the pod? no: bound", "Permit: allow, wait or reject",
])
def test_texts_that_name_no_other_step(reference, text):
    steps = [m.target for m in matcher(reference).find(text) if m.kind == "step"]
    assert set(steps) <= {"Bind", "Permit"}


@pytest.mark.parametrize("text", ["PreFilterID", "permitOk", "the ReserveV2 type", "NormalizeScoreFn(x)"])
def test_a_name_with_a_short_piece_after_it_is_no_spelling_guess(reference, text):
    """`PodSandboxId` is a field of the sandbox, spelt right: a step's whole name then a camelCase piece of one or
    two characters names something else, not a misspelt step."""
    assert [m for m in matcher(reference).find(text) if m.how == "typo"] == []


@pytest.mark.parametrize("text,step", [("PreFiltr", "PreFilter"), ("Permitt", "Permit"), ("Unreserv", "Unreserve")])
def test_a_misspelt_name_is_still_guessed(reference, text, step):
    assert [(m.target, m.how) for m in matcher(reference).find(text)] == [(step, "typo")]


@pytest.mark.parametrize("text", ["preempting", "preempted pods", "bindings", "reservations"])
def test_another_word_of_a_names_stem_is_no_spelling_guess(reference, text):
    """`preempting` is no misspelt `preemption`: a word of the same stem with another ending is a word of its own."""
    assert [m for m in matcher(reference).find(text) if m.how == "typo"] == []


def test_not_steps_and_whole_only_names(reference):
    m = matcher(reference)
    assert [(x.kind, x.target) for x in m.find("PostScore")] == [("not-step", "PostScore")]
    assert [(x.kind, x.target) for x in m.find("Binding")] == [("not-step", "Binding")]
    assert not any(x.kind == "not-step" for x in m.find("Bind (POST binding object)"))
    assert [x.how for x in m.find("Reject")] == ["legacy"]  # the 2018 name of Unreserve, only alone


def _msg(src, dst, text, line, arrow="->>"):
    return Message(src, dst, text, arrow, line)


def test_cycles_from_boxes_and_boundary_from_the_labels(reference):
    d = Diagram(
        participants=[Participant("S", "Framework", "participant", 2, box="Scheduling cycle"),
                      Participant("G", "Worker", "participant", 3, box="Binding cycle")],
        boxes=[Box("Scheduling cycle", "", 1, 2, ["S"]), Box("Binding cycle", "", 3, 4, ["G"])],
        statements=[_msg("S", "S", "Reserve", 5), _msg("S", "S", "Permit", 6), _msg("G", "G", "PreBind", 7)],
    )
    rec = recognise(d, reference)
    assert {k: m.item.phase for k, m in rec.first.items()} == {
        "Reserve": "scheduling", "Permit": "scheduling", "PreBind": "binding"}
    assert rec.boundary.source == "cycles" and rec.boundary.line == 7
    assert rec.phases_marked


def test_rect_labelled_by_a_note_inside_and_conditional_blocks(reference):
    rect = Block("rect", "rgb(1, 2, 3)", 2, 9, [Branch("rect", "rgb(1, 2, 3)", 2, [
        Note("over", ("S",), "binding cycle", 3),
        _msg("S", "S", "PreBind", 4),
        Block("alt", "bind fails", 5, 7, [Branch("alt", "bind fails", 5, [_msg("S", "S", "Unreserve", 6)])]),
    ])])
    d = Diagram(participants=[Participant("S", "S", "participant", 1)],
                statements=[_msg("S", "S", "Permit", 1), rect])
    rec = recognise(d, reference)
    pre_bind, unreserve = rec.first["PreBind"], rec.first["Unreserve"]
    assert pre_bind.item.phase == "binding" and pre_bind.item.phase_line == 2
    assert unreserve.item.context.conditional and unreserve.item.context.conditional_line == 5
    assert rec.first["Permit"].item.phase is None
    assert rec.boundary.line == 2  # the rect starts the binding cycle


def test_participant_named_after_a_step_draws_it(reference):
    d = Diagram(participants=[Participant("S", "Scheduler", "participant", 1),
                              Participant("F", "Filter plugins", "participant", 2)],
                statements=[_msg("S", "F", "run", 3), _msg("F", "S", "ok", 4)])
    rec = recognise(d, reference)
    assert rec.first["Filter"].line == 3 and rec.first["Filter"].label == "Filter plugins"


@pytest.mark.parametrize("participant,text,drawn,stand_in", [
    ("PreBind plugins (VolumeBinding, DRA)", "PreBindPreFlight", "PreBindPreFlight", "PreBind"),
    ("Reserve plugins", "Unreserve, in reverse order", "Unreserve", "Reserve"),
    ("Filter plugins", "PreFilter first", "PreFilter", "Filter"),
    ("Score plugins", "run, then NormalizeScore", "NormalizeScore", "Score"),
])
def test_a_participant_beside_a_step_extending_its_own_is_a_stand_in(reference, participant, text, drawn, stand_in):
    """One plugin serves several points: a call for one of them, to a participant named after another, draws the
    point it names; the participant's point is drawn there only if no name of its own draws it."""
    parts = [Participant("G", "Scheduler", "participant", 1), Participant("P", participant, "participant", 2)]
    alone = recognise(Diagram(participants=parts, statements=[_msg("G", "P", text, 3)]), reference)
    assert alone.first[drawn].line == 3 and alone.first[stand_in].line == 3
    named = recognise(Diagram(participants=parts, statements=[_msg("G", "P", text, 3), _msg("G", "P", stand_in, 4)]),
                      reference)
    assert named.first[drawn].line == 3 and named.first[stand_in].line == 4


def test_async_arrow_is_the_boundary_when_nothing_else_is(reference):
    d = Diagram(participants=[Participant("A", "A", "participant", 1), Participant("B", "B", "participant", 2)],
                statements=[_msg("A", "A", "Permit", 3), _msg("A", "B", "hand over", 4, "-)"),
                            _msg("B", "B", "PreBind", 5)])
    rec = recognise(d, reference)
    assert rec.boundary.source == "async" and rec.boundary.line == 4
    assert rec.effective_phase(rec.first["PreBind"].item, ("scheduling", "binding")) == "binding"
    assert rec.effective_phase(rec.first["Permit"].item, ("scheduling", "binding")) == "scheduling"


def test_an_async_reply_is_not_the_boundary(reference):
    d = Diagram(participants=[Participant("S", "S", "participant", 1), Participant("P", "P", "participant", 2),
                              Participant("B", "B", "participant", 3)],
                statements=[_msg("S", "P", "Filter", 4), _msg("P", "S", "feasible nodes", 5, "--)"),
                            _msg("S", "S", "Permit", 6), _msg("S", "B", "bind it", 7, "-)"),
                            _msg("B", "B", "PreBind", 8)])
    rec = recognise(d, reference)
    assert rec.boundary.source == "async" and rec.boundary.line == 7


def test_a_reason_in_a_comment_counts_when_none_is_drawn(reference):
    from drawcheck.grade import grade_text

    text = ("sequenceDiagram\n    participant S\n    S->>S: Permit\n    S->>S: go sched.runBindingCycle\n"
            "    %% reason: the scheduling thread must not wait for the API write, the pod is assumed\n"
            "    S->>S: Bind\n")
    r = grade_text(text, file="x.mmd", reference=reference)
    assert r.reason is not None and "API write" in r.reason
    assert not any(f.kind == "reason" for f in r.findings)
    r = grade_text(text.replace("%% reason:", "%% note:"), file="x.mmd", reference=reference)
    assert [(f.kind, f.line, f.severity) for f in r.findings if f.kind == "reason"] == [("reason", 4, "correction")]


def test_a_marker_before_every_step_is_not_preferred(reference):
    d = Diagram(participants=[Participant("S", "S", "participant", 1)],
                statements=[Note("over", ("S",), "the go statement is in schedule_one.go", 2),
                            _msg("S", "S", "Permit", 3), _msg("S", "S", "go func()", 4), _msg("S", "S", "PreBind", 5)])
    rec = recognise(d, reference)
    assert rec.boundary.source == "marker" and rec.boundary.line == 4


CALLER_DRAWING = """sequenceDiagram
    participant S as Scheduler
    participant A as algorithm
    participant P as Plugins
    S->>A: findNodesThatFitPod
    A->>P: PreFilter
    A->>P: Filter
    S->>A: prioritizeNodes
    A->>P: PreScore
    A->>P: Score
"""


def test_a_caller_drawn_with_the_steps_under_it_gives_way_to_their_own_names(reference):
    from drawcheck.parse import parse_text
    rec = recognise(parse_text(CALLER_DRAWING), reference)
    assert (rec.first["Filter"].line, rec.first["Filter"].how) == (7, "exact")
    assert (rec.first["Score"].line, rec.first["Score"].how) == (10, "exact")
    assert [s for s in rec.first] == ["PreFilter", "Filter", "PreScore", "Score"]


def test_a_caller_alone_still_draws_its_step(reference):
    from drawcheck.parse import parse_text
    rec = recognise(parse_text("sequenceDiagram\n    S->>S: PreFilter\n    S->>S: findNodesThatFitPod\n"), reference)
    assert (rec.first["Filter"].line, rec.first["Filter"].how) == (3, "caller")


@pytest.mark.parametrize("label,steps", [
    ("Filter (NodeResourcesFit)", ("Filter",)),  # a qualifier in brackets is no part of the name
    ("PreScore, Score [per node]", ("PreScore", "Score")),
    ("Filter plugins (in parallel)", ("Filter",)),
    ("(Filter)", ()),
    ("Filter node", ()),  # a word outside the brackets that names nothing: no step's name
    ("AssumePod", ("Assume",)),  # the function in the brackets of its name, `assume (AssumePod)`, a synonym too
    ("sched.assume", ()),  # other synonyms name no participant
])
def test_a_participant_named_after_steps_with_a_qualifier(reference, label, steps):
    from drawcheck.recognise.names import participant_steps

    assert participant_steps(matcher(reference), label) == steps


def test_a_note_listing_the_drawing_with_the_boundary_among_its_lines_is_read_line_by_line(reference):
    from drawcheck.parse import parse_text

    text = ("sequenceDiagram\n    participant S\n    participant B\n"
            "    Note over S,B: PreFilter<br>Filter<br>Reserve<br>Permit<br>go sched.runBindingCycle()<br>"
            "WaitOnPermit<br>PreBind<br>Bind\n")
    rec = recognise(parse_text(text), reference)
    assert rec.boundary is not None and rec.boundary.line == 4
    before = {m.step for m in rec.mentions if m.item.index < rec.boundary.index}
    after = {m.step for m in rec.mentions if m.item.index > rec.boundary.index}
    assert before == {"PreFilter", "Filter", "Reserve", "Permit"} and after == {"WaitOnPermit", "PreBind", "Bind"}
    # a reason written over several lines stays one text
    reason = "sequenceDiagram\n    participant S\n    Note over S: reason: the bind is slow<br>so we do not wait\n"
    assert [i.text for i in recognise(parse_text(reason), reference).items] == ["reason: the bind is slow<br>so we do not wait"]


@pytest.mark.parametrize("text,steps", [
    ("annotation k8s.v1.cni.cncf.io/networks: storage-net", []),  # no word of a domain name names a step
    ("label example.com/prefilter=yes, then Filter", ["Filter"]),
    ("see https://kubernetes.io/docs/bind for Bind", ["Bind"]),
    ("sched.assume (pod.yaml)", ["Assume"]),  # dotted names that are no domain are still read
])
def test_the_words_of_a_domain_name_name_nothing(reference, text, steps):
    assert [m.target for m in matcher(reference).find(text) if m.kind == "step"] == steps


def test_a_label_of_a_phase_outside_the_cycles_holds_only_its_own_steps(reference):
    """A message about the queue inside the binding cycle labels the queue's work; the binding steps after it
    keep the binding cycle's label."""
    from drawcheck.parse import parse_text

    text = ("sequenceDiagram\n    participant S as scheduler\n    participant F as framework\n"
            "    participant Q as queue\n    S->>F: Permit\n    S-)F: go sched.runBindingCycle()\n"
            "    Note over S,F: binding cycle\n    F->>Q: Done (the queue stops tracking the pod)\n"
            "    F->>F: PreBind\n    F->>F: Bind\n")
    rec = recognise(parse_text(text), reference)
    assert {m.step: m.item.phase for m in rec.mentions if m.step in ("PreBind", "Bind")} == \
        {"PreBind": "binding", "Bind": "binding"}


LEGEND_DRAWING = """sequenceDiagram
    participant K as kube-scheduler
    participant F as framework
    participant C as cache
    Note over K,C: {legend}
    rect rgb(200, 220, 255)
        K->>F: PreFilter
        K->>F: Filter
        alt nothing fits
            K->>F: PostFilter
        end
        K->>F: PreScore
        K->>F: Score
        K->>F: NormalizeScore
        K->>C: AssumePod
        K->>F: Reserve
        K->>F: Permit
    end
    K-)K: go runBindingCycle
    Note right of K: why: the Bind API call is slow, the scheduler does not wait, the pod is assumed in the cache
    rect rgb(200, 255, 200)
        K->>F: WaitOnPermit
        K->>F: PreBind
        K->>F: Bind
        K->>F: PostBind
    end
    rect rgb(255, 200, 200)
        K->>F: Unreserve
        K->>C: ForgetPod
    end
"""


@pytest.mark.parametrize("legend", [
    "legend: blue = scheduling cycle, green = binding cycle, red = failure path",
    "Legend: light blue: scheduling cycle, rgb(200,255,200) = binding cycle, Red means on failure",
])
def test_a_colour_legend_labels_the_rects_of_its_colours(reference, legend):
    from drawcheck.grade import grade_text

    keyed = grade_text(LEGEND_DRAWING.format(legend=legend), file="l.mmd", reference=reference)
    assert [f for f in keyed.findings if f.severity == "correction"] == []
    unkeyed = grade_text(LEGEND_DRAWING.format(legend="the three colours are mine"), file="u.mmd", reference=reference)
    assert {f.point for f in unkeyed.findings if f.severity == "correction"} >= {"Unreserve"}  # no legend: no failure path


@pytest.mark.parametrize("colour,hue", [("blue", 240), ("rgb(200, 255, 200)", 120), ("#f00", 0), ("hsl(30, 60%, 80%)", 30),
                                        ("light blue", 195), ("grey", None), ("#eeeeee", None), ("not a colour", None)])
def test_colour_hue(colour, hue):
    from drawcheck.recognise.legend import colour_hue

    found = colour_hue(colour)
    assert (found is None) if hue is None else abs(found - hue) < 1


def test_one_colour_named_is_no_legend():
    from drawcheck.parse import parse_text
    from drawcheck.recognise.legend import find_legend, with_legend

    one = parse_text("sequenceDiagram\n    Note over A: red = wrong, I think\n    rect rgb(255,0,0)\n        A->>A: x\n    end\n")
    assert find_legend(one.statements) is None and with_legend(one) is one


def test_a_message_to_a_participant_named_after_a_later_step_draws_it_after_the_words(reference):
    """`U->>F: PreFilter` to `Filter plugins`: PreFilter (the words), then Filter (the receiver's); `S->>SC: run, then
    NormalizeScore` to `Score plugins`: Score, then NormalizeScore (the receiver's step by the reference)."""
    parts = [Participant("S", "Scheduler", "participant", 1), Participant("F", "Filter plugins", "participant", 2),
             Participant("SC", "Score plugins", "participant", 3)]
    rec = recognise(Diagram(participants=parts, statements=[_msg("S", "F", "PreFilter", 4),
                                                            _msg("S", "SC", "run, then NormalizeScore", 5)]), reference)
    assert [m.step for m in sorted(rec.mentions, key=lambda m: m.order)] == ["PreFilter", "Filter", "Score",
                                                                             "NormalizeScore"]


def test_a_speakers_own_name_before_a_colon_names_no_step(reference):
    """`B->>B: 3 Binder: Permit` in a drawing whose lane is labelled `3 Binder`: Permit only (no Bind)."""
    parts = [Participant("B", '"3 Binder"', "participant", 1)]
    rec = recognise(Diagram(participants=parts, statements=[_msg("B", "B", "3 Binder: Permit", 2)]), reference)
    assert [m.step for m in rec.mentions] == ["Permit"]
    other = recognise(Diagram(participants=[Participant("B", "Lane", "participant", 1)],
                              statements=[_msg("B", "B", "3 Binder: Permit", 2)]), reference)
    assert [m.step for m in other.mentions] == ["Bind", "Permit"]  # not its own name: read as written

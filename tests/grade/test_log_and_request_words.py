"""Words that are part of what a learner copied from a terminal, not names of steps: a URL's query string, a log
line's field names, a function cited by its numbered parts, the pod's status field."""

from __future__ import annotations

from drawcheck.grade import grade_text
from drawcheck.recognise.names import words
from test_unlisted_languages import KUBECTL, REASON, TWO_CYCLES, _corrections

BASE = KUBECTL.format(scheduler="scheduler", event="watch event: new pod, no node", binding="POST binding node-1")


def _line(text: str, line_text: str) -> int:
    return text.splitlines().index(line_text) + 1


def test_a_query_string_and_a_log_fields_name_are_no_words():
    assert [w for w, *_ in words("POST pods?fieldValidation=Strict&dryRun=All (json)")] == ["post", "pods", "json"]
    assert [w for w, *_ in words('authorization, binding="cluster-admin" user="admin"')] == [
        "authorization", "cluster", "admin", "admin"]
    # an equals sign elsewhere keeps its words: `nodeName=node-1` is what is written, no field of a log line
    assert [w for w, *_ in words("persist nodeName=node-1")] == ["persist", "nodename", "node", "1"]
    assert [w for w, *_ in words("if a == b?")] == ["if", "a", "b"]


def test_request_options_and_log_fields_draw_no_step(kubectl_reference):
    text = BASE.replace("U->>A: kubectl apply (POST pod)",
                        "U->>A: kubectl apply, POST /api/v1/namespaces/default/pods?fieldValidation=Strict")
    text = text.replace("A->>A: authorization", 'A->>A: authorization, "RBAC: allowed" binding="cluster-admin"')
    assert "fieldValidation" in text and 'binding="' in text
    assert _corrections(text, kubectl_reference) == []
    # written as the step, not as an option, the same words still draw it out of place
    early = BASE.replace("U->>A: kubectl apply (POST pod)", "U->>A: kubectl apply (POST pod), field validation")
    assert ("order", "SchemaValidation", _line(early, "    U->>A: kubectl apply (POST pod), field validation")) \
        in _corrections(early, kubectl_reference)


def test_a_function_cited_by_its_numbered_part_draws_only_that_part(kubectl_reference):
    for pull in ("K->>R: PullImage (startContainer step 1)", "K->>R: startContainer step #35;1, PullImage",
                 "K->>R: PullImage, startContainer step no. 1", "K->>R: PullImage // startContainer, Step 1: pull"):
        text = BASE.replace("K->>R: PullImage", pull)
        assert pull in text
        assert _corrections(text, kubectl_reference) == [], pull
    # alone, the name is the step it names
    alone = BASE.replace("    K->>R: StartContainer\n", "").replace("K->>R: PullImage", "K->>R: StartContainer step 3")
    assert ("missing", "StartContainer", None) not in _corrections(alone, kubectl_reference)


def test_the_pods_status_field_in_a_steps_text_is_no_phase_label(kubectl_reference):
    text = BASE.replace("A->>E: persist pod", "A->>E: persist pod, status Pending")
    assert "status Pending" in text
    assert _corrections(text, kubectl_reference) == []


def test_a_reason_that_has_one_binder_take_the_pods_one_at_a_time_is_corrected(reference):
    for said in ("every bind goes to a single binder goroutine that binds the pods one at a time",
                 "the binding thread binds them one at a time, safe as the pod is assumed",
                 "binds must go 1 at a time, in queue order, 1 binder keeps them serial"):
        text = TWO_CYCLES.format(prescore="S->>P: PreScore",
                                 reason=f"Note over S,B: reason: binding waits on the API server, so {said}")
        assert [kind for kind, *_ in _corrections(text, reference)] == ["reason"], said
    assert _corrections(TWO_CYCLES.format(prescore="S->>P: PreScore", reason=REASON), reference) == []


def test_a_write_drawn_the_other_way_is_not_excused_by_a_later_step_that_names_it_too(kubectl_reference):
    reversed_write = BASE.replace("    A->>E: persist pod\n", "    E->>A: persist pod\n")
    named_again = reversed_write.replace("A->>E: persist nodeName", "A->>E: persist the binding")
    for text in (reversed_write, named_again):
        assert ("direction", "Persist", _line(text, "    E->>A: persist pod")) in _corrections(text, kubectl_reference)
    # a reply that names the write in passing, before the write itself drawn the right way, is no mistake
    in_passing = BASE.replace("    A->>E: persist pod\n", "    E-->>A: nothing persisted yet\n    A->>E: persist pod\n")
    assert [c for c in _corrections(in_passing, kubectl_reference) if c[0] == "direction"] == []


def test_a_participant_in_a_box_stands_for_the_participant_the_box_names(kubectl_reference):
    boxed = BASE.replace("    participant K as kubelet\n",
                         "    box kubelet on node-1\n        participant K as kl.syncLoop\n"
                         "        participant SM as status.manager\n    end\n")
    text = boxed.replace("K->>A: PATCH status Running", "SM->>A: PATCH status Running")
    assert _corrections(text, kubectl_reference) == []
    to_etcd = text.replace("SM->>A: PATCH status Running\n    A->>E: persist status", "SM->>E: write status Running")
    line = _line(to_etcd, "    SM->>E: write status Running")
    assert [c for c in _corrections(to_etcd, kubectl_reference) if c[0] == "belief" and c[2] == line]  # only the
    # API server talks to etcd: told of the box's kubelet, though the lifeline's own name says nothing


def test_kubectls_write_is_the_apply_by_its_verb(kubectl_reference):
    text = BASE.replace("U->>A: kubectl apply (POST pod)", "U->>A: helper.Patch, PATCH pods/web?fieldManager=kubectl")
    assert _corrections(text, kubectl_reference) == []  # `kubectl apply --server-side` patches


def test_the_http_header_that_carries_credentials_is_no_authorization(kubectl_reference):
    text = BASE.replace("U->>A: kubectl apply (POST pod)", "U->>A: kubectl apply, POST pods, header Authorization Bearer t")
    assert _corrections(text, kubectl_reference) == []
    plain = BASE.replace("A->>A: authentication", "A->>A: authentication, each authenticator in turn")
    assert [f for f in grade_text(plain, file="x.mmd", reference=kubectl_reference).findings if f.kind == "name"] == []


def test_a_hint_of_another_check_does_not_take_the_place_of_a_correction(kubectl_reference):
    moved = BASE.replace("    A->>A: validating admission\n", "").replace(
        "    K->>R: RunPodSandbox\n", "    K->>K: validating admission, checked here before the sandbox\n"
                                    "    K->>R: RunPodSandbox\n")
    line = _line(moved, "    K->>K: validating admission, checked here before the sandbox")
    found = [(f.kind, f.point, f.line, f.severity) for f in grade_text(moved, file="x.mmd",
                                                                       reference=kubectl_reference).findings]
    assert ("order", "ValidatingAdmission", line, "correction") in found
    assert [f for f in found if f[1] == "ValidatingAdmission" and f[2] == line] == [
        ("order", "ValidatingAdmission", line, "correction")]  # one circle, the correction's


def test_a_region_headed_by_its_condition_makes_its_steps_conditional(reference):
    text = TWO_CYCLES.format(prescore="S->>P: PreScore", reason=REASON).replace(
        "    opt on failure\n        B->>P: Unreserve\n        B->>C: ForgetPod\n    end\n",
        "    rect rgb(255, 226, 226)\n        Note over S,B: If Reserve, Permit or any binding step fails\n"
        "        B->>P: Unreserve (every Reserve plugin, in reverse)\n        B->>C: ForgetPod\n    end\n")
    assert "If Reserve" in text
    assert _corrections(text, reference) == []
    unheaded = text.replace("        Note over S,B: If Reserve, Permit or any binding step fails\n", "")
    assert ("order", "Unreserve", _line(unheaded, "        B->>P: Unreserve (every Reserve plugin, in reverse)")) \
        in _corrections(unheaded, reference)

"""A main-path step drawn only inside a failure branch is not on the success path (`failure_paths:`).

A failure branch is an `alt`/`else` branch, an `opt`, a `break` or a `critical`'s `option` whose label says one of
the exercise's failure words (`IPAM has no free address`, `RBAC denies`, `Reserve fails`); a required main-path
step drawn only inside such branches earns an `order` correction where it is drawn. Branch steps (PostFilter,
Unreserve, ForgetPod), steps drawn in a success branch, under a success condition (`opt image not on the node
yet`) or in a retry loop, and steps a failure branch draws again, say nothing.
"""

from __future__ import annotations

import pytest

from drawcheck.grade import grade_text
from test_unlisted_languages import KUBECTL as KUBECTL_TEMPLATE, REASON, TWO_CYCLES as FLAGSHIP

KUBECTL = KUBECTL_TEMPLATE.format(scheduler="scheduler", event="watch event: new pod, no node",
                                  binding="POST binding node-1").replace(
    "    participant R as containerd\n", "    participant R as containerd\n    participant N as CNI plugin\n").replace(
    "pick one", "pick node-1").replace("pod bound\n", "pod bound to node-1\n").replace(
    "    R->>R: CNI ADD\n", "    R->>N: CNI ADD\n    N-->>R: pod IP\n")

TWO_CYCLES = FLAGSHIP.format(prescore="S->>P: PreScore", reason=REASON)


def _drawing(base: str, old: str, new: str) -> str:
    assert base.count(old) == 1, old
    return base.replace(old, new)


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def _corrections(text, ref):
    return [(f.kind, f.point, f.line) for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.severity == "correction"]


def test_the_base_drawings_are_correct(reference, kubectl_reference):
    assert _corrections(KUBECTL, kubectl_reference) == []
    assert _corrections(TWO_CYCLES, reference) == []


# (what the base draws, what the drawing draws instead, the step drawn only on failure, its line's text)
KUBECTL_ON_FAILURE = [
    pytest.param("    R->>N: CNI ADD\n    N-->>R: pod IP\n",
                 "    alt IPAM has no free address\n        R->>N: CNI ADD\n        N--xR: error: no IP available\n"
                 "        R--xK: RunPodSandbox failed\n    else address assigned\n        N-->>R: pod IP\n    end\n",
                 "CNIAdd", "R->>N: CNI ADD", id="alt-failure-then-else-success"),
    pytest.param("    A->>A: authorization\n",
                 "    alt the user may create pods\n        Note over A: on to admission\n    else RBAC denies\n"
                 "        A->>A: authorization\n        A--xU: 403 Forbidden\n    end\n",
                 "Authorize", "A->>A: authorization", id="alt-success-then-else-failure"),
    pytest.param("    A->>A: authorization\n",
                 "    break RBAC denies\n        A->>A: authorization\n        A--xU: 403 Forbidden\n    end\n",
                 "Authorize", "A->>A: authorization", id="break"),
    pytest.param("    K->>R: RunPodSandbox\n    R->>N: CNI ADD\n    N-->>R: pod IP\n",
                 "    critical the sandbox\n        K->>R: RunPodSandbox\n    option the network set-up fails\n"
                 "        R->>N: CNI ADD\n        N--xR: error\n    end\n",
                 "CNIAdd", "R->>N: CNI ADD", id="critical-option"),
    pytest.param("    K->>R: PullImage\n",
                 "    opt the registry refuses or the pull times out\n        K->>R: PullImage\n"
                 "        R--xK: ErrImagePull\n        loop back-off\n            K->>R: PullImage again\n"
                 "        end\n    end\n",
                 "PullImage", "K->>R: PullImage", id="opt"),
    pytest.param("    K->>A: PATCH status Running\n    A->>E: persist status\n",
                 "    opt the app exits (exit code 1)\n        loop restartPolicy Always, back-off\n"
                 "            K->>A: PATCH status: waiting, CrashLoopBackOff\n            A->>E: persist status\n"
                 "            K->>R: StartContainer again\n        end\n    end\n",
                 "StatusUpdate", "K->>A: PATCH status", id="opt-with-a-loop"),
    pytest.param("    A->>A: authorization\n",
                 "    break Autorisierung abgelehnt\n        A->>A: authorization\n        A--xU: 403 Forbidden\n"
                 "    end\n",
                 "Authorize", "A->>A: authorization", id="break-in-german"),
]


@pytest.mark.parametrize("old, new, step, drawn", KUBECTL_ON_FAILURE)
def test_a_kubectl_step_drawn_only_on_failure_is_not_on_the_success_path(kubectl_reference, old, new, step, drawn):
    text = _drawing(KUBECTL, old, new)
    found = [c for c in _corrections(text, kubectl_reference) if c[1] == step]
    assert found == [("order", step, _line(text, drawn))]


TWO_CYCLES_ON_FAILURE = [
    pytest.param("    S->>P: Permit\n",
                 "    alt Permit rejects\n        S->>P: Permit\n        P-->>S: reject\n    else approved\n"
                 "        Note over S: go on\n    end\n",
                 "Permit", "S->>P: Permit", id="alt-failure-then-else-success"),
    pytest.param("    S->>P: Reserve\n",
                 "    alt enough resources\n        Note over S: go on\n    else Reserve fails\n        S->>P: Reserve\n"
                 "    end\n",
                 "Reserve", "S->>P: Reserve", id="alt-success-then-else-failure"),
    pytest.param("    S->>P: Permit\n",
                 "    break Permit rejects the pod\n        S->>P: Permit\n    end\n",
                 "Permit", "S->>P: Permit", id="break"),
    pytest.param("    B->>P: Bind\n",
                 "    critical the last step\n        Note over B: the API call\n    option the API call fails\n"
                 "        B->>P: Bind\n    end\n",
                 "Bind", "B->>P: Bind", id="critical-option"),
    pytest.param("    opt no node fits\n        S->>P: PostFilter\n    end\n    S->>P: PreScore\n",
                 "    opt no node fits\n        S->>P: PostFilter\n        S->>P: PreScore\n    end\n",
                 "PreScore", "S->>P: PreScore", id="opt-no-fit"),
    pytest.param("    B->>P: PostBind\n",
                 "    opt 绑定失败\n        B->>P: PostBind\n    end\n",
                 "PostBind", "B->>P: PostBind", id="opt-in-chinese"),
]


@pytest.mark.parametrize("old, new, step, drawn", TWO_CYCLES_ON_FAILURE)
def test_a_scheduling_step_drawn_only_on_failure_is_not_on_the_success_path(reference, old, new, step, drawn):
    text = _drawing(TWO_CYCLES, old, new)
    found = [c for c in _corrections(text, reference) if c[1] == step]
    assert found == [("order", step, _line(text, drawn))]


KUBECTL_STILL_CORRECT = [
    pytest.param("    A->>A: authentication\n    A->>A: authorization\n",
                 "    alt token is valid\n        A->>A: authentication\n        alt RBAC allows create pods\n"
                 "            A->>A: authorization\n        else denied\n            A--xU: 403 Forbidden\n"
                 "        end\n    else token expired or missing\n        A--xU: 401 Unauthorized\n    end\n",
                 id="the-success-branch-first"),
    pytest.param("    K->>R: PullImage\n",
                 "    opt image not on the node yet\n        K->>R: PullImage\n    end\n",
                 id="a-success-condition"),
    pytest.param("    K->>R: PullImage\n",
                 "    K->>R: PullImage\n    opt the pull fails\n        R--xK: ErrImagePull\n        loop back-off\n"
                 "            K->>R: PullImage again\n        end\n    end\n",
                 id="drawn-again-on-failure"),
    pytest.param("    N-->>R: pod IP\n",
                 "    alt IPAM has no free address\n        N--xR: error: no IP available\n        R->>N: CNI DEL\n"
                 "        K->>R: RunPodSandbox (retried with back-off)\n    else address assigned\n"
                 "        N-->>R: pod IP\n    end\n",
                 id="the-failure-branch-retries"),
    pytest.param("    A->>E: persist pod\n",
                 "    alt no error\n        A->>E: persist pod\n    else etcd error\n        A--xU: 500\n    end\n",
                 id="a-denied-failure-word"),
    pytest.param("    K->>R: PullImage\n",
                 "    loop retry while the pull fails\n        K->>R: PullImage\n    end\n",
                 id="a-retry-loop"),
    pytest.param("    A->>A: authorization\n",
                 "    A->>A: authorization\n    break RBAC denies\n        A--xU: 403 Forbidden\n    end\n",
                 id="a-break-after-its-check"),
]


@pytest.mark.parametrize("old, new", KUBECTL_STILL_CORRECT)
def test_kubectl_branches_that_draw_the_success_path_stay_correct(kubectl_reference, old, new):
    assert _corrections(_drawing(KUBECTL, old, new), kubectl_reference) == []


TWO_CYCLES_STILL_CORRECT = [
    pytest.param("    opt no node fits\n        S->>P: PostFilter\n    end\n    S->>P: PreScore\n"
                 "    S->>P: Score\n    S->>P: NormalizeScore\n",
                 "    alt no node fits\n        S->>P: PostFilter\n    else some nodes fit\n        S->>P: PreScore\n"
                 "        S->>P: Score\n        S->>P: NormalizeScore\n    end\n",
                 id="postfilter-in-the-no-fit-branch"),
    pytest.param("    opt no node fits\n        S->>P: PostFilter\n    end\n",
                 "    break no node fits\n        S->>P: PostFilter\n    end\n",
                 id="a-break-for-no-fit"),
    pytest.param("    B->>P: PreBind\n    B->>P: Bind\n    B->>P: PostBind\n    opt on failure\n"
                 "        B->>P: Unreserve\n        B->>C: ForgetPod\n    end\n",
                 "    critical the binding\n        B->>P: PreBind\n        B->>P: Bind\n        B->>P: PostBind\n"
                 "    option bind fails\n        B->>P: Unreserve\n        B->>C: ForgetPod\n    end\n",
                 id="unreserve-in-an-option"),
    pytest.param("    B->>P: PreBind\n    B->>P: Bind\n    B->>P: PostBind\n    opt on failure\n"
                 "        B->>P: Unreserve\n        B->>C: ForgetPod\n    end\n",
                 "    B->>P: PreBind\n    alt PreBind ok\n        B->>P: Bind\n        B->>P: PostBind\n"
                 "    else PreBind or Bind failed\n        B->>P: Unreserve\n        B->>C: ForgetPod\n    end\n",
                 id="the-success-branch-first"),
    pytest.param("    S->>P: Reserve\n",
                 "    alt Reserve ok\n        S->>P: Reserve\n    else Reserve error\n        S->>P: Reserve, then Unreserve\n"
                 "    end\n",
                 id="drawn-on-both-paths"),
]


@pytest.mark.parametrize("old, new", TWO_CYCLES_STILL_CORRECT)
def test_scheduling_branches_that_draw_the_success_path_stay_correct(reference, old, new):
    assert _corrections(_drawing(TWO_CYCLES, old, new), reference) == []


def _check(ref):
    return next(c for c in ref.checks if c.section == "failure_paths")


@pytest.mark.parametrize("label, fails", [
    ("IPAM has no free address", True), ("RBAC denies", True), ("the pull fails", True),
    ("no answer in 10 s, failurePolicy Fail", True), ("token invalid or RBAC says no", True), ("Fehler", True),
    ("no error", False), ("did not fail", False), ("the webhook doesn't fail", False), ("kein Fehler", False),
    ("没有错误", False), ("image not on the node yet", False), ("token is valid", False), ("address assigned", False),
    ("answers in time", False), ("if the image is missing", False),
])
def test_which_labels_read_as_a_failure(kubectl_reference, label, fails):
    assert _check(kubectl_reference).fails(label) is fails


@pytest.mark.parametrize("label, fails", [
    ("no node fits", True), ("Reserve failed or Permit rejected", True), ("on failure", True), ("绑定失败", True),
    ("some nodes fit", False), ("at least one node fits", False), ("PreBind ok", False), ("bind succeeded", False),
    ("if some node fits", False), ("success", False),
])
def test_which_scheduling_labels_read_as_a_failure(reference, label, fails):
    assert _check(reference).fails(label) is fails

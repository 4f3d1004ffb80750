"""Words that say where a text stands, not what it says: a phase a label announces is no idea of a reason, and a
condition the scheduler writes is not the kubelet's status."""

from __future__ import annotations

from pathlib import Path

from drawcheck.grade import grade_text
from drawcheck.reference import load_reference

REPO = Path(__file__).resolve().parents[2]

CRITICAL = """\
sequenceDiagram
    participant S as scheduler
    participant C as cache
    participant P as plugins
    Note over S,P: scheduling cycle
    S->>C: UpdateSnapshot
    S->>P: PreFilter
    S->>P: Filter
    opt no node fits
        S->>P: PostFilter
    end
    S->>P: PreScore
    S->>P: Score
    S->>P: NormalizeScore
    S->>C: AssumePod
    S->>P: Reserve
    S->>P: Permit
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


def _reason_corrections(text):
    ref = load_reference(REPO / "reference" / "two-cycles" / "exercise.yml")
    return [f for f in grade_text(text, file="x.mmd", reference=ref).findings
            if f.kind == "reason" and f.severity == "correction"]


def test_the_phase_a_boundary_label_announces_is_no_idea_of_its_reason():
    assert _reason_corrections(CRITICAL.format(label="binding cycle, runs in go func() so the scheduler is not blocked"))
    assert not _reason_corrections(CRITICAL.format(
        label="binding cycle, in go func(): the API write is slow, so the scheduler is not blocked"))


STATUS = """\
sequenceDiagram
    participant U as kubectl
    participant A as API server
    participant E as etcd
    participant S as scheduler
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
    A--)S: watch event: new pod, no node
    S->>S: filter and score
    alt no node fits
        S->>A: {patch}
    else node-1 fits
        S->>A: POST binding node-1
        A->>E: persist nodeName
    end
    A--)K: watch event: pod bound
    K->>R: RunPodSandbox
    R->>R: CNI ADD
    K->>R: PullImage
    K->>R: CreateContainer
    K->>R: StartContainer
    K->>A: PATCH status Running
    A->>E: persist status
"""


def test_the_schedulers_pod_scheduled_condition_is_not_the_kubelets_status():
    ref = load_reference(REPO / "reference" / "kubectl-apply" / "exercise.yml")
    corrections = [(f.kind, f.point) for f in grade_text(STATUS.format(patch="PATCH status PodScheduled=False"),
                                                        file="x.mmd", reference=ref).findings
                   if f.severity == "correction"]
    assert corrections == []
    early = grade_text(STATUS.format(patch="PATCH status Running"), file="x.mmd", reference=ref).findings
    assert any(f.point == "StatusUpdate" and f.severity == "correction" for f in early)

"""The second exercise's data (reference/kubectl-apply/) is consistent with itself.

- reference.mmd and every example parse with drawcheck's parser and with the pinned Mermaid, without errors;
- the exercise YAML loads with the engine's loader (its misconceptions, directions and named sources included);
- every step is drawn in reference.mmd, between its own participants;
- every fact (step, legacy name, misconception) has a source of the SOURCES.md form;
- every example's expected YAML names real steps, real misconceptions and real message lines, and each
  `points` line really carries one of that step's names.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

from drawcheck.parse import Message, Note, parse_file
from drawcheck.reference.load import load_reference
from drawcheck.recognise.phrases import is_plain

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "kubectl-apply"
YML = EXERCISE / "exercise.yml"
EXAMPLES = EXERCISE / "examples"
ORACLE = ROOT / "tests" / "parse" / "mermaid_oracle.mjs"

FINDING_KINDS = {"missing", "extra", "order", "wrong-cycle", "name", "belief", "participants"}
SEVERITIES = {"correction", "hint"}
HEX40 = re.compile(r"^[0-9a-f]{40}$")

EXPECTED = sorted(EXAMPLES.glob("*.yml"))


def compact(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


@pytest.fixture(scope="module")
def data() -> dict:
    return yaml.safe_load(YML.read_text(encoding="utf-8"))


def steps_by_id(data) -> dict:
    return {s["id"]: s for s in data["steps"]}


def as_list(value) -> list:
    return value if isinstance(value, list) else [value]


def step_names(step, *, shared: bool = True) -> list[str]:
    """The step's names, compacted; `shared=False` leaves out the names it shares with other steps."""
    names = [step["id"], step.get("name", step["id"])] + step.get("synonyms", [])
    names += step.get("participant_synonyms", []) if shared else []
    names += [legacy["name"] for legacy in step.get("legacy", [])]
    # a name mostly in another script ("αποθήκευση του pod") compacts to a scrap ("pod"): no name of its own here
    return [compact(str(n)) for n in names
            if compact(str(n)) and (is_plain(str(n)) or len(compact(str(n))) >= 0.6 * len(re.sub(r"\W", "", str(n))))]


def names_of(data, sid: str) -> list[str]:
    """A step's names, and the legacy names of other steps that also cover it (`also:`)."""
    names = step_names(steps_by_id(data)[sid])
    for step in data["steps"]:
        names += [compact(lg["name"]) for lg in step.get("legacy", []) if sid in lg.get("also", [])]
    return names


def messages(diagram) -> list[Message]:
    return [s for s, _ in diagram.walk() if isinstance(s, Message)]


def participants(data) -> dict:
    return data["misconceptions"]["participants"]


def rules(data) -> list:
    return data["misconceptions"]["rules"]


def ends(data, step_id: str) -> tuple[set, set] | None:
    """(senders, receivers) of a step that goes one way (its `directions:` entry), as participant ids."""
    by_words = {tuple(spec["words"]): pid for pid, spec in participants(data).items()}
    for d in data.get("directions", []):
        if d["step"] == step_id:
            return {by_words[tuple(d["from"])]}, {by_words[tuple(d["to"])]}
    return None


def participant_of(data, diagram, pid: str) -> str | None:
    """The exercise participant a drawn participant stands for: the longest matching word wins."""
    drawn = diagram.participant(pid)
    label = compact(drawn.label if drawn else pid) + " " + compact(pid)
    best, best_len = None, 0
    for ex_id, spec in participants(data).items():
        for word in spec["words"] + [spec["name"], ex_id]:
            w = compact(word)
            if w and w in label and len(w) > best_len:
                best, best_len = ex_id, len(w)
    return best


def fits(data, step, diagram, message: Message) -> bool:
    """Is this drawn message between the step's participants, in a direction its `via` allows?"""
    one_way = ends(data, step["id"])
    if one_way is None:
        return True  # work inside one participant, or a watch (drawn as its request or as its event)
    src = participant_of(data, diagram, message.source)
    dst = participant_of(data, diagram, message.target)
    senders, receivers = one_way
    return src in senders and (dst in receivers or dst == src)  # or work inside the sender (a self-arrow)


# --- the drawings parse ---------------------------------------------------------------------------------

def drawings() -> list[Path]:
    return [EXERCISE / "reference.mmd"] + sorted(EXAMPLES.glob("*.mmd"))


@pytest.mark.parametrize("path", drawings(), ids=lambda p: p.name)
def test_drawing_parses_without_errors(path):
    diagram = parse_file(path)
    assert diagram.errors == [], [(e.line, e.message) for e in diagram.errors]
    assert len(messages(diagram)) >= 15


def test_drawings_are_valid_for_the_pinned_mermaid():
    node = shutil.which("node")
    assert node, "node is required (Node 20): the pinned Mermaid runs in it"
    paths = drawings()
    done = subprocess.run([node, str(ORACLE)], input=json.dumps([str(p) for p in paths]), capture_output=True,
                          text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    results = [json.loads(line) for line in done.stdout.splitlines() if line.startswith('{"file"')]
    assert len(results) == len(paths)
    for path, result in zip(paths, results):
        assert result["valid"], (path.name, result.get("error"))
        assert len(result["messages"]) == len(messages(parse_file(path))), path.name


# --- the YAML ---------------------------------------------------------------------------------------------

def test_loads_with_the_engines_loader(data):
    ref = load_reference(YML, require_sources=True)
    assert [s.id for s in ref.steps] == [s["id"] for s in data["steps"]]
    assert ref.check("boundary") is None and ref.check("named_function") is None  # no goroutine boundary in this exercise
    assert set(ref.explanations) == {"watches", "etcd", "cri"}
    assert ref.reference_diagram == (EXERCISE / "reference.mmd").read_text(encoding="utf-8")
    required = {s.id for s in ref.steps if s.required}
    assert {"Apply", "Authenticate", "Authorize", "MutatingAdmission", "SchemaValidation", "ValidatingAdmission",
            "Persist", "SchedulerWatch", "Bind", "KubeletWatch", "RunPodSandbox", "CNIAdd", "PullImage",
            "CreateContainer", "StartContainer", "StatusUpdate"} <= required


def test_directions_name_participants(data):
    assert len(data["directions"]) >= 10
    for d in data["directions"]:
        senders, receivers = ends(data, d["step"])  # each side is one participant's words (a YAML alias)
        assert senders != receivers, d["step"]


def test_nothing_but_the_api_server_talks_to_etcd(data):
    for d in data["directions"]:
        senders, receivers = ends(data, d["step"])
        if "etcd" in senders | receivers:
            assert senders | receivers == {"apiserver", "etcd"}, d["step"]


def check_source(src, where: str) -> None:
    assert isinstance(src, dict), f"{where}: a source is a mapping"
    forms = [
        ({"repo", "ref", "path", "line"}, {"commit"}),
        ({"repo", "ref", "path", "lines"}, {"commit"}),
        ({"kep", "section"}, set()),
        ({"pr"}, {"repo"}),
        ({"url"}, {"section"}),
    ]
    keys = set(src)
    assert any(req <= keys <= req | opt for req, opt in forms), f"{where}: {src} is none of the SOURCES.md forms"
    if "line" in src:
        assert isinstance(src["line"], int) and src["line"] > 0, where
    if "lines" in src:
        a, b = (int(x) for x in str(src["lines"]).split("-"))
        assert 0 < a <= b, where
    if "ref" in src:
        assert re.fullmatch(r"v\d+\.\d+\.\d+|master", src["ref"]), where
        if src["ref"] == "master":
            assert HEX40.match(src.get("commit", "")), f"{where}: master needs its 40-hex commit"
    if "url" in src:
        assert re.match(r"https://(kubernetes\.io/docs/|github\.com/kubernetes/)", src["url"]), where
        if "github.com" in src["url"]:
            assert re.search(r"/blob/[0-9a-f]{40}/", src["url"]), f"{where}: pin GitHub URLs to a commit"


def facts(data):
    for step in data["steps"]:
        yield f"step {step['id']}", step
        for legacy in step.get("legacy", []):
            yield f"legacy {legacy['name']!r} of {step['id']}", legacy
    for m in rules(data):
        yield f"misconception {m['id']}", m
    for d in data["directions"]:
        yield f"direction of {d['step']}", d


def test_every_fact_has_a_source_of_the_shared_form(data):
    count = 0
    for where, fact in facts(data):
        assert "source" in fact, f"{where} has no source"
        for src in as_list(fact["source"]):
            check_source(src, where)
            count += 1
    assert count >= 50


def test_misconceptions_name_real_steps_and_participants(data):
    steps = steps_by_id(data)
    known = set(participants(data)) | {"any"}
    ids = [m["id"] for m in rules(data)]
    assert len(ids) == len(set(ids)) and len(ids) >= 8
    for m in rules(data):
        assert m["severity"] in SEVERITIES and m["message"].strip(), m["id"]
        if "point" in m:
            assert m["point"] in steps, m["id"]
        assert m["when"], m["id"]
        for shape in m["when"]:
            assert set(shape) <= {"arrow", "step", "arrows", "words", "unless_words", "from_not", "order"}, m["id"]
            if "order" in shape:
                first, second = shape["order"]
                assert first in steps and second in steps, m["id"]
                # the belief is the reverse of the reference order
                assert steps[first]["id"] != steps[second]["id"]
                order = [s["id"] for s in data["steps"]]
                assert order.index(first) > order.index(second), f"{m['id']}: {first} really comes after {second}"
            if "arrow" in shape:
                for end in ("from", "to"):
                    assert set(as_list(shape["arrow"][end])) <= known, m["id"]
            for sid in as_list(shape.get("step", [])):
                assert sid in steps, m["id"]
            assert set(shape.get("arrows", [])) <= {"call", "reply", "async"}, m["id"]


# --- the reference drawing ------------------------------------------------------------------------------

def test_every_step_is_drawn_in_the_reference_between_its_participants(data):
    diagram = parse_file(EXERCISE / "reference.mmd")
    drawn = messages(diagram)
    for step in data["steps"]:
        if step["cycle"] == "controllers":
            continue  # the Deployment-only steps: the reference is a bare Pod (see `scope`)
        if step["tier"] == "D" and step["cycle"] == "status":
            continue  # optional, not drawn in the reference
        names = step_names(step)
        hits = [m for m in drawn if any(n in compact(m.text) for n in names) and fits(data, step, diagram, m)]
        assert hits, f"step {step['id']} is not drawn in reference.mmd between {ends(data, step['id'])}"


def test_reference_is_in_the_step_order(data):
    """The first reference line of each required step comes in the YAML's step order."""
    diagram = parse_file(EXERCISE / "reference.mmd")
    drawn = messages(diagram)
    lines = []
    for step in data["steps"]:
        if step["tier"] not in ("A", "B") or step["cycle"] == "watching":
            continue
        names = step_names(step, shared=False)
        lines.append(min(m.line for m in drawn if any(n in compact(m.text) for n in names)
                         and fits(data, step, diagram, m)))
    assert lines == sorted(lines)


# --- the examples -------------------------------------------------------------------------------------

def test_examples_cover_two_correct_and_every_kind_of_mistake():
    cases = [yaml.safe_load(p.read_text(encoding="utf-8")) for p in EXPECTED]
    assert sum(c["status"] == "correct" for c in cases) >= 2
    beliefs = {f["misconception"] for c in cases for f in c["findings"] if f["kind"] == "belief"}
    assert len(beliefs) >= 6
    assert len({p.stem for p in sorted(EXAMPLES.glob("*.mmd"))}) == len(EXPECTED)


@pytest.mark.parametrize("path", EXPECTED, ids=lambda p: p.stem)
def test_example_expectation_names_real_steps_and_lines(path, data):
    case = yaml.safe_load(path.read_text(encoding="utf-8"))
    assert set(case) == {"description", "drawing", "status", "points", "findings"}, path.name
    drawing = EXAMPLES / case["drawing"]
    assert drawing.stem == path.stem and drawing.exists()
    text = drawing.read_text(encoding="utf-8")
    assert text.startswith("%% "), f"{drawing.name} must open with a comment header saying what it shows"
    diagram = parse_file(drawing)
    by_line = {s.line: s for s, _ in diagram.walk() if isinstance(s, (Message, Note))}
    steps = steps_by_id(data)
    misconceptions = {m["id"]: m for m in rules(data)}
    belief_lines = {f["line"] for f in case["findings"] if f["kind"] == "belief"}

    for sid, line in case["points"].items():
        assert sid in steps, f"{path.name}: {sid} is no step"
        assert line in by_line, f"{path.name}: line {line} ({sid}) is no message"
        message = by_line[line]
        if line in belief_lines:
            continue  # a misconception's line is found by its shape (participants, order), not by its words
        assert any(n in compact(message.text) for n in names_of(data, sid)), \
            f"{path.name}:{line}: {message.text!r} carries no name of {sid}"
        assert fits(data, steps[sid], diagram, message), f"{path.name}:{line}: {sid} between wrong participants"

    for f in case["findings"]:
        assert f["kind"] in FINDING_KINDS and f["severity"] in SEVERITIES, f
        assert f["point"] in steps, f
        if f["line"] is not None:
            assert f["line"] in by_line, f"{path.name}: finding line {f['line']} is no message"
        if f["kind"] == "missing":
            assert f["line"] is None and f["point"] not in case["points"], f
            tier = steps[f["point"]]["tier"]
            assert f["severity"] == ("correction" if tier in ("A", "B") else "hint"), f
        if f["kind"] == "belief":
            m = misconceptions[f["misconception"]]
            assert f["severity"] == m["severity"], f
            if "version" in f:
                assert f["version"] in m["versions"], f

    # every required step is either drawn or reported missing
    missing = {f["point"] for f in case["findings"] if f["kind"] == "missing"}
    for sid, step in steps.items():
        if step["tier"] in ("A", "B", "C"):
            assert sid in case["points"] or sid in missing, f"{path.name}: {sid} neither drawn nor missing"
    if case["status"] == "correct":
        assert case["findings"] == []
    else:
        kinds = {f["severity"] for f in case["findings"]}
        assert case["status"] == ("corrections" if "correction" in kinds else "hints")

"""The reference loader: the real exercise loads, and every kind of bad data is refused
with `file:line:` and a message that says what to write instead."""

from __future__ import annotations

from pathlib import Path

import pytest

from drawcheck.reference import ReferenceError, load_reference

REPO = Path(__file__).resolve().parents[2]
EXERCISE = REPO / "reference" / "two-cycles" / "exercise.yml"

MINIMAL = """\
exercise: tiny
title: Tiny
cycles:
  first: {name: first phase, words: [first phase]}
  second: {name: second phase, words: [second phase]}
steps:
  - {id: Alpha, cycle: first, tier: A, synonyms: [start]}
  - {id: Beta, cycle: second, tier: A}
boundary:
  after: Alpha
  cycles: [first, second]
  markers: [handover]
  missing: draw the handover
  early: "{n} early"
  late: "{n} late"
explanations:
  why: why.md
reference_diagram: ref.mmd
"""


def write(tmp_path: Path, text: str) -> Path:
    (tmp_path / "why.md").write_text("Because.\n")
    (tmp_path / "ref.mmd").write_text("sequenceDiagram\n    A->>A: Alpha\n")
    path = tmp_path / "exercise.yml"
    path.write_text(text)
    return path


def line_of(text: str, needle: str) -> int:
    return next(i for i, line in enumerate(text.splitlines(), 1) if needle in line)


def refused(tmp_path: Path, text: str) -> ReferenceError:
    path = write(tmp_path, text)
    with pytest.raises(ReferenceError) as info:
        load_reference(path)
    err = info.value
    assert err.file == str(path)
    assert str(err).startswith(f"{path}:{err.line}: " if err.line else f"{path}: ")
    return err


def test_minimal_loads_with_files(tmp_path):
    ref = load_reference(write(tmp_path, MINIMAL))
    assert [s.id for s in ref.steps] == ["Alpha", "Beta"]
    assert [s.index for s in ref.steps] == [0, 1]
    assert ref.step("Beta").cycle == "second" and ref.step("Beta").required
    assert ref.explanations == {"why": "Because.\n"}
    assert ref.reference_diagram.startswith("sequenceDiagram")


def test_the_real_exercise_loads():
    ref = load_reference(EXERCISE)
    ids = [s.id for s in ref.steps]
    for a, b in [("PreFilter", "Filter"), ("Filter", "PostFilter"), ("Score", "NormalizeScore"),
                 ("Assume", "Reserve"), ("Reserve", "Permit"), ("Permit", "WaitOnPermit"), ("PreBind", "Bind")]:
        assert ids.index(a) < ids.index(b)
    tier_a = {s.id for s in ref.steps if s.tier == "A"}
    assert tier_a == {"PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve",
                      "Permit", "PreBind", "Bind", "PostBind", "Unreserve"}  # the twelve of §8
    assert {s.id for s in ref.steps if s.tier == "C"} == {"WaitOnPermit", "SelectHost", "UpdateSnapshot", "ForgetPod"}
    assert ref.step("Permit").cycle == "scheduling" and ref.step("WaitOnPermit").cycle == "binding"
    assert ref.step("PostFilter").branch and ref.step("Unreserve").branch
    assert ref.boundary.after == "Permit"
    assert ref.check("named_function").step == "Assume" and ref.check("named_function").before == ("Reserve",)
    folder = EXERCISE.parent
    assert ref.explanations["boundary"] == (folder / "explanations" / "boundary.md").read_text(encoding="utf-8")
    assert ref.explanations["cache_function"] == (folder / "explanations" / "cache-function.md").read_text(encoding="utf-8")
    assert ref.reference_diagram == (folder / "reference.mmd").read_text(encoding="utf-8")


@pytest.mark.parametrize("old,new,needle,expect", [
    ("title: Tiny\n", "title: Tiny\ncolour: red\n", "colour", "unknown key 'colour'"),
    ("tier: A, synonyms: [start]", "tier: A, synonyms: [start], colour: red", "colour", "unknown key 'colour'"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: third, tier: A}", "Beta", "use one of: first, second"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: E}", "Beta", "tier is 'E'"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: 3}", "Beta", "tier is '3'"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: A, required: maybe}", "Beta", "true or false"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Alpha, cycle: second, tier: A}", "id: Alpha, cycle: second",
     "duplicate step id 'Alpha'"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: A, synonyms: [Start]}", "[Start]",
     "already a name of step Alpha"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: A, synonyms: [be-ta]}", "be-ta",
     "already covered"),
    ("{id: Beta, cycle: second, tier: A}", "{id: Beta, cycle: second, tier: A, synonyms: start}", "synonyms: start",
     "must be a list"),
    ("  after: Alpha\n", "  after: Gamma\n", "Gamma", "not a step id"),
    ("  cycles: [first, second]\n", "  cycles: [first]\n", "cycles: [first]", "exactly two"),
    ("  why: why.md\n", "  why: gone.md\n", "gone.md", "does not exist"),
    ("  why: why.md\n", "  why: ../why.md\n", "../why.md", "without `..`"),
    ("reference_diagram: ref.mmd\n", "reference_diagram: /etc/passwd\n", "/etc/passwd", "relative"),
    ("title: Tiny\n", "", "exercise: tiny", "needs `title:`"),
    ("title: Tiny\n", "title: Tiny\ntitle: Again\n", "Again", "duplicate key 'title'"),
    ("steps:\n  - {id: Alpha, cycle: first, tier: A, synonyms: [start]}\n  - {id: Beta, cycle: second, tier: A}\n",
     "steps: 7\n", "steps: 7", "must be a list"),
    ("title: Tiny\n", "title: Tiny\nnot_steps: [{name: Gamma, hint: no}]\n", "Gamma", "quote it"),
    ("title: Tiny\n", "title: Tiny\nnot_steps: [{name: Gamma, hint: nope, means: Delta}]\n", "Delta", "not a step id"),
    ("title: Tiny\n", "title: Tiny\nbeliefs: [{words: [x], kind: nonsense, message: m}]\n", "nonsense", "use one of"),
    ("title: Tiny\n", "title: Tiny\nbranches: {b: {name: n}}\n", "branches", "needs `words:`"),
])
def test_bad_data_is_refused_with_its_line(tmp_path, old, new, needle, expect):
    assert old in MINIMAL
    text = MINIMAL.replace(old, new, 1)
    err = refused(tmp_path, text)
    assert expect in err.message
    assert err.line == line_of(text, needle), str(err)


def test_invalid_yaml_and_empty_file(tmp_path):
    err = refused(tmp_path, MINIMAL.replace("title: Tiny", "title: [Tiny"))
    assert "not valid YAML" in err.message and err.line is not None
    err = refused(tmp_path, "")
    assert "empty" in err.message


def test_missing_reference_file(tmp_path):
    with pytest.raises(ReferenceError) as info:
        load_reference(tmp_path / "nope.yml")
    assert "cannot read" in info.value.message


def test_unknown_steps_in_before_and_legacy_also_are_refused(tmp_path):
    text = MINIMAL.replace("{id: Beta, cycle: second, tier: A}",
                           "{id: Beta, cycle: second, tier: A, before: [Gamma]}")
    err = refused(tmp_path, text)
    assert err.line == line_of(text, "before: [Gamma]") and "'Gamma', which is not a step id" in err.message
    text = MINIMAL.replace("{id: Beta, cycle: second, tier: A}",
                           "{id: Beta, cycle: second, tier: A, legacy: [{name: old, message: m, also: [Zeta]}]}")
    err = refused(tmp_path, text)
    assert err.line == line_of(text, "also: [Zeta]") and "'Zeta'" in err.message


def test_reason_min_groups_must_fit_the_groups(tmp_path):
    reason = "reason:\n  prefixes: [why]\n  min_groups: 3\n  groups:\n    - {name: g, words: [w]}\n  missing: m\n  wrong: w\n"
    err = refused(tmp_path, MINIMAL + reason)
    assert err.line == line_of(MINIMAL + reason, "min_groups") and "from 1 to 1" in err.message
    ok = load_reference(write(tmp_path, MINIMAL + reason.replace("min_groups: 3", "min_groups: 1")))
    assert ok.check("reason").min_groups == 1


# Seed rule: the site names the cache-boundary function but never says what it does.
EXPLAINS_ASSUME = ("counts it", "count it", "so later pods", "next cycle counts", "updates the cache",
                   "cache is updated", "placed in the", "stays assumed", "marks the pod", "already sees it",
                   "cache bookkeeping")


def _texts(node):
    if isinstance(node, str):
        yield node
    elif isinstance(node, dict):
        for v in node.values():
            yield from _texts(v)
    elif isinstance(node, list):
        for v in node:
            yield from _texts(v)


def test_messages_name_the_assume_but_never_explain_it():
    import yaml
    data = yaml.safe_load(EXERCISE.read_text(encoding="utf-8"))
    texts = [t.lower() for t in _texts(data)]
    assert any("assumepod" in t for t in texts)  # named
    for t in texts:
        for phrase in EXPLAINS_ASSUME:
            assert phrase not in t, f"{phrase!r} explains the assume: {t!r}"


def test_inferred_versions_are_hedged():
    """Releases the facts file only infers are written with 'about' (facts §3, §5)."""
    ref = load_reference(EXERCISE)
    versions = [ref.check("named_function").misplaced.versions, ref.check("named_function").same_line.versions]
    versions += [b.versions for b in ref.check("beliefs").beliefs if b.versions]
    assert versions and all("about" in v for v in versions), versions
    text = EXERCISE.read_text(encoding="utf-8")
    for unhedged in ("≤v1.24", "v1.15–v1.18", "up to v1.35", '"≤v1.14"'):
        assert unhedged not in text

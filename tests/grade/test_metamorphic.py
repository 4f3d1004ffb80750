"""Metamorphic tests of the grader: a rewrite Mermaid reads the same way never changes the grade.

Every drawing whose grade is known (tests/grade/corpus, tests/grade/heldout/*, tests/grade/golden,
reference/*/examples; correct and wrong ones, of both exercises) is rewritten by the transformations in
tests/grade/metamorphic/transforms.py (renamed ids, `actor`, implicit participants, comments, CRLF, `;`,
other arrows of the same kind, activations, a wrapping `rect`/`box`, step names in other cases and
forms, ...), alone and a few chained at random (fixed seed). The relation checked: the transformed
drawing gets exactly the corrections the original gets (kind and step, each on the line the
transformation moved it to); a correct drawing stays correct. Every transformed text must also parse with
the pinned Mermaid: all of them go to tests/parse/mermaid_oracle.mjs in one node call.

Fast by default: a fixed-seed sample of drawings per transformation. `DRAWCHECK_METAMORPHIC=all` runs
every drawing through every transformation (the measure in the report of this suite).
"""

from __future__ import annotations

import collections
import json
import os
import random
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import pytest
import yaml

from drawcheck.grade import grade_text
from drawcheck.parse import parse_text
from drawcheck.recognise import recognise
from drawcheck.reference import load_reference
from metamorphic.transforms import TRANSFORMS, Context, Doc, apply_chain, normalise
from test_corpus import _node_missing, case_names, load_case
from test_heldout import CORPORA, HELDOUT

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
TWO_CYCLES = REPO / "reference" / "two-cycles" / "exercise.yml"
KUBECTL = REPO / "reference" / "kubectl-apply" / "exercise.yml"
FOLDERS = {HERE / "corpus": TWO_CYCLES}  # folder of <name>.mmd + <name>.yml cases -> its exercise
FOLDERS |= {HELDOUT / corpus: exercise for corpus, exercise in CORPORA.items()}  # every held-out set
EXAMPLES = {REPO / "reference" / "kubectl-apply" / "examples": KUBECTL}  # <name>.mmd + its expected grade
GOLDEN = HERE / "golden"
# per exercise: a participant label naming the framework the steps run in (None: no such move), a neutral
# continuation of a step's line after `<br>`, and per step what may follow its name in parentheses: the
# default plugins that implement it (kubernetes/pkg/scheduler/framework/plugins), or a protocol detail
_FIT, _VOL, _IPA, _PTS, _TT, _NA = ("NodeResourcesFit", "VolumeBinding", "InterPodAffinity", "PodTopologySpread",
                                    "TaintToleration", "NodeAffinity")
STYLE = {
    TWO_CYCLES: ("Framework", "per node", {
        "PreFilter": (_FIT, "NodePorts", _VOL, _IPA, _PTS, _NA),
        "Filter": (_FIT, "NodeName", "NodeUnschedulable", _TT, _NA, "NodePorts", _VOL, "VolumeRestrictions", _IPA,
                   f"{_FIT}, {_VOL}", _PTS),
        "PostFilter": ("DefaultPreemption",),
        "PreScore": (_IPA, _PTS, _TT, _NA),
        "Score": (_FIT, "NodeResourcesBalancedAllocation", "ImageLocality", _IPA, _TT, _NA, _PTS),
        "NormalizeScore": (_IPA, _TT, _NA, _PTS),
        "Reserve": (_VOL,), "PreBind": (_VOL,), "Bind": ("DefaultBinder",), "Unreserve": (_VOL,),
    }),
    KUBECTL: (None, "in detail", {step: ("v1", "HTTP", "REST") for step in (
        "Apply", "Authenticate", "Authorize", "MutatingAdmission", "SchemaValidation", "ValidatingAdmission",
        "Persist", "Created", "Bind", "PersistBinding")}),
}
ONE_EXERCISE = {"self-to-framework"}  # a framework label: two-cycles only (both exercises have `wrappers`)
SEED = 20261201
SAMPLE = 8  # drawings per transformation in the default run (at least 3 of each exercise)
CHAINS = 24  # random chains of 3 transformations in the default run
ALL = os.environ.get("DRAWCHECK_METAMORPHIC") == "all"

# (transformation) -> why the grader still reads it differently. Strict xfails.
KNOWN_WRONG: dict[str, str] = {
}


@dataclass(frozen=True)
class Drawing:
    id: str
    text: str
    exercise: Path


@lru_cache(maxsize=None)
def reference(path: Path):
    return load_reference(path)


@lru_cache(maxsize=None)
def context(path: Path) -> Context:
    ref = reference(path)
    names = set()
    for step in ref.steps:
        names |= {normalise(step.id), normalise(step.name)} | {normalise(s) for s in step.synonyms}
    framework, filler, by_step = STYLE[path]
    details = {}
    for step in ref.steps:
        for name in (step.id, step.name, *step.synonyms):
            if step.id in by_step:
                details.setdefault(normalise(name), by_step[step.id])

    def header_lines(text: str) -> set[int]:
        found = recognise(parse_text(text), ref)
        return {i.line for i in found.items if i.kind == "note" and i.header and i.role == "plain"}
    wrappers = tuple(yaml.safe_load(path.read_text(encoding="utf-8")).get("wrappers") or ())
    return Context(ref.exercise_id, frozenset(names), framework, filler, details, wrappers, header_lines)


def _graded_ok(text: str) -> bool:
    return "%%{" not in text


@lru_cache(maxsize=None)
def drawings() -> tuple[Drawing, ...]:
    """Every valid drawing with a known grade (syntax cases left out: a rewrite cannot keep their error)."""
    out = []
    for folder, exercise in FOLDERS.items():
        for name in case_names(folder):
            case = load_case(name, folder)
            if case.invalid:
                continue
            out.append(Drawing(f"{folder.relative_to(REPO)}/{name}", case.text, exercise))
    for folder, exercise in EXAMPLES.items():
        for path in sorted(folder.glob("*.mmd")):
            out.append(Drawing(f"{path.relative_to(REPO)}", path.read_text(encoding="utf-8"), exercise))
    for path in sorted(GOLDEN.glob("*.yml")):
        data = yaml.safe_load(path.read_text(encoding="utf-8"))
        if data.get("status") == "invalid":
            continue
        out.append(Drawing(f"{path.relative_to(REPO)}", data["drawing"], TWO_CYCLES))
    return tuple(d for d in out if _graded_ok(d.text))


def corrections(text: str, exercise: Path) -> list[tuple]:
    result = grade_text(text, file="answer.mmd", reference=reference(exercise))
    return sorted((f.kind, f.point, f.line) for f in result.findings if f.severity == "correction")


@lru_cache(maxsize=None)
def baseline(drawing: Drawing) -> tuple:
    return tuple(corrections(drawing.text, drawing.exercise))


@dataclass(frozen=True)
class Variant:
    drawing: Drawing
    names: tuple[str, ...]  # the transformations applied, in order
    doc: Doc


def _variant(drawing: Drawing, names: list[str], salt: str) -> Variant | None:
    rng = random.Random(f"{SEED}/{drawing.id}/{salt}")
    doc, applied = apply_chain(Doc.from_text(drawing.text), names, context(drawing.exercise), rng)
    return Variant(drawing, tuple(applied), doc) if applied else None


def _sample(variants: list[Variant], n: int, salt: str) -> list[Variant]:
    """`n` of the variants, both exercises in proportion (at least 3 of each that has any)."""
    if ALL or len(variants) <= n:
        return variants
    rng = random.Random(f"{SEED}/{salt}")
    by_ex = collections.defaultdict(list)
    for v in variants:
        by_ex[v.drawing.exercise].append(v)
    picked = []
    for group in by_ex.values():
        picked += rng.sample(group, min(len(group), max(3, n * len(group) // len(variants))))
    return picked


@lru_cache(maxsize=None)
def variants_of(name: str) -> tuple[Variant, ...]:
    """The transformation applied to every drawing it applies to; a fixed-seed sample of them by default."""
    applied = [v for d in drawings() if (v := _variant(d, [name], name)) is not None]
    return tuple(_sample(applied, SAMPLE, name))


@lru_cache(maxsize=None)
def chains() -> tuple[Variant, ...]:
    rng = random.Random(SEED)
    pool = list(drawings())
    out = []
    for k in range(len(pool) if ALL else CHAINS):
        d = pool[k] if ALL else rng.choice(pool)
        names = rng.sample(sorted(set(TRANSFORMS) - set(KNOWN_WRONG)), 3)
        v = _variant(d, names, f"chain{k}")
        if v is not None:
            out.append(v)
    return tuple(out)


def all_variants() -> list[Variant]:
    return [v for name in TRANSFORMS for v in variants_of(name)] + list(chains())


def mismatch(v: Variant) -> str | None:
    """What the transformed drawing gets differently from the original, or None."""
    want = baseline(v.drawing)
    lines_of = v.doc.lines_of()
    got = corrections(v.doc.text(), v.drawing.exercise)
    # each expected correction takes one found one of its kind and step on a line holding its original line
    gone, unused = [], list(got)
    for k, p, line in want:
        where = {None} if line is None else lines_of.get(line, set())
        hit = next((g for g in unused if g[:2] == (k, p) and g[2] in where), None)
        if hit is None:
            gone.append((k, p, min(where, key=lambda x: x or 0) if where else None))
        else:
            unused.remove(hit)
    new = unused
    if not gone and not new:
        return None
    return (f"{v.drawing.id} after {' + '.join(v.names)}: lost {gone}, gained {new}\n"
            f"--- transformed drawing ---\n{v.doc.text()}")


def _check(vs) -> list[str]:
    return [m for v in vs if (m := mismatch(v)) is not None]


def _param(name: str):
    marks = [pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[name])] if name in KNOWN_WRONG else []
    return pytest.param(name, marks=marks, id=name)


def test_the_sources_are_wide():
    ds = drawings()
    assert len(ds) >= 300
    by_ex = collections.Counter(d.exercise for d in ds)
    assert by_ex[TWO_CYCLES] >= 200 and by_ex[KUBECTL] >= 60
    assert sum(not baseline(d) for d in ds) >= 100, "correct drawings"
    assert sum(bool(baseline(d)) for d in ds) >= 100, "wrong drawings"


@pytest.mark.parametrize("name", [_param(n) for n in TRANSFORMS])
def test_transformation_keeps_the_grade(name):
    vs = variants_of(name)
    assert len(vs) >= 5, f"{name} applies to too few drawings: {len(vs)}"
    exercises = {v.drawing.exercise for v in vs}
    assert exercises == ({TWO_CYCLES} if name in ONE_EXERCISE else {TWO_CYCLES, KUBECTL}), exercises
    bad = _check(vs)
    assert not bad, f"{len(bad)} of {len(vs)} drawings graded differently:\n" + "\n".join(bad[:3])


def test_chained_transformations_keep_the_grade():
    vs = chains()
    assert len(vs) >= CHAINS // 2
    bad = _check(vs)
    assert not bad, f"{len(bad)} of {len(vs)} drawings graded differently:\n" + "\n".join(bad[:3])


def test_a_broken_transformation_would_be_caught():
    """The relation can fail: dropping a step's message changes the corrections."""
    d = next(d for d in drawings() if d.exercise == TWO_CYCLES and not baseline(d) and "Filter" in d.text)
    doc = Doc.from_text(d.text)
    i = next(i for i, line in enumerate(doc.lines) if line.strip().endswith(": Filter"))
    broken = doc.edit([r for k, r in enumerate(doc.rows()) if k != i])
    assert mismatch(Variant(d, ("drop-a-step",), broken)) is not None


def test_line_maps_follow_the_lines():
    d = next(d for d in drawings() if d.exercise == TWO_CYCLES)
    ctx = context(d.exercise)
    for name in ("comments", "front-matter", "join-statements", "activations", "wrap-rect"):
        out = TRANSFORMS[name](Doc.from_text(d.text), ctx, random.Random(1))
        if out is None:
            continue
        original = d.text.split("\n")
        for old, new in out.line_map().items():
            assert original[old - 1].strip().rstrip(";") in out.lines[new - 1], (name, old, new)


@pytest.mark.node
@pytest.mark.skipif(_node_missing() is not None, reason=str(_node_missing()))
def test_every_transformed_drawing_is_valid_mermaid():
    vs = all_variants()
    texts = [v.doc.text() for v in vs]
    run = subprocess.run(["node", str(REPO / "tests" / "parse" / "mermaid_oracle.mjs")], cwd=REPO,
                         input=json.dumps({"texts": texts}), capture_output=True, text=True,
                         timeout=None if ALL else 600)  # the full run checks some 20,000 texts
    assert run.returncode == 0, run.stderr[-2000:]
    rows = [json.loads(line) for line in run.stdout.splitlines() if line.strip()]
    assert len(rows) == len(texts)
    bad = [(v.drawing.id, v.names, r.get("error")) for v, r in zip(vs, rows) if not r["valid"]]
    assert not bad, f"{len(bad)} of {len(texts)} not valid Mermaid: {bad[:5]}"


# What these tests found, pinned as plain regressions (each failed before its fix).


def _grade(text: str, exercise: Path = TWO_CYCLES) -> list[tuple]:
    return corrections(text, exercise)


def _framed(text: str) -> str:
    """`text` (a drawing) with everything after its declarations inside one unlabelled rect."""
    out = TRANSFORMS["wrap-rect"](Doc.from_text(text), context(TWO_CYCLES), random.Random(0))
    return out.text()


def test_a_rect_framing_the_whole_drawing_marks_no_region():
    # two unlabelled coloured rects split the cycles; a rect around both is a frame, not a third region
    text = (HERE / "corpus" / "ok-rect-unlabelled-colours.mmd").read_text(encoding="utf-8")
    assert _grade(text) == []
    assert _grade(_framed(text)) == []


def test_a_header_note_heading_a_block_ends_at_the_boundary():
    # `Note over S: <first phase>` as the first line of a block that also holds the boundary and the
    # second phase's steps: a section header, not the whole block's label
    text = (HERE / "heldout" / "two-cycles" / "ok-terse-26.mmd").read_text(encoding="utf-8")
    assert _grade(text) == []
    assert _grade(_framed(text)) == []


def test_a_korean_compound_name_reads_with_or_without_its_space():
    ko = next(d for d in drawings() if d.id.endswith("lang-ko-translated-names.yml"))
    assert "점수 정규화" in ko.text and not baseline(ko)
    assert _grade(ko.text.replace("점수 정규화", "점수정규화")) == []
    assert _grade(ko.text.replace("허가 대기", "허가대기").replace("예약 해제", "예약해제")) == []

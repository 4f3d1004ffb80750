"""The independent corpus: drawings of "Two cycles, one thread" written from scratch, graded as a whole.

Each `tests/grade/corpus/<name>.mmd` has `<name>.yml` next to it, written from the facts and the
exercise (never from the grader's output):

    description: what the drawing is
    correct: true | false          # true = no mistake a careful reviewer would mark
    corrections:                   # every correction the drawing deserves, nothing more
      - {kind: boundary, step: null, line: 16}              # line: null = nothing drawn there (missing ...)
      - {kind: boundary, step: null, line: 16, version: v1.15–v1.17}   # version: null = no version note
      - any: [{kind: order, step: Bind, line: 18}, {kind: order, step: PreBind, line: 19}]  # either circle
    allowed_hints: [{kind: missing}]   # optional: when present, every hint must match one (step omitted = any)

The measure: (a) no correct drawing gets a correction, (b) every expected correction is found (kind and
step, at the line), (c) no correction beyond the expected, (d) a file with syntax errors gets syntax
findings only, a diagram of another type exactly one. `summary()` gives precision and recall of
corrections over the corpus (`bench/corpus.py` prints it).

Drawings the current grader gets wrong are listed in KNOWN_WRONG with what goes wrong; they are strict
xfails, so a fix turns them into failures until their entry is removed.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass, field
from pathlib import Path

import pytest
import yaml

from drawcheck.grade import FINDING_KINDS, Finding, grade_text
from drawcheck.parse import parse_text
from drawcheck.reference import load_reference

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
CORPUS = HERE / "corpus"
EXERCISE = REPO / "reference" / "two-cycles" / "exercise.yml"
CASE_KEYS = {"description", "correct", "corrections", "allowed_hints"}
ENTRY_KEYS = {"kind", "step", "line", "version"}
LANGUAGES = ("zh", "ja", "ko", "es", "de", "fr")

# What the current grader gets wrong, by drawing (the work list of #13 phase 2). Strict xfails.
KNOWN_WRONG: dict[str, str] = {
}


@dataclass
class Case:
    name: str
    text: str
    description: str
    correct: bool
    expected: list[list[dict]]  # each entry: its alternatives (one of them must be found)
    allowed_hints: list[dict] | None

    @property
    def invalid(self) -> bool:
        """Every expected correction is a syntax error: the file must get nothing else."""
        return bool(self.expected) and all(alt["kind"] == "syntax" for entry in self.expected for alt in entry)


@dataclass
class Comparison:
    found: list[dict] = field(default_factory=list)  # expected corrections the grader gave
    missed: list[dict] = field(default_factory=list)  # expected corrections it did not give
    false: list[Finding] = field(default_factory=list)  # corrections (or, on invalid files, findings) not expected
    hints_not_allowed: list[Finding] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not (self.missed or self.false or self.hints_not_allowed)


def case_names(folder: Path = CORPUS) -> list[str]:
    return sorted(p.stem for p in folder.glob("*.mmd"))


def load_case(name: str, folder: Path = CORPUS) -> Case:
    text = (folder / f"{name}.mmd").read_text(encoding="utf-8")
    data = yaml.safe_load((folder / f"{name}.yml").read_text(encoding="utf-8"))
    unknown = set(data) - CASE_KEYS
    assert not unknown, f"{name}.yml: unknown keys {sorted(unknown)}"
    expected = []
    for entry in data.get("corrections") or []:
        alternatives = entry["any"] if "any" in entry else [entry]
        for alt in alternatives:
            assert set(alt) <= ENTRY_KEYS and {"kind", "line"} <= set(alt), f"{name}.yml: bad entry {alt}"
        expected.append(alternatives)
    return Case(name, text, data.get("description", name), bool(data["correct"]), expected,
                data.get("allowed_hints"))


def _matches(alt: dict, f: Finding) -> bool:
    if f.kind != alt["kind"] or f.point != alt.get("step"):
        return False
    if alt["line"] is not None and f.line != alt["line"]:
        return False
    if "version" in alt:
        if alt["version"] is None:
            return f.version is None
        return f.version is not None and alt["version"] in f.version
    return True


def compare(case: Case, findings: list[Finding]) -> Comparison:
    """Match the grader's findings against the case's expectations, one finding per expected entry."""
    out = Comparison()
    graded = [f for f in findings if f.severity == "correction" or case.invalid]
    unused = list(graded)
    # entries with a line first, so a line-less entry (missing ...) does not take a finding a placed one needs
    for entry in sorted(case.expected, key=lambda e: all(a["line"] is None for a in e)):
        hit = next((f for f in unused if any(_matches(a, f) for a in entry)), None)
        if hit is None:
            out.missed.append(entry[0] if len(entry) == 1 else {"any": entry})
        else:
            unused.remove(hit)
            out.found.append(entry[0])
    out.false = unused
    if case.allowed_hints is not None:
        for f in findings:
            if f.severity == "hint" and not any(
                    f.kind == h["kind"] and ("step" not in h or h["step"] == f.point) for h in case.allowed_hints):
                out.hints_not_allowed.append(f)
    return out


def grade_case(case: Case, reference) -> list[Finding]:
    return grade_text(case.text, file=f"{case.name}.mmd", reference=reference).findings


def summary(reference=None, folder: Path = CORPUS) -> dict:
    """Precision and recall of corrections over a corpus folder, and every miss and false correction."""
    reference = reference or load_reference(EXERCISE)
    tp = fp = fn = 0
    files: dict[str, dict] = {}
    invalid: set[str] = set()
    false_on_correct = 0
    for name in case_names(folder):
        case = load_case(name, folder)
        if case.invalid:
            invalid.add(name)
        cmp = compare(case, grade_case(case, reference))
        tp, fp, fn = tp + len(cmp.found), fp + len(cmp.false), fn + len(cmp.missed)
        false_on_correct += bool(case.correct and cmp.false)
        files[name] = {"correct": case.correct, "ok": cmp.ok, "missed": cmp.missed,
                       "false": [(f.kind, f.point, f.line, f.message) for f in cmp.false],
                       "hints_not_allowed": [(f.kind, f.point, f.line, f.message) for f in cmp.hints_not_allowed]}
    return {
        "drawings": len(files),
        "correct_drawings": sum(v["correct"] for v in files.values()),
        "correct_drawings_with_a_correction": false_on_correct,
        "drawings_graded_right": sum(v["ok"] for v in files.values()),
        "expected": tp + fn, "found": tp, "missed": fn, "false": fp,
        "precision": tp / (tp + fp) if tp + fp else 1.0,
        "false_on_invalid_files": sum(len(v["false"]) for n, v in files.items() if n in invalid),
        "recall": tp / (tp + fn) if tp + fn else 1.0,
        "files": files,
    }


@pytest.fixture(scope="module")
def corpus_reference():
    return load_reference(EXERCISE)


def _param(name: str):
    if name in KNOWN_WRONG:
        return pytest.param(name, marks=pytest.mark.xfail(strict=True, reason=KNOWN_WRONG[name]), id=name)
    return pytest.param(name, id=name)


@pytest.mark.parametrize("name", [_param(n) for n in case_names()])
def test_corpus_drawing(name, corpus_reference):
    case = load_case(name)
    findings = grade_case(case, corpus_reference)
    cmp = compare(case, findings)
    shown = [(f.kind, f.point, f.line, f.severity, f.message) for f in findings]
    if case.correct:
        assert not cmp.false, f"a correct drawing got corrections: {shown}"  # (a)
    assert not cmp.missed, f"seeded corrections not found: {cmp.missed}; got {shown}"  # (b)
    assert not cmp.false, f"corrections beyond the expected: {cmp.false}"  # (c), and (d) for syntax files
    if case.invalid:
        assert all(f.kind == "syntax" for f in findings), shown  # (d)
    assert not cmp.hints_not_allowed, f"hints the case does not allow: {cmp.hints_not_allowed}"


def test_known_wrong_names_exist():
    assert set(KNOWN_WRONG) <= set(case_names())


def test_corpus_shape(corpus_reference):
    names = case_names()
    assert len(names) >= 80
    assert sorted(p.stem for p in CORPUS.glob("*.yml") if p.stem != "LANGUAGES") == names
    step_ids = {s.id for s in corpus_reference.steps}
    cases = [load_case(n) for n in names]
    for case in cases:
        n_lines = len(case.text.splitlines())
        assert case.correct == (not case.expected), f"{case.name}: correct iff no corrections"
        for entry in case.expected:
            for alt in entry:
                assert alt["kind"] in FINDING_KINDS, (case.name, alt)
                assert alt.get("step") is None or alt["step"] in step_ids, (case.name, alt)
                assert alt["line"] is None or 1 <= alt["line"] <= n_lines, (case.name, alt)
    drawings = [c for c in cases if not c.invalid]
    n_correct = sum(c.correct for c in drawings)
    assert 0.4 <= n_correct / len(drawings) <= 0.6, f"{n_correct} of {len(drawings)} correct: about half should be"
    assert sum(c.invalid for c in cases) >= 5
    kinds = {alt["kind"] for c in cases for e in c.expected for alt in e}
    assert {"missing", "extra", "order", "wrong-cycle", "boundary", "reason", "cache-function", "syntax",
            "cycles"} <= kinds
    others = [c for c in cases if not c.text.lstrip().startswith("sequenceDiagram")]
    assert others and all(len(c.expected) == 1 for c in others), "a diagram of another type: exactly one error"
    for lang in LANGUAGES:
        assert any(n.startswith(f"ok-{lang}-") for n in names), f"no correct drawing in {lang}"


def test_corpus_parses_as_intended():
    """Valid Mermaid unless meant to be broken (drawcheck's parser; the oracle test below runs Mermaid)."""
    for name in case_names():
        case = load_case(name)
        errors = parse_text(case.text).errors
        assert bool(errors) == case.invalid, (name, [(e.line, e.message) for e in errors])


SOURCE_FORMS = ({"repo", "ref", "path", "line"}, {"repo", "ref", "path", "lines"}, {"kep", "section"}, {"pr"},
                {"pr", "repo"}, {"url", "section"}, {"url"})


def test_languages_data_fits_exercise_shape(corpus_reference):
    """LANGUAGES.yml: words per language in exercise.yml's shape, misconceptions with a message and a source."""
    data = yaml.safe_load((CORPUS / "LANGUAGES.yml").read_text(encoding="utf-8"))
    exercise = yaml.safe_load(EXERCISE.read_text(encoding="utf-8"))
    group_names = {g["name"] for g in exercise["reason"]["groups"]}
    step_ids = {s.id for s in corpus_reference.steps}
    assert set(data["languages"]) == set(LANGUAGES)
    for lang, words in data["languages"].items():
        assert set(words["cycles"]) <= set(exercise["cycles"]), lang
        assert words["cycles"]["scheduling"]["words"] and words["cycles"]["binding"]["words"], lang
        assert set(words["branches"]) <= set(exercise["branches"]), lang
        assert words["reason"]["prefixes"], lang
        assert {g["name"] for g in words["reason"]["groups"]} == group_names, lang
        assert set(words["steps"]) <= step_ids, lang
        # the corpus's drawings in this language use these words
        texts = "\n".join(load_case(n).text.lower() for n in case_names() if f"-{lang}-" in n)
        for cycle in ("scheduling", "binding"):
            assert any(w.lower() in texts for w in words["cycles"][cycle]["words"]), (lang, cycle)
        assert any(p.lower() in texts for p in words["reason"]["prefixes"]), lang
    ids = [m["id"] for m in data["misconceptions"]]
    assert len(ids) == len(set(ids)) and {"locks", "single-threading", "ordering", "binding-serial",
                                          "faster-scoring"} <= set(ids)
    for m in data["misconceptions"]:
        assert m["message"] and set(m["words"]) >= {"en", *LANGUAGES}, m["id"]
        assert "with" not in m or set(m["with"]) >= {"en", *LANGUAGES}, m["id"]
        sources = m["source"] if isinstance(m["source"], list) else [m["source"]]
        assert sources and all(set(s) in SOURCE_FORMS for s in sources), m["id"]


MISCONCEPTION_DRAWINGS = {"bad-reason-locks": "locks", "bad-reason-single-threaded": "single-threading",
                          "bad-reason-ordering": "ordering", "bad-reason-binding-serial": "binding-serial",
                          "bad-reason-faster-scoring": "faster-scoring", "bad-fr-reason-sequential": "binding-serial",
                          "bad-zh-reason-lock": "locks"}


def test_misconception_words_find_the_corpus_reasons():
    """Each wrong-reason drawing states a misconception that LANGUAGES.yml's words (and `with`) find."""
    data = yaml.safe_load((CORPUS / "LANGUAGES.yml").read_text(encoding="utf-8"))
    by_id = {m["id"]: m for m in data["misconceptions"]}
    for name, mid in MISCONCEPTION_DRAWINGS.items():
        case = load_case(name)
        line = case.text.splitlines()[case.expected[0][0]["line"] - 1].lower()
        m = by_id[mid]
        words = [w.lower() for ws in m["words"].values() for w in ws]
        assert any(w in line for w in words), (name, mid)
        if "with" in m:
            assert any(w.lower() in line for ws in m["with"].values() for w in ws), (name, mid)


def _node_missing() -> str | None:
    if shutil.which("node") is None:
        return "node is not on PATH"
    if not (REPO / "node_modules" / "mermaid" / "package.json").exists():
        return "node_modules/mermaid is not installed"
    return None


def assert_valid_mermaid_unless_broken(folder: Path) -> None:
    """Mermaid 12.3.0 itself on every drawing of `folder`: valid unless it is a syntax case."""
    names = case_names(folder)
    paths = [str(folder / f"{n}.mmd") for n in names]
    proc = subprocess.run(["node", str(REPO / "tests" / "parse" / "mermaid_oracle.mjs")], input=json.dumps(paths),
                          capture_output=True, text=True, cwd=REPO, timeout=600)
    assert proc.returncode == 0, proc.stderr[-2000:]
    verdicts = {Path(d["file"]).stem: d for d in map(json.loads, proc.stdout.splitlines()) if "file" in d}
    for name in names:
        case = load_case(name, folder)
        if "sequenceDiagram" not in case.text:
            assert not verdicts[name]["valid"] and verdicts[name].get("type") != "sequence", name
        else:
            assert verdicts[name]["valid"] == (not case.invalid), (name, verdicts[name].get("error"))


@pytest.mark.node
@pytest.mark.skipif(_node_missing() is not None, reason=str(_node_missing()))
def test_corpus_is_valid_mermaid_unless_broken():
    assert_valid_mermaid_unless_broken(CORPUS)

"""The reference drawing, the template and the explanations: valid, safe, and true to the facts.

Also the Mermaid script choice: the local pinned copy, or the same version from the CDN when it is absent.
"""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from drawcheck.parse import Block, Message, Note, parse_file
from drawcheck.plugin.config import DrawcheckConfig
from drawcheck.plugin.mermaid import pinned_version, script_source
from drawcheck.safety import find_unsafe

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "two-cycles"
REFERENCE_MMD = EXERCISE / "reference.mmd"
TEMPLATE = ROOT / "answers" / "_template.mmd"
ORACLE = ROOT / "tests" / "parse" / "mermaid_oracle.mjs"  # the parser tests' Mermaid oracle
CONVENTIONS = Path(__file__).with_name("conventions")
CORE_POINTS = ("PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit",
               "WaitOnPermit", "PreBind", "Bind", "PostBind", "Unreserve")


# ----------------------------------------------------------------------------- the reference, flattened


@dataclass(frozen=True)
class Line:
    """One statement of a drawing with the blocks around it (read with the project's parser)."""

    number: int
    kind: str  # "message", "note" or "participant"
    text: str  # message or note text; for a participant, its label
    arrow: str = ""
    source: str = ""  # message source; participant id
    target: str = ""
    blocks: tuple[str, ...] = ()  # enclosing blocks, outermost first, each "keyword label"
    section: str = ""  # text of the first Note in the innermost enclosing rect


def read_lines(path: Path) -> list[Line]:
    diagram = parse_file(path)
    assert diagram.valid, diagram.errors
    out = [Line(p.line, "participant", p.label, source=p.id) for p in diagram.participants]

    def walk(statements, blocks: tuple[str, ...], section: str) -> None:
        for st in statements:
            if isinstance(st, Message):
                out.append(Line(st.line, "message", st.text, st.arrow, st.source, st.target, blocks, section))
            elif isinstance(st, Note):
                out.append(Line(st.line, "note", st.text, blocks=blocks, section=section))
            elif isinstance(st, Block):
                inner = section
                if st.kind == "rect":
                    inner = next((n.text for n in st.statements if isinstance(n, Note)), "")
                for branch in st.branches:
                    walk(branch.statements, blocks + (f"{branch.keyword} {branch.label}".strip(),), inner)

    walk(diagram.statements, (), "")
    return sorted(out, key=lambda ln: ln.number)


def messages(lines: list[Line], name: str) -> list[Line]:
    """Every message whose text starts with `name` (as a whole word)."""
    return [ln for ln in lines if ln.kind == "message" and re.match(rf"{re.escape(name)}\b", ln.text)]


FAILURE_STEPS = ("Unreserve", "ForgetPod")  # drawn twice: once per thread that can fail


def message(lines: list[Line], name: str) -> Line:
    """The one message whose text starts with `name`; for Unreserve/ForgetPod, the first of their two."""
    found = messages(lines, name)
    expected = 2 if name in FAILURE_STEPS else 1
    assert len(found) == expected, f"expected {expected} message(s) for {name!r} in reference.mmd, found {len(found)}"
    return found[0]


@pytest.fixture(scope="module")
def ref() -> list[Line]:
    return read_lines(REFERENCE_MMD)


# ----------------------------------------------------------------------------- valid and safe


def mermaid_oracle(paths: list[Path]) -> list[dict]:
    """Mermaid's own parser (the pinned node_modules copy) on each file, via the parser tests' oracle."""
    node = shutil.which("node")
    assert node, "node is required (Node 20): the pinned Mermaid runs in it"
    done = subprocess.run([node, str(ORACLE)], input=json.dumps([str(p) for p in paths]), capture_output=True,
                          text=True, timeout=120, cwd=ROOT)
    assert done.returncode == 0, done.stderr[-3000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.startswith("{")]


def test_the_pinned_mermaid_is_installed():
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["mermaid"]
    installed = json.loads((ROOT / "node_modules" / "mermaid" / "package.json").read_text(encoding="utf-8"))
    assert installed["version"] == pinned == "12.3.0"


def test_reference_template_and_convention_examples_parse_with_the_pinned_mermaid():
    paths = [REFERENCE_MMD, TEMPLATE, *sorted(CONVENTIONS.glob("*.mmd"))]
    assert len(paths) >= 7
    results = mermaid_oracle(paths)
    assert [r["file"] for r in results] == [str(p) for p in paths]
    for result in results:
        assert result["valid"], f"{result['file']}: {result.get('error')}"
        assert result["type"] == "sequence"


def test_mermaid_reads_the_reference_as_the_checks_below_do(ref):
    """The line reader used by the fact checks agrees with Mermaid on every message, in order."""
    (result,) = mermaid_oracle([REFERENCE_MMD])
    assert [m[2] for m in result["messages"]] == [ln.text for ln in ref if ln.kind == "message"]
    assert [n[2] for n in result["notes"]] == [ln.text for ln in ref if ln.kind == "note"]


def test_the_mermaid_check_rejects_a_broken_diagram(tmp_path):
    broken = tmp_path / "broken.mmd"
    broken.write_text("sequenceDiagram\n    S->>P PreFilter\n", encoding="utf-8")
    (result,) = mermaid_oracle([broken])
    assert result["valid"] is False and "line 2" in result["error"]


@pytest.mark.parametrize("path", [REFERENCE_MMD, TEMPLATE], ids=["reference", "template"])
def test_reference_and_template_are_safe_for_the_site(path):
    assert find_unsafe(None, path.read_text(encoding="utf-8")) == []


# ----------------------------------------------------------------------------- the facts in reference.mmd


def test_the_reference_runs_the_points_in_todays_order(ref):
    order = ["UpdateSnapshot", "PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore",
             "select host", "assume", "Reserve", "Permit", "go", "PreBindPreFlight", "WaitOnPermit", "PreBind",
             "Bind", "PostBind", "Unreserve", "ForgetPod"]
    lines = [message(ref, name).number for name in order]
    assert lines == sorted(lines), dict(zip(order, lines))


def test_every_core_point_is_a_message(ref):
    for point in CORE_POINTS:
        assert message(ref, point).kind == "message"


def test_the_two_cycles_are_rect_blocks_labelled_by_notes(ref):
    for point in ("PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "assume", "Reserve",
                  "Permit"):
        assert message(ref, point).section.startswith("Scheduling cycle"), point
    for point in ("PreBindPreFlight", "WaitOnPermit", "PreBind", "Bind", "PostBind"):
        assert message(ref, point).section.startswith("Binding cycle"), point
    for point in ("Unreserve", "ForgetPod"):
        assert message(ref, point).section.startswith("Failure path"), point


def test_one_participant_per_cycle(ref):
    scheduling = {message(ref, p).source for p in ("PreFilter", "Filter", "Score", "assume", "Reserve", "Permit")}
    binding = {message(ref, p).source for p in ("WaitOnPermit", "PreBind", "Bind", "PostBind")}
    assert len(scheduling) == 1 and len(binding) == 1 and scheduling != binding
    labels = {ln.source: ln.text for ln in ref if ln.kind == "participant"}
    assert labels[scheduling.pop()] == "Scheduler thread"
    assert labels[binding.pop()] == "Binding goroutine"


def test_the_boundary_is_an_async_go_after_permit_between_the_cycles(ref):
    go = message(ref, "go")
    assert go.text.startswith("go sched.runBindingCycle(")
    assert go.arrow in ("-)", "--)"), "the boundary is drawn as an async arrow"
    assert go.blocks == (), "the `go` sits between the two cycles, in neither rect"
    assert go.source == message(ref, "Permit").source and go.target == message(ref, "WaitOnPermit").source
    after = [ln for ln in ref if ln.number > go.number]
    assert after[0].kind == "note" and after[0].text.startswith("reason:"), "the reason note follows the `go`"
    reason = after[0].text.lower()
    assert "api" in reason and "scheduling thread" in reason and "assumed" in reason


def test_waitonpermit_opens_the_binding_cycle(ref):
    binding = [ln for ln in ref if ln.kind == "message" and ln.section.startswith("Binding cycle")]
    unconditional = [ln for ln in binding if not any(b.split()[0] in ("opt", "alt", "break") for b in ln.blocks)]
    assert unconditional[0].text.startswith("WaitOnPermit")
    preflight = message(ref, "PreBindPreFlight")
    assert any(b.startswith("opt") for b in preflight.blocks), "PreBindPreFlight only runs behind its feature gate"


def test_assume_is_the_cache_function_and_comes_before_reserve(ref):
    assume = message(ref, "assume")
    assert assume.text == "assume (Cache.AssumePod)"
    labels = {ln.source: ln.text for ln in ref if ln.kind == "participant"}
    assert labels[assume.target] == "Cache"
    assert assume.number < message(ref, "Reserve").number


def test_postfilter_is_the_no_fit_branch_and_unreserve_the_failure_path(ref):
    postfilter = message(ref, "PostFilter")
    assert postfilter.blocks[-1] == "opt no node fits"
    for point in FAILURE_STEPS:
        for line in messages(ref, point):
            assert line.blocks[-1].split()[0] in ("opt", "alt", "else", "break"), point
            assert line.blocks[0].startswith("rect"), point
            assert line.section.startswith("Failure path"), point
    for point in ("PreScore", "Reserve", "Permit", "Bind", "PostBind"):
        assert not any(b.split()[0] in ("opt", "alt", "break") for b in message(ref, point).blocks), point


def test_waitonpermit_is_a_framework_step_not_sent_to_the_plugins(ref):
    """Facts §7: WaitOnPermit has no plugins; drawn to the Plugins participant it would read as a plugin point."""
    wait = message(ref, "WaitOnPermit")
    labels = {ln.source: ln.text for ln in ref if ln.kind == "participant"}
    assert labels[wait.source] == "Binding goroutine"
    assert wait.target == wait.source, f"WaitOnPermit is sent to {labels[wait.target]!r}; draw it B->>B"
    plugin_ids = {pid for pid, label in labels.items() if label == "Plugins"}
    for point in ("PreBind", "Bind", "PostBind", "Permit"):
        assert message(ref, point).target in plugin_ids, f"{point} is a plugin point: send it to Plugins"


def test_a_binding_failure_is_undone_in_the_goroutine(ref):
    """Facts §2 "After the go": handleBindingCycleError runs Unreserve + ForgetPod in the binding goroutine,
    while a Reserve failure or a Permit reject runs them in the scheduler thread."""
    labels = {ln.source: ln.text for ln in ref if ln.kind == "participant"}
    for point in FAILURE_STEPS:
        senders = {labels[ln.source]: ln for ln in messages(ref, point)}
        assert set(senders) == {"Scheduler thread", "Binding goroutine"}, (point, sorted(senders))
        scheduling_branch = senders["Scheduler thread"].blocks[-1]
        binding_branch = senders["Binding goroutine"].blocks[-1]
        assert "Reserve" in scheduling_branch and "Permit" in scheduling_branch, scheduling_branch
        assert binding_branch.startswith("else") and "handleBindingCycleError" in binding_branch, binding_branch
        assert senders["Scheduler thread"].number < senders["Binding goroutine"].number
    unreserve = messages(ref, "Unreserve")
    assert all("every plugin, reverse order" in ln.text for ln in unreserve)


def test_the_reference_grades_as_correct_with_both_failure_branches():
    """The grader reads the two-branch failure path as today's answer: no corrections, no hints."""
    from drawcheck.grade import grade_file
    from drawcheck.reference import load_reference

    result = grade_file(REFERENCE_MMD, reference=load_reference(EXERCISE / "exercise.yml"))
    assert result.status == "correct", [f.message for f in result.findings]
    assert [f.message for f in result.findings] == []
    cycles = {p.point: p.cycle for p in result.points}
    assert cycles["WaitOnPermit"] == "binding" and cycles["Unreserve"] == "failure"


def test_notes_name_no_extension_point(ref):
    """Points are messages; a point name inside a note would read as a second drawing of it."""
    names = CORE_POINTS + ("PreBindPreFlight", "ForgetPod", "AssumePod", "QueueSort", "PreEnqueue")
    for note in (ln for ln in ref if ln.kind == "note"):
        words = set(re.findall(r"[A-Za-z]+", note.text))
        assert not words & set(names), (note.number, note.text)


# ----------------------------------------------------------------------------- the explanations


def test_the_cache_explanation_names_the_function_but_keeps_what_it_does():
    text = (EXERCISE / "explanations" / "cache-function.md").read_text(encoding="utf-8")
    for name in ("assume", "Cache.AssumePod", "AssumeAndReserveInCache", "sched.assume"):
        assert name in text, name
    for giveaway in ("NodeInfo", "Spec.NodeName", "podStates", "assumedPods", "generation", "counts as used",
                     "requests count"):
        assert giveaway not in text, f"cache-function.md gives away what assume does: {giveaway!r}"


def test_the_boundary_explanation_separates_the_kep_from_the_code():
    text = " ".join((EXERCISE / "explanations" / "boundary.md").read_text(encoding="utf-8").split())
    assert "KEP never gives throughput or API latency as the reason" in text
    assert "we can do this b/c of the assumption step above" in text
    assert "the pod has already been **assumed** in the scheduler's cache" in text
    assert "v1.15 to v1.17" in text and "v1.18" in text


# ----------------------------------------------------------------------------- which Mermaid script


def test_script_source_prefers_the_local_copy(tmp_path):
    local = "assets/javascripts/mermaid.min.js"
    (tmp_path / "assets" / "javascripts").mkdir(parents=True)
    (tmp_path / local).write_text("/* mermaid */", encoding="utf-8")
    cdn = DrawcheckConfig().mermaid_cdn
    assert script_source(str(tmp_path), local, cdn, "12.3.0") == local


def test_script_source_falls_back_to_the_cdn_with_the_pinned_version(tmp_path):
    version = pinned_version(str(ROOT))
    assert version == "12.3.0"
    cdn = DrawcheckConfig().mermaid_cdn
    source = script_source(str(tmp_path), "assets/javascripts/mermaid.min.js", cdn, version)
    assert source == "https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.min.js"


MINI_SITE = """\
site_name: fallback
theme:
  name: material
  font: false
markdown_extensions:
  - pymdownx.superfences:
      custom_fences:
        - name: mermaid
          class: mermaid
          format: !!python/name:mermaid2.fence_mermaid_custom
plugins:
  - drawcheck:
      reference: {reference}
  - mermaid2
"""


def test_a_site_without_the_local_copy_loads_the_pinned_cdn_script_and_builds_offline(tmp_path):
    (tmp_path / "docs").mkdir()
    (tmp_path / "answers").mkdir()
    shutil.copyfile(ROOT / "package.json", tmp_path / "package.json")
    shutil.copytree(EXERCISE, tmp_path / "reference" / EXERCISE.name)  # the site reads reference data inside it only
    (tmp_path / "docs" / "index.md").write_text(
        "# Fallback\n\n```mermaid\nsequenceDiagram\n    S->>P: PreFilter\n```\n", encoding="utf-8")
    (tmp_path / "mkdocs.yml").write_text(
        MINI_SITE.format(reference=json.dumps(f"reference/{EXERCISE.name}/exercise.yml")), encoding="utf-8")
    # any request to the network fails at once, and mermaid2 would turn that into a warning --strict counts
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": "", "HTTPS_PROXY": "http://127.0.0.1:9",
           "HTTP_PROXY": "http://127.0.0.1:9", "NO_PROXY": ""}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(tmp_path / "site")],
                          cwd=tmp_path, capture_output=True, text=True, env=env, timeout=300)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    page = (tmp_path / "site" / "index.html").read_text(encoding="utf-8")
    scripts = re.findall(r'<script src="([^"]*mermaid[^"]*)"', page)
    assert scripts == ["https://cdn.jsdelivr.net/npm/mermaid@12.3.0/dist/mermaid.min.js",
                       "assets/javascripts/drawcheck-mermaid.js"]

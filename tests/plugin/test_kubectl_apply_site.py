"""The second exercise, shipped: the repository's own site built for real, with its kubectl-apply answers.

- the exercise page says where answers go and how to check them, as the plugin reads them;
- its class overview links both shipped example answers, and a learner's page;
- each example's feedback page shows its corrections (the misconception, the missing watch, the version note);
- the folder's README and template are no answers;
- the flagship's results and feedback pages are the same as on a site without the second exercise.
"""

from __future__ import annotations

import html
import json
import logging
import re
import shutil
from pathlib import Path

import pytest
import yaml

from plugin_site import ROOT, build
from drawcheck.reference import load_reference

ANSWERS = ROOT / "answers" / "kubectl-apply"
REFERENCE = ROOT / "reference" / "kubectl-apply"
EXERCISE_LINE = "        - {id: kubectl-apply, reference: reference/kubectl-apply}"
NAV_LINE = "  - From kubectl apply to a running container: kubectl-apply.md"
FLAGSHIP_EXAMPLES = sorted(p.stem for p in (ROOT / "answers").glob("example-*.mmd") if ".corrected" not in p.name)


def repo_site(root: Path, *, second: bool = True) -> Path:
    """The repository's site (mkdocs.yml, docs, reference, both exercises' shipped answers) and one learner each."""
    root.mkdir(parents=True)
    shutil.copy(ROOT / "package.json", root)
    for folder in ("docs", "reference"):
        shutil.copytree(ROOT / folder, root / folder)
    (root / "answers").mkdir()
    for f in (ROOT / "answers").iterdir():
        if f.is_file():
            shutil.copy(f, root / "answers" / f.name)
    (root / "answers" / "ada.mmd").write_text((ROOT / "reference" / "two-cycles" / "reference.mmd").read_text())
    yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    assert EXERCISE_LINE in yml.split("\n") and NAV_LINE in yml.split("\n")
    if second:
        shutil.copytree(ANSWERS, root / "answers" / "kubectl-apply")
        (root / "answers" / "kubectl-apply" / "ada.mmd").write_text((REFERENCE / "reference.mmd").read_text())
    else:
        yml = "\n".join(ln for ln in yml.split("\n") if ln not in (EXERCISE_LINE, NAV_LINE))
        (root / "docs" / "kubectl-apply.md").unlink()
    (root / "mkdocs.yml").write_text(yml, encoding="utf-8")
    return root


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """Both sites, built once for the module (caplog is per test: a handler of our own records the logs)."""
    out = {}
    for name, second in (("both", True), ("flagship-only", False)):
        root = repo_site(tmp_path_factory.mktemp(name) / "repo", second=second)
        records: list[logging.LogRecord] = []

        class Capture:
            def clear(self):
                records.clear()

            def set_level(self, level, logger):
                logging.getLogger(logger).setLevel(level)

            @property
            def records(self):
                return records

        handler = logging.Handler()
        handler.emit = records.append
        logging.getLogger().addHandler(handler)
        try:
            out[name] = build(root, Capture(), strict=True)
        finally:
            logging.getLogger().removeHandler(handler)
    return out


def text_of(page: str) -> str:
    """The page's article as plain text (tags dropped, entities decoded)."""
    article = re.search(r'<article class="md-content__inner md-typeset">(.*?)</article>', page, re.S).group(1)
    return html.unescape(re.sub(r"<[^>]+>", "", article))


def test_the_site_builds_strict_with_both_exercises(sites):
    built = sites["both"]
    assert built.error is None, (built.error, built.build_errors)
    warnings = [r.getMessage() for r in built.records if r.levelno >= logging.WARNING
                and "kubectl-apply" in r.getMessage()]
    assert warnings == []
    # the build log names each correction with its file:line, as the page says
    logged = [r.getMessage() for r in built.records]
    assert any(m.startswith("drawcheck: answers/kubectl-apply/example-pushes-the-pod.mmd:24: the API server does not push")
               for m in logged), [m for m in logged if "kubectl-apply" in m][:5]


def test_the_exercise_page_says_where_answers_go_and_how_to_check_them(sites):
    page = text_of(sites["both"].html("kubectl-apply/index.html"))
    assert "answers/kubectl-apply/<github-handle>.mmd" in page
    assert "answers/kubectl-apply/_template.mmd" in page
    assert "drawcheck check answers/kubectl-apply/<github-handle>.mmd" in page  # its folder picks the exercise
    assert "feedback/kubectl-apply/<github-handle>/" in page
    # what the page promises is what the plugin does: pages under feedback/kubectl-apply/, the template no answer
    site = sites["both"].site
    assert (site / "feedback" / "kubectl-apply" / "ada" / "index.html").exists()
    assert not (site / "feedback" / "kubectl-apply" / "_template").exists()
    assert not (site / "feedback" / "kubectl-apply" / "README").exists()
    for example in ("example-pushes-the-pod", "example-kubelet-calls-cni"):
        assert example in page
    # the reference drawing is on the page, included from the exercise's data
    assert "RunPodSandbox" in sites["both"].html("kubectl-apply/index.html")


def test_the_overview_links_the_examples_and_the_learner(sites):
    overview = sites["both"].html("feedback/kubectl-apply/index.html")
    for handle in ("example-pushes-the-pod", "example-kubelet-calls-cni", "ada"):
        assert f'href="{handle}/"' in overview
    assert "From kubectl apply to a running container" in overview
    assert "oundary" not in text_of(overview)  # no boundary in this exercise: no boundary chart, no column
    assert "Most-missed steps" in text_of(overview)
    results = json.loads(sites["both"].html("feedback/kubectl-apply/results.json"))
    assert results["exercise"] == "kubectl-apply"
    by_file = {r["file"]: r for r in results["results"]}
    assert by_file["answers/kubectl-apply/ada.mmd"]["status"] == "correct"
    assert by_file["answers/kubectl-apply/ada.mmd"]["findings"] == []
    pushes = by_file["answers/kubectl-apply/example-pushes-the-pod.mmd"]
    # the push stands where the kubelet's watch event belongs: that step drawn wrongly, one correction
    assert sorted((f["kind"], f["point"], f["line"]) for f in pushes["findings"]) == [("belief", "KubeletWatch", 24)]
    cni = by_file["answers/kubectl-apply/example-kubelet-calls-cni.mmd"]
    assert [(f["kind"], f["point"], f["line"]) for f in cni["findings"]] == [("belief", "CNIAdd", 26)]


def corrections_of(text: str) -> str:
    """The page's corrections section (the explanations after it may name any misconception)."""
    return text.split("Corrections¶", 1)[1].split("Check yourself¶", 1)[0]


def misconception(rule_id: str) -> str:
    data = yaml.safe_load((REFERENCE / "exercise.yml").read_text(encoding="utf-8"))
    return next(r["message"] for r in data["misconceptions"]["rules"] if r["id"] == rule_id)


def test_each_example_page_shows_its_corrections(sites):
    ref = load_reference(REFERENCE / "exercise.yml")
    page = text_of(sites["both"].html("feedback/kubectl-apply/example-pushes-the-pod/index.html"))
    pushes = corrections_of(page)
    assert misconception("apiserver-pushes-pod") in pushes
    assert ref.step("KubeletWatch").name not in pushes  # the push is the watch drawn wrongly, not a missing step
    assert "start pod web on node#45;1" in page  # the learner's own line, drawn back (Mermaid-escaped)
    assert "Status: 1 correction:" in page and "Boundary" not in page.split("Your drawing")[0]
    cni = corrections_of(text_of(sites["both"].html("feedback/kubectl-apply/example-kubelet-calls-cni/index.html")))
    assert misconception("kubelet-calls-cni") in cni
    assert "up to v1.23" in cni
    assert misconception("apiserver-pushes-pod") not in cni
    learner = text_of(sites["both"].html("feedback/kubectl-apply/ada/index.html"))
    assert "Status: correct" in learner and "Corrections" not in learner  # a correct drawing: one clear state


def test_the_flagship_is_unchanged_by_the_second_exercise(sites):
    both, alone = sites["both"], sites["flagship-only"]
    assert alone.error is None, (alone.error, alone.build_errors)
    assert json.loads(both.html("feedback/results.json")) == json.loads(alone.html("feedback/results.json"))
    for handle in FLAGSHIP_EXAMPLES + ["ada"]:
        page = f"feedback/{handle}/index.html"
        assert text_of(both.html(page)) == text_of(alone.html(page)), handle
    # the overview's title names the exercise once there are two (docs: `title` of `exercises:`); the rest is the same
    overview, overview_alone = (text_of(b.html("feedback/index.html")).strip() for b in (both, alone))
    assert overview.startswith("Class overview: Two cycles, one thread¶") and overview_alone.startswith("Class overview¶")
    assert overview.split("¶", 1)[1] == overview_alone.split("¶", 1)[1]
    assert len(FLAGSHIP_EXAMPLES) >= 4

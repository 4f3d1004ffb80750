"""Round four in a real `mkdocs build` under GitHub Actions (a site of two exercises): the log, replayed
through the runner's parser, holds only drawcheck's own annotations; no mark-kind symbol beside a number
reaches a drawing or a page from learner text; every folder and name attack is named in the log and no
page is replaced; the search index holds learner file names only as escaped text."""

from __future__ import annotations

import html
import json
import os
import re
import shutil
import subprocess
import sys

import pytest

import round_four
from runner_commands import replay

sys.path.insert(0, str(round_four.ROOT / "tests" / "browser"))
from browserkit import build_as_on_github, make_project  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("round-four")
    project = make_project(tmp, answers={})
    for rel, text in round_four.hostile_answers().items():
        target = project / "answers" / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text, encoding="utf-8")
    site, summary = tmp / "site", tmp / "summary.md"
    return build_as_on_github(project, site, summary), site, project


def _drawings(site, page: str) -> list[str]:
    text = (site / page / "index.html").read_text(encoding="utf-8")
    found = [html.unescape(d) for d in re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', text, re.S)]
    return [re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), d) for d in found]


def test_the_log_issues_only_drawchecks_own_annotations(built):
    log, _, _ = built
    obeyed = replay(log)
    assert obeyed and all(c.line.startswith(f"::{c.name} ") and c.properties.get("title", "").startswith("drawcheck")
                          for c in obeyed)


def test_no_mark_kind_symbol_beside_a_number_comes_from_learner_text(built):
    _, site, _ = built
    lines = [ln for d in _drawings(site, "feedback/mark-symbols") for ln in d.splitlines()
             if "PreFilter" in ln and not re.search(r":\s*[\u2460-\u2473]", ln)]  # the site's own marks
    assert len(lines) >= len(round_four.MARK_SYMBOL_LOOKALIKES)
    near = re.compile(rf"\d\W{{0,4}}{round_four.MARK_SYMBOL_GLYPHS.pattern}|"
                      rf"{round_four.MARK_SYMBOL_GLYPHS.pattern}\W{{0,4}}\d")
    assert [ln for ln in lines if near.search(ln)] == []
    assert any("PreFilter \u2194 Filter" in ln for ln in lines)  # prose keeps its arrow


def test_the_tinted_drawings_are_drawn_with_their_marks(built):
    _, site, _ = built
    from drawcheck.render.mermaid import MARK_FILLS

    for handle in round_four.TINTED:
        drawn = "\n".join(_drawings(site, f"feedback/{handle}"))
        assert all(f"rect {fill}" in drawn for fill in MARK_FILLS), handle


def test_every_folder_and_name_attack_is_annotated_at_its_real_path_and_replaces_no_page(built):
    """Each annotation's `file=` is a path in the repository (an error in answers/kubectl-apply/ was annotated at
    kubectl-apply/..., a file GitHub does not have, so the learner never saw it on the PR)."""
    log, site, project = built
    files = {c.properties.get("file") for c in replay(log)} - {None}
    assert all(os.path.lexists(project / f) for f in files), sorted(f for f in files if not os.path.lexists(project / f))
    for rel in round_four.FOLDERS:
        shown = rel if rel.count("/") < 2 else rel.rsplit("/", 1)[0]  # a folder inside a folder is named itself
        shown = shown.split("/")[0] if shown.startswith("Kubectl-Apply") else shown
        assert f"answers/{shown}" in files or rel == "lonely.corrected.mmd", (rel, sorted(files))
    overview = (site / "feedback" / "kubectl-apply" / "index.html").read_text(encoding="utf-8")
    assert "Class overview" in overview  # neither answers/kubectl-apply.mmd nor answers/kubectl-apply/index.mmd
    assert not (site / "feedback" / "Kubectl-Apply").exists()
    assert not (site / "feedback" / "kubectl-apply" / "deeper").exists()
    assert (site / "feedback" / "lonely" / "index.html").exists()  # a corrected drawing alone is still drawn


def test_learner_file_names_are_only_escaped_text_in_the_search_index(built):
    _, site, _ = built
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    text = "\n".join(doc["text"] for doc in index["docs"])
    assert "onerror" in text  # the overview lists the refused names, and is searchable
    assert not re.search(r"<(img|svg|select|option)\b", text)
    assert "<!--" not in text


def test_a_linked_answers_folder_leads_no_exercise_folder_out_of_the_repository(tmp_path):
    """`answers -> /elsewhere` (with /elsewhere/kubectl-apply/<handle>.mmd): no page shows a file from outside
    the repository, and the log names the link (the site's config refuses it, and so does intake for any
    exercise folder below it: test_round_four_units)."""
    outside = tmp_path / "outside"
    (outside / "kubectl-apply").mkdir(parents=True)
    secret = (round_four.ROOT / "reference" / "kubectl-apply" / "reference.mmd").read_text(encoding="utf-8")
    (outside / "kubectl-apply" / "secretive.mmd").write_text(secret.replace("sequenceDiagram", "sequenceDiagram\n"
                                                             "    title outside-canary-31b9", 1), encoding="utf-8")
    project = make_project(tmp_path / "p", answers={})
    shutil.rmtree(project / "answers")
    (project / "answers").symlink_to(outside)
    site = tmp_path / "site"
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--no-strict", "-f", str(project / "mkdocs.yml"),
                           "-d", str(site)], cwd=project, capture_output=True, text=True, timeout=900,
                          env={**os.environ, "GITHUB_ACTIONS": "", "NO_MKDOCS_2_WARNING": "1"})
    assert not (site / "feedback" / "kubectl-apply" / "secretive").exists()
    assert not any("outside-canary-31b9" in p.read_text(encoding="utf-8", errors="replace")
                   for p in site.rglob("*") if p.is_file() and p.suffix in (".html", ".json", ".xml"))
    assert "answers is a symbolic link" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr

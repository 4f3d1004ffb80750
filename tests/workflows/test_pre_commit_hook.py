""".pre-commit-hooks.yaml: a valid manifest whose hook, run by the real pre-commit on staged files in a
temporary git repository, grades them as the PR check does (corrections pass, unsafe files fail)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import yaml

from prflow_kit import ROOT, GitRepo

MANIFEST = ROOT / ".pre-commit-hooks.yaml"


def test_manifest_is_valid_for_pre_commit():
    from pre_commit.clientlib import load_manifest

    (hook,) = load_manifest(str(MANIFEST))
    assert hook["id"] == "drawcheck" and hook["language"] == "python"
    assert hook["entry"] == "drawcheck pr-check --files" and hook["pass_filenames"]
    files, exclude = re.compile(hook["files"]), re.compile(hook["exclude"])
    chosen = [p for p in ("answers/ada.mmd", "answers/ada.corrected.mmd", "answers/my answer.mmd", "answers/_template.mmd",
                          "answers/README.md", "docs/index.md") if files.search(p) and not exclude.search(p)]
    assert chosen == ["answers/ada.mmd", "answers/ada.corrected.mmd", "answers/my answer.mmd"]


def test_the_hook_runs_on_staged_answer_files(tmp_path):
    (hook,) = yaml.safe_load(MANIFEST.read_text(encoding="utf-8"))
    repo = GitRepo(tmp_path / "learner")
    # The manifest's hook as a `local` one with language: system, so pre-commit runs this checkout's drawcheck
    # (language: python would pip-install the repository into a fresh environment first).
    local = {**hook, "language": "system"}
    local.pop("description", None)
    (repo.path / ".pre-commit-config.yaml").write_text(
        yaml.safe_dump({"repos": [{"repo": "local", "hooks": [local]}]}), encoding="utf-8")
    repo.commit("config")
    bindir = Path(sys.executable).parent
    env = {**os.environ, "PATH": f"{bindir}{os.pathsep}{os.environ.get('PATH', '')}",
           "PRE_COMMIT_HOME": str(tmp_path / "cache"), "SKIP": ""}

    def pre_commit_run() -> subprocess.CompletedProcess:
        return subprocess.run([sys.executable, "-m", "pre_commit", "run"], cwd=repo.path, env=env,
                              capture_output=True, text=True, timeout=300)

    repo.write("answers/ada.mmd", (ROOT / "answers" / "example-permit-early.mmd").read_text(encoding="utf-8"))
    repo.write("answers/grace.mmd", "sequenceDiagram\n  S->>P: <script>alert(1)</script>\n")  # not staged
    repo.git("add", "answers/ada.mmd")
    done = pre_commit_run()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "answers/ada.mmd: corrections" in done.stdout and "grace" not in done.stdout

    repo.git("add", "answers/grace.mmd")
    done = pre_commit_run()
    assert done.returncode == 1, done.stdout
    assert "answers/grace.mmd: invalid" in done.stdout or "answers/grace.mmd" in done.stdout
    assert "fix the errors above" in done.stdout

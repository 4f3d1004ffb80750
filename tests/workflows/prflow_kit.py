"""Helpers for the PR-flow tests: recorded event payloads, a real git repository, the real commands."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
EVENTS = Path(__file__).with_name("events")


def event(name: str, **placeholders: str) -> dict:
    """A recorded payload from events/, with HEAD_SHA, BASE_SHA, ... replaced."""
    text = (EVENTS / f"{name}.json").read_text(encoding="utf-8")
    for key, value in placeholders.items():
        text = text.replace(key.upper(), value)
    return json.loads(text)


class GitRepo:
    """A throwaway repository shaped like drawcheck's: the reference data and answers/ on `main`."""

    def __init__(self, path: Path):
        self.path = path
        path.mkdir(parents=True, exist_ok=True)
        self.git("init", "-q", "-b", "main")
        self.git("config", "user.email", "t@example.invalid")
        self.git("config", "user.name", "t")
        self.git("config", "commit.gpgsign", "false")
        shutil.copytree(ROOT / "reference", path / "reference")
        (path / "answers").mkdir()
        shutil.copy(ROOT / "answers" / "_template.mmd", path / "answers" / "_template.mmd")
        (path / "docs").mkdir()
        (path / "docs" / "index.md").write_text("# Site\n", encoding="utf-8")
        self.base = self.commit("base")

    def git(self, *args: str) -> str:
        return subprocess.run(["git", "-C", str(self.path), *args], check=True, capture_output=True,
                              text=True).stdout.strip()

    def write(self, rel: str, text: str | bytes) -> None:
        target = self.path / rel
        target.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(text, bytes):
            target.write_bytes(text)
        else:
            target.write_text(text, encoding="utf-8")

    def commit(self, message: str) -> str:
        self.git("add", "-A")
        self.git("commit", "-q", "--allow-empty", "-m", message)
        return self.git("rev-parse", "HEAD")

    def branch(self, name: str, start: str | None = None) -> None:
        self.git("checkout", "-q", "-B", name, start or self.base)

    def submit(self, files: dict[str, str]) -> str:
        """A learner's branch from the base with `files` written: its head."""
        self.branch("answer")
        for path, content in files.items():
            self.write(path, content)
        return self.commit("answer")


@dataclass
class Checked:
    code: int
    stdout: str
    stderr: str
    summary: str
    outputs: str
    artifact: Path

    def annotations(self, level: str | None = None) -> list[str]:
        return [ln for ln in self.stdout.splitlines() if ln.startswith(f"::{level}" if level else "::")]


def pr_check(repo: GitRepo, tmp: Path, *, author: str = "Ada-L", head: str | None = None,
             name: str = "pull_request_opened") -> Checked:
    """Run `drawcheck pr-check` as the workflow does, with a recorded payload for this repository's commits."""
    head = head or repo.git("rev-parse", "HEAD")
    payload = event(name, head_sha=head, base_sha=repo.base)
    payload["pull_request"]["user"]["login"] = author
    event_path = tmp / "event.json"
    event_path.write_text(json.dumps(payload), encoding="utf-8")
    summary, outputs, artifact = tmp / "summary.md", tmp / "outputs.txt", tmp / "artifact"
    for f in (summary, outputs):
        f.write_text("", encoding="utf-8")
    shutil.rmtree(artifact, ignore_errors=True)
    env = {**os.environ, "GITHUB_STEP_SUMMARY": str(summary), "GITHUB_OUTPUT": str(outputs),
           "GITHUB_REPOSITORY": "drawcheck/drawcheck", "GITHUB_EVENT_PATH": str(event_path),
           "DRAWCHECK_SITE_URL": "https://drawcheck.github.io/drawcheck/"}
    done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--event", str(event_path),
                           "--artifact", str(artifact)], cwd=repo.path, env=env, capture_output=True, text=True,
                          timeout=120)
    return Checked(done.returncode, done.stdout, done.stderr, summary.read_text(encoding="utf-8"),
                   outputs.read_text(encoding="utf-8"), artifact)

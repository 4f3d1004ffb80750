"""Round six (round_six.py says what was found and what held): the template the how-to-submit page draws as
written, and the grader the PR check runs."""

from __future__ import annotations

import json
import logging
import os
import shutil
import subprocess
import sys
import time

import pytest
import yaml

import round_six

from drawcheck.snippets import include_problem

sys.path.insert(0, str(round_six.ROOT / "tests" / "workflows"))
from prflow_kit import GitRepo, event  # noqa: E402

CHECK_YML = round_six.ROOT / ".github" / "workflows" / "check.yml"


def _site(tmp_path, template: str):
    (tmp_path / "answers").mkdir(exist_ok=True)
    path = tmp_path / "answers" / "_template.mmd"
    path.write_text(template, encoding="utf-8")
    return str(path), str(tmp_path)


# --------------------------------------------------------------------------- the template, drawn as written


@pytest.mark.parametrize("name", sorted(round_six.TEMPLATE_ATTACKS))
def test_an_include_from_answers_carries_nothing_a_redrawn_answer_never_does(tmp_path, name):
    problem = include_problem(*_site(tmp_path, round_six.template_with(name)))
    assert problem is not None, name
    line, what = problem
    text = round_six.template_with(name).split("\n")
    assert 1 <= line <= len(text) and round_six.TEMPLATE_ATTACKS[name][1] in what, (name, problem)


def test_the_page_shows_the_placeholder_and_the_log_names_the_line(tmp_path, caplog):
    import markdown

    from drawcheck.snippets import SafeSnippetExtension

    _site(tmp_path, round_six.template_with("links-json"))
    md = markdown.Markdown(extensions=[SafeSnippetExtension(base_path=[str(tmp_path)], check_paths=True)])
    with caplog.at_level(logging.WARNING, logger="mkdocs.plugins.drawcheck"):
        html = md.convert('```mermaid\n--8<-- "answers/_template.mmd"\n```\n')
    assert "evil.example" not in html
    line = len(round_six.TEMPLATE.split("\n"))
    assert f"answers/_template.mmd:{line}: not included in the page" in caplog.text


def test_what_the_site_ships_is_still_included():
    """The templates, the examples and the reference drawings (whose pink rect is the site's own: the colour rule
    is for answers/ only)."""
    shipped = sorted(round_six.ROOT.glob("answers/**/*.mmd")) + sorted(round_six.ROOT.glob("reference/*/reference.mmd"))
    assert len(shipped) >= 8
    assert [(p.name, include_problem(str(p), str(round_six.ROOT))) for p in shipped
            if include_problem(str(p), str(round_six.ROOT))] == []


@pytest.mark.node
def test_mermaid_does_take_the_links_and_the_site_redraws_none():
    """The attack is live: the pinned Mermaid puts the template's links in the participant's menu."""
    node = shutil.which("node")
    assert node and (round_six.ROOT / "node_modules" / "mermaid").is_dir()
    oracle = round_six.ROOT / "tests" / "hostile" / "mermaid_config_oracle.mjs"
    texts = [round_six.template_with(n) for n in ("links-json", "link", "properties", "acc-descr")]
    done = subprocess.run([node, str(oracle)], input=json.dumps({"texts": texts}), capture_output=True, text=True,
                          cwd=round_six.ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    read = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert read[0]["links"] and read[1]["links"] and read[2]["properties"] and "correct" in read[3]["accDescription"]


# --------------------------------------------------------------------------- the grader the PR check runs


def _steps() -> list[dict]:
    wf = yaml.load(CHECK_YML.read_text(encoding="utf-8"), Loader=yaml.BaseLoader)
    return [s for job in wf["jobs"].values() for s in job["steps"]]


def test_the_pr_check_runs_the_grader_of_the_base_commit_never_the_heads():
    steps = _steps()
    grading = next(i for i, s in enumerate(steps) if "drawcheck pr-check" in s.get("run", ""))
    assert steps[grading].get("working-directory") == "${{ runner.temp }}/grader"
    before = steps[:grading]
    worktree = [s for s in before if "git worktree add" in s.get("run", "")]
    assert len(worktree) == 1 and '"$BASE_SHA"' in worktree[0]["run"]
    assert worktree[0]["env"]["BASE_SHA"] == "${{ github.event.pull_request.base.sha }}"
    for s in before:  # every install before the grading is from the grader's folder
        run = s.get("run", "")
        if "pip install" in run:
            assert s is worktree[0] and run.index('cd "$RUNNER_TEMP/grader"') < run.index("pip install"), run
    for s in steps[grading + 1:]:  # the PR's own code is installed only for a site change, never posted
        if "pip install" in s.get("run", ""):
            assert s.get("if") == "steps.pr.outputs.mode == 'site'", s


def test_a_worktree_of_the_base_grades_the_heads_answers_by_the_bases_rules(tmp_path, monkeypatch):
    """A PR whose head sits on an old commit of main (here: before main listed the second exercise): the head's
    own grader refuses the answer in `answers/kubectl-apply/`, the base's, run as check.yml now runs it, grades it
    against that exercise; both read the PR's files from git."""
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SHA", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(name, raising=False)
    repo = GitRepo(tmp_path / "repo")
    old = repo.base
    repo.write("mkdocs.yml", (round_six.ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    repo.base = repo.commit("main lists two exercises")
    repo.branch("answer", old)  # the PR's head sits on the old commit
    repo.write("answers/kubectl-apply/ada-l.mmd",
               (round_six.ROOT / "reference" / "kubectl-apply" / "reference.mmd").read_text(encoding="utf-8"))
    head = repo.commit("answer")
    assert repo.git("diff", "--name-only", f"{repo.base}...{head}") == "answers/kubectl-apply/ada-l.mmd"
    grader = tmp_path / "grader"
    repo.git("worktree", "add", "--detach", str(grader), repo.base)

    def run(cwd) -> subprocess.CompletedProcess:
        payload = event("pull_request_opened", head_sha=head, base_sha=repo.base)
        payload["pull_request"]["user"]["login"] = "Ada-L"
        path = tmp_path / "event.json"
        path.write_text(json.dumps(payload), encoding="utf-8")
        return subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--event", str(path),
                               "--artifact", str(tmp_path / f"artifact-{cwd.name}")], cwd=cwd, capture_output=True,
                              text=True, timeout=120, env={**os.environ, "GITHUB_OUTPUT": os.devnull})

    repo.git("checkout", "-q", head)
    at_head, at_base = run(repo.path), run(grader)
    assert at_head.returncode == 1 and "opened by Ada-L" in at_head.stdout
    assert at_base.returncode == 0, at_base.stdout + at_base.stderr
    comment = (tmp_path / "artifact-grader" / "comment.md").read_text(encoding="utf-8")
    assert "kubectl&#45;apply&#47;ada&#45;l" in comment and "**Correct**" in comment  # as the second exercise's


# --------------------------------------------------------------------------- held


@pytest.mark.parametrize("place", ["A->>B: {}", "Note over A: {}", "participant A as {}", "rect {}", "box {}",
                                   "loop {}", "{}"])
def test_lines_of_a_repeated_pair_stay_fast(place):
    from drawcheck.grade.cli import default_reference
    from drawcheck.plugin.submissions import SubmissionsManager
    from drawcheck.reference import load_reference
    from drawcheck.report.markdown import Links, markdown_report

    reference = load_reference(default_reference())
    manager = SubmissionsManager(answers_dir="answers", site_root=".", reference=reference, max_bytes=262144,
                                 max_lines=2000, max_seconds=None)
    for unit in ("=;", "\\;", ";{", ";@", "#;", "-<", "&#", "<b"):
        body = place.format(unit * 20_000)
        text = f"sequenceDiagram\n    {body}\n    A->>A: x\n" + ("end\n" if place.startswith(("rect", "loop")) else "")
        started = time.process_time()
        graded = manager.grade("a", "answers/a.mmd", text)
        markdown_report([graded], reference, links=Links())
        assert time.process_time() - started < 5, (place, unit)


class _PullRequestOnly:
    """The one API call `verify_pull_request` makes, answered with `pr`."""

    def __init__(self, pr: dict):
        self.pr = pr

    def json(self, method: str, path: str, body=None):
        assert (method, path) == ("GET", "/repos/drawcheck/drawcheck/pulls/7")
        return self.pr


@pytest.mark.parametrize("base_ref", ["v1", "gh-pages", "Main"])
def test_the_comment_is_posted_only_for_a_pull_request_to_the_default_branch(base_ref):
    """The check runs the grader of the PR's base commit: a PR to an old branch of the repository ran that
    branch's grader, which the comment must not post under the site's name."""
    from drawcheck.report.pr_comment import Refused, verify_pull_request

    sha = "a" * 40

    def pr(ref: str) -> dict:
        return {"head": {"sha": sha}, "user": {"login": "ada"},
                "base": {"ref": ref, "repo": {"full_name": "drawcheck/drawcheck", "default_branch": "main"}}}

    assert verify_pull_request(_PullRequestOnly(pr("main")), "drawcheck/drawcheck", 7, sha) == "ada"
    with pytest.raises(Refused, match="not the default branch"):
        verify_pull_request(_PullRequestOnly(pr(base_ref)), "drawcheck/drawcheck", 7, sha)


@pytest.mark.parametrize("run", [" ", "\t", "\u3000", ")("])
def test_a_participant_alias_with_a_long_run_of_spaces_is_checked_fast(run):
    """`participant A as a<49,700 spaces>b` (or `)(` repeated, whose brackets become spaces) took 17 s:
    recognise.names.participant_steps split the alias with `\\s*(?:,|/|...)\\s*`, tried from every space of the
    run. Past the 10 s budget the file was stopped, 10 s of every build per such file."""
    from drawcheck.grade.cli import default_reference
    from drawcheck.plugin.submissions import SubmissionsManager
    from drawcheck.reference import load_reference

    reference = load_reference(default_reference())
    manager = SubmissionsManager(answers_dir="answers", site_root=".", reference=reference, max_bytes=262144,
                                 max_lines=2000, max_seconds=None)
    alias = "a" + run * (49_700 // len(run)) + "b"
    started = time.process_time()
    graded = manager.grade("a", "answers/a.mmd", f"sequenceDiagram\n    participant A as {alias}\n    A->>A: x\n")
    assert graded.result.status != "invalid" and time.process_time() - started < 1.5

"""`drawcheck pr-check` on real git repositories with recorded pull_request payloads."""

from __future__ import annotations

import json
import os
import re

import pytest

from prflow_kit import ROOT

PERMIT_EARLY = (ROOT / "answers" / "example-permit-early.mmd").read_text(encoding="utf-8")
CORRECT = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")


@pytest.fixture
def pull_request(repo, tmp_path):
    """`pull_request({path: content}, ...)`: a branch from main with those files committed, then
    `drawcheck pr-check` on it as the workflow runs it (keyword arguments go to prflow_kit.pr_check)."""
    from prflow_kit import pr_check

    def opened(files: dict[str, str | bytes], *, branch: str = "answer", message: str = "answer", **kwargs):
        repo.branch(branch)
        for path, content in files.items():
            repo.write(path, content)
        repo.commit(message)
        return pr_check(repo, tmp_path, **kwargs)

    return opened


def test_own_answer_with_mistakes_passes_with_annotations_summary_and_artifact(repo, tmp_path):
    repo.write("answers/bob.mmd", "sequenceDiagram\n  A->>B: ::error::broken ##[group]\n  <script>\n")
    repo.base = repo.commit("an unsafe answer already on main: not this PR's business")
    repo.branch("answer")
    repo.write("answers/ada-l.mmd", PERMIT_EARLY)
    head = repo.commit("my answer")

    from prflow_kit import pr_check

    done = pr_check(repo, tmp_path, author="Ada-L")  # the login's case differs from the file's
    assert done.code == 0, done.stdout + done.stderr
    assert "mode=submission" in done.outputs
    warnings = done.annotations("warning")
    assert warnings and all("file=answers/ada-l.mmd" in w for w in warnings)
    assert not any("bob" in line for line in done.stdout.splitlines())  # only the PR's file is graded
    assert "```mermaid" in done.summary and "ada&#45;l" in done.summary
    assert f"https://github.com/drawcheck/drawcheck/blob/{head}/answers/ada-l.mmd#L18" in done.summary
    assert "https://drawcheck.github.io/drawcheck/feedback/ada-l/" in done.summary
    meta = json.loads((done.artifact / "pr.json").read_text(encoding="utf-8"))
    assert meta == {"number": 42, "head_sha": head, "mode": "submission"}
    assert (done.artifact / "comment.md").read_text(encoding="utf-8") == done.summary
    assert sorted(os.listdir(done.artifact)) == ["comment.md", "pr.json"]


def test_correct_answer_and_corrected_drawing_pass(pull_request):
    done = pull_request({"answers/ada-l.mmd": CORRECT, "answers/ada-l.corrected.mmd": CORRECT})
    assert done.code == 0, done.stdout
    assert done.summary.count("### answers") == 2 and "**Correct**" in done.summary


def test_invalid_file_fails_with_one_clear_message(pull_request):
    done = pull_request({"answers/ada-l.mmd": "sequenceDiagram\n  S->>P: PreFilter\n  loop never closed\n"})
    assert done.code == 1
    titled = [a for a in done.annotations("error") if a.startswith("::error title=drawcheck::")]
    assert len(titled) == 1 and "answers/ada-l.mmd could not be checked" in titled[0]
    assert any(a.startswith("::error file=answers/ada-l.mmd") for a in done.annotations("error"))
    assert "Fix this first" in done.summary
    assert (done.artifact / "comment.md").exists()  # the learner still gets the comment


def test_unsafe_and_oversized_and_non_utf8_files_fail(pull_request):
    for content in ("sequenceDiagram\n  S->>P: <img src=x onerror=alert(1)>\n",
                    "sequenceDiagram\n" + "  S->>P: Filter\n" * 30000,
                    b"sequenceDiagram\n  S->>P: \xff\xfe\n"):
        done = pull_request({"answers/ada-l.mmd": content})
        assert done.code == 1, (content[:40], done.stdout)
        assert len([a for a in done.annotations("error") if "title=drawcheck::" in a]) == 1


def test_someone_elses_handle_fails(pull_request):
    done = pull_request({"answers/grace.mmd": CORRECT}, author="Ada-L")
    assert done.code == 1
    (message,) = done.annotations("error")
    assert "answers/grace.mmd" in message and "Ada-L" in message
    assert not done.annotations("warning")  # nothing graded


def test_template_is_not_the_authors_file(pull_request):
    assert pull_request({"answers/_template.mmd": "sequenceDiagram\n  A->>B: x\n"}).code == 1


def test_submission_touching_anything_else_fails(pull_request):
    done = pull_request({"answers/ada-l.mmd": CORRECT, "docs/index.md": "# Site, changed\n"}, message="answer and a page")
    assert done.code == 1
    (message,) = done.annotations("error")
    assert "docs/index.md" in message and "separate pull request" in message


def test_symlink_in_a_submission_fails(repo, tmp_path):
    from prflow_kit import pr_check

    repo.branch("answer")
    os.symlink("/etc/passwd", repo.path / "answers" / "ada-l.mmd")
    repo.commit("a link")
    done = pr_check(repo, tmp_path)
    assert done.code == 1
    (message,) = done.annotations("error")
    assert "symlink" in message and "ada-l.mmd" in message
    assert "root:" not in done.summary + done.stdout


def test_nested_folder_under_answers_fails(pull_request):
    assert pull_request({"answers/ada-l.mmd/x.mmd": CORRECT}, message="nested").code == 1


def test_site_change_is_left_to_the_full_build(pull_request):
    done = pull_request({"docs/index.md": "# Site, better\n"}, branch="docs", message="docs")
    assert done.code == 0 and "mode=site" in done.outputs
    assert json.loads((done.artifact / "pr.json").read_text(encoding="utf-8"))["mode"] == "site"
    assert not (done.artifact / "comment.md").exists() and done.summary == ""


def test_diff_is_against_the_merge_base(repo, tmp_path):
    """Files main gained after the PR branched are not the PR's (git diff base...head)."""
    from prflow_kit import pr_check

    repo.branch("answer")
    repo.write("answers/ada-l.mmd", CORRECT)
    head = repo.commit("answer")
    repo.git("checkout", "-q", "main")
    repo.write("docs/new.md", "# New\n")
    repo.write("answers/grace.mmd", CORRECT)
    repo.base = repo.commit("main moves on")
    done = pr_check(repo, tmp_path, head=head)
    assert done.code == 0, done.stdout


def test_hostile_names_and_text_issue_no_workflow_command(pull_request):
    done = pull_request({"answers/##[error]x.mmd": "sequenceDiagram\n  A->>B: x\n"}, message="hostile")
    assert done.code == 1
    (line,) = done.stdout.splitlines()  # the one message: the file is not Ada-L's
    assert line.startswith("::error title=drawcheck::") and "x.mmd" in line
    assert "##[" not in line and line.count("::") == 2

    done = pull_request({"answers/ada-l.mmd": "sequenceDiagram\n  participant S as ##[stop-commands]tok\n"
                                              "  S->>S: ::add-mask::x @octocat %0A::error::y\n  S->>S: PreFilter\n"},
                        branch="answer2", message="hostile text")
    assert done.code == 1  # unsafe content
    for line in done.stdout.splitlines():
        assert re.match(r"::(error|warning|notice) ", line), line  # every line is one of ours
        assert not re.search(r"::(add-mask|stop-commands)", line) and "%0A" not in line.split("::", 2)[1]
    assert "@octocat" not in done.summary and "::" not in done.summary and "##[" not in done.summary


def test_pre_commit_mode_checks_files_in_the_working_tree(repo, tmp_path):
    import subprocess
    import sys

    repo.write("answers/ada-l.mmd", PERMIT_EARLY)
    repo.write("answers/bad.mmd", "sequenceDiagram\n  S->>P: <script>\n")
    run = lambda *files: subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--files", *files],  # noqa: E731
                                        cwd=repo.path, capture_output=True, text=True, timeout=60)
    good = run("answers/ada-l.mmd")
    assert good.returncode == 0 and "correction" in good.stdout
    bad = run("answers/ada-l.mmd", "answers/bad.mmd")
    assert bad.returncode == 1 and "fix the errors" in bad.stdout


def _two_exercises(repo) -> None:
    repo.write("mkdocs.yml", (ROOT / "mkdocs.yml").read_text(encoding="utf-8"))
    repo.base = repo.commit("the site's config: two exercises")


def test_an_answer_in_another_exercises_folder_is_graded_against_that_exercise(repo, pull_request):
    """mkdocs.yml lists two exercises: answers/kubectl-apply/<login>.mmd is the learner's own file there, graded
    against kubectl-apply's data (its misconception found), annotated at its own path, linked to its own page."""
    _two_exercises(repo)
    mistake = ROOT / "reference" / "kubectl-apply" / "examples" / "mistake-apiserver-pushes.mmd"
    done = pull_request({"answers/kubectl-apply/ada-l.mmd": mistake.read_text(encoding="utf-8")},
                        message="my kubectl-apply answer")
    assert done.code == 0, done.stdout + done.stderr
    warnings = done.annotations("warning")
    assert warnings and all("file=answers/kubectl-apply/ada-l.mmd" in w for w in warnings)
    assert "push" in done.summary.lower()  # the exercise's own misconception, not the flagship's corrections
    assert "PreFilter" not in done.summary
    assert "https://drawcheck.github.io/drawcheck/feedback/kubectl-apply/ada-l/" in done.summary


def test_someone_elses_file_in_an_exercise_folder_is_refused(repo, pull_request):
    _two_exercises(repo)
    done = pull_request({"answers/kubectl-apply/grace.mmd": CORRECT}, message="not my file")
    assert done.code == 1
    (refusal,) = [a for a in done.annotations("error") if a.startswith("::error title=")]
    assert "answers/kubectl-apply/grace.mmd" in refusal and "answers/kubectl-apply/Ada-L.mmd" in refusal

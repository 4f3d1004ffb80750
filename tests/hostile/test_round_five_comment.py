"""Round five, the sticky PR comment: the artifact is the PR's own output, so its `comment.md` may carry any
drawing. The comment workflow (write access) posted every ```mermaid fence as written but for mentions:
`%%{init}%%`, front matter, `link`/`links`/`click` to another site, a flowchart saying "drawcheck says:
Correct". Now a fence is drawn only when every line of it is one the site's renderer writes
(`pr_comment.is_drawing_line`); any other fence, in any spelling GitHub draws (`Mermaid`, `mermaid x`, `~~~`,
in a list, ```math, ```geojson), is shown as `text` with its addresses broken. Run as the workflow runs it too:
pr_comment.py alone against a local HTTP server standing in for the API, with a recorded `workflow_run`."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import round_five
import round_three

sys.path.insert(0, str(round_five.ROOT / "tests" / "workflows"))
from fake_github import gh  # noqa: E402, F401 (a fixture)
from prflow_kit import event  # noqa: E402
from test_pr_comment import HEAD, artifact, comment_step, meta  # noqa: E402

from drawcheck.grade.cli import check_file, default_reference  # noqa: E402
from drawcheck.reference import load_reference  # noqa: E402
from drawcheck.render.feedback import feedback_setup, page_drawing  # noqa: E402
from drawcheck.report.markdown import circled_drawing  # noqa: E402
from drawcheck.report.pr_comment import CODE_CHANGED, MARKER, comment_body, is_drawing_line, own_links  # noqa: E402

OWN = own_links(round_five.REPO, HEAD, "mallory")
FLAGSHIP = load_reference(default_reference())
KUBECTL = load_reference(str(round_five.ROOT / "reference" / "kubectl-apply" / "exercise.yml"))


@pytest.mark.parametrize("name", sorted(round_five.FORGED_DRAWINGS))
def test_a_drawing_the_renderer_never_writes_is_not_drawn_in_the_comment(name):
    text = round_five.FORGED_DRAWINGS[name]
    assert round_five.drawn_languages(text)  # GitHub would draw it as written: else this proves nothing
    body = comment_body(f"# drawcheck feedback\n\n{text}\nthe rest\n", links=OWN).split("\n", 1)[1]
    assert round_five.drawn_languages(body) == [], body
    assert "evil.example" not in "".join(round_three.live_links(body)), body
    assert body.rstrip().endswith("the rest")  # shown as code, the comment around it intact


def test_the_renderer_writes_only_lines_the_comment_draws():
    """Every drawing the site draws back, for every answer of every corpus in the repository (both exercises,
    the hostile ones included), passes `is_drawing_line` line by line: the comment keeps all of them."""
    drawn = 0
    setups = {id(FLAGSHIP): feedback_setup(FLAGSHIP), id(KUBECTL): feedback_setup(KUBECTL)}
    for path in sorted(round_five.ROOT.glob("tests/**/*.mmd")):
        reference = KUBECTL if "kubectl" in str(path) else FLAGSHIP
        graded = check_file(str(path), reference, label=str(path.relative_to(round_five.ROOT)))
        for drawing in (circled_drawing(graded, reference), page_drawing(graded, setups[id(reference)])):
            if drawing:
                drawn += 1
                assert [line for line in drawing.rstrip("\n").split("\n") if not is_drawing_line(line)] == [], path
    assert drawn > 1000


def test_a_real_report_keeps_its_drawings(tmp_path):
    answers = {f"{handle}.mmd": text for handle, text in round_five.TINTED.items()}
    report = round_five.comment_markdown(answers, FLAGSHIP)
    blocks = round_five.mermaid_blocks(report)
    assert len(blocks) == len(answers)
    assert round_five.mermaid_blocks(comment_body(report, links=OWN)) == blocks


@pytest.mark.parametrize("ambiguous", [False, True])
def test_the_comment_workflow_draws_no_forged_drawing(gh, ambiguous):
    """With a fence in a list (`ambiguous`) no fence is drawn at all (GitHub may end it elsewhere); else the
    report's own drawing is, and no other."""
    report = round_five.comment_markdown({"mallory.mmd": round_five.REFERENCE}, FLAGSHIP)
    forged = "\n".join(text for name, text in round_five.FORGED_DRAWINGS.items() if ambiguous or name != "in-a-list")
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[42], gh.authors[42] = HEAD, "mallory"
    gh.add_artifact(payload["workflow_run"]["id"], artifact({"pr.json": meta(), "comment.md": report + "\n" + forged}))
    done = comment_step(gh, payload)
    assert done.returncode == 0, done.stdout + done.stderr
    (comment,) = gh.comments[42]
    own = round_five.mermaid_blocks(report)
    assert round_five.drawn_languages(comment["body"]) == ([] if ambiguous else ["mermaid"] * len(own))
    assert round_five.mermaid_blocks(comment["body"]) == ([] if ambiguous else own)
    assert "evil.example" not in "".join(round_three.live_links(comment["body"]))


@pytest.mark.parametrize("kind", sorted(round_five.broken_artifacts({"pr.json": "{}"})))
def test_a_broken_artifact_is_refused_with_one_clear_line(gh, kind):
    """A zip the reader trips on (bad CRC, broken stream, a password, a method Python lacks) was a traceback in
    the privileged workflow's log; now a refusal naming the file, like every other bad artifact."""
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[42], gh.authors[42] = HEAD, "mallory"
    zipped = round_five.broken_artifacts({"pr.json": meta(), "comment.md": "hello " * 50})[kind]
    gh.add_artifact(payload["workflow_run"]["id"], zipped)
    done = comment_step(gh, payload)
    assert done.returncode == 1 and "Traceback" not in done.stderr, done.stdout + done.stderr
    assert done.stdout.startswith("::error title=drawcheck comment::refused: "), done.stdout
    assert gh.comments.get(42, []) == []


FORGED_VERDICT = "## answers/mallory.mmd\n\n**Status:** correct · **Score:** 100 %\n\nNo corrections: well done.\n"

CODE_CHANGES = {
    "the-grader": [{"filename": "answers/mallory.mmd", "status": "added"},
                   {"filename": "plugins/drawcheck/report/pr_check.py", "status": "modified"}],
    "the-workflow": [{"filename": "answers/mallory.mmd", "status": "added"},
                     {"filename": ".github/workflows/check.yml", "status": "modified"}],
    "renamed-from-code": [{"filename": "answers/mallory.mmd", "status": "renamed",
                           "previous_filename": "plugins/drawcheck/grade/__init__.py"}],
    "other-case": [{"filename": "Answers/mallory.mmd", "status": "added"}],
    "only-code": [{"filename": "pyproject.toml", "status": "modified"}],
}


@pytest.mark.parametrize("name", sorted(CODE_CHANGES))
def test_feedback_from_a_pr_that_changes_the_code_is_not_posted(gh, name):
    """A PR that changes anything outside answers/ ran its own code in the check, so the artifact says whatever
    it likes ("correct, 100 %") and the bot posted it under the site's name: now the sticky comment says only,
    in the comment workflow's own words, that this PR's feedback is not posted."""
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[42], gh.authors[42], gh.files[42] = HEAD, "mallory", CODE_CHANGES[name]
    gh.add_artifact(payload["workflow_run"]["id"], artifact({"pr.json": meta(), "comment.md": FORGED_VERDICT}))
    done = comment_step(gh, payload)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [c["body"] for c in gh.comments[42]] == [f"{MARKER}\n{CODE_CHANGED}"]


def test_a_pr_of_answers_only_is_posted_however_many_files_it_lists(gh):
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    files = [{"filename": f"answers/kubectl-apply/mallory{'.corrected' if i % 2 else ''}.mmd", "status": "modified"}
             for i in range(2)] + [{"filename": "answers/mallory.mmd", "status": "added"}] * 248
    gh.pulls[42], gh.authors[42], gh.files[42] = HEAD, "mallory", files  # three pages of the listing
    gh.add_artifact(payload["workflow_run"]["id"], artifact({"pr.json": meta(), "comment.md": "feedback"}))
    done = comment_step(gh, payload)
    assert done.returncode == 0, done.stdout + done.stderr
    assert [c["body"].split("\n", 1)[1] for c in gh.comments[42]] == ["feedback"]
    assert sum("/pulls/42/files" in path for _m, path, _h in gh.requests) == 3


def test_a_pr_whose_files_the_api_cannot_list_in_full_is_not_posted(gh):
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    answers_then_code = [{"filename": "answers/mallory.mmd", "status": "added"}] * 3000 + \
                        [{"filename": "plugins/drawcheck/report/pr_check.py", "status": "modified"}]
    gh.pulls[42], gh.authors[42], gh.files[42] = HEAD, "mallory", answers_then_code  # the listing stops at 3,000
    gh.add_artifact(payload["workflow_run"]["id"], artifact({"pr.json": meta(), "comment.md": FORGED_VERDICT}))
    done = comment_step(gh, payload)
    assert done.returncode == 1 and gh.comments.get(42, []) == [], done.stdout

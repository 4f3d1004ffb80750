"""Round three, the sticky PR comment: the privileged comment workflow posts what the PR's own code wrote, so
no spelling of a mention or a cross-reference may survive it, and the circled drawing must still draw.
Run as the workflow runs it: pr_comment.py alone, against a local HTTP server standing in for the API."""

from __future__ import annotations

import sys

import pytest

import round_three

sys.path.insert(0, str(round_three.ROOT / "tests" / "workflows"))
from fake_github import gh  # noqa: E402, F401 (a fixture)
from prflow_kit import event  # noqa: E402
from test_pr_comment import HEAD, artifact, comment_step, meta  # noqa: E402

from drawcheck.grade.cli import check_file  # noqa: E402
from drawcheck.reference import load_reference  # noqa: E402
from drawcheck.report.markdown import Links, markdown_report, markdown_text  # noqa: E402
from drawcheck.report.pr_comment import comment_body, neutralise_references, own_links  # noqa: E402

EXERCISE = load_reference(str(round_three.ROOT / "reference" / "two-cycles" / "exercise.yml"))


def test_the_model_of_github_finds_every_attack_before_it_is_neutralised():
    for name, text in round_three.COMMENT_ATTACKS.items():
        assert round_three.acted_on(text), name  # else the test below would prove nothing


@pytest.mark.parametrize("name", sorted(round_three.COMMENT_ATTACKS))
def test_no_spelling_of_a_mention_or_reference_survives_the_comment(name):
    body = comment_body(round_three.COMMENT_ATTACKS[name])
    assert round_three.acted_on(round_three.outside_mermaid(body)) == []  # (GitHub links nothing in code)
    visible = round_three.decoded(body).replace(round_three.WORD_JOINER, "")  # reads the same as written
    assert visible.split("\n", 1)[1] == round_three.decoded(round_three.COMMENT_ATTACKS[name])


OWN = own_links("drawcheck/drawcheck", "a" * 40, "mallory")


@pytest.mark.parametrize("text", round_three.LINK_ATTACKS)
def test_no_link_but_the_prs_own_files_and_page_survives_the_comment(text):
    assert round_three.live_links(text)
    body = comment_body(f"see {text} now", links=OWN).split("\n", 1)[1]
    assert round_three.live_links(body) == [], body
    assert round_three.decoded(body).replace(round_three.WORD_JOINER, "").replace("\\/", "/") == \
        round_three.decoded(f"see {text} now").replace("\\/", "/")  # shown as written, as text


def test_the_prs_own_links_are_kept_as_written():
    text = "\n".join(f"- {link} x" for link in round_three.OWN_LINKS)
    assert comment_body(text, links=OWN).split("\n", 1)[1] == text
    assert round_three.live_links(comment_body(text).split("\n", 1)[1]) == []  # no author known: none kept


@pytest.mark.parametrize("text", round_three.NESTED_REFERENCES)
def test_references_inside_references_are_not_made_live(text):
    assert round_three.acted_on(comment_body(text).split("\n", 1)[1]) == []


@pytest.mark.parametrize("seed", range(4))
def test_random_comments_made_of_every_spelling_act_on_nothing(seed):
    for text in round_three.random_comments(seed, 2500):
        body = comment_body(text).split("\n", 1)[1]
        assert round_three.acted_on(round_three.outside_mermaid(body)) == [], repr(text)
        assert "<" not in round_three.outside_mermaid(body), repr(text)


@pytest.mark.parametrize("name", sorted(round_three.HTML_ATTACKS))
def test_no_raw_html_survives_the_comment(name):
    text = round_three.HTML_ATTACKS[name]
    body = comment_body("## feedback\n\n" + text + "\n\n**Could not be checked**\n")
    assert "<" not in body.split("\n", 1)[1]  # after the marker: no tag, no comment, nothing hidden or folded
    assert body.rstrip().endswith("**Could not be checked**")


@pytest.mark.parametrize("name", sorted(round_three.AMBIGUOUS_FENCES))
def test_a_fence_github_may_end_early_keeps_no_code_as_a_reference(name):
    text = round_three.AMBIGUOUS_FENCES[name]
    assert round_three.acted_on(text)
    assert round_three.acted_on(neutralise_references(text)) == []


def _report(tmp_path, drawing: str) -> str:
    path = tmp_path / "answers" / "mallory.mmd"
    path.parent.mkdir(exist_ok=True)
    path.write_text(drawing, encoding="utf-8")
    graded = check_file(str(path), EXERCISE, label="answers/mallory.mmd")
    return markdown_report([graded], EXERCISE, links=Links(repo="drawcheck/drawcheck", sha="a" * 40,
                                                           site_url="https://drawcheck.github.io/drawcheck/"))


def test_the_circled_drawing_still_draws_and_nothing_outside_it_acts(tmp_path):
    drawing = ("sequenceDiagram\n    participant S as Scheduler (#1) <b>\n    participant P as Plugins\n"
               "    S->>P: PreFilter: GH-12, #12, @octocat; x < y & z\n    S->>P: Filter (see issues/3)\n"
               "    Note over S: a #60; b\n    S-)P: go func\n    P->>P: Bind\n")
    report = _report(tmp_path, drawing)
    blocks = round_three.mermaid_blocks(report)
    assert blocks and any("#60;" in b or "#40;" in b for b in blocks)
    body = comment_body(report)
    assert round_three.mermaid_blocks(body) == blocks  # Mermaid's codes kept: GitHub draws it as the page does
    assert round_three.acted_on(round_three.outside_mermaid(body)) == []


def test_markdown_text_breaks_gh_references_too():
    for text in ("GH-12", "gh-7 x", "see GH-1."):
        out = round_three.decoded(markdown_text(text))
        assert round_three.acted_on(out) == [], out


@pytest.mark.parametrize("with_attacks", [False, True])
def test_the_comment_workflow_posts_no_mention_or_reference(gh, tmp_path, with_attacks):
    report = _report(tmp_path, round_three.REFERENCE)
    attacks = ("\n\n".join([*round_three.COMMENT_ATTACKS.values(), *round_three.HTML_ATTACKS.values()])
               if with_attacks else "")
    payload = event("workflow_run_completed_fork", head_sha=HEAD)
    gh.pulls[42], gh.authors[42] = HEAD, "mallory"
    links = "\n\n".join(round_three.LINK_ATTACKS) if with_attacks else ""
    gh.add_artifact(payload["workflow_run"]["id"],
                    artifact({"pr.json": meta(), "comment.md": report + "\n" + attacks + "\n" + links + "\n"}))
    done = comment_step(gh, payload)
    assert done.returncode == 0, done.stdout + done.stderr
    (comment,) = gh.comments[42]
    assert "<" not in round_three.outside_mermaid(comment["body"]).split("\n", 1)[1]
    own = [line for line in report.splitlines() if "https://" in line]
    assert own and all(line in comment["body"].split("\n") for line in own)  # the report's own links kept
    live = round_three.live_links(round_three.outside_mermaid(comment["body"]))
    assert len(live) == sum(ln.count("https://") for ln in own)
    if with_attacks:  # raw HTML in it: GitHub may read the fences otherwise, so no code is kept as written
        assert round_three.acted_on(comment["body"]) == []
    else:
        shown = round_three.decoded(round_three.outside_mermaid(comment["body"]).split("\n", 1)[1])
        assert shown.replace(round_three.WORD_JOINER, "").rstrip("\n") == \
            round_three.decoded(round_three.outside_mermaid(report)).replace(round_three.WORD_JOINER, "").rstrip("\n")
        assert round_three.acted_on(round_three.outside_mermaid(comment["body"])) == []
        assert round_three.mermaid_blocks(comment["body"]) == round_three.mermaid_blocks(report)


@pytest.mark.parametrize("line", ["#1;" * 20_000, "#1 " * 20_000, "&#x&#x33;" * 8_000, "@&#64;" * 10_000,
                                  "https://" * 8_000, "```mermaid\n" * 5_000])
def test_the_largest_comment_is_neutralised_in_linear_time(line):
    import time

    text = f"```mermaid\n{line}\n```\n{line}\n"[:64 * 1024]
    start = time.process_time()
    comment_body(text, links=OWN)
    assert time.process_time() - start < 3, "not linear"  # catastrophic blow-ups only (quadratic: minutes)

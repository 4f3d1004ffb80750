"""The feedback page: sections, circles, escaping, closed reference blocks, side by side when corrected."""

from __future__ import annotations

import re

from drawcheck.grade.model import Result
from drawcheck.parse.model import Diagram, Message, Note, Participant
from drawcheck.render.feedback import assumed_notes, feedback_page, feedback_setup, format_score
from drawcheck.render.model import Graded


def _page(result, diagram, reference, **kw):
    return feedback_page(Graded(kw.pop("handle", "ada"), "answers/ada.mmd", result, diagram, **kw), feedback_setup(reference))


def test_page_has_circled_drawing_numbered_corrections_and_score(result, diagram, reference):
    page = _page(result, diagram, reference)
    assert page.count("```mermaid") == 1  # the circled drawing only: the reference is linked, not repeated
    assert "**Score:** 50 %" in page
    assert "after Reserve, before Permit (1 early)" in page
    status = next(ln for ln in page.splitlines() if ln.startswith("**Status:**"))
    assert "4 corrections&#58; boundary&#44; Permit in the wrong cycle" in status  # says what is wrong
    rows = [ln for ln in page.splitlines() if re.match(r"^\| \*\*[①②③④]\*\*", ln)]
    assert [r.split("|")[1].split("<br>")[1].strip() for r in rows] == ["line 12", "line 13", "not drawn", "not drawn"]
    assert page.count("| | Correction |") == 1  # no wide "#"/"Line" columns, no empty "assumed" column
    assert "*(your drawing matches Kubernetes v1&#46;15–v1&#46;17)*" in rows[1]
    assert "Example submission" not in page
    assert "accTitle: answers" in page and "%% drawcheck: readable" in page
    assert 'data-drawcheck-zoom="1"' in page and 'tabindex="0"' in page


def test_marks_on_the_drawing_are_short_and_the_sentence_is_in_the_table(result, diagram, reference):
    page = _page(result, diagram, reference)
    fence = page.split("```mermaid", 1)[1].split("```", 1)[0]
    marks = [ln.split(": ", 1)[1] for ln in fence.splitlines() if re.search(r"[①②③④]", ln)]
    assert marks and all(len(m) <= 60 for m in marks), marks
    assert any("#10007; wrong cycle" in m for m in marks)  # ✗ + a word, not colour alone
    for f in result.corrections:
        assert f.message[:20].replace(",", "&#44;").replace(":", "&#58;") in page.split("## Corrections", 1)[1]


def test_learner_text_is_escaped_everywhere(result, diagram, reference):
    page = _page(result, diagram, reference)
    for raw in ("<script>", "<img", "--8<--", "<b>", "%%{init}"):
        assert raw not in page
    assert "&#60;img src&#61;x" in page  # the reason, shown but inert


def test_reference_is_linked_not_repeated(result, diagram, reference):
    from drawcheck.render.model import PageLinks

    page = feedback_page(Graded("ada", "answers/ada.mmd", result, diagram),
                         feedback_setup(reference, PageLinks(reference="../../index.md#check-your-drawing")))
    assert "??? note" not in page and "S->>S: PreFilter" not in page.split("## Check yourself")[1]
    assert "](../../index.md#check-your-drawing)" in page


def test_line_numbers_link_to_the_repository_when_known(result, diagram, reference):
    from drawcheck.render.model import page_links

    links = page_links(repo_url="https://github.com/org/site", edit_uri="edit/main/docs/", reference="../index.md")
    page = feedback_page(Graded("ada", "answers/ada.mmd", result, diagram), feedback_setup(reference, links))
    assert "[line 12](https://github.com/org/site/blob/main/answers/ada.mmd#L12)" in page
    plain = page_links(repo_url="https://gitlab.example/x/y", edit_uri="", reference="../index.md")
    assert "](https://" not in feedback_page(Graded("ada", "answers/ada.mmd", result, diagram), feedback_setup(reference, plain))


def test_example_submissions_say_so(result, diagram, reference):
    assert "!!! example \"Example submission\"" in _page(result, diagram, reference, handle="permit-late", example=True)
    # marked by the config (Graded.example), not by the name
    assert "Example submission" not in _page(result, diagram, reference, handle="example-permit-late")


def test_corrected_drawing_is_shown_beside_the_first_with_assumed_notes(result, diagram, reference):
    fixed = Diagram(header_line=1, participants=[Participant("S", "Scheduler", "participant", 2)],
                    statements=[Message("S", "S", "Permit", "->>", 3),
                                Note("over", ("S",), "assumed 2: Permit waits in binding", 4),
                                Note("over", ("S",), "assumed ①: the go was earlier", 5)])
    corrected = Graded("ada", "answers/ada.corrected.mmd", Result("answers/ada.corrected.mmd", "correct", 1.0), fixed)
    page = _page(result, diagram, reference, corrected=corrected)
    assert page.index("## Your drawing, circled") < page.index("## Your corrected drawing")
    assert "| | Correction | What I had assumed |" in page  # the column exists only with a corrected drawing
    row2 = next(ln for ln in page.splitlines() if ln.startswith("| **②**"))
    assert row2.endswith("| Permit waits in binding |")
    row1 = next(ln for ln in page.splitlines() if ln.startswith("| **①**"))
    assert row1.endswith("| the go was earlier |")
    assert assumed_notes(fixed) == {"2": "Permit waits in binding", "1": "the go was earlier"}


def test_invalid_drawing_lists_errors_and_draws_nothing(reference):
    from drawcheck.grade.model import Finding

    result = Result("answers/ada.mmd", "invalid", 0.0,
                    findings=[Finding("syntax", None, 3, "correction", "expected an arrow, found `<x>`"),
                              Finding("missing", "Bind", None, "correction", "Bind is missing")])
    page = _page(result, None, reference)
    assert "could not be checked" in page
    assert "answers&#47;ada&#46;mmd&#58;3</code>** (line 3) error: expected an arrow&#44; found &#96;&#60;x&#62;&#96;" in page
    assert page.count("```mermaid") == 0
    assert "## Corrections" not in page and "Bind is missing" not in page  # fix the syntax first


def test_correct_drawing_says_so(diagram, reference):
    page = _page(Result("answers/ada.mmd", "correct", 1.0), diagram, reference)
    assert "None: every point" in page and "**Score:** 100 %" in page
    assert '!!! success "Correct"' in page and "**Status:** correct" in page
    assert page.count("```mermaid") == 1  # shown once


def test_format_score():
    assert format_score(0.583) == "58 %"
    assert format_score(7.5) == "7.5"

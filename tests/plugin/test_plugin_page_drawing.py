"""The feedback page's drawing is drawn once while grading: its length is checked against Mermaid's limit,
and the page shows that very text (a hand-built Graded, without it, gets the same text)."""

from __future__ import annotations

import dataclasses

from plugin_site import ROOT
from drawcheck.plugin.submissions import SubmissionsManager
from drawcheck.reference import load_reference
from drawcheck.render import feedback_page
from drawcheck.render.feedback import feedback_setup, page_drawing
from drawcheck.safety import MERMAID_MAX_TEXT

REFERENCE = load_reference(str(ROOT / "reference" / "two-cycles" / "exercise.yml"))


def manager(answers) -> SubmissionsManager:
    return SubmissionsManager(answers_dir=str(answers), site_root=str(answers.parent), reference=REFERENCE,
                              max_bytes=262144, max_lines=2000)


def test_graded_drawing_is_the_one_the_page_shows(tmp_path):
    answers = tmp_path / "answers"
    answers.mkdir()
    for i, p in enumerate(sorted((ROOT / "answers").glob("example-*.mmd"))):  # as learners' files, .corrected too
        (answers / p.name.replace("example-", f"learner{i}-")).write_text(p.read_text(encoding="utf-8"), encoding="utf-8")
    graded = manager(answers).collect()[0]
    assert graded
    for g in graded:
        assert g.drawing is not None and g.drawing.startswith("sequenceDiagram\n")
        assert g.drawing == page_drawing(dataclasses.replace(g, drawing=None), feedback_setup(REFERENCE))
        page = feedback_page(g, feedback_setup(REFERENCE))
        assert "\n" + g.drawing.rstrip("\n") in page  # the fence holds the kept drawing, unchanged
        assert page == feedback_page(dataclasses.replace(g, drawing=None), feedback_setup(REFERENCE))


def test_a_drawing_too_long_to_redraw_is_refused_with_its_length(tmp_path):
    answers = tmp_path / "answers"
    answers.mkdir()
    # commas become `#44;` in the redrawn copy: the file stays far below the limit, its copy goes over it
    label = "," * 150
    steps = "".join(f"    S->>S: {label}\n" for _ in range(90))
    (answers / "ada.mmd").write_text("sequenceDiagram\n    participant S\n" + steps, encoding="utf-8")
    (answers / "grace.mmd").write_text("sequenceDiagram\n    participant S\n    S->>S: filter\n", encoding="utf-8")
    assert len((answers / "ada.mmd").read_text(encoding="utf-8")) < MERMAID_MAX_TEXT // 3
    ada, grace = manager(answers).collect()[0]
    assert ada.result.status == "invalid" and ada.diagram is None and ada.drawing is None
    message = ada.result.findings[0].message
    assert "redrawn for the feedback page" in message and f"{MERMAID_MAX_TEXT:,}" in message
    assert grace.result.status != "invalid" and grace.drawing is not None  # one file never stops another

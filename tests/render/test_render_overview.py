"""Class overview: counts, table, learner x step grid, charts on one scale; the accessibility helpers."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from drawcheck.grade.model import BoundaryPlacement, Finding, Result
from drawcheck.render.model import Graded, Refused
from drawcheck.render.overview import overview_page
from drawcheck.render.stats import boundary_bucket, boundary_histogram, boundary_offset, step_counts
from drawcheck.render.svg import bar_chart
from drawcheck.render.a11y import mermaid_accessibility, with_accessibility
from drawcheck.render.charts import Bar, score_histogram
from drawcheck.render.charts import bar_chart as bar_chart_table
from drawcheck.render.grid import MARKS, grid_table, legend, step_states


def test_boundary_offset_is_the_graders_measure():
    assert boundary_offset(BoundaryPlacement("Reserve", "Permit", 1, -1)) == -1
    assert boundary_offset(BoundaryPlacement("Permit", "PreBind", 1, 0)) == 0
    assert boundary_offset(None) is None
    assert [boundary_bucket(x) for x in (-3, -1, 0, 2, None)] == ["2+ early", "1 early", "correct", "late", "none"]


def test_histogram_and_step_counts(result, reference):
    correct = replace(result, boundary=BoundaryPlacement("Permit", "PreBind", 3, 0), findings=[])
    none = replace(result, boundary=None, findings=[Finding("missing", "NormalizeScore", None, "correction", "m"),
                                                     Finding("missing", "NormalizeScore", None, "correction", "m")])
    hist = boundary_histogram([result, correct, none], reference)
    assert hist == {"2+ early": 0, "1 early": 1, "correct": 1, "late": 0, "none": 1}
    assert step_counts([result, none], ("missing",)) == [("NormalizeScore", 2)]
    assert step_counts([result], ("order", "wrong-cycle")) == [("Permit", 1)]
    hinted = replace(result, findings=[Finding("missing", "WaitOnPermit", None, "hint", "optional")])
    assert step_counts([hinted], ("missing",)) == []


def test_bar_chart_is_well_formed_svg_with_escaped_labels():
    svg = bar_chart([("<b>x</b>", 3), ("ok", 0)], title="T & t", highlight="ok")
    root = ET.fromstring(svg)
    assert root.tag.endswith("svg") and "\n" not in svg
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert "<b>x</b>" in texts and "T & t" in texts
    widths = [int(r.get("width")) for r in root.iter("{http://www.w3.org/2000/svg}rect")]
    assert widths[0] > 0 and widths[1] == 0


def _graded(handle, result, diagram=None):
    """A graded file; examples are marked by the site's `examples:` config, here by their name."""
    return Graded(handle, f"answers/{handle}.mmd", replace(result, file=f"answers/{handle}.mmd"), diagram,
                  example=handle.startswith("example-"))


def test_overview_table_links_each_page_says_which_corrections_and_escapes(result, diagram, reference):
    bad = Graded("mallory", "answers/mallory.mmd", Result("answers/mallory.mmd", "invalid", 0.0, findings=[
        Finding("syntax", None, 3, "correction", "arrow has no target")]))
    page = overview_page([_graded("ada", result, diagram), bad],
                         [Refused("answers/<x>.mmd", 1, "not a *handle*")], reference)
    row = next(line for line in page.splitlines() if line.startswith("| [ada](ada.md)"))
    assert "✗ corrections (4)" in row and "50 %" in row and "after Reserve, before Permit (1 early)" in row
    # which corrections: the kinds, with the step names (reference names, not learner text)
    assert "wrong cycle: Permit" in row and "missing: NormalizeScore" in row
    assert "boundary: line 12" in row and "cache function" in row
    mallory = next(line for line in page.splitlines() if line.startswith("| [mallory](mallory.md)"))
    assert "⚠ could not be graded" in mallory and "syntax error: line 3" in mallory
    assert "<x>" not in page and "&#60;x&#62;" in page and "not a &#42;handle&#42;" in page
    assert "⊘ refused" in page


def test_counts_add_up_and_examples_stay_out_of_the_class_figures(result, diagram, reference):
    correct = replace(result, status="correct", score=1.0, findings=[],
                      boundary=BoundaryPlacement("Permit", "PreBind", 3, 0))
    bad = Graded("mallory", "answers/mallory.mmd", Result("answers/mallory.mmd", "invalid", 0.0))
    learners = [_graded("ada", result, diagram), _graded("bo", correct, diagram), _graded("cy", correct, diagram), bad]
    examples = [_graded("example-one", result, diagram), _graded("example-two", result, diagram)]
    refused = [Refused("answers/x y.mmd", None, "bad name")]
    page = overview_page(learners + examples, refused, reference)
    assert ("**5** learner submission(s): **3** graded (2 correct, 1 with corrections) and **2** could not be "
            "graded (1 with errors to fix, 1 refused by the site).") in page
    assert "The 2 example(s) that ship with the site are not counted" in page
    class_part, examples_part = page.split("## Shipped examples")
    assert "example-one" not in class_part.split("not counted")[1]  # not in the class table, grid or charts
    assert "[example-one](example-one.md)" in examples_part and "[example-two](example-two.md)" in examples_part
    # every chart is on one scale: the 3 graded learners (examples and ungraded ones left out)
    assert class_part.count("a full bar is 3 learners") == 4
    scores = class_part.split('id="chart-scores"')[1].split("</figure>")[0]
    assert "<th scope=\"row\">50–59 %</th>" in scores and "67 %" in scores  # 2 of 3 at 100 %
    assert 'style="width: 66.7%"' in scores and 'style="width: 33.3%"' in scores


def test_a_chart_is_a_captioned_table_with_its_numbers(reference):
    html = bar_chart_table([Bar("<b>x</b>", 3), Bar("ok", 0, highlight=True, note="the true one")],
                           chart_id="c1", title="T & t", description="What it shows.", scale=6)
    root = ET.fromstring(html)
    assert root.tag == "figure" and "\n" not in html
    caption = root.find("figcaption")
    assert "T & t" in "".join(caption.itertext()) and "a full bar is 6 learners" in "".join(caption.itertext())
    rows = root.find("table").find("tbody").findall("tr")
    assert ["".join(r.find("th").itertext()) for r in rows] == ["<b>x</b>", "ok (the true one)"]
    assert [r.find("td[@class='dc-chart__count']").text for r in rows] == ["3", "0"]
    assert rows[0].find(".//span[@class='dc-bar']").get("style") == "width: 50.0%"
    assert rows[1].get("class") == "dc-chart__row--highlight"


def test_score_histogram_has_every_bin_and_puts_full_marks_in_the_top_one():
    bins = score_histogram([0.0, 0.09, 0.1, 0.55, 0.999, 1.0])
    assert len(bins) == 10 and bins[0] == ("0–9 %", 2) and bins[1] == ("10–19 %", 1)
    assert bins[5] == ("50–59 %", 1) and bins[-1] == ("90–100 %", 2) and sum(n for _, n in bins) == 6


def test_grid_marks_each_step_right_wrong_missing_or_not_drawn(result, reference):
    ids = ["Filter", "Permit", "NormalizeScore", "WaitOnPermit"]
    assert step_states(result, ids) == {"Filter": "right", "Permit": "wrong", "NormalizeScore": "missing",
                                        "WaitOnPermit": "not drawn"}
    lines = grid_table([("[ada](ada.md)", result)], [(i, i) for i in ids])
    cells = [c.strip() for c in lines[2].split("|")[2:-1]]  # one per step, in the order of `ids`
    assert cells == ["✓", '<b class="dc-w">✗</b>', '<b class="dc-m">−</b>', ""]  # a symbol each, not colour alone
    assert lines[1] == "|---|" + "|".join("---" for _ in ids) + "|"  # no per-cell alignment style
    assert lines[-1].startswith("| **Drawn right by** (1) |") and lines[-1].count("**1**") == 1


def test_unsafe_submissions_are_flagged_in_the_table(result, diagram, reference):
    unsafe = replace(result, findings=[Finding("unsafe", None, 1, "correction", "directive")])
    page = overview_page([Graded("eve", "answers/eve.mmd", unsafe, diagram)], [], reference)
    row = next(line for line in page.splitlines() if line.startswith("| [eve](eve.md)"))
    assert "⚠ could not be graded" in row and "refused content: line 1" in row


def test_mermaid_accessibility_lines_are_escaped_and_one_line_each():
    lines = mermaid_accessibility("Ada's drawing: <b>x</b>", "line one\nline two; %% not a comment\naccTitle: y")
    assert lines[0].startswith("accTitle: ") and lines[1].startswith("accDescr: ")
    assert len(lines) == 2 and all("\n" not in line for line in lines)
    assert "<" not in lines[0] and ":" not in lines[0][len("accTitle: "):]
    assert ";" not in lines[1].replace("#59;", "").replace("#37;", "").split("#")[0]
    assert "%%" not in lines[1] and "accTitle" not in lines[1][len("accDescr: "):].replace("accTitle#58;", "")
    assert mermaid_accessibility("T") == ["accTitle: T"]
    drawn = with_accessibility("%% note\nsequenceDiagram\n    A->>B: hi\n", "T", "D")
    assert drawn.split("\n")[:4] == ["%% note", "sequenceDiagram", "    accTitle: T", "    accDescr: D"]


def test_grid_is_light_and_its_legend_explains_every_cell(result, reference):
    """1,000 learners must not weigh megabytes: each cell is one symbol (at most a short tag), nothing repeated
    per cell; the legend (which the grid's region points at) names every symbol a cell can hold."""
    ids = [s.id for s in reference.steps]
    rows = [(f"[learner-{i:04d}](learner-{i:04d}.md)", result) for i in range(200)]
    lines = grid_table(rows, [(i, i) for i in ids])
    body = "\n".join(lines[2:-1])
    cells = len(rows) * len(ids)
    assert len(body.encode("utf-8")) / cells < 16  # was ~150 bytes a cell with a title and a hidden word each
    assert "title=" not in body and "dc-sr" not in body and "style" not in body
    key = legend()
    for state, mark in MARKS.items():
        if mark.cell:
            assert f">{mark.symbol}</span> {mark.word}<" in key
    assert "blank</span> not drawn" in key and 'id="dc-grid-legend"' in key

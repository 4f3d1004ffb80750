"""Class overview: table, boundary histogram, missed/misplaced steps, inline SVG."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from dataclasses import replace

from drawcheck.grade.model import BoundaryPlacement, Finding, Result
from drawcheck.render.model import Graded, Refused
from drawcheck.render.overview import overview_page
from drawcheck.render.stats import boundary_bucket, boundary_histogram, boundary_offset, step_counts
from drawcheck.render.svg import bar_chart


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


def test_overview_table_links_each_page_and_escapes(result, diagram, reference):
    bad = Graded("mallory", "answers/mallory.mmd", Result("answers/mallory.mmd", "invalid", 0.0))
    page = overview_page([Graded("example-one", "answers/example-one.mmd", result, diagram, example=True), bad],
                         [Refused("answers/<x>.mmd", 1, "not a *handle*")], reference)
    assert "| [example-one *(example)*](example-one.md) | 4 correction(s) | 50 % | after Reserve, before Permit (1 early) | — |" in page
    assert "| [mallory](mallory.md) | needs fixing | — | not drawn | — |" in page
    assert "<x>" not in page and "&#60;x&#62;" in page and "not a &#42;handle&#42;" in page
    assert page.count("<svg") == 3
    assert "**2** submission(s): 0 correct, 1 with corrections, 1 that could not be checked, 1 refused file(s)." in page


def test_unsafe_submissions_are_flagged_in_the_table(result, diagram, reference):
    unsafe = replace(result, findings=[Finding("unsafe", None, 1, "correction", "directive")])
    page = overview_page([Graded("eve", "answers/eve.mmd", unsafe, diagram)], [], reference)
    assert "| [eve](eve.md) | needs fixing (content the site refuses) |" in page

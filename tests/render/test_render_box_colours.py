"""A learner's `box` keeps its colour as drawn: CSS colour names (any case), rgb()/rgba()/hsl()/hsla(); a
colour that could pass for one of the site's mark fills, and `transparent`/`currentColor`, are drawn
transparent; a `box` with only a title stays a title (Mermaid reads its first word as a colour only when
it is one: sequenceDb.parseBoxData, checked against Mermaid in Chromium by tests/browser/test_box_colours.py)."""

from __future__ import annotations

import pytest

from drawcheck.parse import parse_text
from drawcheck.render.colours import CSS_NAMED_COLOURS, learner_colour
from drawcheck.render.mermaid import MARK_FILLS, NEUTRAL_FILL, render_diagram

CASES = [
    ("box Aqua Control plane", "box Aqua Control plane"),
    ("box aqua", "box aqua"),
    ("box LightSkyBlue Nodes", "box LightSkyBlue Nodes"),
    ("box LightGoldenRodYellow Nodes", "box transparent Nodes"),  # nested, its tint nears the missing mark's amber
    ("box Control plane", "box transparent Control plane"),  # "Control" is no colour: all of it is the title
    ("box Red Team", "box Red Team"),  # a strong red is far from the pale wrong-mark fill
    ("box rgb(230,240,255) Control plane", "box rgb(230,240,255) Control plane"),
    ("box rgba(0, 128, 255, 0.2) Nodes", "box rgba(0, 128, 255, 0.2) Nodes"),
    ("box hsl(200, 50%, 80%) Kubelet side", "box hsl(200, 50%, 80%) Kubelet side"),
    ("box transparent", "box transparent"),
    ("box transparent Scheduler side", "box transparent Scheduler side"),
    ("box", "box transparent"),
    ("box MistyRose Looks like a mark", "box transparent Looks like a mark"),  # near the wrong mark's pink
    ("box rgba(220, 50, 47, 0.18) Looks like a mark", "box transparent Looks like a mark"),
    ("box currentColor Ink", "box transparent Ink"),
    ("box Aqua Two  spaces", "box Aqua Two spaces"),
]


def _box_line(line: str) -> str:
    text = f"sequenceDiagram\n    {line}\n    participant S as Scheduler\n    end\n    S->>S: PreFilter\n"
    out = render_diagram(parse_text(text))
    return next(x.strip() for x in out.splitlines() if x.strip().startswith("box"))


@pytest.mark.parametrize("line,expected", CASES, ids=[c[0] for c in CASES])
def test_box_colour_is_kept_as_drawn_unless_it_could_pass_for_a_mark(line, expected):
    assert _box_line(line) == expected


def test_every_css_colour_name_is_kept_or_neutralised_by_its_distance_to_the_marks():
    kept = {name for name in CSS_NAMED_COLOURS if learner_colour(name, reserved=MARK_FILLS, neutral="N") == name}
    near = set(CSS_NAMED_COLOURS) - kept
    assert len(CSS_NAMED_COLOURS) == 148 and CSS_NAMED_COLOURS["rebeccapurple"] == (102, 51, 153)
    assert {"mistyrose", "lavenderblush", "seashell"} & near  # pale pinks: the wrong mark's tint
    assert {"aqua", "navy", "red", "black", "white", "lightblue"} <= kept
    for name in near:  # the same verdict as the rgb() spelling of the colour gets
        r, g, b = CSS_NAMED_COLOURS[name]
        assert learner_colour(f"rgb({r}, {g}, {b})", reserved=MARK_FILLS, neutral="N") == "N", name


def test_names_are_case_insensitive_and_only_whole_names_count():
    assert learner_colour("AQUA", reserved=MARK_FILLS, neutral="N") == "AQUA"
    for text in ("aqua;", "aqua red", "url(x)", "#00ffff", "expression(alert(1))", "", "Canvas"):
        assert learner_colour(text, reserved=MARK_FILLS, neutral="N") == "N", text


def test_a_rect_named_colour_is_kept_too():
    text = "sequenceDiagram\n    participant S\n    rect Aqua\n    S->>S: PreFilter\n    end\n    rect MistyRose\n    S->>S: Filter\n    end\n"
    out = [x.strip() for x in render_diagram(parse_text(text)).splitlines()]
    assert "rect Aqua" in out and f"rect {NEUTRAL_FILL}" in out


@pytest.mark.parametrize("text,rgb,alpha", [
    ("red", (255, 0, 0), 1.0), ("  SteelBlue ", (70, 130, 180), 1.0), ("#0f0", (0, 255, 0), 1.0),
    ("#336699", (51, 102, 153), 1.0), ("rgb(100%, 0%, 50%)", (255, 0, 127.5), 1.0),
    ("rgba(10, 20, 30, 0.5)", (10, 20, 30), 0.5), ("rgb(10 20 30 / 40%)", (10, 20, 30), 0.4),
    ("rgb(300, -5, 0)", (255, 0, 0), 1.0), ("hsl(120, 100%, 50%)", (0, 255, 0), 1.0),
    ("hsl(0.5turn 100% 50%)", (0, 255, 255), 1.0), ("hsla(240deg, 100%, 50%, 2)", (0, 0, 255), 1.0),
])
def test_colour_value_reads_every_written_form(text, rgb, alpha):
    from drawcheck.css_colours import colour_value

    found, found_alpha = colour_value(text)
    assert [round(v, 1) for v in found] == [round(v, 1) for v in rgb] and found_alpha == alpha


@pytest.mark.parametrize("text", ["transparent", "currentColor", "canvas", "not a colour", "#12345", "rgb(1, 2)",
                                  "rgb(1, 2, 3); color: red", "url(x)"])
def test_colour_value_of_what_is_no_colour_value(text):
    from drawcheck.css_colours import colour_value

    assert colour_value(text) is None


def test_the_marks_look_alike_check_reads_only_the_forms_it_may_copy():
    from drawcheck.safety import _rgb_alpha

    assert _rgb_alpha("rgb(220, 50, 47)") == ((220, 50, 47), 1.0)
    assert _rgb_alpha("red") is None and _rgb_alpha("rgb(220 50 47)") is None  # names and spaced forms: never copied

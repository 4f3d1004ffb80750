"""Round five, the learner's own rect colours on GitHub's pages: the PR comment and the job summary are drawn by
GitHub's Mermaid on GitHub's page, whose dark themes are not the site's slate. An opaque learner rect of
`rgb(50, 21, 27)` was kept (it is 26 from the wrong mark on slate) though on GitHub's dark page it is within 2 of
the wrong mark there, and on the dark high-contrast page `rgb(48, 19, 22)` was the mark's very colour. Now
`safety.PAGE_BACKGROUNDS` lists GitHub's page colours too, so no learner rect passes for a mark on any of them."""

from __future__ import annotations

import itertools

import pytest

from drawcheck.render.mermaid import MARK_FILLS, NEUTRAL_FILL
from drawcheck.safety import MARK_COLOUR_DISTANCE, PAGE_BACKGROUNDS, _distance, _over, _rgb_alpha, learner_rect_colour

GITHUB_PAGES = {"light": (255, 255, 255), "dark": (13, 17, 23), "dark-dimmed": (34, 39, 46),
                "dark-high-contrast": (10, 12, 16)}
"""The page colours of GitHub's themes (the colour-blind ones share these), behind a comment's drawing."""


def test_github_pages_are_among_the_backgrounds_checked():
    checked = {tuple(round(v) for v in _rgb_alpha(bg)[0]) for bg in PAGE_BACKGROUNDS}
    assert set(GITHUB_PAGES.values()) <= checked


@pytest.mark.parametrize("page", sorted(GITHUB_PAGES))
@pytest.mark.parametrize("fill", MARK_FILLS)
def test_no_learner_rect_near_a_mark_on_a_github_page_is_kept(page, fill):
    mark_rgb, mark_alpha = _rgb_alpha(fill)
    target = _over(mark_rgb, mark_alpha, GITHUB_PAGES[page])  # the mark as that page shows it
    near = 0
    for step in itertools.product(range(-16, 17, 4), repeat=3):
        opaque = tuple(max(0, min(255, round(t + d))) for t, d in zip(target, step))
        if _distance(opaque, target) >= MARK_COLOUR_DISTANCE - 1:
            continue
        near += 1
        colour = "rgb({}, {}, {})".format(*opaque)
        assert learner_rect_colour(colour, reserved=MARK_FILLS, neutral=NEUTRAL_FILL) == NEUTRAL_FILL, (page, colour)
    assert near > 100
    # half transparent, drawn to the same colour on that page
    half = tuple(max(0, min(255, round(2 * t - b))) for t, b in zip(target, GITHUB_PAGES[page]))
    colour = "rgba({}, {}, {}, 0.5)".format(*half)
    if _distance(_over(half, 0.5, GITHUB_PAGES[page]), target) < MARK_COLOUR_DISTANCE - 1:
        assert learner_rect_colour(colour, reserved=MARK_FILLS, neutral=NEUTRAL_FILL) == NEUTRAL_FILL, (page, colour)


def _nested_in(outer: str, inner: str) -> str:
    return ("sequenceDiagram\n    participant S as Scheduler\n    participant P as Plugins\n"
            f"    rect {outer}\n        rect {inner}\n            S->>P: PreFilter\n        end\n    end\n")


@pytest.mark.parametrize("outer", ["rgba(0, 0, 255, 0.35)", "rgb(20, 30, 120)", "rgba(0, 0, 0, 0.6)"])
@pytest.mark.parametrize("fill", MARK_FILLS)
def test_a_learner_rect_of_a_marks_colour_inside_another_is_drawn_neutral(outer, fill):
    """Over the learner's own blue rect a rect of exactly a mark's fill composites to another colour, so it was
    kept, as written: the site's script then grounded it like a mark (it finds marks by their fill), and on
    GitHub, where the outer rect of a drawing with marks is drawn clear, it lay on the bare page. Now a rect
    is checked over every run of the rects beneath it that may be drawn (each suffix, the bare page too)."""
    from drawcheck.parse import parse_text
    from drawcheck.render.mermaid import render_diagram

    drawn = render_diagram(parse_text(_nested_in(outer, fill)))
    assert f"rect {fill}" not in drawn and f"rect {NEUTRAL_FILL}" in drawn, drawn


def test_in_the_comment_a_learner_rect_left_over_fewer_tints_is_checked_again():
    """The comment draws a rect that holds a mark clear; a learner rect inside it (holding no mark) then lies
    over fewer tints than the renderer checked it over, and is checked again over what is still beneath it."""
    from drawcheck.report.markdown import CLEAR_FILL, untinted_marks

    outer, kept, inner = "rgba(0, 0, 255, 0.5)", "rgba(10, 115, 9, 0.5)", "rgba(74, 18, 82, 0.5)"
    assert learner_rect_colour(inner, reserved=MARK_FILLS, neutral=NEUTRAL_FILL, under=(outer, kept)) == inner
    assert learner_rect_colour(inner, reserved=MARK_FILLS, neutral=NEUTRAL_FILL) == inner  # on the bare page too
    drawing = ("sequenceDiagram\n    participant P1 as A\n    rect rgba(0, 0, 255, 0.5)\n"
               f"        rect {kept}\n            rect {inner}\n                P1->>P1: x\n            end\n        end\n"
               f"        rect {MARK_FILLS[0]}\n            P1->>P1: y\n            Note over P1: ① #10007; order\n"
               "        end\n    end\n")
    lines = untinted_marks(drawing).split("\n")
    assert lines[2] == f"    rect {CLEAR_FILL}" and lines[3] == f"        rect {kept}"
    assert lines[4] == f"            rect {NEUTRAL_FILL}"  # over the green rect alone it passes for a mark

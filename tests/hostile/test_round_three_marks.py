"""Round three, the site's marks: look-alike glyphs and colours a learner file could fake them with."""

from __future__ import annotations

import re
import sys
import unicodedata

import pytest

import round_three

from drawcheck import safety


def test_every_enclosing_mark_of_unicode_is_reserved():
    enclosing = [chr(c) for c in range(sys.maxunicode + 1)
                 if not 0xD800 <= c < 0xE000 and unicodedata.category(chr(c)) == "Me"]
    assert len(enclosing) >= 13
    assert [hex(ord(ch)) for ch in enclosing if not safety.MARK_GLYPHS.match(ch)] == []


@pytest.mark.parametrize("text", round_three.LOOKALIKE_MARKS, ids=ascii)
def test_look_alike_marks_lose_their_circle_everywhere_learner_text_is_shown(text):
    mermaid = [safety.learner_label(text), safety.mark_label("x", text)]
    for out in [safety.unmark(text), round_three.decoded(safety.html_text(text))] + [
            re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), label) for label in mermaid]:
        assert not round_three.LOOKALIKE_GLYPHS.search(out), ascii(out)
    digits = "".join(ch for ch in text if ch.isdigit())
    assert digits in safety.unmark(text)  # the learner's words stay; only the circle goes


def _redrawn_fills(drawing: str) -> tuple[str | None, list[str]]:
    from drawcheck.parse import parse_text
    from drawcheck.render.mermaid import render_diagram

    out = render_diagram(parse_text(drawing))
    box = re.search(r"^    box (rgba?\([^)]*\))", out, re.M)
    return (box.group(1) if box else None), re.findall(r"^\s*rect (\S.*)$", out, re.M)


def test_the_model_sees_each_colour_attack_as_a_mark_colour():
    for box, rects in round_three.COLOUR_ATTACKS:
        stack = ([box] if box else []) + rects
        assert min(round_three.nearest_mark(stack, page) for page in round_three.PAGES) < 20, (box, rects)


@pytest.mark.parametrize("box,rects", round_three.COLOUR_ATTACKS)
def test_no_rect_is_drawn_in_a_mark_colour_on_either_page(box, rects):
    drawn_box, fills = _redrawn_fills(round_three.colour_drawing(box, rects))
    assert _learner_fills_clear(drawn_box, fills) >= 1 or NEUTRAL in fills


NEUTRAL = "rgba(128, 128, 128, 0.10)"  # the site's own fill for a refused colour


def _learner_fills_clear(drawn_box, fills) -> int:
    """Assert each learner colour kept (not the site's neutral) is far from every mark as drawn; how many."""
    kept = 0
    for depth in range(1, len(fills) + 1):
        if fills[depth - 1] == NEUTRAL:
            continue
        stack = ([drawn_box] if drawn_box else []) + fills[:depth]
        for page in round_three.PAGES:
            assert round_three.nearest_mark(stack, page) >= safety.MARK_COLOUR_DISTANCE, (page, stack)
        kept += 1
    return kept


def test_rect_colours_clear_of_the_marks_on_both_pages_are_kept():
    for rects in (["rgb(227, 238, 252)"], ["rgb(227, 238, 252)", "rgba(0, 0, 255, 0.1)"], ["rgba(0, 0, 255, 0.15)"],
                  ["rgb(230, 230, 250)", "rgb(220, 220, 255)"]):
        assert _redrawn_fills(round_three.colour_drawing(None, rects))[1] == rects


def test_every_combination_drawn_stays_clear_of_the_marks():
    """A grid of two nested rects over an optional box: whatever the renderer keeps is far from every mark."""
    levels = (0, 64, 128, 192, 255)
    colours = [f"rgba({r}, {g}, {b}, {a})" for r in levels for g in levels for b in levels for a in (0.3, 1)][::3]
    checked = 0
    for i, outer in enumerate(colours):
        inner = colours[(i * 31 + 5) % len(colours)]
        box = colours[(i * 17 + 3) % len(colours)] if i % 2 else None
        checked += _learner_fills_clear(*_redrawn_fills(round_three.colour_drawing(box, [outer, inner])))
    assert checked > 60  # most combinations keep a learner colour: the check is not vacuous

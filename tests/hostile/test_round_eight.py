"""Round eight (round_eight.py says what was found and what held): look-alike marks in other scripts' brackets,
circles and keycaps `MARK_GLYPHS` missed, and learner colours copied raw into the redrawn drawing."""

from __future__ import annotations

import os
import re
import subprocess
import sys
import unicodedata

import pytest

import round_eight

from drawcheck import safety
from drawcheck.parse import parse_text
from drawcheck.render.mermaid import MARK_FILLS, NEUTRAL_FILL, render_diagram
from drawcheck.report.markdown import untinted_marks

_SYMBOLS = re.compile("[\u2717\u2194\u2713]")


def _shown(text: str) -> list[str]:
    """`text` as each output shows it: unmarked, on the page (references read back), in the redrawn drawing."""
    import html

    mermaid = [safety.learner_label(text), safety.mark_label("x", text)]
    return [safety.unmark(text), html.unescape(safety.html_text(text))] + [
        re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), label) for label in mermaid]


# --------------------------------------------------------------------------- marks


@pytest.mark.parametrize("name", sorted(round_eight.BRACKETED))
def test_a_marks_symbol_after_a_number_in_any_scripts_brackets_is_spelled_plain(name):
    text = round_eight.BRACKETED[name]
    for out in _shown(text):
        assert not _SYMBOLS.search(out), ascii(out)
    kept = safety.unmark(text)
    assert "".join(ch for ch in text if ch.isdigit()) in kept  # the learner's words stay
    assert "x" in kept or "<->" in kept or "v" in kept, ascii(kept)  # the symbol, spelled plain


@pytest.mark.parametrize("name", sorted(round_eight.CIRCLE_LOOKALIKES))
def test_circles_and_keycaps_beside_a_number_are_made_plain(name):
    text = round_eight.CIRCLE_LOOKALIKES[name]
    for out in _shown(text):
        assert not any(ch in round_eight.CIRCLE_GLYPHS for ch in out), ascii(out)
        assert not _SYMBOLS.search(out), ascii(out)
    digits = "".join(ch for ch in text if ch.isdigit()) or "10"
    assert digits in safety.unmark(text)


def test_keycap_ten_reads_as_its_number():
    assert safety.unmark("\U0001f51f done") == "(10) done"


@pytest.mark.parametrize("text", ["PreFilter \u2194 Filter", "A \u2194 B, then C", "1 + 2 missing", "(51) + missing: Bind",
                                  "\u2713 correct", "Bind \u2192 Permit"])
def test_prose_keeps_its_arrows_and_words(text):
    assert safety.unmark(text) == text


@pytest.mark.parametrize("code", ["#9312;", "#x2460;", "#35;9312;", "#8413;", "#9210;"])
def test_an_entity_code_of_a_mark_glyph_is_shown_as_its_own_text(code):
    drawing = render_diagram(parse_text(f"sequenceDiagram\n    A->>B: 1{code} wrong cycle\n    Note over A: {code}\n"))
    labels = [line.split(": ", 1)[1] for line in drawing.split("\n") if ": " in line and "->>" in line or "Note" in line]
    for label in labels:
        shown = re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), label)  # as Mermaid draws its codes
        assert not safety.MARK_GLYPHS.search(shown), (code, label)
        assert re.sub(r"\D", "", code)[-4:] in shown, (code, label)  # the code's digits, as text


# --------------------------------------------------------------------------- colours


def _colour_lines(drawing: str) -> list[str]:
    return [line.strip() for line in drawing.split("\n") if line.strip().startswith(("rect ", "box "))]


@pytest.mark.parametrize("name", sorted(round_eight.UNICODE_COLOURS))
def test_a_colour_css_does_not_read_is_not_copied_into_the_drawing(name):
    statement, colour = round_eight.UNICODE_COLOURS[name]
    diagram = parse_text(round_eight.colour_drawing(statement, colour))
    assert diagram.valid, diagram.errors
    drawing = render_diagram(diagram)
    lines = _colour_lines(drawing) + _colour_lines(untinted_marks(drawing))
    assert lines
    for line in lines:
        colour_part = line.split(" ", 1)[1]
        if statement == "rect":
            assert colour_part == NEUTRAL_FILL, ascii(line)
        else:  # Mermaid's CSS.supports refuses the colour: no colour, the whole line is the box's title
            assert colour_part.startswith("transparent "), ascii(line)
        assert colour_part.split(" ", 1)[0].isascii(), ascii(line)


@pytest.mark.parametrize("name", sorted(n for n in round_eight.UNICODE_COLOURS if n.endswith("-in-box")))
def test_a_box_line_is_split_as_mermaid_splits_it(name):
    _statement, colour = round_eight.UNICODE_COLOURS[name]
    box = parse_text(round_eight.colour_drawing("box", colour)).boxes[0]
    assert not box.color or box.color == "transparent", ascii(box.color)
    assert box.label.startswith(colour.split("(")[0][:4]), ascii(box.label)


@pytest.mark.parametrize("colour", ["rgb(250, 215, 215)", "rgba(220, 50, 47, 0.18)", "hsla(2, 71%, 52%, 0.18)"])
def test_ascii_forms_are_still_read(colour):
    assert safety.learner_rect_colour(colour, reserved=MARK_FILLS, neutral="N") == "N"
    assert safety.learner_rect_colour("rgb(40, 90, 200)", reserved=MARK_FILLS, neutral="N") == "rgb(40, 90, 200)"
    assert safety.learner_rect_colour("rgb( 40,\t90 , 200 )", reserved=MARK_FILLS, neutral="N") != "N"


@pytest.mark.parametrize("fmt", ["markdown", "json", "text", "github"])
def test_no_c1_control_from_a_colour_reaches_the_terminal(tmp_path, fmt):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "ada.mmd").write_text(
        "sequenceDiagram\n    box rgb(10,\x85 20, 30) Team\n    participant S\n    end\n"
        "    rect rgb(1,\x85 2, 3)\n        S->>S: x\n    end\n    rect rgb(1,\u2028 2, 3)\n        S->>S: y\n    end\n",
        encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(round_eight.ROOT / "plugins")}
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "check", "--format", fmt, "answers/ada.mmd"],
                          cwd=tmp_path, env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    shown = done.stdout + done.stderr
    assert [f"U+{ord(ch):04X}" for ch in shown if ch not in "\n\t" and unicodedata.category(ch) in ("Cc", "Zl", "Zp")] == []

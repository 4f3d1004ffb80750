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

"""Round four, unit level: the site's script knows the marks' fills; learner text never carries a mark kind's
symbol next to a number; every CLI that reads a learner file reads it under the site's intake limits."""

from __future__ import annotations

import re

import round_four

from drawcheck.render.mermaid import MARK_FILLS

SHIM = round_four.ROOT / "plugins" / "drawcheck" / "plugin" / "assets" / "drawcheck-mermaid.js"


def test_the_sites_script_grounds_exactly_the_marks_fills():
    script = SHIM.read_text(encoding="utf-8")
    listed = re.search(r"var MARK_FILLS = \[([^\]]*)\]", script)
    assert listed, "drawcheck-mermaid.js lists the mark fills it draws on the page's colour"
    assert re.findall(r'"([^"]+)"', listed.group(1)) == list(MARK_FILLS)


# --------------------------------------------------------------------------- the symbols of the marks

import html  # noqa: E402

import pytest  # noqa: E402

from drawcheck import safety  # noqa: E402
from drawcheck.render.circled import SYMBOLS, learner_text  # noqa: E402


def _drawn(mermaid: str) -> str:
    """What Mermaid shows for an escaped label: its `#NNN;` codes read back."""
    return re.sub(r"#([0-9]+);", lambda m: chr(int(m[1])), mermaid)


@pytest.mark.parametrize("text", round_four.MARK_SYMBOL_LOOKALIKES)
def test_no_mark_symbol_beside_a_number_reaches_a_page_or_a_drawing(text):
    for shown in (safety.unmark(text), html.unescape(safety.html_text(text)), _drawn(safety.learner_label(text)),
                  _drawn(learner_text(text))):
        assert not round_four.MARK_SYMBOL_GLYPHS.search(shown), (text, shown)
        assert any(ch.isalnum() for ch in shown)  # the number stays, only the symbol is made plain


def test_the_symbols_of_the_mark_kinds_are_in_the_class():
    for symbol in SYMBOLS.values():
        if not symbol.isascii():
            assert safety.MARK_SYMBOLS.fullmatch(symbol), symbol
            assert safety.unmark(f"1 {symbol}") != f"1 {symbol}"


@pytest.mark.parametrize("text", round_four.PROSE_ARROWS)
def test_arrows_in_prose_are_kept(text):
    assert safety.unmark(text) == text
    assert _drawn(safety.learner_label(text)) == text


def test_the_sites_own_marks_keep_their_symbols():
    for symbol in SYMBOLS.values():
        assert symbol in _drawn(safety.mark_label("\u2460", f"{symbol} wrong cycle"))

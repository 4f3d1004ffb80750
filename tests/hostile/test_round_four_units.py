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

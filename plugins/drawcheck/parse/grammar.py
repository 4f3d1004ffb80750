"""Grammar facts: blocks, their branches, the nesting limit, and how `box` reads its line."""

from __future__ import annotations

import re

from drawcheck.css_colours import is_css_colour
from drawcheck.parse.jsregex import js_trim
from drawcheck.parse.lexer import parse_message

BLOCK_KEYWORDS = ("loop", "rect", "opt", "alt", "par", "par_over", "critical", "break")
BRANCH_OF = {"alt": "else", "par": "and", "par_over": "and", "critical": "option"}  # block -> its branch keyword
BRANCH_KEYWORDS = {"else": "alt", "and": "par", "option": "critical"}
MAX_DEPTH = 100  # deepest block nesting drawcheck reads (Mermaid has no limit); far below any recursion limit
MAX_ERRORS = 20  # errors listed for one file; drawcheck stops reading it at the last one and says so


def parse_box_data(s: str) -> tuple[str, str]:
    """(label, color) of `box COLOR LABEL`, the way Mermaid splits it."""
    m = re.match(r"((?:rgba?|hsla?)\s*\(.*\)|\w*)(.*)\Z", s, re.ASCII | re.DOTALL)
    color = js_trim(m.group(1)) if m and m.group(1) else "transparent"
    title = js_trim(m.group(2)) if m and m.group(2) else ""
    if not is_css_colour(color):
        color, title = "transparent", js_trim(s)
    return parse_message(title) if title else "", color

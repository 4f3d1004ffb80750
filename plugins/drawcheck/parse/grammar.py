"""Grammar facts: blocks, their branches, the nesting limit, and how `box` reads its line."""

from __future__ import annotations

import re

from drawcheck.parse.jsregex import js_trim
from drawcheck.parse.lexer import parse_message

BLOCK_KEYWORDS = ("loop", "rect", "opt", "alt", "par", "par_over", "critical", "break")
BRANCH_OF = {"alt": "else", "par": "and", "par_over": "and", "critical": "option"}  # block -> its branch keyword
BRANCH_KEYWORDS = {"else": "alt", "and": "par", "option": "critical"}
MAX_DEPTH = 100  # deepest block nesting drawcheck reads (Mermaid has no limit); far below any recursion limit
MAX_ERRORS = 20  # errors listed for one file; drawcheck stops reading it at the last one and says so

_CSS_NAMED = frozenset("""aliceblue antiquewhite aqua aquamarine azure beige bisque black blanchedalmond blue blueviolet
brown burlywood cadetblue chartreuse chocolate coral cornflowerblue cornsilk crimson cyan darkblue darkcyan
darkgoldenrod darkgray darkgreen darkgrey darkkhaki darkmagenta darkolivegreen darkorange darkorchid darkred
darksalmon darkseagreen darkslateblue darkslategray darkslategrey darkturquoise darkviolet deeppink deepskyblue
dimgray dimgrey dodgerblue firebrick floralwhite forestgreen fuchsia gainsboro ghostwhite gold goldenrod gray green
greenyellow grey honeydew hotpink indianred indigo ivory khaki lavender lavenderblush lawngreen lemonchiffon
lightblue lightcoral lightcyan lightgoldenrodyellow lightgray lightgreen lightgrey lightpink lightsalmon
lightseagreen lightskyblue lightslategray lightslategrey lightsteelblue lightyellow lime limegreen linen magenta
maroon mediumaquamarine mediumblue mediumorchid mediumpurple mediumseagreen mediumslateblue mediumspringgreen
mediumturquoise mediumvioletred midnightblue mintcream mistyrose moccasin navajowhite navy oldlace olive olivedrab
orange orangered orchid palegoldenrod palegreen paleturquoise palevioletred papayawhip peachpuff peru pink plum
powderblue purple rebeccapurple red rosybrown royalblue saddlebrown salmon sandybrown seagreen seashell sienna silver
skyblue slateblue slategray slategrey snow springgreen steelblue tan teal thistle tomato turquoise violet wheat white
whitesmoke yellow yellowgreen transparent currentcolor""".split())


def parse_box_data(s: str) -> tuple[str, str]:
    """(label, color) of `box COLOR LABEL`, the way Mermaid splits it."""
    m = re.match(r"((?:rgba?|hsla?)\s*\(.*\)|\w*)(.*)\Z", s, re.ASCII | re.DOTALL)
    color = js_trim(m.group(1)) if m and m.group(1) else "transparent"
    title = js_trim(m.group(2)) if m and m.group(2) else ""
    if not (color.lower() in _CSS_NAMED or re.match(r"(?:rgba?|hsla?)\s*\(", color)):
        color, title = "transparent", js_trim(s)
    return parse_message(title) if title else "", color

"""The colours a browser accepts in `box COLOUR TITLE` (Mermaid asks `CSS.supports("color", …)`): the parser
uses them to split a box line as Mermaid does, the renderer to redraw the learner's colour, and `colour_value`
reads what a colour is (for the marks' look-alike check and a colour legend's hues)."""

from __future__ import annotations

import colorsys
import math
import re

_NAMED = """\
aliceblue f0f8ff antiquewhite faebd7 aqua 00ffff aquamarine 7fffd4 azure f0ffff beige f5f5dc bisque ffe4c4 black
000000 blanchedalmond ffebcd blue 0000ff blueviolet 8a2be2 brown a52a2a burlywood deb887 cadetblue 5f9ea0 chartreuse
7fff00 chocolate d2691e coral ff7f50 cornflowerblue 6495ed cornsilk fff8dc crimson dc143c cyan 00ffff darkblue
00008b darkcyan 008b8b darkgoldenrod b8860b darkgray a9a9a9 darkgreen 006400 darkgrey a9a9a9 darkkhaki bdb76b
darkmagenta 8b008b darkolivegreen 556b2f darkorange ff8c00 darkorchid 9932cc darkred 8b0000 darksalmon e9967a
darkseagreen 8fbc8f darkslateblue 483d8b darkslategray 2f4f4f darkslategrey 2f4f4f darkturquoise 00ced1 darkviolet
9400d3 deeppink ff1493 deepskyblue 00bfff dimgray 696969 dimgrey 696969 dodgerblue 1e90ff firebrick b22222
floralwhite fffaf0 forestgreen 228b22 fuchsia ff00ff gainsboro dcdcdc ghostwhite f8f8ff gold ffd700 goldenrod daa520
gray 808080 green 008000 greenyellow adff2f grey 808080 honeydew f0fff0 hotpink ff69b4 indianred cd5c5c indigo
4b0082 ivory fffff0 khaki f0e68c lavender e6e6fa lavenderblush fff0f5 lawngreen 7cfc00 lemonchiffon fffacd lightblue
add8e6 lightcoral f08080 lightcyan e0ffff lightgoldenrodyellow fafad2 lightgray d3d3d3 lightgreen 90ee90 lightgrey
d3d3d3 lightpink ffb6c1 lightsalmon ffa07a lightseagreen 20b2aa lightskyblue 87cefa lightslategray 778899
lightslategrey 778899 lightsteelblue b0c4de lightyellow ffffe0 lime 00ff00 limegreen 32cd32 linen faf0e6 magenta
ff00ff maroon 800000 mediumaquamarine 66cdaa mediumblue 0000cd mediumorchid ba55d3 mediumpurple 9370db
mediumseagreen 3cb371 mediumslateblue 7b68ee mediumspringgreen 00fa9a mediumturquoise 48d1cc mediumvioletred c71585
midnightblue 191970 mintcream f5fffa mistyrose ffe4e1 moccasin ffe4b5 navajowhite ffdead navy 000080 oldlace fdf5e6
olive 808000 olivedrab 6b8e23 orange ffa500 orangered ff4500 orchid da70d6 palegoldenrod eee8aa palegreen 98fb98
paleturquoise afeeee palevioletred db7093 papayawhip ffefd5 peachpuff ffdab9 peru cd853f pink ffc0cb plum dda0dd
powderblue b0e0e6 purple 800080 rebeccapurple 663399 red ff0000 rosybrown bc8f8f royalblue 4169e1 saddlebrown 8b4513
salmon fa8072 sandybrown f4a460 seagreen 2e8b57 seashell fff5ee sienna a0522d silver c0c0c0 skyblue 87ceeb slateblue
6a5acd slategray 708090 slategrey 708090 snow fffafa springgreen 00ff7f steelblue 4682b4 tan d2b48c teal 008080
thistle d8bfd8 tomato ff6347 turquoise 40e0d0 violet ee82ee wheat f5deb3 white ffffff whitesmoke f5f5f5 yellow
ffff00 yellowgreen 9acd32
"""  # the 148 CSS Color 4 keywords, as d3-color (which Mermaid ships) lists them

CSS_NAMED_COLOURS: dict[str, tuple[int, int, int]] = {
    name: (int(hex_[0:2], 16), int(hex_[2:4], 16), int(hex_[4:6], 16))
    for name, hex_ in zip(_NAMED.split()[::2], _NAMED.split()[1::2])
}
"""{name: (r, g, b)}, lower-case names (CSS names are case-insensitive)."""

CSS_WIDE_KEYWORDS = frozenset({"transparent", "currentcolor", "inherit", "initial", "unset", "revert", "revert-layer"})
"""Colours with no value of their own (they draw whatever the page around them has)."""

SYSTEM_COLOURS = frozenset("""accentcolor accentcolortext activetext buttonborder buttonface buttontext canvas canvastext
field fieldtext graytext highlight highlighttext linktext mark marktext selecteditem selecteditemtext visitedtext
activeborder activecaption appworkspace background buttonhighlight buttonshadow captiontext inactiveborder
inactivecaption inactivecaptiontext infobackground infotext menu menutext scrollbar threeddarkshadow threedface
threedhighlight threedlightshadow threedshadow window windowframe windowtext""".split())
"""The browser's own UI colours (CSS Color 4 system colours, and the deprecated ones Chromium still accepts)."""

_FUNCTION = re.compile(r"(?:rgba?|hsla?)\((?:[\s,/]*[-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?(?:%|deg|rad|grad|turn)?)+[\s,/]*\)",
                       re.IGNORECASE | re.ASCII)
"""ASCII only, as CSS reads a colour: no NBSP, NEL or U+2028 is a space there and no full-width digit a digit, so
a box line Mermaid's `CSS.supports` refuses is not split into a colour and a title here (round eight)."""


def is_css_colour(text: str) -> bool:
    """Would a browser take `text` (one word, or an rgb()/hsl() form) for a colour?"""
    if not text.isascii():
        return False  # CSS folds ASCII case only: `blac\u212a` (a Kelvin sign) lowers to "black" here, not there
    low = text.lower()
    return (low in CSS_NAMED_COLOURS or low in CSS_WIDE_KEYWORDS or low in SYSTEM_COLOURS
            or _FUNCTION.fullmatch(text) is not None)


_HEX = re.compile(r"#([0-9a-f]{3}|[0-9a-f]{6})")
_ARGUMENT = re.compile(r"([-+]?(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?)(%|deg|rad|grad|turn)?", re.IGNORECASE | re.ASCII)
_DEGREES = {None: 1.0, "deg": 1.0, "grad": 0.9, "rad": 180 / math.pi, "turn": 360.0}


def colour_value(text: str) -> tuple[tuple[float, float, float], float] | None:
    """What a CSS colour is: ((red, green, blue) from 0 to 255, alpha from 0 to 1), for a name, `#rgb`, `#rrggbb`
    or an rgb()/rgba()/hsl()/hsla() form (commas or spaces, percentages, hue units); None for anything else,
    and for the colours with no value of their own (`transparent`, `currentcolor`, system colours)."""
    if not text.isascii():
        return None  # no colour to CSS (see is_css_colour)
    low = text.strip().lower()
    if low in CSS_NAMED_COLOURS:
        return CSS_NAMED_COLOURS[low], 1.0
    if (m := _HEX.fullmatch(low)) is not None:
        digits = m.group(1) if len(m.group(1)) == 6 else "".join(ch * 2 for ch in m.group(1))
        return tuple(float(int(digits[i:i + 2], 16)) for i in (0, 2, 4)), 1.0
    if _FUNCTION.fullmatch(low) is None:
        return None
    args = [(float(number), unit) for number, unit in _ARGUMENT.findall(low)]
    if len(args) < 3:
        return None
    alpha = 1.0
    if len(args) > 3:
        number, unit = args[3]
        alpha = min(max(number / 100 if unit == "%" else number, 0.0), 1.0)
    if low.startswith("rgb"):
        rgb = tuple(min(max(number * 255 / 100 if unit == "%" else number, 0.0), 255.0) for number, unit in args[:3])
        return rgb, alpha
    (hue, unit), (saturation, _), (lightness, _) = args[:3]
    red, green, blue = colorsys.hls_to_rgb((hue * _DEGREES.get(unit, 1.0)) % 360 / 360,
                                           min(max(lightness, 0.0), 100.0) / 100, min(max(saturation, 0.0), 100.0) / 100)
    return (red * 255, green * 255, blue * 255), alpha

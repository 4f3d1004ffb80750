"""The colour a learner's `box` or `rect` is redrawn with.

Mermaid 12.3.0 reads `box COLOUR TITLE` as sequenceDb.parseBoxData does: the first word (or an
`rgb(…)`/`rgba(…)`/`hsl(…)`/`hsla(…)` form) is the colour when the browser accepts it as a CSS colour
(`CSS.supports("color", …)`), else the whole line is the title (parse/grammar.parse_box_data). The
learner's colour is kept as drawn, unless it could pass for one of the site's mark colours
(`safety.learner_rect_colour`, which this module asks with the name's RGB).
"""

from __future__ import annotations

from drawcheck import safety
from drawcheck.css_colours import CSS_NAMED_COLOURS


def learner_colour(colour: str, *, reserved: tuple[str, ...], neutral: str, under: tuple[str, ...] = (),
                   stacks: dict | None = None) -> str:
    """`colour` as the learner wrote it when it is a CSS colour name or a plain rgb()/rgba()/hsl()/hsla()
    that stays clear of every `reserved` (mark) colour, also over the colours drawn beneath it (`under`,
    bottom first); `neutral` otherwise (also for `transparent` and `currentcolor`, which draw no colour of
    the learner's own). `stacks`: a dict one drawing's checks share (`safety.learner_rect_colour`)."""
    text = colour.strip()
    rgb = CSS_NAMED_COLOURS.get(text.lower()) if text.isascii() else None  # `blac\u212a` is no colour to CSS
    if rgb is None:
        kept = safety.learner_rect_colour(text, reserved=reserved, neutral=neutral, under=under, stacks=stacks)
        return neutral if kept == neutral else kept.lower()  # `RGB(…)` as `rgb(…)`: the form the PR comment reads
    probe = "rgb({}, {}, {})".format(*rgb)
    kept = safety.learner_rect_colour(probe, reserved=reserved, neutral=neutral, under=under, stacks=stacks)
    return text if kept == probe else neutral


def as_rgb(colour: str) -> str:
    """A redrawn colour (a CSS name or an rgb()/hsl() form) in a form `safety.learner_rect_colour` reads."""
    rgb = CSS_NAMED_COLOURS.get(colour.strip().lower())
    return "rgb({}, {}, {})".format(*rgb) if rgb is not None else colour

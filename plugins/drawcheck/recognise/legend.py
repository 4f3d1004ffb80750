"""A colour legend: a note that says what each colour of the drawing's rects means.

`Note over A,B: legend: blue = sowing, green = harvest, red = on failure` keys the drawing's unlabelled
`rect rgb(...)` regions by colour. Each rect whose colour has the hue of one of the legend's colours then
reads as if it opened with a note of that colour's words (the way learners label a rect in words), and the
legend itself draws nothing: it is a key, not a step.
"""

from __future__ import annotations

import colorsys
import dataclasses
import re

from drawcheck.css_colours import CSS_NAMED_COLOURS, colour_value
from drawcheck.parse.model import Block, Diagram, Note

_PIECE = re.compile(r"(?:[^,;()]|\([^()]*\))+")  # a note's parts between commas and semicolons (not in brackets)
_LINE_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
_ENTRY = re.compile(r"(?i)\s*(?:legend\s*:?\s*)?(?P<colour>(?:(?:light|dark|pale) ?)?[a-z]+|#[0-9a-f]{3}(?:[0-9a-f]{3})?|"
                    r"(?:rgba?|hsla?)\([^()]*\))\s*(?:=|:|->|→|means|is)\s*(?P<words>.*\S)")
MIN_ENTRIES = 2  # one "red = wrong" is a remark; a legend keys two colours at least
MIN_SATURATION = 0.12  # greys and whites have no hue to match by
HUE_TOLERANCE = 40.0  # degrees between a rect's hue and its legend colour's


def colour_hue(text: str) -> float | None:
    """The hue (degrees) of a CSS colour as written in a `rect` or a legend (`css_colours.colour_value`; `light
    blue` is `lightblue`); None for a colour without one (grey, white, black) or no colour."""
    low = text.strip().lower()
    if " " in low and low.replace(" ", "") in CSS_NAMED_COLOURS:
        low = low.replace(" ", "")
    value = colour_value(low)
    if value is None:
        return None
    rgb = value[0]
    hue, _lightness, saturation = colorsys.rgb_to_hls(*(v / 255 for v in rgb))
    return hue * 360 if saturation >= MIN_SATURATION and max(rgb) - min(rgb) > 20 else None


@dataclasses.dataclass(frozen=True, slots=True)
class Legend:
    note: Note  # the legend itself
    entries: tuple[tuple[float, str], ...]  # (hue, what that colour means)

    def words_for(self, colour: str) -> str | None:
        """What a rect of `colour` means: the words of the legend colour nearest in hue, within the tolerance."""
        hue = colour_hue(colour)
        if hue is None:
            return None
        distance, words = min(((min(abs(hue - h), 360 - abs(hue - h)), w) for h, w in self.entries),
                              key=lambda e: e[0])
        return words if distance <= HUE_TOLERANCE else None


def note_parts(text: str | None) -> list[str]:
    """A key note's parts: its lines (`<br>`), each cut at commas and semicolons outside brackets."""
    return [piece for line in _LINE_BREAK.split(text or "") for piece in _PIECE.findall(line)]


def find_legend(statements) -> Legend | None:
    """The first note at the top level that keys two colours or more, each to words of its own."""
    for s in statements:
        if not isinstance(s, Note):
            continue
        entries = []
        for piece in note_parts(s.text):
            m = _ENTRY.match(piece)
            hue = colour_hue(m.group("colour")) if m else None
            if hue is not None:
                entries.append((hue, m.group("words")))
        if len(entries) >= MIN_ENTRIES:
            return Legend(s, tuple(entries))
    return None


def with_legend(diagram: Diagram) -> Diagram:
    """The diagram as its legend reads it: each rect of a legend colour opens with a note of that colour's
    words, and the legend note is gone. Without a legend, the diagram itself."""
    legend = find_legend(diagram.statements)
    if legend is None:
        return diagram
    return dataclasses.replace(diagram, statements=_keyed(diagram.statements, legend))


def _keyed(statements, legend: Legend) -> list:
    out = []
    for s in statements:
        if s is legend.note:
            continue
        if isinstance(s, Block):
            branches = [dataclasses.replace(b, statements=_keyed(b.statements, legend)) for b in s.branches]
            words = legend.words_for(s.label) if s.kind == "rect" and branches else None
            if words is not None:
                label = Note(legend.note.placement, legend.note.actors, words, s.line)
                branches[0] = dataclasses.replace(branches[0], statements=[label, *branches[0].statements])
            s = dataclasses.replace(s, branches=branches)
        out.append(s)
    return out

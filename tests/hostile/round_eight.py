r"""Round eight: what got past rounds one to seven (`test_round_eight.py`; Chromium: tests/browser/
test_round_eight_site.py).

- A mark's symbol beside a number in brackets of another script kept its symbol: `unmark` turns `(1) ✗ wrong cycle`
  into `(1) x wrong cycle`, but `（１） ✗ wrong cycle` (full-width brackets), `【1】 ✗`, `〔1〕✗`, `❨1❩ ✗`, `﹙1﹚✗`,
  `1。✗` and `1． ✗` were left as written: `safety._is_gap` knew only ASCII brackets and punctuation. Now any
  punctuation character (Unicode categories P*) is a gap (`BRACKETED`).
- Glyphs of the marks' kind that `MARK_GLYPHS` missed: `🔟` (KEYCAP TEN, the one keycap in one piece: `1` +
  U+20E3 already lost its keycap), so `🔟 ✗ wrong cycle` kept both its boxed number and its cross; circles and
  discs beside a number (`⏺1`, `◐ 2`, `❍1`, `⚬ 3`, `⊝ 4`, `🌑 5`, `◴ 6`, `⚈ 7`), as the round-three circles
  already were; and the combining ring overlays U+20D8..U+20DA, which draw a ring over the digit before them
  (`1⃘`), as the enclosing marks U+20DD.. do (`CIRCLE_LOOKALIKES`).
- Learner characters copied raw into the redrawn drawing: a `rect` or `box` colour is kept as written when it is a
  plain rgb()/hsl() form, and `safety._COLOUR` (and `css_colours`) read it with Python's Unicode `\s` and `\d`: so
  `rect rgb(1,<NEL> 2, 3)` put U+0085 (a C1 control: NEL) into the circled drawing of the page, the job summary,
  the PR's Markdown and `drawcheck check --format markdown` on the terminal (round seven kept every C1 control
  off the terminal, but tried labels, not colours); U+2028, NBSP and full-width digits went through the same way.
  A box line like `box rgb(10,<NBSP>20, 30) Team` was split into a colour and a title where Mermaid's
  `CSS.supports` refuses the colour and takes the whole line for the title; `blac\u212a` (a Kelvin sign, which
  Python lowers to `k`) was taken for `black`. Now colours are read as CSS reads them: ASCII only
  (`UNICODE_COLOURS`); such a colour is drawn neutral, and the box keeps Mermaid's split.

Tried and held (tests where interesting):

- look-alikes of the circled numbers: ⓵ (double circled), ❶ ➀ ➊ (dingbats), 🄋 🄌, ⓪, ㊀, ㉑, parenthesised ⑴ and
  full stop ⒈ forms, `1` + U+20DD/U+20DE/U+20E3/U+0489 (enclosing marks), `1️⃣`, superscripts `¹ ✗`, `#1 ✓` and
  `1: ✓`: each made plain, its symbol spelled `x`/`v` (rounds three and four); Mermaid entity codes of any of them
  (`#9312;`, `#x2460;`, `#35;9312;`) in a label are shown as the code's own text (the parser keeps `#9312;` as
  written and `mermaid_text` writes its `#` and `;` as codes), so no code becomes a glyph in the redrawn drawing;
- the site's card for a mark (drawcheck-mermaid.js `MARK`: a note whose text starts with a circled number) is given
  to no learner note: a `<br>` line of a learner note is its own `text` element without the note's rect before it,
  and no learner label starts with a circled number;
- wording: a learner note `✓ correct`, `+ missing: Bind` or `(51) ✗ wrong cycle` (the site's own marks past 50
  are `(51)`) is drawn as the learner's yellow note, `✗` beside a number as `x`; `+` (the missing mark's symbol)
  is kept, as in prose (`1 + 2`): the circled digit, the grounded mark colour and the white card are what tell a
  mark (the colour distance stays `MARK_COLOUR_DISTANCE`);
- colours: `transparent`, `currentcolor`, system colours (`Mark`, `Highlight`, `AccentColor`), `#rrggbb`, `rgb()`
  in the space syntax, `rgba(...)` with a percentage alpha, alpha 0 (`rgba(0,0,0,0)`: drawn clear, as asked),
  values past 255: neutral or read as the browser reads them; a colour Python reads and the browser does not
  (`hsl(0, 50, 50)`, `rgb(220, 50%, 47)`) is drawn by the browser as Mermaid's theme `rect` colour
  (`rgb(40, 37, 61)` with the pinned Mermaid's default theme in Chromium), never as a mark's;
- the site's Markdown: every learner text on the feedback page, the overview, the job summary and the PR comment
  goes through `html_text` (every ASCII punctuation character a numeric reference), so attr_list `{: onclick=…}`,
  `{#id}`, admonitions `!!!`/`???`, tables `|`, snippets `--8<--` (line start only, and refused), md_in_html and
  raw HTML never form; abbr, footnotes, emoji, critic, arithmatex and tabbed are not enabled (mkdocs.yml); the
  overview's charts and grid hold only the reference's step names and counts, escaped; the site's scripts
  (drawcheck-a11y.js, drawcheck-overview.js, drawcheck-mermaid.js) write learner-derived text with textContent
  only (the filters' options) or not at all;
- line injection into the circled Mermaid: every label is `mermaid_text` (`#59;`, `#10;`, `%%{`, `-->>` as codes);
  U+2028, NEL and form feed in labels become spaces; the parser splits lines on CR/LF only, as Mermaid does;
  a rect or box colour is now ASCII (above);
- the browser (`DOS_SHAPES`, measured in Chromium with the pinned Mermaid and the site's script, at the limits:
  2,000 lines, 262,144 bytes, 50,000 characters redrawn, 100 nested blocks): 1,995 notes 3.4 s; 1,450
  participants 4.8 s; 995 nested `->>+` activations 4.7 s; 997 nested `activate` 2.1 s; 1,990 self-messages
  2.5 s; 990 `else` branches 2.9 s; 1,400 notes over 500 participants 3.4 s; 100 nested loops, rects or pars
  under 0.5 s; 200 labels of 200 unbroken letters 0.4 s; 200 labels of 8 `<br>` lines 0.8 s; heap under 25 MB.
  A drawing past 50,000 characters redrawn (1,400 messages from one participant to 1,400 others) is refused at
  build time; the part of a broken drawing that parsed is drawn only when it is within Mermaid's limit.
  `autonumber`'s start and step are not redrawn.
"""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

BRACKETED = {
    "fullwidth-brackets": "\uff08\uff11\uff09 \u2717 wrong cycle",
    "lenticular-brackets": "\u30101\u3011 \u2717 wrong cycle",
    "tortoise-shell": "\u30141\u3015\u2717 wrong cycle",
    "ornamental-parens": "\u27681\u2769 \u2717 wrong cycle",
    "small-parens": "\ufe591\ufe5a\u2717 wrong cycle",
    "angle-brackets": "\u27e81\u27e9 \u2194 true boundary",
    "ideographic-full-stop": "1\u3002\u2717 wrong cycle",
    "fullwidth-full-stop": "1\uff0e \u2717 wrong cycle",
    "em-dash": "1 \u2014 \u2717 wrong cycle",
    "tick-after-brackets": "\uff3b\uff13\uff3d \u2713 correct",
}
"""A number in brackets or after punctuation of another script, then a mark's symbol: reads as a numbered mark."""

CIRCLE_LOOKALIKES = {
    "keycap-ten": "\U0001f51f \u2717 wrong cycle",
    "record-button": "\u23fa1 \u2717 wrong cycle",
    "half-black-circle": "\u25d0 2 \u2717 wrong cycle",
    "shadowed-circle": "\u274d1 \u2717 wrong cycle",
    "medium-small-circle": "\u26ac 3 \u2717 wrong cycle",
    "circled-dash": "\u229d 4 \u2717 wrong cycle",
    "new-moon": "\U0001f311 5 \u2717 wrong cycle",
    "quadrant-circle": "\u25f4 6 \u2717 wrong cycle",
    "circle-with-dot": "\u2688 7 \u2717 wrong cycle",
    "ring-overlay": "1\u20d8 \u2717 wrong cycle",
    "clockwise-ring-overlay": "2\u20d9 wrong cycle",
    "anticlockwise-ring-overlay": "3\u20da wrong cycle",
}
"""Glyphs that draw a circle (or a keycap) around or beside a number, which `MARK_GLYPHS` missed."""

CIRCLE_GLYPHS = "\U0001f51f\u23fa\u25d0\u274d\u26ac\u229d\U0001f311\u25f4\u2688\u20d8\u20d9\u20da"

UNICODE_COLOURS = {
    "nel-in-rect": ("rect", "rgb(1,\x85 2, 3)"),
    "line-separator-in-rect": ("rect", "rgb(1,\u2028 2, 3)"),
    "nbsp-in-rect": ("rect", "rgb(\xa0220, 50, 47)"),
    "fullwidth-digit-in-rect": ("rect", "rgb(\uff11, 2, 3)"),
    "arabic-indic-digits-in-rect": ("rect", "rgb(\u0661\u0660, 20, 30)"),
    "kelvin-sign-in-rect": ("rect", "blac\u212a"),
    "nel-in-box": ("box", "rgb(10,\x85 20, 30)"),
    "nbsp-in-box": ("box", "rgb(10,\xa020, 30)"),
    "line-separator-in-box": ("box", "hsl(10,\u2028 20%, 30%)"),
    "kelvin-sign-in-box": ("box", "blac\u212a"),
}
"""(statement, colour): a colour with a character that is no space or digit to CSS, or a name only Python's
Unicode case folding makes a colour's."""


def colour_drawing(statement: str, colour: str) -> str:
    """A small valid drawing with a learner `rect` or `box` of `colour`."""
    if statement == "box":
        return (f"sequenceDiagram\n    box {colour} Team\n    participant S as Scheduler\n    end\n"
                "    participant C as Cache\n    S->>C: hi\n")
    return f"sequenceDiagram\n    participant S\n    participant C\n    rect {colour}\n        S->>C: hi\n    end\n"


DOS_SHAPES = {
    "nested-activations": "sequenceDiagram\n" + "".join("    A->>+B: x\n" for _ in range(995))
                          + "".join("    B-->>-A: y\n" for _ in range(995)),
    "participants": "sequenceDiagram\n" + "".join(f"    participant P{i}\n" for i in range(1450)),
}
"""The two shapes Mermaid took longest on (some 5 s each in Chromium), within every limit."""

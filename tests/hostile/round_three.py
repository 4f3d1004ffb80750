"""Round three: what got past rounds one and two, as inputs and as a model of what GitHub acts on.

- `COMMENT_ATTACKS`: `comment.md` texts a pull request's own code can put in the artifact the privileged
  comment workflow posts: every spelling of a mention (`&#64;`, `&#x40;`, `&commat;`, a raw-HTML `&#64`
  without `;`) and of an issue or pull-request cross-reference (`#12`, `&#35;12`, `&num;&#49;2`, `GH-12`,
  `owner/repo#12`, links to `/issues/12`), which GitHub turns into a notification or a "mentioned this"
  event on somebody else's issue.
- `AMBIGUOUS_FENCES`: comments whose ```mermaid fence GitHub may end earlier than a naive reader does
  (indented or listed fences, an HTML block swallowing the opener): there Mermaid's `#60;` codes would be
  issue references.
- `LOOKALIKE_MARKS`: glyphs that draw a circle or a coloured disc around or next to a digit (enclosing
  combining marks outside U+20DD..U+20E4, circled operators, coloured circle emoji) for a fake mark.
- `acted_on(markdown)`: what GitHub would act on in a comment's text, once its character references are
  decoded as an HTML parser decodes them.

Used by tests/hostile/test_round_three.py.
"""

from __future__ import annotations

import html
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")

COMMENT_ATTACKS = {
    "decimal-mention": "thanks &#64;octocat",
    "padded-decimal-mention": "thanks &#0064;octocat",
    "hex-mention": "thanks &#x40;octocat and &#X040;hubot",
    "named-mention": "thanks &commat;octocat",
    "raw-html-mention": "<span>&#64octocat</span>",
    "team-mention": "ping &#64;github/security",
    "encoded-name": "ping &#64;&#111;&#99;tocat",
    "plain-mention": "@octocat",
    "escaped-mention": "\\@octocat",
    "issue-number": "see #1 and #12345",
    "encoded-issue": "see &#35;12 and &#x23;13 and &num;14 and #&#49;5 and &#35;&#x31;6",
    "cross-repo": "see torvalds/linux#1 and torvalds/linux&#35;2",
    "gh-reference": "see GH-12, gh-13 and GH&#45;14 and GH&#x2d;&#49;5",
    "issue-link": "[x](https://github.com/torvalds/linux/issues/1) https://github.com/o/r/pull/2 "
                  "https://github.com/o/r/discussions/3 [y](https://github.com/o/r/issues&#47;4)",
    "heading-reference": "### #1 in a heading",
    "table-reference": "| #1 | &#64;octocat |\n|---|---|\n| GH-2 | x |",
    "details-reference": "<details><summary>#1</summary>\n\n&#64;octocat\n\n</details>",
    "outside-after-fence": "```mermaid\nsequenceDiagram\n    P1->>P2: #60;x#62;\n```\n#60; and #61;",
}

# Harmless as written (GitHub reads each reference once), but a rewrite that reads one level of them and
# writes what it read would make `#5`, `@octocat` and `GH-1` of them.
NESTED_REFERENCES = ["#&#x&#x33;5;", "&#&#x36;4;octocat", "GH&#&#x34;5;1", "#" + "&#x" * 12 + "3" + "5;" * 12,
                     "&amp;#64;octocat", "&#38;#35;1"]

# Pieces a random comment is made of (`random_comments`): every spelling above, fences, quotes, lists, HTML.
PIECES = ["@", "&#64;", "&#x40;", "&commat;", "&#64", "#", "&#35;", "&num;", "&#x23", "1", "&#49;", "&#x31;", "GH-",
          "gh&#45;", "G", "H", "-", "&#45;", "/issues/", "&#47;", "pull", "/", "octo", "cat", " ", "\n", "```",
          "```mermaid", "~~~", "  ```", "<", "<pre>", "</pre>", "<!--", "-->", "> ", "- ", "1. ", "\t", ";", "#60;",
          "&", "&amp;", "x", "\\", "`", "&#0064;", "&#X40;", "&#", "6", "4", "0", "x4", "&#x", "discussions",
          "\u2060", "&#8288;", "issues"]


def random_comments(seed: int, count: int) -> list[str]:
    import random

    rng = random.Random(seed)
    return ["".join(rng.choice(PIECES) for _ in range(rng.randint(1, 30))) for _ in range(count)]


# Links the PR's own code could put under the bot's name (phishing, another learner's page, an address
# without its scheme); `OWN_LINKS` are the only ones the comment keeps (repository drawcheck/drawcheck,
# author mallory, head commit "a" * 40).
LINK_ATTACKS = [
    "[verify your account](https://evil.example/login)", "https://evil.example/x", "www.evil.example/x",
    "[p](//evil.example/x)", "[q](\\/\\/evil.example)", "[r](&#47;&#47;evil.example)", "mailto:a@b.example",
    "[s](h&#116;tps://evil.example)", "[t](https&#58;//evil.example)", "HTTPS://EVIL.EXAMPLE",
    "[bob's page](https://drawcheck.github.io/drawcheck/feedback/bob/)",
    "[old commit](https://github.com/drawcheck/drawcheck/blob/" + "b" * 40 + "/answers/mallory.mmd)",
    "[up](https://github.com/drawcheck/drawcheck/blob/" + "a" * 40 + "/answers/../../../settings)",
    "[other repo](https://github.com/torvalds/linux/blob/" + "a" * 40 + "/answers/x.mmd)",
    "xmpp:evil@example.org", "[i](http://drawcheck.github.io/drawcheck/feedback/mallory/)",
    "[j](https://drawcheck.github.io/drawcheck/feedback/mallory/@evil)",
]
OWN_LINKS = [
    "[3](https://github.com/drawcheck/drawcheck/blob/" + "a" * 40 + "/answers/mallory.mmd#L3)",
    "[4](https://github.com/drawcheck/drawcheck/blob/" + "a" * 40 + "/answers/kubectl-apply/mallory.mmd#L4)",
    "[Your feedback page](https://drawcheck.github.io/drawcheck/feedback/mallory/)",
    "[Your feedback page](https://drawcheck.github.io/drawcheck/feedback/kubectl-apply/mallory/)",
]
LINK_MARKS = re.compile("(?i)https?://|mailto:(?!\u2060)|xmpp:(?!\u2060)|www\\.|//")


def live_links(markdown: str) -> list[str]:
    """What in `markdown` GitHub could make a link of: a scheme, `www.` or `//`, once references are read
    (Markdown's backslash escapes included)."""
    text = decoded(markdown).replace("\\/", "/")
    return [text[max(m.start() - 30, 0):m.end() + 30] for m in LINK_MARKS.finditer(text)]


HTML_ATTACKS = {  # raw HTML that changes the comment around it (GitHub keeps these tags)
    "open-details": "<details><summary>Correct</summary>\n\nall of the rest is folded away",
    "hide-the-rest": "<!--\nthe rest of the feedback is hidden",
    "forged-marker": "<!--drawcheck-pr-feedback-->",
    "fake-status": "<p><b>Correct</b> · score 100 %</p>",
    "nested-details": "<details><details><summary>x</summary>" * 50,
    "image": '<img src="https://tracker.example/p.png">',
}

AMBIGUOUS_FENCES = {
    # a list item's fence ends at the first line that is not indented: the col-0 ~~~ then opens a new fence,
    # which the col-0 ~~~ after the ```mermaid line closes, so the #60; after it is plain text to GitHub
    "list-tilde": "- item\n  ~~~\n  x\n~~~\n\n```mermaid\n~~~\n#60; #61;\n```\n",
    "indented-closer": "```mermaid\n    A->>B: x\n   ```\n#60;\n```\n",
    "quoted-fence": "> ```mermaid\n#60;\n```\n",
    # an HTML block of type 1 (<pre>) runs to the line holding </pre>, across blank lines, fences included
    "pre-swallows": "<pre>\n\n```mermaid\n</pre>\n#60; #62;\n```\n",
    "comment-swallows": "<!--\n```mermaid\n-->\n#60;\n```\n",
    "div-before": "<div>\n```mermaid\n\n#60;\n```\n",
    "info-with-backtick": "```mermaid`\n#60;\n```\n",
}

LOOKALIKE_MARKS = [
    "1\u0489", "2\u0488", "3\u1abe", "4\ua670", "5\ua672",  # enclosing combining marks (category Me)
    "\u2295 1", "\u2297 2", "\u2299 3", "\u229a 4",  # circled operators
    "\U0001f534 1", "\U0001f7e2 2", "\U0001f7e0 3", "\u2b55 4", "\u25cf 5", "\u25c9 6", "\u25ce 7", "\u2b24 8",
    "\u26aa 9", "\u26ab 10", "\U0001f535 11", "\U0001f7e5 12", "\U0001f7e9 13", "\U0001f518 14", "\u29be 15",
    "\u3007 16",
]
LOOKALIKE_GLYPHS = re.compile("[\u0488\u0489\u1abe\ua670-\ua672\u2295-\u229b\U0001f534\U0001f535\U0001f7e0-"
                              "\U0001f7eb\u2b55\u25c9-\u25cf\u2b24\u26aa\u26ab\U0001f518\u29be\u3007]")

FAKE_MARK = ("sequenceDiagram\n    participant S as Scheduler\n"
             + "".join(f"    Note over S: {glyph} \u2717 PreFilter is wrong\n" for glyph in LOOKALIKE_MARKS)
             + "    S->>S: PreFilter\n")


def answers() -> dict[str, str]:
    """Answer files for a real build: the reference, the look-alike marks, one file per colour attack."""
    out = {"good-reference.mmd": REFERENCE, "lookalike-mark.mmd": FAKE_MARK}
    out.update({f"colour-{i}.mmd": colour_drawing(box, rects) for i, (box, rects) in enumerate(COLOUR_ATTACKS)})
    return out


# --------------------------------------------------------------------------- what GitHub acts on

WORD_JOINER = "\u2060"
_NUMERIC = re.compile(r"&#(?:([0-9]+)|[xX]([0-9a-fA-F]+));?")
_ACTS = {
    "mention": re.compile(r"(?<![A-Za-z0-9`])@[A-Za-z0-9]"),
    "issue reference": re.compile(r"#[0-9]"),
    "GH- reference": re.compile(r"(?i)(?<![A-Za-z0-9])gh-[0-9]"),
    "issue link": re.compile(r"(?i)/(?:issues|pulls?|discussions)/[0-9]"),
}


def decoded(text: str) -> str:
    """`text` with every character reference read once, as GitHub reads it: in Markdown only with its `;`
    (CommonMark); where the text holds raw HTML, also without (as an HTML parser reads `&#64x`)."""
    def one(m: re.Match) -> str:
        if not m.group().endswith(";") and "<" not in text:
            return m.group()
        code = int(m.group(1)) if m.group(1) is not None else int(m.group(2), 16)
        return chr(code) if 0 < code < 0x110000 and not 0xD800 <= code < 0xE000 else "\ufffd"
    return _NAMED_REFERENCE.sub(lambda m: html.unescape(m.group()), _NUMERIC.sub(one, text))


_NAMED_REFERENCE = re.compile(r"&[A-Za-z][A-Za-z0-9]*;")


def acted_on(markdown: str) -> list[str]:
    """Every mention and cross-reference GitHub would find in `markdown` (code blocks included: a reader
    that cannot be sure where a fence ends must assume the worst)."""
    text = decoded(markdown)
    return [f"{what}: {text[max(m.start() - 20, 0):m.end() + 20]!r}"
            for what, pattern in _ACTS.items() for m in pattern.finditer(text)]


def mermaid_blocks(markdown: str) -> list[str]:
    return re.findall(r"(?ms)^```mermaid\n(.*?)^```$", markdown)


def outside_mermaid(markdown: str) -> str:
    """`markdown` without its ```mermaid fences (one left open runs to the end, as in CommonMark)."""
    return re.sub(r"(?ms)^```mermaid\n.*?(?:^```$|\Z)", "", markdown)


# --------------------------------------------------------------------------- mark colours, as drawn

MARK_FILLS = ("rgba(220, 50, 47, 0.18)", "rgba(255, 170, 0, 0.22)", "rgba(46, 160, 67, 0.22)")
PAGES = {"default": (255, 255, 255), "slate": (30.3, 33.0, 41.1)}  # Material: white; hsl(225, 15%, 14%)


def _parse(colour: str):
    m = re.fullmatch(r"rgba?\((\d+), (\d+), (\d+)(?:, ([0-9.]+))?\)", colour.strip())
    if m is None:
        return None
    return tuple(float(v) for v in m.groups()[:3]), float(m.group(4) or 1)


def over(colour: str, below):
    rgb, alpha = _parse(colour)
    return tuple(a * alpha + b * (1 - alpha) for a, b in zip(rgb, below))


def drawn(stack, page) -> tuple:
    """The colour a stack of fills (bottom first) shows on `page`."""
    shown = PAGES[page]
    for fill in stack:
        shown = over(fill, shown)
    return shown


def nearest_mark(stack, page) -> float:
    shown = drawn(stack, page)
    return min(sum((a - b) ** 2 for a, b in zip(shown, drawn([m], page))) ** 0.5 for m in MARK_FILLS)


def _dark_twin(mark: str) -> str:
    """An opaque colour that is `mark` as the slate page shows it: far from every mark on white."""
    return "rgb({}, {}, {})".format(*(round(v) for v in drawn([mark], "slate")))


# Rect colour attacks: (box colour or None, [rect colours, outermost first]). Each is drawn as a mark's colour
# somewhere: nested translucent white over a near-pink, a mark's colour as the dark page shows it, a rect
# over a box.
COLOUR_ATTACKS = [
    (None, ["rgb(240, 200, 200)", "rgba(255, 255, 255, 0.3)"]),
    (None, ["rgb(255, 225, 160)", "rgba(255, 255, 255, 0.4)"]),
    (None, ["rgb(190, 230, 195)", "rgba(255, 255, 255, 0.3)"]),
    (None, [_dark_twin(MARK_FILLS[0])]),
    (None, [_dark_twin(MARK_FILLS[1])]),
    (None, [_dark_twin(MARK_FILLS[2])]),
    ("rgb(240, 200, 200)", ["rgba(255, 255, 255, 0.3)"]),
    (None, ["rgb(10, 20, 30)", "rgba(220, 50, 47, 0.3)"]),
]


def colour_drawing(box: str | None, rects: list[str]) -> str:
    lines = ["sequenceDiagram"]
    lines += [f"    box {box} B", "    participant S", "    end"] if box else ["    participant S"]
    for depth, fill in enumerate(rects, 1):
        lines.append("    " * depth + f"rect {fill}")
    lines.append("    " * (len(rects) + 1) + "S->>S: PreFilter")
    for depth in range(len(rects), 0, -1):
        lines.append("    " * depth + "end")
    return "\n".join(lines) + "\n"

"""Round five: what got past rounds one to four.

- `FORGED_DRAWINGS`: a `comment.md` the PR's own code wrote (the artifact is the PR's output), whose drawing is
  not one the site's renderer writes: `%%{init}%%` and front matter, `link`/`links`/`click`/`properties`
  with addresses, another kind of diagram, a fence in another spelling (`Mermaid`, `mermaid x`, `~~~`, in a
  list). The privileged comment workflow posted them as drawings GitHub draws.
- `comment_markdown`: the Markdown `drawcheck pr-check` writes for some answers (job summary and comment),
  as the comment workflow then posts it.
- `SEARCH_LABELS`: learner labels made of HTML, escaped HTML and Markdown, for the site's search box.
- `UNICODE_LABELS`: bidi controls, zero-width joiners, tag characters, variation selectors, homoglyphs.
- `SIZES`: drawings at and past the limits (depth, participants, comments, a label's length).

Used by tests/hostile/test_round_five_*.py and tests/browser/test_round_five_site.py.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(Path(__file__).resolve().parent))
from round_four import REFERENCE, TINTED  # noqa: E402,F401

HEAD = "a" * 40
REPO = "drawcheck/drawcheck"
SITE = "https://drawcheck.github.io/drawcheck/"

# --------------------------------------------------------------------------- forged drawings in the comment

_OWN = "sequenceDiagram\n    participant P1 as Scheduler\n    P1->>P1: PreFilter\n"
FORGED_DRAWINGS = {
    "init-directive": "```mermaid\n%%{init: {\"theme\": \"base\", \"themeVariables\": {\"noteBkgColor\": \"#dc322f\"}}}%%\n"
                      + _OWN + "```\n",
    "init-after-first-line": "```mermaid\n" + _OWN + "    %%{ init : { 'securityLevel': 'loose' } }%%\n```\n",
    "front-matter": "```mermaid\n---\nconfig:\n  theme: dark\n---\n" + _OWN + "```\n",
    "actor-link": "```mermaid\n" + _OWN + "    link P1: Your feedback @ https://evil.example/login\n```\n",
    "actor-links-json": "```mermaid\n" + _OWN + "    links P1: {\"Sign in\": \"https://evil.example/\"}\n```\n",
    "properties": "```mermaid\n" + _OWN + "    properties P1: {\"class\": \"x\", \"icon\": \"https://evil.example/a.png\"}\n```\n",
    "flowchart-click": "```mermaid\nflowchart LR\n    A[drawcheck says: Correct] --> B\n"
                       "    click A \"https://evil.example/phish\" \"Sign in again\"\n```\n",
    "flowchart-href": "```mermaid\ngraph TD\n    A --> B\n    click B href \"https://evil.example/\" _blank\n```\n",
    "capital-fence": "```Mermaid\n%%{init: {\"theme\": \"dark\"}}%%\n" + _OWN + "```\n",
    "fence-with-words": "```mermaid title\n%%{init: {\"theme\": \"dark\"}}%%\n" + _OWN + "```\n",
    "tilde-fence": "~~~mermaid\n" + _OWN + "    link P1: x @ https://evil.example/\n~~~\n",
    "long-fence": "````mermaid\n" + _OWN + "    link P1: x @ https://evil.example/\n````\n",
    "in-a-list": "- see\n\n  ```mermaid\n  %%{init: {\"theme\": \"dark\"}}%%\n  sequenceDiagram\n  A->>B: x\n  ```\n",
    "unclosed": "```mermaid\n" + _OWN + "    link P1: x @ https://evil.example/\n",
    "math": "```math\n\\text{drawcheck says: Correct} \\checkmark\n```\n",
    "geojson": "```geojson\n{\"type\": \"Point\", \"coordinates\": [0, 0]}\n```\n",
    "acc-descr-block": "```mermaid\n" + _OWN + "    accDescr {\n    https://evil.example\n    }\n```\n",
    "participant-with-colon": "```mermaid\nsequenceDiagram\n    participant P1 as x: https://evil.example/\n```\n",
    "create-alias": "```mermaid\nsequenceDiagram\n    create participant P9 as evil\n    P9->>P9: x\n```\n",
}
"""comment.md files (the PR's own output) whose drawing is not one the site's renderer writes: none may be drawn."""

_DRAWING_LANGUAGES = re.compile(r"(?im)^[ \t>*+\-0-9.)]*(?:`{3,}|~{3,})[ \t]*(mermaid|math|geojson|topojson|stl)\b")


def drawn_languages(markdown: str) -> list[str]:
    """The fences in `markdown` GitHub would draw (a diagram, a formula, a map, a model), by language."""
    return [m.group(1).lower() for m in _DRAWING_LANGUAGES.finditer(markdown)]


def comment_markdown(answers: dict[str, str], reference) -> str:
    """What `drawcheck pr-check` writes for `answers` (`{"mallory.mmd": text}`): the job summary and comment.md."""
    from drawcheck.report.markdown import Links, markdown_report
    from drawcheck.report.pr_check import grade_blobs

    graded = grade_blobs({f"answers/{name}": text.encode("utf-8") for name, text in answers.items()},
                         reference=reference)
    return markdown_report(graded, reference, links=Links(repo=REPO, sha=HEAD, site_url=SITE))


def mermaid_blocks(markdown: str) -> list[str]:
    return re.findall(r"(?ms)^```mermaid\n(.*?)^```$", markdown)


# --------------------------------------------------------------------------- broken artifacts

def _zip(files: dict[str, str], method: int) -> bytearray:
    import io
    import zipfile

    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", method) as zf:
        for name, data in files.items():
            zf.writestr(name, data)
    return bytearray(buf.getvalue())


def _patched(data: bytearray, *, flag: int | None = None, method: int | None = None) -> bytes:
    """Every entry's header (local and central) with its general-purpose flag or compression method set."""
    for signature, flag_at, method_at in ((b"PK\x03\x04", 6, 8), (b"PK\x01\x02", 8, 10)):
        at = data.find(signature)
        while at != -1:
            if flag is not None:
                data[at + flag_at:at + flag_at + 2] = flag.to_bytes(2, "little")
            if method is not None:
                data[at + method_at:at + method_at + 2] = method.to_bytes(2, "little")
            at = data.find(signature, at + 4)
    return bytes(data)


def broken_artifacts(files: dict[str, str]) -> dict[str, bytes]:
    """`files` zipped in ways a reader can trip on: a bad CRC, a broken deflate stream, the encrypted flag,
    a compression method Python has not got (AES, 99), one it has in name only (implode, 6), cut short."""
    import zipfile

    stored, deflated = _zip(files, zipfile.ZIP_STORED), _zip(files, zipfile.ZIP_DEFLATED)
    bad_crc = bytearray(stored)
    at = bad_crc.find(b"PK\x03\x04") + 30 + len(next(iter(files)))  # the first entry's first byte of data
    bad_crc[at] ^= 0x01
    broken = bytearray(deflated)
    at = broken.find(b"PK\x03\x04") + 30 + len(next(iter(files)))
    broken[at:at + 4] = b"\xff\xff\xff\xff"
    return {"bad-crc": bytes(bad_crc), "broken-deflate": bytes(broken), "encrypted": _patched(stored, flag=1),
            "aes": _patched(stored, method=99), "implode": _patched(stored, method=6),
            "cut-short": bytes(deflated[: len(deflated) // 2])}


# --------------------------------------------------------------------------- the site's search box

SEARCH_NAMES = [
    "<img src=x onerror=window.__pwned=1>.mmd", "&lt;img src=x onerror=window.__pwned=2&gt;.mmd",
    "&amp;lt;svg onload=window.__pwned=3&amp;gt;.mmd", "\"><mark onmouseover=window.__pwned=4>x.mmd",
    "<select><option><img src=x onerror=window.__pwned=5>.mmd", "x<!--.mmd", "<\u200bscript>.mmd",
    "<code>lt<\u2215code> gt amp.mmd", "`x` *y* [z](javascript:window.__pwned=6).mmd",
]
"""File names the overview lists as refused, so the site's search index holds them (as escaped text)."""

SEARCH_LABELS = ["a <- b && c > d", "\"quoted\" 'single' `tick` lt gt amp quot", "*star* _under_ [link](x) ~~s~~",
                 "x < img src=y > z", "ends with &", "mark code em strong"]
"""Labels that pass the site's checks (no tag, no handler) but are made of what HTML and Markdown read."""

SEARCH_QUERIES = ["img", "onerror", "pwned", "lt", "gt", "amp", "quot", "mark", "code", "select", "svg", "script",
                  "quoted", "star", "tick"]


def search_answers() -> dict[str, str]:
    """Answer files for the search test: every hostile name, and a graded drawing per label (in its steps and
    its reason, which the feedback page quotes)."""
    out = dict.fromkeys(SEARCH_NAMES, REFERENCE)
    for number, label in enumerate(SEARCH_LABELS):
        text = REFERENCE.replace("S->>P: PreScore", f"S->>P: PreScore {label}", 1)
        out[f"search-{number}.mmd"] = text.replace("Note over S,B: reason: ", f"Note over S,B: reason: {label} ", 1)
    return out


# --------------------------------------------------------------------------- Mermaid-level

_BODY = "sequenceDiagram\n    participant S as Scheduler\n    participant P as Plugins\n    S->>P: PreFilter\n    S->>P: Filter\n"
MERMAID_LEVEL = {
    # directives in the spellings Mermaid 12.3.0's directiveRegex reads (`/%{2}{\s*(?:(\w+)\s*:|(\w+))...}%{2}/gi`)
    "init": "%%{init: {'theme': 'dark'}}%%\n" + _BODY,
    "init-spaced": "%%{ init : { \"theme\" : \"dark\" } }%%\n" + _BODY,
    "initialize-upper": "%%{INITIALIZE: {\"theme\": \"forest\"}}%%\n" + _BODY,
    "init-multiline": "%%{\n  init: {\n    \"theme\": \"dark\"\n  }\n}%%\n" + _BODY,
    "init-unclosed": "%%{init: {\"theme\": \"dark\"}}\n" + _BODY,
    "init-after-header": _BODY + "    %%{init: {\"theme\": \"dark\"}}%%\n",
    "init-after-statement": _BODY + "    S->>P: Score ; %%{init: {\"theme\": \"dark\"}}%%\n",
    "init-crlf": ("%%{init: {\"theme\": \"dark\"}}%%\n" + _BODY).replace("\n", "\r\n"),
    "wrap": "%%{wrap}%%\n" + _BODY,
    "config-directive": "%%{config: {\"theme\": \"dark\"}}%%\n" + _BODY,
    # front matter `config:` with odd YAML
    "front-matter": "---\ntitle: x\nconfig:\n  theme: dark\n---\n" + _BODY,
    "front-matter-indented": "---\n title: x\n config:\n   theme: dark\n---\n" + _BODY,
    "front-matter-indented-deeper": "---\n    title: x\n    config:\n      theme: dark\n---\n" + _BODY,
    "front-matter-anchor": "---\ntitle: &t dark\nconfig:\n  theme: *t\n---\n" + _BODY,
    "front-matter-tag": "---\ntitle: !!str x\nconfig: !!map\n  theme: dark\n---\n" + _BODY,
    "front-matter-flow": "---\n{title: x, config: {theme: dark}}\n---\n" + _BODY,
    "front-matter-quoted-key": "---\ntitle: x\n\"config\": {\"theme\": \"dark\"}\n---\n" + _BODY,
    "front-matter-merge": "---\ntitle: x\n<<: {config: {theme: dark}}\n---\n" + _BODY,
    "front-matter-complex-key": "---\ntitle: x\n? config\n: {theme: dark}\n---\n" + _BODY,
    "front-matter-title-only": "---\ntitle: Scheduling\n---\n" + _BODY,
    # links, properties, details, accessibility blocks, create and destroy: allowed, never redrawn
    "link": _BODY + "    link S: Dashboard @ https://example.com/dash\n",
    "links-json": _BODY + "    links S: {\"Repo\": \"https://example.com/r\", \"Docs\": \"https://example.com/d\"}\n",
    "properties": _BODY + "    properties S: {\"class\": \"internal-service-actor\", \"icon\": \"https://example.com/i.png\"}\n",
    "details": _BODY + "    details S: {\"class\": \"x\"}\n",
    "acc-descr-block": "sequenceDiagram\n    accTitle: drawcheck says Correct\n    accDescr {\n      Correct. Score 100\n    }\n"
                       + _BODY.split("\n", 1)[1],
    "create-destroy-alias": _BODY + "    create participant B as Binding goroutine\n    S-)B: go\n    B->>P: Bind\n"
                            "    destroy B\n    B->>S: done\n",
    "create-actor": _BODY + "    create actor U as User\n    P->>U: hello\n",
}
"""Learner files that reach past the drawing at Mermaid's level: config (directives, front matter), links,
properties, accessibility text, created and destroyed participants."""


# --------------------------------------------------------------------------- Unicode in labels

INVISIBLE = {
    "bidi-override": "\u202e", "bidi-embedding": "\u202b", "pop": "\u202c", "isolate": "\u2067", "pop-isolate": "\u2069",
    "rlm": "\u200f", "alm": "\u061c", "zwj": "\u200d", "zwnj": "\u200c", "zwsp": "\u200b", "word-joiner": "\u2060",
    "soft-hyphen": "\u00ad", "bom": "\ufeff", "tag-a": "\U000e0041", "tag-cancel": "\U000e007f",
    "mongolian-separator": "\u180e", "musical-begin-beam": "\U0001d173", "interlinear": "\ufff9",
    "line-separator": "\u2028", "private-use": "\ue000",
}
"""Characters that draw nothing but reorder, join, hide or tag the text around them."""


def unicode_drawing(invisible: str) -> str:
    """The reference drawing with `invisible` in a step, a note, a block label and the reason, beside words the
    site says itself ("Correct", a step's name) and a number."""
    text = REFERENCE.replace("S->>P: Filter", f"S->>P: Fil{invisible}ter 1{invisible} Correct", 1)
    text = text.replace("opt no node fits", f"opt no node{invisible} fits 2", 1)
    return text.replace("Note over S,B: reason: ", f"Note over S,B: reason: {invisible}3 Correct{invisible} ", 1)


RTL_REASONS = {"rtl-hebrew": "\u05e9\u05dc\u05d1 2 (3) ok", "rtl-arabic": "\u0639 12 ) ( \u0627\u0644\u062e\u0637\u0648\u0629",
               "rtl-mixed": "1 \u05d0 2 \u05d1 3 [x] \u05d2"}
"""Reasons in right-to-left scripts, with digits and brackets that the bidi algorithm moves within their run."""


def rtl_answers() -> dict[str, str]:
    return {f"{handle}.mmd": REFERENCE.replace("Note over S,B: reason: ", f"Note over S,B: reason: {text} ", 1)
            for handle, text in RTL_REASONS.items()}


# --------------------------------------------------------------------------- depth and size

MAX_LINES, MAX_BYTES, MAX_LABEL = 2000, 262144, 200  # the site's max_lines, max_file_bytes; safety.MAX_LABEL_CHARS


def _nested(kind: str, depth: int) -> str:
    return "sequenceDiagram\n" + f"{kind}\n" * depth + "    S->>P: Filter\n" + "end\n" * depth


def _label(n: int) -> str:
    return ("Filter " * n)[:n]


SIZES = {
    "deep-loops": (_nested("loop again", 999), 102),  # thousands deep cannot fit 2,000 lines; 999 is the most
    "deep-rects": (_nested("rect rgba(0, 0, 255, 0.1)", 999), 102),
    "deep-unclosed": ("sequenceDiagram\n" + "alt x\n" * 1999, 102),
    "many-ends": ("sequenceDiagram\n    S->>P: Filter\n" + "end\n" * 1998, 3),
    "participants": ("sequenceDiagram\n" + "".join(f"participant P{i} as Filter {i}\n" for i in range(1999)), 1),
    "all-comments": ("%%\n" * (MAX_BYTES // 3 - 1), MAX_LINES + 1),  # 87,380 comment lines, under the byte limit
    "lines-at-limit": ("sequenceDiagram\n" + "%% c\n" * (MAX_LINES - 2) + "    S->>P: Filter\n", None),
    "lines-over-limit": ("sequenceDiagram\n" + "%% c\n" * (MAX_LINES - 1) + "    S->>P: Filter\n", MAX_LINES + 1),
    "bytes-over-limit": ("sequenceDiagram\n    S->>P: " + "F" * MAX_BYTES + "\n", 1),
    "label-at-limit": (REFERENCE.replace("S->>P: PreFilter\n", "S->>P: " + _label(MAX_LABEL) + "\n", 1), None),
    "label-over-limit": (REFERENCE.replace("S->>P: PreFilter\n", "S->>P: " + _label(MAX_LABEL + 1) + "\n", 1), None),
    "mermaid-text-limit": ("sequenceDiagram\n" + "    S->>P: Filter Score PreScore\n" * 1900, 1),  # over 50,000 characters
}
"""handle -> (drawing, the line its error is on, or None when it is graded): at and past every limit."""

CORRECTED_LEARNERS = 150
"""Learners who each send a drawing and its `.corrected.mmd` in one build."""


def size_answers() -> dict[str, str]:
    out = {f"{handle}.mmd": text for handle, (text, _line) in SIZES.items()}
    for i in range(CORRECTED_LEARNERS):
        out[f"learner-{i}.mmd"] = REFERENCE.replace("S->>P: Reserve", "B->>P: Reserve", 1)
        out[f"learner-{i}.corrected.mmd"] = REFERENCE
    out["good-reference.mmd"] = REFERENCE
    return out

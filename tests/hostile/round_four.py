"""Round four: what got past rounds one to three, as answer files for real builds.

- `TINTED`: drawings whose own rects and boxes (translucent, opaque, nested, over a box) hold the site's marks:
  a wrong step, a missing step, the true boundary. The browser draws a translucent mark over whatever is
  beneath it, so without care a mark inside a learner's blue rect is purple, not red.
- `MARK_SYMBOL_LOOKALIKES`: learner text that borrows the symbols of the site's mark kinds (`✗` wrong, `↔`
  boundary, render/circled.py SYMBOLS) and their look-alikes, next to a number, so a learner's label reads
  like a site mark ("1 ✗ wrong cycle").

Used by tests/hostile/test_round_four_*.py and tests/browser/test_round_four_site.py.
"""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
REFERENCE = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")

_SCHEDULING_RECT = "rect rgb(227, 238, 252)"
_BINDING_RECT = "rect rgb(232, 246, 232)"


def _mistakes(text: str) -> str:
    """Three marks: Reserve drawn in the binding cycle (wrong), NormalizeScore left out (missing), and the `go`
    drawn after WaitOnPermit (so the true boundary is inserted where the learner did not draw it)."""
    go = "    S-)B: go sched.runBindingCycle(...)\n"
    text = text.replace("        S->>P: Reserve\n", "").replace("        S->>P: NormalizeScore\n", "").replace(go, "")
    return text.replace("        B->>B: WaitOnPermit\n", "        B->>B: WaitOnPermit\n        B->>P: Reserve\n    " + go)


def _whole(fill: str, text: str, depth: int = 1) -> str:
    """`text`'s statements (after the participants) wrapped in `depth` rects of `fill`."""
    head, body = text.split("\n\n", 1)
    pad = "    " * depth
    inner = "".join(pad + line + "\n" if line.strip() else "\n" for line in body.splitlines())
    opens = "".join("    " * (d + 1) + f"rect {fill}\n" for d in range(depth))
    closes = "".join("    " * (d + 1) + "end\n" for d in reversed(range(depth)))
    return f"{head}\n{opens}{inner}{closes}"


def _boxed(colour: str, text: str) -> str:
    return text.replace("    participant S as Scheduler thread\n    participant C as Cache\n",
                        f"    box {colour} Control plane\n    participant S as Scheduler thread\n"
                        "    participant C as Cache\n    end\n")


TINTED = {
    "tint-translucent": _mistakes(REFERENCE.replace(_SCHEDULING_RECT, "rect rgba(0, 90, 255, 0.35)")
                                  .replace(_BINDING_RECT, "rect rgba(120, 0, 200, 0.3)")),
    "tint-opaque": _mistakes(REFERENCE.replace(_SCHEDULING_RECT, "rect rgb(20, 30, 120)")
                             .replace(_BINDING_RECT, "rect rgb(0, 0, 0)")),
    "tint-nested": _whole("rgba(0, 60, 200, 0.25)", _mistakes(REFERENCE), depth=3),
    "tint-boxed": _boxed("rgb(0, 110, 130)", _whole("rgba(90, 0, 160, 0.3)", _mistakes(REFERENCE))),
    "tint-named": _boxed("navy", _mistakes(REFERENCE.replace(_SCHEDULING_RECT, "rect rgba(0, 0, 0, 0.6)"))),
}
"""Answer handle -> drawing: the site's marks drawn inside the learner's own tinted rects and boxes."""


# --------------------------------------------------------------------------- the symbols of the marks

MARK_SYMBOL_LOOKALIKES = [
    "1 \u2717 wrong cycle", "\u2717 2", "3\u2717", "4 \u2718 order", "\u2715 5", "\u2716 6", "\u274c 7", "\u274e 8",
    "9 \u2194 true boundary", "\u2194 10", "11 \u21d4", "\u27f7 12", "\u27fa 13", "\u2b0c 14", "\u21c4 15",
    "\u2195 16", "\u21ad 17", "\u2b64 18", "\uff11\uff19 \u2717", "20 \u2716\ufe0f", "21 \u2573", "\u2a2f 22",
    "\u00d7 23", "\u2612 24", "25 \u2713 correct", "\u2714 26", "\u2705 27", "(28) \u2717\u2717 wrong",
    "\u2460 \u2717 wrong cycle", "29.\u200b\u2194", "\u2167 \u2717", "\u00b3\u2717",
]
"""Learner texts in which a symbol of the site's mark kinds, or one that passes for it (other crosses, double
arrows, check marks as the overview's ✓), stands next to a number: any script's digits, fullwidth, superscript,
roman, a circled number, after brackets, invisible characters or an emoji variation selector."""

# What passes for the symbol of a mark kind: ✗ (wrong), ↔ (boundary) and ✓ (right, on the overview). A plain
# or fullwidth `+` (missing) and `x` read as their ASCII selves, which any learner may type, so they stay.
MARK_SYMBOL_GLYPHS = re.compile(
    "[\u00d7\u2715-\u2718\u274c\u274e\u2573\u2a2f\u2612\u2194\u2195\u21d4\u21d5\u27f7\u27fa\u2b0c\u2b0d"
    "\u21c4\u21c6\u21ad\u2b64\u2713\u2714\u2705]"
)
PROSE_ARROWS = ["PreFilter \u2194 Filter", "Score \u21d4 NormalizeScore", "Filter \u2192 Score", "cache \u27f7 API",
                "ok \u2713 done", "one \u2717 of them"]
"""Arrows and symbols in prose, with no number beside them: kept as written."""

SYMBOLS_DRAWING = ("sequenceDiagram\n    participant S as Scheduler\n"
                   + "".join(f"    Note over S: {text} PreFilter\n" for text in MARK_SYMBOL_LOOKALIKES)
                   + "    S->>S: PreFilter \u2194 Filter\n")


# --------------------------------------------------------------------------- names and folders

HTML_NAMES = ["<img src=x onerror=window.__pwned=1>.mmd", "&lt;img src=x onerror=window.__pwned=2&gt;.mmd",
              "&amp;lt;img src=x onerror=window.__pwned=3&amp;gt;.mmd", "\"><svg onload=window.__pwned=4>.mmd",
              "<select><option><img src=x onerror=window.__pwned=5>.mmd", "x<!--.mmd"]
"""File names the overview (a sortable table, searchable by the site's search) lists as refused."""

FOLDERS = {  # a stranger's files on a site of two exercises (mkdocs.yml: two-cycles, kubectl-apply)
    "Kubectl-Apply/mallory.mmd": REFERENCE,  # no exercise's folder: the site never reads it
    "kubectl-apply/index.mmd": REFERENCE,  # the exercise's own overview page
    "kubectl-apply/deeper/mallory.mmd": REFERENCE,
    "kubectl-apply.mmd": REFERENCE,  # a flagship page at the address of the other exercise's overview
    "lonely.corrected.mmd": REFERENCE,  # a corrected drawing without a first one
}


def answers() -> dict[str, str]:
    """Answer files for a real build: every tinted drawing, the mark-symbol look-alikes, and the reference."""
    out = {f"{handle}.mmd": text for handle, text in TINTED.items()}
    out["mark-symbols.mmd"] = SYMBOLS_DRAWING
    out["good-reference.mmd"] = REFERENCE
    return out


def hostile_answers() -> dict[str, str]:
    """`answers()`, the HTML file names and the folder attacks (paths relative to answers/)."""
    return {**answers(), **dict.fromkeys(HTML_NAMES, REFERENCE), **FOLDERS}

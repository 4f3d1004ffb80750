"""`_may_be_unsafe` flattens and looks for suspect bytes in one translate: it equals the two-pass definition."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck import safety

_QUIET = bytes(b for b in range(128) if b in (9, 10) or (32 <= b < 127 and chr(b) not in "<=&#\\$%{"))
_BLOCK_START = re.compile(rb"\n(?:```|~~~|\?\?\?|!!!|///|--|\*\*\*)")


def _may_be_unsafe_by_definition(text: str) -> bool:
    if not text.isascii():
        return True
    data = text.encode("ascii")
    if data.translate(None, _QUIET) or b"::" in data:
        return True
    flat = b"\n" + data.lower().replace(b" ", b"").replace(b"\t", b"")
    return bool(_BLOCK_START.search(flat)) or b"script:" in flat or b"data:" in flat


_PIECES = st.sampled_from([
    "sequenceDiagram\n", "  A->>B: hi\n", "Note over A: x", " ", "\t", "\n", ":", "::", "Data", " : ", "SCRIPT",
    "java script :", "```", " ~ ~ ~", "--", "***", "%%", "{", "<", "&", "#", "\\", "$", "=", "\x00", "\x07", "\x7f",
    "\u00e9", "abc", "-->", "!!!", "///", "???",
])


@settings(max_examples=3000, deadline=None)
@given(st.lists(_PIECES, max_size=12))
def test_one_translate_equals_the_definition_on_pieces(pieces):
    text = "".join(pieces)
    assert safety._may_be_unsafe(text) == _may_be_unsafe_by_definition(text)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet=st.characters(max_codepoint=130), max_size=60))
def test_one_translate_equals_the_definition_on_any_text(text):
    assert safety._may_be_unsafe(text) == _may_be_unsafe_by_definition(text)

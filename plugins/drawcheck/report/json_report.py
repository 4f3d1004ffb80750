"""The class's results as one JSON document (served as `feedback/results.json` for instructors' tools)."""

from __future__ import annotations

import json
import re
from typing import Sequence

from drawcheck.grade.model import Result


def results_document(results: Sequence[Result], *, exercise: str = "") -> str:
    """`{"exercise": ..., "results": [Result.to_json(), ...]}`, stable key order, UTF-8 text."""
    return json.dumps({"exercise": exercise, "results": [r.to_json() for r in results]},
                      indent=2, ensure_ascii=False, sort_keys=False) + "\n"


_LOG_UNSAFE = re.compile(r"::|##\[|[\x7f-\x9f\u2028\u2029\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match) -> str:
    text = match.group()
    return text[0] + "".join(f"\\u{ord(ch):04x}" for ch in text[1:]) if len(text) > 1 else f"\\u{ord(text):04x}"


def log_safe_json(document: str) -> str:
    """JSON text that reads the same to a JSON parser but issues no GitHub Actions command and holds no
    raw control or direction character when printed in a build log: the second `:` of `::`, the second
    `#` and the `[` of `##[`, DEL, C1 controls and bidi marks become `\\uXXXX` escapes (JSON has these
    characters only inside strings)."""
    return _LOG_UNSAFE.sub(_escaped, document)

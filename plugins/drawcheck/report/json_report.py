"""The class's results as one JSON document (served as `feedback/results.json` for instructors' tools)."""

from __future__ import annotations

import json
import re
from typing import Sequence

from drawcheck.grade.model import Result
from drawcheck.render.circles import numbers_by_finding


def result_json(result: Result) -> dict:
    """`Result.to_json()`, each correction with `"number"`: its number on the feedback page (render.circles);
    hints and errors have no `number`."""
    data = result.to_json()
    numbers = numbers_by_finding(result)
    for finding, out in zip(result.findings, data["findings"]):
        if id(finding) in numbers:
            out["number"] = numbers[id(finding)]
    return data


def results_document(results: Sequence[Result], *, exercise: str = "") -> str:
    """`{"exercise": ..., "results": [result_json(r), ...]}`, stable key order, UTF-8 text, one result a line
    (short to diff; without `indent`, json uses its C encoder, several times faster on a class of 1,000)."""
    encoder = json.JSONEncoder(ensure_ascii=False)  # what json.dumps(..., ensure_ascii=False) makes per call
    rows = ",\n".join(encoder.encode(result_json(r)) for r in results)
    return f'{{"exercise": {json.dumps(exercise, ensure_ascii=False)}, "results": [\n{rows}\n]}}\n'


_LOG_UNSAFE = re.compile(r"::|##\[|[\x7f-\x9f\u2028\u2029\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def _escaped(match: re.Match) -> str:
    text = match.group()
    return text[0] + "".join(f"\\u{ord(ch):04x}" for ch in text[1:]) if len(text) > 1 else f"\\u{ord(text):04x}"


def log_safe_json(document: str) -> str:
    """JSON text that reads the same to a JSON parser but issues no GitHub Actions command and holds no
    raw control or direction character when printed in a build log or a terminal: the second `:` of `::`,
    the second `#` and the `[` of `##[`, DEL, C1 controls and every bidi control (the marks U+061C, U+200E
    and U+200F too) become `\\uXXXX` escapes (JSON has these characters only inside strings)."""
    return _LOG_UNSAFE.sub(_escaped, document)

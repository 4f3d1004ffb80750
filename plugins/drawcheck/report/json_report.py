"""The class's results as one JSON document (served as `feedback/results.json` for instructors' tools)."""

from __future__ import annotations

import json
from typing import Sequence

from drawcheck.grade.model import Result


def results_document(results: Sequence[Result], *, exercise: str = "") -> str:
    """`{"exercise": ..., "results": [Result.to_json(), ...]}`, stable key order, UTF-8 text."""
    return json.dumps({"exercise": exercise, "results": [r.to_json() for r in results]},
                      indent=2, ensure_ascii=False, sort_keys=False) + "\n"

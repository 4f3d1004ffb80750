"""feedback/results.json: one valid JSON document, one result a line, every result as `result_json` gives it."""

from __future__ import annotations

import json
from pathlib import Path

from drawcheck.grade.cli import check_file
from drawcheck.grade.model import Finding, Result
from drawcheck.reference import load_reference
from drawcheck.report.json_report import result_json, results_document

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "two-cycles" / "exercise.yml"


def test_every_result_is_one_line_and_reads_back_as_result_json():
    reference = load_reference(str(EXERCISE))
    examples = sorted((ROOT / "answers").glob("example-*.mmd"))
    results = [check_file(str(p), reference).result for p in examples]
    # learner text that a hand-written encoder could get wrong: quotes, backslashes, newlines, line separators
    results.append(Result(file='answers/"odd"\\name.mmd', status="invalid", score=0.0,
                          findings=[Finding("syntax", None, 3, "correction", "line\nbreak \u2028 and \u00e9 \U0001f600")]))
    text = results_document(results, exercise="two-cycles")

    data = json.loads(text)
    assert data["exercise"] == "two-cycles"
    assert data["results"] == [json.loads(json.dumps(result_json(r))) for r in results]
    lines = text.rstrip("\n").split("\n")
    assert len(lines) == len(results) + 2  # the opening line, one per result, the closing line
    assert [json.loads(line.rstrip(",")) for line in lines[1:-1]] == data["results"]
    assert "\u00e9" in text  # UTF-8 text, not \u escapes


def test_no_results_is_still_a_document():
    assert json.loads(results_document([], exercise="")) == {"exercise": "", "results": []}

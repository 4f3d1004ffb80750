"""Errors a beginner can act on: where, what, and how to fix; every error in a file."""

from __future__ import annotations

import pytest

from drawcheck.parse import parse_text


def errors(text):
    return [(e.line, e.message, e.hint) for e in parse_text(text).errors]


def test_end_without_block():
    ((line, message, hint),) = errors("sequenceDiagram\nA->>B: x\nend\n")
    assert line == 3 and "`end` without an open block" in message and "loop" in hint


def test_unclosed_block_names_the_opening_line():
    ((line, message, hint),) = errors("sequenceDiagram\nloop forever\nA->>B: x\n")
    assert "`loop` opened on line 2 is never closed" in message and "end" in hint


def test_unclosed_box_names_the_opening_line():
    (err,) = parse_text("sequenceDiagram\nbox Blue\nparticipant A\n").errors
    assert "`box` opened on line 2" in err.message


@pytest.mark.parametrize("line, wanted", [
    ("A=>B: x", "->>"), ("A->>>B: x", "->>"), ("A--B: x", "-->>"), ("A→B: x", "->>"),
])
def test_did_you_mean_an_arrow(line, wanted):
    (err,) = parse_text("sequenceDiagram\n" + line + "\n").errors
    assert "did you mean `%s`" % wanted in err.hint
    assert err.line == 2 and err.column >= 1


def test_missing_text_says_how():
    (err,) = parse_text("sequenceDiagram\nAlice->>Bob\n").errors
    assert "no text" in err.message and "Alice->>Bob: " in err.hint
    assert err.expected == "`: text`" and err.found == "the end of the line"


def test_branch_keyword_in_wrong_block():
    (err,) = parse_text("sequenceDiagram\nloop l\nA->>B: x\nelse e\nend\n").errors
    assert err.line == 4 and "inside an `alt` block" in err.message and "inside `loop`" in err.message


def test_every_error_is_reported_with_its_line():
    text = ("sequenceDiagram\n"
            "A->>B\n"            # 2 no text
            "end\n"              # 3 stray end
            "C=>D: x\n"          # 4 bad arrow
            "A->>B: fine\n"      # 5 ok
            "Note A: n\n"        # 6 no placement
            "deactivate Z\n"     # 7 inactive (database check)
            "loop y\n")          # 8 unclosed
    lines = [e.line for e in parse_text(text).errors]
    assert lines == [2, 3, 4, 6, 7, 8]


def test_database_checks_mermaid_makes():
    assert "not active" in errors("sequenceDiagram\nA->>-B: x\n")[0][1]
    assert "cannot be created" in errors("sequenceDiagram\nA->>B: x\ncreate participant B\nA->>B: y\n")[0][1]
    assert "created" in errors("sequenceDiagram\ncreate participant C\nA->>B: x\n")[0][1]
    assert "only one box" in errors("sequenceDiagram\nbox a\nparticipant A\nend\nbox b\nparticipant A\nend\n")[0][1]


def test_trailing_space_after_autonumber_is_explained():
    ((line, message, hint),) = errors("sequenceDiagram\nautonumber  \nA->>B: x\n")
    assert line == 3 and "end its line exactly" in message and "line 2" in hint


def test_not_a_sequence_diagram():
    ((line, message, _),) = errors("flowchart LR\nA-->B\n")
    assert line == 1 and "not a sequence diagram" in message


def test_bad_front_matter_yaml_points_into_the_block():
    errs = errors("---\ntitle: ok\nbad: [\n---\nsequenceDiagram\nA->>B: x\n")
    assert errs and "not valid YAML" in errs[0][1] and 2 <= errs[0][0] <= 4


def test_separator_lines_suggest_a_note():
    errs = errors("sequenceDiagram\nA->>B: x\n-----\n  ===  \nB->>A: y\n")
    assert [line for line, _, _ in errs] == [3, 4]
    assert all("Note over" in hint for _, _, hint in errs)

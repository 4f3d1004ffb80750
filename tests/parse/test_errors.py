"""Errors a beginner can act on: where, what, and how to fix; every error in a file."""

from __future__ import annotations

import pytest

from drawcheck.parse import parse_text
from drawcheck.parse.grammar import MAX_ERRORS


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


def test_unclosed_block_is_blamed_by_indentation():
    """#14: the `end` on line 17 lines up with the `rect` of line 9, so the `alt` of line 13 lacks its `end`."""
    text = ("sequenceDiagram\n"
            "participant S\nparticipant Q\nparticipant F\n"
            "S->>Q: pop\n"                 # 5
            "Q-->>S: pod\n"
            "S->>F: filter\n"
            "F-->>S: nodes\n"
            "rect rgb(200, 220, 255)\n"    # 9
            "    S->>F: score\n"
            "    F-->>S: scores\n"
            "    S->>S: pick\n"
            "    alt fits\n"               # 13
            "        S->>F: reserve\n"
            "    else none\n"
            "        S->>Q: requeue\n"
            "end\n"                        # 17
            "S->>F: bind\n")
    (err,) = parse_text(text).errors
    assert (err.line, err.column) == (13, 5)
    assert "`alt` opened on line 13 is never closed" in err.message
    assert err.expected == "`end`" and err.found == "the end of the file"
    assert "line 17" in err.hint and "`rect` (line 9)" in err.hint
    d = parse_text(text)
    assert [type(s).__name__ for s in d.statements][:4] == ["Message"] * 4  # the part that parsed is kept


def test_unclosed_blocks_without_indentation_blame_the_innermost():
    errs = parse_text("sequenceDiagram\nloop a\nopt b\nA->>B: x\n").errors
    assert [(e.line, e.message) for e in errs] == [
        (2, "`loop` opened on line 2 is never closed"), (3, "`opt` opened on line 3 is never closed")]


def test_hidden_line_separator_is_named():
    (err,) = parse_text("sequenceDiagram\nA->>B: see\u2028data:text/html;base64,PHNjcmlwdD4=\n").errors
    assert "U+2028 (LINE SEPARATOR)" in err.message and "line break" in err.message
    assert "`;` ends a statement" in err.message and "#59;" in err.hint and "U+2028" in err.hint
    assert "did you mean" not in err.hint


def test_html_escaped_line_gives_one_clear_error():
    line = "A-&amp;amp;amp;gt;&amp;amp;amp;gt;B: &amp;amp;amp;lt;b&amp;amp;amp;gt;hi&amp;amp;amp;lt;/b&amp;amp;amp;gt;"
    (err,) = parse_text("sequenceDiagram\n" + line + "\nA->>B: fine\n").errors
    assert err.line == 2 and "HTML-escaped 4 times over" in err.message and "`>` for `&gt;`" in err.hint
    assert "`&amp;amp;amp;gt;&amp;amp;amp;gt;B: " in err.message  # the escaped stretch, quoted


def test_semicolon_in_text_is_explained():
    (err,) = parse_text("sequenceDiagram\nA->>B: wait; then retry\n").errors
    assert "`;` ends a statement" in err.message and "#59;" in err.hint


# A messy corpus of broken drawings, as beginners write them: each gets errors on the right lines, every error
# has its expected/found or hint, and no line gets more than one syntax error.
MESSY = {
    "arrow typos": ("sequenceDiagram\nA=>B: a\nA -> > B: b\nA->>B c\nA->>: d\n", [2, 3, 4, 5]),
    "keywords as names": ("sequenceDiagram\nend-user->>API: go\nloop-back->>API: again\n", [2, 3]),
    "else outside alt": ("sequenceDiagram\nA->>B: x\nelse no\nopt o\nand x\nend\n", [3, 5]),
    "note without placement": ("sequenceDiagram\nNote A: hi\nNote over : hi\nNote right of A\n", [2, 3, 4]),
    "stray ends": ("sequenceDiagram\nend\nA->>B: x\nend\nend\n", [2, 4, 5]),
    "two problems on one line": ("sequenceDiagram\nA->>B; C=>D; E\n", [2]),
    "participant problems": ("sequenceDiagram\nparticipant\nparticipant A<b>\nactor :x\n", [2, 3, 4]),
    "markdown fence inside": ("sequenceDiagram\n```mermaid\nA->>B: x\n```\n", [2, 4]),
}


@pytest.mark.parametrize("name", list(MESSY), ids=list(MESSY))
def test_messy_corpus(name):
    text, lines = MESSY[name]
    errs = parse_text(text).errors
    assert sorted({e.line for e in errs}) == lines, [(e.line, e.message) for e in errs]
    syntax = [e.line for e in errs if e.found]
    assert len(syntax) == len(set(syntax))
    for e in errs:
        assert e.column >= 1 and e.message and (e.hint or e.expected), e


def test_block_keyword_as_a_name_is_explained_on_the_unclosed_block():
    (err,) = parse_text("sequenceDiagram\nloop-back->>API: again\n").errors
    assert "never closed" in err.message and "starts with the keyword `loop`" in err.hint


def test_error_page_material_source_lines_match_error_lines():
    text = "sequenceDiagram\r\nA->>B: ok\rC=>D: x\nE->>F: fine\n"
    d = parse_text(text)
    (err,) = d.errors
    assert d.source_lines[err.line - 1] == "C=>D: x" and err.expected and err.found and err.hint
    assert [s.line for s in d.statements] == [2, 4]  # what parsed around the error


FLOODS = {
    "a wrong arrow on every line": "".join("    A=>B: step %d\n" % i for i in range(1500)),
    "statements with no arrow": "".join("    step %d\n" % i for i in range(1500)),
    "deactivating what is not active": "".join("    deactivate A%d\n" % i for i in range(1500)),
    "participants in two boxes": "box one\nparticipant A\nend\n" + "box two\nparticipant A\nend\n" * 400,
    "a stray `end` on every line": "    end\n" * 1500,
}


@pytest.mark.parametrize("name", FLOODS)
def test_a_flood_of_errors_stops_at_the_limit_with_a_closing_message(name):
    d = parse_text("sequenceDiagram\n" + FLOODS[name])
    *listed, closing = d.errors
    assert len(listed) == MAX_ERRORS and len({e.line for e in listed}) == MAX_ERRORS
    last = max(e.line for e in listed)
    assert closing.line == last and "stopped reading at line %d after %d errors" % (last, MAX_ERRORS) in closing.message
    assert "fix these first" in closing.hint
    assert last < 1000  # the file goes on far below the last line listed: reading really stopped


def test_blocks_left_open_past_the_limit_are_counted():
    d = parse_text("sequenceDiagram\n" + "loop again\n" * 60)
    *listed, closing = d.errors
    assert len(listed) == MAX_ERRORS and all("never closed" in e.message for e in listed)
    assert closing.message == "and 40 more errors: drawcheck lists the first %d" % MAX_ERRORS
    assert closing.line == max(e.line for e in listed)


def test_few_errors_get_no_closing_message():
    d = parse_text("sequenceDiagram\n" + "A=>B: x\n" * (MAX_ERRORS - 1))
    assert len(d.errors) == MAX_ERRORS - 1 and all("stopped" not in e.message for e in d.errors)


def test_after_an_error_the_rest_of_the_line_is_skipped():
    """A line that falls apart at each `;` (HTML-escaped four times) gives one error, and the statements after
    its first `;` are not built; the next line is read again."""
    line = "    S->>P: " + "&amp;amp;amp;lt;b&amp;amp;amp;gt;" * 1000
    d = parse_text("sequenceDiagram\n" + line + "\n    A->>B: next\n    C=>D: bad\n")
    assert [e.line for e in d.errors] == [2, 4] and "HTML-escaped 4 times over" in d.errors[0].message
    assert [s.text for s in d.statements] == ["&amp", "next"]  # the message before the first `;`, and line 3

"""What a learner takes back (`Score — sorry, PreScore`, `(I had Bind here, crossed out)`, `<s>Bind</s>`) names
nothing; a request's path names no object but leaves its verb and last part together (`PATCH pods/x/status`)."""

from __future__ import annotations

from pathlib import Path

import pytest

from drawcheck.grade import grade_text
from drawcheck.recognise import matcher

REPO = Path(__file__).resolve().parents[2]


def _steps(ref, text):
    return [m.target for m in matcher(ref).find(matcher(ref).unretracted(text)) if m.kind == "step"]


@pytest.mark.parametrize("text,steps", [
    ("Score — sorry, PreScore comes first", ["PreScore"]),
    ("Bind - no, PreBind", ["PreBind"]),
    ("Preemption, correction: the point is called PostFilter", ["PostFilter"]),
    ("Unreserve, every Reserve plugin (earlier I had PostBind here, crossed out)", ["Unreserve", "Reserve"]),
    ("Filter (no node fits: PostFilter)", ["Filter", "PostFilter"]),  # `no` before a word takes nothing back
    ("Filter — no node fits", ["Filter"]),
    ("<s>Bind</s> PreBind", ["PreBind"]),
    ("<DEL>Bind</DEL> PreBind", ["PreBind"]),
    ("(was: Reserve) AssumePod", ["Assume"]),
    ("Reserve (was: assume)", ["Reserve"]),
])
def test_what_is_taken_back_names_nothing(reference, text, steps):
    assert _steps(reference, text) == steps


def test_a_reason_that_takes_back_a_lock_states_none(reference):
    text = (REPO / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8").replace(
        "reason: binding waits on the API server", 'reason: (first I wrote "a lock", crossed out) binding waits on '
                                                  "the API server")
    findings = grade_text(text, file="x.mmd", reference=reference).findings
    assert [f for f in findings if f.severity == "correction"] == []
    struck = text.replace('(first I wrote "a lock", crossed out)', "~~a lock~~")
    assert "~~a lock~~" in struck
    assert [f for f in grade_text(struck, file="x.mmd", reference=reference).findings if f.severity == "correction"] == []
    locked = text.replace('(first I wrote "a lock", crossed out)', "it needs a lock, and")
    assert any(f.kind == "reason" and f.severity == "correction"
               for f in grade_text(locked, file="x.mmd", reference=reference).findings)


@pytest.mark.parametrize("text,step", [("PATCH pods/web/status (Running)", "StatusUpdate"),
                                       ("POST pods/web/binding", "Bind"), ("POST binding<br/>node-9", "Bind")])
def test_a_requests_verb_and_last_part_read_together(kubectl_reference, text, step):
    assert step in _steps(kubectl_reference, text)


def test_a_leading_tag_names_no_step_where_the_rest_names_one(reference):
    from drawcheck.recognise import read_text

    def hits(text):
        return [h.target for h in read_text(reference, text).hits]

    assert hits("[binding] WaitOnPermit") == ["WaitOnPermit"]
    assert hits("[Bind] the goroutine posts the Binding") == ["Bind"]  # the rest names it again

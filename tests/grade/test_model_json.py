"""Result.to_json writes every field of a finding and of a drawn point (a new field cannot be left out)."""

from __future__ import annotations

from dataclasses import asdict, fields

from drawcheck.grade.model import DrawnPoint, Finding, FindingKind, Result


def test_finding_json_has_every_field_and_drops_only_empty_optional_ones():
    full = Finding(FindingKind.ORDER, "Score", 12, "correction", "Score runs after Filter", "v1.19", "Score")
    assert full.to_json() == {**asdict(full), "kind": "order"}
    bare = Finding(FindingKind.REASON, None, None, "hint", "say why")
    assert bare.to_json() == {"kind": "reason", "point": None, "line": None, "severity": "hint", "message": "say why"}
    assert set(full.to_json()) == {f.name for f in fields(Finding)}


def test_result_json_points_have_every_field():
    point = DrawnPoint("Filter", "RunFilterPlugins", 7, "scheduling")
    result = Result(file="a.mmd", status="correct", score=1.0, points=[point])
    assert result.to_json()["points"] == [asdict(point)]
    assert set(result.to_json()["points"][0]) == {f.name for f in fields(DrawnPoint)}

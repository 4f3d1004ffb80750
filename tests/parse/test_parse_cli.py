"""`drawcheck parse FILE... --format json|text`."""

from __future__ import annotations

import json
import subprocess
import sys

from drawcheck.cli import main


def run(capsys, *args):
    code = main(["parse", *map(str, args)])
    return code, capsys.readouterr().out


def test_json_one_object_per_file(tmp_path, capsys):
    good = tmp_path / "good.mmd"
    good.write_text("sequenceDiagram\nparticipant A as Alice\nloop l\nA->>+B: hi\nend\nNote over A,B: n\n")
    bad = tmp_path / "bad.mmd"
    bad.write_text("sequenceDiagram\nA->>B\n")
    code, out = run(capsys, good, bad)
    assert code == 2
    first, second = [json.loads(line) for line in out.splitlines()]
    assert first == {
        "file": str(good), "valid": True, "errors": [],
        "participants": [{"id": "A", "label": "Alice", "kind": "participant", "line": 2},
                         {"id": "B", "label": "B", "kind": "participant", "line": 4}],
        "messages": [{"from": "A", "to": "B", "text": "hi", "arrow": "->>", "line": 4}],
        "notes": [{"placement": "over", "actors": ["A", "B"], "text": "n", "line": 6}],
        "blocks": [{"kind": "loop", "label": "l", "line": 3, "end_line": 5}],
    }
    assert second["valid"] is False
    assert [(e["line"], e["column"]) for e in second["errors"]] == [(2, 6)]
    assert "no text" in second["errors"][0]["message"]


def test_exit_zero_when_all_valid(tmp_path, capsys):
    f = tmp_path / "a.mmd"
    f.write_text("sequenceDiagram\nA->>B: x\n")
    assert run(capsys, f, f)[0] == 0


def test_text_format_and_unreadable_file(tmp_path, capsys):
    bad = tmp_path / "bad.mmd"
    bad.write_text("sequenceDiagram\nloop\nA->>B: x\n")
    code, out = run(capsys, "--format", "text", bad, tmp_path / "missing.mmd")
    assert code == 2
    assert "%s:2:1: `loop` opened on line 2 is never closed" % bad in out
    assert "hint: add `end`" in out
    assert "missing.mmd:1:1: this file could not be read" in out


def test_installed_command(tmp_path):
    f = tmp_path / "a.mmd"
    f.write_bytes(b"sequenceDiagram\n    A->>B: caf\xe9\n")
    proc = subprocess.run([sys.executable, "-m", "drawcheck.cli", "parse", str(f)], capture_output=True, text=True)
    assert proc.returncode == 2
    (err,) = json.loads(proc.stdout)["errors"]
    assert err["line"] == 2 and "UTF-8" in err["message"]

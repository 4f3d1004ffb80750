"""Mermaid 12.3.0 itself (node, jsdom, the pinned node_modules/mermaid) accepts every diagram we emit."""

from __future__ import annotations

import json
import random
import shutil
import subprocess
from pathlib import Path

import pytest

from drawcheck.parse.model import Diagram, Message, Participant
from drawcheck.render.circled import learner_text
from drawcheck.render.feedback import feedback_setup, number_corrections, overlay
from drawcheck.render.mermaid import Circle, Insertion, render_diagram
from drawcheck.safety import learner_label, mark_label, mermaid_text

ROOT = Path(__file__).resolve().parents[2]
ORACLE = ROOT / "tests" / "parse" / "mermaid_oracle.mjs"

pytestmark = pytest.mark.node

NASTY = ["<script>alert(1)</script>", "a;b", "%%{init: {}}%%", "x: y", "--8<-- \"/etc/passwd\"", "#35;", "end",
         "else", "::error::x", "{{ config }}", "$$x$$", "wrap me", "Note over A: x", "A->>B: y", "é ü 漢字 ①",
         "`code`", "[link](javascript:x)", "\\n", "a\nb", "@{ type: 'database' }", "&lt;b&gt;", "  spaced  "]


def oracle(texts: list[str]) -> list[dict]:
    node = shutil.which("node")
    assert node and ORACLE.exists() and (ROOT / "node_modules" / "mermaid").is_dir()
    done = subprocess.run([node, str(ORACLE)], input=json.dumps({"texts": texts}), capture_output=True,
                          text=True, cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


def _nasty_diagram(seed: int) -> tuple[Diagram, list[str]]:
    rng = random.Random(seed)
    names = rng.sample(NASTY, 3)
    d = Diagram(header_line=1, participants=[Participant(f"p{i}", n, "participant", i + 2) for i, n in enumerate(names)])
    texts = []
    for j in range(6):
        t = rng.choice(NASTY)
        texts.append(t)
        d.statements.append(Message(f"p{j % 3}", f"p{(j + 1) % 3}", t, rng.choice(["->>", "-->>", "-)", "-x"]), 10 + j))
    return d, texts


def test_mermaid_accepts_circled_drawings_and_reads_back_our_labels(diagram, result, reference):
    circles, insertions = overlay(result, feedback_setup(reference), number_corrections(result))
    cases = [render_diagram(diagram), render_diagram(diagram, circles=circles, insertions=insertions)]
    expected_messages = []
    for seed in range(12):
        d, texts = _nasty_diagram(seed)
        cases.append(render_diagram(d, circles=[Circle("⑫", 12, texts[2])],
                                    insertions=[Insertion("⑬", 13, "missing: Permit", "missing"),
                                                Insertion("⑭", 14, "the boundary is here", "boundary")]))
        expected_messages.append([learner_text(t) for t in texts])  # the site's mark glyphs are not the learner's
    out = oracle(cases)
    assert len(out) == len(cases)
    bad = [(o, c) for o, c in zip(out, cases) if not o["valid"]]
    assert not bad, bad[:2]
    assert [m[2] for m in out[0]["messages"]] == ["PreFilter", "Filter", "PostFilter",
                                                  mermaid_text("Score; %%{init}%%"), "Reserve", "Permit", "Bind"]
    assert len(out[1]["notes"]) == len(out[0]["notes"]) + 4  # ①, ② and the true boundary ①, ④
    for o, messages in zip(out[2:], expected_messages):
        drawn = [m[2] for m in o["messages"]]
        assert drawn == messages[:4] + [mark_label("⑬", "missing: Permit")] + messages[4:]  # after line 13
        assert [p[0] for p in o["participants"]] == ["P1", "P2", "P3"]

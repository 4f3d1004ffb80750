"""Every Mermaid block on every generated page is valid Mermaid 12.3.0 (our parser, and Mermaid itself in node)."""

from __future__ import annotations

import json
import re
import shutil
import subprocess

import pytest

from plugin_site import CORPUS, ROOT
from drawcheck.parse import parse_text
from drawcheck.plugin.submissions import SubmissionsManager
from drawcheck.reference import load_reference
from drawcheck.render import feedback_page, feedback_setup, overview_page

FENCE = re.compile(r"^(?P<indent> *)```mermaid\n(?P<body>.*?)^(?P=indent)```$", re.S | re.M)


@pytest.fixture(scope="module")
def pages():
    reference = load_reference(str(ROOT / "reference" / "two-cycles" / "exercise.yml"))
    graded = []
    for answers in (CORPUS, ROOT / "answers"):
        manager = SubmissionsManager(answers_dir=str(answers), site_root=str(ROOT), reference=reference,
                                     max_bytes=262144, max_lines=2000)
        graded += manager.collect()[0]
    out = {g.file: feedback_page(g, feedback_setup(reference)) for g in graded}
    out["overview"] = overview_page(graded, [], reference)
    return out


def blocks(pages):
    found = []
    for name, page in pages.items():
        for m in FENCE.finditer(page):
            indent = len(m.group("indent"))
            body = "\n".join(line[indent:] for line in m.group("body").split("\n"))
            found.append((name, body))
    return found


def test_every_learner_drawing_was_drawn(pages):
    found = blocks(pages)
    per_page = {name: sum(1 for n, _ in found if n == name) for name in pages}
    assert per_page["tests/plugin/answers/margaret.mmd"] == 1  # invalid: the part that parsed
    assert per_page["tests/plugin/answers/ada.mmd"] == 2  # both circled; the reference is linked, not repeated
    assert all(n >= 1 for name, n in per_page.items() if name.startswith("answers/example-"))


def test_our_parser_accepts_every_block(pages):
    for name, body in blocks(pages):
        parsed = parse_text(body)
        assert parsed.valid, (name, parsed.errors[:2], body)
        assert not parsed.directives and parsed.front_matter is None


@pytest.mark.node
def test_mermaid_itself_accepts_every_block(pages):
    found = blocks(pages)
    node = shutil.which("node")
    assert node, "node is needed (Node 20, see COMMON.md)"
    done = subprocess.run([node, str(ROOT / "tests" / "parse" / "mermaid_oracle.mjs")], cwd=ROOT, timeout=300,
                          input=json.dumps({"texts": [b for _, b in found]}), capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-2000:]
    out = [json.loads(ln) for ln in done.stdout.splitlines() if ln.strip()]
    assert len(out) == len(found)
    bad = [(name, o.get("error")) for (name, _), o in zip(found, out) if not o["valid"]]
    assert not bad, bad

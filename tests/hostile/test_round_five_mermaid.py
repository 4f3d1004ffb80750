"""Round five, at Mermaid's level, with the pinned Mermaid itself (node, jsdom): a learner file whose directives
or front matter set any config is refused (find_unsafe names the line), and the site's redrawn drawings (the
feedback page's and the PR comment's) carry no config, no link, no properties, no learner accessibility text
and no created or destroyed participant, whatever the file held (`round_five.MERMAID_LEVEL`).

Found: front matter indented as a whole (` title: x` / ` config:` / `   theme: dark`) is valid YAML that Mermaid
reads `config` from, but `find_unsafe` took every indented line for a title's continuation."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

import round_five

from drawcheck.grade.cli import check_file, default_reference
from drawcheck.parse import parse_text
from drawcheck.reference import load_reference
from drawcheck.render.feedback import feedback_setup, page_drawing
from drawcheck.report.markdown import circled_drawing
from drawcheck.safety import find_unsafe

pytestmark = pytest.mark.node

ORACLE = round_five.ROOT / "tests" / "hostile" / "mermaid_config_oracle.mjs"
FLAGSHIP = load_reference(default_reference())


def mermaid_reads(texts: list[str]) -> list[dict]:
    node = shutil.which("node")
    assert node and (round_five.ROOT / "node_modules" / "mermaid").is_dir()
    done = subprocess.run([node, str(ORACLE)], input=json.dumps({"texts": texts}), capture_output=True, text=True,
                          cwd=round_five.ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    return [json.loads(line) for line in done.stdout.splitlines() if line.strip()]


@pytest.fixture(scope="module")
def cases(tmp_path_factory):
    folder = tmp_path_factory.mktemp("mermaid-level") / "answers"
    folder.mkdir()
    setup = feedback_setup(FLAGSHIP)
    out = {}
    for name, text in round_five.MERMAID_LEVEL.items():
        path = folder / f"{name}.mmd"
        path.write_bytes(text.encode("utf-8"))
        graded = check_file(str(path), FLAGSHIP, label=f"answers/{name}.mmd")
        drawings = [d for d in (page_drawing(graded, setup), circled_drawing(graded, FLAGSHIP)) if d]
        out[name] = (text, find_unsafe(parse_text(text), text), drawings)
    return out


def test_a_file_whose_directives_or_front_matter_set_config_is_refused(cases):
    names = sorted(cases)
    read = dict(zip(names, mermaid_reads([cases[n][0] for n in names])))
    configured = [n for n in names if read[n].get("config")]
    assert len(configured) >= 12  # the attacks are live: Mermaid takes config from each of these
    assert [n for n in configured if not cases[n][1]] == [], "Mermaid reads config the site did not refuse"
    assert not read["front-matter-title-only"].get("config") and not cases["front-matter-title-only"][1]


def test_the_redrawn_drawings_carry_nothing_but_the_drawing(cases):
    drawn = [(name, d) for name, (_text, _unsafe, drawings) in sorted(cases.items()) for d in drawings]
    assert {name for name, _ in drawn} >= {"link", "links-json", "properties", "details", "acc-descr-block",
                                            "create-destroy-alias", "create-actor", "front-matter-title-only"}
    raw = dict(zip(sorted(cases), mermaid_reads([cases[n][0] for n in sorted(cases)])))
    assert raw["links-json"]["links"] and raw["properties"]["properties"] and raw["create-destroy-alias"]["created"]
    for (name, drawing), read in zip(drawn, mermaid_reads([d for _, d in drawn])):
        assert read.get("type") == "sequence", (name, read)
        assert read["config"] == {} and read["links"] == [] and read["properties"] == [], (name, read)
        assert read["created"] == [] and read["destroyed"] == [], (name, read)
        assert "Correct" not in read["accDescription"], (name, read)

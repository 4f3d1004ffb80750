"""`drawcheck check --format markdown`: the circled drawing, linked lines, neutralised text, under 60 KB."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys

import pytest

from prflow_kit import ROOT

from drawcheck.reference import load_reference
from drawcheck.grade.cli import check_file
from drawcheck.report.markdown import MAX_BYTES, Links, markdown_report, markdown_text

REFERENCE = load_reference(str(ROOT / "reference" / "two-cycles" / "exercise.yml"))
ORACLE = ROOT / "tests" / "parse" / "mermaid_oracle.mjs"
HOSTILE = [
    "@octocat", "@org/team", "#123", "drawcheck/drawcheck#1", "https://evil.example/x", "www.evil.example",
    "::error file=x::y", "##[error]x", "##[stop-commands]tok", "<script>alert(1)</script>", "<img src=x onerror=y>",
    "| a | b |", "```", "~~~", "</details>", "[x](javascript:alert(1))", "![i](https://t.example/p.png)", "**bold**",
    "$$x$$", "{{ config }}", "--8<-- \"/etc/passwd\"", "\u202eevil", "a\u2028b", "<!-- x -->", "&lt;b&gt;", "\\`",
]


def outside_code(md: str) -> str:
    """The Markdown with fenced blocks removed (mentions and autolinks act only outside them)."""
    return re.sub(r"(?ms)^```mermaid\n.*?^```$", "", md)


def hostile_drawing(*, drawable: bool = False) -> str:
    """Every hostile text as a message and a note; `drawable`: only those the site still draws (not unsafe)."""
    from drawcheck.safety import find_unsafe

    texts = [t for t in HOSTILE if not (drawable and find_unsafe(None, f"sequenceDiagram\n  A->>B: {t}\n"))]
    lines = ["sequenceDiagram", "  participant S as Scheduler " + HOSTILE[0], "  participant P as Plugins"]
    for i, text in enumerate(texts):
        lines.append(f"  S->>P: {text.replace(';', ',').replace('#', 'x') if i % 3 else text}")
        lines.append(f"  Note over S: {text}")
    lines += ["  S->>P: PreFilter", "  S->>P: Filter", "  S-)P: go func", "  P->>P: Bind"]
    return "\n".join(lines) + "\n"


def test_markdown_text_neutralises_what_github_acts_on():
    for text in HOSTILE:
        out = markdown_text(text)
        decoded = re.sub(r"&#(\d+);", lambda m: chr(int(m[1])), out)
        assert not re.search(r"[<>`|*\[\]]", out), out  # no HTML, code, table or link syntax as written
        assert not re.search(r"@[A-Za-z0-9]", decoded) and not re.search(r"#\d", decoded)  # no mention, no #123
        assert "://" not in decoded and not re.search(r"(?i)www\.", decoded)  # no autolink
        assert "::" not in out and "##[" not in out and "\n" not in out


@pytest.mark.parametrize("drawable", [True, False])
def test_hostile_drawing_report(tmp_path, drawable):
    path = tmp_path / "answers" / "mallory.mmd"
    path.parent.mkdir()
    path.write_text(hostile_drawing(drawable=drawable), encoding="utf-8")
    g = check_file(str(path), REFERENCE, label="answers/mallory.mmd")
    md = markdown_report([g], REFERENCE, links=Links("o/r", "f" * 40, "https://o.github.io/r/"))
    prose = outside_code(md)
    assert ("```mermaid" in md) == drawable and md.count("```") % 2 == 0
    assert drawable or "Could not be checked" in md
    assert "<" not in prose and "::" not in md and "##[" not in md
    decoded = re.sub(r"&#(\d+);", lambda m: chr(int(m[1])), prose)
    assert not re.search(r"(?<![\w/])@[A-Za-z0-9]", decoded)
    for row in (ln for ln in prose.splitlines() if ln.startswith("|")):
        assert len(re.findall(r"(?<!\\)\|", row)) in (3, 4), row  # no cell split by learner text


def test_line_numbers_link_to_the_pr_and_the_page_is_linked():
    g = check_file(str(ROOT / "answers" / "example-permit-early.mmd"), REFERENCE,
               label="answers/example-permit-early.mmd")
    md = markdown_report([g], REFERENCE, links=Links("o/r", "abc1234", "https://o.github.io/r/"))
    lines = {f.line for f in g.result.corrections if f.line}
    for n in lines:
        assert f"[{n}](https://github.com/o/r/blob/abc1234/answers/example-permit-early.mmd#L{n})" in md
    assert "(https://o.github.io/r/feedback/example-permit-early/)" in md
    assert f"score {round(g.result.score * 100)} %" in md
    plain = markdown_report([g], REFERENCE)
    assert "github.com" not in plain and "| ① | " in plain


@pytest.mark.parametrize("bad", [{"repo": "o/r) [x](y"}, {"sha": "main; rm"}, {"site_url": "javascript:alert(1)"}])
def test_links_refuse_what_would_break_a_link(bad):
    with pytest.raises(ValueError):
        Links(**bad)


def test_any_input_stays_under_60_kb(tmp_path):
    answers = tmp_path / "answers"
    answers.mkdir()
    huge = ["sequenceDiagram", "  participant S", "  participant P"]
    huge += [f"  S->>P: s{i} {','.join('abcdefghijklmnop')}" for i in range(1000)]  # 46 KB; drawn back, 80
    (answers / "huge.mmd").write_text("\n".join(huge) + "\n", encoding="utf-8")
    many_notes = ["sequenceDiagram"] + [f"  Note over A: {'w' * 40} {i}" for i in range(1000)]  # 46 KB: under every limit
    (answers / "notes.mmd").write_text("\n".join(many_notes) + "\n", encoding="utf-8")
    files = [str(answers / "huge.mmd"), str(answers / "notes.mmd")]
    for i in range(60):  # more than 60 KB of feedback in all
        shutil.copy(ROOT / "answers" / "example-permit-early.mmd", answers / f"learner{i}.mmd")
        files.append(str(answers / f"learner{i}.mmd"))
    for chosen in (files[:1], files[:2], files):
        graded = [check_file(f, REFERENCE) for f in chosen]
        md = markdown_report(graded, REFERENCE, links=Links("o/r", "f" * 40, "https://o.github.io/r/"))
        assert len(md.encode("utf-8")) < MAX_BYTES
        assert md.count("```") % 2 == 0
    assert graded[0].diagram is not None
    cut = markdown_report(graded[:1], REFERENCE, max_bytes=20_000)  # the drawing alone is bigger than that
    assert "too large to draw back here" in cut and len(cut.encode("utf-8")) < 20_000
    assert "more file(s) not shown" in md


def test_cli_format_markdown(tmp_path):
    env_file = ROOT / "answers" / "example-one-lane.mmd"
    done = subprocess.run([sys.executable, "-m", "drawcheck.cli", "check", "--format", "markdown", "--repo", "o/r",
                           "--sha", "abc1234", str(env_file)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert done.returncode == 1, done.stderr  # corrections, as for --format text
    assert done.stdout.startswith("## drawcheck feedback") and "```mermaid\nsequenceDiagram" in done.stdout
    bad = subprocess.run([sys.executable, "-m", "drawcheck.cli", "check", "--format", "markdown", "--repo", "not a repo",
                          str(env_file)], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert bad.returncode == 2 and "owner/name" in bad.stderr and "Traceback" not in bad.stderr


@pytest.mark.node
def test_mermaid_blocks_parse_with_the_pinned_mermaid(tmp_path):
    node = shutil.which("node")
    assert node and (ROOT / "node_modules" / "mermaid").is_dir(), "node and npm ci are needed"
    answers = tmp_path / "answers"
    answers.mkdir()
    (answers / "mallory.mmd").write_text(hostile_drawing(drawable=True), encoding="utf-8")
    files = [str(answers / "mallory.mmd")] + [str(p) for p in sorted((ROOT / "answers").glob("example-*.mmd"))]
    files += [str(p) for p in sorted((ROOT / "tests" / "plugin" / "answers").glob("*.mmd"))][:20]
    graded = [check_file(f, REFERENCE) for f in files]
    blocks = []
    for g in graded:
        md = markdown_report([g], REFERENCE)
        blocks += re.findall(r"(?ms)^```mermaid\n(.*?)^```$", md)
    assert len(blocks) >= 5
    done = subprocess.run([node, str(ORACLE)], input=json.dumps({"texts": blocks}), capture_output=True, text=True,
                          cwd=ROOT, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    out = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    assert len(out) == len(blocks)
    bad = [(o, b[:300]) for o, b in zip(out, blocks) if not o["valid"]]
    assert not bad, bad[:2]
    assert all(o["messages"] for o in out)

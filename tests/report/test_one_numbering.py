"""One numbering of corrections everywhere (issue #14): for real drawings with several corrections, the
feedback page, the CLI's text, JSON and Markdown output, the GitHub annotations, both job summaries and the
PR comment give each finding the same circled number, and give hints and errors none."""

from __future__ import annotations

import html
import json
import random
import re
from pathlib import Path
from urllib.parse import unquote

import pytest

from drawcheck.grade.cli import check_file, text_report
from drawcheck.plugin.summary import bounded_summary
from drawcheck.reference import load_reference
from drawcheck.render.circles import circle, circle_number, number_corrections
from drawcheck.render.feedback import feedback_page, feedback_setup
from drawcheck.render.model import PageLinks
from drawcheck.report.github import github_annotations, job_summary
from drawcheck.report.json_report import results_document
from drawcheck.report.markdown import Links, markdown_report
from drawcheck.report.pr_comment import comment_body

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "two-cycles" / "exercise.yml"
STEP = re.compile(r"^\s*\w+(->>|-->>|-\))\w+: .+$")
CIRCLES = "".join(circle(n) for n in range(1, 51))


def key(line, message: str) -> tuple[int | None, str]:
    """A finding as every output can name it: its line and the letters of its message (escaping aside)."""
    text = re.split(r"your drawing matches|\(read: ", html.unescape(unquote(message)))[0]  # notes aside
    return (int(line) if line else None, re.sub(r"[^a-z0-9]", "", text.lower())[:60])


def drawings(tmp_path: Path) -> list[Path]:
    """The reference drawing with steps swapped and dropped, and the shipped examples with a step swapped."""
    ref = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8").splitlines()
    bases = [ref] + [p.read_text(encoding="utf-8").splitlines() for p in sorted((ROOT / "answers").glob("example-*.mmd"))
                     if not p.name.endswith(".corrected.mmd")]
    rng = random.Random(14)
    out = []
    for i in range(12):
        lines = list(bases[i % len(bases)])
        steps = [j for j, ln in enumerate(lines) if STEP.match(ln)]
        for _ in range(3):
            a, b = rng.sample(steps, 2)
            lines[a], lines[b] = lines[b], lines[a]
        lines[rng.choice(steps)] = "    %% left out"
        path = tmp_path / "answers" / f"learner-{i:02d}.mmd"
        path.parent.mkdir(exist_ok=True)
        path.write_text("\n".join(lines) + "\n", encoding="utf-8")
        out.append(path)
    return out


@pytest.fixture(scope="module")
def graded(tmp_path_factory):
    reference = load_reference(str(EXERCISE))
    tmp = tmp_path_factory.mktemp("numbering")
    gs = [check_file(str(p), reference, label=f"answers/{p.name}") for p in drawings(tmp)]
    gs = [g for g in gs if len(number_corrections(g.result)) >= 3]
    assert len(gs) >= 4, "the corpus must give several drawings with several corrections"
    return reference, gs


def expected(g) -> dict:
    marks = {key(n.finding.line, n.finding.message): n.circle for n in number_corrections(g.result)}
    assert len(marks) == len(number_corrections(g.result)), "each correction is told apart by its line and message"
    return marks


def unmarked(g) -> set:
    return {key(f.line, f.message) for f in g.result.findings if f.severity != "correction"}


def check(found: dict, g, name: str) -> None:
    """`found` {finding key: mark or ""} of one output: every correction with its number, hints with none."""
    want = expected(g)
    assert {k: v for k, v in found.items() if v} == want, f"{name}: numbers differ for {g.file}"
    assert all(found.get(k, "") == "" for k in unmarked(g)), f"{name}: a hint has a number in {g.file}"


def test_page_cli_annotations_summaries_and_comment_number_each_finding_alike(graded):
    reference, gs = graded
    links = Links(repo="org/drawcheck", sha="0" * 40, site_url="https://org.github.io/drawcheck/")
    summary = bounded_summary([g.result for g in gs], title="drawcheck: site build", product=reference.product)
    for g in gs:
        # the feedback page's corrections table: | **②**<br>[line 14](…) | message |
        page = feedback_page(g, feedback_setup(reference, PageLinks(repo_url="https://github.com/org/drawcheck", branch="main")))
        rows = re.findall(r"^\| \*\*(\S+)\*\*<br>(?:\[line (\d+)\]\([^)]*\)|not drawn) \| (.*?) \|$", page, re.M)
        check({key(line, msg): mark for mark, line, msg in rows}, g, "page")

        # CLI text: "  ②    line 14   correction <message> [kind]"; hints and errors "-"
        text = text_report(g.result, product=reference.product)
        rows = re.findall(r"^  (\S+)\s+(?:line (\d+)|not drawn)\s+\w+\s+(.*) \[[\w-]+\]$", text, re.M)
        assert len(rows) == len(g.result.findings)
        check({key(line, msg): "" if mark == "-" else mark for mark, line, msg in rows}, g, "CLI text")

        # CLI JSON and the site's results.json: "number" on corrections only
        for doc in (json.loads(results_document([g.result]))["results"][0],):
            check({key(f["line"], f["message"]): circle(f["number"]) if "number" in f else ""
                   for f in doc["findings"]}, g, "JSON")

        # CLI Markdown, and the PR comment made of it: | ② | [14](…) | message |
        for name, md in (("CLI markdown", markdown_report([g], reference, links=links)),
                         ("PR comment", comment_body(markdown_report([g], reference, links=links)))):
            rows = re.findall(r"^\| (\S) \| (?:\[(\d+)\]\([^)]*\)|—) \| (.*?) \|$", md, re.M)
            check({key(line, msg): mark for mark, line, msg in rows}, g, name)

        # annotations: title=drawcheck ② kind: Point for corrections, drawcheck: kind otherwise
        anns = github_annotations([g.result], product=reference.product, per_level=50, total=50)
        found = {}
        for a in anns:
            m = re.match(r"^::\w+ file=[^,]*(?:,line=(\d+))?,title=([^:]*)::(.*)$", a)
            assert m, a
            title = unquote(m.group(2))
            mark = next((ch for ch in title if ch in CIRCLES), "")
            assert title.startswith(f"drawcheck {mark} " if mark else "drawcheck: "), title
            found[key(m.group(1), m.group(3))] = mark
        check(found, g, "annotations")

        # both job summaries: | ② | <code>file:14</code> | kind | correction | message |
        for name, md in (("job summary", job_summary([g.result], product=reference.product)), ("site summary", summary)):
            rows = re.findall(rf"^\| (\S?) \| <code>{re.escape(g.file)}(?::(\d+))?</code> \| [\w-]+ \| \w+ \| (.*?) \|$",
                              html.unescape(md), re.M)
            assert rows, name
            check({key(line, msg): mark for mark, line, msg in rows}, g, name)


def test_marks_are_circles_from_one_and_hints_and_errors_have_none(graded):
    _, gs = graded
    for g in gs:
        numbers = [circle_number(n.circle) for n in number_corrections(g.result)]
        assert numbers == list(range(1, len(numbers) + 1))


def test_a_file_that_could_not_be_checked_has_no_numbers(tmp_path):
    reference = load_reference(str(EXERCISE))
    bad = tmp_path / "bad.mmd"
    bad.write_text("sequenceDiagram\n    participant S\n    S->>: no target\n", encoding="utf-8")
    g = check_file(str(bad), reference, label="answers/bad.mmd")
    assert g.result.status == "invalid" and number_corrections(g.result) == []
    text = text_report(g.result)
    assert not any(ch in text for ch in CIRCLES) and "  -    line 3" in text  # the error is listed, unnumbered
    assert all("title=drawcheck%3A syntax" in a for a in github_annotations([g.result]))
    assert "number" not in json.loads(results_document([g.result]))["results"][0]["findings"][0]

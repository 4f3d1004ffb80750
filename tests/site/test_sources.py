"""Issue 15: every Kubernetes fact in the reference data and on the table page carries its source.

The YAML is read directly with PyYAML (not through the loader), and the table page is checked in a real
`mkdocs build --strict` of the site in a temporary folder: each source is a link to a line on GitHub, a
KEP section or a PR.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest
import yaml

ROOT = Path(__file__).resolve().parents[2]
EXERCISE = ROOT / "reference" / "two-cycles" / "exercise.yml"
TABLE = ROOT / "docs" / "table.md"
REFERENCE_MMD = ROOT / "reference" / "two-cycles" / "reference.mmd"
HEX40 = re.compile(r"^[0-9a-f]{40}$")
SOURCE_LINK = re.compile(r"^https://github\.com/kubernetes/(kubernetes|enhancements|community)/"
                         r"(blob/[^/]+/[^#]+(#L\d+(-L\d+)?)?|pull/\d+|tree/master/keps/sig-scheduling/624-[^#]+(#.+)?)$")
# Tables of the table page whose every row must name a source (by their header's first cells).
SOURCED_TABLES = ("| # | Extension point | Cycle |", "| Extension point | Called from |",
                  "| Kubernetes | function that holds the `go` |", "| Kubernetes | End of the scheduling cycle |")


# ----------------------------------------------------------------------------- the YAML, read directly


def source_forms(value) -> list[dict]:
    return value if isinstance(value, list) else [value]


def check_source(value, where: str) -> list[str]:
    """What is wrong with one `source:` value (the format docs/grading.md describes); [] when it is right."""
    problems = []
    forms = source_forms(value)
    if not forms:
        return [f"{where}: empty source list"]
    for form in forms:
        if not isinstance(form, dict):
            problems.append(f"{where}: a source is a mapping, not {form!r}")
            continue
        keys = set(form)
        if {"repo", "ref", "path"} <= keys:
            if not (("line" in keys) ^ ("lines" in keys)):
                problems.append(f"{where}: a file source names exactly one of line/lines")
            if form["ref"] == "master" and not HEX40.match(str(form.get("commit", ""))):
                problems.append(f"{where}: a master source pins its commit")
            if form["ref"] != "master" and not (re.match(r"^v1\.\d+\.\d+$", str(form["ref"]))
                                                 or HEX40.match(str(form["ref"]))):
                problems.append(f"{where}: ref is a tag, master or a 40-hex commit: {form['ref']!r}")
            line = form.get("line", form.get("lines"))
            if not re.match(r"^\d+(-\d+)?$", str(line)):
                problems.append(f"{where}: line is a number or a range: {line!r}")
        elif "kep" in keys:
            if keys - {"kep", "section"} or "section" not in keys:
                problems.append(f"{where}: a KEP source is {{kep, section}}")
        elif "pr" in keys:
            if keys - {"pr", "repo"} or not isinstance(form["pr"], int):
                problems.append(f"{where}: a PR source is {{pr: N}} with an optional repo")
        elif "url" in keys:
            if keys - {"url", "section"} or not str(form["url"]).startswith("https://"):
                problems.append(f"{where}: a url source is {{url: https://..., section}}")
        else:
            problems.append(f"{where}: unknown source form {form!r}")
    return problems


def sourced_items(data: dict) -> list[tuple[str, dict]]:
    """Every version note, legacy name and wrong-cycle/main-path note of the exercise, with where it is."""
    out = []
    for step in data["steps"]:
        sid = step["id"]
        for i, legacy in enumerate(step.get("legacy", [])):
            out.append((f"steps.{sid}.legacy[{i}] ({legacy['name']})", legacy))
        for key in ("wrong_cycle", "main_path"):
            if key in step:
                out.append((f"steps.{sid}.{key}", step[key]))
    for i, older in enumerate(data["boundary"].get("older", [])):
        out.append((f"boundary.older[{i}]", older))
    for key in ("misplaced", "same_line"):
        out.append((f"named_function.{key}", data["named_function"][key]))
    for i, belief in enumerate(data.get("beliefs", [])):
        if "versions" in belief:
            out.append((f"beliefs[{i}]", belief))
    return out


@pytest.fixture(scope="module")
def data() -> dict:
    return yaml.safe_load(EXERCISE.read_text(encoding="utf-8"))


def test_every_version_note_and_legacy_name_has_a_well_formed_source(data):
    items = sourced_items(data)
    with_versions = [where for where, item in items if "versions" in item]
    assert len(with_versions) >= 10, "the exercise's version notes were found"
    problems = []
    for where, item in items:
        if "source" not in item:
            problems.append(f"{where}: no source")
        else:
            problems += check_source(item["source"], where)
    assert problems == []


def test_the_facts_the_grader_teaches_have_sources(data):
    """Teach texts that state a checked fact (issue 15, points 3, 6, 7) and the boundary message."""
    by_id = {step["id"]: step for step in data["steps"]}
    for sid in ("Filter", "PreScore", "Score", "Assume", "PreBindPreFlight", "WaitOnPermit"):
        assert "source" in by_id[sid], sid
        assert check_source(by_id[sid]["source"], sid) == []
    assert check_source(data["boundary"]["source"], "boundary") == []


def test_the_source_check_refuses_what_the_format_does_not_allow():
    master = {"repo": "kubernetes/kubernetes", "ref": "master", "path": "pkg/scheduler/schedule_one.go", "line": 1}
    assert check_source(master, "x"), "master without a pinned commit"
    assert check_source({**master, "ref": "today", "commit": "0" * 40}, "x")
    assert check_source({"kep": 624}, "x"), "a KEP source names its section"
    assert check_source({"pr": "24197"}, "x"), "a PR number is a number"
    assert check_source([], "x")
    assert check_source({"url": "https://example.org", "section": "s"}, "x") == []
    assert check_source({**master, "commit": "a" * 40, "lines": "3-4", "line": 3}, "x"), "line or lines, not both"


def test_the_corrected_facts_are_in_the_data(data):
    """Issue 15 points 3, 6, 7, 9 and 10 as the YAML states them."""
    by_id = {step["id"]: step for step in data["steps"]}
    assert "opens the binding cycle" not in by_id["WaitOnPermit"]["teach"]
    assert "v1.35" in by_id["PreBindPreFlight"]["teach"] and "before WaitOnPermit" in by_id["PreBindPreFlight"]["teach"]
    assert "prioritize extender" in by_id["PreScore"]["teach"]
    assert "percentageOfNodesToScore" in by_id["Filter"]["teach"]
    prioritize = next(lg for lg in by_id["Score"]["legacy"] if lg["name"] == "prioritize")
    assert "versions" not in prioritize, "extenders' Prioritize is current code, not an old name"
    predicates = next(lg for lg in by_id["Filter"]["legacy"] if lg["name"] == "predicates")
    assert "PR #70227" in predicates["versions"]
    hints = " ".join(n["hint"] for n in data["not_steps"])
    assert "WaitOnPermit opens the binding cycle" not in hints


# ----------------------------------------------------------------------------- the table page, in markdown


def table_blocks(text: str) -> dict[str, list[str]]:
    """The body rows of each sourced table, by its header prefix."""
    lines = text.splitlines()
    out: dict[str, list[str]] = {}
    for i, line in enumerate(lines):
        for header in SOURCED_TABLES:
            if line.startswith(header):
                rows = []
                for row in lines[i + 2:]:
                    if not row.startswith("|"):
                        break
                    rows.append(row)
                out[header] = rows
    return out


def test_every_row_of_the_fact_tables_ends_in_a_source_link():
    blocks = table_blocks(TABLE.read_text(encoding="utf-8"))
    assert set(blocks) == set(SOURCED_TABLES)
    for header, rows in blocks.items():
        assert len(rows) >= 4, header
        for row in rows:
            last = row.rstrip().rstrip("|").rsplit("|", 1)[-1]
            links = re.findall(r"\]\((https://[^)]+)\)", last)
            assert links, (header, row)
            for link in links:
                assert SOURCE_LINK.match(link), link


def test_the_version_table_labels_every_row_by_release_and_covers_master():
    rows = table_blocks(TABLE.read_text(encoding="utf-8"))["| Kubernetes | function that holds the `go` |"]
    first = [row.split("|")[1].strip() for row in rows]
    assert first[0].startswith("v1.15") and first[-1].startswith("master")
    assert all(re.search(r"v1\.\d+|master", cell) for cell in first)
    text = " ".join(rows)
    for name in ("scheduleOne", "ScheduleOne", "scheduleOnePod", "bindingCycle", "runBindingCycle",
                 "prepareForBindingCycle", "assumeAndReserve", "AssumeAndReserveInCache", "sched.assume"):
        assert name in text, name


def test_no_page_says_today_for_a_release():
    for path in (TABLE, ROOT / "docs" / "index.md", ROOT / "reference" / "two-cycles" / "explanations" / "cache-function.md",
                 ROOT / "reference" / "two-cycles" / "explanations" / "boundary.md"):
        text = path.read_text(encoding="utf-8")
        assert not re.search(r'"Today"|\bToday\b', text), path
        assert "sched.assume` up to about v1.35" not in text, path


def test_the_history_of_the_reason_names_the_real_prs():
    """Point 5: asynchronous binding came from #8261 and #24197; #20669 was the scheduler cache."""
    boundary = (ROOT / "reference" / "two-cycles" / "explanations" / "boundary.md").read_text(encoding="utf-8")
    assert "#24197" in boundary and "#8261" in boundary and "5×" in boundary
    assert "#20669" in " ".join(boundary.split()) and "replaced the \"modeler\" with the scheduler cache" in " ".join(boundary.split())


def test_the_reference_draws_preflight_on_by_default():
    text = REFERENCE_MMD.read_text(encoding="utf-8")
    assert re.search(r"opt .*default since v1\.35\n\s+B->>P: PreBindPreFlight", text)


# ----------------------------------------------------------------------------- the built site shows the links


class Links(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.in_table = 0
        self.links: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag == "table":
            self.in_table += 1
        elif tag == "a" and self.in_table:
            self.links.append(dict(attrs).get("href", ""))

    def handle_endtag(self, tag):
        if tag == "table":
            self.in_table -= 1


# `site`: the repository's own site, built once (tests/site/conftest.py).


def test_the_built_table_page_links_every_source(site):
    reader = Links()
    reader.feed((site / "table" / "index.html").read_text(encoding="utf-8"))
    expected = set()
    for rows in table_blocks(TABLE.read_text(encoding="utf-8")).values():
        for row in rows:
            expected |= set(re.findall(r"\]\((https://[^)]+)\)", row.rstrip().rstrip("|").rsplit("|", 1)[-1]))
    assert len(expected) >= 20
    missing = expected - set(reader.links)
    assert missing == set(), sorted(missing)
    master_lines = [h for h in reader.links if "/blob/ae52010d1a0ffcb4c08ce75bf1b27d451dca08c4/" in h and "#L" in h]
    assert len(master_lines) >= 10

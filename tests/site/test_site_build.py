"""Build the real site (mkdocs build --strict) into a temporary folder and check what a learner sees."""

from __future__ import annotations

import html
import json
import os
import re
import subprocess
import sys
from dataclasses import dataclass, field
from html.parser import HTMLParser
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
REFERENCE_MMD = ROOT / "reference" / "two-cycles" / "reference.mmd"
EXPLANATIONS = ROOT / "reference" / "two-cycles" / "explanations"
LOCAL_MERMAID = ROOT / "docs" / "assets" / "javascripts" / "mermaid.min.js"

CORE_POINTS = ("PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit",
               "WaitOnPermit", "PreBind", "Bind", "PostBind", "Unreserve")
SCHEDULING = ("PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit")
BINDING = ("WaitOnPermit", "PreBind", "Bind", "PostBind")
ADVANCED_POINTS = ("PreEnqueue", "QueueSort", "QueueingHint", "Sign", "PreBindPreFlight", "PlacementGenerate",
                   "PlacementScore", "PodGroupPostFilter")


# ----------------------------------------------------------------------------- HTML reading


@dataclass
class Details:
    attrs: dict
    summary: str = ""
    text: str = ""
    mermaid: list[str] = field(default_factory=list)


@dataclass
class Table:
    heading: str
    rows: list[list[str]] = field(default_factory=list)

    @property
    def header(self) -> list[str]:
        return self.rows[0] if self.rows else []

    def column(self, name: str) -> int:
        return self.header.index(name)

    def body(self) -> list[list[str]]:
        return self.rows[1:]


class PageReader(HTMLParser):
    """Headings, <details> blocks (with their text and Mermaid sources), tables and script sources."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.headings: list[tuple[str, str]] = []
        self.details: list[Details] = []
        self.tables: list[Table] = []
        self.scripts: list[str] = []
        self.links: list[str] = []
        self._heading: list[str] | None = None
        self._heading_tag = ""
        self._open_details: list[Details] = []
        self._in_summary = False
        self._mermaid: list[str] | None = None
        self._table: Table | None = None
        self._cell: list[str] | None = None
        self._row: list[str] | None = None
        self._in_permalink = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag in ("h1", "h2", "h3"):
            self._heading, self._heading_tag = [], tag
        elif tag == "a" and "headerlink" in (a.get("class") or ""):
            self._in_permalink = True
        elif tag == "details":
            self._open_details.append(Details(attrs=a))
        elif tag == "summary":
            self._in_summary = True
        elif tag == "pre" and "mermaid" in (a.get("class") or "").split():
            self._mermaid = []
        elif tag == "table":
            self._table = Table(heading=self.headings[-1][1] if self.headings else "")
        elif tag == "tr" and self._table is not None:
            self._row = []
        elif tag in ("td", "th") and self._row is not None:
            self._cell = []
        elif tag == "script":
            self.scripts.append(a.get("src") or "")
        elif tag == "link":
            self.links.append(a.get("href") or "")

    def handle_endtag(self, tag):
        if tag in ("h1", "h2", "h3") and self._heading is not None:
            self.headings.append((self._heading_tag, " ".join("".join(self._heading).split())))
            self._heading = None
        elif tag == "a":
            self._in_permalink = False
        elif tag == "details" and self._open_details:
            done = self._open_details.pop()
            done.text = " ".join(done.text.split())
            self.details.append(done)
        elif tag == "summary":
            self._in_summary = False
        elif tag == "pre" and self._mermaid is not None:
            source = "".join(self._mermaid)
            if self._open_details:
                self._open_details[-1].mermaid.append(source)
            else:
                self.details.append(Details(attrs={"(outside details)": ""}, mermaid=[source]))
            self._mermaid = None
        elif tag in ("td", "th") and self._cell is not None:
            self._row.append(" ".join("".join(self._cell).split()))
            self._cell = None
        elif tag == "tr" and self._row is not None:
            self._table.rows.append(self._row)
            self._row = None
        elif tag == "table" and self._table is not None:
            self.tables.append(self._table)
            self._table = None

    def handle_data(self, data):
        if self._in_permalink:
            return
        if self._heading is not None:
            self._heading.append(data)
        if self._mermaid is not None:
            self._mermaid.append(data)
        if self._cell is not None:
            self._cell.append(data)
        for d in self._open_details:
            if self._in_summary and d is self._open_details[-1]:
                d.summary += data
            else:
                d.text += data


def read_page(path: Path) -> tuple[str, PageReader]:
    text = path.read_text(encoding="utf-8")
    reader = PageReader()
    reader.feed(text)
    return text, reader


def visible_text(page_html: str) -> str:
    """The page without tags (code highlighting splits commands into spans), entities decoded."""
    return html.unescape(re.sub(r"<[^>]+>", "", page_html))


def plain(markdown: str) -> str:
    """Markdown source text as it reads on the page: no emphasis marks, backticks or link targets."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", markdown)
    text = re.sub(r"[*`]", "", text)
    return " ".join(text.split())


# ----------------------------------------------------------------------------- the build


# `site`: the repository's own site, built once (tests/site/conftest.py).


@pytest.fixture(scope="module")
def index(site):
    return read_page(site / "index.html")


@pytest.fixture(scope="module")
def table_page(site):
    return read_page(site / "table" / "index.html")


@pytest.fixture(scope="module")
def submit_page(site):
    return read_page(site / "submit" / "index.html")


# ----------------------------------------------------------------------------- the exercise page


def test_the_exercise_page_has_every_section_of_the_exercise(index):
    _, page = index
    h1 = [text for tag, text in page.headings if tag == "h1"]
    h2 = [text for tag, text in page.headings if tag == "h2"]
    assert h1 == ["Two cycles, one thread"]
    for section in ("What you make", "Draw first, check second", "Steps", "The three questions", "What to expect",
                    "What to write down", "Footprint and teardown", "Check your drawing"):
        assert section in h2, f"missing section {section!r}; sections: {h2}"


def test_the_steps_give_a_grep_that_finds_the_boundary_in_every_version(index):
    text, _ = index
    page = visible_text(text)
    assert "grep -n -A1 'bind the pod to its host asynchronously' pkg/scheduler/schedule_one.go" in page
    assert "grep -rn -A1 'bind the pod to its host asynchronously' pkg/scheduler/" in page
    # each form of the `go` line, and the old file, is named with its versions
    for form in ("go sched.runBindingCycle(", "go func() {", "pkg/scheduler/scheduler.go", "prioritizeNodes"):
        assert form in page, form
    assert "v1.23 and earlier" in page and "v1.30 to about v1.35" in page and "about v1.26 to v1.29" in page


def test_reference_and_explanations_sit_in_closed_details(index):
    text, page = index
    assert "<details open" not in text and "open=" not in "".join(str(d.attrs) for d in page.details)
    outside = [d for d in page.details if "(outside details)" in d.attrs]
    assert outside == [], "a Mermaid diagram on the exercise page is outside a <details> block"
    assert len(page.details) == 3
    for d in page.details:
        assert "open" not in d.attrs, f"<details> {d.summary!r} is open by default"

    diagram, boundary, cache = page.details
    assert diagram.mermaid == [REFERENCE_MMD.read_text(encoding="utf-8")] or \
        [m.strip() for m in diagram.mermaid] == [REFERENCE_MMD.read_text(encoding="utf-8").strip()]
    assert "boundary" in boundary.summary.lower()
    assert "cache" in cache.summary.lower()
    for details, name in ((boundary, "boundary.md"), (cache, "cache-function.md")):
        source = (EXPLANATIONS / name).read_text(encoding="utf-8")
        first_paragraph = plain(source.split("\n\n")[0])
        assert first_paragraph in details.text, f"{name} is not inside its <details> block"


def test_no_page_uses_open_by_default_blocks():
    for md in sorted((ROOT / "docs").rglob("*.md")):
        assert "???+" not in md.read_text(encoding="utf-8"), f"{md}: `???+` opens a block by default; use `???`"


# ----------------------------------------------------------------------------- the table


def core_table(page: PageReader, column: str = "Cycle") -> Table:
    """The core table that has `column` ("Cycle"/"When it runs", or "Called from"/"Since")."""
    tables = [t for t in page.tables if "Extension point" in t.header and column in t.header]
    assert len(tables) == 1, [t.header for t in page.tables]
    return tables[0]


def core_rows(page: PageReader, column: str = "Cycle") -> dict[str, list[str]]:
    table = core_table(page, column)
    point = table.column("Extension point")
    return {row[point]: row for row in table.body()}


def test_both_core_tables_list_the_same_points(table_page):
    _, page = table_page
    assert list(core_rows(page, "Cycle")) == list(core_rows(page, "Called from"))


def test_every_core_extension_point_is_in_the_table(table_page):
    _, page = table_page
    rows = core_rows(page)
    for point in CORE_POINTS:
        assert point in rows, f"{point} missing from the core table; rows: {list(rows)}"


def test_the_table_puts_each_point_in_its_cycle(table_page):
    _, page = table_page
    table = core_table(page)
    rows, cycle = core_rows(page), table.column("Cycle")
    for point in SCHEDULING:
        assert rows[point][cycle].startswith("scheduling"), (point, rows[point][cycle])
        assert "binding" not in rows[point][cycle], (point, rows[point][cycle])
    for point in BINDING:
        assert rows[point][cycle].startswith("binding"), (point, rows[point][cycle])
    assert rows["Unreserve"][cycle] == "failure path"
    assert "no node fits" in rows["PostFilter"][cycle]


def test_the_table_lists_the_points_in_the_order_they_run(table_page):
    _, page = table_page
    table = core_table(page)
    order = [row[table.column("Extension point")] for row in table.body()]
    expected = ["PreFilter", "Filter", "PostFilter", "PreScore", "Score", "NormalizeScore", "Reserve", "Permit",
                "the boundary", "WaitOnPermit", "PreBind", "Bind", "PostBind"]
    assert [p for p in order if p in expected] == expected
    assert order.index("select host, then assume") < order.index("Reserve")


def test_the_table_says_when_the_conditional_points_run(table_page):
    _, page = table_page
    table = core_table(page)
    rows, when = core_rows(page), table.column("When it runs")
    assert "Only if no node passed Filter" in rows["PostFilter"][when]
    assert "in parallel" in rows["Filter"][when]
    assert "at least two nodes are feasible" in rows["PreScore"][when]
    assert "Reserve fails, Permit rejects, or any binding step fails" in rows["Unreserve"][when]
    assert "Only after a successful bind" in rows["PostBind"][when]
    history = core_table(page, "Called from")
    rows, where, since = core_rows(page, "Called from"), history.column("Called from"), history.column("Since")
    assert "go sched.runBindingCycle(...)" in rows["the boundary"][where]
    assert all(rows[p][where] for p in CORE_POINTS), "every core point names where it is called"
    assert all(rows[p][since].startswith("v1.") for p in CORE_POINTS), "every core point has a version"
    assert rows["Permit"][since].startswith("v1.15") and "v1.15 to v1.17" in rows["Permit"][since]
    assert rows["WaitOnPermit"][since] == "v1.18" and rows["PreScore"][since] == "v1.18"
    assert rows["PostFilter"][since] == "v1.19"


def test_the_table_has_the_advanced_points_and_the_version_table(table_page):
    text, page = table_page
    headings = [t for _, t in page.headings]
    assert "Advanced and optional points" in headings
    cells = " ".join(" ".join(r[:1]) for t in page.tables for r in t.body())
    for point in ADVANCED_POINTS:
        assert point in cells or point in visible_text(text), point
    versions = [t for t in page.tables if t.heading == "Your drawing matches vX"]
    assert len(versions) == 1
    by_version = {row[0]: row for row in versions[0].body()}
    assert "Permit (and its wait)" in by_version["v1.15 to v1.17"][2]
    assert "assume → Reserve → Permit" in by_version["about v1.19 to v1.33"][1]
    assert by_version["about v1.19 to v1.33"][2].startswith("WaitOnPermit")


# ----------------------------------------------------------------------------- how to submit


def test_the_submit_page_shows_the_template_and_the_conventions(submit_page):
    text, page = submit_page
    page_text = visible_text(text)
    template = (ROOT / "answers" / "_template.mmd").read_text(encoding="utf-8")
    assert any(m.strip() == template.strip() for d in page.details for m in d.mermaid) or \
        template.strip() in page_text, "the template is not shown on the submit page"
    for convention in ("answers/<github-handle>.mmd", "answers/<github-handle>.corrected.mmd", "rect rgb(",
                       "Note over S: scheduling cycle", "box Scheduling cycle", "participant B as Binding goroutine",
                       "par binding cycle", "S-)B: go func()", "Note over S,B: reason:", "cache: FunctionName",
                       "drawcheck check answers/<github-handle>.mmd", "Note over S,B: assumed 1:"):
        assert convention in page_text, convention
    assert 'href="../grading/"' in text, "the submit page links to How drawings are graded"
    assert "ends a Mermaid statement" in page_text and "starts an entity code" in page_text


# ----------------------------------------------------------------------------- what the pages load


def test_no_page_requests_google_fonts(site):
    pages = sorted(site.rglob("*.html"))
    assert pages
    for path in pages:
        text = path.read_text(encoding="utf-8")
        assert "fonts.googleapis.com" not in text and "fonts.gstatic.com" not in text, path


def test_the_site_loads_the_pinned_mermaid(site, index):
    _, page = index
    pinned = json.loads((ROOT / "package.json").read_text(encoding="utf-8"))["dependencies"]["mermaid"]
    mermaid_scripts = [s for s in page.scripts if "mermaid" in s and not s.endswith("drawcheck-mermaid.js")]
    assert len(mermaid_scripts) == 1, page.scripts
    shim = [i for i, s in enumerate(page.scripts) if s.endswith("drawcheck-mermaid.js")]
    assert shim == [page.scripts.index(mermaid_scripts[0]) + 1], page.scripts  # right after Mermaid
    if LOCAL_MERMAID.is_file():
        assert mermaid_scripts == ["assets/javascripts/mermaid.min.js"]
        assert (site / "assets" / "javascripts" / "mermaid.min.js").read_bytes() == LOCAL_MERMAID.read_bytes()
        npm_copy = ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
        assert LOCAL_MERMAID.read_bytes() == npm_copy.read_bytes(), "docs/ holds a different Mermaid than npm's"
    else:
        assert mermaid_scripts == [f"https://cdn.jsdelivr.net/npm/mermaid@{pinned}/dist/mermaid.min.js"]


# ----------------------------------------------------------------------------- the deploy is never blocked by a learner


def copy_of_the_repository(tmp_path: Path) -> Path:
    import shutil

    root = tmp_path / "repo"
    root.mkdir()
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy(ROOT / name, root / name)
    for name in ("docs", "reference", "answers"):
        shutil.copytree(ROOT / name, root / name, symlinks=True)
    return root


def hostile_answers(answers: Path) -> None:
    """Everything a stranger's pull request could leave in answers/ once merged."""
    corpus = ROOT / "tests" / "plugin" / "answers"
    (answers / "mallory.mmd").write_text((corpus / "mallory.mmd").read_text(encoding="utf-8"), encoding="utf-8")
    (answers / "margaret.mmd").write_text((corpus / "margaret.mmd").read_text(encoding="utf-8"), encoding="utf-8")
    (answers / "huge.mmd").write_text("sequenceDiagram\n" + "    A->>B: x\n" * 40000, encoding="utf-8")
    (answers / "latin1.mmd").write_bytes(b"sequenceDiagram\n    A->>A: caf\xe9\n")
    (answers / "nul.mmd").write_bytes(b"sequenceDiagram\n\x00\n")
    (answers / "long.mmd").write_text("sequenceDiagram\n" + "%% x\n" * 3000, encoding="utf-8")
    (answers / "bad name.mmd").write_text("sequenceDiagram\n", encoding="utf-8")
    (answers / "notes.txt").write_text("hello\n", encoding="utf-8")
    (answers / "sub").mkdir()
    os.symlink("/etc/passwd", answers / "outside.mmd")
    (answers / "::error::gotcha.mmd").write_text("sequenceDiagram\n", encoding="utf-8")


def strict_build(root: Path, tmp_path: Path, **env) -> tuple[subprocess.CompletedProcess, Path]:
    out = tmp_path / "site"
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(root / "mkdocs.yml"), "-d", str(out)]
    environ = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": "", **env}
    environ.pop("DRAWCHECK_ONLY", None)
    return subprocess.run(cmd, cwd=root, capture_output=True, text=True, env=environ, timeout=600), out


def test_no_answer_file_blocks_the_strict_deploy_build(tmp_path):
    root = copy_of_the_repository(tmp_path)
    hostile_answers(root / "answers")
    summary = tmp_path / "summary.md"
    done, site = strict_build(root, tmp_path, GITHUB_ACTIONS="true", GITHUB_STEP_SUMMARY=str(summary))
    assert done.returncode == 0, (done.stdout + done.stderr)[-6000:]
    # every learner with a handle has a page; the unreadable ones say what is wrong, with file:line
    for handle, words in (("huge", "larger than"), ("latin1", "not UTF-8"), ("nul", "NUL byte"),
                          ("long", "more than the"), ("outside", "symbolic link")):
        page = html.unescape((site / "feedback" / handle / "index.html").read_text(encoding="utf-8"))
        assert "This file could not be graded" in page and words in page, handle
        assert re.search(rf"answers/{handle}\.mmd:\d+", page), handle
        assert "root:" not in page
    overview = html.unescape((site / "feedback" / "index.html").read_text(encoding="utf-8"))
    rows = re.findall(r"<tr>(.*?)</tr>", overview, re.S)
    for handle in ("mallory", "margaret"):  # unsafe content, a syntax error: their pages say what to fix
        assert (site / "feedback" / handle / "index.html").is_file(), handle
        assert "could not be graded" in next(r for r in rows if f'href="{handle}/"' in r), handle
    for name in ("huge", "latin1", "nul", "long", "outside", "mallory", "margaret", "example-one-lane"):
        assert f'href="{name}/"' in overview, name
    assert "answers/bad name.mmd" in overview and "answers/notes.txt" in overview
    assert (site / "index.html").is_file() and (site / "table" / "index.html").is_file()
    # the problems are reported on GitHub instead: error annotations, and a summary of bounded size
    assert re.search(r"^::error file=answers/huge\.mmd,line=1,", done.stdout, re.M), done.stdout[-3000:]
    assert not re.search(r"^::error::gotcha", done.stdout, re.M)
    text = summary.read_text(encoding="utf-8")
    assert len(text.encode("utf-8")) < 1024 * 1024
    assert "could not be checked" in text and "answers/huge.mmd" in html.unescape(text).replace("&#46;", ".")


@pytest.mark.parametrize("mistake", ["page", "reference", "config"])
def test_a_mistake_in_the_site_itself_still_fails_the_build(tmp_path, mistake):
    root = copy_of_the_repository(tmp_path)
    if mistake == "page":
        page = root / "docs" / "submit.md"
        page.write_text(page.read_text(encoding="utf-8") + "\nSee [the missing page](no-such-page.md).\n",
                        encoding="utf-8")
    elif mistake == "reference":
        yml = root / "reference" / "two-cycles" / "exercise.yml"
        yml.write_text(yml.read_text(encoding="utf-8").replace("steps:", "steps: [oops", 1), encoding="utf-8")
    else:
        yml = root / "mkdocs.yml"
        yml.write_text(yml.read_text(encoding="utf-8").replace("{id: two-cycles,", "{id: Two Cycles,", 1),
                       encoding="utf-8")
    done, _ = strict_build(root, tmp_path)
    assert done.returncode != 0, mistake
    if mistake != "page":
        assert re.search(r"(exercise|mkdocs)\.yml:\d+", done.stdout + done.stderr), (done.stdout + done.stderr)[-3000:]

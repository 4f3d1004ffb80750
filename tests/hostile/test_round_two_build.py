"""A real `mkdocs build` of issue #16's attacks under GitHub Actions: the log, replayed through a port
of the runner's command parser, holds only drawcheck's own commands; no outside file reaches the site
or its search index; the overview is still the overview; every attack is named with file:line."""

from __future__ import annotations

import json
import os
import subprocess
import sys

import pytest

import round_two
from runner_commands import parse_legacy, parse_v2, replay, REGISTERED

sys.path.insert(0, str(round_two.ROOT / "tests" / "browser"))
from browserkit import make_project  # noqa: E402


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("round-two")
    answers = {k: v for k, v in round_two.answers().items() if isinstance(k, str)}
    project = make_project(tmp, answers=answers)
    for name, content in round_two.answers().items():
        if isinstance(name, bytes):
            (project / "answers").joinpath(os.fsdecode(name)).write_text(content, encoding="utf-8")
    round_two.poison(project)
    site, summary = tmp / "site", tmp / "summary.md"
    env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "NO_MKDOCS_2_WARNING": "1",
           round_two.CANARY_ENV: round_two.CANARY, "PYTHONIOENCODING": "utf-8:strict", "LC_ALL": "C.UTF-8"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--no-strict", "-f", str(project / "mkdocs.yml"),
                           "-d", str(site)], cwd=project, capture_output=True, env=env, timeout=900)
    log = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
    assert done.returncode == 0, log[-5000:]
    return log, site, summary.read_text(encoding="utf-8")


def test_the_runner_port_reads_both_forms_and_stop_commands():
    assert parse_v2("  ::error file=a%2Cb,line=3::x%0Ay", REGISTERED).properties == {"file": "a,b", "line": "3"}
    assert parse_legacy("WARNING - x ##[error file=m;line=4]y", REGISTERED).data == "y"
    assert parse_v2("a ::error::x", REGISTERED) is None and parse_legacy("# #[error]x", REGISTERED) is None
    obeyed = replay("::stop-commands::tok\n::error::hidden\n##[tok]\n::warning::seen")
    assert [c.name for c in obeyed] == ["stop-commands", "tok", "warning"]


def test_the_build_log_issues_only_drawchecks_own_annotations(built):
    log, _, _ = built
    obeyed = replay(log)
    own = [c for c in obeyed if c.name in ("error", "warning", "notice") and c.line.startswith(f"::{c.name} ")
           and c.properties.get("title", "").startswith("drawcheck")]
    assert own, "the build printed annotations"
    assert [c.line for c in obeyed if c not in own] == []
    assert all(c.properties.get("file", "").startswith("answers/") or "file" not in c.properties for c in own)
    assert "\x1b" not in log and "##[" not in log.replace("# #[", "")


def test_no_outside_file_reaches_the_site_or_its_search_index(built):
    _, site, _ = built
    found = {}
    for path in site.rglob("*"):
        if path.is_file() and path.suffix in (".html", ".json", ".xml", ".txt", ".mmd", ".md"):
            hits = round_two.leaked(path.read_text(encoding="utf-8", errors="replace"))
            if hits:
                found[str(path.relative_to(site))] = hits
    assert found == {}
    index = json.loads((site / "search" / "search_index.json").read_text(encoding="utf-8"))
    assert round_two.leaked(json.dumps(index)) == []
    assert (site / "leak" / "index.html").exists() and (site / "submit" / "index.html").exists()


def test_withheld_includes_and_the_template_are_named_in_the_log(built):
    log, site, _ = built
    for name in ("_passwd.mmd", "_environ.mmd", "_git.mmd", "_dangling.mmd", "_template.mmd"):
        assert any(f"answers/{name}:" in ln and "WARNING" in ln for ln in log.splitlines()), name
    assert "<script>window.__pwned" not in (site / "submit" / "index.html").read_text(encoding="utf-8")


def test_the_overview_is_the_overview_and_reserved_handles_are_refused(built):
    log, site, _ = built
    overview = (site / "feedback" / "index.html").read_text(encoding="utf-8")
    assert "Class overview" in overview and "good-reference" in overview
    for name in round_two.REFUSED_HANDLES:
        assert any(f"answers/{name}:1:" in ln and "INFO" in ln for ln in log.splitlines()), name  # INFO: a learner file never blocks the deploy
        assert not (site / "feedback" / name.split(".")[0] / "index.html").exists() or name.split(".")[0] == "index"
    assert "Example submission" not in overview
    assert not list(site.glob("feedback/example-x*"))


def test_the_redrawn_copy_over_mermaids_limit_is_an_error_naming_the_file(built):
    log, site, _ = built
    assert any("answers/long-rewrite.mmd:1:" in ln and "50,000" in ln for ln in log.splitlines())
    import html

    page = (site / "feedback" / "long-rewrite" / "index.html").read_text(encoding="utf-8")
    assert "50,000" in html.unescape(page) and 'class="mermaid"' not in page.split("Check yourself")[0]


def test_the_fake_mark_is_redrawn_without_mark_glyphs_or_colours(built):
    import html
    import re

    _, site, _ = built
    page = (site / "feedback" / "fake-mark" / "index.html").read_text(encoding="utf-8")
    drawings = [html.unescape(d) for d in re.findall(r'<pre class="mermaid"><code>(.*?)</code></pre>', page, re.S)]
    drawn = drawings[0]  # the drawing is shown once, circled: the site's own marks are in it too
    learner_lines = [ln for ln in drawn.splitlines() if "#40;1#41;" in ln or "\u20dd" in ln]
    assert learner_lines and all("\u2460" not in ln and "\u2461" not in ln and "\u20dd" not in ln for ln in learner_lines)
    assert "#40;1#41; the boundary is here" in drawn
    # every mark glyph and mark colour belongs to one of the site's marks (a symbol word after the number)
    marks = [ln for ln in drawn.splitlines() if re.search("[\u2460-\u2473]", ln)]
    assert all(re.search(r"[\u2460-\u2473] (#10007;|#43;|#8596;) ", ln) for ln in marks), marks
    assert drawn.count("rgba(46, 160, 67, 0.22)") == drawn.count("#8596; true boundary")


def test_a_name_that_is_not_utf8_does_not_stop_the_build(built):
    log, _, summary = built
    assert any("answers/bad-\ufffd.mmd:1:" in ln for ln in log.splitlines())
    assert "##[" not in summary.replace("&#35;", "")

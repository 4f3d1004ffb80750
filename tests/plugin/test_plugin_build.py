"""A real site built in tmp_path: generated pages, nav, log lines, failures that stop (or do not stop) the build."""

from __future__ import annotations

import html
import logging
import os
import re

import pytest
from mkdocs.exceptions import Abort, PluginError

from plugin_site import CORPUS, ROOT, build
from drawcheck.grade import grade_text
from drawcheck.grade.model import FINDING_KINDS
from drawcheck.reference import load_reference
from drawcheck.report import format_log_line, report_lines

REFERENCE = load_reference(str(ROOT / "reference" / "two-cycles" / "exercise.yml"))


def expected_results():
    """What the grader says about each corpus file, computed independently of the plugin."""
    return {f.name: grade_text(f.read_text(encoding="utf-8"), file=f"answers/{f.name}", reference=REFERENCE)
            for f in sorted(CORPUS.glob("*.mmd"))}


class _ListHandler(logging.Handler):
    def __init__(self):
        super().__init__(logging.DEBUG)
        self.records: list[logging.LogRecord] = []

    def emit(self, record):
        self.records.append(record)


@pytest.fixture(scope="module")
def corpus_build(tmp_path_factory):
    """The corpus site, built once for the module (caplog is function-scoped, so a handler of our own)."""
    from plugin_site import make_site

    handler = _ListHandler()
    loggers = [logging.getLogger("mkdocs.plugins.drawcheck"), logging.getLogger("mkdocs.commands.build")]
    old = [lg.level for lg in loggers]
    for lg in loggers:
        lg.addHandler(handler)
        lg.setLevel(logging.DEBUG)

    class _Cap:  # the bits of caplog that build() uses
        records = handler.records

        def clear(self):
            handler.records.clear()

        def set_level(self, *a, **k):
            pass

    try:
        built = build(make_site(tmp_path_factory.mktemp("corpus")), _Cap())
    finally:
        for lg, level in zip(loggers, old):
            lg.removeHandler(handler)
            lg.setLevel(level)
    return built


def test_corpus_covers_every_finding_kind():
    kinds = {f.kind for r in expected_results().values() for f in r.findings}
    assert kinds >= set(FINDING_KINDS), set(FINDING_KINDS) - kinds


def test_strict_build_passes_despite_the_broken_files_and_every_page_is_built(corpus_build):
    assert corpus_build.error is None, corpus_build.build_errors  # a learner's file never blocks the deploy
    for name, result in expected_results().items():
        handle = name.split(".")[0]
        assert (corpus_build.site / "feedback" / handle / "index.html").is_file(), handle
    assert (corpus_build.site / "feedback" / "index.html").is_file()
    assert (corpus_build.site / "index.html").is_file()


def test_one_log_line_per_finding_at_the_configured_levels(corpus_build):
    logged = {(r.levelno, r.getMessage()) for r in corpus_build.records}
    for result in expected_results().values():
        for item in report_lines(result, product=REFERENCE.product):
            level = {"error": logging.INFO, "correction": logging.INFO, "hint": logging.DEBUG}[item.severity]
            assert (level, format_log_line(item)) in logged, format_log_line(item)
    lines = [m for lvl, m in logged if lvl >= logging.INFO]
    assert all(re.match(r"^drawcheck: answers/[\w.-]+\.mmd(:\d+)?: \S", m) for m in lines), lines[:3]
    assert any(m.startswith("drawcheck: answers/margaret.mmd:4: ") for lvl, m in logged if lvl == logging.INFO)
    assert any(m.startswith("drawcheck: answers/mallory.mmd:1: ") for lvl, m in logged if lvl == logging.INFO)
    assert not [m for lvl, m in logged if lvl >= logging.WARNING]  # nothing a learner wrote trips --strict


def test_overview_is_in_the_nav_and_submission_pages_are_not(corpus_build):
    home = corpus_build.html("index.html")
    nav = home[home.index("md-nav--primary"):]
    nav = nav[: nav.index('class="md-content"')]
    assert 'href="feedback/"' in nav and "Class overview" in nav
    assert "feedback/ada/" not in home
    overview = corpus_build.html("feedback/index.html")
    for handle in ("ada", "grace", "linus", "margaret", "mallory", "barbara"):
        assert f'href="{handle}/"' in overview


def test_results_json_lists_every_graded_file(corpus_build):
    import json

    from drawcheck.report.json_report import result_json  # Result.to_json() with each correction's number

    data = json.loads((corpus_build.site / "feedback" / "results.json").read_text(encoding="utf-8"))
    assert data["exercise"] == REFERENCE.exercise_id
    expected = expected_results()
    assert sorted(r["file"] for r in data["results"]) == sorted(f"answers/{n}" for n in expected)
    for r in data["results"]:
        assert r == result_json(expected[r["file"].split("/")[-1]])


def test_feedback_pages_show_drawing_circles_and_closed_reference(corpus_build):
    page = corpus_build.html("feedback/ada/index.html")
    assert page.count('class="mermaid"') == 2  # first circled, corrected circled; the reference is linked
    assert "check-your-drawing" in page
    assert "①" in page and "missing#58; NormalizeScore" in page
    assert "Reserve was the cache update" in page  # the learner's "assumed 1:" note, in the table
    assert "Example submission" not in page


def test_unsafe_learner_text_never_reaches_the_html(corpus_build):
    page = corpus_build.html("feedback/mallory/index.html")
    assert "<img src=x" not in page and "onerror=alert" not in page.replace("onerror#61;", "")
    assert "securityLevel" not in page.split('class="mermaid"')[1].split("</pre>")[0]
    assert "site_name" not in page  # --8<-- "mkdocs.yml" was not included


def test_shipped_examples_build_and_say_example(tmp_path, caplog):
    from plugin_site import make_site

    root = make_site(tmp_path, corpus=False)
    for f in (ROOT / "answers").glob("example-*.mmd"):
        (root / "answers" / f.name).write_text(f.read_text(encoding="utf-8"), encoding="utf-8")
    built = build(root, caplog)
    assert built.error is None, built.error
    examples = sorted(p.name for p in (ROOT / "answers").glob("example-*.mmd") if ".corrected." not in p.name)
    assert 3 <= len(examples) <= 5
    kinds = set()
    for name in examples:
        handle = name[:-4]
        assert "Example submission" in built.html(f"feedback/{handle}/index.html")
        result = grade_text((ROOT / "answers" / name).read_text(encoding="utf-8"), file=name, reference=REFERENCE)
        assert result.status == "corrections"
        kinds |= {f.kind for f in result.corrections}
    assert kinds >= {"missing", "boundary", "cache-function", "order", "reason"}


def test_refused_files_are_reported_and_do_not_stop_other_pages(site_factory, caplog):
    root = site_factory({"bad name.mmd": "sequenceDiagram\n", "latin1.mmd": b"sequenceDiagram\n  A->>A: caf\xe9\n"},
                        corpus=False)
    (root / "answers" / "ok.mmd").write_text((CORPUS / "barbara.mmd").read_text(encoding="utf-8"), encoding="utf-8")
    os.symlink(root / "mkdocs.yml", root / "answers" / "sneaky.mmd")
    built = build(root, caplog, strict=True)
    assert built.error is None
    logged = built.messages(logging.INFO)
    for name in ("bad name.mmd", "latin1.mmd", "sneaky.mmd"):
        assert any(m.startswith(f"drawcheck: answers/{name}") for m in logged), (name, logged)
    assert (built.site / "feedback" / "ok" / "index.html").is_file()
    for handle, words in (("sneaky", "symbolic link"), ("latin1", "not UTF-8 text")):
        page = html.unescape(built.html(f"feedback/{handle}/index.html"))  # its own "could not be graded" page
        assert "This file could not be graded" in page and words in page and "site_name" not in page
        assert re.search(rf"answers/{handle}\.mmd:\d+", page), handle
    overview = built.html("feedback/index.html")
    assert "refused" in overview and "site_name" not in overview
    assert 'href="sneaky/"' in overview and 'href="latin1/"' in overview


def stopped_by_plugin_error(built) -> str:
    """mkdocs turns a PluginError raised in a hook into a logged error and Abort("... BuildError!")."""
    assert isinstance(built.error, (PluginError, Abort)), built.error
    if isinstance(built.error, Abort):
        assert "BuildError" in str(built.error)
        assert built.build_errors, "the PluginError message was not logged"
        return built.build_errors[-1]
    return str(built.error)


def test_a_broken_reference_stops_the_build_with_file_and_line(site_factory, caplog):
    root = site_factory(corpus=False)
    yml = root / "reference" / "two-cycles" / "exercise.yml"
    lines = yml.read_text(encoding="utf-8").split("\n")
    at = next(i for i, ln in enumerate(lines) if ln.startswith("steps:"))
    lines.insert(at + 1, "  - id: [this is not a name")
    yml.write_text("\n".join(lines), encoding="utf-8")
    built = build(root, caplog)
    message = stopped_by_plugin_error(built)
    assert re.search(r"exercise\.yml:\d+", message), message
    assert not (built.site / "feedback").exists()


def test_a_missing_reference_names_the_option_line(site_factory, caplog):
    root = site_factory(corpus=False, plugin_options="      reference: reference/nope.yml")
    message = stopped_by_plugin_error(build(root, caplog))
    line = next(i for i, ln in enumerate((root / "mkdocs.yml").read_text().split("\n"), 1) if "reference: reference/nope.yml" in ln)
    assert f"mkdocs.yml:{line}:" in message and "reference/nope.yml" in message


@pytest.mark.parametrize("option, value", [("annotations_per_level", "11"), ("annotations_total", "80"),
                                           ("feedback_dir", "../outside"), ("answers_dir", "no-such-folder")])
def test_an_unusable_option_stops_the_build_naming_mkdocs_yml_line(site_factory, caplog, option, value):
    root = site_factory(corpus=False, plugin_options=f"      {option}: {value}")
    message = stopped_by_plugin_error(build(root, caplog))
    text = (root / "mkdocs.yml").read_text().split("\n")
    line = next(i for i, ln in enumerate(text, 1) if ln.strip().startswith(f"{option}:"))
    assert f"mkdocs.yml:{line}: option `{option}`" in message


def test_a_wrongly_typed_option_is_refused_by_config_validation(site_factory, caplog):
    root = site_factory(corpus=False, plugin_options="      correction_log_level: LOUD")
    built = build(root, caplog)
    assert built.error is not None and "correction_log_level" in str(built.error) + caplog.text


def test_levels_are_configurable(site_factory, caplog):
    root = site_factory({"ada.mmd": (CORPUS / "ada.mmd").read_text(encoding="utf-8"),
                         "margaret.mmd": (CORPUS / "margaret.mmd").read_text(encoding="utf-8")}, corpus=False,
                        plugin_options="      correction_log_level: WARNING\n      error_log_level: ERROR")
    built = build(root, caplog, strict=False)
    assert any(m.startswith("drawcheck: answers/ada.mmd:") for m in built.messages(logging.WARNING))
    assert any(m.startswith("drawcheck: answers/margaret.mmd:4:") for m in built.messages(logging.ERROR))
    assert not built.messages(logging.INFO)


def test_corrections_alone_do_not_fail_a_strict_build(site_factory, caplog):
    root = site_factory({"ada.mmd": (CORPUS / "ada.mmd").read_text(encoding="utf-8")}, corpus=False)
    built = build(root, caplog)
    assert built.error is None
    assert built.messages(logging.INFO)


def test_on_serve_watches_answers_and_reference(site_factory):
    from mkdocs.config import load_config

    root = site_factory(corpus=False)
    config = load_config(str(root / "mkdocs.yml"))
    plugin = config.plugins["drawcheck"]
    config = plugin.on_config(config)

    class Server:
        watched: list[str] = []

        def watch(self, path, func=None, *, recursive=True):
            self.watched.append(os.path.abspath(path))

    server = plugin.on_serve(Server(), config=config, builder=lambda: None)
    assert os.path.abspath(root / "answers") in server.watched
    assert os.path.abspath(root / "reference" / "two-cycles") in server.watched


def test_disabled_plugin_adds_nothing(site_factory, caplog):
    root = site_factory({"ada.mmd": (CORPUS / "ada.mmd").read_text(encoding="utf-8")}, corpus=False,
                        plugin_options="      enabled: false")
    built = build(root, caplog, strict=False)  # offline, mermaid2 warns about its default CDN
    assert built.error is None
    assert not (built.site / "feedback").exists() and not built.records


def test_a_page_that_fails_to_render_does_not_stop_the_others(site_factory, caplog, monkeypatch):
    from drawcheck import render

    real = render.feedback_page

    def flaky(g, reference, *links):
        if g.handle == "grace":
            raise RuntimeError("boom")
        return real(g, reference, *links)

    monkeypatch.setattr(render, "feedback_page", flaky)
    root = site_factory({n: (CORPUS / n).read_text(encoding="utf-8") for n in ("grace.mmd", "barbara.mmd")},
                        corpus=False)
    built = build(root, caplog)
    assert built.error is None  # logged at error_log_level (INFO): one learner's page never blocks the deploy
    assert "drawcheck: answers/grace.mmd: the feedback page could not be drawn (RuntimeError)" in \
        built.messages(logging.INFO)
    assert "could not be drawn" in built.html("feedback/grace/index.html")  # ... but every page is there
    assert "mermaid" in built.html("feedback/barbara/index.html")


def test_an_overview_that_fails_to_render_still_links_every_page(site_factory, caplog, monkeypatch):
    from drawcheck import render

    monkeypatch.setattr(render, "overview_page", lambda *a, **k: 1 / 0)
    root = site_factory({"barbara.mmd": (CORPUS / "barbara.mmd").read_text(encoding="utf-8")}, corpus=False)
    built = build(root, caplog)
    assert built.error is None
    assert "drawcheck: the class overview could not be drawn (ZeroDivisionError)" in built.messages(logging.INFO)
    assert 'href="barbara/"' in built.html("feedback/index.html")
    assert (built.site / "feedback" / "barbara" / "index.html").is_file()

"""The real site built with every hostile corpus file as a learner's answer, opened in Chromium.

Nothing a learner wrote may run script (dialog, `window.__pwned` canary, console), add event handlers,
iframes or script links, reach outside 127.0.0.1, or loosen Mermaid's strict security level; each
payload is shown as inert text; the build log names every attack with file:line; the other pages build.
"""

from __future__ import annotations

import json

import pytest

from drawcheck.safety import log_text

from browserkit import (
    ROOT, active_content_report, build, diagram_report, make_project, mermaid_security_level, require_chromium,
    serve, wait_for_diagrams, watched_page,
)

pytestmark = pytest.mark.browser

CORPUS = ROOT / "tests" / "hostile"
EXPECTED = json.loads((CORPUS / "expected.json").read_text(encoding="utf-8"))
GOOD = "good-reference.mmd"  # example-* handles are refused unless mkdocs.yml lists them


def handle(name: str) -> str:
    return name.removesuffix(".mmd").replace("_", "-")


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    require_chromium()
    answers = {f"{handle(n)}.mmd": (CORPUS / n).read_text(encoding="utf-8") for n in EXPECTED}
    answers[GOOD] = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8")
    answers["Twin.mmd"] = answers["twin.mmd"] = answers[GOOD]
    answers["latin1.mmd"] = "sequenceDiagram\n    S->>C: caf\xe9\n".encode("latin-1")
    project = make_project(tmp_path_factory.mktemp("hostile"), answers=answers)
    (project / "answers" / "mallory.mmd").symlink_to("/etc/passwd")
    import sys

    sys.path.insert(0, str(ROOT / "tests" / "hostile"))
    import round_two

    for name, content in round_two.answers().items():
        if isinstance(name, str) and name not in answers and not name.startswith(("##", "::", "esc")):
            (project / "answers" / name).write_text(content, encoding="utf-8")
    round_two.poison(project)  # script in the template, symlinked includes to /etc/passwd, environ, .git/config
    built = build(project, strict=False)
    with serve(built.site) as url:
        yield built, url


def test_build_log_names_every_attack_with_file_and_line(hostile_site):
    built, _ = hostile_site
    missing = []
    for name, expectations in EXPECTED.items():
        for e in expectations:
            where = f"answers/{handle(name)}.mmd:{e['line']}:"
            says = log_text(e["says"])  # as the log shows it: no `::` is printed
            if not any(where in line and says in line for line in built.log.splitlines()):
                missing.append(f"{where} ... {e['says']}")
    assert missing == []
    good_warnings = [ln for ln in built.log.splitlines() if f"answers/{GOOD}" in ln and ln.startswith("WARNING")]
    assert good_warnings == [], "the reference drawing itself must pass"


def test_untrusted_files_are_refused_by_name_and_never_read(hostile_site):
    built, _ = hostile_site
    log = built.log.splitlines()
    for where in ("answers/mallory.mmd:1:", "answers/latin1.mmd:2:", "answers/Twin.mmd:1:", "answers/twin.mmd:1:"):
        assert any(where in line and "INFO" in line for line in log), where  # INFO: never blocks the deploy
    import round_two

    leaked = [p for p in built.site.rglob("*") if p.is_file() and p.suffix in (".html", ".xml", ".json")
              and round_two.leaked(p.read_text(encoding="utf-8", errors="replace"))]
    assert leaked == []
    pages = set(built.pages())
    assert not {"feedback/Twin/", "feedback/twin/"} & pages  # two spellings of one handle: rows only
    for refused in ("mallory", "latin1"):  # their own "could not be graded" page, naming the problem
        assert f"feedback/{refused}/" in pages
        assert "This file could not be graded" in (built.site / "feedback" / refused / "index.html").read_text(
            encoding="utf-8")


def test_every_learner_still_gets_a_page_and_the_class_overview_lists_them(hostile_site):
    built, _ = hostile_site
    pages = set(built.pages())
    for name in list(EXPECTED) + [GOOD]:
        assert f"feedback/{handle(name)}/" in pages, name
    overview = (built.site / "feedback" / "index.html").read_text(encoding="utf-8")
    assert "Class overview" in overview and "good-reference" in overview  # not replaced by answers/index.mmd
    for name in EXPECTED:
        assert handle(name) in overview


def visible_text(page) -> str:
    """Text a reader sees: the page, plus the text of every drawn diagram (in shadow roots)."""
    return page.evaluate(
        """() => document.body.innerText + "\\n" + [...document.querySelectorAll("div.mermaid")]
              .map(h => h.shadowRoot ? h.shadowRoot.textContent : "").join("\\n")""")


# Payloads in text the feedback page draws back: messages, notes, participant aliases, block labels, title.
# (links/properties, accTitle/accDescr and box labels are not drawn back; a file that does not parse is
# reported by file:line instead.)
DRAWN_PAYLOADS = [
    "script_in_message.mmd", "img_onerror_message.mmd", "svg_onload_note.mmd", "iframe_in_note.mmd",
    "participant_alias_img.mmd", "actor_alias_bold_handler.mmd", "create_participant_script.mmd",
    "title_script.mmd", "loop_label_img.mmd", "else_label_details_toggle.mmd", "handler_without_tag.mmd",
    "mermaid_entity_tag.mmd", "html_entity_tag.mmd",
]


def test_no_hostile_answer_runs_script_or_changes_mermaid(browser, hostile_site):
    """Every page: nothing runs, nothing active in the DOM, strict Mermaid, payloads shown as text."""
    built, url = hostile_site
    problems = []
    assert {f"feedback/{handle(n)}/" for n in DRAWN_PAYLOADS} <= set(built.pages())
    for path in built.pages():
        with watched_page(browser) as seen:
            page = seen.page
            page.goto(url + path)
            wait_for_diagrams(page)
            for summary in page.locator("details:not([open]) > summary").all():
                if summary.is_visible():
                    summary.click()
            page.mouse.move(300, 300)
            page.mouse.move(600, 500)
            page.wait_for_timeout(50)
            if page.evaluate("() => window.__pwned") is not None:
                problems.append(f"{path}: window.__pwned was set")
            found = active_content_report(page)
            for kind in ("handlers", "iframes", "jsLinks"):
                if found[kind]:
                    problems.append(f"{path}: {kind} {found[kind][:3]}")
            inline = [s for s in found["scripts"] if "__pwned" in s]
            if inline:
                problems.append(f"{path}: learner script element {inline[:1]}")
            diagrams = diagram_report(page)
            level = mermaid_security_level(page)
            if level != "strict" and (diagrams or level is not None):
                problems.append(f"{path}: Mermaid securityLevel {level}")
            for i, d in enumerate(diagrams):
                if "Syntax error" in d["text"] or not (d["width"] > 20 and d["height"] > 20):
                    problems.append(f"{path}: diagram {i} not drawn ({d['width']}x{d['height']})")
            drawn_payload = [n for n in DRAWN_PAYLOADS if path == f"feedback/{handle(n)}/"]
            if drawn_payload and "__pwned" not in visible_text(page):
                problems.append(f"{path}: the learner's own text is not shown (as text)")
            problems += [f"{path}: dialog {d}" for d in seen.dialogs]
            problems += [f"{path}: page error {e}" for e in seen.page_errors]
            problems += [f"{path}: request left 127.0.0.1: {u}" for u in seen.outside_requests]
            problems += [f"{path}: console {c}" for c in seen.console if "pwned" in c]
    assert problems == []




@pytest.mark.parametrize("query", ["onerror", "javascript", "img", "iframe"])
def test_site_search_shows_hostile_text_inert(browser, hostile_site, query):
    """Material's search renders result snippets as HTML: learner text in the index must stay text."""
    _, url = hostile_site
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(url)
        page.wait_for_load_state("networkidle")  # the search worker has its index
        search = page.locator("input.md-search__input")
        search.click()
        search.press_sequentially(query, delay=60)  # Material searches on key events
        page.wait_for_selector(".md-search-result__item", timeout=30000)
        page.wait_for_timeout(300)
        results = page.locator(".md-search-result__item")
        assert results.count() >= 1
        for i in range(min(results.count(), 5)):  # expand "more on this page" lists too
            results.nth(i).hover()
        found = active_content_report(page)
        assert page.evaluate("() => window.__pwned") is None
        assert found["handlers"] == [] and found["iframes"] == [] and found["jsLinks"] == [], found
        assert seen.dialogs == [] and seen.page_errors == [] and seen.outside_requests == []

"""drawcheck.safety's escapers in the real stack: Material + pymdownx + Mermaid 12.3.0 in Chromium.

A page is generated from the hostile corpus and extra payloads: each line goes through `mermaid_text`
into a diagram (participant alias, message, note, loop and alt labels) and through `html_text` into a
Markdown paragraph. In the browser nothing may run, and each payload must be shown as its own text.
"""

from __future__ import annotations

import re
import sys

import pytest

from browserkit import (
    ROOT, active_content_report, diagram_report, mermaid_security_level, require_chromium, serve,
    wait_for_diagrams, watched_page,
)

from drawcheck import safety
from drawcheck.safety import html_text, mermaid_text

pytestmark = pytest.mark.browser

CORPUS = ROOT / "tests" / "hostile"
EXTRA = [
    "<script>window.__pwned = 1</script>",
    "<img src=x onerror=\"window.__pwned=1;alert(1)\">",
    "x</text><foreignObject><div onmouseover=\"window.__pwned=1\">hi</div></foreignObject>",
    "#60;img src=x onerror=window.__pwned=1#62;",
    "\ufb02\xb0\xb060\xb6\xdfimg src=x onerror=window.__pwned=1\ufb02\xb0\xb062\xb6\xdf",
    "a; participant Z as <b>x</b>",
    "x %% comment? #not ; end",
    "$$\\href{javascript:window.__pwned=1}{click}$$",
    "*emph* _u_ `code` [link](javascript:window.__pwned=1) ![i](x) | a | b |",
    "{{ config.site_name }} {% raw %}",
    "--8<-- \"mkdocs.yml\"",
    "!!! danger \"pwned\"",
    "wrap:long text",
    "A-->>B: not a message",
    "Straße, naïve café — 東京",
]


# Written into ```mermaid fences unescaped: the site's fence format must keep them out of the HTML.
RAW_FENCE_LINES = [
    'A->>B: <img src=x onerror="window.__pwned=1">',
    "Note over A: <script>window.__pwned=1</script>",
    "A->>B: </code></pre><img src=x onerror=window.__pwned=1><pre><code>",
]


def payloads() -> list[str]:
    lines = []
    for path in sorted(CORPUS.glob("*.mmd")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                lines.append(line)
    return sorted(set(lines + EXTRA))


def visible(s: str) -> str:
    """What a reader sees of `s`: one line, invisible characters gone (runner commands are a log's concern)."""
    return " ".join(safety._flatten(s).split())


def escaped_page(cases: list[str]) -> str:
    parts = ["# Escaped learner text\n"]
    for n, raw in enumerate(cases):
        label = mermaid_text(raw)
        parts.append(f"{html_text(raw)}\n{{: .dc-case data-case=\"{n}\" }}\n")
        parts.append(
            "```mermaid\n"
            "sequenceDiagram\n"
            f"    participant P{n} as {label}\n"
            f"    participant Q as {label}\n"
            f"    P{n}->>Q: {label}\n"
            f"    Note over P{n},Q: {label}\n"
            f"    loop {label}\n"
            f"        Q-->>P{n}: {label}\n"
            "    end\n"
            f"    alt {label}\n"
            f"        Q->>Q: ok\n"
            f"    else {label}\n"
            f"        Q->>Q: ok\n"
            "    end\n"
            "```\n"
        )
    for raw in RAW_FENCE_LINES:
        parts.append(f"```mermaid\nsequenceDiagram\n    participant A\n    participant B\n    {raw}\n```\n")
    return "\n".join(parts)


def site_config() -> str:
    """The real mkdocs.yml's theme and Markdown extensions, mermaid2 on the local pinned copy, no drawcheck."""
    real = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    blocks = re.split(r"(?m)^(?=\S)", real)
    keep = "".join(b for b in blocks if b.startswith(("theme:", "markdown_extensions:")))
    return (
        "site_name: escaping check\nsite_url: http://127.0.0.1/\n" + keep + "\nplugins:\n  - mermaid2:\n"
        "      javascript: assets/javascripts/mermaid.min.js\n      arguments:\n        securityLevel: strict\n"
    )


@pytest.fixture(scope="module")
def escaped_site(tmp_path_factory):
    require_chromium()
    import subprocess

    project = tmp_path_factory.mktemp("escaped") / "project"
    docs = project / "docs"
    (docs / "assets" / "javascripts").mkdir(parents=True)
    (docs / "assets" / "javascripts" / "mermaid.min.js").write_bytes(
        (ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js").read_bytes())
    cases = payloads()
    (docs / "index.md").write_text(escaped_page(cases), encoding="utf-8")
    (project / "mkdocs.yml").write_text(site_config(), encoding="utf-8")
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d", str(project / "site")],
                          cwd=project, capture_output=True, text=True, env={"NO_MKDOCS_2_WARNING": "1", "PATH": "/usr/bin:/bin"},
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
    with serve(project / "site") as url:
        yield cases, url


def test_corpus_gives_enough_payloads():
    assert len(payloads()) >= 60


def test_escaped_payloads_render_as_their_own_text_and_run_nothing(browser, escaped_site):
    cases, url = escaped_site
    with watched_page(browser) as seen:
        page = seen.page
        page.goto(url)
        wait_for_diagrams(page, timeout_ms=120000)
        diagrams = diagram_report(page)
        assert len(diagrams) == len(cases) + len(RAW_FENCE_LINES)
        for raw, d in zip(RAW_FENCE_LINES, diagrams[len(cases):]):
            label = raw.split(": ", 1)[1].replace('"', "'")  # Mermaid draws " as '
            assert label in d["text"], "the fence must hand Mermaid the source as text"
        problems = []
        for n, (raw, d) in enumerate(zip(cases, diagrams)):
            want = visible(raw)
            got = " ".join(d["text"].split())
            if "Syntax error" in d["text"] or not (d["width"] > 50 and d["height"] > 50):
                problems.append(f"case {n} did not draw: {raw!r}")
            elif want and got.count(want) < 6:
                problems.append(f"case {n}: {raw!r} shown {got.count(want)} times, not 6 (alias x2, message x2, note, loop)")
        paragraphs = page.evaluate(
            """() => [...document.querySelectorAll('p.dc-case')].map(p => ({
                n: +p.dataset.case, text: p.textContent, children: p.children.length}))""")
        assert len(paragraphs) == len([c for c in cases if visible(c)])
        for p in paragraphs:
            if p["children"] != 0 or " ".join(p["text"].split()) != visible(cases[p["n"]]):
                problems.append(f"paragraph {p['n']}: {p['text']!r} (children {p['children']}) for {cases[p['n']]!r}")
        active = active_content_report(page)
        own = [s for s in active["scripts"] if not s.startswith(url)]
        assert problems == []
        assert page.evaluate("() => window.__pwned") is None
        assert seen.dialogs == [] and seen.page_errors == [] and seen.outside_requests == []
        assert active["handlers"] == [] and active["iframes"] == [] and active["jsLinks"] == []
        assert [s for s in own if "__pwned" in s] == []
        assert mermaid_security_level(page) == "strict"
        assert not any("pwned" in line for line in seen.console)

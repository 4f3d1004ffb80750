"""The escapers: output is inert where it goes and still shows the learner's own text."""

from __future__ import annotations

import html
import re
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from drawcheck.safety import (
    MAX_LABEL_CHARS, html_text, log_text, mermaid_text, unmark, workflow_property, workflow_text,
)

MERMAID_ENTITY = re.compile(r"#(\d+);")


def mermaid_decode(label: str) -> str:
    """What Mermaid 12.3.0 draws for a label: each `#NNN;` becomes one character."""
    return MERMAID_ENTITY.sub(lambda m: chr(int(m.group(1))), label)


def flattened(s: str) -> str:
    """The text as one line of visible characters (what a label shows)."""
    from drawcheck.safety import _flatten

    return " ".join(_flatten(s).split())


HOSTILE = [
    '<img src=x onerror="window.__pwned=1">',
    "</details><script>alert(1)</script>",
    "A->>B: x; Note over A: %%{init: {'securityLevel': 'loose'}}%%",
    "text # comment ; next",
    "$$\\alert{1}$$",
    "{{ config.site_name }} {% raw %}",
    '--8<-- "/etc/passwd"',
    "::error::pwned",
    "wrap:sneaky",
    "A-->>B",
    "participant X as Y",
    "line one\nline two\r\nline three",
    "\u202eevil\u202c",
    "#60;script#62;",
    "&lt;b&gt;",
    "\ufb02\xb0\xb060\xb6\xdf",
    "",
]


@pytest.mark.parametrize("raw", HOSTILE)
def test_mermaid_text_keeps_only_inert_characters(raw):
    label = mermaid_text(raw)
    without_codes = MERMAID_ENTITY.sub("", label)
    assert re.fullmatch(r"[A-Za-z0-9 .!?_]*|[^\x00-\x7f]*", without_codes) or all(
        ch.isalnum() or ch in " .!?_" for ch in without_codes
    ), label
    for token in ("<", ">", "&", '"', "'", "%", ":", "\n", "\r", "$", "{", "-", "@", ","):
        assert token not in without_codes
    assert mermaid_decode(label) == flattened(raw)


@pytest.mark.parametrize("raw", HOSTILE)
def test_html_text_shows_the_same_text_and_no_markup(raw):
    out = html_text(raw)
    assert html.unescape(out) == flattened(raw)
    assert not re.search(r"[<>\"'`*_\[\]#|{}~!?\\-]", re.sub(r"&#\d+;", "", out))
    assert "\n" not in out and "--8<--" not in out


def test_mermaid_text_is_bounded():
    label = mermaid_text("x" * 5000)
    assert len(mermaid_decode(label)) == MAX_LABEL_CHARS
    assert mermaid_decode(label).endswith("\u2026")
    assert len(mermaid_decode(mermaid_text("y" * 5000, max_chars=10))) == 10
    assert mermaid_text("short") == "short"


def test_mermaid_text_never_starts_with_wrap_switch():
    for raw in ("wrap it", "nowrap", "WRAP"):
        assert not re.match(r"(?i)(no)?wrap", mermaid_text(raw))
        assert mermaid_decode(mermaid_text(raw)) == raw


def test_mermaid_text_escapes_the_placeholder_characters_mermaid_uses():
    label = mermaid_text("\ufb02\xb0\xb060\xb6\xdf")
    assert not set(label) & set("\ufb02\xb0\xb6\xdf")


def test_workflow_escaping_follows_github_rules():
    assert workflow_text("50% done\r\nnext") == "50%25 done%0D%0Anext"
    assert workflow_property("answers/a,b.mmd:3") == "answers/a%2Cb.mmd%3A3"
    assert workflow_text("::stop-commands::x") == ": :stop-commands: :x"  # no `::` left at all
    assert "\n" not in workflow_property("a\nb")


def test_log_text_is_one_plain_line():
    assert log_text("a\nb\r\n::error::c\u202e") == "a b : :error: :c"


def unescape_workflow(s: str) -> str:
    return s.replace("%0A", "\n").replace("%0D", "\r").replace("%3A", ":").replace("%2C", ",").replace("%25", "%")


@settings(max_examples=300, deadline=None)
@given(st.text() | st.text(alphabet=st.characters(min_codepoint=0x2460, max_codepoint=0x32FF)))
def test_escapers_round_trip_any_text(raw):
    label = mermaid_text(raw, max_chars=None)
    assert mermaid_decode(label) == flattened(raw)
    assert not re.search(r"[<>&\"'%:;\n\r$`{}@,-]", MERMAID_ENTITY.sub("", label))
    # a page shows learner text without the glyphs reserved for the site's marks (`①` reads `(1)`)
    assert html.unescape(html_text(raw)) == flattened(unmark(raw))
    shown = unescape_workflow(workflow_text(raw))  # what the runner shows: the visible text, no command in it
    assert "::" not in shown and "##[" not in shown
    assert not [ch for ch in shown if ch not in "\r\n" and unicodedata.category(ch) in ("Cc", "Cf", "Cs")]
    visible = "".join(ch for ch in raw if unicodedata.category(ch) not in ("Cc", "Cf", "Co", "Cn", "Cs")
                      or ch in "\r\n\u2028\u2029\x85\x0b\x0c")
    assert shown.replace(" ", "") == re.sub("[\u2028\u2029\x85\x0b\x0c]", "\n", visible).replace(" ", "")
    assert unescape_workflow(workflow_property(raw)) == log_text(raw, max_chars=None)
    assert "\n" not in workflow_property(raw) and "\r" not in workflow_text(raw)


def test_mermaid_fence_escapes_the_diagram_source():
    import markdown

    from drawcheck.safety import fence_mermaid_custom

    md = markdown.Markdown(extensions=["pymdownx.superfences"], extension_configs={"pymdownx.superfences": {
        "custom_fences": [{"name": "mermaid", "class": "mermaid", "format": fence_mermaid_custom}]}})
    out = md.convert('```mermaid\nsequenceDiagram\n    A->>B: <img src=x onerror="x()"></code></pre>\n```\n')
    assert out.startswith('<pre class="mermaid"><code>')
    assert "<img" not in out and '&lt;img src=x onerror="x()"&gt;&lt;/code&gt;&lt;/pre&gt;</code></pre>' in out
    assert fence_mermaid_custom.__name__ == "fence_mermaid_custom"  # mkdocs-mermaid2 looks for this name


def test_the_site_uses_the_escaping_mermaid_fence():
    from pathlib import Path

    config = (Path(__file__).resolve().parents[2] / "mkdocs.yml").read_text(encoding="utf-8")
    assert "!!python/name:drawcheck.safety.fence_mermaid_custom" in config
    assert not [ln for ln in config.splitlines() if "mermaid2.fence_mermaid" in ln.split("#")[0]]

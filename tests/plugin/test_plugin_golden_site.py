"""A whole site's generated pages, byte for byte: every feedback page, both exercises' overviews and
results.json of a site built in tmp_path from a wide corpus (golden_site/answers: the plugin corpus, every
hostile file, the shipped examples, mutated learners, boxes, colours, nested blocks, Unicode, invisible
characters, entity codes, `<br>` and backticks, corrected drawings with assumed notes, syntax errors, a
drawing too long to redraw, refused files) against golden_site/expected.

The renderer's speed work must leave every page as it was; this is the proof. Regenerate after a deliberate
change with DRAWCHECK_UPDATE_GOLDEN=1 (then read the diff before committing).
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path

from plugin_site import make_site

GOLDEN = Path(__file__).with_name("golden_site")
ANSWERS = GOLDEN / "answers"
EXPECTED = GOLDEN / "expected"


def generated_pages(tmp_path: Path) -> dict[str, str]:
    """The Markdown and JSON drawcheck generates for the golden corpus, by page address."""
    from mkdocs.config import load_config
    from mkdocs.structure.files import get_files

    root = make_site(tmp_path, corpus=False)
    shutil.copytree(ANSWERS, root / "answers", dirs_exist_ok=True)
    config = load_config(str(root / "mkdocs.yml"), site_dir=str(tmp_path / "site"))
    logging.disable(logging.CRITICAL)  # the corpus is full of corrections and refusals; the log is tested elsewhere
    try:
        config = config.plugins.on_config(config)
        files = config.plugins.on_files(get_files(config), config=config)
    finally:
        logging.disable(logging.NOTSET)
    return {f.src_uri: f.content_string for f in files
            if f.generated_by == "drawcheck" and f.src_uri.endswith((".md", ".json"))}


def test_every_generated_page_is_byte_for_byte_the_golden_one(tmp_path):
    pages = generated_pages(tmp_path)
    if os.environ.get("DRAWCHECK_UPDATE_GOLDEN"):
        shutil.rmtree(EXPECTED, ignore_errors=True)
        for uri, text in pages.items():
            (EXPECTED / uri).parent.mkdir(parents=True, exist_ok=True)
            (EXPECTED / uri).write_bytes(text.encode("utf-8"))
    expected = {p.relative_to(EXPECTED).as_posix(): p.read_bytes().decode("utf-8")
                for p in sorted(EXPECTED.rglob("*")) if p.is_file()}
    assert sorted(pages) == sorted(expected)
    differing = [uri for uri in sorted(pages) if pages[uri] != expected[uri]]
    for uri in differing[:1]:  # pytest shows the first one's diff, and names every page that differs
        assert pages[uri] == expected[uri], f"{len(differing)} page(s) differ: {differing}"


def test_the_golden_corpus_is_wide():
    """Many learners, both exercises, and each kind of page: circled, correct, could not be checked, refused."""
    names = [p.name for p in ANSWERS.rglob("*.mmd")]
    assert len(names) >= 90 and any(p.parent.name == "kubectl-apply" for p in ANSWERS.rglob("*.mmd"))
    pages = "\n".join(p.read_text(encoding="utf-8") for p in EXPECTED.rglob("*.md"))
    for shown in ("Your drawing, circled", '!!! success "Correct"', "This drawing could not be checked",
                  "This file could not be graded", "## Your corrected drawing", "What I had assumed"):
        assert shown in pages, shown

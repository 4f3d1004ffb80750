"""A symbolic link inside docs/ stops the build before MkDocs lists the files (it would follow it and publish
whatever it points to: one link to `/` walks the whole machine)."""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "plugin"))
from plugin_site import build, make_site  # noqa: E402

CANARY = "drawcheck-canary-outside-the-repository"


@pytest.mark.parametrize("kind", ["folder", "file", "dangling"])
def test_a_link_in_docs_stops_the_build_naming_it_and_publishes_nothing_outside(tmp_path, caplog, kind):
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.md").write_text(f"# {CANARY}\n", encoding="utf-8")
    root = make_site(tmp_path, corpus=False)
    link = root / "docs" / "leak"
    target = {"folder": outside, "file": outside / "secret.md", "dangling": outside / "missing"}[kind]
    os.symlink(target, link if kind != "file" else link.with_suffix(".md"))
    built = build(root, caplog)
    assert built.error is not None
    said = " ".join(built.build_errors)
    assert "docs/leak" in said and "symbolic link" in said
    published = [p for p in built.site.rglob("*") if p.is_file()] if built.site.exists() else []
    assert not any(CANARY in p.read_text(encoding="utf-8", errors="replace") for p in published)


def test_a_docs_folder_without_links_builds(tmp_path, caplog):
    root = make_site(tmp_path, corpus=False)
    built = build(root, caplog)
    assert built.error is None, built.error

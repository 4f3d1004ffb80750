"""Helpers to build a REAL site in tmp_path: the repo's mkdocs.yml, docs/, reference/, package.json and chosen answers."""

from __future__ import annotations

import logging
import shutil
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CORPUS = Path(__file__).with_name("answers")
LOGGER = "mkdocs.plugins.drawcheck"


@dataclass
class Built:
    root: Path
    site: Path
    error: BaseException | None
    records: list[logging.LogRecord] = field(default_factory=list)
    build_errors: list[str] = field(default_factory=list)  # what mkdocs logged before aborting

    def html(self, path: str) -> str:
        return (self.site / path).read_text(encoding="utf-8")

    def messages(self, level: int | None = None) -> list[str]:
        return [r.getMessage() for r in self.records if level is None or r.levelno == level]


def make_site(tmp_path: Path, answers: dict[str, str | bytes] | None = None, *, corpus: bool = True,
              plugin_options: str = "") -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    shutil.copy(ROOT / "package.json", root)
    shutil.copytree(ROOT / "docs", root / "docs")
    shutil.copytree(ROOT / "reference", root / "reference")
    (root / "answers").mkdir()
    for extra in ("README.md", "_template.mmd"):
        if (ROOT / "answers" / extra).exists():
            shutil.copy(ROOT / "answers" / extra, root / "answers" / extra)
    if corpus:
        for f in sorted(CORPUS.glob("*.mmd")):
            shutil.copy(f, root / "answers" / f.name)
    for name, content in (answers or {}).items():
        target = root / "answers" / name
        if isinstance(content, bytes):
            target.write_bytes(content)
        else:
            target.write_text(content, encoding="utf-8")
    yml = (ROOT / "mkdocs.yml").read_text(encoding="utf-8")
    if plugin_options:
        yml = with_plugin_options(yml, plugin_options)
    (root / "mkdocs.yml").write_text(yml, encoding="utf-8")
    return root


def with_plugin_options(yml: str, plugin_options: str) -> str:
    """The repository's mkdocs.yml with `plugin_options` (indented 6) under `- drawcheck`.

    Options that choose the exercises (`reference:`, `exercises:`) replace the repository's `exercises:` block.
    """
    lines = yml.split("\n")
    start = next(i for i, ln in enumerate(lines) if ln.rstrip() in ("  - drawcheck", "  - drawcheck:"))
    end = next((i for i in range(start + 1, len(lines)) if not lines[i].startswith("    ")), len(lines))
    block = lines[start + 1:end]
    if any(ln.startswith(("      reference:", "      exercises:")) for ln in plugin_options.split("\n")):
        kept, skipping = [], False
        for ln in block:
            if ln.startswith("      exercises:"):
                skipping = True
                continue
            if skipping and ln.startswith("        "):
                continue
            skipping = False
            kept.append(ln)
        block = kept
    new = ["  - drawcheck:"] + block + plugin_options.rstrip("\n").split("\n")
    return "\n".join(lines[:start] + new + lines[end:])


def build(root: Path, caplog, *, strict: bool | None = None) -> Built:
    from mkdocs.commands.build import build as mkdocs_build
    from mkdocs.config import load_config

    site = root.parent / "site"
    caplog.clear()
    caplog.set_level(logging.DEBUG, logger=LOGGER)
    error = None
    try:
        kwargs = {"site_dir": str(site)}
        if strict is not None:
            kwargs["strict"] = strict
        config = load_config(str(root / "mkdocs.yml"), **kwargs)
        mkdocs_build(config)
    except BaseException as exc:  # noqa: BLE001 - the tests inspect what stopped the build
        error = exc
    records = [r for r in caplog.records if r.name == LOGGER]
    errors = [r.getMessage() for r in caplog.records if r.name == "mkdocs.commands.build" and r.levelno >= logging.ERROR]
    return Built(root, site, error, records, errors)



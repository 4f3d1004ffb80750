"""Typed options of the `drawcheck` MkDocs plugin."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c


class DrawcheckConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off, e.g. for a quick prose-only preview."""

    reference = c.Type(str, default="reference/two-cycles/exercise.yml")
    """The exercise's reference data (YAML), relative to mkdocs.yml."""

    answers_dir = c.Type(str, default="answers")
    """Folder of learner submissions (`<handle>.mmd`), relative to mkdocs.yml."""

    mermaid_version = c.Optional(c.Type(str))
    """The exact Mermaid version; by default the one pinned in package.json."""

    mermaid_local = c.Type(str, default="assets/javascripts/mermaid.min.js")
    """Path inside docs_dir of the local UMD Mermaid (put there by `npm ci`).

    When the file exists the site loads it and needs no network; otherwise it
    loads the pinned version from the CDN.
    """

    mermaid_cdn = c.Type(str, default="https://cdn.jsdelivr.net/npm/mermaid@{version}/dist/mermaid.min.js")
    """CDN address used when no local copy exists; `{version}` is replaced."""

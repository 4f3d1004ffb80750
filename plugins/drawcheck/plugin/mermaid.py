"""Choose the Mermaid script the site loads: the local pinned copy, or the same version from a CDN."""

from __future__ import annotations

import json
import logging
import os
import posixpath
import re

from mkdocs.exceptions import PluginError

log = logging.getLogger("mkdocs.plugins.drawcheck")


def pinned_version(config_dir: str) -> str:
    """The exact Mermaid version in package.json's dependencies."""
    path = os.path.join(config_dir, "package.json")
    try:
        with open(path, encoding="utf-8") as fh:
            version = json.load(fh)["dependencies"]["mermaid"]
    except (OSError, ValueError, KeyError) as exc:
        raise PluginError(
            f"drawcheck: cannot read the pinned Mermaid version from {path} ({exc}); "
            "set `mermaid_version: 12.3.0` under `plugins: - drawcheck:` in mkdocs.yml"
        ) from exc
    if not version[:1].isdigit():
        raise PluginError(
            f"drawcheck: {path}: mermaid must be pinned to one exact version such as \"12.3.0\", not {version!r}"
        )
    return version


def script_source(docs_dir: str, local: str, cdn_template: str, version: str) -> str:
    """The `javascript` value for mkdocs-mermaid2: a docs-relative path if present, else the CDN."""
    if os.path.isfile(os.path.join(docs_dir, local)):
        return local
    return cdn_template.format(version=version)


def configure_mermaid2(mkdocs_config, source: str) -> None:
    """Point mkdocs-mermaid2 at `source`, the single place the site's Mermaid comes from."""
    plugin = mkdocs_config.plugins.get("mermaid2")
    if plugin is None:
        raise PluginError("drawcheck: add `- mermaid2` to `plugins:` in mkdocs.yml; it loads Mermaid on every page.")
    plugin.config["javascript"] = source
    # mermaid2 would otherwise GET a CDN address at build time to check it exists: no network at build time.
    plugin._javascript = source
    log.debug("Mermaid script: %s", source)


SHIM_URI = "assets/javascripts/drawcheck-mermaid.js"
SHIM_SOURCE = os.path.join(os.path.dirname(__file__), "assets", "drawcheck-mermaid.js")
STYLE_URI = "assets/stylesheets/drawcheck-feedback.css"
STYLE_SOURCE = os.path.join(os.path.dirname(__file__), "assets", "drawcheck-feedback.css")
_MERMAID_TAG = re.compile(r'<script src="[^"]*mermaid(?:\.min)?\.js"></script>')


def insert_shim(html: str, page_url: str) -> str:
    """Load the shim right after the Mermaid script tag (mermaid2 adds it; Material initialises later)."""
    match = _MERMAID_TAG.search(html)
    if match is None:
        return html
    src = posixpath.relpath(SHIM_URI, posixpath.dirname(page_url) or ".")
    html = f'{html[:match.end()]}<script src="{src}"></script>{html[match.end():]}'
    if "drawcheck-drawing" in html and "</head>" in html:  # the feedback drawings' frame and zoom buttons
        href = posixpath.relpath(STYLE_URI, posixpath.dirname(page_url) or ".")
        html = html.replace("</head>", f'<link rel="stylesheet" href="{href}"></head>', 1)
    return html

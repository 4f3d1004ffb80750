"""The `drawcheck` MkDocs plugin: thin hooks that hand the work to small managers."""

from __future__ import annotations

import logging
import os

from mkdocs.plugins import BasePlugin

from drawcheck.plugin import mermaid
from drawcheck.plugin.config import DrawcheckConfig

log = logging.getLogger("mkdocs.plugins.drawcheck")


class DrawcheckPlugin(BasePlugin[DrawcheckConfig]):
    def on_config(self, config, **kwargs):
        if not self.config.enabled:
            return config
        config_dir = os.path.dirname(config.config_file_path or ".")
        version = self.config.mermaid_version or mermaid.pinned_version(config_dir)
        source = mermaid.script_source(config.docs_dir, self.config.mermaid_local, self.config.mermaid_cdn, version)
        mermaid.configure_mermaid2(config, source)
        return config

"""Plugin options: defaults (as mkdocstrings tests them), a docstring per option, validation."""

from __future__ import annotations

import ast
import inspect

from drawcheck.plugin import DrawcheckPlugin
from drawcheck.plugin.config import DrawcheckConfig

DEFAULTS = {
    "enabled": True,
    "reference": "reference/two-cycles/exercise.yml",
    "exercises": [],
    "answers_dir": "answers",
    "mermaid_version": None,
    "mermaid_local": "assets/javascripts/mermaid.min.js",
    "mermaid_cdn": "https://cdn.jsdelivr.net/npm/mermaid@{version}/dist/mermaid.min.js",
    "feedback_dir": "feedback",
    "overview_title": "Class overview",
    "correction_log_level": "INFO",
    "error_log_level": "INFO",
    "github_annotations": True,
    "annotations_per_level": 10,
    "annotations_total": 25,
    "max_file_bytes": 262144,
    "max_file_lines": 2000,
    "examples": [],
    "max_seconds_per_file": 10,
}


def test_plugin_default_config():
    plugin = DrawcheckPlugin()
    errors, warnings = plugin.load_config({})
    assert errors == []
    assert warnings == []
    assert dict(plugin.config) == DEFAULTS


def test_every_option_has_a_docstring():
    tree = ast.parse(inspect.getsource(DrawcheckConfig))
    body = tree.body[0].body
    documented = set()
    for node, following in zip(body, body[1:]):
        if isinstance(node, ast.Assign) and isinstance(following, ast.Expr) and isinstance(following.value, ast.Constant):
            if isinstance(following.value.value, str) and following.value.value.strip():
                documented.add(node.targets[0].id)
    assert documented == set(DEFAULTS)


def test_log_levels_are_validated():
    plugin = DrawcheckPlugin()
    errors, _ = plugin.load_config({"correction_log_level": "LOUD"})
    assert errors and errors[0][0] == "correction_log_level"
    errors, _ = plugin.load_config({"error_log_level": "ERROR", "correction_log_level": "WARNING"})
    assert errors == []

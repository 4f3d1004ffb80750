"""The repository's own site, built once per test session with its own mkdocs.yml and --strict."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture(scope="session")
def site(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("site") / "site"
    cmd = [sys.executable, "-m", "mkdocs", "build", "--strict", "-f", str(ROOT / "mkdocs.yml"), "-d", str(out)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": ""}
    done = subprocess.run(cmd, cwd=ROOT, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, f"mkdocs build --strict failed:\n{(done.stdout + done.stderr)[-6000:]}"
    return out

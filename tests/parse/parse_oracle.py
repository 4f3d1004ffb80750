"""Helpers for the parser tests: the corpus, and Mermaid itself (under node) as an oracle."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

HERE = Path(__file__).parent
ROOT = HERE.parent.parent
CORPUS = HERE / "corpus"
HOSTILE = ROOT / "tests" / "hostile"  # the safety helper's corpus: more real-world input for the oracle
ORACLE = HERE / "mermaid_oracle.mjs"
MERMAID = ROOT / "node_modules" / "mermaid"


def _utf8(path: Path) -> bool:
    try:
        path.read_bytes().decode("utf-8")
        return True
    except UnicodeDecodeError:  # we refuse these on purpose (tested in test_bad_input.py); node would guess
        return False


def corpus_files() -> list[Path]:
    files = sorted(CORPUS.glob("*.mmd"))
    files += sorted(p for p in HOSTILE.glob("*.mmd") if _utf8(p))
    return files


def node_available() -> str | None:
    """Why Mermaid cannot run here, or None when it can."""
    if not (MERMAID / "package.json").exists():
        return "node_modules/mermaid is not installed"
    if shutil.which("node") is None:
        return "node is not on PATH"
    return None


def run_oracle(paths: list[str] | None = None, texts: list[str] | None = None) -> list[dict]:
    payload = json.dumps(paths if paths is not None else {"texts": texts})
    proc = subprocess.run(["node", str(ORACLE)], input=payload, capture_output=True, text=True, cwd=ROOT,
                          timeout=600)
    if proc.returncode != 0:
        raise RuntimeError("mermaid oracle failed: %s" % proc.stderr[-2000:])
    return [json.loads(line) for line in proc.stdout.split("\n") if line.strip()]

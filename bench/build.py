"""Full-site build with 1,000 submissions: time, peak memory, and drawcheck's own share.

    .venv/bin/python bench/build.py [--submissions 1000] [--repeat 3] [--keep DIR]

Builds two copies of the site, each in a fresh child process (peak RSS = that child's ru_maxrss):

- drawcheck: the real site, `answers/` holding N generated submissions;
- plain:     the same Markdown drawcheck generated, written out as ordinary pages in docs/, with the
             drawcheck plugin disabled; the difference is drawcheck's share.

Sizes: the whole built site, its HTML pages, and search/search_index.json, in MB (2**20 bytes).
Times are CPU seconds of the child (process_time: the build is single-threaded, and CPU time is not
inflated by other work on a shared machine); wall-clock seconds are reported too.
Inside each child the hooks of drawcheck and mkdocs-mermaid2 are timed as well (mermaid2's on_post_page
re-parses every page with BeautifulSoup, so its cost is reported on its own).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from learners import mutate  # noqa: E402

CHILD = r"""
import json, logging, sys, time
site, mode = sys.argv[1], sys.argv[2]
handler = logging.StreamHandler(sys.stderr)
handler.setLevel(logging.INFO)
logging.getLogger("mkdocs").addHandler(handler)
logging.getLogger("mkdocs").setLevel(logging.INFO)

timers = {}
def timed(cls, name, key):
    original = getattr(cls, name)
    def wrapper(self, *a, **k):
        t = time.process_time()
        try:
            return original(self, *a, **k)
        finally:
            timers[key] = timers.get(key, 0.0) + time.process_time() - t
    setattr(cls, name, wrapper)

import mermaid2.plugin
from drawcheck.plugin import DrawcheckPlugin
for hook in ("on_config", "on_files", "on_page_markdown", "on_post_page"):
    if hasattr(DrawcheckPlugin, hook):
        timed(DrawcheckPlugin, hook, "drawcheck." + hook)
for hook in ("on_config", "on_post_page", "on_post_build", "on_page_content"):
    if hasattr(mermaid2.plugin.MarkdownMermaidPlugin, hook):
        timed(mermaid2.plugin.MarkdownMermaidPlugin, hook, "mermaid2." + hook)

from mkdocs.commands.build import build
from mkdocs.config import load_config
start, cpu = time.perf_counter(), time.process_time()
config = load_config(site + "/mkdocs.yml", site_dir=site + "/site", strict=False)
if mode == "plain":
    config.plugins["drawcheck"].config.enabled = False
build(config)
print(json.dumps({"wall": time.perf_counter() - start, "elapsed": time.process_time() - cpu, "timers": timers}))
"""

def make_submissions(answers: Path, n: int, seed: int = 5) -> None:
    """N learner files: the shipped examples, mutated (steps dropped, swapped, renamed); ~3% broken."""
    rng = random.Random(seed)
    bases = [p.read_text(encoding="utf-8").splitlines() for p in sorted((ROOT / "answers").glob("example-*.mmd"))
             if not p.name.endswith(".corrected.mmd")]
    for i in range(n):
        lines = mutate(rng.choice(bases), rng, rng.randint(0, 3))
        if rng.random() < 0.03:
            lines.insert(2, "    S->>: broken arrow")
        handle = f"learner-{i:04d}"
        (answers / f"{handle}.mmd").write_text("\n".join(lines) + "\n", encoding="utf-8")
        if rng.random() < 0.15:
            (answers / f"{handle}.corrected.mmd").write_text("\n".join(lines) + "\n", encoding="utf-8")


def _site_files() -> list[Path]:
    """README and `_*.mmd` templates: the pages include them, they are not submissions."""
    return [p for p in (ROOT / "answers").iterdir() if p.name == "README.md" or p.name.startswith("_")]


def make_site(dest: Path, n: int) -> None:
    dest.mkdir(parents=True)
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy(ROOT / name, dest / name)
    shutil.copytree(ROOT / "docs", dest / "docs")
    shutil.copytree(ROOT / "reference", dest / "reference")
    (dest / "answers").mkdir()
    for keep in _site_files():
        shutil.copy(keep, dest / "answers" / keep.name)
    make_submissions(dest / "answers", n)


def make_plain_twin(built: Path, dest: Path) -> None:
    """Same site, with drawcheck's generated Markdown written to docs/feedback/ as ordinary pages."""
    shutil.copytree(built, dest, ignore=shutil.ignore_patterns("site"))
    sys.path.insert(0, str(ROOT / "plugins"))
    from mkdocs.config import load_config
    from mkdocs.structure.files import Files

    import logging

    logging.disable(logging.CRITICAL)
    config = load_config(str(dest / "mkdocs.yml"), strict=False)
    config = config.plugins.on_config(config)
    files = config.plugins.on_files(Files([]), config=config)
    logging.disable(logging.NOTSET)
    for f in files:
        target = dest / "docs" / f.src_uri
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(f.content_string, encoding="utf-8")
    shutil.rmtree(dest / "answers")
    (dest / "answers").mkdir()
    for keep in _site_files():
        shutil.copy(keep, dest / "answers" / keep.name)


def run_child(site: Path, mode: str) -> dict:
    with tempfile.TemporaryFile("w+", encoding="utf-8") as err:
        proc = subprocess.Popen([sys.executable, "-c", CHILD, str(site), mode], stdout=subprocess.PIPE,
                                stderr=err, cwd=site, text=True)
        out = proc.stdout.read()
        _pid, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            err.seek(0)
            tail = err.read()[-3000:]
            raise SystemExit(f"{mode} build failed ({proc.returncode}) in {site}:\n{tail}")
    data = json.loads(out.strip().splitlines()[-1])
    data["maxrss_mb"] = usage.ru_maxrss / 1024
    data.update(site_size(site / "site"))
    return data


def site_size(site: Path) -> dict:
    """Megabytes of the built site (every file), of its search index, and of its HTML pages."""
    total = sum(p.stat().st_size for p in site.rglob("*") if p.is_file())
    html = sum(p.stat().st_size for p in site.rglob("*.html"))
    index = site / "search" / "search_index.json"
    mb = 1024 * 1024
    return {"site_mb": total / mb, "html_mb": html / mb,
            "search_index_mb": index.stat().st_size / mb if index.exists() else 0.0}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--submissions", type=int, default=1000)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--keep", help="build in this folder and keep it")
    args = ap.parse_args(argv)

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="drawcheck-bench-"))
    if args.keep and base.exists():
        shutil.rmtree(base)
    real, plain = base / "drawcheck", base / "plain"
    make_site(real, args.submissions)
    make_plain_twin(real, plain)
    runs = {"drawcheck": [], "plain": []}
    for _ in range(args.repeat):
        for mode, site in (("drawcheck", real), ("plain", plain)):
            runs[mode].append(run_child(site, mode))

    def median(mode, key):
        return statistics.median(r[key] for r in runs[mode])

    def median_timer(mode, key):
        return statistics.median(r["timers"].get(key, 0.0) for r in runs[mode])

    full, bare = median("drawcheck", "elapsed"), median("plain", "elapsed")
    own = sum(median_timer("drawcheck", k) for k in runs["drawcheck"][0]["timers"] if k.startswith("drawcheck."))
    # each run's own share: the machine's noise in one run slows its hooks and its build alike
    shares = sorted(sum(v for k, v in r["timers"].items() if k.startswith("drawcheck.")) / r["elapsed"]
                    for r in runs["drawcheck"])
    m2 = median_timer("drawcheck", "mermaid2.on_post_page")
    pages = args.submissions + 1
    report = {
        "submissions": args.submissions,
        "repeat": args.repeat,
        "build_cpu_s": {"drawcheck": round(full, 2), "plain": round(bare, 2)},
        "build_wall_s": {"drawcheck": round(median("drawcheck", "wall"), 2), "plain": round(median("plain", "wall"), 2)},
        "peak_rss_mb": {"drawcheck": round(median("drawcheck", "maxrss_mb"), 1),
                        "plain": round(median("plain", "maxrss_mb"), 1)},
        "site_mb": {mode: round(median(mode, "site_mb"), 1) for mode in runs},
        "html_mb": {mode: round(median(mode, "html_mb"), 1) for mode in runs},
        "search_index_mb": {mode: round(median(mode, "search_index_mb"), 2) for mode in runs},
        "drawcheck_share_by_difference": round((full - bare) / full, 3),
        "drawcheck_hooks_s": round(own, 2),
        "drawcheck_share_by_hook_time": round(own / full, 3),
        "drawcheck_share_by_hook_time_per_run": [round(x, 3) for x in shares],
        "mermaid2_on_post_page_s": round(m2, 2),
        "mermaid2_on_post_page_share": round(m2 / full, 3),
        "mermaid2_on_post_page_ms_per_page": round(1000 * m2 / pages, 2),
        "timers_s": {mode: {k: round(median_timer(mode, k), 3) for k in runs[mode][0]["timers"]} for mode in runs},
        "build_minus_mermaid2_s": {mode: round(median(mode, "elapsed") - median_timer(mode, "mermaid2.on_post_page"), 2)
                                   for mode in runs},
        "site": str(base),
    }
    print(json.dumps(report, indent=2))
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

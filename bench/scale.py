"""A class of 1,000 submissions, 10% of them malformed: every good one gets its page, every bad one is named.

    .venv/bin/python bench/scale.py [--submissions 1000] [--bad-share 0.1] [--keep DIR]

Generates N answer files: 90% readable drawings (the shipped examples and the reference, lightly
mutated), 10% malformed in ten ways (unsafe HTML, %%{init}%%, front-matter config, javascript: link,
syntax error, non-UTF-8, too big, too long, a bad file name, a symlink), each with the file:line the
log must name. Builds the site once in a child process (`mkdocs build --no-strict`), then checks:
a feedback page for each of the good submissions, and every malformed file named with file:line in
the build log. Reports wall and CPU build time, peak RSS, and the ratio to building the same pages as
plain Markdown (bench/build.py's "plain twin": drawcheck's generated pages written into docs/, plugin off).
Exit status 1 if a check fails.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

import build as build_bench  # noqa: E402  (bench/build.py: make_plain_twin, run_child)

GOOD_SOURCES = sorted(p for p in (ROOT / "answers").glob("example-*.mmd") if ".corrected." not in p.name) + [
    ROOT / "reference" / "two-cycles" / "reference.mmd"]


def good_drawing(rng: random.Random) -> str:
    lines = rng.choice(GOOD_SOURCES).read_text(encoding="utf-8").splitlines()
    steps = [i for i, ln in enumerate(lines) if "->>" in ln]
    for _ in range(rng.randint(0, 2)):
        if steps:
            lines[rng.choice(steps)] = "    %% (left out)"
    return "\n".join(lines) + "\n"


HEADER = "sequenceDiagram\n    participant S as Scheduler\n    participant C as Cache\n"


def malformed(kind: str, answers: Path, n: int) -> tuple[str, int]:
    """Write one malformed submission of `kind`; return (file as the log names it, line)."""
    name = f"bad-{kind}-{n:04d}.mmd"
    path = answers / name
    if kind == "html":
        path.write_text(HEADER + "    S->>C: <img src=x onerror=alert(1)>\n", encoding="utf-8")
        return f"answers/{name}", 4
    if kind == "directive":
        path.write_text('%%{init: {"securityLevel": "loose"}}%%\n' + HEADER + "    S->>C: hi\n", encoding="utf-8")
        return f"answers/{name}", 1
    if kind == "front-matter":
        path.write_text("---\nconfig:\n  theme: dark\n---\n" + HEADER + "    S->>C: hi\n", encoding="utf-8")
        return f"answers/{name}", 2
    if kind == "js-link":
        path.write_text(HEADER + "    link S: docs @ javascript:alert(1)\n", encoding="utf-8")
        return f"answers/{name}", 4
    if kind == "syntax":
        path.write_text(HEADER + "    S->>C: fine\n    S->>: no target\n", encoding="utf-8")
        return f"answers/{name}", 5
    if kind == "not-utf8":
        path.write_bytes(HEADER.encode() + b"    S->>C: caf\xe9\n")
        return f"answers/{name}", 4
    if kind == "too-big":
        path.write_text(HEADER + "    %% " + "x" * 300_000 + "\n", encoding="utf-8")
        return f"answers/{name}", 1
    if kind == "too-long":
        path.write_text(HEADER + "    S->>C: again\n" * 2100, encoding="utf-8")
        return f"answers/{name}", 2001
    if kind == "bad-name":
        odd = f"bad name {n:04d}.mmd"
        (answers / odd).write_text(HEADER + "    S->>C: hi\n", encoding="utf-8")
        return f"answers/{odd}", 1
    if kind == "symlink":
        path.symlink_to("/etc/passwd")
        return f"answers/{name}", 1
    raise ValueError(kind)


KINDS = ["html", "directive", "front-matter", "js-link", "syntax", "not-utf8", "too-big", "too-long", "bad-name",
         "symlink"]


def make_class(project: Path, total: int, bad_share: float, seed: int = 11) -> tuple[list[str], list[tuple[str, int]]]:
    rng = random.Random(seed)
    for name in ("mkdocs.yml", "package.json"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "docs", project / "docs")
    shutil.copytree(ROOT / "reference", project / "reference")
    answers = project / "answers"
    answers.mkdir()
    for keep in (ROOT / "answers").iterdir():
        if keep.name.startswith("_") or keep.name == "README.md":
            shutil.copy(keep, answers / keep.name)
    bad_count = round(total * bad_share)
    good, bad = [], []
    for i in range(total - bad_count):
        handle = f"learner-{i:04d}"
        (answers / f"{handle}.mmd").write_text(good_drawing(rng), encoding="utf-8")
        good.append(handle)
    for i in range(bad_count):
        bad.append(malformed(KINDS[i % len(KINDS)], answers, i))
    return good, bad


def build_child(project: Path, site: Path) -> dict:
    cmd = [sys.executable, "-m", "mkdocs", "build", "--no-strict", "-f", str(project / "mkdocs.yml"), "-d", str(site)]
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": ""}
    start = time.perf_counter()
    proc = subprocess.Popen(cmd, cwd=project, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env)
    log = proc.stdout.read()
    _pid, status, usage = os.wait4(proc.pid, 0)
    wall = time.perf_counter() - start
    code = os.waitstatus_to_exitcode(status)
    return {"returncode": code, "log": log, "wall_s": wall, "cpu_s": usage.ru_utime + usage.ru_stime,
            "peak_rss_mb": usage.ru_maxrss / 1024}


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--submissions", type=int, default=1000)
    ap.add_argument("--bad-share", type=float, default=0.1)
    ap.add_argument("--keep", help="work in this folder and keep it")
    ap.add_argument("--skip-plain", action="store_true", help="do not build the plain twin")
    args = ap.parse_args(argv)

    base = Path(args.keep) if args.keep else Path(tempfile.mkdtemp(prefix="drawcheck-scale-"))
    if base.exists():
        shutil.rmtree(base)
    project = base / "drawcheck"
    project.mkdir(parents=True)
    good, bad = make_class(project, args.submissions, args.bad_share)
    result = build_child(project, base / "site")
    if result["returncode"] != 0:
        print(result["log"][-4000:])
        print(json.dumps({"error": f"build failed with exit code {result['returncode']}"}))
        return 1

    site = base / "site"
    missing_pages = [h for h in good if not (site / "feedback" / h / "index.html").exists()]
    feedback_pages = sum(1 for p in (site / "feedback").glob("*/index.html"))
    log_lines = result["log"].splitlines()
    unnamed = [f"{f}:{line}" for f, line in bad if not any(f"{f}:{line}:" in ln for ln in log_lines)]

    report = {
        "submissions": args.submissions,
        "good": len(good),
        "malformed": len(bad),
        "good_with_feedback_page": len(good) - len(missing_pages),
        "feedback_pages_total": feedback_pages,
        "malformed_named_with_file_line": len(bad) - len(unnamed),
        "build_wall_s": round(result["wall_s"], 1),
        "build_cpu_s": round(result["cpu_s"], 1),
        "peak_rss_mb": round(result["peak_rss_mb"], 1),
        "log_lines": len(log_lines),
    }
    if not args.skip_plain:
        plain = base / "plain"
        build_bench.make_plain_twin(project, plain)
        bare = build_bench.run_child(plain, "plain")
        report["plain_build_cpu_s"] = round(bare["elapsed"], 1)
        report["plain_peak_rss_mb"] = round(bare["maxrss_mb"], 1)
        report["ratio_cpu_to_plain"] = round(result["cpu_s"] / bare["elapsed"], 2)
    print(json.dumps(report, indent=1))
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "scale.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    ok = not missing_pages and not unnamed
    if missing_pages:
        print("no feedback page for:", missing_pages[:10])
    if unnamed:
        print("not named with file:line in the log:", unnamed[:10])
    if not args.keep:
        shutil.rmtree(base, ignore_errors=True)
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())

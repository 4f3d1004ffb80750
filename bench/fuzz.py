"""Fuzz 10^6 inputs through parse + find_unsafe + escapers (+ grade_text), and measure ns/byte by size.

    .venv/bin/python bench/fuzz.py [--inputs 1000000] [--workers 2] [--sizes 1000,10000,100000,262144]

Part 1 runs the mutation fuzzer of tests/fuzz/fuzz_engine.py in `--workers` processes and reports inputs,
bytes, failures (any exception or broken invariant; the run exits 1 if there is one) and throughput.
Part 3 (`--dos`, or `--dos-only`) runs `drawcheck check` in a fresh process on each denial-of-service
family of issue #16 at 256 KB and reports its wall time and peak memory (target: under 1 s, 200 MB each).
Part 2 builds diagrams of growing size (valid ones from the reference body; hostile ones full of
entities, tags and long labels) and reports CPU ns per byte for each stage: flat figures mean time
grows linearly with input size.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import sys
import tempfile
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "tests" / "fuzz"))

import fuzz_engine as engine  # noqa: E402
from drawcheck.parse import parse_text  # noqa: E402
from drawcheck.safety import find_unsafe, html_text, mermaid_text  # noqa: E402


def _shard(args: tuple[int, int, str]) -> dict:
    count, seed, reference_path = args
    start = time.process_time()
    try:
        outcome = engine.fuzz(count, seed, max_failures=50, reference_path=reference_path)
    except Exception:  # noqa: BLE001 - e.g. the reference failed to load: report it, don't lose the run
        import traceback

        return {"inputs": 0, "graded": 0, "bytes": 0, "failures": [("<setup>", traceback.format_exc())],
                "failure_count": 1, "cpu": time.process_time() - start}
    return {"inputs": outcome.inputs, "graded": outcome.graded, "bytes": outcome.bytes,
            "failures": outcome.failures[:5], "failure_count": len(outcome.failures),
            "cpu": time.process_time() - start}


def snapshot_reference() -> str:
    """A private copy of the reference folder, so edits to the working tree during a long run don't matter."""
    folder = Path(tempfile.mkdtemp(prefix="drawcheck-fuzz-ref-"))
    shutil.copytree(ROOT / "reference", folder / "reference")
    path = folder / "reference" / "two-cycles" / "exercise.yml"
    engine.make_grader(str(path))  # fail now, in the parent, if it does not load
    return str(path)


def run_fuzz(total: int, workers: int, reference_path: str) -> dict:
    shards = max(workers * 4, 1)
    per = total // shards
    jobs = [(per + (1 if i < total % shards else 0), 50_000 + i, reference_path) for i in range(shards)]
    wall = time.perf_counter()
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = list(pool.map(_shard, jobs))
    wall = time.perf_counter() - wall
    summary = {
        "inputs": sum(r["inputs"] for r in results),
        "graded": sum(r["graded"] for r in results),
        "bytes": sum(r["bytes"] for r in results),
        "failures": sum(r["failure_count"] for r in results),
        "cpu_seconds": round(sum(r["cpu"] for r in results), 1),
        "wall_seconds": round(wall, 1),
    }
    summary["us_cpu_per_input"] = round(summary["cpu_seconds"] / max(summary["inputs"], 1) * 1e6, 1)
    summary["examples"] = [f for r in results for f in r["failures"]][:5]
    return summary


def sized_inputs(size: int) -> dict[str, str]:
    body = (ROOT / "reference" / "two-cycles" / "reference.mmd").read_text(encoding="utf-8").split("\n", 1)[1]
    valid = "sequenceDiagram\n"
    while len(valid) < size:
        valid += body
    hostile_line = ("    S->>C: <b onmouseover=x>#60;script#62;&#106;avascript:{{x}} $$y$$ %%{init}%% " + "é" * 40 + "\n")
    hostile = "sequenceDiagram\n    participant S\n    participant C\n"
    while len(hostile) < size:
        hostile += hostile_line
    long_label = "sequenceDiagram\n    S->>C: " + "x" * size + "\n"
    return {"valid": valid[:size], "hostile": hostile[:size], "one-long-line": long_label[:size]}


def cpu_ns_per_byte(fn, text: str, min_seconds: float = 0.3) -> float:
    runs, spent = 0, 0.0
    while spent < min_seconds or runs < 2:
        start = time.process_time()
        fn(text)
        spent += time.process_time() - start
        runs += 1
    return spent / runs / max(len(text.encode("utf-8")), 1) * 1e9


def run_sizes(sizes: list[int], reference_path: str) -> list[dict]:
    grader = engine.make_grader(reference_path)
    stages = {
        "parse_text": parse_text,
        "parse+find_unsafe": lambda t: find_unsafe(parse_text(t), t),
        "escapers": lambda t: (mermaid_text(t, max_chars=None), html_text(t)),
    }
    if grader is not None:
        stages["grade_text"] = grader
    rows = []
    for size in sizes:
        for kind, text in sized_inputs(size).items():
            row = {"size": size, "kind": kind}
            for name, fn in stages.items():
                row[name] = round(cpu_ns_per_byte(fn, text), 1)
            rows.append(row)
            print(json.dumps(row), flush=True)
    return rows


DOS_SIZE = 262_144


def dos_families(size: int = DOS_SIZE) -> dict[str, str]:
    """One file per denial-of-service family (issue #16), each just under `size` bytes."""
    head = "sequenceDiagram\n"
    alias = "".join(f"a{i}: &a{i} [*a{i - 1}, *a{i - 1}, *a{i - 1}, *a{i - 1}]\n" if i else "a0: &a0 [x, x, x, x]\n"
                    for i in range(9))
    families = {
        "tag-after-attribute": head + '    A->>B: a="b" <' + "a" * (size - 40) + "\n",
        "yaml-aliases-metadata": head + "    participant C@{ " + alias.replace("\n", ", ") + " }\n",
        "yaml-aliases-front-matter": "---\n" + alias + "---\n" + head + "    A->>B: x\n",
        "nested-loops": head + "loop x\n" * 600 + "    A->>B: x\n" + "end\n" * 600,
        "assumed-spaces": head + "    Note over S: assumed" + " " * (size - 60) + "\n",
        "entity-growth": head + "".join(f"    S->>P: {',' * 190} {i}\n" for i in range(size // 205)),
        "long-run-spaces": head + "    S->>P: x" + " " * (size - 40) + "x\n",
        "long-run-words": head + "    S->>P: " + "go " * ((size - 40) // 3) + "\n",
        "html-escaped-4x": head + "    S->>P: " + "&amp;amp;amp;lt;b&amp;amp;amp;gt;" * ((size - 40) // 33) + "\n",
        "many-lines": head + "    S->>P: x\n" * ((size - 20) // 12),
        "error-flood": head + "".join(f"    S=>P: {i} " + "x" * 116 + "\n" for i in range(1999)),  # an error a line
    }
    return {name: text[:size] if len(text) > size else text for name, text in families.items()}


_MEASURE = """
import json, resource, sys, time
from drawcheck.cli import main
start, cpu = time.perf_counter(), time.process_time()
code = main(sys.argv[1:])
sys.stderr.write("@@" + json.dumps({"seconds": time.perf_counter() - start, "cpu_seconds": time.process_time() - cpu,
                 "exit": code,
                 "max_rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}) + "\\n")
"""


def run_dos(reference_path: str, timeout: float = 120) -> list[dict]:
    """`drawcheck check` (no time budget) on each family in a fresh process: wall and CPU time, peak memory."""
    import subprocess

    rows = []
    folder = Path(tempfile.mkdtemp(prefix="drawcheck-dos-"))
    for name, text in dos_families().items():
        path = folder / (name + (".corrected.mmd" if name == "assumed-spaces" else ".mmd"))
        path.write_text(text, encoding="utf-8")
        cmd = [sys.executable, "-c", _MEASURE, "check", "--max-seconds", "0", "--reference", reference_path, str(path)]
        row = {"family": name, "bytes": len(text.encode("utf-8"))}
        try:
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)
            measured = [ln[2:] for ln in done.stderr.splitlines() if ln.startswith("@@")]
            row.update(json.loads(measured[-1]) if measured else {"error": done.stderr[-300:]})
            row["traceback"] = "Traceback" in done.stderr
        except subprocess.TimeoutExpired:
            row.update({"seconds": f">{timeout:g}", "exit": None})
        if isinstance(row.get("seconds"), float):
            row["seconds"] = round(row["seconds"], 3)  # wall: inflated when the machine is shared
            row["cpu_seconds"] = round(row["cpu_seconds"], 3)  # the check's own CPU time, loading the exercise included
            row["max_rss_mb"] = round(row["max_rss_mb"], 1)
        rows.append(row)
        print(json.dumps(row), flush=True)
    return rows


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--inputs", type=int, default=1_000_000)
    parser.add_argument("--workers", type=int, default=min(2, os.cpu_count() or 1))
    parser.add_argument("--sizes", default="1000,10000,100000,262144")
    parser.add_argument("--skip-fuzz", action="store_true")
    parser.add_argument("--dos", action="store_true", help="also time drawcheck check on the DoS families")
    parser.add_argument("--dos-only", action="store_true", help="only the DoS families")
    args = parser.parse_args()

    report: dict = {}
    reference_path = snapshot_reference()
    if args.dos or args.dos_only:
        report["dos"] = run_dos(reference_path)
        if args.dos_only:
            out = ROOT / "bench" / "results"
            out.mkdir(exist_ok=True)
            (out / "fuzz-dos.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
            return 0
    if not args.skip_fuzz:
        report["fuzz"] = run_fuzz(args.inputs, args.workers, reference_path)
        print(json.dumps({k: v for k, v in report["fuzz"].items() if k != "examples"}), flush=True)
        for example in report["fuzz"]["examples"]:
            print("FAILURE on input", repr(example[0][:300]), "\n", example[1])
    report["ns_per_byte"] = run_sizes([int(s) for s in args.sizes.split(",")], reference_path)
    out = ROOT / "bench" / "results"
    out.mkdir(exist_ok=True)
    (out / "fuzz.json").write_text(json.dumps(report, indent=1), encoding="utf-8")
    return 1 if report.get("fuzz", {}).get("failures") else 0


if __name__ == "__main__":
    sys.exit(main())

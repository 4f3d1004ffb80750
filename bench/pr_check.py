"""The PR check's time against the class size, next to the full build's.

    .venv/bin/python bench/pr_check.py [--sizes 10 1000 3000] [--repeat 5] [--no-build]

For each size N: a temporary copy of the site whose `answers/` holds N generated submissions (bench/build.py's
generator) committed on `main`, and a PR branch by `ada-l` that adds `answers/ada-l.mmd`. Measured:

- pr-check (in process): `check_pull_request` (git diff base...head, reading the changed blob, intake,
  grading, annotations, Markdown, artifact), CPU seconds, best of --repeat;
- pr-check (command): `python -m drawcheck.cli pr-check` as the workflow runs it, CPU seconds, best of
  --repeat (interpreter start-up and imports included);
- full build: `mkdocs build` of the same copy, once, CPU seconds of the child (and wall seconds).

The PR check must not grow with the class: its in-process time at the largest size is checked to be within
1.2x of its time at the smallest (the script exits 1 otherwise).
"""

from __future__ import annotations

import argparse
import io
import json
import os
import resource
import shutil
import subprocess
import sys
import tempfile
import time
from contextlib import redirect_stdout
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from build import make_site  # noqa: E402  (bench/build.py: the same generated class)


def git(repo: Path, *args: str) -> str:
    return subprocess.run(["git", "-C", str(repo), *args], check=True, capture_output=True, text=True).stdout.strip()


def make_pr(site: Path) -> tuple[str, str]:
    git(site, "init", "-q", "-b", "main")
    git(site, "config", "user.email", "bench@example.invalid")
    git(site, "config", "user.name", "bench")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "class")
    base = git(site, "rev-parse", "HEAD")
    git(site, "checkout", "-q", "-b", "answer")
    shutil.copy(ROOT / "answers" / "example-permit-early.mmd", site / "answers" / "ada-l.mmd")
    git(site, "add", "-A")
    git(site, "commit", "-q", "-m", "my answer")
    return base, git(site, "rev-parse", "HEAD")


def event_file(site: Path, base: str, head: str) -> Path:
    payload = json.loads((ROOT / "tests" / "workflows" / "events" / "pull_request_opened.json").read_text(encoding="utf-8")
                         .replace("HEAD_SHA", head).replace("BASE_SHA", base))
    payload["pull_request"]["user"]["login"] = "ada-l"
    path = site.parent / f"{site.name}-event.json"
    path.write_text(json.dumps(payload), encoding="utf-8")
    return path


def time_in_process(site: Path, event: Path, repeat: int) -> float:
    from drawcheck.reference import load_reference
    from drawcheck.report import pr_check

    reference = load_reference(str(site / "reference" / "two-cycles" / "exercise.yml"))
    parser = __import__("argparse").ArgumentParser()
    pr_check.add_arguments(parser)
    best = float("inf")
    for i in range(repeat):
        args = parser.parse_args(["--event", str(event), "--repo-root", str(site),
                                  "--artifact", str(site.parent / f"artifact-{i}"), "--summary", os.devnull])
        start = cpu()
        with redirect_stdout(io.StringIO()):
            code = pr_check.check_pull_request(args, reference=reference)
        best = min(best, cpu() - start)
        assert code == 0, code
    return best


def cpu() -> float:
    """CPU seconds of this process and its finished children (git), user + system."""
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime + kids.ru_utime + kids.ru_stime


def time_command(site: Path, event: Path, repeat: int) -> float:
    env = {**os.environ, "GITHUB_STEP_SUMMARY": os.devnull, "GITHUB_OUTPUT": os.devnull}
    best = float("inf")
    for i in range(repeat):
        start = cpu()
        subprocess.run([sys.executable, "-m", "drawcheck.cli", "pr-check", "--event", str(event),
                        "--artifact", str(site.parent / f"cmd-artifact-{i}")], cwd=site, env=env, check=True,
                       capture_output=True)
        best = min(best, cpu() - start)
    return best


def time_build(site: Path) -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    subprocess.run([sys.executable, "-m", "mkdocs", "build", "--quiet", "--site-dir", str(site / "site")], cwd=site,
                   check=True, capture_output=True, env={**os.environ, "GITHUB_ACTIONS": ""})
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime), wall


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[10, 1000, 3000])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--no-build", action="store_true", help="skip the full builds")
    args = parser.parse_args(argv)
    rows = []
    with tempfile.TemporaryDirectory(prefix="bench-pr-check-") as tmp:
        for n in args.sizes:
            site = Path(tmp) / f"site-{n}"
            make_site(site, n)
            base, head = make_pr(site)
            event = event_file(site, base, head)
            in_process = time_in_process(site, event, args.repeat)
            command = time_command(site, event, max(1, args.repeat // 2))
            build = (None, None) if args.no_build else time_build(site)
            rows.append((n, in_process, command, *build))
            print(f"{n:>6} answers: pr-check {in_process * 1000:8.1f} ms CPU in process, {command:6.2f} s CPU as a command"
                  + ("" if build[0] is None else f"; full build {build[0]:6.1f} s CPU ({build[1]:.1f} s wall)"),
                  flush=True)
    ratio = rows[-1][1] / rows[0][1]
    print(f"pr-check at {rows[-1][0]} answers / at {rows[0][0]}: {ratio:.2f}x in process, "
          f"{rows[-1][2] / rows[0][2]:.2f}x as a command (target: within 1.2x)")
    return 0 if ratio <= 1.2 else 1


if __name__ == "__main__":
    sys.exit(main())

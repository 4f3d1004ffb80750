"""Round seven (round_seven.py says what was found and what held): `mkdocs serve`'s watcher on linked folders,
the PR check's reading of the site's page layout, and the terminal."""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
import unicodedata

import pytest

import round_seven

sys.path.insert(0, str(round_seven.ROOT / "tests" / "plugin"))
sys.path.insert(0, str(round_seven.ROOT / "tests" / "workflows"))
from plugin_site import make_site, with_plugin_options  # noqa: E402
from prflow_kit import GitRepo, pr_check  # noqa: E402
from runner_commands import replay  # noqa: E402

SITE = "https://drawcheck.github.io/drawcheck/"
MKDOCS_YML = (round_seven.ROOT / "mkdocs.yml").read_text(encoding="utf-8")


# --------------------------------------------------------------------------- mkdocs serve's watcher


class _Server:
    """What the plugin asks of MkDocs' LiveReloadServer: the paths it watches, and how."""

    def __init__(self):
        self.watched: list[tuple[str, bool]] = []

    def watch(self, path, func=None, *, recursive=True):
        self.watched.append((os.path.abspath(path), recursive))


def _polled(path: str, recursive: bool, cap: int) -> int:
    """How many paths one poll of MkDocs' watcher (watchdog's PollingObserver: a DirectorySnapshot, which
    follows links with os.stat) visits, up to `cap`."""
    from watchdog.utils.dirsnapshot import DirectorySnapshot

    class Walk(DirectorySnapshot):
        def __init__(self):  # the walk alone, as the snapshot does it, without keeping every path
            self.recursive, self.stat, self.listdir = recursive, os.stat, os.scandir

    return sum(1 for _ in itertools.islice(Walk().walk(path), cap))


def _served(root):
    from mkdocs.config import load_config

    config = load_config(str(root / "mkdocs.yml"))
    config = config.plugins.on_config(config)
    server = _Server()
    config.plugins["drawcheck"].on_serve(server, config=config, builder=None)
    return server.watched


def test_serve_never_walks_the_links_in_an_answers_folder(tmp_path):
    root = make_site(tmp_path, {"ada.mmd": round_seven.REFERENCE}, corpus=False)
    (root / "answers" / "kubectl-apply").mkdir()
    for folder in (root / "answers", root / "answers" / "kubectl-apply"):
        for name, target in round_seven.LOOPS.items():
            (folder / name).symlink_to(target)
    watched = _served(root)
    answers = {str(root / "answers"), str(root / "answers" / "kubectl-apply")}
    assert answers <= {path for path, _ in watched}  # both folders are still watched (a new answer rebuilds)
    cap = 20_000
    visits = {path: _polled(path, recursive, cap) for path, recursive in watched if path in answers}
    assert all(n < 100 for n in visits.values()), visits


def test_serve_watches_no_linked_answers_folder(tmp_path):
    root = make_site(tmp_path, {}, corpus=False)
    (root / "answers" / "kubectl-apply").symlink_to("/")
    watched = _served(root)
    assert str(root / "answers" / "kubectl-apply") not in {path for path, _ in watched}
    assert str(root / "answers") in {path for path, _ in watched}


# --------------------------------------------------------------------------- the PR check and the site's pages


@pytest.fixture
def submit(tmp_path, monkeypatch):
    for name in ("GITHUB_ACTIONS", "GITHUB_STEP_SUMMARY", "GITHUB_OUTPUT", "GITHUB_SHA", "GITHUB_REPOSITORY"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("PYTHONPATH", str(round_seven.ROOT / "plugins"))  # this worktree's code in the check

    def run(author: str, files: dict[str, str], yml: str = MKDOCS_YML):
        repo = GitRepo(tmp_path / "repo")
        repo.write("mkdocs.yml", yml)
        repo.base = repo.commit("the site")
        repo.submit(files)
        return pr_check(repo, tmp_path, author=author)

    return run


def _page_links(summary: str) -> list[str]:
    import re

    return re.findall(r"\[Your feedback page\]\(([^)]*)\)", summary)


def test_a_handle_that_is_another_exercises_page_fails_the_check(submit):
    done = submit("kubectl-apply", {"answers/kubectl-apply.mmd": round_seven.REFERENCE})
    assert done.code == 1, done.stdout + done.stderr
    errors = [c for c in replay(done.stdout) if c.name == "error"]
    assert any("feedback/kubectl-apply" in c.data for c in errors), done.stdout
    assert _page_links(done.summary) == [], done.summary  # never the other exercise's class overview


def test_the_flagships_own_folder_links_the_page_the_site_builds(submit):
    done = submit("Ada-L", {"answers/two-cycles/ada-l.mmd": round_seven.REFERENCE})
    assert done.code == 0, done.stdout + done.stderr
    assert _page_links(done.summary) == [f"{SITE}feedback/ada-l/"], done.summary


def test_a_feedback_dir_set_in_mkdocs_yml_is_linked(submit):
    yml = with_plugin_options(MKDOCS_YML, "      feedback_dir: learners\n      exercises:\n"
                              "        - {id: two-cycles, reference: reference/two-cycles}\n"
                              "        - {id: kubectl-apply, reference: reference/kubectl-apply, "
                              "feedback_dir: cri/pages, answers_dir: answers/cri}")
    kubectl = (round_seven.ROOT / "reference" / "kubectl-apply" / "reference.mmd").read_text(encoding="utf-8")
    done = submit("Ada-L", {"answers/ada-l.mmd": round_seven.REFERENCE, "answers/cri/ada-l.mmd": kubectl}, yml)
    assert done.code == 0, done.stdout + done.stderr
    assert sorted(_page_links(done.summary)) == [f"{SITE}cri/pages/ada-l/", f"{SITE}learners/ada-l/"], done.summary


@pytest.mark.parametrize("author", ["example-one-lane", "index"])
def test_a_name_the_site_gives_no_learner_page_is_not_linked(submit, author):
    done = submit(author, {f"answers/{author}.mmd": round_seven.REFERENCE})
    assert done.code == 1, done.stdout + done.stderr
    assert _page_links(done.summary) == [], done.summary


def test_the_pr_checks_page_folders_are_the_plugins(tmp_path):
    """`pr_check.page_folders` reads mkdocs.yml as `exercises.resolve_exercises` resolves it."""
    from mkdocs.config import load_config

    from drawcheck.report.pr_check import page_folders

    variants = ["", "      feedback_dir: learners\n",
                "      exercises:\n        - {id: two-cycles, reference: reference/two-cycles, feedback_dir: a/b}\n"
                "        - {id: kubectl-apply, reference: reference/kubectl-apply, answers_dir: answers/k8s}\n",
                "      exercises:\n        - {id: two-cycles, reference: reference/two-cycles}\n",
                "      reference: reference/two-cycles/exercise.yml\n      feedback_dir: fb\n"]
    for n, options in enumerate(variants):
        (tmp_path / str(n)).mkdir()
        root = make_site(tmp_path / str(n), {}, corpus=False, plugin_options=options)
        (root / "answers" / "k8s").mkdir()
        config = load_config(str(root / "mkdocs.yml"))
        config = config.plugins.on_config(config)
        plugin = config.plugins["drawcheck"]
        expected = {}
        for manager in plugin.exercises:
            for source in manager.sources:
                rel = os.path.relpath(source.answers_dir, root).replace(os.sep, "/")
                folder = "" if rel == "answers" else rel[len("answers/"):]
                expected.setdefault(folder, manager.pages.feedback_dir)
        assert page_folders(str(root)) == expected, (options, page_folders(str(root)), expected)


# --------------------------------------------------------------------------- the terminal


@pytest.mark.parametrize("command", [["parse"], ["parse", "--format", "text"], ["check"],
                                     ["check", "--format", "json"], ["check", "--format", "github"],
                                     ["check", "--format", "markdown"], ["pr-check", "--files"]])
def test_no_bidi_control_reaches_the_terminal(tmp_path, command):
    (tmp_path / "answers").mkdir()
    (tmp_path / "answers" / "ada.mmd").write_text(
        f"sequenceDiagram\n    participant A as x{round_seven.ALM}y\n    A->>A: ab{round_seven.ALM}cd\n"
        f"    Note over A: n{round_seven.ALM}\n", encoding="utf-8")
    env = {**os.environ, "PYTHONPATH": str(round_seven.ROOT / "plugins")}
    env.pop("GITHUB_STEP_SUMMARY", None)
    done = subprocess.run([sys.executable, "-m", "drawcheck.cli", *command, "answers/ada.mmd"], cwd=tmp_path,
                          env=env, capture_output=True, text=True, timeout=120)
    assert done.stdout.strip(), done.stderr
    shown = done.stdout + done.stderr
    assert [f"U+{ord(ch):04X}" for ch in shown if unicodedata.bidirectional(ch) in
            ("LRE", "RLE", "LRO", "RLO", "PDF", "LRI", "RLI", "FSI", "PDI")
            or ch in "\u061c\u200e\u200f"] == []
    if "json" in command or command == ["parse"]:
        for line in (done.stdout.splitlines() if command == ["parse"] else [done.stdout]):
            json.loads(line)  # still JSON, reading the same

"""`mkdocs serve` on 127.0.0.1 with the repository's mkdocs.yml (strict: true): no answer stops or sticks it.

Before the fix, an unsafe answer made the first build fail under strict, so `serve` exited at once, and a
syntax error saved while serving left "The server will appear stuck until build errors are resolved".
"""

from __future__ import annotations

import html
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request

import pytest

from plugin_site import CORPUS, build

PATIENCE = 180  # seconds: only catches a server that never answers (a slow shared machine is fine)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def fetch(url: str) -> tuple[int, str]:
    try:
        with urllib.request.urlopen(url, timeout=10) as response:
            return response.status, response.read().decode("utf-8")
    except urllib.error.HTTPError as exc:
        return exc.code, ""
    except (urllib.error.URLError, ConnectionError, TimeoutError):
        return 0, ""


def wait_for(server, url: str, predicate, what: str) -> str:
    deadline = time.monotonic() + PATIENCE
    while time.monotonic() < deadline:
        assert server.poll() is None, f"mkdocs serve exited ({server.returncode}) while waiting for {what}"
        status, body = fetch(url)
        if status == 200 and predicate(html.unescape(body)):
            return body
        time.sleep(0.5)
    raise AssertionError(f"no {what} within {PATIENCE} s at {url}")


@pytest.fixture
def served(site_factory, tmp_path):
    root = site_factory({"mallory.mmd": (CORPUS / "mallory.mmd").read_text(encoding="utf-8"),
                         "ada.mmd": (CORPUS / "ada.mmd").read_text(encoding="utf-8")}, corpus=False)
    port = free_port()
    log = open(tmp_path / "serve.log", "w+", encoding="utf-8")
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": ""}
    env.pop("DRAWCHECK_ONLY", None)
    server = subprocess.Popen([sys.executable, "-m", "mkdocs", "serve", "-a", f"127.0.0.1:{port}",
                               "-f", str(root / "mkdocs.yml")],
                              cwd=root, stdout=log, stderr=subprocess.STDOUT, env=env)
    try:
        yield root, f"http://127.0.0.1:{port}", server, log
    finally:
        server.terminate()
        try:
            server.wait(timeout=20)
        except subprocess.TimeoutExpired:
            server.kill()
        log.close()


def serve_log(log) -> str:
    log.flush()
    log.seek(0)
    return log.read()


def test_serve_survives_an_unsafe_answer_and_a_saved_syntax_error(served):
    root, url, server, log = served
    # the unsafe answer: served with its page, and the server keeps running
    wait_for(server, f"{url}/feedback/mallory/", lambda body: "Feedback: mallory" in body, "mallory's page")
    wait_for(server, f"{url}/feedback/ada/", lambda body: "Your drawing, circled" in body, "ada's page")

    # the learner saves a syntax error: the reload shows its error page
    broken = (CORPUS / "margaret.mmd").read_text(encoding="utf-8")
    (root / "answers" / "ada.mmd").write_text(broken, encoding="utf-8")
    page = wait_for(server, f"{url}/feedback/ada/", lambda body: "could not be checked" in body,
                    "ada's error page after the syntax error")
    assert "line 4" in html.unescape(page)

    # fixed again: the next reload grades it as before
    (root / "answers" / "ada.mmd").write_text((CORPUS / "ada.mmd").read_text(encoding="utf-8"), encoding="utf-8")
    wait_for(server, f"{url}/feedback/ada/", lambda body: "Your drawing, circled" in body, "ada's page once fixed")
    output = serve_log(log)
    assert "appear stuck" not in output and "Aborted" not in output, output[-3000:]
    assert server.poll() is None


def test_only_builds_that_learners_pages(site_factory, caplog, monkeypatch):
    root = site_factory(corpus=True)
    monkeypatch.setenv("DRAWCHECK_ONLY", "ADA")  # a handle is case-insensitive
    built = build(root, caplog)
    assert built.error is None, built.build_errors
    pages = sorted(p.name for p in (built.site / "feedback").iterdir() if p.is_dir())
    assert pages == ["ada", "kubectl-apply"]  # the second exercise's overview, with no learner's page of its own
    assert sorted(p.name for p in (built.site / "feedback" / "kubectl-apply").iterdir() if p.is_dir()) == []
    ada = built.html("feedback/ada/index.html")
    assert "Your corrected drawing" in ada  # ada.corrected.mmd is hers too
    overview = built.html("feedback/index.html")
    assert "DRAWCHECK_ONLY" in overview and 'href="ada/"' in overview and "barbara" not in overview
    graded = {r.getMessage().split(":")[1].strip() for r in built.records if r.getMessage().startswith("drawcheck: answers/")}
    assert graded <= {"answers/ada.mmd", "answers/ada.corrected.mmd"}, graded


def test_only_refuses_a_value_that_is_no_handle(site_factory, caplog, monkeypatch):
    root = site_factory(corpus=False)
    monkeypatch.setenv("DRAWCHECK_ONLY", "../mkdocs")
    built = build(root, caplog)
    assert built.error is not None
    assert "DRAWCHECK_ONLY" in " ".join(built.build_errors) + str(built.error)

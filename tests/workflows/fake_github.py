"""A real HTTP server on 127.0.0.1 that answers the few GitHub REST calls the comment workflow makes.

State lives in plain dicts (pull requests, artifacts, comments); every request is recorded with its
headers, so tests can see what was sent and where the token went. Artifact zips are served from a second
server (GitHub redirects artifact downloads to blob storage on another host).
"""

from __future__ import annotations

import json
import re
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import urlsplit

import pytest

BOT = "github-actions[bot]"


class FakeGitHub:
    def __init__(self, repo: str = "drawcheck/drawcheck"):
        self.repo = repo
        self.pulls: dict[int, str] = {}  # number -> head sha
        self.runs: dict[int, list[dict]] = {}  # run id -> artifacts [{"id","name","size_in_bytes","zip"}]
        self.authors: dict[int, str] = {}  # pull request number -> its author's login (default "octocat")
        # pull request number -> the files it changes, as the API lists them ({"filename", "status", and
        # "previous_filename" for a rename}); default: its author's own answer, added
        self.files: dict[int, list[dict]] = {}
        self.comments: dict[int, list[dict]] = {}  # PR number -> comments
        self.requests: list[tuple[str, str, dict]] = []  # (method, path, headers) on the API
        self.blob_requests: list[tuple[str, dict]] = []
        self._next_id = 1000
        self.api = _serve(self._api_handler())
        self.blob = _serve(self._blob_handler())
        self.api_url = f"http://127.0.0.1:{self.api.server_port}"

    def close(self) -> None:
        for server in (self.api, self.blob):
            server.shutdown()
            server.server_close()

    def add_artifact(self, run_id: int, zipped: bytes, *, name: str = "drawcheck-comment", size: int | None = None) -> None:
        self._next_id += 1
        self.runs.setdefault(run_id, []).append({"id": self._next_id, "name": name, "expired": False,
                                                 "size_in_bytes": len(zipped) if size is None else size, "zip": zipped})

    def files_of(self, number: int) -> list[dict]:
        return self.files.get(number, [{"filename": f"answers/{self.authors.get(number, 'octocat')}.mmd",
                                        "status": "added"}])

    def _new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    # ---- handlers ---------------------------------------------------------------------------------
    def _api_handler(self):
        fake = self

        class Handler(_Quiet):
            def _route(self, method: str):
                path = urlsplit(self.path).path
                fake.requests.append((method, self.path, dict(self.headers)))
                body = json.loads(self.rfile.read(int(self.headers.get("Content-Length") or 0)) or b"null")
                prefix = f"/repos/{fake.repo}"
                if not path.startswith(prefix + "/"):
                    return self._json(404, {"message": "Not Found"})
                rest = path[len(prefix):]
                if m := re.fullmatch(r"/actions/runs/(\d+)/artifacts", rest):
                    artifacts = [{k: v for k, v in a.items() if k != "zip"} for a in fake.runs.get(int(m[1]), [])]
                    return self._json(200, {"total_count": len(artifacts), "artifacts": artifacts})
                if m := re.fullmatch(r"/actions/artifacts/(\d+)/zip", rest):
                    self.send_response(302)
                    self.send_header("Location", f"http://127.0.0.1:{fake.blob.server_port}/blob/{m[1]}?sig=x")
                    self.send_header("Content-Length", "0")
                    self.end_headers()
                    return None
                if m := re.fullmatch(r"/pulls/(\d+)", rest):
                    number = int(m[1])
                    if number not in fake.pulls:
                        return self._json(404, {"message": "Not Found"})
                    return self._json(200, {"number": number, "state": "open", "head": {"sha": fake.pulls[number]},
                                            "user": {"login": fake.authors.get(number, "octocat")},
                                            "base": {"repo": {"full_name": fake.repo}},
                                            "changed_files": len(fake.files_of(number))})
                if m := re.fullmatch(r"/pulls/(\d+)/files", rest):
                    number = int(m[1])
                    if number not in fake.pulls:
                        return self._json(404, {"message": "Not Found"})
                    query = dict(p.split("=", 1) for p in urlsplit(self.path).query.split("&") if "=" in p)
                    per_page, page = min(int(query.get("per_page", 30)), 100), int(query.get("page", 1))
                    files = fake.files_of(number)[:3000]  # the API lists at most 3,000 files
                    return self._json(200, files[(page - 1) * per_page: page * per_page])
                if m := re.fullmatch(r"/issues/(\d+)/comments", rest):
                    number = int(m[1])
                    if method == "POST":
                        comment = {"id": fake._new_id(), "user": {"login": BOT, "type": "Bot"}, "body": body["body"]}
                        fake.comments.setdefault(number, []).append(comment)
                        return self._json(201, comment)
                    return self._json(200, fake.comments.get(number, []))
                if m := re.fullmatch(r"/issues/comments/(\d+)", rest):
                    for comments in fake.comments.values():
                        for c in comments:
                            if c["id"] == int(m[1]) and method == "PATCH":
                                c["body"] = body["body"]
                                return self._json(200, c)
                    return self._json(404, {"message": "Not Found"})
                return self._json(404, {"message": "Not Found"})

            def do_GET(self):
                self._route("GET")

            def do_POST(self):
                self._route("POST")

            def do_PATCH(self):
                self._route("PATCH")

        return Handler

    def _blob_handler(self):
        fake = self

        class Handler(_Quiet):
            def do_GET(self):
                fake.blob_requests.append((self.path, dict(self.headers)))
                artifact_id = int(urlsplit(self.path).path.rsplit("/", 1)[1])
                for artifacts in fake.runs.values():
                    for a in artifacts:
                        if a["id"] == artifact_id:
                            self.send_response(200)
                            self.send_header("Content-Type", "application/zip")
                            self.send_header("Content-Length", str(len(a["zip"])))
                            self.end_headers()
                            self.wfile.write(a["zip"])
                            return
                self.send_response(404)
                self.end_headers()

        return Handler


class _Quiet(BaseHTTPRequestHandler):
    def log_message(self, *args):  # keep the test output clean
        pass

    def _json(self, status: int, data) -> None:
        raw = json.dumps(data).encode("utf-8")
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)


def _serve(handler) -> ThreadingHTTPServer:
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


@pytest.fixture
def gh():
    """A running FakeGitHub for one test (import it into a test module to use it)."""
    fake = FakeGitHub()
    yield fake
    fake.close()

"""Post the PR check's feedback as ONE sticky pull-request comment, created once and updated on every push.

Runs in the `comment` workflow (on `workflow_run`, with `pull-requests: write`) straight from the base
repository's default-branch checkout: `python3 plugins/drawcheck/report/pr_comment.py ...`. It uses only the
standard library and never imports, installs or runs anything from the pull request.

The artifact it reads was written by the PR's own code, so it is untrusted:
- its zip must be small (`MAX_ARTIFACT_BYTES`), hold only `pr.json` and `comment.md`, each within its cap;
- `pr.json`'s head SHA must be the head SHA of the workflow run (from GitHub's event, not the artifact), and
  the PR it names must have that same head SHA (asked of the API: `workflow_run.pull_requests` is empty for
  PRs from forks, so the number has to come from the artifact and be checked), and be for the default branch
  (the check runs the grader of the PR's base commit, so another branch's could be any old grader);
- the PR must change nothing outside `answers/` (asked of the API): only then did the check run the base
  repository's own code on the PR's answers. A PR that changes the code (or the check's workflow) ran its own
  code, which could write any feedback ("Correct, 100 %") for the bot to post under the site's name: it gets
  the fixed notice `CODE_CHANGED` instead;
- the comment's text cannot mention anyone, reference an issue or pull request (in any spelling), hold raw
  HTML or forge the marker the sticky comment is found by.

Why not `gh`: the commenting step is tested end to end against a local HTTP server standing in for the API,
and `gh` only speaks https to hosts other than github.com. This is the few requests `gh api` would make.
"""

from __future__ import annotations

import argparse
import io
import json
import os
import re
import sys
import unicodedata
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib

MARKER = "<!-- drawcheck-pr-feedback -->"
"""The hidden first line by which the sticky comment is found again."""

ARTIFACT_NAME = "drawcheck-comment"
MAX_ARTIFACT_BYTES = 256 * 1024  # the zip, as the API reports it and as downloaded
MAX_COMMENT_BYTES = 64 * 1024  # GitHub refuses comments over 65,536 characters
MAX_META_BYTES = 1024
EXPECTED_FILES = {"pr.json": MAX_META_BYTES, "comment.md": MAX_COMMENT_BYTES}
DEFAULT_BOT = "github-actions[bot]"
_SHA = re.compile(r"[0-9a-f]{40}|[0-9a-f]{64}")
_REPO = re.compile(r"[A-Za-z0-9][A-Za-z0-9_.-]{0,99}/[A-Za-z0-9_.-]{1,100}")
_CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f\u202a-\u202e\u2066-\u2069]")


class Refused(Exception):
    """The artifact or the PR did not pass a check: nothing is posted. The message says which."""


class GitHub:
    """A few REST calls with a token; redirects are followed by hand, and the token never leaves `api_url`."""

    def __init__(self, api_url: str, token: str, *, timeout: float = 30):
        parsed = urllib.parse.urlsplit(api_url)
        local = parsed.hostname in ("127.0.0.1", "localhost", "::1")
        if parsed.scheme != "https" and not (parsed.scheme == "http" and local):
            raise Refused(f"the API address must be https:// (http only for 127.0.0.1), not {api_url!r}")
        self.api_url = api_url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self._opener = urllib.request.build_opener(_NoRedirect)

    def _send(self, method: str, url: str, body: dict | None = None, *, auth: bool = True, limit: int = 8 << 20):
        data = json.dumps(body).encode("utf-8") if body is not None else None
        request = urllib.request.Request(url, data=data, method=method)
        request.add_header("Accept", "application/vnd.github+json")
        request.add_header("X-GitHub-Api-Version", "2022-11-28")
        request.add_header("User-Agent", "drawcheck-pr-comment")
        if data is not None:
            request.add_header("Content-Type", "application/json")
        if auth and self.token:
            request.add_header("Authorization", f"Bearer {self.token}")
        try:
            with self._opener.open(request, timeout=self.timeout) as response:
                return response.status, response.headers, _read_at_most(response, limit)
        except urllib.error.HTTPError as exc:
            if exc.code in (301, 302, 303, 307, 308):
                return exc.code, exc.headers, b""
            raise Refused(f"{method} {urllib.parse.urlsplit(url).path} answered HTTP {exc.code}") from None

    def json(self, method: str, path: str, body: dict | None = None):
        status, _headers, data = self._send(method, self.api_url + path, body)
        if status >= 300:
            raise Refused(f"{method} {path} answered HTTP {status}")
        return json.loads(data or b"null")

    def download(self, path: str, limit: int) -> bytes:
        """GET `path`, following up to 3 redirects; only requests to the API carry the token."""
        url = self.api_url + path
        for _ in range(4):
            on_api = url.startswith(self.api_url + "/")
            status, headers, data = self._send("GET", url, auth=on_api, limit=limit)
            if status in (301, 302, 303, 307, 308):
                url = urllib.parse.urljoin(url, headers.get("Location", ""))
                continue
            return data
        raise Refused("too many redirects while downloading the artifact")


class _NoRedirect(urllib.request.HTTPRedirectHandler):
    def redirect_request(self, *args, **kwargs):  # noqa: D401 - urllib's hook
        return None


def _read_at_most(response, limit: int) -> bytes:
    data = response.read(limit + 1)
    if len(data) > limit:
        raise Refused(f"the response is larger than {limit:,} bytes")
    return data


# --------------------------------------------------------------------------- the artifact


def find_artifact(gh: GitHub, repo: str, run_id: int) -> dict | None:
    """The run's `drawcheck-comment` artifact (its API record), or None when the run uploaded none."""
    listing = gh.json("GET", f"/repos/{repo}/actions/runs/{run_id}/artifacts?per_page=100")
    artifacts = [a for a in (listing or {}).get("artifacts", []) if isinstance(a, dict) and a.get("name") == ARTIFACT_NAME]
    if not artifacts:
        return None
    if len(artifacts) > 1:
        raise Refused(f"the run has {len(artifacts)} artifacts named {ARTIFACT_NAME}; expected one")
    artifact = artifacts[0]
    if artifact.get("expired"):
        raise Refused("the artifact has expired")
    size = artifact.get("size_in_bytes")
    if not isinstance(size, int) or size > MAX_ARTIFACT_BYTES:
        raise Refused(f"the artifact is {size} bytes, over the {MAX_ARTIFACT_BYTES:,} allowed")
    return artifact


def read_artifact(zipped: bytes) -> tuple[dict, str | None]:
    """(pr.json as a dict, comment.md or None) from the artifact's zip, refusing anything unexpected."""
    if len(zipped) > MAX_ARTIFACT_BYTES:
        raise Refused(f"the artifact is {len(zipped):,} bytes, over the {MAX_ARTIFACT_BYTES:,} allowed")
    try:
        archive = zipfile.ZipFile(io.BytesIO(zipped))
        entries = archive.infolist()
    except (zipfile.BadZipFile, ValueError):
        raise Refused("the artifact is not a zip file") from None
    names = [e.filename for e in entries]
    unexpected = sorted(set(names) - set(EXPECTED_FILES))
    if unexpected or len(names) != len(set(names)):
        raise Refused(f"the artifact holds unexpected files: {', '.join(map(repr, unexpected or names))[:300]}; "
                      f"only {' and '.join(sorted(EXPECTED_FILES))} are read")
    contents = {}
    for entry in entries:
        cap = EXPECTED_FILES[entry.filename]
        if entry.file_size > cap or entry.is_dir():
            raise Refused(f"{entry.filename} is {entry.file_size:,} bytes, over the {cap:,} allowed")
        try:
            with archive.open(entry) as fh:
                data = fh.read(cap + 1)
        except (zipfile.BadZipFile, RuntimeError, NotImplementedError, EOFError, ValueError, zlib.error) as exc:
            # a bad CRC, a broken stream, a password or a compression method Python cannot read
            raise Refused(f"{entry.filename} cannot be read from the zip ({type(exc).__name__})") from None
        if len(data) > cap:
            raise Refused(f"{entry.filename} is over the {cap:,} bytes allowed")
        try:
            contents[entry.filename] = data.decode("utf-8")
        except UnicodeDecodeError:
            raise Refused(f"{entry.filename} is not UTF-8 text") from None
    if "pr.json" not in contents:
        raise Refused("the artifact has no pr.json")
    try:
        meta = json.loads(contents["pr.json"])
    except ValueError:
        raise Refused("pr.json is not JSON") from None
    if not (isinstance(meta, dict) and isinstance(meta.get("number"), int) and not isinstance(meta["number"], bool)
            and meta["number"] > 0 and isinstance(meta.get("head_sha"), str) and _SHA.fullmatch(meta["head_sha"])
            and meta.get("mode") in ("submission", "site")):
        raise Refused('pr.json must be {"number": N, "head_sha": "<40 hex>", "mode": "submission"|"site"}')
    return meta, contents.get("comment.md")


def verify_pull_request(gh: GitHub, repo: str, number: int, run_head_sha: str) -> str:
    """The PR the artifact names must be this repository's, with the workflow run's head SHA at its head.
    Returns its author's login ("" when the API does not say)."""
    pr = gh.json("GET", f"/repos/{repo}/pulls/{number}")
    head = ((pr or {}).get("head") or {}).get("sha")
    base_repo = (((pr or {}).get("base") or {}).get("repo") or {}).get("full_name")
    if base_repo is not None and base_repo.lower() != repo.lower():
        raise Refused(f"pull request #{number} does not belong to {repo}")
    base_ref = ((pr or {}).get("base") or {}).get("ref")
    default = (((pr or {}).get("base") or {}).get("repo") or {}).get("default_branch")
    if base_ref is not None and default is not None and base_ref != default:
        # the check ran the grader of the PR's base commit: another branch's may be any old grader
        raise Refused(f"pull request #{number} is for the branch {str(base_ref)[:100]!r}, not the default branch "
                      f"{str(default)[:100]!r}: its check ran that branch's grader, whose feedback is not posted")
    if head != run_head_sha:
        raise Refused(f"pull request #{number} has head {str(head)[:40]}, not the checked commit {run_head_sha}: "
                      "the artifact names another pull request (or the PR has moved on; its newer run will comment)")
    login = ((pr or {}).get("user") or {}).get("login")
    return login if isinstance(login, str) else ""


ANSWERS_FOLDER = "answers/"
MAX_LISTED_FILES = 3000  # the API lists at most this many files of a pull request


def changes_only_answers(gh: GitHub, repo: str, number: int) -> bool:
    """Whether every file the PR changes (a rename: both its names) is under `answers/`, as the API lists them
    all (`changed_files` of the PR): only then was the feedback written by the base repository's code."""
    changed_files = (gh.json("GET", f"/repos/{repo}/pulls/{number}") or {}).get("changed_files")
    if not isinstance(changed_files, int) or isinstance(changed_files, bool) or not 0 < changed_files <= MAX_LISTED_FILES:
        raise Refused(f"pull request #{number} changes {changed_files} files; its feedback is posted only when "
                      f"it changes at most {MAX_LISTED_FILES:,} files, all under {ANSWERS_FOLDER}")
    listed = []
    for page in range(1, MAX_LISTED_FILES // 100 + 1):
        files = gh.json("GET", f"/repos/{repo}/pulls/{number}/files?per_page=100&page={page}")
        if not isinstance(files, list):
            break
        listed += files
        if len(files) < 100:
            break
    names = [n for f in listed if isinstance(f, dict) for n in (f.get("filename"), f.get("previous_filename"))
             if n is not None]
    if len(listed) != changed_files:
        raise Refused(f"pull request #{number} changes {changed_files} files but the API listed {len(listed)}; "
                      "nothing is posted")
    return all(isinstance(n, str) and n.startswith(ANSWERS_FOLDER) and ".." not in n.split("/") for n in names)


CODE_CHANGED = ("**drawcheck did not check this pull request's drawing here:** it changes files outside `answers/`, "
                "so its check ran the pull request's own code, whose feedback is not posted under the site's name. "
                "Change only your answer files (`answers/<your-github-handle>.mmd`) to get your feedback here.\n")
"""The whole comment for such a PR: written here, nothing from the artifact."""


# --------------------------------------------------------------------------- the comment


def comment_body(markdown: str, *, links: "re.Pattern | None" = None) -> str:
    """The marker, then the feedback with no mention, no cross-reference, no raw HTML, no control character,
    no second marker (`neutralise_references`) and no link but those `links` matches (`own_links`)."""
    text = _CONTROL.sub("", markdown.replace("\r\n", "\n")).replace(MARKER, "")
    text = neutralise_references(text, links=links)  # (a forged `<!-- drawcheck` marker becomes `&lt;!-- ...`)
    body = f"{MARKER}\n{text}"
    while len(body.encode("utf-8")) > MAX_COMMENT_BYTES:
        text = text[: len(text) * 9 // 10]
        body = f"{MARKER}\n{text}\n\n*(cut: too long for a comment)*\n"
    return body


# What GitHub acts on in a comment's text, once its Markdown and HTML character references are read:
# `@name` pings a person or a team, `#12`, `owner/repo#12`, `GH-12` and links to /issues/12, /pull/12 or
# /discussions/12 put a "mentioned this" event on that issue in any repository. The artifact is the PR's own
# output, so every spelling counts: `&#64;`, `&#x40;`, `&commat;`, `&#35;`, `&num;`, `&#49;`... (a raw HTML
# reference needs no `;`). An invisible WORD JOINER (U+2060) after the `@`, the `#` or the `-` ends each.
WORD_JOINER = "\u2060"
_REFERENCE = re.compile(r"&(?:#0*([0-9]{1,8})|#[xX]0*([0-9a-fA-F]{1,7}))(;?)|&(commat|num|sol);")
_NAMED = {"commat": "@", "num": "#", "sol": "/"}
_SPELLED = {"@": "&#64;", "#": "&#35;", "/": "&#47;", "-": "&#45;"}  # one spelling of each for the patterns below
_ACTS = re.compile(
    r"@|&#64;"  # a mention
    r"|(?:(?<!&)#|&#(?![0-9]{1,7};)|&#35;)(?=[0-9])"  # an issue number (not the `#` of a reference, `&#124;`)
    r"|(?i:gh)(?:-|&#45;)(?=[0-9])"  # GH-12
    r"|(?i:(?:/|&#47;)(?:issues|pulls?|discussions)(?:/|&#47;))(?=[0-9])"  # a link to an issue or PR
)
_MERMAID_CODE = re.compile(r"#[0-9]+;")  # Mermaid's own character codes (`#60;` draws `<`)
_FENCE = re.compile(r"(`{3,}|~{3,})(.*)")
_FENCE_NOT_AT_LINE_START = re.compile(r"[ \t>*+\-0-9.)]+(?:`{3}|~{3})")
_TAG_START = re.compile(r"<[A-Za-z!?/]")


def _one_spelling(match: re.Match) -> str:
    """A character reference to a letter or digit as the character; to `@ # / -` in one spelling."""
    decimal, hexadecimal, _semicolon, name = match.groups()
    if name is not None:
        ch = _NAMED.get(name)
        return _SPELLED[ch] if ch else match.group()
    code = int(decimal) if decimal is not None else int(hexadecimal, 16)
    ch = chr(code) if code < 128 else ""
    if ch.isalnum():
        return ch
    return _SPELLED.get(ch, match.group())


_SPELLING_ROUNDS = 8


def _one_spelling_each(text: str) -> str:
    """`text` with `_one_spelling` applied until nothing changes, so no reference is left that reads as a
    letter, a digit or `@ # / -` only once GitHub reads it (`&#x&#x33;5;` is `&#x35;`, then `5`). Nested past
    `_SPELLING_ROUNDS` levels, every `&` is written `&amp;`: then no reference is read at all."""
    for _ in range(_SPELLING_ROUNDS):
        spelled = _REFERENCE.sub(_one_spelling, text)
        if spelled == text:
            return text
        text = spelled
    return text.replace("&", "&amp;")


# The only drawings the comment draws: what the site's renderer writes (render/mermaid.py), line by line. A
# label is letters, digits, spaces, `. ! ? _ ( )`, Mermaid's character codes (`#58;`), `<br>` and non-ASCII
# letters, marks and numbers: no `:`, `%`, `{`, `@` or `/`, so no `%%{init}%%`, no `link`,
# `links`, `click` or `properties`, no front matter, no other kind of diagram and no address in it.
_ID = r"P[0-9]{1,5}"
_LABEL = r"((?:[A-Za-z0-9 .!?_()]|#[0-9]{1,7};|<br>|[^\x00-\x7f])*)"
_COLOUR = r"(?:[A-Za-z]{1,30}|(?:rgba?|hsla?)\([0-9., %]{1,60}\))"
_ARROW = r"(?:<<-->>|<<->>|-->>|->>|-->|->|--x|-x|--\)|-\))"
_DRAWING_LINE = re.compile(
    r"(?:    )*(?:sequenceDiagram|end|autonumber|%% drawcheck: readable"
    rf"|(?:accTitle|accDescr): [A-Za-z0-9 .,()/'\u00c0-\u024f-]*"
    rf"|title {_LABEL}|(?:participant|actor) {_ID} as {_LABEL}|box {_COLOUR}(?: {_LABEL})?|rect {_COLOUR}"
    rf"|{_ID}{_ARROW}[+-]?{_ID}: {_LABEL}|Note (?:left of|right of|over) {_ID}(?:,{_ID})?: {_LABEL}"
    rf"|(?:loop|alt|opt|par|par_over|critical|break|else|and|option)(?: {_LABEL})?|(?:activate|deactivate) {_ID})"
)
_FENCE_INFO = re.compile(r"(`{3,}|~{3,})([ \t]*)([^\s`]+)")  # a fence's opening, with its language word


def is_drawing_line(line: str) -> bool:
    """True when `line` is one the site's renderer writes inside a ```mermaid fence (its only non-ASCII
    characters: letters, marks and numbers of labels)."""
    return _DRAWING_LINE.fullmatch(line) is not None and (line.isascii() or all(
        unicodedata.category(ch)[0] in "LMN" for ch in line if not ch.isascii()))


def _mermaid_lines(lines: list[str]) -> tuple[set[int], set[int]]:
    """(the lines inside the site's own drawings, the opening lines of those drawings).

    A drawing is a ```mermaid fence at the line start, closed, every line of it one the renderer writes
    (`is_drawing_line`); only when the fences are unambiguous: every fence line at the line start (none
    indented, quoted or in a list, where GitHub may end the block earlier) and no raw HTML outside them (an
    HTML block can swallow a fence). Otherwise none: the drawing may then show codes, but nothing is linked.
    Every other fence's language becomes `text` (`_as_text`): GitHub draws no other diagram, map or formula."""
    inside: set[int] = set()
    openings: set[int] = set()
    fence = None  # (character, length, opening line number, the drawing's lines so far or None)
    for number, line in enumerate(lines):
        if _FENCE_NOT_AT_LINE_START.match(line):
            return set(), set()
        opened = _FENCE.fullmatch(line)
        if fence is None:
            if opened and not (opened.group(1)[0] == "`" and "`" in opened.group(2)):
                drawing = [] if (opened.group(1)[0] == "`" and opened.group(2) == "mermaid") else None
                fence = (opened.group(1)[0], len(opened.group(1)), number, drawing)
            elif _TAG_START.search(line):
                return set(), set()
            continue
        if opened and opened.group(1)[0] == fence[0] and len(opened.group(1)) >= fence[1] and not opened.group(2).strip():
            if fence[3] is not None and all(is_drawing_line(lines[n]) for n in fence[3]):
                inside.update(fence[3])
                openings.add(fence[2])
            fence = None
        elif fence[3] is not None:
            fence[3].append(number)
    return inside, openings


def _as_text(line: str) -> str:
    """`line` with the language of any fence opening in it made `text`, so GitHub shows it as code."""
    return _FENCE_INFO.sub(lambda m: m.group(1) + m.group(2) + "text", line) if ("``" in line or "~~" in line) else line


def own_links(repo: str, head_sha: str, author: str) -> re.Pattern:
    """What may follow `https:` in the comment: the PR's files at its head commit (`//github.com/<repo>/blob/
    <sha>/answers/...`, with a line) and the author's own feedback pages on the site the check links to
    (`//<owner>.github.io/<name>/feedback/[<exercise>/]<author>/`). Nothing else: no other site, no other
    learner's page, no `..`."""
    owner, _, name = repo.partition("/")
    path = r"(?:[A-Za-z0-9_-][A-Za-z0-9_.-]*/)*[A-Za-z0-9_-][A-Za-z0-9_.-]*(?:#L[0-9]{1,7})?"
    files = rf"(?i://github\.com/{re.escape(repo)}/blob/){re.escape(head_sha)}/answers/{path}"
    pages = (rf"(?i://{re.escape(owner.lower())}\.github\.io/{re.escape(name)}/feedback/(?:[a-z0-9-]+/)?"
             rf"{re.escape(author)}/)") if author else r"(?!)"
    return re.compile(rf"(?:{files}|{pages})(?=[)\s]|$)")


# Where GitHub makes a link: a scheme it keeps (autolinked, or as a link's address), `www.` (autolinked) and
# `//` (an address without its scheme: `[x](//host)`, `\/\/` once Markdown reads the backslashes).
_LINKISH = re.compile(r"(?i)(https)(?::|&#58;)|(?:https?|mailto|xmpp)(?::|&#58;)|www(?=\.|&#46;)|"
                      r"(?:/|&#47;|\\/)(?=/|&#47;|\\/)")


def _break_links(line: str, links: "re.Pattern | None") -> str:
    """`line` with a WORD JOINER after each scheme, `www` and first `/` of `//`, except in the addresses
    `links` allows: the address becomes plain text (or a harmless path under the comment's own page)."""
    out, at = [], 0
    for m in _LINKISH.finditer(line):
        if m.start() < at:
            continue  # inside an allowed address
        allowed = links.match(line, m.end()) if (links is not None and m.group(1)) else None
        if allowed and line.startswith("://", m.start(1) + 5):
            out.append(line[at:allowed.end()])
            at = allowed.end()
            continue
        out.append(line[at:m.end()] + WORD_JOINER)
        at = m.end()
    return "".join(out) + line[at:]


def neutralise_references(markdown: str, *, links: "re.Pattern | None" = None) -> str:
    """`markdown` with no mention and no issue or pull-request reference GitHub would act on, in any
    spelling, and no raw HTML (`<` is `&lt;`: no `<details>` left open, no `<!--` hiding the rest, no HTML
    block swallowing a fence); inside ```mermaid fences Mermaid's character codes and `<br>` are kept, so
    drawings still draw."""
    lines = _one_spelling_each(markdown).split("\n")
    mermaid, drawings = _mermaid_lines(lines)
    for number, line in enumerate(lines):
        if number in drawings:
            continue  # "```mermaid", as written
        if number in mermaid:
            codes = {m.start() for m in _MERMAID_CODE.finditer(line)}
            lines[number] = _ACTS.sub(lambda m: m.group() if m.start() in codes else m.group() + WORD_JOINER, line)
        else:
            line = _ACTS.sub(lambda m: m.group() + WORD_JOINER, _as_text(line).replace("<", "&lt;"))
            lines[number] = _break_links(line, links)
    return "\n".join(lines)


def find_sticky(gh: GitHub, repo: str, number: int, bot_login: str) -> dict | None:
    """The bot's earlier comment carrying the marker (the first, if several), else None."""
    for page in range(1, 31):
        comments = gh.json("GET", f"/repos/{repo}/issues/{number}/comments?per_page=100&page={page}")
        if not isinstance(comments, list):
            return None
        for c in comments:
            user = (c.get("user") or {}).get("login", "")
            if user.lower() == bot_login.lower() and str(c.get("body", "")).startswith(MARKER):
                return c
        if len(comments) < 100:
            return None
    return None


def upsert_comment(gh: GitHub, repo: str, number: int, body: str, *, bot_login: str = DEFAULT_BOT) -> tuple[str, int]:
    """Update the sticky comment, or create it: ("updated" | "created", comment id)."""
    existing = find_sticky(gh, repo, number, bot_login)
    if existing is not None:
        gh.json("PATCH", f"/repos/{repo}/issues/comments/{int(existing['id'])}", {"body": body})
        return "updated", int(existing["id"])
    created = gh.json("POST", f"/repos/{repo}/issues/{number}/comments", {"body": body})
    return "created", int(created["id"])


def post_feedback(gh: GitHub, *, repo: str, run_id: int, run_head_sha: str, bot_login: str = DEFAULT_BOT) -> str:
    """The whole step: find and check the artifact, check the PR, post or update. Returns what was done."""
    if not _REPO.fullmatch(repo):
        raise Refused(f"--repo must be owner/name, not {repo!r}")
    if not _SHA.fullmatch(run_head_sha):
        raise Refused("--head-sha must be the run's full head commit SHA")
    artifact = find_artifact(gh, repo, run_id)
    if artifact is None:
        return "no artifact: nothing to post"
    zipped = gh.download(f"/repos/{repo}/actions/artifacts/{int(artifact['id'])}/zip", MAX_ARTIFACT_BYTES)
    meta, comment = read_artifact(zipped)
    if meta["head_sha"] != run_head_sha:
        raise Refused(f"pr.json names commit {meta['head_sha']}, but the run checked {run_head_sha}")
    if meta["mode"] == "site" or comment is None:
        return "a site change: nothing to post"
    author = verify_pull_request(gh, repo, meta["number"], run_head_sha)
    if changes_only_answers(gh, repo, meta["number"]):
        body = comment_body(comment, links=own_links(repo, run_head_sha, author))
    else:
        body = f"{MARKER}\n{CODE_CHANGED}"
    done, comment_id = upsert_comment(gh, repo, meta["number"], body, bot_login=bot_login)
    return f"{done} comment {comment_id} on pull request #{meta['number']}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--repo", default=os.environ.get("GITHUB_REPOSITORY", ""), help="owner/name")
    parser.add_argument("--run-id", type=int, required=True, help="github.event.workflow_run.id")
    parser.add_argument("--head-sha", required=True, help="github.event.workflow_run.head_sha")
    parser.add_argument("--api-url", default=os.environ.get("GITHUB_API_URL", "https://api.github.com"))
    parser.add_argument("--bot-login", default=DEFAULT_BOT, help="whose marked comment is the sticky one")
    args = parser.parse_args(argv)
    try:
        gh = GitHub(args.api_url, os.environ.get("GITHUB_TOKEN", ""))
        print("drawcheck:", post_feedback(gh, repo=args.repo, run_id=args.run_id, run_head_sha=args.head_sha,
                                          bot_login=args.bot_login))
    except Refused as exc:
        print(f"::error title=drawcheck comment::refused: {_one_line(str(exc))}")
        return 1
    except (OSError, ValueError) as exc:
        print(f"::error title=drawcheck comment::the GitHub API could not be reached ({type(exc).__name__})")
        return 1
    return 0


def _one_line(text: str) -> str:
    """For a workflow command: one line, `%` escaped, no `::` or `##[` from the artifact's text."""
    text = " ".join(_CONTROL.sub("", text).split())[:500]
    return text.replace("%", "%25").replace("::", ": :").replace("##[", "# #[")


if __name__ == "__main__":
    sys.exit(main())

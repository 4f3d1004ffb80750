"""Real-browser helpers: build the site into tmp, serve it on 127.0.0.1, open pages in Debian's Chromium.

Browser tests skip only when /usr/bin/chromium is absent AND DRAWCHECK_REQUIRE_BROWSER is unset;
`.ci/run` sets it, so CI fails instead of skipping.
"""

from __future__ import annotations

import functools
import os
import re
import shutil
import subprocess
import sys
import threading
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import urlsplit

import pytest

ROOT = Path(__file__).resolve().parents[2]
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
    "--disable-component-update", "--disable-sync", "--no-first-run",
]
ARTIFACTS = ROOT / "test-artifacts"
LOCAL_MERMAID = Path("docs/assets/javascripts/mermaid.min.js")
TOP_LEVEL_SKIP = {".git", ".venv", "node_modules", "site", "tests", "bench", "test-artifacts", ".pytest_cache",
                  ".hypothesis", "build", "answers"}


def COPY_IGNORE(directory: str, names: list[str]) -> set[str]:
    skip = {n for n in names if n == "__pycache__" or n.endswith(".egg-info")}
    if Path(directory) == ROOT:
        skip |= TOP_LEVEL_SKIP & set(names)
    return skip

# Material renders each diagram into a *closed* shadow root; tests open it (rendering is unchanged).
OPEN_SHADOW_ROOTS = """
(() => {
  const attach = Element.prototype.attachShadow;
  Element.prototype.attachShadow = function (init) { return attach.call(this, {...init, mode: "open"}); };
})();
"""

ALL_DIAGRAMS_DRAWN = """
() => {
  if (document.querySelector("pre.mermaid")) return false;
  const hosts = [...document.querySelectorAll("div.mermaid")];
  return hosts.every(h => h.shadowRoot && h.shadowRoot.querySelector("svg"));
}
"""


def require_chromium() -> None:
    if os.path.exists(CHROMIUM):
        return
    if os.environ.get("DRAWCHECK_REQUIRE_BROWSER"):
        pytest.fail(f"{CHROMIUM} is missing but DRAWCHECK_REQUIRE_BROWSER is set: `apt-get install -y chromium`")
    pytest.skip(f"{CHROMIUM} not installed (set DRAWCHECK_REQUIRE_BROWSER=1 to make this a failure)")


@dataclass
class BuiltSite:
    project: Path
    site: Path
    log: str

    def pages(self) -> list[str]:
        """Every HTML page of the site as a URL path ('' for the home page), sorted; 404 left out."""
        found = []
        for path in sorted(self.site.rglob("index.html")):
            rel = path.parent.relative_to(self.site).as_posix()
            found.append("" if rel == "." else rel + "/")
        return found


def make_project(dest: Path, *, answers: dict[str, str | bytes] | None = None,
                 extra_docs: dict[str, str] | None = None) -> Path:
    """A copy of the repository's site sources in `dest`, with `answers` as the answers folder."""
    project = dest / "project"
    shutil.copytree(ROOT, project, ignore=COPY_IGNORE, symlinks=True)
    local_mermaid = project / LOCAL_MERMAID
    if not local_mermaid.exists():
        # what `npm ci`'s postinstall does; the site must use the pinned local copy, never a CDN
        source = ROOT / "node_modules" / "mermaid" / "dist" / "mermaid.min.js"
        if not source.exists():
            pytest.fail("node_modules/mermaid is missing: run `npm ci` (scripts/dev test does)")
        local_mermaid.parent.mkdir(parents=True, exist_ok=True)
        shutil.copyfile(source, local_mermaid)
    answers_dir = project / "answers"
    if answers is None:
        shutil.copytree(ROOT / "answers", answers_dir, symlinks=True)
    else:
        answers_dir.mkdir()
        for kept in (ROOT / "answers").iterdir():  # templates and README: the pages include them
            if kept.name.startswith("_") or kept.name.lower() == "readme.md":
                shutil.copyfile(kept, answers_dir / kept.name)
        for name, content in answers.items():
            target = answers_dir / name
            if isinstance(content, bytes):
                target.write_bytes(content)
            else:
                target.write_text(content, encoding="utf-8")
    for rel, text in (extra_docs or {}).items():
        (project / "docs" / rel).parent.mkdir(parents=True, exist_ok=True)
        (project / "docs" / rel).write_text(text, encoding="utf-8")
    return project


COLOUR_SCHEMES = {"light": "default", "dark": "slate"}  # Material's palettes: the site's two page colours

PAGE_BEHIND = """const svg = host.shadowRoot.querySelector("svg");
  let el = host, bg = "rgba(0, 0, 0, 0)";
  while (el && (bg = getComputedStyle(el).backgroundColor) === "rgba(0, 0, 0, 0)") el = el.parentElement;
"""
"""JavaScript for the body of a `host => {...}` over each `div.mermaid`: its drawing as `svg`, and in `bg` the
colour of the page behind it (the first ancestor with a background of its own)."""


@contextmanager
def scheme_page(browser, scheme: str | None = None, *, viewport=(1280, 900)):
    """A page of a fresh context that opens every shadow root, in one of Material's `COLOUR_SCHEMES` (None: the
    browser's default)."""
    options = {"color_scheme": scheme} if scheme else {}
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]}, **options)
    context.add_init_script(OPEN_SHADOW_ROOTS)
    try:
        yield context.new_page()
    finally:
        context.close()


def drawings_on(page, url: str, script: str, *args, scheme: str | None = None) -> list:
    """Open `url`, wait for its diagrams and return what `script` reads of them (a list, one entry a drawing,
    each with the page's `scheme` attribute); checks there is one at least, read in `scheme` when given."""
    page.goto(url)
    wait_for_diagrams(page)
    drawings = page.evaluate(script, *args)
    assert drawings, url
    if scheme is not None:
        assert all(d["scheme"] == COLOUR_SCHEMES[scheme] for d in drawings), (url, scheme)
    return drawings


def css_rgba(css: str) -> tuple[tuple[float, float, float], float]:
    """A computed CSS colour, `rgb(r, g, b)` or `rgba(r, g, b, a)`: its RGB and its alpha."""
    m = re.fullmatch(r"rgba?\(([\d.]+), ([\d.]+), ([\d.]+)(?:, ([\d.]+))?\)", css)
    assert m, css
    return tuple(float(v) for v in m.groups()[:3]), float(m.group(4) or 1)


def painted_over(css: str, opacity: float, below) -> tuple[float, ...]:
    """The RGB the browser shows for colour `css` at `opacity`, painted over the RGB `below`."""
    rgb, alpha = css_rgba(css)
    return tuple(a * alpha * opacity + b * (1 - alpha * opacity) for a, b in zip(rgb, below))


def build_as_on_github(project: Path, site: Path, summary: Path) -> str:
    """`mkdocs build --no-strict` of `project` into `site` as a GitHub Actions job runs it (annotations in the
    log, the job summary in `summary`); its log, after checking the build succeeded."""
    env = {**os.environ, "GITHUB_ACTIONS": "true", "GITHUB_STEP_SUMMARY": str(summary), "NO_MKDOCS_2_WARNING": "1"}
    done = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--no-strict", "-f", str(project / "mkdocs.yml"),
                           "-d", str(site)], cwd=project, capture_output=True, env=env, timeout=900)
    log = done.stdout.decode("utf-8") + done.stderr.decode("utf-8")
    assert done.returncode == 0, log[-5000:]
    return log


def github_build(tmp: Path, answers: dict[str, str | bytes]) -> tuple[str, Path]:
    """A project of `answers` made in `tmp` and built there as a GitHub Actions job builds it (`build_as_on_github`,
    the summary in tmp/summary.md): its log and its site."""
    project = make_project(tmp, answers=answers)
    site = tmp / "site"
    return build_as_on_github(project, site, tmp / "summary.md"), site


def build(project: Path, *, strict: bool = True) -> BuiltSite:
    site = project.parent / "site"
    cmd = [sys.executable, "-m", "mkdocs", "build", "-f", str(project / "mkdocs.yml"), "-d", str(site)]
    cmd.append("--strict" if strict else "--no-strict")  # mkdocs.yml says strict: true
    # a published site has a site_url (the Pages deploy sets it), which fills sitemap.xml
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "GITHUB_ACTIONS": "",
           "DRAWCHECK_SITE_URL": "https://drawcheck.example/"}
    done = subprocess.run(cmd, cwd=project, capture_output=True, text=True, env=env, timeout=600)
    log = done.stdout + done.stderr
    assert done.returncode == 0, f"mkdocs build failed:\n{log[-6000:]}"
    return BuiltSite(project, site, log)


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, *args):  # keep pytest output clean
        pass


@contextmanager
def serve(directory: Path):
    """Serve `directory` on 127.0.0.1 at an ephemeral port; yields the base URL."""
    handler = functools.partial(_QuietHandler, directory=str(directory))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(timeout=5)


@dataclass
class Watched:
    """A page plus everything suspicious it did."""

    page: object
    page_errors: list[str] = field(default_factory=list)
    dialogs: list[str] = field(default_factory=list)
    console: list[str] = field(default_factory=list)
    outside_requests: list[str] = field(default_factory=list)
    failed_requests: list[str] = field(default_factory=list)


@contextmanager
def watched_page(browser, *, viewport=(1280, 900)):
    """A fresh context whose page records errors, dialogs, console lines, and blocks any non-local request."""
    context = browser.new_context(viewport={"width": viewport[0], "height": viewport[1]})
    context.add_init_script(OPEN_SHADOW_ROOTS)
    page = context.new_page()
    seen = Watched(page)

    def route(route_obj):
        url = route_obj.request.url
        host = urlsplit(url).hostname
        if url.startswith(("data:", "blob:", "about:")) or host == "127.0.0.1":
            route_obj.continue_()
        else:
            seen.outside_requests.append(url)
            route_obj.abort()

    context.route("**/*", route)
    page.on("pageerror", lambda exc: seen.page_errors.append(str(exc)))
    page.on("console", lambda msg: seen.console.append(f"{msg.type}: {msg.text}"))
    page.on("requestfailed", lambda req: seen.failed_requests.append(req.url))

    def on_dialog(dialog):
        seen.dialogs.append(f"{dialog.type}: {dialog.message}")
        dialog.dismiss()

    page.on("dialog", on_dialog)
    try:
        yield seen
    finally:
        context.close()


def wait_for_diagrams(page, timeout_ms: int = 30000) -> None:
    """Wait until Material has drawn every diagram; fail naming the ones Mermaid could not draw."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeout

    page.wait_for_load_state("load")
    try:
        page.wait_for_function(ALL_DIAGRAMS_DRAWN, timeout=timeout_ms)
    except PlaywrightTimeout:
        undrawn = page.evaluate(
            "() => [...document.querySelectorAll('pre.mermaid')].map(p => p.textContent.slice(0, 300))")
        raise AssertionError(
            f"{page.url}: {len(undrawn)} diagram(s) not drawn within {timeout_ms} ms; first ones:\n"
            + "\n---\n".join(undrawn[:3])
        ) from None


def diagram_report(page) -> list[dict]:
    """Per drawn diagram: its size, its SVG text, whether it sits in a <details>."""
    return page.evaluate(
        """() => [...document.querySelectorAll("div.mermaid")].map(host => {
            const svg = host.shadowRoot && host.shadowRoot.querySelector("svg");
            const box = svg ? svg.getBoundingClientRect() : {width: 0, height: 0};
            return {width: box.width, height: box.height, text: svg ? svg.textContent : "",
                    inDetails: !!host.closest("details"), html: svg ? svg.outerHTML : ""};
        })"""
    )


def open_all_details(page) -> None:
    for summary in page.locator("details:not([open]) > summary").all():
        if summary.is_visible():
            summary.click()


def active_content_report(page) -> dict:
    """Anything in the DOM (shadow roots included) that could run script or navigate to script."""
    return page.evaluate(
        """() => {
            const roots = [document];
            const seen = {scripts: [], handlers: [], iframes: [], jsLinks: [], foreign: []};
            while (roots.length) {
                const root = roots.pop();
                for (const el of root.querySelectorAll("*")) {
                    if (el.shadowRoot) roots.push(el.shadowRoot);
                    const tag = el.tagName.toLowerCase();
                    if (tag === "script") seen.scripts.push(el.src || el.textContent.slice(0, 80));
                    if (["iframe", "object", "embed", "frame"].includes(tag)) seen.iframes.push(el.outerHTML.slice(0, 120));
                    for (const attr of el.attributes) {
                        const name = attr.name.toLowerCase();
                        const value = attr.value.replace(/[\\s\\u0000-\\u001f]/g, "").toLowerCase();
                        if (name.startsWith("on")) seen.handlers.push(`${tag}[${name}]`);
                        if (["href", "xlink:href", "src", "action", "formaction"].includes(name)
                            && /^(javascript|vbscript|data):/.test(value)) seen.jsLinks.push(`${tag}[${name}]=${attr.value.slice(0, 60)}`);
                    }
                }
            }
            return seen;
        }"""
    )


def mermaid_security_level(page) -> str | None:
    """Mermaid's effective securityLevel on the page; None when the page loads no Mermaid."""
    return page.evaluate("() => window.mermaid ? window.mermaid.mermaidAPI.getConfig().securityLevel : null")


def save_screenshot(page, name: str) -> Path:
    ARTIFACTS.mkdir(exist_ok=True)
    path = ARTIFACTS / name
    page.screenshot(path=str(path), full_page=False)
    return path

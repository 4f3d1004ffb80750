"""Where a fact in the reference data comes from: one `source:` mapping, as docs/grading.md describes.

Forms (exactly one per mapping):
  {repo, ref, path, line | lines, commit?}   a line or range in a repository
  {kep, section?}                            an enhancement proposal (its folder from `sources.keps`)
  {pr, repo?}                                a pull request (repo defaults to `sources.repo`)
  {url, section?}                            any page
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

_REPO = re.compile(r"^[A-Za-z0-9][A-Za-z0-9_.-]*/[A-Za-z0-9_.-]+$")
_LINES = re.compile(r"^([1-9][0-9]*)-([1-9][0-9]*)$")
_COMMIT = re.compile(r"^[0-9a-f]{40}$")
_REF = re.compile(r"^(?:v[0-9]+(?:\.[0-9]+){1,2}(?:-[A-Za-z0-9.]+)?|master|main|[0-9a-f]{40})$")  # tag, branch, commit


@dataclass(frozen=True, slots=True)
class SourceDefaults:
    """The exercise's `sources:` section: what short forms point to."""

    repo: str | None = None  # the repository of `{pr: N}` without `repo:`
    keps: dict[int, str] = field(default_factory=dict)  # KEP number -> URL of its folder
    line: int = 0


@dataclass(frozen=True, slots=True)
class Source:
    """One citation; `.url` is the page it points to."""

    form: str  # "code" | "kep" | "pr" | "url"
    line: int  # where it is written in the YAML
    repo: str | None = None
    ref: str | None = None
    path: str | None = None
    first_line: int | None = None
    last_line: int | None = None
    commit: str | None = None
    kep: int | None = None
    pr: int | None = None
    page: str | None = None  # the url of the `url` form, or the KEP's folder
    section: str | None = None

    @property
    def url(self) -> str:
        if self.form == "code":
            anchor = f"#L{self.first_line}" + (f"-L{self.last_line}" if self.last_line != self.first_line else "")
            return f"https://github.com/{self.repo}/blob/{self.commit or self.ref}/{self.path}{anchor}"
        if self.form == "pr":
            return f"https://github.com/{self.repo}/pull/{self.pr}"
        return self.page


FORMS = {  # form -> (required keys, optional keys); a mapping's keys decide its form
    "code": (("repo", "ref", "path"), ("line", "lines", "commit")),
    "kep": (("kep",), ("section",)),
    "pr": (("pr",), ("repo",)),
    "url": (("url",), ("section",)),
}


def read_sources(r, node, where: str, defaults: SourceDefaults) -> tuple[Source, ...]:
    """`source:` as one mapping or a list of them; every problem is a ReferenceError at its line."""
    import yaml

    items = r.seq(node, where) if isinstance(node, yaml.SequenceNode) else [node]
    if not items:
        r.fail(node, f"{where} is an empty list; give at least one source or drop the key")
    return tuple(_source(r, item, where, defaults) for item in items)


def _source(r, node, where: str, defaults: SourceDefaults) -> Source:
    import yaml

    if not isinstance(node, yaml.MappingNode):
        r.fail(node, f"{where} must be a mapping such as `{{pr: 24197}}` or `{{url: \"https://...\"}}`")
    keys = {k.value for k, _ in node.value if isinstance(k, yaml.ScalarNode)}
    form = "kep" if "kep" in keys else "pr" if "pr" in keys else "url" if "url" in keys else "code"
    required, optional = FORMS[form]
    m = r.mapping(node, f"{where} ({form} form)", required, optional)
    line = node.start_mark.line + 1
    if form == "url":
        url = r.string(m["url"], f"{where}.url")
        if not url.startswith("https://"):
            r.fail(m["url"], f"{where}.url must start with https://; got {url!r}")
        return Source("url", line, page=url, section=_optional(r, m, "section", where))
    if form == "pr":
        pr = r.positive(m["pr"], f"{where}.pr")
        repo = _repo(r, m["repo"], where) if "repo" in m else defaults.repo
        if repo is None:
            r.fail(node, f"{where}: write `repo: owner/name`, or set `sources: {{repo: owner/name}}` for every PR")
        return Source("pr", line, repo=repo, pr=pr)
    if form == "kep":
        kep = r.positive(m["kep"], f"{where}.kep")
        if kep not in defaults.keps:
            r.fail(m["kep"], f"{where}: KEP {kep} is not listed under `sources: keps:`; add `{kep}: <URL of its folder>`")
        return Source("kep", line, kep=kep, page=defaults.keps[kep], section=_optional(r, m, "section", where))
    ref = r.string(m["ref"], f"{where}.ref")
    if not _REF.match(ref):
        r.fail(m["ref"], f"{where}.ref must be a tag such as v1.37.0, a 40-digit commit, or master with `commit:`; "
               f"got {ref!r}")
    commit = None
    if "commit" in m:
        commit = r.string(m["commit"], f"{where}.commit")
        if not _COMMIT.match(commit):
            r.fail(m["commit"], f"{where}.commit must be 40 lower-case hex digits")
    path = r.string(m["path"], f"{where}.path")
    if path.startswith("/") or ".." in path.split("/"):
        r.fail(m["path"], f"{where}.path must be a path inside the repository, without a leading / or ..")
    if ("line" in m) == ("lines" in m):
        r.fail(node, f"{where} needs exactly one of `line: N` or `lines: N-M`")
    if "line" in m:
        first = last = r.positive(m["line"], f"{where}.line")
    else:
        span = _LINES.match(r.string(m["lines"], f"{where}.lines"))
        if not span or int(span.group(1)) > int(span.group(2)):
            r.fail(m["lines"], f"{where}.lines must be a range such as 120-131 (first line first)")
        first, last = int(span.group(1)), int(span.group(2))
    return Source("code", line, repo=_repo(r, m["repo"], where), ref=ref, path=path, first_line=first,
                  last_line=last, commit=commit)


def _repo(r, node, where: str) -> str:
    repo = r.string(node, f"{where}.repo")
    if not _REPO.match(repo):
        r.fail(node, f"{where}.repo must be `owner/name`; got {repo!r}")
    return repo


def _optional(r, m: dict, key: str, where: str) -> str | None:
    return r.string(m[key], f"{where}.{key}") if key in m else None


def read_defaults(r, node) -> SourceDefaults:
    """The top-level `sources:` section: `repo:` for bare PRs, `keps:` KEP number -> folder URL, `named:` a
    library of sources (name -> one `source:` mapping), each validated here and cited below by a YAML
    anchor (`&name` here, `source: *name` at the fact)."""
    m = r.mapping(node, "sources", (), ("repo", "keps", "named"))
    keps: dict[int, str] = {}
    if "keps" in m:
        for key_node, value_node in r.pairs(m["keps"], "sources.keps"):
            number = r.positive(key_node, "a sources.keps number")
            url = r.string(value_node, f"sources.keps.{number}")
            if not url.startswith("https://"):
                r.fail(value_node, f"sources.keps.{number} must be an https:// URL")
            keps[number] = url
    defaults = SourceDefaults(_repo(r, m["repo"], "sources") if "repo" in m else None, keps, node.start_mark.line + 1)
    for key_node, value_node in r.pairs(m["named"], "sources.named") if "named" in m else ():
        name = r.ident(key_node, "a sources.named name")
        _source(r, value_node, f"sources.named.{name}", defaults)
    return defaults

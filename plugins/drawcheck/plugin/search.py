"""Keep the generated feedback pages out of the site's search index.

A feedback page repeats a learner's drawing and the grader's sentences; indexed, a thousand of them
bury the exercise pages under near-identical hits and double the index. Material's search plugin skips
any page whose meta says `search: exclude: true`; this sets it for every page under the feedback
folder except the class overview, before the search plugin reads the page.
"""

from __future__ import annotations


def is_feedback_page(src_uri: str, feedback_dir: str, overview_uri: str) -> bool:
    """Whether `src_uri` is one learner's generated feedback page (not the overview)."""
    folder = feedback_dir.strip("/") + "/"
    return src_uri.startswith(folder) and src_uri.endswith(".md") and src_uri != overview_uri


def exclude_feedback_from_search(page, feedback_dir: str, overview_uri: str) -> None:
    """Set `search: {exclude: true}` in a feedback page's meta (other pages are left as they are)."""
    if is_feedback_page(page.file.src_uri, feedback_dir, overview_uri):
        search = page.meta.get("search")
        page.meta["search"] = {**(search if isinstance(search, dict) else {}), "exclude": True}

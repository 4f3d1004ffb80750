"""Typed options of the `drawcheck` MkDocs plugin."""

from __future__ import annotations

from mkdocs.config import base
from mkdocs.config import config_options as c

from drawcheck.plugin.exercises import ExercisesOption


class DrawcheckConfig(base.Config):
    enabled = c.Type(bool, default=True)
    """Turn the whole plugin off, e.g. for a quick prose-only preview."""

    reference = c.Type(str, default="reference/two-cycles/exercise.yml")
    """The exercise's reference data (YAML), relative to mkdocs.yml, on a site of one exercise.

    Ignored when `exercises` is set (setting both is an error)."""

    exercises = ExercisesOption()
    """The site's exercises, the flagship first; each entry `{id, reference, answers_dir, feedback_dir, title}`
    (see `drawcheck.plugin.exercises.ExerciseConfig`), e.g.
    `- {id: my-exercise, reference: reference/my-exercise}`.

    Answers go in `answers/<id>/<handle>.mmd` and pages in `feedback/<id>/`; the first exercise also grades
    the flat `answers/<handle>.mmd` files and keeps its pages in `feedback/`. Empty: one exercise, `reference`.
    """

    answers_dir = c.Type(str, default="answers")
    """Folder of learner submissions (`<handle>.mmd`), relative to mkdocs.yml."""

    mermaid_version = c.Optional(c.Type(str))
    """The exact Mermaid version; by default the one pinned in package.json."""

    mermaid_local = c.Type(str, default="assets/javascripts/mermaid.min.js")
    """Path inside docs_dir of the local UMD Mermaid (put there by `npm ci`).

    When the file exists the site loads it and needs no network; otherwise it
    loads the pinned version from the CDN.
    """

    mermaid_cdn = c.Type(str, default="https://cdn.jsdelivr.net/npm/mermaid@{version}/dist/mermaid.min.js")
    """CDN address used when no local copy exists; `{version}` is replaced."""

    feedback_dir = c.Type(str, default="feedback")
    """Where the generated pages appear in the site: `<feedback_dir>/index.md` (class overview) and
    `<feedback_dir>/<handle>.md` (one per submission, reachable from the overview, not in the nav)."""

    overview_title = c.Type(str, default="Class overview")
    """Nav title of the class overview, used when mkdocs.yml's nav does not list it already."""

    correction_log_level = c.Choice(("DEBUG", "INFO", "WARNING", "ERROR"), default="INFO")
    """Log level of the one line per correction (`drawcheck: answers/x.mmd:14: ...`).

    WARNING makes `mkdocs build --strict` fail on any correction."""

    error_log_level = c.Choice(("DEBUG", "INFO", "WARNING", "ERROR"), default="INFO")
    """Log level for a submission that cannot be checked (syntax error, unsafe content, refused file).

    The default, INFO, never stops a `--strict` build (or `mkdocs serve`) because of a learner's file: that
    file gets a "could not be graded" page, GitHub error annotations and a line in the job summary. WARNING
    or ERROR would make one learner's file block everyone's published feedback."""

    github_annotations = c.Type(bool, default=True)
    """Under GitHub Actions (`GITHUB_ACTIONS=true`), print annotations on the answer files' lines and
    append the full table to `$GITHUB_STEP_SUMMARY`."""

    annotations_per_level = c.Type(int, default=10)
    """Most annotations printed per level (error, warning, notice); GitHub shows 10 per step.

    When a level has more findings, its last annotation says "+N more — see the job summary"."""

    annotations_total = c.Type(int, default=25)
    """Most annotations this build prints in total. GitHub shows 50 per job; the default leaves the
    other half to the `drawcheck check --format github` step of the same job."""

    max_file_bytes = c.Type(int, default=262144)
    """Largest answer file accepted; a bigger one is refused with an error naming it."""

    max_file_lines = c.Type(int, default=2000)
    """Most lines accepted in one answer file."""

    examples = c.ListOfItems(c.Type(str), default=[])
    """Handles of the site's own example answers (e.g. `example-blocking-wait` for
    `answers/example-blocking-wait.mmd`): their pages say "Example submission ... not drawn by a learner".

    Only listed handles may start with `example-`; any other `answers/example-*.mmd` is refused with an
    error naming it, so a stranger cannot pass a file off as the site's example."""

    max_seconds_per_file = c.Type((int, float), default=10)
    """Longest time (seconds, wall clock) checking one answer file may take; past it the file gets an error
    naming it and the build goes on with the others. 0 turns the budget off."""

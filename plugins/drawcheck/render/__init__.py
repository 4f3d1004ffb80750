"""render: graded submissions -> Markdown pages and safe Mermaid with circles drawn on the learner's drawing."""

from drawcheck.render import errors  # noqa: F401
from drawcheck.render.feedback import FeedbackSetup, feedback_page, feedback_setup, number_corrections, overlay  # noqa: F401
from drawcheck.render.mermaid import Circle, Insertion, render_diagram  # noqa: F401
from drawcheck.render.model import Graded, Refused  # noqa: F401
from drawcheck.render.overview import overview_page  # noqa: F401

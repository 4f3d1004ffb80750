"""reference: an exercise's reference data (YAML) -> a validated `Reference`."""

from drawcheck.reference.load import load_reference, parse_reference, refuse_unsourced, unsourced  # noqa: F401
from drawcheck.reference.model import LegacyName, Note, Phase, Reference, ReferenceError, Step  # noqa: F401
from drawcheck.reference.reader import compact  # noqa: F401
from drawcheck.reference.source import Source  # noqa: F401

"""drawcheck: draw a protocol from memory, then get it checked.

Pipeline: parse -> recognise -> grade -> render -> report. The MkDocs plugin
(`drawcheck.plugin`) and the CLI (`drawcheck.cli`) are thin faces on it.
"""

__version__ = "0.1.0"

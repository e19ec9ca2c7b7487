"""Errors and warnings raised by the corpus readers, writers and converters.

Messages name the note id, span index, offsets and label, never the note text
or the PHI itself.
"""


class CorpusError(ValueError):
    """A corpus file or note is malformed (bad offsets, bad markup, ...)."""


class MisalignedSpanWarning(UserWarning):
    """Gold spans do not line up with token boundaries."""


class OverlappingSpanWarning(UserWarning):
    """Gold spans overlap and some of them had to be removed."""

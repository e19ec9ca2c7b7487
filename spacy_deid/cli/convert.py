"""`spacy-deid convert` (being written)."""

from ._app import app  # noqa: F401

"""`spacy-deid evaluate` (being written)."""

from ._app import app  # noqa: F401

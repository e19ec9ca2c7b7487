"""`spacy-deid synth` (being written)."""

from ._app import app  # noqa: F401

"""Command-line interface: `spacy-deid COMMAND ...` (see `spacy-deid --help`)."""

from . import audit, convert, evaluate, keygen, run, synth, vectors  # noqa: F401
from ._app import app


def main() -> None:
    """Console-script entry point."""
    app()

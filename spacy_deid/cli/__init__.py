"""Command-line interface: `spacy-deid COMMAND ...` (see `spacy-deid --help`)."""

from . import convert, evaluate, keygen, run, synth  # noqa: F401  (register commands)
from ._app import app


def main() -> None:
    """Console-script entry point."""
    app()

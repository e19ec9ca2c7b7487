"""Command-line interface: `spacy-deid COMMAND ...` (see `spacy-deid --help`)."""

from ._app import app
from . import convert, evaluate, synth  # noqa: F401  (register commands)


def main() -> None:
    """Console-script entry point."""
    app()

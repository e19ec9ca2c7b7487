"""Command-line interface: `spacy-deid COMMAND ...` (see `spacy-deid --help`)."""

import atexit
import gc

from . import audit, convert, evaluate, keygen, run, synth, vectors  # noqa: F401
from ._app import app


def main() -> None:
    """Console-script entry point."""
    # What is left at exit (a loaded pipeline: millions of objects) needs no
    # collection; frozen, the collector's pass at exit skips it (about 0.15 s
    # of a one-note run). Only here, in the command's own process: a program
    # that calls `app` keeps its collector as it was.
    atexit.register(gc.freeze)
    app()

"""Helpers shared by the CLI commands."""

import os
import sys
import warnings
from pathlib import Path
from typing import IO, ContextManager, Optional

import spacy
import typer
from spacy.language import Language

from .. import PIPELINES
from .. import load as load_shipped

EXIT_FATAL = 1
EXIT_REJECTED = 3
KEY_ENV_VARS = ("SPACY_DEID_KEY", "SPACY_DEID_KEY_FILE")


def err(message: str) -> None:
    """Print a status line on stderr (never note text)."""
    typer.echo(message, err=True)


class _Stdout:
    """Context manager around stdout that does not close it."""

    def __enter__(self) -> IO[str]:
        return sys.stdout

    def __exit__(self, *args: object) -> None:
        sys.stdout.flush()


def open_text_out(path: str) -> ContextManager[IO[str]]:
    """Open an output path for text, or stdout for "-"."""
    if path == "-":
        return _Stdout()
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return open(path, "w", encoding="utf8")


def load_pipeline(model: str, mode: str, key_file: Optional[Path]) -> Language:
    """Load a pipeline for de-identification with the given mode and key.

    model (str): A shipped pipeline name, a directory or an installed package.
    mode (str): surrogate, redact or tag.
    key_file (Optional[Path]): Secret key file for surrogates.
    RETURNS (Language): The pipeline, ending with `phi_surrogates`.
    """
    from ..run.runner import SURROGATES, set_surrogate_mode
    from ..surrogates.keys import read_key_file
    from ..surrogates.replacer import EphemeralKeyWarning

    # The CLI says itself when it runs without a key (below).
    warnings.filterwarnings("ignore", category=EphemeralKeyWarning)

    try:
        nlp = load_shipped(model) if model in PIPELINES else spacy.load(model)
    except (OSError, ValueError) as error:
        err(f"Could not load the pipeline '{model}': {type(error).__name__}: {error}")
        raise typer.Exit(EXIT_FATAL) from None
    try:
        set_surrogate_mode(nlp, mode)
    except ValueError as error:
        err(f"Unusable pipeline '{model}': {error}")
        raise typer.Exit(EXIT_FATAL) from None
    component = nlp.get_pipe(SURROGATES)
    if key_file is not None:
        try:
            component.set_key(read_key_file(key_file))
        except (OSError, ValueError) as error:
            err(f"Could not use the key file: {error}")
            raise typer.Exit(EXIT_FATAL) from None
    elif mode == "surrogate" and not any(os.environ.get(v) for v in KEY_ENV_VARS):
        err(
            "No --key-file given: surrogates use a random key for this run only, "
            "so they are not consistent with other runs."
        )
    return nlp

"""Helpers shared by the CLI commands."""

import os
import warnings
from pathlib import Path
from typing import Optional

import typer
from spacy.language import Language

from ..run.pipeline import KEY, LOAD, PipelineError, open_pipeline
from ..surrogates.replacer import EphemeralKeyWarning

EXIT_FATAL = 1
EXIT_REJECTED = 3
KEY_ENV_VARS = ("SPACY_DEID_KEY", "SPACY_DEID_KEY_FILE")


def err(message: str) -> None:
    """Print a status line on stderr (never note text)."""
    typer.echo(message, err=True)


def load_pipeline(
    model: str,
    mode: str,
    key_file: Optional[Path],
    max_length: Optional[int] = None,
) -> Language:
    """`run.pipeline.open_pipeline`, with its errors on stderr (exit 1) and a
    note when surrogates use a random key.

    model (str): A shipped pipeline name, a directory or an installed package.
    mode (str): surrogate, redact or tag.
    key_file (Optional[Path]): Secret key file for surrogates.
    max_length (Optional[int]): Set `nlp.max_length` (the longest note).
    RETURNS (Language): The pipeline, ending with `phi_surrogates`.
    """
    # The CLI says itself when it runs without a key (below).
    warnings.filterwarnings("ignore", category=EphemeralKeyWarning)
    try:
        nlp = open_pipeline(model, mode, key_file=key_file, max_length=max_length)
    except PipelineError as error:
        cause = error.error
        if error.step == LOAD:
            err(
                f"Could not load the pipeline '{model}': "
                f"{type(cause).__name__}: {cause}"
            )
        elif error.step == KEY:
            err(f"Could not use the key file: {cause}")
        else:
            err(f"Unusable pipeline '{model}': {cause}")
        raise typer.Exit(EXIT_FATAL) from None
    if key_file is None and mode == "surrogate":
        if not any(os.environ.get(v) for v in KEY_ENV_VARS):
            err(
                "No --key-file given: surrogates use a random key for this run "
                "only, so they are not consistent with other runs."
            )
    return nlp

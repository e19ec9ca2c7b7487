"""`spacy-deid keygen KEY_FILE`: write a new random secret key."""

import os
from pathlib import Path

import typer

from ._app import app
from .common import EXIT_FATAL, err


@app.command("keygen")
def keygen_cli(
    key_file: Path = typer.Argument(
        ..., help="Where to write the key (must not exist)"
    ),
) -> None:
    """Write a random 32-byte key (hex) readable only by you. Keep it secret and
    keep it: the same key gives the same surrogates across runs."""
    from ..surrogates.keys import generate_key

    if key_file.exists():
        err(f"{key_file} exists; not overwriting a key.")
        raise typer.Exit(EXIT_FATAL)
    key_file.parent.mkdir(parents=True, exist_ok=True)
    fd = os.open(key_file, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "w") as stream:
        stream.write(generate_key().hex() + "\n")
    err(f"Wrote a new key to {key_file}.")

"""`spacy-deid vectors CORPUS OUT_DIR --lang es`: train floret vectors on the
texts of a corpus (unlabelled use) for `phi_ner`'s static vector features."""

import time
from pathlib import Path
from typing import Optional

import typer

from ._app import app


@app.command("vectors")
def vectors_cli(
    corpus: Path = typer.Argument(..., help="Corpus (any format) whose texts to use."),
    output: Path = typer.Argument(..., help="Output directory (a blank pipeline)."),
    lang: str = typer.Option("en", "--lang", help="Language code (tokenizer)."),
    format: Optional[str] = typer.Option(None, "--format", help="Corpus format."),
    dim: int = typer.Option(100, "--dim", help="Vector width."),
    bucket: int = typer.Option(20000, "--bucket", help="Rows of the hash table."),
    minn: int = typer.Option(3, "--minn", help="Shortest subword."),
    maxn: int = typer.Option(6, "--maxn", help="Longest subword."),
    epoch: int = typer.Option(10, "--epoch", help="Training epochs."),
    thread: int = typer.Option(1, "--thread", help="Threads (1 is deterministic)."),
) -> None:
    """Train floret subword vectors on a corpus's texts and save them as a
    blank spaCy pipeline, for the `vectors` setting of a training config's
    initialize block."""
    from ..corpus.vectors import FloretSettings, train_vectors

    settings = FloretSettings(
        dim=dim, bucket=bucket, minn=minn, maxn=maxn, epoch=epoch, thread=thread
    )
    start = time.perf_counter()
    try:
        n_tokens = train_vectors(corpus, output, lang, settings, format=format)
    except (ImportError, ValueError) as err:
        typer.echo(str(err), err=True)
        raise typer.Exit(1) from None
    elapsed = time.perf_counter() - start
    typer.echo(
        f"Trained {bucket}x{dim} floret vectors on {n_tokens} tokens "
        f"in {elapsed:.1f}s: {output}",
        err=True,
    )

"""`spacy-deid synth N OUT.jsonl --seed S`: write synthetic annotated notes."""

import json
import sys
import time
from pathlib import Path

import typer

from ._app import app


@app.command("synth")
def synth_cli(
    n: int = typer.Argument(..., help="Number of notes to generate."),
    output: Path = typer.Argument(..., help="Output JSONL path."),
    seed: int = typer.Option(0, "--seed", "-s", help="Random seed."),
    split: str = typer.Option(
        "all",
        "--split",
        help="train, dev (withheld kinds and families), test (held out: families "
        "neither train nor dev use; PHI values of the three splits are disjoint) "
        "or all.",
    ),
    stats: bool = typer.Option(False, "--stats", help="Print stats to stderr."),
    no_noise: bool = typer.Option(False, "--no-noise", help="Disable noise."),
    templates: bool = typer.Option(
        False, "--templates", help="Print template families per kind to stderr."
    ),
    crlf_rate: float = typer.Option(
        None,
        "--crlf-rate",
        help="Share of notes with CRLF line endings (default 0.15; 0 for none).",
    ),
    everyday_rate: float = typer.Option(
        0.0,
        "--everyday-rate",
        help="Share of notes that gain a paragraph of everyday English without "
        "PHI (negatives; the notes are otherwise the same). Default 0.",
    ),
) -> None:
    """Generate N synthetic clinical notes with gold PHI spans."""
    from ..synth import (
        CRLF_RATE,
        SPLITS,
        corpus_stats,
        generate,
        template_stats,
        write_jsonl,
    )

    if split not in SPLITS:
        raise typer.BadParameter(f"--split must be one of {', '.join(SPLITS)}")
    start = time.perf_counter()
    if crlf_rate is not None and not 0.0 <= crlf_rate <= 1.0:
        raise typer.BadParameter("--crlf-rate must be between 0 and 1")
    if not 0.0 <= everyday_rate <= 1.0:
        raise typer.BadParameter("--everyday-rate must be between 0 and 1")
    rate = CRLF_RATE if crlf_rate is None else crlf_rate
    notes = list(
        generate(
            n,
            seed=seed,
            split=split,
            noise=not no_noise,
            crlf_rate=rate,
            everyday_rate=everyday_rate,
        )
    )
    write_jsonl(notes, str(output))
    elapsed = time.perf_counter() - start
    typer.echo(f"Wrote {len(notes)} notes to {output} in {elapsed:.1f}s", err=True)
    if stats:
        result = corpus_stats(notes)
        result["seconds"] = round(elapsed, 2)
        sys.stderr.write(json.dumps(result, indent=2) + "\n")
    if templates:
        sys.stderr.write(json.dumps(template_stats(), indent=2) + "\n")

"""`spacy-deid convert`: convert a corpus between JSONL, i2b2, BRAT and `.spacy`."""

import warnings
from pathlib import Path
from typing import Any, Dict, Optional

import typer

from ..corpus.convert import TOKENIZERS, convert
from ..corpus.docbin import MISALIGNED_POLICIES
from ..core.errors import CorpusError
from ..corpus.formats import FORMATS
from ..labels.maps import LABEL_MAP_NAMES
from ._app import app


def _echo_stats(result: Dict[str, Any]) -> None:
    typer.echo(
        f"Converted {result['notes']} notes, {result['spans']} spans "
        f"({result['from']} -> {result['to']})"
    )
    unknown = result.get("unknown_labels") or {}
    if unknown:
        typer.echo(
            f"Unknown labels: {sum(unknown.values())} spans ("
            + ", ".join(f"{label} {n}" for label, n in unknown.items())
            + ")"
        )
    stats = result.get("alignment")
    if not stats:
        return
    typer.echo(
        f"Alignment ({stats['policy']}): {stats['aligned']} aligned, "
        f"{stats['misaligned']} misaligned in {len(stats['misaligned_notes'])} "
        f"notes ({stats['expanded']} expanded, {stats['contracted']} contracted, "
        f"{stats['dropped']} dropped, {stats['missing']} set missing); "
        f"{stats['overlapping']} overlapping spans removed"
    )
    typer.echo(f"{'label':<34}{'spans':>8}{'misaligned':>12}{'overlapping':>13}")
    for label, counts in sorted(stats["per_label"].items()):
        typer.echo(
            f"{label:<34}{counts['spans']:>8}{counts['misaligned']:>12}"
            f"{counts['overlapping']:>13}"
        )


@app.command("convert")
def convert_cli(
    input_path: Path = typer.Argument(
        ..., help="Input corpus: .jsonl, .spacy, i2b2 or BRAT directory"
    ),
    output_path: Path = typer.Argument(
        ..., help="Output: .jsonl, .spacy, or a directory (with --to i2b2/brat)"
    ),
    from_format: Optional[str] = typer.Option(
        None, "--from", help=f"Input format {FORMATS} (default: detect)"
    ),
    to_format: Optional[str] = typer.Option(
        None, "--to", help=f"Output format {FORMATS} (default: from the extension)"
    ),
    label_map: str = typer.Option(
        "none", "--label-map", help=f"Relabel spans: {LABEL_MAP_NAMES}"
    ),
    drop_unmapped: bool = typer.Option(
        False, "--drop-unmapped", help="Drop labels the map does not know"
    ),
    misaligned: str = typer.Option(
        "expand",
        "--misaligned",
        help=f"Spans off token boundaries (.spacy output): {MISALIGNED_POLICIES}",
    ),
    lang: str = typer.Option(
        "en", "--lang", help="Language of the tokenizer for .spacy output"
    ),
    tokenizer: str = typer.Option(
        "clinical",
        "--tokenizer",
        help=f"Tokenizer for .spacy output: {TOKENIZERS} (clinical: ours, "
        "built on the language's rules; default: spaCy's for --lang)",
    ),
    strict_labels: bool = typer.Option(
        False,
        "--strict-labels",
        help="Fail (write nothing) on a label outside the i2b2, MEDDOCAN and "
        "coarse schemes instead of warning",
    ),
    limit: int = typer.Option(
        0, "--limit", help="Convert at most this many notes (0: all)"
    ),
) -> None:
    """Convert a corpus; prints counts only (never note text)."""
    for name, value, allowed in (
        ("--from", from_format, FORMATS),
        ("--to", to_format, FORMATS),
        ("--label-map", label_map, LABEL_MAP_NAMES),
        ("--misaligned", misaligned, MISALIGNED_POLICIES),
        ("--tokenizer", tokenizer, TOKENIZERS),
    ):
        if value is not None and value not in allowed:
            raise typer.BadParameter(f"{name} must be one of {', '.join(allowed)}")
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        try:
            result = convert(
                input_path,
                output_path,
                from_format=from_format,
                to_format=to_format,
                label_map=label_map,
                drop_unmapped=drop_unmapped,
                misaligned=misaligned,
                lang=lang,
                limit=limit,
                tokenizer=tokenizer,
                strict_labels=strict_labels,
            )
        except ImportError as error:
            typer.echo(f"Error: cannot build a pipeline for --lang: {error}", err=True)
            raise typer.Exit(1) from None
        except CorpusError as error:
            for warning in caught:
                typer.echo(f"Warning: {warning.message}", err=True)
            typer.echo(f"Error: {error}", err=True)
            raise typer.Exit(1) from None
    for warning in caught:
        typer.echo(f"Warning: {warning.message}", err=True)
    _echo_stats(result)

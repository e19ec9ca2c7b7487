"""`spacy-deid evaluate`: i2b2 2014-style evaluation of predicted PHI."""

from pathlib import Path
from typing import List, Optional

import srsly
import typer

from ..corpus.errors import CorpusError
from ..corpus.formats import FORMATS, read_notes
from ..corpus.labelmaps import LABEL_MAP_NAMES, get_label_map, map_note
from ..corpus.types import Note
from ..evaluate import (
    approximate_randomization,
    evaluate_notes,
    format_table,
    leak_rate,
    render_html,
)
from ..evaluate.deid import split_deid_output
from ..evaluate.scoring import LEVELS, MEASURES
from ._app import app


def _read(path: Path, fmt: Optional[str], label_map: str, validate: bool) -> List[Note]:
    mapping = get_label_map(label_map)
    return [map_note(n, mapping) for n in read_notes(path, fmt, validate=validate)]


def _check_choice(name: str, value: Optional[str], allowed) -> None:
    if value is not None and value not in allowed:
        raise typer.BadParameter(f"{name} must be one of {', '.join(allowed)}")


@app.command("evaluate")
def evaluate_cli(
    gold_path: Path = typer.Argument(
        ..., help="Gold corpus: .jsonl, .spacy, i2b2 or BRAT directory"
    ),
    pred_path: Path = typer.Argument(
        ..., help="Predictions (any corpus format, or de-identification output JSONL)"
    ),
    json_path: Optional[Path] = typer.Option(
        None, "--json", help="Write the full result as JSON (counts and scores only)"
    ),
    html_path: Optional[Path] = typer.Option(
        None, "--html", help="Write an HTML error review (CONTAINS NOTE TEXT)"
    ),
    labels: str = typer.Option(
        "subcategory", "--labels", help=f"Label level: {LEVELS}"
    ),
    compare: Optional[Path] = typer.Option(
        None, "--compare", help="Second system's predictions for a significance test"
    ),
    shuffles: int = typer.Option(
        9999, "--shuffles", help="Approximate randomization shuffles"
    ),
    seed: int = typer.Option(0, "--seed", help="Random seed for the significance test"),
    measure: str = typer.Option(
        "strict", "--measure", help=f"Measure for the significance test: {MEASURES}"
    ),
    gold_format: Optional[str] = typer.Option(
        None, "--gold-format", help=f"{FORMATS} (default: detect)"
    ),
    pred_format: Optional[str] = typer.Option(
        None, "--pred-format", help=f"{FORMATS} (default: detect)"
    ),
    label_map: str = typer.Option(
        "none",
        "--label-map",
        help=f"Relabel gold and predictions first: {LABEL_MAP_NAMES}",
    ),
    deid_output: bool = typer.Option(
        False,
        "--deid-output",
        help="PRED is de-identification output even if no text changed",
    ),
    only_errors: bool = typer.Option(
        False, "--only-errors", help="HTML: show only notes with errors"
    ),
) -> None:
    """Score predicted PHI against gold, i2b2 2014 style (counts only)."""
    _check_choice("--labels", labels, LEVELS)
    _check_choice("--measure", measure, MEASURES)
    _check_choice("--label-map", label_map, LABEL_MAP_NAMES)
    try:
        gold = _read(gold_path, gold_format, label_map, validate=True)
        pred = _read(pred_path, pred_format, label_map, validate=False)
        pred, deid_texts = split_deid_output(gold, pred, force=deid_output)
        result = evaluate_notes(gold, pred, labels=labels)
        if deid_texts is not None:
            result["leak"] = leak_rate(gold, deid_texts)
        if compare is not None:
            other = _read(compare, pred_format, label_map, validate=False)
            other, _ = split_deid_output(gold, other)
            result["significance"] = approximate_randomization(
                gold, pred, other, n=shuffles, seed=seed, measure=measure, labels=labels
            )
    except CorpusError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(format_table(result), nl=False)
    if json_path is not None:
        json_path.parent.mkdir(parents=True, exist_ok=True)
        srsly.write_json(json_path, result)
        typer.echo(f"Wrote {json_path}")
    if html_path is not None:
        html_path.parent.mkdir(parents=True, exist_ok=True)
        html_path.write_text(
            render_html(gold, pred, only_errors=only_errors, labels=labels),
            encoding="utf-8",
        )
        typer.echo(f"Wrote {html_path} (contains note text)")

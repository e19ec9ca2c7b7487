"""`spacy-deid evaluate`: i2b2 2014-style evaluation of predicted PHI."""

from pathlib import Path
from typing import List, Optional

import srsly
import typer

from ..io.atomic import atomic_path
from ..core.errors import CorpusError
from ..corpus.formats import FORMATS, no_notes_error, read_notes
from ..labels.maps import LABEL_MAP_NAMES, get_label_map, map_note
from ..core.types import Note
from ..evaluate import (
    approximate_randomization,
    evaluate_notes,
    format_table,
    leak_rate,
    render_html,
)
from ..evaluate.deid import split_deid_output
from ..evaluate.scoring import (
    LEVELS,
    MEASURES,
    MISSING_META,
    check_pairing,
    pair_notes,
)
from ._app import app


def _read(path: Path, fmt: Optional[str], label_map: str, validate: bool) -> List[Note]:
    mapping = get_label_map(label_map)
    notes = [map_note(n, mapping) for n in read_notes(path, fmt, validate=validate)]
    if not notes:
        raise CorpusError(no_notes_error(path, fmt))
    return notes


def _check_ids(gold: List[Note], pred: List[Note], gold_path, pred_path) -> None:
    pairs, ids = pair_notes(gold, pred)
    check_pairing(pairs, ids, gold_path, pred_path)


def _check_meta_keys(gold: List[Note], keys: List[str], gold_path: Path) -> None:
    for key in keys:
        if not any(note.meta.get(key) not in (None, "", []) for note in gold):
            raise CorpusError(
                f"No gold note in '{gold_path}' has the meta key '{key}' "
                f"(--by-meta; notes without it are grouped as '{MISSING_META}')"
            )


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
    by_meta: List[str] = typer.Option(
        [],
        "--by-meta",
        help="Also report strict micro P/R/F1 and binary token recall per value "
        "of this gold meta key (e.g. kind, family; repeatable)",
    ),
) -> None:
    """Score predicted PHI against gold, i2b2 2014 style (counts only).

    token and binary_token are the i2b2 2014 script's token measure (the ASCII
    letter and digit runs of each span, typed or not); text_token and
    binary_text_token score every token of the note text, punctuation
    included.
    """
    _check_choice("--labels", labels, LEVELS)
    _check_choice("--measure", measure, MEASURES)
    _check_choice("--label-map", label_map, LABEL_MAP_NAMES)
    try:
        gold = _read(gold_path, gold_format, label_map, validate=True)
        pred = _read(pred_path, pred_format, label_map, validate=False)
        _check_ids(gold, pred, gold_path, pred_path)
        _check_meta_keys(gold, by_meta, gold_path)
        pred, deid_texts = split_deid_output(gold, pred, force=deid_output)
        result = evaluate_notes(gold, pred, labels=labels, by_meta=by_meta or None)
        if deid_texts is not None:
            result["leak"] = leak_rate(gold, deid_texts)
        if compare is not None:
            other = _read(compare, pred_format, label_map, validate=False)
            _check_ids(gold, other, gold_path, compare)
            other, _ = split_deid_output(gold, other)
            result["significance"] = approximate_randomization(
                gold, pred, other, n=shuffles, seed=seed, measure=measure, labels=labels
            )
    except CorpusError as error:
        typer.echo(f"Error: {error}", err=True)
        raise typer.Exit(1) from None
    typer.echo(format_table(result), nl=False)
    if json_path is not None:
        with atomic_path(json_path) as tmp:
            srsly.write_json(tmp, result)
        typer.echo(f"Wrote {json_path}")
    if html_path is not None:
        page = render_html(gold, pred, only_errors=only_errors, labels=labels)
        with atomic_path(html_path) as tmp:
            tmp.write_text(page, encoding="utf-8")
        typer.echo(f"Wrote {html_path} (contains note text)")

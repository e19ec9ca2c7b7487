"""`spacy-deid audit GOLD DEID`: residual-risk report of de-identified output.

Exit codes: 0 no HIPAA PHI string leaked; 1 error (unreadable input, or no
gold note in the output); 2 bad command line; 4 some HIPAA PHI string leaked
(listed by record id). Records rejected or absent are reported, not audited.
"""

import json
import os
from collections import defaultdict
from pathlib import Path
from typing import Any, Dict, Iterator, List, Optional, Set, Tuple

import srsly
import typer

from ..io.atomic import atomic_path
from ..core.errors import CorpusError
from ..corpus.formats import FORMATS, no_notes_error, read_notes
from ..corpus.jsonl import read_jsonl
from ..labels.maps import LABEL_MAP_NAMES, get_label_map, map_note
from ..core.types import Note
from ..evaluate.audit import Replaced, audit, format_audit, group_texts
from ..io.readers import read_rows
from ..io.records import Columns, InputError, Record
from ._app import app
from .common import EXIT_FATAL, err

EXIT_HIPAA_LEAK = 4
SPANS_FILE = "spans.jsonl"
DEID_FORMATS = ("jsonl", "csv", "parquet", "folder")


def read_gold(path: Path, fmt: Optional[str], label_map: str) -> List[Note]:
    """Read and relabel the gold notes; a corpus without notes is an error."""
    mapping = get_label_map(label_map)
    notes = [map_note(n, mapping) for n in read_notes(path, fmt, validate=True)]
    if not notes:
        raise CorpusError(no_notes_error(path, fmt))
    return notes


def _folder_texts(path: Path) -> Iterator[Tuple[str, str]]:
    """(id, text) of a `spacy-deid run` folder output: spans.jsonl + ID.txt."""
    spans = path / SPANS_FILE
    if not spans.is_file():
        raise CorpusError(f"'{path}' is a folder without {SPANS_FILE}")
    with spans.open(encoding="utf8") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            try:
                note_id = str(json.loads(line)["id"])
            except (json.JSONDecodeError, KeyError, TypeError):
                raise CorpusError(f"{SPANS_FILE}, line {lineno}: no id") from None
            text_path = path / f"{note_id}.txt"
            if not text_path.is_file():
                msg = f"{SPANS_FILE}, line {lineno}: no text file for '{note_id}'"
                raise CorpusError(msg)
            yield note_id, text_path.read_text(encoding="utf8")


def deid_format(path: Path, given: Optional[str] = None) -> str:
    """The format of a `spacy-deid run` output: `given`, else a folder with
    spans.jsonl ("folder"), another folder (a Parquet dataset), or the
    file's suffix (.csv, .parquet; anything else is JSONL)."""
    if given is not None:
        return given
    if path.is_dir():
        return "folder" if (path / SPANS_FILE).is_file() else "parquet"
    return {".csv": "csv", ".parquet": "parquet"}.get(path.suffix.lower(), "jsonl")


def _table_texts(path: Path, fmt: str, columns: Columns) -> Iterator[Tuple[str, str]]:
    """(id, text) of a CSV or Parquet output; a row without an id or a text
    is an error naming the row (never its content)."""
    try:
        for row in read_rows(path, fmt, columns):
            item = row.item
            if not isinstance(item, Record) or item.id is None:
                where = f"row {item.line}" if item.line is not None else "a row"
                raise CorpusError(f"'{path.name}', {where}: no id or no text")
            yield item.id, item.text
    except InputError as error:
        raise CorpusError(str(error)) from None


def read_deid(
    path: Path, fmt: Optional[str] = None, columns: Columns = Columns()
) -> dict:
    """De-identified texts per id from `spacy-deid run` output (JSONL, CSV,
    Parquet file or dataset folder, or a text folder); spans are not read
    (they index the original text).

    fmt (Optional[str]): One of DEID_FORMATS; None: `deid_format`.
    columns (Columns): The id and text columns of a CSV or Parquet output.
    """
    if not path.exists():
        raise CorpusError(f"De-identified output does not exist: '{path}'")
    fmt = deid_format(path, fmt)
    if fmt == "folder":
        pairs = _folder_texts(path)
    elif fmt in ("csv", "parquet"):
        pairs = _table_texts(path, fmt, columns)
    else:
        pairs = ((n.id, n.text) for n in read_jsonl(path, validate=False))
    return group_texts(pairs)


def _span_offsets(spans: Any) -> List[Replaced]:
    """The replaced spans of one output record that carry output offsets."""
    keys = ("start", "end", "out_start", "out_end")
    if not isinstance(spans, list):
        return []
    return [
        (span["start"], span["end"], span["out_start"], span["out_end"])
        for span in spans
        if isinstance(span, dict) and all(type(span.get(k)) is int for k in keys)
    ]


def read_replaced(path: Path, fmt: Optional[str] = None) -> Dict[str, List[list]]:
    """The replaced spans with output offsets (`spacy-deid run
    --with-offsets`) per id, one list per output record of the id, from a
    JSONL output or a text folder's spans.jsonl; empty for other formats.
    Call after `read_deid`, which reports malformed lines."""
    fmt = deid_format(path, fmt)
    if fmt not in ("jsonl", "folder"):
        return {}
    lines_path = path / SPANS_FILE if fmt == "folder" else path
    replaced: Dict[str, List[list]] = defaultdict(list)
    with lines_path.open(encoding="utf8") as handle:
        for line in handle:
            if line.strip():
                record = json.loads(line)
                replaced[str(record["id"])].append(_span_offsets(record.get("spans")))
    return dict(replaced)


def read_rejects(path: Optional[Path]) -> Set[str]:
    """Ids in a `spacy-deid run --reject-file` file (records without an id
    cannot be matched and are ignored)."""
    if path is None:
        return set()
    if not path.is_file():
        raise CorpusError(f"Reject file does not exist: '{path}'")
    ids = set()
    for lineno, line in enumerate(path.read_text(encoding="utf8").splitlines(), 1):
        if not line.strip():
            continue
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            raise CorpusError(f"{path.name}, line {lineno}: invalid JSON") from None
        if isinstance(record, dict) and record.get("id") is not None:
            ids.add(str(record["id"]))
    return ids


def write_report(path: Path, result: dict, show_text: bool) -> None:
    """Write the JSON report atomically; a report with PHI is owner-only."""
    with atomic_path(path) as tmp:
        srsly.write_json(tmp, result)
        if show_text:
            os.chmod(tmp, 0o600)


@app.command("audit", epilog="Exit codes: 0 no HIPAA leak, 1 error, 4 HIPAA leak.")
def audit_cli(
    gold_path: Path = typer.Argument(
        ..., help="Original notes with gold spans: .jsonl, .spacy, i2b2 or BRAT"
    ),
    deid_path: Path = typer.Argument(
        ...,
        help=(
            "Output of `spacy-deid run`: JSONL, CSV, Parquet (file or dataset "
            "folder), or its text folder"
        ),
    ),
    deid_format: Optional[str] = typer.Option(
        None,
        "--deid-format",
        help=f"{', '.join(DEID_FORMATS)} (default: from DEID)",
    ),
    id_column: str = typer.Option(
        "id", "--id-column", help="Id column of a CSV or Parquet DEID"
    ),
    text_column: str = typer.Option(
        "text", "--text-column", help="Text column of a CSV or Parquet DEID"
    ),
    json_path: Optional[Path] = typer.Option(
        None, "--json", help="Write the full report as JSON (ids, counts, offsets)"
    ),
    top: int = typer.Option(10, "--top", min=0, help="Records to list for review"),
    label_map: str = typer.Option(
        "none", "--label-map", help=f"Relabel gold first: {LABEL_MAP_NAMES}"
    ),
    gold_format: Optional[str] = typer.Option(
        None, "--gold-format", help=f"{FORMATS} (default: detect)"
    ),
    reject_file: Optional[Path] = typer.Option(
        None,
        "--rejects",
        help="The run's --reject-file, to tell rejected records from absent ones",
    ),
    min_length: int = typer.Option(
        2, "--min-length", min=1, help="Skip gold strings shorter than this"
    ),
    keep_ages: bool = typer.Option(
        True,
        "--keep-ages-under-90/--no-keep-ages-under-90",
        help="The run's phi_surrogates keep_ages_under_90 (default: its "
        "default): ages it keeps are reported as kept, not leaked",
    ),
    show_text: bool = typer.Option(
        False,
        "--show-text",
        help="Put the leaked strings in the --json file (IT THEN CONTAINS PHI); "
        "never printed",
    ),
) -> None:
    """Report which gold PHI strings survive verbatim in de-identified output.

    Per label and HIPAA category: leaked strings, leak rates (all labels and
    HIPAA labels), the records to review first (ids, counts, labels), and
    records rejected, absent or extra. Not leaks: ages the run keeps (as
    phi_surrogates), strings the input note also holds outside every gold
    span, found no more often in the output, and, where DEID has output
    offsets (run --with-offsets), strings found only inside the surrogates of
    other spans (a shifted date that reads as another date of the note). Exit
    code 0: no HIPAA leak; 4: some
    HIPAA PHI string leaked; 1: an input could not be read, or no gold
    note is in DEID.
    """
    if label_map not in LABEL_MAP_NAMES:
        raise typer.BadParameter(f"--label-map must be one of {LABEL_MAP_NAMES}")
    if gold_format is not None and gold_format not in FORMATS:
        raise typer.BadParameter(f"--gold-format must be one of {FORMATS}")
    if show_text and json_path is None:
        raise typer.BadParameter("--show-text needs --json (text is never printed)")
    if deid_format is not None and deid_format not in DEID_FORMATS:
        raise typer.BadParameter(f"--deid-format must be one of {DEID_FORMATS}")
    columns = Columns(id=id_column, text=text_column)
    try:
        gold = read_gold(gold_path, gold_format, label_map)
        deid = read_deid(deid_path, deid_format, columns)
        replaced = read_replaced(deid_path, deid_format)
        rejected = read_rejects(reject_file)
    except (CorpusError, OSError, UnicodeDecodeError) as error:
        err(f"Error: {type(error).__name__}: {_safe(error)}")
        raise typer.Exit(EXIT_FATAL) from None
    result = audit(
        gold,
        deid,
        rejected,
        min_length=min_length,
        show_text=show_text,
        keep_ages_under_90=keep_ages,
        replaced=replaced,
    )
    if result["notes"]["audited"] == 0:
        err(f"Error: no gold note id of '{gold_path}' is in '{deid_path}'")
        raise typer.Exit(EXIT_FATAL)
    typer.echo(format_audit(result, top=top), nl=False)
    if json_path is not None:
        write_report(json_path, result, show_text)
        if show_text:
            err(f"WARNING: {json_path} CONTAINS PHI (leaked strings): protect it")
        typer.echo(f"Wrote {json_path}")
    if result["hipaa_leak"]:
        err("HIPAA PHI leaked: exit code 4")
        raise typer.Exit(EXIT_HIPAA_LEAK)


def _safe(error: Exception) -> str:
    """An error message without note text: our corpus errors name records and
    lines only; others are reduced to their file name and reason."""
    if isinstance(error, CorpusError):
        return str(error)
    if isinstance(error, OSError):
        return f"{error.filename or ''} {error.strerror or ''}".strip()
    return "cannot decode the file as UTF-8"

"""Reading input records for de-identification runs (JSONL streams, text
folders, CSV and Parquet tables; see `tabular.py` for the last two).

Every input item becomes either a `Record` (good) or a `Rejected` (bad), in input
order. A rejection names the record id and/or line number (row number for
tables) and the kind of problem, never the note text.

`read_rows` also returns, per item, the values of the columns the user asked
to keep (`Columns.keep`): every other field or column is dropped, because it
may hold PHI.

A JSONL record may carry `"known_phi": [{"text": ..., "label": ...}, ...]`:
identifiers known from the structured record, marked wherever they occur (see
`spacy_deid.known`). A list of the wrong shape rejects that record only.
"""

import json
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from ..known.items import KnownItem, KnownPhiError, validate_known


@dataclass
class Record:
    """A note to de-identify. `known_phi`: its validated known PHI items (after
    `runner.deidentify_items` resolves inheritance: all the items that apply)."""

    index: int
    id: str
    text: str
    patient: Optional[str] = None
    line: Optional[int] = None
    known_phi: Optional[List[KnownItem]] = None


@dataclass
class Rejected:
    """An input item that could not be de-identified, and why (no text)."""

    index: int
    id: Optional[str]
    error: str
    line: Optional[int] = None

    def to_dict(self) -> Dict[str, Any]:
        return {"id": self.id, "line": self.line, "error": self.error}


Item = Union[Record, Rejected]

FORMATS = ("jsonl", "csv", "parquet", "txt")
SUFFIXES = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}
KNOWN_PHI_FIELD = "known_phi"


class InputError(ValueError):
    """The input as a whole cannot be read (no such column, not a Parquet
    file...). Messages name files and columns, never values."""


@dataclass(frozen=True)
class Columns:
    """Where the fields of a record are in a table (CSV, Parquet) and which
    other fields to keep (JSONL fields too). Every field not named here is
    dropped: it may hold PHI."""

    id: str = "id"
    text: str = "text"
    patient: str = "patient"
    keep: Tuple[str, ...] = ()


@dataclass
class Row:
    """An input item and the values of its kept columns (`Columns.keep`)."""

    item: Item
    kept: Dict[str, Any] = field(default_factory=dict)


def input_format(source: Union[str, Path], given: Optional[str] = None) -> str:
    """The format of an input: `given`, else from the path ("-" is JSONL, a
    folder is a folder of .txt files, unknown suffixes are JSONL).

    source (Union[str, Path]): The input path, or "-" for stdin.
    given (Optional[str]): One of FORMATS, or None to guess.
    RETURNS (str): One of FORMATS.
    """
    if given is not None:
        if given not in FORMATS:
            raise ValueError(f"unknown format '{given}' (use {', '.join(FORMATS)})")
        return given
    if str(source) == "-":
        return "jsonl"
    path = Path(source)
    if path.is_dir():
        return "txt"
    return SUFFIXES.get(path.suffix.lower(), "jsonl")


def _id_of(value: Any) -> Optional[str]:
    """A record id as a string, or None when it is missing or not a scalar."""
    if isinstance(value, bool) or value is None:
        return None
    if isinstance(value, (str, int)):
        return str(value)
    return None


def parse_jsonl_line(line: str, line_no: int, index: int) -> Item:
    """Parse one JSONL line into a Record or a Rejected item.

    line (str): The raw line (without its newline).
    line_no (int): 1-based line number, used as the id when "id" is missing.
    index (int): Position of the item in the input.
    RETURNS (Item): The record, or why it was rejected.
    """
    return _parse_jsonl(line, line_no, index)[0]


def _parse_jsonl(line: str, line_no: int, index: int) -> Tuple[Item, Dict[str, Any]]:
    """`parse_jsonl_line`, and the parsed object ({} unless it is a dict)."""
    try:
        data = json.loads(line)
    except ValueError as err:
        error = f"InvalidJSON: {err.msg} at column {err.colno}"
        return Rejected(index, None, error, line_no), {}
    if not isinstance(data, dict):
        return Rejected(index, None, "InvalidRecord: not a JSON object", line_no), {}
    raw_id = data.get("id", line_no)
    record_id = _id_of(raw_id)
    if record_id is None:
        error = "InvalidRecord: 'id' is not a string or integer"
        return Rejected(index, None, error, line_no), data
    if "text" not in data:
        error = "InvalidRecord: no 'text' field"
        return Rejected(index, record_id, error, line_no), data
    text = data["text"]
    if not isinstance(text, str):
        kind = type(text).__name__
        error = f"InvalidRecord: 'text' is {kind}, not a string"
        return Rejected(index, record_id, error, line_no), data
    patient = data.get("patient")
    if patient is not None and _id_of(patient) is None:
        error = "InvalidRecord: 'patient' is not a string or integer"
        return Rejected(index, record_id, error, line_no), data
    try:
        known = validate_known(data.get(KNOWN_PHI_FIELD)) or None
    except KnownPhiError as error:
        return Rejected(index, record_id, f"InvalidRecord: {error}", line_no), data
    return Record(index, record_id, text, _id_of(patient), line_no, known), data


def read_jsonl_stream(stream: IO[bytes]) -> Iterator[Item]:
    """Read records from a binary JSONL stream, one line at a time.

    Blank lines are skipped. Lines that are not valid UTF-8 are rejected.
    """
    for row in read_jsonl_rows(stream):
        yield row.item


def read_jsonl_rows(stream: IO[bytes], keep: Tuple[str, ...] = ()) -> Iterator[Row]:
    """`read_jsonl_stream` with the values of the kept fields (None where a
    record lacks one)."""
    index = 0
    for line_no, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
        except UnicodeDecodeError as err:
            error = f"InvalidUTF8: byte {err.start}"
            yield Row(Rejected(index, None, error, line_no))
            index += 1
            continue
        if not line.strip():
            continue
        item, data = _parse_jsonl(line.rstrip("\r\n"), line_no, index)
        yield Row(item, {name: data.get(name) for name in keep})
        index += 1


def read_text_dir(path: Path) -> Iterator[Item]:
    """Read every `*.txt` file below a folder (sorted); the id is the relative
    path without the suffix."""
    files = sorted(p for p in path.rglob("*.txt") if p.is_file())
    for index, file in enumerate(files):
        record_id = file.relative_to(path).with_suffix("").as_posix()
        try:
            text = file.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as err:
            yield Rejected(index, record_id, f"InvalidUTF8: byte {err.start}")
            continue
        except OSError as err:
            yield Rejected(index, record_id, f"OSError: {err.strerror}")
            continue
        yield Record(index, record_id, text)


def read_rows(
    source: Union[str, Path], fmt: Optional[str] = None, columns: Columns = Columns()
) -> Iterator[Row]:
    """Read rows (items and their kept values) from any input format.

    source (Union[str, Path]): A file, a folder, or "-" (stdin; JSONL or CSV).
    fmt (Optional[str]): One of FORMATS; None: from the path (`input_format`).
    columns (Columns): Column names (CSV, Parquet) and the fields to keep.
    RETURNS (Iterator[Row]): Rows in input order.
    """
    from . import tables as tabular

    fmt = input_format(source, fmt)
    if fmt == "csv":
        yield from tabular.read_csv_rows(source, columns)
    elif fmt == "parquet":
        yield from tabular.read_parquet_rows(source, columns)
    elif fmt == "txt":
        if str(source) == "-" or not Path(source).is_dir():
            raise InputError("txt input must be a folder of .txt files")
        for item in read_text_dir(Path(source)):
            yield Row(item, {name: None for name in columns.keep})
    elif str(source) == "-":
        yield from read_jsonl_rows(sys.stdin.buffer, columns.keep)
    else:
        with Path(source).open("rb") as stream:
            yield from read_jsonl_rows(stream, columns.keep)


def read_records(source: Union[str, Path]) -> Iterator[Item]:
    """Read records from a JSONL file, a folder of .txt files, or "-" (stdin).

    source (Union[str, Path]): Where to read.
    RETURNS (Iterator[Item]): Records and rejections, in input order.
    """
    if str(source) == "-":
        yield from read_jsonl_stream(sys.stdin.buffer)
        return
    path = Path(source)
    if path.is_dir():
        yield from read_text_dir(path)
        return
    with path.open("rb") as stream:
        yield from read_jsonl_stream(stream)


def iter_records(items: Iterable[Item]) -> Iterator[Record]:
    """Only the good records of a stream of items."""
    for item in items:
        if isinstance(item, Record):
            yield item

"""Input records and their outputs, and the one check that turns raw fields
into a record (JSONL streams and text folders are read here; CSV and Parquet
in `tables.py`, Spark rows in `spark/partition.py`, all through
`make_item`; `readers.read_rows` reads any of them).

Every input item becomes either a `Record` (good) or a `Rejected` (bad), in input
order. A rejection names the record id and/or line number (row number for
tables) and the kind of problem, never the note text. A processed record
becomes a `Result`.

`read_jsonl_rows` also returns, per item, the values of the fields the user
asked to keep (`Columns.keep`): every other field is dropped, because it may
hold PHI.

A JSONL record may carry `"known_phi": [{"text": ..., "label": ...}, ...]`:
identifiers known from the structured record, marked wherever they occur (see
`spacy_deid.known`). A list of the wrong shape rejects that record only.
"""

import json
import math
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Dict, Iterator, List, Optional, Tuple, Union

from ..known.items import KnownItem, KnownPhiError, as_id, parse_known, validate_known


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


@dataclass
class Result:
    """The de-identified form of one record."""

    index: int
    id: str
    text: str
    spans: List[Dict[str, Any]] = field(default_factory=list)
    # Set when the record failed and was redacted whole ("redact-all").
    rejected: Optional[Rejected] = None

    @property
    def redacted_all(self) -> bool:
        return self.rejected is not None

    def to_dict(self) -> Dict[str, Any]:
        data: Dict[str, Any] = {"id": self.id, "text": self.text, "spans": self.spans}
        if self.redacted_all:
            data["redacted_all"] = True
        return data


Output = Union[Result, Rejected]

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


# A field that is not there at all (JSONL), as opposed to one that is null.
MISSING: Any = object()
# Lines of a JSONL input looked at to tell a binary or non-JSONL file.
SNIFF_LINES = 20


@dataclass(frozen=True)
class Dialect:
    """How `make_item` reads a source's raw fields.

    table (bool): Table cells (CSV, Parquet): an integral float is an id, a
        blank id is missing, a blank or NaN patient is none, and known PHI may
        be JSON text ("" is none).
    arrow (bool): Arrow rows (Spark): the text may be UTF-8 bytes, errors
        about the id and patient name the value's type, and known PHI may be
        JSON text (an error says where it is broken).
    """

    table: bool = False
    arrow: bool = False

    def kind(self, value: Any) -> str:
        """A value's type for an error message (JSONL calls a null
        "NoneType", as it always has)."""
        if value is None and (self.table or self.arrow):
            return "null"
        return type(value).__name__


JSONL = Dialect()
TABLE = Dialect(table=True)
ARROW = Dialect(arrow=True)


def make_item(
    index: int,
    raw_id: Any,
    text: Any,
    patient: Any = None,
    known: Any = None,
    *,
    line: Optional[int] = None,
    columns: Optional[Columns] = None,
    dialect: Dialect = JSONL,
) -> Item:
    """The one check of an input record: a Record, or why it is rejected
    (the record's id and position, never its text).

    index (int): Position of the item in the input.
    raw_id (Any): The id as read.
    text (Any): The note as read, or MISSING.
    patient (Any): The patient id as read, or None.
    known (Any): The known PHI as read, or None.
    line (Optional[int]): Line or row number, for the rejection.
    columns (Columns): The names of the fields, for error messages.
    dialect (Dialect): How the source's values are read.
    RETURNS (Item): The record, or why it was rejected.
    """
    names = columns if columns is not None else Columns()
    record_id = as_id(raw_id, dialect.table)
    if record_id is None:
        return Rejected(index, None, _id_error(raw_id, names.id, dialect), line)
    if dialect.arrow and isinstance(text, (bytes, bytearray)):
        try:
            text = bytes(text).decode("utf-8-sig")
        except UnicodeDecodeError as error:
            return Rejected(index, record_id, f"InvalidUTF8: byte {error.start}", line)
    if text is MISSING:
        error = f"InvalidRecord: no '{names.text}' field"
        return Rejected(index, record_id, error, line)
    if not isinstance(text, str):
        error = f"InvalidRecord: '{names.text}' is {dialect.kind(text)}, not a string"
        return Rejected(index, record_id, error, line)
    patient_id = as_id(patient, dialect.table)
    if patient_id is None and not _no_patient(patient, dialect):
        error = f"InvalidRecord: '{names.patient}' is {_not_an_id(patient, dialect)}"
        return Rejected(index, record_id, error, line)
    try:
        if dialect.table and known == "":
            known = None
        if dialect.table or dialect.arrow:
            known = parse_known(known, detail=dialect.arrow)
        known_phi = validate_known(known) or None
    except KnownPhiError as error:
        return Rejected(index, record_id, f"InvalidRecord: {error}", line)
    return Record(index, record_id, text, patient_id, line, known_phi)


def _id_error(raw_id: Any, name: str, dialect: Dialect) -> str:
    blank = raw_id is None or (isinstance(raw_id, str) and not raw_id.strip())
    if raw_id is MISSING:
        return f"InvalidRecord: no '{name}' field"
    if dialect.table and blank:
        return f"InvalidRecord: no '{name}'"
    return f"InvalidRecord: '{name}' is {_not_an_id(raw_id, dialect)}"


def _not_an_id(value: Any, dialect: Dialect) -> str:
    if dialect.arrow:
        return f"{dialect.kind(value)}, not a string or integer"
    return "not a string or integer"


def _no_patient(value: Any, dialect: Dialect) -> bool:
    """Whether a patient value means "no patient" (not an error)."""
    if value is None:
        return True
    if dialect.table:
        return value == "" or (isinstance(value, float) and math.isnan(value))
    return False


def parse_jsonl_line(line: str, line_no: int, index: int) -> Item:
    """Parse one JSONL line into a Record or a Rejected item.

    line (str): The raw line (without its newline).
    line_no (int): 1-based line number (a record without an "id" is
        rejected, never given one).
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
    item = make_item(
        index,
        data.get("id", MISSING),
        data.get("text", MISSING),
        data.get("patient"),
        data.get(KNOWN_PHI_FIELD),
        line=line_no,
    )
    return item, data


def read_jsonl_stream(stream: IO[bytes]) -> Iterator[Item]:
    """Read records from a binary JSONL stream, one line at a time.

    Blank lines are skipped. Lines that are not valid UTF-8 are rejected.
    """
    for row in read_jsonl_rows(stream):
        yield row.item


def read_jsonl_rows(stream: IO[bytes], keep: Tuple[str, ...] = ()) -> Iterator[Row]:
    """`read_jsonl_stream` with the values of the kept fields (None where a
    record lacks one). Raises an InputError when the input is plainly not
    JSONL: a NUL byte before its first JSON object, within its first
    `SNIFF_LINES` lines (a binary file), or none of those lines a JSON
    object. Once a line parses, a bad line is only rejected."""
    index = 0
    parsed = 0
    for line_no, raw in enumerate(stream, 1):
        if parsed == 0 and line_no <= SNIFF_LINES:
            _sniff(raw, line_no)
        try:
            line = raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
        except UnicodeDecodeError as err:
            error = f"InvalidUTF8: byte {err.start}"
            yield Row(Rejected(index, None, error, line_no))
            index += 1
            _check_parsed(parsed, line_no)
            continue
        if not line.strip():
            continue
        item, data = _parse_jsonl(line.rstrip("\r\n"), line_no, index)
        parsed += bool(data)
        _check_parsed(parsed, line_no)
        yield Row(item, {name: data.get(name) for name in keep})
        index += 1


def _sniff(raw: bytes, line_no: int) -> None:
    """Stop at a NUL byte near the start: the input is a binary file."""
    if b"\x00" in raw:
        raise InputError(
            f"line {line_no} holds a NUL byte: the input is not a JSONL text file"
        )


def _check_parsed(parsed: int, line_no: int) -> None:
    """Stop when the first `SNIFF_LINES` lines hold no JSON object."""
    if parsed == 0 and line_no >= SNIFF_LINES:
        raise InputError(
            f"none of the first {SNIFF_LINES} lines is a JSON object: "
            "the input is not JSONL"
        )


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

"""Reading input records for de-identification runs (JSONL streams, text folders).

Every input item becomes either a `Record` (good) or a `Rejected` (bad), in input
order. A rejection names the record id and/or line number and the kind of problem,
never the note text.

A JSONL record may carry `"known_phi": [{"text": ..., "label": ...}, ...]`:
identifiers known from the structured record, marked wherever they occur (see
`spacy_deid.known`). A list of the wrong shape rejects that record only.
"""

import json
import sys
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Any, Dict, Iterable, Iterator, List, Optional, Union

from .known.items import KnownItem, KnownPhiError, validate_known


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
    try:
        data = json.loads(line)
    except ValueError as err:
        return Rejected(
            index, None, f"InvalidJSON: {err.msg} at column {err.colno}", line_no
        )
    if not isinstance(data, dict):
        return Rejected(index, None, "InvalidRecord: not a JSON object", line_no)
    raw_id = data.get("id", line_no)
    record_id = _id_of(raw_id)
    if record_id is None:
        return Rejected(
            index, None, "InvalidRecord: 'id' is not a string or integer", line_no
        )
    if "text" not in data:
        return Rejected(index, record_id, "InvalidRecord: no 'text' field", line_no)
    text = data["text"]
    if not isinstance(text, str):
        kind = type(text).__name__
        return Rejected(
            index, record_id, f"InvalidRecord: 'text' is {kind}, not a string", line_no
        )
    patient = data.get("patient")
    if patient is not None and _id_of(patient) is None:
        return Rejected(
            index,
            record_id,
            "InvalidRecord: 'patient' is not a string or integer",
            line_no,
        )
    try:
        known = validate_known(data.get("known_phi")) or None
    except KnownPhiError as error:
        return Rejected(index, record_id, f"InvalidRecord: {error}", line_no)
    return Record(index, record_id, text, _id_of(patient), line_no, known)


def read_jsonl_stream(stream: IO[bytes]) -> Iterator[Item]:
    """Read records from a binary JSONL stream, one line at a time.

    Blank lines are skipped. Lines that are not valid UTF-8 are rejected.
    """
    index = 0
    for line_no, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
        except UnicodeDecodeError as err:
            yield Rejected(index, None, f"InvalidUTF8: byte {err.start}", line_no)
            index += 1
            continue
        if not line.strip():
            continue
        yield parse_jsonl_line(line.rstrip("\r\n"), line_no, index)
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

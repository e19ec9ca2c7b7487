"""Reading CSV and Parquet input one row at a time, in constant memory.

CSV is read with the stdlib `csv` module (header row first; fields may hold
newlines, quotes and CRLF; a UTF-8 BOM is skipped; fields of any length).
Parquet is read with `pyarrow.parquet.ParquetFile(...).iter_batches`, only the
columns needed; a folder is read as a dataset (its `*.parquet` files, sorted).
pyarrow is optional (`pip install "spacy-deid[parquet]"`) and imported only
when Parquet is used.

A bad row (no id, a text that is not a string, a wrong number of fields...)
becomes a `Rejected` naming its row number (1 = the first row after the
header) and its id, never its text.
"""

import csv
import sys
from pathlib import Path
from typing import IO, Any, Dict, Iterator, List, Optional, Sequence, Tuple, Union

from ..known.items import as_id
from .records import TABLE, KNOWN_PHI_FIELD, Columns, InputError, Rejected, Row, make_item

PARQUET_EXTRA = "spacy-deid[parquet]"
# Rows per batch read from a Parquet file.
PARQUET_READ_BATCH = 1024
_CHUNK = 1 << 20


class MissingDependency(ImportError):
    """An optional dependency is not installed."""


def import_parquet() -> Any:
    """`pyarrow.parquet`, or a clear error naming the extra to install."""
    try:
        import pyarrow  # noqa: F401
        import pyarrow.parquet as pq
    except ImportError:
        raise MissingDependency(
            f'Parquet needs pyarrow: pip install "{PARQUET_EXTRA}"'
        ) from None
    return pq


def raise_csv_field_limit() -> None:
    """Let the csv module read fields of any length (long notes)."""
    limit = sys.maxsize
    while True:
        try:
            csv.field_size_limit(limit)
            return
        except OverflowError:
            limit //= 2


def row_to_item(
    values: Dict[str, Any], columns: Columns, row_no: int, index: int
) -> Row:
    """Turn one table row (column name -> value) into a Row.

    values (Dict[str, Any]): The row's values (strings for CSV).
    columns (Columns): The column names and the kept columns.
    row_no (int): 1-based row number (the header is not counted).
    index (int): Position of the item in the input.
    RETURNS (Row): The record or why it was rejected, and the kept values.
    """
    kept = {name: values.get(name) for name in columns.keep}
    item = make_item(
        index,
        values.get(columns.id),
        values.get(columns.text),
        values.get(columns.patient),
        values.get(KNOWN_PHI_FIELD),
        line=row_no,
        columns=columns,
        dialect=TABLE,
    )
    return Row(item, kept)


def check_columns(columns: Columns, available: Sequence[str], where: str) -> List[str]:
    """The columns to read; raise InputError if id, text or a kept one is
    missing. `where` names the file in the message (never values)."""
    for name in (columns.id, columns.text, *columns.keep):
        if name not in available:
            raise InputError(f"{where} has no '{name}' column")
    wanted = [columns.id, columns.text, *columns.keep]
    wanted += [n for n in (columns.patient, KNOWN_PHI_FIELD) if n in available]
    return list(dict.fromkeys(wanted))


class _Lines:
    """Decoded lines of a binary stream for `csv.reader`; notes which lines
    were not UTF-8 and whether the end of the stream was reached."""

    def __init__(self, stream: IO[bytes]) -> None:
        self.stream = stream
        self.bad_utf8 = False
        self.eof = False
        self.offset = 0
        self.first = True

    def __iter__(self) -> Iterator[str]:
        for raw in self.stream:
            self.offset += len(raw)
            encoding = "utf-8-sig" if self.first else "utf-8"
            self.first = False
            try:
                yield raw.decode(encoding)
            except UnicodeDecodeError:
                self.bad_utf8 = True
                yield raw.decode(encoding, errors="replace")
        self.eof = True


def csv_rows(stream: IO[bytes]) -> Iterator[Tuple[Optional[List[str]], str, _Lines]]:
    """Parse a binary CSV stream: (fields or None, error, lines) per record;
    `lines` tells whether the record had bytes that were not UTF-8 and where
    it ended. Empty lines are skipped."""
    raise_csv_field_limit()
    lines = _Lines(stream)
    reader = csv.reader(iter(lines), strict=True)
    while True:
        lines.bad_utf8 = False
        try:
            fields = next(reader)
        except StopIteration:
            return
        except csv.Error as error:
            yield None, f"InvalidCSV: {error}", lines
            continue
        if fields:
            yield fields, "", lines


def _open_binary(source: Union[str, Path]) -> IO[bytes]:
    if str(source) == "-":
        return sys.stdin.buffer
    return Path(source).open("rb")


def read_csv_rows(source: Union[str, Path], columns: Columns) -> Iterator[Row]:
    """Read a CSV file (or "-", stdin) with a header row, one row at a time.

    source (Union[str, Path]): The file.
    columns (Columns): The column names and the kept columns.
    RETURNS (Iterator[Row]): Rows in input order.
    """
    stream = _open_binary(source)
    try:
        rows = csv_rows(stream)
        first = next(rows, None)
        if first is None or first[0] is None:
            raise InputError(f"{_name(source)} has no CSV header row")
        header = first[0]
        if len(set(header)) != len(header):
            raise InputError(f"{_name(source)} has a column name twice in its header")
        check_columns(columns, header, _name(source))
        for index, (fields, error, lines) in enumerate(rows):
            yield _csv_row(header, fields, error, lines.bad_utf8, columns, index)
    finally:
        if stream is not sys.stdin.buffer:
            stream.close()


def _name(source: Union[str, Path]) -> str:
    return "stdin" if str(source) == "-" else f"'{source}'"


def _csv_row(
    header: List[str],
    fields: Optional[List[str]],
    error: str,
    bad_utf8: bool,
    columns: Columns,
    index: int,
) -> Row:
    row_no = index + 1
    if fields is None:
        return Row(Rejected(index, None, error, row_no))
    values = dict(zip(header, fields, strict=False))
    if len(fields) != len(header):
        record_id = as_id(values.get(columns.id), table=True)
        error = f"InvalidRecord: {len(fields)} fields, the header has {len(header)}"
        return Row(Rejected(index, record_id, error, row_no))
    if bad_utf8:
        record_id = as_id(values.get(columns.id), table=True)
        return Row(Rejected(index, record_id, "InvalidUTF8: in this row", row_no))
    return row_to_item(values, columns, row_no, index)


def parquet_files(source: Union[str, Path]) -> List[Path]:
    """A Parquet file, or the `*.parquet` files of a dataset folder (sorted)."""
    path = Path(source)
    if not path.is_dir():
        return [path]
    files = sorted(p for p in path.rglob("*.parquet") if p.is_file())
    if not files:
        raise InputError(f"'{source}' holds no .parquet files")
    return files


def _parquet_file(pq: Any, path: Path) -> Any:
    try:
        return pq.ParquetFile(path)
    except Exception as error:  # noqa: BLE001 - pyarrow raises several kinds
        raise InputError(
            f"'{path}' is not a readable Parquet file ({type(error).__name__})"
        ) from None


def read_parquet_rows(source: Union[str, Path], columns: Columns) -> Iterator[Row]:
    """Read a Parquet file or dataset folder, one batch of rows at a time,
    only the needed columns.

    source (Union[str, Path]): The file or folder.
    columns (Columns): The column names and the kept columns.
    RETURNS (Iterator[Row]): Rows in input order (files in name order).
    """
    if str(source) == "-":
        raise InputError("Parquet cannot be read from stdin")
    pq = import_parquet()
    index = 0
    for path in parquet_files(source):
        parquet = _parquet_file(pq, path)
        wanted = check_columns(columns, parquet.schema_arrow.names, f"'{path}'")
        for batch in parquet.iter_batches(
            batch_size=PARQUET_READ_BATCH, columns=wanted
        ):
            data = {name: batch.column(name).to_pylist() for name in wanted}
            for i in range(batch.num_rows):
                values = {name: data[name][i] for name in wanted}
                yield row_to_item(values, columns, index + 1, index)
                index += 1


def parquet_schema_of(source: Union[str, Path]) -> Any:
    """The Arrow schema of a Parquet input (its first file for a folder)."""
    pq = import_parquet()
    return _parquet_file(pq, parquet_files(source)[0]).schema_arrow


def input_columns(
    source: str, fmt_in: str, columns: Columns, fmt_out: str
) -> Tuple[Optional[List[str]], Dict[str, Any]]:
    """The input's column names (None when not known up front: JSONL) and
    the Arrow types of the kept columns (Parquet to Parquet).

    source (str): The input path, or "-" for stdin.
    fmt_in (str): The input format.
    columns (Columns): The column names and the kept columns.
    fmt_out (str): The output format.
    RETURNS (Tuple[Optional[List[str]], Dict[str, Any]]): Names and types.
    """
    if fmt_in == "txt":
        return [], {}
    if fmt_in == "jsonl" or source == "-":
        return None, {}
    if fmt_in == "csv":
        with open(source, "rb") as stream:
            first = next(csv_rows(stream), None)
        names = (first[0] or []) if first is not None else []
        check_columns(columns, names, f"'{source}'")
        return names, {}
    schema = parquet_schema_of(source)
    check_columns(columns, schema.names, f"'{source}'")
    types = {}
    if fmt_out == "parquet":
        types = {n: schema.field(n).type for n in columns.keep if n in schema.names}
    return list(schema.names), types


def count_rows(source: Union[str, Path], fmt: str) -> Optional[int]:
    """The number of records of an input, for progress (None when unknown):
    Parquet from the file metadata, CSV rows and JSONL lines by reading the
    file once (fast, and run in a background thread by the CLI)."""
    if str(source) == "-":
        return None
    path = Path(source)
    if fmt == "parquet":
        pq = import_parquet()
        return sum(_parquet_file(pq, p).metadata.num_rows for p in parquet_files(path))
    if fmt == "txt":
        return sum(1 for p in path.rglob("*.txt") if p.is_file())
    with path.open("rb") as stream:
        if fmt == "csv":
            return max(sum(1 for _ in csv_rows(stream)) - 1, 0)
        return _count_lines(stream)


def _count_lines(stream: IO[bytes]) -> int:
    """Lines (an estimate of the records: blank lines count too), counted in
    1 MiB chunks."""
    count, last = 0, b"\n"
    while True:
        chunk = stream.read(_CHUNK)
        if not chunk:
            break
        count += chunk.count(b"\n")
        last = chunk[-1:]
    return count + (last != b"\n")

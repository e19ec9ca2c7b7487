"""Writing the results of a de-identification run: JSONL, CSV, Parquet (a
file, or a dataset folder of part files) or a folder of .txt files, and the
reject file. Reading back what an interrupted run wrote (`--resume`) is in
`resume.py`.

Every writer buffers results and writes them whole in `flush()`, under the
caller's `hold()` (signals wait until the write is over): the reject lines of
the batch first, then the output. JSONL and CSV outputs then hold whole
records only, whatever interrupts the run; after `kill -9` the last record
may be cut, and `resume.scan_output` cuts it off before a resumed run appends.
Parquet cannot be appended to: a dataset folder gets part files
`part-00000.parquet`, ... each written as `_part-NNNNN.parquet.tmp` (a name
Parquet readers skip) and renamed once complete; a single `.parquet` file is
written under `NAME.parquet.tmp` and renamed when the run ends.

Output columns (CSV, Parquet): the id column, the patient column (when the
input has one), the text column (the de-identified text), `spans` (JSON in
CSV, list<struct<start, end, label>> in Parquet), `redacted_all` (with
`--on-error redact-all`) and the kept columns. Nothing else of the input is
written: other columns may hold PHI.
"""

import csv
import io
import json
import os
import re
import sys
from contextlib import ExitStack, nullcontext
from dataclasses import dataclass, field
from pathlib import Path
from typing import IO, Any, Callable, ContextManager, Dict, List, Optional, Tuple


from .atomic import tmp_path_for, write_text_atomic
from .records import Rejected, Result
from .tables import import_parquet

SPANS = "spans"
REDACTED_ALL = "redacted_all"
SPANS_FILE = "spans.jsonl"
# A Parquet row group is written once this many rows or characters of text
# are buffered; a dataset part is closed after `rows_per_part` rows.
ROW_GROUP_ROWS = 5000
ROW_GROUP_CHARS = 64_000_000
ROWS_PER_PART = 50_000
PART_PATTERN = re.compile(r"^part-(\d+)\.parquet$")
# (patient, kept values) of a record, for the output row.
Meta = Tuple[Optional[str], Dict[str, Any]]
NO_META: Meta = (None, {})


@dataclass(frozen=True)
class Layout:
    """What an output looks like: its format and columns.

    fmt (str): jsonl, csv, parquet or txt.
    path (str): The file, folder or "-" (stdout, JSONL and CSV only).
    dataset (bool): Parquet only: a folder of part files (resumable).
    id (str): The id column (tables; JSONL always writes "id").
    text (str): The text column (tables; JSONL always writes "text").
    patient (Optional[str]): The patient column (tables), or None for none.
    redacted_all (bool): Write a `redacted_all` column (tables).
    keep (Tuple[str, ...]): Input columns written unchanged.
    keep_types (Dict[str, Any]): Arrow types of the kept columns (Parquet
        input to Parquet output); strings otherwise.
    with_offsets (bool): Spans carry out_start/out_end.
    rows_per_part (int): Rows per Parquet dataset part.
    """

    fmt: str
    path: str
    dataset: bool = False
    id: str = "id"
    text: str = "text"
    patient: Optional[str] = None
    redacted_all: bool = False
    keep: Tuple[str, ...] = ()
    keep_types: Dict[str, Any] = field(default_factory=dict)
    with_offsets: bool = False
    rows_per_part: int = ROWS_PER_PART

    @property
    def columns(self) -> List[str]:
        """The columns of a table output, in order."""
        names = [self.id]
        if self.patient is not None:
            names.append(self.patient)
        names += [self.text, SPANS]
        if self.redacted_all:
            names.append(REDACTED_ALL)
        return names + [k for k in self.keep if k not in names]


def cell(value: Any) -> str:
    """A value as a CSV cell (or a string column): None is empty, lists and
    dicts are JSON, booleans true/false."""
    if value is None:
        return ""
    if isinstance(value, str):
        return value
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (list, dict)):
        return json.dumps(value, ensure_ascii=False, default=str)
    return str(value)


def is_safe_file_id(record_id: str) -> bool:
    """Whether an id can name a .txt file inside the output folder."""
    parts = record_id.split("/")
    return (
        bool(record_id)
        and "\\" not in record_id
        and "\x00" not in record_id
        and all(part not in ("", ".", "..") for part in parts)
    )


class Writer:
    """The base writer: buffers rejections (JSONL reject file) and results,
    writes both in `flush()`. Subclasses buffer and write the results.

    reject_file (Optional[Path]): Where to list rejections.
    append (bool): Append to an existing output (`--resume`).
    hold (Callable): Returns a context manager that defers signals.
    position_key (str): The name of the record position in reject lines
        ("line" for JSONL input, "row" for tables).
    """

    def __init__(
        self,
        stack: ExitStack,
        reject_file: Optional[Path] = None,
        append: bool = False,
        hold: Optional[Callable[[], ContextManager[Any]]] = None,
        position_key: str = "line",
    ) -> None:
        self.hold = hold if hold is not None else nullcontext
        self.append = append
        self.position_key = position_key
        self.written = 0
        self.pending = 0
        self.reject_lines: List[str] = []
        self.reject_stream: Optional[IO[str]] = None
        if reject_file is not None:
            reject_file.parent.mkdir(parents=True, exist_ok=True)
            mode = "a" if append else "w"
            self.reject_stream = stack.enter_context(
                reject_file.open(mode, encoding="utf8")
            )

    def check(self, result: Result) -> Optional[str]:
        """Why a result cannot be written (then it is rejected), or None."""
        return None

    def write(self, result: Result, meta: Meta = NO_META) -> None:
        """Buffer a result (written by `flush`)."""
        self.pending += 1
        self._buffer(result, meta)

    def reject(self, item: Rejected, redacted: bool = False) -> None:
        """Buffer a rejection for the reject file (written by `flush`)."""
        if self.reject_stream is None:
            return
        data: Dict[str, Any] = {"id": item.id, self.position_key: item.line}
        data["error"] = item.error
        if redacted:
            data[REDACTED_ALL] = True
        self.reject_lines.append(json.dumps(data) + "\n")

    def flush(self) -> None:
        """Write the buffered rejections, then the results, whole; signals
        wait until it is done."""
        with self.hold():
            if self.reject_lines and self.reject_stream is not None:
                self.reject_stream.write("".join(self.reject_lines))
                self.reject_stream.flush()
            self.reject_lines = []
            self._write_buffered()
            self.written += self.pending
            self.pending = 0

    def close(self) -> None:
        """Finish the output (Parquet: the last row group and the rename)."""

    def _buffer(self, result: Result, meta: Meta) -> None:
        raise NotImplementedError

    def _write_buffered(self) -> None:
        raise NotImplementedError


def open_text(path: str, append: bool, stack: ExitStack) -> IO[str]:
    """Open an output for text (newlines untranslated); "-" is stdout (not
    closed, flushed when the stack ends)."""
    if path == "-":
        stack.callback(sys.stdout.flush)
        return sys.stdout
    Path(path).parent.mkdir(parents=True, exist_ok=True)
    return stack.enter_context(
        open(path, "a" if append else "w", encoding="utf8", newline="")
    )


class JsonlWriter(Writer):
    """{id, text, spans, redacted_all?, kept fields...} per line."""

    def __init__(self, layout: Layout, stack: ExitStack, **kwargs: Any) -> None:
        super().__init__(stack, **kwargs)
        self.stream = open_text(layout.path, self.append, stack)
        self.lines: List[str] = []

    def _buffer(self, result: Result, meta: Meta) -> None:
        data = result.to_dict()
        data.update({k: v for k, v in meta[1].items() if k not in data})
        self.lines.append(json.dumps(data, ensure_ascii=False, default=str) + "\n")

    def _write_buffered(self) -> None:
        if self.lines:
            self.stream.write("".join(self.lines))
            self.stream.flush()
        self.lines = []


class TextFolderWriter(Writer):
    """One ID.txt per result (each renamed into place whole) and a
    spans.jsonl index of {id, spans, redacted_all?}."""

    def __init__(self, layout: Layout, stack: ExitStack, **kwargs: Any) -> None:
        super().__init__(stack, **kwargs)
        self.folder = Path(layout.path)
        self.folder.mkdir(parents=True, exist_ok=True)
        spans_path = self.folder / SPANS_FILE
        self.stream = open_text(str(spans_path), self.append, stack)
        self.lines: List[str] = []
        self.texts: Dict[Path, str] = {}

    def check(self, result: Result) -> Optional[str]:
        if is_safe_file_id(result.id):
            return None
        return "UnsafeId: the id cannot be used as a file name in the output folder"

    def _buffer(self, result: Result, meta: Meta) -> None:
        self.texts[self.folder / f"{result.id}.txt"] = result.text
        record: Dict[str, Any] = {"id": result.id, SPANS: result.spans}
        if result.redacted_all:
            record[REDACTED_ALL] = True
        self.lines.append(json.dumps(record) + "\n")

    def _write_buffered(self) -> None:
        if self.texts:
            write_text_atomic(self.texts)
        if self.lines:
            self.stream.write("".join(self.lines))
            self.stream.flush()
        self.texts, self.lines = {}, []


def _row(layout: Layout, result: Result, meta: Meta) -> Dict[str, Any]:
    """The output row of a result (tables)."""
    row: Dict[str, Any] = {layout.id: result.id, layout.text: result.text}
    if layout.patient is not None:
        row[layout.patient] = meta[0]
    row[SPANS] = result.spans
    if layout.redacted_all:
        row[REDACTED_ALL] = result.redacted_all
    for name in layout.keep:
        row.setdefault(name, meta[1].get(name))
    return row


class CsvWriter(Writer):
    """A header row, then one row per result (RFC 4180 quoting, CRLF)."""

    def __init__(self, layout: Layout, stack: ExitStack, **kwargs: Any) -> None:
        super().__init__(stack, **kwargs)
        self.layout = layout
        path = Path(layout.path)
        empty = layout.path == "-" or not path.exists() or path.stat().st_size == 0
        self.stream = open_text(layout.path, self.append, stack)
        self.buffer = io.StringIO()
        self.csv = csv.writer(self.buffer)
        if not self.append or empty:
            self.csv.writerow(layout.columns)

    def _buffer(self, result: Result, meta: Meta) -> None:
        row = _row(self.layout, result, meta)
        self.csv.writerow([cell(row[name]) for name in self.layout.columns])

    def _write_buffered(self) -> None:
        data = self.buffer.getvalue()
        if data:
            self.stream.write(data)
            self.stream.flush()
        self.buffer.seek(0)
        self.buffer.truncate()


def parquet_schema(layout: Layout) -> Any:
    """The Arrow schema of a Parquet output."""
    import_parquet()
    import pyarrow as pa

    span_fields = [("start", pa.int64()), ("end", pa.int64()), ("label", pa.string())]
    if layout.with_offsets:
        span_fields += [("out_start", pa.int64()), ("out_end", pa.int64())]
    types = {
        layout.id: pa.string(),
        layout.text: pa.string(),
        SPANS: pa.list_(pa.struct(span_fields)),
        REDACTED_ALL: pa.bool_(),
    }
    if layout.patient is not None:
        types[layout.patient] = pa.string()
    fields = []
    for name in layout.columns:
        kind = types.get(name, layout.keep_types.get(name, pa.string()))
        fields.append(pa.field(name, kind))
    return pa.schema(fields)


class ParquetWriter(Writer):
    """Row groups of up to ROW_GROUP_ROWS rows (or ROW_GROUP_CHARS characters
    of text) in one file (renamed into place by `close`), or in part files of
    a dataset folder (each renamed into place when complete)."""

    def __init__(
        self,
        layout: Layout,
        stack: ExitStack,
        first_part: int = 0,
        **kwargs: Any,
    ) -> None:
        super().__init__(stack, **kwargs)
        self.pq = import_parquet()
        self.layout = layout
        self.schema = parquet_schema(layout)
        self.part = first_part
        self.rows: List[Dict[str, Any]] = []
        self.chars = 0
        self.part_rows = 0
        self.file_writer: Any = None
        self.tmp: Optional[Path] = None
        if layout.dataset:
            Path(layout.path).mkdir(parents=True, exist_ok=True)
        stack.callback(self._abandon)

    def _buffer(self, result: Result, meta: Meta) -> None:
        row = _row(self.layout, result, meta)
        for name in self.layout.keep:
            if name not in self.layout.keep_types and row[name] is not None:
                row[name] = cell(row[name])
        self.rows.append(row)
        self.chars += len(result.text)

    def _write_buffered(self) -> None:
        while self.rows:
            size = ROW_GROUP_ROWS
            if self.layout.dataset:
                size = min(size, self.layout.rows_per_part - self.part_rows)
            if len(self.rows) < size and self.chars < ROW_GROUP_CHARS:
                return
            self._write_group(size)

    def _final_path(self) -> Path:
        if not self.layout.dataset:
            return Path(self.layout.path)
        return Path(self.layout.path) / f"part-{self.part:05d}.parquet"

    def _write_group(self, size: Optional[int] = None) -> None:
        """Write the first `size` buffered rows (all by default) as a row
        group; close the dataset part once it has `rows_per_part` rows."""
        if not self.rows:
            return
        import pyarrow as pa

        if self.file_writer is None:
            final = self._final_path()
            final.parent.mkdir(parents=True, exist_ok=True)
            self.tmp = (
                final.with_name(f"_{final.name}.tmp")
                if self.layout.dataset
                else tmp_path_for(final)
            )
            self.file_writer = self.pq.ParquetWriter(self.tmp, self.schema)
        size = len(self.rows) if size is None else size
        rows, self.rows = self.rows[:size], self.rows[size:]
        table = pa.Table.from_pylist(rows, schema=self.schema)
        self.file_writer.write_table(table, row_group_size=len(rows))
        self.part_rows += len(rows)
        self.chars = sum(len(row[self.layout.text]) for row in self.rows)
        if self.layout.dataset and self.part_rows >= self.layout.rows_per_part:
            self._finish_file()

    def _finish_file(self) -> None:
        if self.file_writer is None:
            return
        self.file_writer.close()
        assert self.tmp is not None
        os.replace(self.tmp, self._final_path())
        self.file_writer, self.tmp = None, None
        self.part += 1
        self.part_rows = 0

    def close(self) -> None:
        """Write the last row group and rename the file into place (a single
        file is written even when it has no rows)."""
        with self.hold():
            while self.rows:
                size = None
                if self.layout.dataset:
                    size = self.layout.rows_per_part - self.part_rows
                self._write_group(size)
            if self.file_writer is None and not self.layout.dataset:
                self.tmp = tmp_path_for(self.layout.path)
                Path(self.layout.path).parent.mkdir(parents=True, exist_ok=True)
                self.file_writer = self.pq.ParquetWriter(self.tmp, self.schema)
            self._finish_file()

    def _abandon(self) -> None:
        """On an error that ends the run: drop the unfinished file."""
        if self.file_writer is not None:
            try:
                self.file_writer.close()
            finally:
                if self.tmp is not None:
                    self.tmp.unlink(missing_ok=True)
                self.file_writer = None


def make_writer(layout: Layout, stack: ExitStack, **kwargs: Any) -> Writer:
    """The writer for an output layout (see `Writer` for the keywords)."""
    if layout.fmt == "jsonl":
        return JsonlWriter(layout, stack, **kwargs)
    if layout.fmt == "csv":
        return CsvWriter(layout, stack, **kwargs)
    if layout.fmt == "txt":
        return TextFolderWriter(layout, stack, **kwargs)
    if layout.fmt == "parquet":
        return ParquetWriter(layout, stack, **kwargs)
    raise ValueError(f"unknown output format '{layout.fmt}'")


def clear_dataset(folder: Path) -> None:
    """Remove the part files of an earlier run from a dataset folder (other
    files are left alone)."""
    if not folder.is_dir():
        return
    for path in folder.iterdir():
        if PART_PATTERN.match(path.name) or (
            path.name.startswith("_part-") and path.name.endswith(".parquet.tmp")
        ):
            path.unlink()

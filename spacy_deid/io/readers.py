"""Reading any input format into rows: JSONL (a file or stdin), a folder of
.txt files, CSV (a file or stdin) or Parquet (a file or dataset folder)."""

import sys
from pathlib import Path
from typing import Iterator, Optional, Union

from .records import Columns, InputError, Row, read_jsonl_rows, read_text_dir
from .tables import read_csv_rows, read_parquet_rows

FORMATS = ("jsonl", "csv", "parquet", "txt")
SUFFIXES = {
    ".jsonl": "jsonl",
    ".ndjson": "jsonl",
    ".csv": "csv",
    ".parquet": "parquet",
    ".pq": "parquet",
}


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


def read_rows(
    source: Union[str, Path], fmt: Optional[str] = None, columns: Columns = Columns()
) -> Iterator[Row]:
    """Read rows (items and their kept values) from any input format.

    source (Union[str, Path]): A file, a folder, or "-" (stdin; JSONL or CSV).
    fmt (Optional[str]): One of FORMATS; None: from the path (`input_format`).
    columns (Columns): Column names (CSV, Parquet) and the fields to keep.
    RETURNS (Iterator[Row]): Rows in input order.
    """
    fmt = input_format(source, fmt)
    if fmt == "csv":
        yield from read_csv_rows(source, columns)
    elif fmt == "parquet":
        yield from read_parquet_rows(source, columns)
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

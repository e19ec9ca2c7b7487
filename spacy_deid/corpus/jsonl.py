"""Our JSONL format: one note per line.

`{"id": str, "text": str, "spans": [{"start", "end", "label"}], "patient"?: str}`.
Extra keys (e.g. MEDDOCAN's "split" or a span's "parent") are ignored; a
"meta" object is kept.
"""

import json
from pathlib import Path
from typing import Iterable, Iterator, Union

from ..io.atomic import atomic_path
from ..core.errors import CorpusError, write_error
from ..core.types import Note
from .validate import validate_note


def read_jsonl(path: Union[str, Path], validate: bool = True) -> Iterator[Note]:
    """Stream the notes of a JSONL file.

    path (Union[str, Path]): The file.
    validate (bool): Check that spans are in range and non-empty.
    YIELDS (Note): One note per non-empty line.
    """
    path = Path(path)
    with path.open("r", encoding="utf-8", newline="") as handle:
        for lineno, line in enumerate(handle, start=1):
            if not line.strip():
                continue
            note = _parse_line(line, path, lineno)
            yield validate_note(note) if validate else note


def _parse_line(line: str, path: Path, lineno: int) -> Note:
    where = f"{path.name}, line {lineno}"
    try:
        record = json.loads(line)
    except json.JSONDecodeError as err:
        raise CorpusError(f"{where}: invalid JSON ({err.msg})") from None
    if not isinstance(record, dict) or "id" not in record:
        raise CorpusError(f"{where}: expected an object with an 'id'")
    if not isinstance(record.get("text"), str):
        raise CorpusError(f"{where} (note '{record['id']}'): missing 'text'")
    try:
        return Note.from_dict(record)
    except (KeyError, TypeError, ValueError) as err:
        msg = f"{where} (note '{record['id']}'): malformed spans ({type(err).__name__})"
        raise CorpusError(msg) from None


def write_jsonl(notes: Iterable[Note], path: Union[str, Path]) -> int:
    """Write notes to a JSONL file (UTF-8, one object per line).

    The file is written to `NAME.tmp` and renamed once every note is written:
    a failure (a note that cannot be serialised, a reader error while the
    notes stream in) leaves no partial output and an older file untouched.

    notes (Iterable[Note]): The notes; consumed lazily.
    path (Union[str, Path]): The output file; parent directories are created.
    RETURNS (int): The number of notes written.
    """
    path = Path(path)
    n = 0
    with atomic_path(path) as tmp:
        with tmp.open("w", encoding="utf-8", newline="\n") as handle:
            for note in notes:
                line = _serialise(note, path, n)
                try:
                    handle.write(line)
                except UnicodeEncodeError as error:
                    raise write_error(note.id, path, error) from None
                n += 1
    return n


def _serialise(note: Note, path: Path, n: int) -> str:
    try:
        return json.dumps(note.to_dict(), ensure_ascii=False) + "\n"
    except (TypeError, ValueError) as error:
        raise CorpusError(
            f"Note '{note.id}' could not be written to '{path.name}': not JSON "
            f"serialisable ({type(error).__name__}; {n} notes written before it)"
        ) from None

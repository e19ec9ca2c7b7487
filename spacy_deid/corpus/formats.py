"""Format detection and format-independent `read_notes` / `write_notes`.

Formats: "jsonl" (a `.jsonl` file), "i2b2" (a directory of `.xml` files, or one
`.xml` file), "brat" (a directory of `.txt` + `.ann`), "spacy" (a `.spacy`
DocBin; writing it needs an nlp, see `docbin.notes_to_docbin`).
"""

import itertools
from pathlib import Path
from typing import Iterable, Iterator, Optional, Union

from .brat import read_brat_dir, write_brat_dir
from .docbin import read_docbin
from ..core.errors import CorpusError
from .i2b2 import read_i2b2_dir, write_i2b2_dir, write_i2b2_file
from .jsonl import read_jsonl, write_jsonl
from ..core.types import Note

FORMATS = ("jsonl", "i2b2", "brat", "spacy")
_EXTENSIONS = {".jsonl": "jsonl", ".spacy": "spacy", ".xml": "i2b2"}
_EXPECTED = {
    "jsonl": "no non-empty line",
    "i2b2": "no *.xml file",
    "brat": "no *.txt file",
    "spacy": "no doc",
}


def detect_format(path: Union[str, Path], for_output: bool = False) -> str:
    """Guess a corpus format from a path.

    path (Union[str, Path]): A file or directory.
    for_output (bool): The path may not exist yet (only extensions count).
    RETURNS (str): One of FORMATS.
    """
    path = Path(path)
    if path.suffix.lower() in _EXTENSIONS:
        return _EXTENSIONS[path.suffix.lower()]
    if not for_output and path.is_dir():
        if any(path.glob("*.xml")):
            return "i2b2"
        if any(path.glob("*.ann")) or any(path.glob("*.txt")):
            return "brat"
    raise CorpusError(
        f"Cannot tell the corpus format of '{path}': use a .jsonl or .spacy "
        "file, or give the format (i2b2 and brat are directories)"
    )


def read_notes(
    path: Union[str, Path], format: Optional[str] = None, validate: bool = True
) -> Iterator[Note]:
    """Stream the notes of a corpus in any supported format.

    path (Union[str, Path]): File or directory.
    format (Optional[str]): One of FORMATS, or None/"auto" to detect.
    validate (bool): Check span offsets (and surface strings where stored).
    YIELDS (Note): The notes.
    """
    path = Path(path)
    if not path.exists():
        raise CorpusError(f"Corpus path does not exist: '{path}'")
    fmt = detect_format(path) if format in (None, "auto") else format
    if fmt == "jsonl":
        return read_jsonl(path, validate=validate)
    if fmt == "i2b2":
        return read_i2b2_dir(path, validate=validate)
    if fmt == "brat":
        return read_brat_dir(path, validate=validate)
    if fmt == "spacy":
        return read_docbin(path)
    raise ValueError(f"Unknown corpus format '{fmt}'. Known: {FORMATS}")


def no_notes_error(path: Union[str, Path], format: Optional[str] = None) -> str:
    """The message for a corpus without notes: names the path and format."""
    fmt = format if format in _EXPECTED else None
    detail = f" (format '{fmt}': {_EXPECTED[fmt]})" if fmt else ""
    return f"No notes found in '{path}'{detail}"


def require_notes(
    notes: Iterable[Note], path: Union[str, Path], format: Optional[str] = None
) -> Iterator[Note]:
    """Check at once that there is a note; raise a CorpusError naming `path`
    if there is none (before anything is written).

    notes (Iterable[Note]): The notes read from `path`.
    path (Union[str, Path]): Where they come from (for the message).
    format (Optional[str]): Their format (for the message).
    RETURNS (Iterator[Note]): The same notes, still streamed.
    """
    iterator = iter(notes)
    first = next(iterator, None)
    if first is None:
        raise CorpusError(no_notes_error(path, format))
    return itertools.chain([first], iterator)


def write_notes(
    notes: Iterable[Note], path: Union[str, Path], format: Optional[str] = None
) -> int:
    """Write notes as JSONL, i2b2 XML or BRAT (for DocBin use `notes_to_docbin`).

    RETURNS (int): The number of notes written.
    """
    fmt = detect_format(path, for_output=True) if format in (None, "auto") else format
    if fmt == "jsonl":
        return write_jsonl(notes, path)
    if fmt == "i2b2" and Path(path).suffix.lower() == ".xml":
        return _write_single_xml(notes, Path(path))
    if fmt == "i2b2":
        return write_i2b2_dir(notes, path)
    if fmt == "brat":
        return write_brat_dir(notes, path)
    raise ValueError(f"write_notes cannot write format '{fmt}'")


def _write_single_xml(notes: Iterable[Note], path: Path) -> int:
    written = 0
    for note in notes:
        if written:
            raise CorpusError(
                f"'{path.name}' is one i2b2 file but there is more than one note; "
                "give a directory instead"
            )
        write_i2b2_file(note, path)
        written += 1
    return written

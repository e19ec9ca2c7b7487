"""BRAT standoff: `<id>.txt` plus `<id>.ann`, a directory is a corpus.

Only text-bound annotations (`T1<TAB>LABEL 10 15<TAB>surface`) are read;
notes (`#`), attributes, relations and events are ignored. A discontinuous
annotation (`LABEL 10 15;20 25`) is **split** into one span per fragment by
default (`discontinuous="split"`), which keeps exact offsets; with
`discontinuous="cover"` it becomes one span from the first start to the last
end (over-redacts the gap). Text files are read and written without newline
translation, so CRLF and a leading byte-order mark are kept (offsets count
them, as BRAT does).
"""

from pathlib import Path
from typing import Iterable, Iterator, List, Optional, Tuple, Union

from ..io.atomic import write_text_atomic
from ..core.errors import CorpusError, write_error
from .i2b2 import safe_file_stem
from ..core.types import Note, PhiSpan
from .validate import check_span, check_surface, patient_from_name

DISCONTINUOUS_POLICIES = ("split", "cover")


def read_brat_note(
    txt_path: Union[str, Path], validate: bool = True, discontinuous: str = "split"
) -> Note:
    """Read one `.txt` file and its `.ann` file (a missing `.ann` means no PHI).

    txt_path (Union[str, Path]): The text file.
    validate (bool): Check offsets and the surface strings.
    discontinuous (str): "split" or "cover" (see module docstring).
    RETURNS (Note): The note, id = file stem.
    """
    if discontinuous not in DISCONTINUOUS_POLICIES:
        raise ValueError(f"discontinuous must be one of {DISCONTINUOUS_POLICIES}")
    txt_path = Path(txt_path)
    note_id = txt_path.stem
    with txt_path.open("r", encoding="utf-8", newline="") as handle:
        text = handle.read()
    note = Note(id=note_id, text=text, patient=patient_from_name(note_id))
    ann_path = txt_path.with_suffix(".ann")
    if ann_path.exists():
        with ann_path.open("r", encoding="utf-8", newline="") as handle:
            lines = [line.rstrip("\r") for line in handle.read().split("\n")]
            _read_ann(note, lines, validate, discontinuous)
    return note


def _read_ann(note: Note, lines: List[str], validate: bool, policy: str) -> None:
    for lineno, line in enumerate(lines, start=1):
        if not line.startswith("T"):
            continue
        fragments, label, surface = _parse_text_bound(line, note.id, lineno)
        spans = _apply_policy(fragments, label, policy)
        for span in spans:
            index = len(note.spans)
            note.spans.append(span)
            if validate:
                check_span(note, index, span)
        if validate and len(spans) == 1 and len(fragments) == 1:
            check_surface(note, len(note.spans) - 1, spans[0], surface)


def _parse_text_bound(
    line: str, note_id: str, lineno: int
) -> Tuple[List[Tuple[int, int]], str, Optional[str]]:
    fields = line.split("\t")
    if len(fields) < 2:
        raise CorpusError(f"Note '{note_id}', .ann line {lineno}: expected tabs")
    label, _, offsets = fields[1].partition(" ")
    try:
        fragments = [
            (int(a), int(b)) for a, b in (frag.split() for frag in offsets.split(";"))
        ]
    except ValueError:
        raise CorpusError(
            f"Note '{note_id}', .ann line {lineno}: malformed offsets"
        ) from None
    surface = fields[2] if len(fields) > 2 else None
    return fragments, label, surface


def _apply_policy(
    fragments: List[Tuple[int, int]], label: str, policy: str
) -> List[PhiSpan]:
    if policy == "cover":
        start = min(a for a, _ in fragments)
        end = max(b for _, b in fragments)
        return [PhiSpan(start, end, label)]
    return [PhiSpan(a, b, label) for a, b in fragments]


def read_brat_dir(
    path: Union[str, Path], validate: bool = True, discontinuous: str = "split"
) -> Iterator[Note]:
    """Stream the notes of a BRAT directory (every `*.txt`, sorted by name).

    YIELDS (Note): One note per text file.
    """
    for txt_path in sorted(Path(path).glob("*.txt")):
        yield read_brat_note(txt_path, validate=validate, discontinuous=discontinuous)


def to_ann(note: Note) -> str:
    """Serialise a note's spans as BRAT `.ann` lines (T1, T2, ... in order).

    Line breaks and tabs inside a surface string are written as spaces (the
    surface column is informational; offsets are authoritative).
    """
    lines = []
    for i, span in enumerate(sorted(note.spans), start=1):
        surface = " ".join(note.text[span.start : span.end].split())
        lines.append(f"T{i}\t{span.label} {span.start} {span.end}\t{surface}\n")
    return "".join(lines)


def write_brat_note(note: Note, directory: Union[str, Path]) -> Path:
    """Write `<id>.txt` and `<id>.ann` into a directory.

    Both are written to `NAME.tmp` files first and renamed when complete,
    the `.ann` before the `.txt` (a `.txt` without `.ann` would read as a
    note without PHI), so a failing note leaves no partial pair.
    RETURNS (Path): The text file written.
    """
    directory = Path(directory)
    stem = safe_file_stem(note.id)
    txt_path = directory / f"{stem}.txt"
    ann_path = directory / f"{stem}.ann"
    try:
        write_text_atomic({ann_path: to_ann(note), txt_path: note.text})
    except (OSError, UnicodeError) as error:
        raise write_error(note.id, txt_path, error) from None
    return txt_path


def write_brat_dir(notes: Iterable[Note], path: Union[str, Path]) -> int:
    """Write notes to a BRAT directory. RETURNS (int): notes written.

    A failing note raises a CorpusError naming it (see `write_brat_note`).
    """
    Path(path).mkdir(parents=True, exist_ok=True)
    n = 0
    for note in notes:
        try:
            write_brat_note(note, path)
        except CorpusError as error:
            raise CorpusError(f"{error} ({n} notes written before it)") from None
        n += 1
    return n

"""Span validation shared by every reader."""

from typing import Optional

from ..core.errors import CorpusError
from ..core.types import Note, PhiSpan


def check_span(note: Note, index: int, span: PhiSpan) -> None:
    """Raise a CorpusError if a span is out of range, empty or unlabelled.

    note (Note): The note the span belongs to.
    index (int): Position of the span in the note, for the message.
    span (PhiSpan): The span to check.
    """
    where = f"Note '{note.id}', span {index} ({span.start}-{span.end})"
    if not isinstance(span.start, int) or not isinstance(span.end, int):
        raise CorpusError(f"{where}: offsets must be integers")
    if span.start < 0 or span.end > len(note.text):
        raise CorpusError(
            f"{where}: offsets out of range for a text of {len(note.text)} chars"
        )
    if span.start >= span.end:
        raise CorpusError(f"{where}: start must be smaller than end")
    if not span.label or not isinstance(span.label, str):
        raise CorpusError(f"{where}: missing label")


def check_surface(note: Note, index: int, span: PhiSpan, surface: Optional[str]):
    """Raise a CorpusError if a span's recorded surface string does not match.

    Whitespace is compared loosely (XML attribute normalisation turns line
    breaks into spaces; BRAT writes fragments joined by a space).

    surface (Optional[str]): The `text` attribute stored with the span, if any.
    """
    if surface is None:
        return
    if note.text[span.start : span.end].split() != surface.split():
        raise CorpusError(
            f"Note '{note.id}', span {index} ({span.start}-{span.end}, "
            f"{span.label}): the stored text attribute does not match the note "
            "text at these offsets"
        )


def validate_note(note: Note) -> Note:
    """Check every span of a note (see `check_span`) and return the note.

    note (Note): The note to check.
    RETURNS (Note): The same note.
    """
    if not isinstance(note.text, str):
        raise CorpusError(f"Note '{note.id}': text must be a string")
    for i, span in enumerate(note.spans):
        check_span(note, i, span)
    return note


def patient_from_name(stem: str) -> Optional[str]:
    """Patient id from an i2b2-style file stem `<patient>-<record>`, else None.

    stem (str): File name without extension, e.g. "110-01".
    RETURNS (Optional[str]): The patient part, e.g. "110".
    """
    head, sep, tail = stem.partition("-")
    if sep and head.isdigit() and tail[:1].isdigit():
        return head
    return None

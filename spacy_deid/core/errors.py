"""Errors and warnings raised by the corpus readers, writers and converters.

Messages name the note id, span index, offsets and label, never the note text
or the PHI itself.
"""

from pathlib import Path
from typing import Union


class CorpusError(ValueError):
    """A corpus file or note is malformed (bad offsets, bad markup, ...)."""


class MisalignedSpanWarning(UserWarning):
    """Gold spans do not line up with token boundaries."""


class OverlappingSpanWarning(UserWarning):
    """Gold spans overlap and some of them had to be removed."""


class UnknownLabelWarning(UserWarning):
    """Spans carry labels outside every known scheme (names the labels)."""


def write_error(note_id: str, path: Union[str, Path], error: Exception) -> CorpusError:
    """A CorpusError for a note that could not be written, without its text.

    note_id (str): The note.
    path (Union[str, Path]): The file that was being written.
    error (Exception): An OSError or a UnicodeError.
    RETURNS (CorpusError): Names the note, the file and the reason.
    """
    if isinstance(error, UnicodeEncodeError):
        char = error.object[error.start : error.start + 1]
        code = f"U+{ord(char):04X}" if char else "a character"
        reason = f"character {code} cannot be encoded as UTF-8"
    elif isinstance(error, OSError):
        reason = error.strerror or type(error).__name__
    else:
        reason = type(error).__name__
    return CorpusError(
        f"Note '{note_id}' could not be written to '{Path(path).name}': {reason}"
    )

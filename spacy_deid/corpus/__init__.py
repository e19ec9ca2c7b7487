"""Corpus I/O: JSONL, i2b2 2014 XML, BRAT, DocBin; label maps; the reader."""

from .brat import read_brat_dir, read_brat_note, write_brat_dir
from .convert import TOKENIZERS, convert, make_converter_nlp
from .docbin import (
    MISALIGNED_POLICIES,
    ConversionStats,
    doc_to_note,
    note_to_doc,
    notes_to_docbin,
    read_docbin,
    write_docbin,
)
from ..core.errors import (
    CorpusError,
    MisalignedSpanWarning,
    OverlappingSpanWarning,
    UnknownLabelWarning,
)
from .formats import FORMATS, detect_format, read_notes, require_notes, write_notes
from .i2b2 import read_i2b2_dir, read_i2b2_file, write_i2b2_dir, write_i2b2_file
from .jsonl import read_jsonl, write_jsonl
from ..labels.maps import LABEL_MAP_NAMES, get_label_map, map_note
from .reader import PhiCorpus, create_phi_corpus
from ..core.types import Note, PhiSpan

__all__ = [
    "Note", "PhiSpan", "CorpusError", "MisalignedSpanWarning",
    "OverlappingSpanWarning", "UnknownLabelWarning", "TOKENIZERS", "FORMATS", "MISALIGNED_POLICIES", "LABEL_MAP_NAMES",
    "ConversionStats", "PhiCorpus", "convert", "create_phi_corpus",
    "detect_format", "doc_to_note", "get_label_map", "make_converter_nlp",
    "map_note", "note_to_doc", "notes_to_docbin", "read_brat_dir",
    "read_brat_note", "read_docbin", "read_i2b2_dir", "read_i2b2_file",
    "read_jsonl", "read_notes", "require_notes", "write_brat_dir",
    "write_docbin", "write_i2b2_dir",
    "write_i2b2_file", "write_jsonl", "write_notes",
]  # fmt: skip

"""Convert a corpus between JSONL, i2b2 XML, BRAT and DocBin (`.spacy`)."""

from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Optional, Union

import spacy
from spacy.language import Language

from .docbin import notes_to_docbin
from .formats import detect_format, read_notes, write_notes
from .labelmaps import LabelMap, get_label_map, map_note
from .types import Note

CLINICAL_TOKENIZER = "spacy_deid.ClinicalTokenizer.v1"


def make_converter_nlp(lang: str = "en") -> Language:
    """The blank pipeline used to tokenize `.spacy` output.

    English uses the clinical tokenizer (`spacy_deid.ClinicalTokenizer.v1`),
    other languages spaCy's default tokenizer for `lang`.
    """
    if lang == "en":
        config = {"nlp": {"tokenizer": {"@tokenizers": CLINICAL_TOKENIZER}}}
        return spacy.blank(lang, config=config)
    return spacy.blank(lang)


def convert(
    input: Union[str, Path],
    output: Union[str, Path],
    from_format: Optional[str] = None,
    to_format: Optional[str] = None,
    label_map: Optional[Union[str, LabelMap]] = None,
    drop_unmapped: bool = False,
    misaligned: str = "expand",
    lang: str = "en",
    nlp: Optional[Language] = None,
    limit: int = 0,
) -> Dict[str, Any]:
    """Read a corpus, optionally relabel it, and write it in another format.

    input (Union[str, Path]): Source file or directory.
    output (Union[str, Path]): Target file or directory.
    from_format (Optional[str]): "jsonl", "i2b2", "brat", "spacy" or None (detect).
    to_format (Optional[str]): Same choices; None detects from the extension.
    label_map: Name ("category", "hipaa", "meddocan2i2b2", "coarse", ...), map
        or None.
    drop_unmapped (bool): Drop labels a dict map does not mention.
    misaligned (str): Policy for spans off token boundaries (`.spacy` output).
    lang (str): Language of the blank pipeline for `.spacy` output.
    nlp (Optional[Language]): Pipeline whose tokenizer to use instead.
    limit (int): Convert at most this many notes (0: all).
    RETURNS (Dict[str, Any]): Counts only: notes, spans, and for `.spacy`
        output the alignment statistics.
    """
    src_fmt = from_format or detect_format(input)
    dst_fmt = to_format or detect_format(output, for_output=True)
    mapping = get_label_map(label_map)
    counter: Dict[str, int] = {"notes": 0, "spans": 0}
    notes = _counted(
        _mapped(read_notes(input, src_fmt), mapping, drop_unmapped, limit), counter
    )
    result: Dict[str, Any] = {"from": src_fmt, "to": dst_fmt}
    if dst_fmt == "spacy":
        nlp = nlp if nlp is not None else make_converter_nlp(lang)
        docbin, stats = notes_to_docbin(notes, nlp, misaligned=misaligned)
        Path(output).parent.mkdir(parents=True, exist_ok=True)
        docbin.to_disk(output)
        result["alignment"] = stats.to_dict()
    else:
        write_notes(notes, output, dst_fmt)
    result.update(counter)
    return result


def _mapped(
    notes: Iterable[Note], mapping: Optional[LabelMap], drop: bool, limit: int
) -> Iterator[Note]:
    for i, note in enumerate(notes):
        if limit and i >= limit:
            return
        yield map_note(note, mapping, drop_unmapped=drop)


def _counted(notes: Iterable[Note], counter: Dict[str, int]) -> Iterator[Note]:
    for note in notes:
        counter["notes"] += 1
        counter["spans"] += len(note.spans)
        yield note

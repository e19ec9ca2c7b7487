"""Convert a corpus between JSONL, i2b2 XML, BRAT and DocBin (`.spacy`).

Every output is written atomically (`NAME.tmp`, then renamed; see
`atomic.py`). An input without notes is an error (naming the path), and
labels outside every known scheme (i2b2, MEDDOCAN, coarse; see
`labels.maps.is_known_label`) are counted and warned about by name, or, with
`strict_labels`, rejected.
"""

import itertools
import warnings
from collections import Counter
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, Optional, Set, Union

import spacy
from spacy.language import Language

from .docbin import notes_to_docbin, write_docbin
from ..core.errors import CorpusError, UnknownLabelWarning
from .formats import detect_format, read_notes, require_notes, write_notes
from ..labels.maps import LabelMap, get_label_map, is_known_label, map_note
from ..core.types import Note

CLINICAL_TOKENIZER = "spacy_deid.ClinicalTokenizer.v1"
TOKENIZERS = ("clinical", "default")


def make_converter_nlp(lang: str = "en", tokenizer: str = "clinical") -> Language:
    """The blank pipeline used to tokenize `.spacy` output.

    lang (str): Any spaCy language code ("en", "es", "fr", "xx", ...).
    tokenizer (str): "clinical" (the default): our clinical tokenizer
        (`spacy_deid.ClinicalTokenizer.v1`) built on the language's own rules,
        for every language; "default": spaCy's default tokenizer for `lang`.
    RETURNS (Language): A blank pipeline.
    """
    if tokenizer not in TOKENIZERS:
        raise ValueError(f"tokenizer must be one of {TOKENIZERS}, not '{tokenizer}'")
    if tokenizer == "clinical":
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
    tokenizer: str = "clinical",
    strict_labels: bool = False,
) -> Dict[str, Any]:
    """Read a corpus, optionally relabel it, and write it in another format.

    input (Union[str, Path]): Source file or directory.
    output (Union[str, Path]): Target file or directory.
    from_format (Optional[str]): "jsonl", "i2b2", "brat", "spacy" or None (detect).
    to_format (Optional[str]): Same choices; None detects from the extension.
    label_map: Name ("category", "hipaa", "meddocan2i2b2", "coarse", ...), map
        or None.
    drop_unmapped (bool): Drop labels a dict map does not mention (see
        `labels.apply`).
    misaligned (str): Policy for spans off token boundaries (`.spacy` output).
    lang (str): Language of the blank pipeline for `.spacy` output.
    nlp (Optional[Language]): Pipeline whose tokenizer to use instead.
    limit (int): Convert at most this many notes (0: all).
    tokenizer (str): "clinical" (default, any language) or "default" (spaCy's
        tokenizer for `lang`); ignored when `nlp` is given.
    strict_labels (bool): Raise a CorpusError (and write nothing) at the first
        span whose label (after mapping) is in no known scheme, instead of
        counting and warning. Labels that a dict `label_map` maps to count
        as known.
    RETURNS (Dict[str, Any]): Counts only: notes, spans, unknown_labels
        (label -> spans), and for `.spacy` output the alignment statistics.
    """
    src_fmt = from_format or detect_format(input)
    dst_fmt = to_format or detect_format(output, for_output=True)
    mapping = get_label_map(label_map)
    if dst_fmt == "spacy" and nlp is None:
        nlp = make_converter_nlp(lang, tokenizer)
    extra_known: Set[str] = set()
    if isinstance(mapping, dict):
        extra_known = {v for v in mapping.values() if isinstance(v, str)}
    counter: Dict[str, int] = {"notes": 0, "spans": 0}
    unknown: Counter = Counter()
    mapped = _mapped(read_notes(input, src_fmt), mapping, drop_unmapped, limit)
    notes = _checked(
        _counted(require_notes(mapped, input, src_fmt), counter),
        unknown,
        extra_known,
        strict_labels,
    )
    result: Dict[str, Any] = {"from": src_fmt, "to": dst_fmt}
    if dst_fmt == "spacy":
        docbin, stats = notes_to_docbin(notes, nlp, misaligned=misaligned)
        write_docbin(docbin, output)
        result["alignment"] = stats.to_dict()
    else:
        write_notes(notes, output, dst_fmt)
    result.update(counter)
    result["unknown_labels"] = dict(sorted(unknown.items()))
    if unknown:
        warn_unknown_labels(unknown)
    return result


def warn_unknown_labels(unknown: Dict[str, int]) -> None:
    """Warn about labels outside every known scheme, by name and count."""
    total = sum(unknown.values())
    names = ", ".join(f"{label} ({n})" for label, n in sorted(unknown.items()))
    warnings.warn(
        f"{total} spans have labels outside the known schemes (i2b2, MEDDOCAN, "
        f"coarse): {names}. Map them with --label-map, or use --strict-labels "
        "to fail",
        UnknownLabelWarning,
        stacklevel=3,
    )


def _mapped(
    notes: Iterable[Note], mapping: Optional[LabelMap], drop: bool, limit: int
) -> Iterator[Note]:
    for note in itertools.islice(notes, limit if limit > 0 else None):
        yield map_note(note, mapping, drop_unmapped=drop)


def _counted(notes: Iterable[Note], counter: Dict[str, int]) -> Iterator[Note]:
    for note in notes:
        counter["notes"] += 1
        counter["spans"] += len(note.spans)
        yield note


def _checked(
    notes: Iterable[Note], unknown: Counter, extra_known: Set[str], strict: bool
) -> Iterator[Note]:
    for note in notes:
        for index, span in enumerate(note.spans):
            if span.label in extra_known or is_known_label(span.label):
                continue
            if strict:
                raise CorpusError(
                    f"Note '{note.id}', span {index} ({span.start}-{span.end}): "
                    f"unknown label '{span.label}' (strict labels); map it with "
                    "a label map or leave out --strict-labels"
                )
            unknown[span.label] += 1
        yield note

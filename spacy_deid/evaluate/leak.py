"""Leak measure: how much gold PHI survives verbatim in de-identified text.

For every gold span of a note, its surface string is searched in the
de-identified output of the same note. Decisions:
- the match is case-sensitive and must not sit inside a longer word
  (`(?<!\\w)STRING(?!\\w)`), so "Ana" does not leak through "Anatomy";
- strings shorter than `min_length` (default 2) characters after stripping
  whitespace are skipped and counted in `skipped` (single letters and digits
  occur everywhere);
- there is no stop-word list: a surviving common word (a month name, "Madrid"
  in an unrelated sentence) counts as a leak, so the rate is an upper bound;
- every gold span counts once, repeated strings included.
Notes without de-identified output are listed in `notes_missing` and not
counted.
"""

import bisect
import itertools
import re
from collections import defaultdict
from typing import Any, Dict, Iterable, Iterator, Mapping, Sequence, Union

from ..core.types import Note, PhiSpan
from ..labels import normalize_label

DeidTexts = Union[Mapping[str, str], Iterable[Note]]


def _texts_by_id(deid_texts: DeidTexts) -> Dict[str, str]:
    if isinstance(deid_texts, Mapping):
        return dict(deid_texts)
    return {note.id: note.text for note in deid_texts}


def _rate(leaked: int, total: int) -> Dict[str, Any]:
    return {"leaked": leaked, "total": total, "rate": leaked / total if total else 0.0}


def _word_pattern(surface: str) -> "re.Pattern[str]":
    return re.compile(r"(?<!\w)" + re.escape(surface) + r"(?!\w)")


def leaks_in(surface: str, output: str) -> bool:
    """Whether `surface` occurs in `output` as a whole word sequence."""
    return _word_pattern(surface).search(output) is not None


def find_words(surface: str, text: str) -> Iterator["re.Match[str]"]:
    """Occurrences of `surface` in `text` as a whole word sequence (the
    matching of `leaks_in`), non-overlapping, in order."""
    return _word_pattern(surface).finditer(text)


def count_words(surface: str, text: str) -> int:
    """Occurrences of `surface` in `text` as a whole word sequence (the
    matching of `leaks_in`).

    RETURNS (int): The number of (non-overlapping) occurrences.
    """
    return sum(1 for _ in find_words(surface, text))


def count_outside(surface: str, text: str, spans: Sequence[PhiSpan]) -> int:
    """Whole-word occurrences of `surface` in `text` that overlap no span.

    surface (str): The string.
    text (str): The note text the spans index.
    spans (Sequence[PhiSpan]): The note's spans, sorted by start.
    RETURNS (int): The number of occurrences outside every span.
    """
    starts = [span.start for span in spans]
    reach = list(itertools.accumulate((span.end for span in spans), max))
    outside = 0
    for match in _word_pattern(surface).finditer(text):
        # The spans starting before the match ends overlap it if the
        # furthest of their ends is past its start.
        before = bisect.bisect_left(starts, match.end())
        if before == 0 or reach[before - 1] <= match.start():
            outside += 1
    return outside


def leak_rate(
    gold: Iterable[Note], deid_texts: DeidTexts, min_length: int = 2
) -> Dict[str, Any]:
    """Fraction of gold PHI strings still present in the de-identified text.

    gold (Iterable[Note]): Gold notes (original text and PHI spans).
    deid_texts (DeidTexts): De-identified text per note id (dict, or notes).
    min_length (int): Skip PHI strings shorter than this.
    RETURNS (Dict[str, Any]): `overall` and `per_label` ({leaked, total,
        rate}), `skipped`, `notes`, `notes_missing`, `leaked_notes` (ids).
    """
    outputs = _texts_by_id(deid_texts)
    per_label: Dict[str, list] = defaultdict(lambda: [0, 0])
    skipped, notes, missing, leaked_notes = 0, 0, [], []
    for note in gold:
        if note.id not in outputs:
            missing.append(note.id)
            continue
        notes += 1
        output = outputs[note.id]
        note_leaked = False
        for span in note.spans:
            surface = note.text[span.start : span.end].strip()
            if len(surface) < min_length:
                skipped += 1
                continue
            counts = per_label[normalize_label(span.label)]
            counts[1] += 1
            if leaks_in(surface, output):
                counts[0] += 1
                note_leaked = True
        if note_leaked:
            leaked_notes.append(note.id)
    leaked = sum(c[0] for c in per_label.values())
    total = sum(c[1] for c in per_label.values())
    return {
        "overall": _rate(leaked, total),
        "per_label": {k: _rate(*v) for k, v in sorted(per_label.items())},
        "skipped": skipped,
        "min_length": min_length,
        "notes": notes,
        "notes_missing": missing,
        "leaked_notes": leaked_notes,
    }

"""Turn notes into spaCy Docs / a DocBin with the pipeline's own tokenizer.

Gold spans whose boundaries fall inside a token are *misaligned*. They are
never dropped silently: each policy is counted in `ConversionStats` and a
single `MisalignedSpanWarning` names the affected note ids (never text).

- "expand": grow the span to the enclosing tokens (over-redacts; the default).
- "contract": shrink it to the tokens fully inside (if none, as "missing").
- "drop": leave it out; its tokens are labelled O (outside).
- "missing": its tokens get no annotation (`ent_iob` 0), so training treats
  them as unknown rather than O.

Overlapping gold spans: the longest is kept (ties: the earliest), the others
are counted in `overlapping` and warned about with an `OverlappingSpanWarning`.
"""

import warnings
from dataclasses import dataclass, field
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Set, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc, DocBin, Span
from spacy.vocab import Vocab

from ..core.extensions import install_extensions
from ..io.atomic import atomic_path
from ..core.errors import CorpusError, MisalignedSpanWarning, OverlappingSpanWarning
from ..core.types import Note, PhiSpan

MISALIGNED_POLICIES = ("expand", "contract", "drop", "missing")
NOTE_ID_KEY = "note_id"
NOTE_META_KEY = "note_meta"
_MAX_IDS_IN_WARNING = 20


@dataclass
class ConversionStats:
    """Counts from a conversion (no text)."""

    policy: str = "expand"
    notes: int = 0
    spans: int = 0
    aligned: int = 0
    misaligned: int = 0
    overlapping: int = 0
    expanded: int = 0
    contracted: int = 0
    dropped: int = 0
    missing: int = 0
    per_label: Dict[str, Dict[str, int]] = field(default_factory=dict)
    misaligned_notes: List[str] = field(default_factory=list)
    overlapping_notes: List[str] = field(default_factory=list)

    def count(self, label: str, key: str) -> None:
        counts = self.per_label.setdefault(
            label, {"spans": 0, "misaligned": 0, "overlapping": 0}
        )
        counts[key] += 1

    def to_dict(self) -> Dict[str, object]:
        """RETURNS (dict): JSON-serialisable counts."""
        return {k: getattr(self, k) for k in self.__dataclass_fields__}


def note_to_doc(
    note: Note,
    nlp: Language,
    misaligned: str = "expand",
    stats: Optional[ConversionStats] = None,
) -> Doc:
    """Tokenize a note with `nlp.make_doc` and set its gold spans as `doc.ents`.

    note (Note): The note.
    nlp (Language): Pipeline whose tokenizer to use.
    misaligned (str): One of MISALIGNED_POLICIES.
    stats (Optional[ConversionStats]): Updated in place.
    RETURNS (Doc): The doc, with `doc._.patient`, `doc.user_data["note_id"]`
        and, if the note has any, `doc.user_data["note_meta"]`.
    """
    if misaligned not in MISALIGNED_POLICIES:
        raise ValueError(f"misaligned must be one of {MISALIGNED_POLICIES}")
    stats = stats if stats is not None else ConversionStats(policy=misaligned)
    install_extensions()
    doc = nlp.make_doc(note.text)
    doc.user_data[NOTE_ID_KEY] = note.id
    if note.meta:
        doc.user_data[NOTE_META_KEY] = dict(note.meta)
    doc._.patient = note.patient
    stats.notes += 1
    kept = _remove_overlaps(note, note.spans, stats)
    ents, missing = _align(doc, note, kept, misaligned, stats)
    ents = _remove_token_overlaps(note, ents, stats)
    covered = {i for ent in ents for i in range(ent.start, ent.end)}
    missing_spans = _token_runs(doc, missing - covered)
    doc.set_ents(ents, missing=missing_spans, default="outside")
    return doc


def _remove_overlaps(
    note: Note, spans: Iterable[PhiSpan], stats: ConversionStats
) -> List[PhiSpan]:
    order = sorted(set(spans), key=lambda s: (-(s.end - s.start), s.start, s.label))
    kept: List[PhiSpan] = []
    for span in order:
        stats.spans += 1
        stats.count(span.label, "spans")
        if any(span.start < k.end and k.start < span.end for k in kept):
            _count_overlap(note, span.label, stats)
        else:
            kept.append(span)
    return sorted(kept)


def _count_overlap(note: Note, label: str, stats: ConversionStats) -> None:
    stats.overlapping += 1
    stats.count(label, "overlapping")
    if not stats.overlapping_notes or stats.overlapping_notes[-1] != note.id:
        stats.overlapping_notes.append(note.id)


def _align(
    doc: Doc, note: Note, spans: List[PhiSpan], policy: str, stats: ConversionStats
) -> Tuple[List[Span], Set[int]]:
    ents: List[Span] = []
    missing: Set[int] = set()
    for span in spans:
        ent = doc.char_span(span.start, span.end, label=span.label)
        if ent is not None:
            stats.aligned += 1
            ents.append(ent)
            continue
        stats.misaligned += 1
        stats.count(span.label, "misaligned")
        if not stats.misaligned_notes or stats.misaligned_notes[-1] != note.id:
            stats.misaligned_notes.append(note.id)
        ent = _resolve(doc, span, policy)
        if ent is not None:
            if policy == "expand":
                stats.expanded += 1
            else:
                stats.contracted += 1
            ents.append(ent)
        elif policy == "drop":
            stats.dropped += 1
        else:
            stats.missing += 1
            outer = doc.char_span(span.start, span.end, alignment_mode="expand")
            if outer is not None:
                missing.update(range(outer.start, outer.end))
    return ents, missing


def _resolve(doc: Doc, span: PhiSpan, policy: str) -> Optional[Span]:
    if policy not in ("expand", "contract"):
        return None
    ent = doc.char_span(span.start, span.end, label=span.label, alignment_mode=policy)
    return ent if ent is not None and len(ent) > 0 else None


def _remove_token_overlaps(
    note: Note, ents: List[Span], stats: ConversionStats
) -> List[Span]:
    order = sorted(ents, key=lambda e: (-(e.end - e.start), e.start))
    kept: List[Span] = []
    taken: Set[int] = set()
    for ent in order:
        if taken.intersection(range(ent.start, ent.end)):
            _count_overlap(note, ent.label_, stats)
            continue
        kept.append(ent)
        taken.update(range(ent.start, ent.end))
    return sorted(kept, key=lambda e: e.start)


def _token_runs(doc: Doc, indices: Set[int]) -> List[Span]:
    runs: List[Span] = []
    for i in sorted(indices):
        if runs and runs[-1].end == i:
            runs[-1] = doc[runs[-1].start : i + 1]
        else:
            runs.append(doc[i : i + 1])
    return runs


def notes_to_docs(
    notes: Iterable[Note],
    nlp: Language,
    misaligned: str = "expand",
    stats: Optional[ConversionStats] = None,
) -> Iterator[Doc]:
    """Stream docs for notes (see `note_to_doc`); call `warn_stats` after."""
    stats = stats if stats is not None else ConversionStats(policy=misaligned)
    for note in notes:
        yield note_to_doc(note, nlp, misaligned, stats)


def notes_to_docbin(
    notes: Iterable[Note], nlp: Language, misaligned: str = "expand", warn: bool = True
) -> Tuple[DocBin, ConversionStats]:
    """Convert notes to a DocBin (user data, i.e. patient and note id, kept).

    notes (Iterable[Note]): The notes.
    nlp (Language): Pipeline whose tokenizer to use (e.g. the clinical one).
    misaligned (str): "expand", "contract", "drop" or "missing".
    warn (bool): Emit warnings naming the notes with misaligned/overlapping spans.
    RETURNS (Tuple[DocBin, ConversionStats]): The DocBin and the counts.
    """
    stats = ConversionStats(policy=misaligned)
    docbin = DocBin(store_user_data=True)
    for doc in notes_to_docs(notes, nlp, misaligned, stats):
        try:
            docbin.add(doc)
        except (TypeError, ValueError) as error:
            note_id = doc.user_data.get(NOTE_ID_KEY)
            raise CorpusError(
                f"Note '{note_id}' could not be stored in a DocBin "
                f"({type(error).__name__}; check that its meta is JSON-like)"
            ) from None
    if warn:
        warn_stats(stats)
    return docbin, stats


def write_docbin(docbin: DocBin, path: Union[str, Path]) -> Path:
    """Write a DocBin to `NAME.tmp` and rename it to `path` when complete.

    RETURNS (Path): The file written.
    """
    path = Path(path)
    with atomic_path(path) as tmp:
        docbin.to_disk(tmp)
    return path


def warn_stats(stats: ConversionStats) -> None:
    """Warn about misaligned and overlapping spans, naming note ids only."""
    if stats.misaligned:
        ids = _id_list(stats.misaligned_notes)
        warnings.warn(
            f"{stats.misaligned} of {stats.spans} gold spans in "
            f"{len(stats.misaligned_notes)} notes do not align with token "
            f"boundaries (policy '{stats.policy}': {stats.expanded} expanded, "
            f"{stats.contracted} contracted, {stats.dropped} dropped, "
            f"{stats.missing} set missing). Notes: {ids}",
            MisalignedSpanWarning,
            stacklevel=2,
        )
    if stats.overlapping:
        ids = _id_list(stats.overlapping_notes)
        warnings.warn(
            f"{stats.overlapping} overlapping gold spans were removed (the "
            f"longest was kept). Notes: {ids}",
            OverlappingSpanWarning,
            stacklevel=2,
        )


def _id_list(ids: List[str]) -> str:
    unique = list(dict.fromkeys(ids))
    shown = ", ".join(unique[:_MAX_IDS_IN_WARNING])
    more = len(unique) - _MAX_IDS_IN_WARNING
    return shown + (f" (+{more} more)" if more > 0 else "")


def doc_to_note(doc: Doc, default_id: str = "") -> Note:
    """Read a note back from a doc (spans from `doc.ents`)."""
    install_extensions()
    spans = [PhiSpan(e.start_char, e.end_char, e.label_) for e in doc.ents]
    note_id = str(doc.user_data.get(NOTE_ID_KEY, default_id))
    patient = doc._.patient
    meta = doc.user_data.get(NOTE_META_KEY)
    return Note(
        note_id,
        doc.text,
        spans,
        None if patient is None else str(patient),
        _json_like(meta) if meta else {},
    )


def _json_like(value):
    """msgpack gives lists back as tuples; make them lists again."""
    if isinstance(value, dict):
        return {k: _json_like(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_json_like(v) for v in value]
    return value


def read_docbin(path, vocab: Optional[Vocab] = None) -> Iterator[Note]:
    """Stream the notes stored in a `.spacy` file.

    path (Union[str, Path]): The DocBin file.
    vocab (Optional[Vocab]): Vocab to load into (a fresh one by default).
    YIELDS (Note): One note per doc; ids default to "doc<N>".
    """
    install_extensions()
    docbin = DocBin().from_disk(path)
    for i, doc in enumerate(docbin.get_docs(vocab or Vocab())):
        yield doc_to_note(doc, default_id=f"doc{i}")

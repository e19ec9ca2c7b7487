"""`evaluate_notes`: i2b2 2014-style evaluation of predicted against gold notes.

Notes are matched by id. A gold note without a prediction is scored as
predicting nothing (the i2b2 script only scores notes present on both sides;
for de-identification an unprocessed note is a privacy failure, so it counts).
Predicted notes without gold are ignored; both lists of ids are reported.
Labels are normalised (`labels.normalize_label`) and, with
`labels="category"`, mapped to categories (MEDDOCAN types to their class).
The HIPAA subset keeps the spans whose subcategory is in
`labels.HIPAA_LABELS` (MEDDOCAN types: whose i2b2 equivalent is) on both
sides, then scores them the same way.
"""

from dataclasses import dataclass
from typing import Any, Dict, Iterable, List, Sequence, Tuple

from ..corpus.errors import CorpusError
from ..corpus.labelmaps import MEDDOCAN_TO_I2B2, meddocan_to_i2b2, to_coarse
from ..corpus.types import Note, PhiSpan
from ..labels import HIPAA_LABELS, normalize_label
from .matching import (
    RELAXED_WINDOW,
    LabelCounts,
    binary_token_counts,
    relaxed_counts,
    strict_counts,
    token_counts,
    token_label_lists,
)
from .metrics import Counts, macro, micro, total
from .taxonomy import Taxonomy

MEASURES = ("strict", "relaxed", "token", "binary_token")
LEVELS = ("subcategory", "category")
NotePair = Tuple[Note, List[PhiSpan]]


@dataclass
class NoteScore:
    """Counts for one note."""

    id: str
    strict: LabelCounts
    relaxed: LabelCounts
    token: LabelCounts
    binary_token: Counts

    def totals(self, measure: str) -> Counts:
        """Counts of one measure summed over labels."""
        value = getattr(self, measure)
        return value if isinstance(value, Counts) else total(value.values())


def relabel(spans: Iterable[PhiSpan], level: str = "subcategory") -> List[PhiSpan]:
    """Normalise labels; at `level="category"` map them to categories."""
    result = []
    for span in spans:
        label = normalize_label(span.label)
        if level == "category":
            label = to_coarse(label) or label
        result.append(PhiSpan(span.start, span.end, label))
    return result


def is_hipaa_label(label: str) -> bool:
    """Whether HIPAA Safe Harbor requires removing spans with this label.

    i2b2 subcategories are looked up directly, MEDDOCAN types through their
    i2b2 equivalent (`labelmaps.meddocan_to_i2b2`).
    """
    name = normalize_label(label)
    if name in HIPAA_LABELS:
        return True
    return name in MEDDOCAN_TO_I2B2 and meddocan_to_i2b2(name) in HIPAA_LABELS


def hipaa_only(spans: Iterable[PhiSpan]) -> List[PhiSpan]:
    """Spans whose (subcategory) label HIPAA Safe Harbor requires removing."""
    return [s for s in spans if is_hipaa_label(s.label)]


def score_note(
    note_id: str,
    text: str,
    gold: Sequence[PhiSpan],
    pred: Sequence[PhiSpan],
    window: int = RELAXED_WINDOW,
) -> NoteScore:
    """All counts for one note (spans already relabelled)."""
    gold_tokens, pred_tokens = token_label_lists(text, gold, pred)
    return NoteScore(
        id=note_id,
        strict=strict_counts(gold, pred),
        relaxed=relaxed_counts(gold, pred, window),
        token=token_counts(gold_tokens, pred_tokens),
        binary_token=binary_token_counts(gold_tokens, pred_tokens),
    )


def pair_notes(
    gold: Iterable[Note], pred: Iterable[Note]
) -> Tuple[List[NotePair], Dict[str, List[str]]]:
    """Match predicted to gold notes by id and check predicted offsets.

    RETURNS (Tuple[List[NotePair], dict]): (gold note, predicted spans) pairs in
        gold order, and `{"missing_pred": [...], "extra_pred": [...]}` ids.
    """
    pred_by_id: Dict[str, Note] = {}
    for note in pred:
        if note.id in pred_by_id:
            raise CorpusError(f"Predicted note id '{note.id}' occurs twice")
        pred_by_id[note.id] = note
    pairs: List[NotePair] = []
    seen = set()
    missing = []
    for note in gold:
        if note.id in seen:
            raise CorpusError(f"Gold note id '{note.id}' occurs twice")
        seen.add(note.id)
        other = pred_by_id.get(note.id)
        if other is None:
            missing.append(note.id)
        spans = [] if other is None else list(other.spans)
        _check_pred_offsets(note, spans)
        pairs.append((note, spans))
    extra = [i for i in pred_by_id if i not in seen]
    return pairs, {"missing_pred": missing, "extra_pred": extra}


def _check_pred_offsets(note: Note, spans: List[PhiSpan]) -> None:
    for i, span in enumerate(spans):
        if not 0 <= span.start < span.end <= len(note.text):
            raise CorpusError(
                f"Note '{note.id}', predicted span {i} ({span.start}-{span.end}) "
                f"is out of range for the gold text ({len(note.text)} chars)"
            )


def score_pairs(
    pairs: List[NotePair],
    level: str = "subcategory",
    hipaa: bool = False,
    window: int = RELAXED_WINDOW,
) -> List[NoteScore]:
    """Score every (gold note, predicted spans) pair at a label level."""
    scores = []
    for note, pred in pairs:
        gold_spans, pred_spans = list(note.spans), pred
        if hipaa:
            gold_spans, pred_spans = hipaa_only(gold_spans), hipaa_only(pred_spans)
        gold_spans = relabel(gold_spans, level)
        pred_spans = relabel(pred_spans, level)
        scores.append(score_note(note.id, note.text, gold_spans, pred_spans, window))
    return scores


def summarize(scores: List[NoteScore]) -> Dict[str, Dict[str, Dict[str, float]]]:
    """Micro and macro precision/recall/F1 for every measure."""
    result = {}
    for measure in MEASURES:
        per_note = [s.totals(measure) for s in scores]
        result[measure] = {"micro": micro(per_note), "macro": macro(per_note)}
    return result


def per_label_table(scores: List[NoteScore]) -> Dict[str, Dict[str, Any]]:
    """Micro strict/relaxed/token scores per label, sorted by label."""
    labels = sorted(
        {lab for s in scores for m in MEASURES[:3] for lab in getattr(s, m)}
    )
    table = {}
    for label in labels:
        row = {}
        for measure in MEASURES[:3]:
            row[measure] = total(
                getattr(s, measure)[label]
                for s in scores
                if label in getattr(s, measure)
            ).to_dict()
        table[label] = row
    return table


def evaluate_notes(
    gold: Iterable[Note],
    pred: Iterable[Note],
    labels: str = "subcategory",
    window: int = RELAXED_WINDOW,
) -> Dict[str, Any]:
    """Evaluate predicted PHI spans against gold notes (matched by id).

    gold (Iterable[Note]): Gold notes.
    pred (Iterable[Note]): Predicted notes; only their spans are used, and
        they must index the gold text.
    labels (str): "subcategory" or "category" for the main scores.
    window (int): Relaxed matching tolerance on the end offset.
    RETURNS (Dict[str, Any]): Keys `strict`, `relaxed`, `token`,
        `binary_token` (each `{"micro": ..., "macro": ...}`), `hipaa` (the
        same four), `per_label` (`subcategory`, `category`), `taxonomy`,
        `notes`, `missing_pred`, `extra_pred`, `labels`.
    """
    if labels not in LEVELS:
        raise ValueError(f"labels must be one of {LEVELS}")
    pairs, ids = pair_notes(gold, pred)
    main = score_pairs(pairs, labels, window=window)
    result: Dict[str, Any] = {"labels": labels, "notes": len(pairs)}
    result.update(summarize(main))
    result["hipaa"] = summarize(score_pairs(pairs, labels, hipaa=True, window=window))
    other = "category" if labels == "subcategory" else "subcategory"
    result["per_label"] = {
        labels: per_label_table(main),
        other: per_label_table(score_pairs(pairs, other, window=window)),
    }
    result["taxonomy"] = taxonomy_of(pairs, labels)
    result.update(ids)
    return result


def taxonomy_of(pairs: List[NotePair], level: str = "subcategory") -> Dict[str, Any]:
    """Error taxonomy (see `taxonomy.py`) at a label level."""
    taxonomy = Taxonomy()
    for note, pred in pairs:
        taxonomy.add(relabel(note.spans, level), relabel(pred, level))
    return taxonomy.to_dict()


def measure_counts(
    pairs: List[NotePair],
    measure: str = "strict",
    labels: str = "subcategory",
    hipaa: bool = False,
) -> List[Counts]:
    """Per-note total counts of one measure (for significance tests)."""
    if measure not in MEASURES:
        raise ValueError(f"measure must be one of {MEASURES}")
    return [s.totals(measure) for s in score_pairs(pairs, labels, hipaa=hipaa)]

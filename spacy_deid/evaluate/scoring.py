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

Measures (see `matching.py` and `tokens.py`): `strict`, `relaxed` and
`token` are those of the i2b2 2014 script (tokens are the `[A-Za-z0-9]` runs
of each span's own text), `binary_token` is its token measure without labels
(PHI or not); `text_token` and
`binary_text_token` score every token of the whole text (`\\w+|[^\\w\\s]`,
punctuation included) with the label of the spans that overlap it.
"""

from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple, Union

from ..core.errors import CorpusError
from ..labels.maps import (
    MEDDOCAN_TO_I2B2,
    apply,
    is_known_label,
    meddocan_to_i2b2,
    to_coarse,
)
from ..core.types import Note, PhiSpan
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
from .tokens import i2b2_binary_token_counts, i2b2_token_counts, span_tokens

MEASURES = (
    "strict", "relaxed", "token", "binary_token", "text_token", "binary_text_token"
)  # fmt: skip
# The measures counted per label (the binary ones have no label).
LABELLED_MEASURES = ("strict", "relaxed", "token")
LEVELS = ("subcategory", "category")
NotePair = Tuple[Note, List[PhiSpan]]
MISSING_META = "(none)"
_MAX_IDS_SHOWN = 3


@dataclass
class NoteScore:
    """Counts for one note."""

    id: str
    strict: LabelCounts
    relaxed: LabelCounts
    token: LabelCounts
    binary_token: Counts
    text_token: LabelCounts
    binary_text_token: Counts

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
            # A label outside every scheme is scored under its own name.
            label = apply(label, to_coarse) or label
        result.append(PhiSpan(span.start, span.end, label))
    return result


def is_hipaa_label(label: str) -> bool:
    """Whether HIPAA Safe Harbor requires removing spans with this label.

    i2b2 subcategories are looked up directly, MEDDOCAN types through their
    i2b2 equivalent (`labels.maps.meddocan_to_i2b2`).
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
    gold_spans, pred_spans = span_tokens(text, gold), span_tokens(text, pred)
    gold_labels, pred_labels = token_label_lists(text, gold, pred)
    return NoteScore(
        id=note_id,
        strict=strict_counts(gold, pred),
        relaxed=relaxed_counts(gold, pred, window),
        token=i2b2_token_counts(gold_spans, pred_spans),
        binary_token=i2b2_binary_token_counts(gold_spans, pred_spans),
        text_token=token_counts(gold_labels, pred_labels),
        binary_text_token=binary_token_counts(gold_labels, pred_labels),
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


def check_pairing(
    pairs: List[NotePair],
    ids: Dict[str, List[str]],
    gold_source: Optional[Union[str, Path]] = None,
    pred_source: Optional[Union[str, Path]] = None,
) -> None:
    """Raise a CorpusError when there is nothing to evaluate: no gold notes,
    or no predicted note whose id matches a gold note id.

    pairs, ids: The result of `pair_notes`.
    gold_source, pred_source: Where gold and predictions come from (paths),
        named in the message when given.
    """
    gold_from = f" in '{gold_source}'" if gold_source is not None else ""
    pred_from = f" in '{pred_source}'" if pred_source is not None else ""
    if not pairs:
        raise CorpusError(f"No gold notes found{gold_from}: nothing to evaluate")
    if len(ids["missing_pred"]) < len(pairs):
        return
    extra = ids["extra_pred"]
    if not extra:
        raise CorpusError(f"No predicted notes found{pred_from}")
    gold_ids = ", ".join(f"'{n.id}'" for n, _ in pairs[:_MAX_IDS_SHOWN])
    pred_ids = ", ".join(f"'{i}'" for i in extra[:_MAX_IDS_SHOWN])
    raise CorpusError(
        f"None of the {len(extra)} predicted note ids{pred_from} matches one of "
        f"the {len(pairs)} gold note ids{gold_from} (gold: {gold_ids}, ...; "
        f"predicted: {pred_ids}, ...)"
    )


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
        {lab for s in scores for m in LABELLED_MEASURES for lab in getattr(s, m)}
    )
    table = {}
    for label in labels:
        row = {}
        for measure in LABELLED_MEASURES:
            row[measure] = total(
                getattr(s, measure)[label]
                for s in scores
                if label in getattr(s, measure)
            ).to_dict()
        table[label] = row
    return table


def meta_values(note: Note, key: str) -> List[str]:
    """The values of `note.meta[key]` as strings: one per list element
    (duplicates once), `[MISSING_META]` when the key is absent or empty."""
    value = note.meta.get(key) if note.meta else None
    if isinstance(value, (list, tuple, set, frozenset)):
        values = list(dict.fromkeys(str(v) for v in value))
    elif value is None or value == "":
        values = []
    else:
        values = [str(value)]
    return values or [MISSING_META]


def by_meta_table(
    pairs: List[NotePair], scores: List[NoteScore], key: str
) -> Dict[str, Dict[str, Any]]:
    """Micro strict and binary-token (i2b2) scores per value of a gold meta key.

    A note whose value is a list counts under each of its values (so the
    groups can overlap); notes without the key are under `MISSING_META`.

    pairs (List[NotePair]): From `pair_notes` (gold notes carry the meta).
    scores (List[NoteScore]): From `score_pairs(pairs, ...)`, same order.
    key (str): The meta key, e.g. "kind" or "family".
    RETURNS (Dict[str, Dict[str, Any]]): value -> `notes`, `strict` and
        `binary_token` (micro P/R/F1 and counts), sorted by value.
    """
    groups: Dict[str, List[NoteScore]] = {}
    for (note, _), score in zip(pairs, scores, strict=True):
        for value in meta_values(note, key):
            groups.setdefault(value, []).append(score)
    return {
        value: {
            "notes": len(group),
            "strict": micro([s.totals("strict") for s in group]),
            "binary_token": micro([s.binary_token for s in group]),
        }
        for value, group in sorted(groups.items())
    }


def unknown_pred_labels(pairs: List[NotePair]) -> List[str]:
    """Predicted labels found neither in the gold notes nor in any known
    scheme (they are scored like any other label, as false positives)."""
    gold = {normalize_label(s.label) for note, _ in pairs for s in note.spans}
    pred = {normalize_label(s.label) for _, spans in pairs for s in spans}
    return sorted(lab for lab in pred - gold if not is_known_label(lab))


def evaluate_notes(
    gold: Iterable[Note],
    pred: Iterable[Note],
    labels: str = "subcategory",
    window: int = RELAXED_WINDOW,
    by_meta: Optional[Union[str, Sequence[str]]] = None,
) -> Dict[str, Any]:
    """Evaluate predicted PHI spans against gold notes (matched by id).

    gold (Iterable[Note]): Gold notes.
    pred (Iterable[Note]): Predicted notes; only their spans are used, and
        they must index the gold text.
    labels (str): "subcategory" or "category" for the main scores.
    window (int): Relaxed matching tolerance on the end offset.
    by_meta: A gold meta key (or several) to break scores down by, e.g.
        "kind" or "family" for synthetic notes (see `by_meta_table`).
    RETURNS (Dict[str, Any]): Keys `strict`, `relaxed`, `token`,
        `binary_token` (the i2b2 2014 measures), `text_token`,
        `binary_text_token` (whole-text tokens; each `{"micro": ...,
        "macro": ...}`), `hipaa` (the same six), `per_label` (`subcategory`, `category`), `taxonomy`,
        `notes`, `missing_pred`, `extra_pred`, `labels`,
        `unknown_pred_labels`, and with `by_meta` a `by_meta` dict
        (key -> value -> scores).
    RAISES (CorpusError): No gold notes, or no predicted id matches a gold id.
    """
    if labels not in LEVELS:
        raise ValueError(f"labels must be one of {LEVELS}")
    pairs, ids = pair_notes(gold, pred)
    check_pairing(pairs, ids)
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
    result["unknown_pred_labels"] = unknown_pred_labels(pairs)
    if by_meta:
        keys = [by_meta] if isinstance(by_meta, str) else list(by_meta)
        result["by_meta"] = {key: by_meta_table(pairs, main, key) for key in keys}
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

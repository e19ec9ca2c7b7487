"""Residual-risk audit: which gold PHI survives in de-identified output.

Given the original notes with gold spans and the de-identified texts, report
per label and per HIPAA category how many gold PHI strings leaked verbatim,
the leak rate overall and for HIPAA labels, the records to review first and
the records that are missing from, or extra in, the de-identified output.

The matching rules are those of `leak.py`: a gold string (stripped) leaks when
it occurs case-sensitively as a whole word sequence in the de-identified text
of the same note; strings shorter than `min_length` are skipped and counted;
every gold span counts once.

Labels outside the i2b2 scheme (e.g. MEDDOCAN types read without a label map,
or categories) cannot be checked against HIPAA: to fail closed they count as
HIPAA, under the category "UNKNOWN", and are listed in `unknown_labels`.

The result holds ids, labels, counts and gold offsets only. With
`show_text=True` each leaked span also carries its `text`: the result then
contains PHI.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any, Dict, Iterable, List, Mapping, Optional, Sequence, Union

from ..core.errors import CorpusError
from ..core.types import Note
from ..labels import CATEGORIES, LABELS, normalize_label
from .leak import leaks_in

UNKNOWN_CATEGORY = "UNKNOWN"
# Texts per note id: one de-identified text, or several if the id repeats.
DeidTexts = Mapping[str, Union[str, Sequence[str]]]


@dataclass
class RecordLeaks:
    """The leaked gold spans of one record."""

    id: str
    index: int
    spans: List[Dict[str, Any]] = field(default_factory=list)

    @property
    def hipaa_leaks(self) -> int:
        return sum(1 for span in self.spans if span["hipaa"])

    def to_dict(self) -> Dict[str, Any]:
        labels: Dict[str, int] = defaultdict(int)
        for span in self.spans:
            labels[span["label"]] += 1
        return {
            "id": self.id,
            "hipaa_leaks": self.hipaa_leaks,
            "leaks": len(self.spans),
            "labels": dict(sorted(labels.items())),
            "spans": self.spans,
        }


def label_info(label: str) -> Dict[str, Any]:
    """Category and HIPAA flag of a label; unknown labels count as HIPAA.

    label (str): A canonical label.
    RETURNS (Dict[str, Any]): {"category", "hipaa"}.
    """
    if label in LABELS:
        return {"category": LABELS[label].category, "hipaa": LABELS[label].hipaa}
    return {"category": UNKNOWN_CATEGORY, "hipaa": True}


def _rate(leaked: int, total: int) -> Dict[str, Any]:
    return {"leaked": leaked, "total": total, "rate": leaked / total if total else 0.0}


def group_texts(pairs: Iterable[tuple]) -> Dict[str, List[str]]:
    """Group (id, de-identified text) pairs by id, keeping repeated ids.

    pairs (Iterable[tuple]): (id, text) pairs, e.g. from a run's output.
    RETURNS (Dict[str, List[str]]): The texts per id, in input order.
    """
    texts: Dict[str, List[str]] = defaultdict(list)
    for note_id, text in pairs:
        texts[str(note_id)].append(text)
    return dict(texts)


def _check_unique(gold: List[Note]) -> None:
    seen = set()
    for index, note in enumerate(gold):
        if note.id in seen:
            raise CorpusError(f"Gold note id '{note.id}' (note {index}) is repeated")
        seen.add(note.id)


def _audit_note(
    note: Note, index: int, outputs: Sequence[str], min_length: int, show_text: bool
) -> tuple:
    """Count the gold spans of one note and collect the leaked ones.

    RETURNS (tuple): ({label: [leaked, total]}, skipped, RecordLeaks).
    """
    counts: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    skipped = 0
    record = RecordLeaks(note.id, index)
    for span in sorted(note.spans):
        surface = note.text[span.start : span.end].strip()
        if len(surface) < min_length:
            skipped += 1
            continue
        label = normalize_label(span.label)
        counts[label][1] += 1
        if any(leaks_in(surface, output) for output in outputs):
            counts[label][0] += 1
            info = label_info(label)
            leaked = {"start": span.start, "end": span.end, "label": label}
            leaked.update(hipaa=info["hipaa"], category=info["category"])
            if show_text:
                leaked["text"] = surface
            record.spans.append(leaked)
    return counts, skipped, record


def rank_records(records: Iterable[RecordLeaks]) -> List[RecordLeaks]:
    """Records with leaks, most leaked HIPAA strings first, then most leaks,
    then in gold order."""
    leaked = [r for r in records if r.spans]
    return sorted(leaked, key=lambda r: (-r.hipaa_leaks, -len(r.spans), r.index))


def _per_category(per_label: Dict[str, List[int]]) -> Dict[str, Dict[str, Any]]:
    """Leak counts per category over the HIPAA labels only."""
    sums: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    for label, (leaked, total) in per_label.items():
        info = label_info(label)
        if info["hipaa"]:
            sums[info["category"]][0] += leaked
            sums[info["category"]][1] += total
    order = CATEGORIES + [UNKNOWN_CATEGORY]
    return {cat: _rate(*sums[cat]) for cat in order if cat in sums}


def audit(
    gold: Iterable[Note],
    deid_texts: DeidTexts,
    rejected: Iterable[str] = (),
    min_length: int = 2,
    show_text: bool = False,
) -> Dict[str, Any]:
    """Residual-risk report of a de-identified corpus against its gold PHI.

    gold (Iterable[Note]): Original notes with gold spans (unique ids).
    deid_texts (DeidTexts): De-identified text per note id, or a list of
        texts (see `group_texts`); an id given several texts (a repeated output record) leaks if any text leaks.
    rejected (Iterable[str]): Ids the run rejected (from its reject file), to
        tell rejected records from absent ones.
    min_length (int): Skip gold strings shorter than this (after stripping).
    show_text (bool): Put the leaked strings in the result (it contains PHI).
    RETURNS (Dict[str, Any]): The report; see `format_audit` and the CLI help.
    """
    gold = list(gold)
    _check_unique(gold)
    deid_texts = {
        key: [texts] if isinstance(texts, str) else list(texts)
        for key, texts in deid_texts.items()
    }
    rejected_ids = set(rejected)
    per_label: Dict[str, List[int]] = defaultdict(lambda: [0, 0])
    records: List[RecordLeaks] = []
    skipped, missing = 0, []
    for index, note in enumerate(gold):
        if note.id not in deid_texts:
            missing.append(note.id)
            continue
        counts, note_skipped, record = _audit_note(
            note, index, deid_texts[note.id], min_length, show_text
        )
        skipped += note_skipped
        records.append(record)
        for label, (leaked, total) in counts.items():
            per_label[label][0] += leaked
            per_label[label][1] += total
    gold_ids = {note.id for note in gold}
    hipaa = [c for lab, c in per_label.items() if label_info(lab)["hipaa"]]
    categories = _per_category(per_label)
    labels = {
        label: {**_rate(*per_label[label]), **label_info(label)}
        for label in sorted(per_label)
    }
    return {
        "overall": _rate(*[sum(c[i] for c in per_label.values()) for i in (0, 1)]),
        "hipaa": _rate(*[sum(c[i] for c in hipaa) for i in (0, 1)]),
        "hipaa_leak": any(c[0] for c in hipaa),
        "per_label": labels,
        "per_hipaa_category": categories,
        "leaked_hipaa_categories": [c for c, v in categories.items() if v["leaked"]],
        "unknown_labels": sorted(lab for lab in per_label if lab not in LABELS),
        "records": [r.to_dict() for r in rank_records(records)],
        "notes": {
            "gold": len(gold),
            "audited": len(records),
            "rejected": [i for i in missing if i in rejected_ids],
            "absent": [i for i in missing if i not in rejected_ids],
            "extra": sorted(i for i in deid_texts if i not in gold_ids),
            "repeated": sorted(i for i, t in deid_texts.items() if len(t) > 1),
        },
        "skipped": skipped,
        "min_length": min_length,
        "contains_text": show_text,
    }


def _pct(rate: Dict[str, Any]) -> str:
    return f"{rate['leaked']}/{rate['total']} ({100 * rate['rate']:.2f}%)"


def _id_list(ids: List[str], limit: int) -> str:
    shown = ", ".join(ids[:limit])
    return shown + (f", ... ({len(ids) - limit} more)" if len(ids) > limit else "")


def format_audit(result: Dict[str, Any], top: Optional[int] = 10) -> str:
    """Console report of an audit: ids, labels and counts, never text.

    result (Dict[str, Any]): The output of `audit`.
    top (Optional[int]): Records to list for review (None: all).
    RETURNS (str): The report.
    """
    notes = result["notes"]
    lines = [
        f"Audited {notes['audited']} of {notes['gold']} gold notes "
        f"({result['skipped']} gold strings shorter than "
        f"{result['min_length']} characters skipped)",
        f"Leaked PHI strings, all labels: {_pct(result['overall'])}",
        f"Leaked PHI strings, HIPAA labels: {_pct(result['hipaa'])}",
        "",
        f"{'label':<16}{'HIPAA':<7}{'category':<12}{'leaked':>8}{'total':>8}"
        f"{'rate':>9}",
    ]
    for label, row in result["per_label"].items():
        flag = "yes" if row["hipaa"] else "no"
        lines.append(
            f"{label:<16}{flag:<7}{row['category']:<12}{row['leaked']:>8}"
            f"{row['total']:>8}{100 * row['rate']:>8.2f}%"
        )
    lines += ["", "HIPAA categories:"]
    for cat, row in result["per_hipaa_category"].items():
        lines.append(f"  {cat:<12}{_pct(row)}")
    leaked_cats = result["leaked_hipaa_categories"]
    lines.append(f"HIPAA categories with leaks: {', '.join(leaked_cats) or 'none'}")
    if result["unknown_labels"]:
        lines.append(
            "Labels outside the i2b2 scheme, counted as HIPAA: "
            f"{', '.join(result['unknown_labels'])} (see --label-map)"
        )
    lines += _format_records(result["records"], top)
    lines += _format_notes(notes, top)
    return "\n".join(lines) + "\n"


def _format_records(records: List[Dict[str, Any]], top: Optional[int]) -> List[str]:
    if not records:
        return ["", "No record has a leaked PHI string."]
    shown = records if top is None else records[:top]
    lines = ["", f"Records to review first ({len(shown)} of {len(records)}):"]
    for rec in shown:
        labels = ", ".join(f"{lab} {n}" for lab, n in rec["labels"].items())
        lines.append(
            f"  {rec['id']}: {rec['hipaa_leaks']} HIPAA, {rec['leaks']} in all "
            f"({labels})"
        )
    return lines


def _format_notes(notes: Dict[str, Any], top: Optional[int]) -> List[str]:
    limit = 20 if top is None else max(top, 20)
    lines = []
    for key, what in (
        ("rejected", "rejected by the run (not audited)"),
        ("absent", "absent from the de-identified output (not audited)"),
        ("extra", "in the de-identified output but not in gold"),
        ("repeated", "repeated in the de-identified output (all copies audited)"),
    ):
        if notes[key]:
            ids = _id_list(notes[key], limit)
            lines.append(f"WARNING: {len(notes[key])} records {what}: {ids}")
    return [""] + lines if lines else []

"""Residual-risk audit: which gold PHI survives in de-identified output.

Given the original notes with gold spans and the de-identified texts, report
per label and per HIPAA category how many gold PHI strings leaked verbatim,
the leak rate overall and for HIPAA labels, the records to review first and
the records that are missing from, or extra in, the de-identified output.

The matching rule is that of `leak.py`: a gold string (stripped) is found
when it occurs case-sensitively as a whole word sequence in the de-identified
text of the same note; strings shorter than `min_length` are skipped and
counted; every gold span counts once. A string found there is judged by the
input note and by the pipeline's policy, in this order:
- outside: the input note also holds the string outside every gold span
  ("40" in "omeprazole 40 mg"), and the output holds it no more often than
  those occurrences: it may be the non-PHI one, so it is not a leak;
- kept: an age that `phi_surrogates` keeps as it is (ages <= 89 with
  `keep_ages_under_90`, its default; "90s"), by the same rule
  (`surrogates.ages.is_age_kept`). Safe Harbor allows it: not a leak;
- surrogate: given the output offsets of the replaced spans (`spacy-deid run
  --with-offsets`), every occurrence in the output lies inside the surrogate
  of a span whose original text does not hold the string: a date shift that
  turns one weekday into another the note also has, "May" as a month in a
  shifted date. Not the original, so not a leak; a surrogate that reproduces
  its own original (a weekday shifted by whole weeks) still leaks;
- leaked: any other string found (so also one found more often in the
  output than outside the gold spans of the input: a gold one survived).

Labels outside the i2b2 scheme (e.g. MEDDOCAN types read without a label map,
or categories) cannot be checked against HIPAA: to fail closed they count as
HIPAA, under the category "UNKNOWN", and are listed in `unknown_labels`.

The result holds ids, labels, counts and gold offsets only. With
`show_text=True` each leaked span also carries its `text`: the result then
contains PHI.
"""

from collections import defaultdict
from dataclasses import dataclass, field
from typing import (
    Any,
    Dict,
    Iterable,
    List,
    Mapping,
    Optional,
    Sequence,
    Tuple,
    Union,
)

from ..core.errors import CorpusError
from ..core.types import Note, PhiSpan
from ..labels import CATEGORIES, LABELS, normalize_label
from ..labels.maps import meddocan_to_i2b2
from ..surrogates.ages import is_age_kept
from .leak import count_outside, find_words, leaks_in

UNKNOWN_CATEGORY = "UNKNOWN"
_AGE = LABELS["AGE"].name
# How a gold string found in the output is judged (see the module docstring).
LEAKED, KEPT, OUTSIDE, SURROGATE = "leaked", "kept", "outside", "surrogate"
# Texts per note id: one de-identified text, or several if the id repeats.
DeidTexts = Mapping[str, Union[str, Sequence[str]]]
# A replaced span of an output: (start, end) in the input, (out_start,
# out_end) in the output, as `spacy-deid run --with-offsets` writes them.
Replaced = Tuple[int, int, int, int]
# Replaced spans per note id, one list per de-identified text of the id.
DeidReplaced = Mapping[str, Sequence[Sequence[Replaced]]]


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


@dataclass
class LabelTally:
    """Counts of one label's gold strings: leaked, kept, outside, in another
    span's surrogate, total."""

    leaked: int = 0
    kept: int = 0
    outside: int = 0
    surrogate: int = 0
    total: int = 0

    def add(self, other: "LabelTally") -> None:
        self.leaked += other.leaked
        self.kept += other.kept
        self.outside += other.outside
        self.surrogate += other.surrogate
        self.total += other.total

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (dict): leaked, total, rate, kept, outside, surrogate."""
        counts = {"kept": self.kept, "outside": self.outside}
        counts["surrogate"] = self.surrogate
        return {**_rate(self.leaked, self.total), **counts}


def kept_by_policy(label: str, surface: str, keep_ages_under_90: bool) -> bool:
    """Whether the pipeline's policy keeps a gold string as it is: an age (its
    own label or, for a MEDDOCAN type, its i2b2 equivalent) that
    `phi_surrogates` keeps.

    label (str): A canonical label.
    surface (str): The gold string.
    keep_ages_under_90 (bool): The `phi_surrogates` setting of the run.
    RETURNS (bool): True if the policy keeps it.
    """
    if meddocan_to_i2b2(label, surface) != _AGE:
        return False
    return is_age_kept(surface, (), keep_ages_under_90)


def judge(
    found: int, outside: int, kept: bool, in_surrogates: int = 0
) -> Optional[str]:
    """How a gold string is judged from its counts.

    found (int): Its whole-word occurrences in the output that no other
        span's surrogate explains (the most in any output of the id).
    outside (int): Its occurrences outside every gold span of the input.
    kept (bool): Whether the policy keeps it (`kept_by_policy`).
    in_surrogates (int): Its occurrences inside the surrogates of spans whose
        original does not hold it (see `occurrences`).
    RETURNS (Optional[str]): LEAKED, KEPT, OUTSIDE, SURROGATE, or None (not
        found).
    """
    if not found:
        return SURROGATE if in_surrogates else None
    if found <= outside:
        return OUTSIDE
    return KEPT if kept else LEAKED


def occurrences(
    surface: str, output: str, source: str, replaced: Sequence[Replaced] = ()
) -> Tuple[int, int]:
    """Whole-word occurrences of a gold string in one output: those that lie
    inside the surrogate of a replaced span whose original text (in `source`)
    does not hold the string, and the others.

    surface (str): The gold string.
    output (str): The de-identified text.
    source (str): The input note the replaced spans index.
    replaced (Sequence[Replaced]): The output's replaced spans; ignored
        entirely if any lies outside either text (another input's offsets).
    RETURNS (Tuple[int, int]): (inside other surrogates, elsewhere).
    """
    if not all(_fits(span, source, output) for span in replaced):
        replaced = ()
    others = [
        (out_start, out_end)
        for start, end, out_start, out_end in replaced
        if not leaks_in(surface, source[start:end])
    ]
    inside = elsewhere = 0
    for match in find_words(surface, output):
        if any(a <= match.start() and match.end() <= b for a, b in others):
            inside += 1
        else:
            elsewhere += 1
    return inside, elsewhere


def _fits(span: Replaced, source: str, output: str) -> bool:
    start, end, out_start, out_end = span
    return 0 <= start <= end <= len(source) and 0 <= out_start <= out_end <= len(output)


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
    note: Note,
    index: int,
    outputs: Sequence[str],
    min_length: int,
    show_text: bool,
    keep_ages_under_90: bool = True,
    replaced: Optional[Sequence[Sequence[Replaced]]] = None,
) -> tuple:
    """Count the gold spans of one note and collect the leaked ones.

    replaced (Optional[Sequence[Sequence[Replaced]]]): Each output's replaced
        spans, parallel to `outputs` (None: unknown).
    RETURNS (tuple): ({label: LabelTally}, skipped, RecordLeaks).
    """
    if replaced is None or len(replaced) != len(outputs):
        replaced = [()] * len(outputs)
    tallies: Dict[str, LabelTally] = defaultdict(LabelTally)
    skipped = 0
    record = RecordLeaks(note.id, index)
    gold = sorted(note.spans)
    counts: Dict[str, tuple] = {}
    for span in gold:
        surface = note.text[span.start : span.end].strip()
        if len(surface) < min_length:
            skipped += 1
            continue
        label = normalize_label(span.label)
        tally = tallies[label]
        tally.total += 1
        if surface not in counts:
            seen = [
                occurrences(surface, output, note.text, spans)
                for output, spans in zip(outputs, replaced, strict=True)
            ]
            found = max(elsewhere for _, elsewhere in seen)
            outside = count_outside(surface, note.text, gold) if found else 0
            counts[surface] = (found, outside, max(inside for inside, _ in seen))
        found, outside, in_surrogates = counts[surface]
        kept = kept_by_policy(label, surface, keep_ages_under_90)
        verdict = judge(found, outside, kept, in_surrogates)
        if verdict == KEPT:
            tally.kept += 1
        elif verdict == OUTSIDE:
            tally.outside += 1
        elif verdict == SURROGATE:
            tally.surrogate += 1
        elif verdict == LEAKED:
            tally.leaked += 1
            record.spans.append(_leaked_span(span, label, surface, show_text))
    return tallies, skipped, record


def _leaked_span(
    span: PhiSpan, label: str, surface: str, show_text: bool
) -> Dict[str, Any]:
    info = label_info(label)
    leaked = {"start": span.start, "end": span.end, "label": label}
    leaked.update(hipaa=info["hipaa"], category=info["category"])
    if show_text:
        leaked["text"] = surface
    return leaked


def rank_records(records: Iterable[RecordLeaks]) -> List[RecordLeaks]:
    """Records with leaks, most leaked HIPAA strings first, then most leaks,
    then in gold order."""
    leaked = [r for r in records if r.spans]
    return sorted(leaked, key=lambda r: (-r.hipaa_leaks, -len(r.spans), r.index))


def _per_category(per_label: Dict[str, LabelTally]) -> Dict[str, Dict[str, Any]]:
    """Leak counts per category over the HIPAA labels only."""
    sums: Dict[str, LabelTally] = defaultdict(LabelTally)
    for label, tally in per_label.items():
        info = label_info(label)
        if info["hipaa"]:
            sums[info["category"]].add(tally)
    order = CATEGORIES + [UNKNOWN_CATEGORY]
    return {cat: sums[cat].to_dict() for cat in order if cat in sums}


def _sum(tallies: Iterable[LabelTally]) -> LabelTally:
    result = LabelTally()
    for tally in tallies:
        result.add(tally)
    return result


def audit(
    gold: Iterable[Note],
    deid_texts: DeidTexts,
    rejected: Iterable[str] = (),
    min_length: int = 2,
    show_text: bool = False,
    keep_ages_under_90: bool = True,
    replaced: Optional[DeidReplaced] = None,
) -> Dict[str, Any]:
    """Residual-risk report of a de-identified corpus against its gold PHI.

    gold (Iterable[Note]): Original notes with gold spans (unique ids).
    deid_texts (DeidTexts): De-identified text per note id, or a list of
        texts (see `group_texts`); an id given several texts (a repeated output record) leaks if any text leaks.
    rejected (Iterable[str]): Ids the run rejected (from its reject file), to
        tell rejected records from absent ones.
    min_length (int): Skip gold strings shorter than this (after stripping).
    show_text (bool): Put the leaked strings in the result (it contains PHI).
    keep_ages_under_90 (bool): The run's `phi_surrogates` setting (default:
        its default): ages it keeps are reported as kept, not leaked.
    replaced (Optional[DeidReplaced]): The replaced spans of each text of an
        id, with output offsets; strings found only inside other spans'
        surrogates are then reported as such, not leaked. None: unknown.
    RETURNS (Dict[str, Any]): The report; see `format_audit` and the CLI help.
    """
    replaced = replaced or {}
    gold = list(gold)
    _check_unique(gold)
    deid_texts = {
        key: [texts] if isinstance(texts, str) else list(texts)
        for key, texts in deid_texts.items()
    }
    rejected_ids = set(rejected)
    per_label: Dict[str, LabelTally] = defaultdict(LabelTally)
    records: List[RecordLeaks] = []
    skipped, missing = 0, []
    for index, note in enumerate(gold):
        if note.id not in deid_texts:
            missing.append(note.id)
            continue
        texts = deid_texts[note.id]
        tallies, note_skipped, record = _audit_note(
            note,
            index,
            texts,
            min_length,
            show_text,
            keep_ages_under_90,
            replaced.get(note.id),
        )
        skipped += note_skipped
        records.append(record)
        for label, tally in tallies.items():
            per_label[label].add(tally)
    gold_ids = {note.id for note in gold}
    hipaa = _sum(t for lab, t in per_label.items() if label_info(lab)["hipaa"])
    categories = _per_category(per_label)
    labels = {
        label: {**per_label[label].to_dict(), **label_info(label)}
        for label in sorted(per_label)
    }
    return {
        "overall": _sum(per_label.values()).to_dict(),
        "hipaa": hipaa.to_dict(),
        "hipaa_leak": hipaa.leaked > 0,
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
        "keep_ages_under_90": keep_ages_under_90,
        "output_offsets": sum(1 for note in gold if any(replaced.get(note.id, ()))),
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
    overall = result["overall"]
    ages = "kept" if result.get("keep_ages_under_90", True) else "replaced"
    lines = [
        f"Audited {notes['audited']} of {notes['gold']} gold notes "
        f"({result['skipped']} gold strings shorter than "
        f"{result['min_length']} characters skipped)",
        f"Leaked PHI strings, all labels: {_pct(overall)}",
        f"Leaked PHI strings, HIPAA labels: {_pct(result['hipaa'])}",
        f"Not leaks: {overall.get('kept', 0)} kept by the policy (ages <= 89 "
        f"{ages}, as phi_surrogates), {overall.get('outside', 0)} also outside "
        "every gold span of the input note, "
        f"{overall.get('surrogate', 0)} only in other spans' surrogates "
        f"({_offsets_note(result)})",
        "",
        f"{'label':<16}{'HIPAA':<7}{'category':<12}{'leaked':>8}{'total':>8}"
        f"{'rate':>9}{'kept':>7}{'outside':>9}{'in_sur':>8}",
    ]
    for label, row in result["per_label"].items():
        flag = "yes" if row["hipaa"] else "no"
        lines.append(
            f"{label:<16}{flag:<7}{row['category']:<12}{row['leaked']:>8}"
            f"{row['total']:>8}{100 * row['rate']:>8.2f}%"
            f"{row.get('kept', 0):>7}{row.get('outside', 0):>9}"
            f"{row.get('surrogate', 0):>8}"
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


def _offsets_note(result: Dict[str, Any]) -> str:
    with_offsets = result.get("output_offsets", 0)
    if not with_offsets:
        return (
            "not checked: the output has no out_start/out_end, see run --with-offsets"
        )
    return f"output offsets of {with_offsets} of {result['notes']['audited']} notes"


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

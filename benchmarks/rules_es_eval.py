"""Precision of the Spanish PHI rules on a MEDDOCAN-style JSONL file.

    python benchmarks/rules_es_eval.py ../shared/data/meddocan/train.jsonl
        [--families dates_es,ages_es,contact] [--label-map i2b22meddocan]
        [--limit N] [--json OUT]

Runs a blank "es" pipeline with the clinical tokenizer
(`spacy_deid.corpus.convert.make_converter_nlp("es")`) and `phi_rules` with
the given pattern families and label map, then prints:

- per pattern id: its matches (every accepted candidate, overlapping ones
  included, at the token-aligned offsets the ruler emits), how many of them
  won a place in `doc.ents`, and their precision against the gold spans of
  the mapped label: exact (same offsets) and overlap (overlaps a gold span
  of that label);
- per emitted label: strict P/R/F1 of `doc.ents` against the gold spans of
  that label (exact offsets and label), and the overlap recall.

Counts and ids only: no note text is printed. Tune patterns on train; the
dev figures are a measurement, not a target.
"""

import argparse
import json
from collections import Counter, defaultdict
from pathlib import Path
from typing import Dict, Iterable, List, Set, Tuple

from spacy.language import Language

from spacy_deid.corpus.convert import make_converter_nlp
from spacy_deid.corpus.jsonl import read_jsonl
from spacy_deid.core.types import Note
from spacy_deid.rules.patterns import default_patterns
from spacy_deid.rules.ruler import PhiRuler

DEFAULT_FAMILIES = "dates_es,ages_es,contact,ids"
Span3 = Tuple[int, int, str]


def build_pipeline(families: List[str], label_map: str) -> Language:
    """Blank "es" + clinical tokenizer + phi_rules (the given families)."""
    nlp = make_converter_nlp("es")
    nlp.add_pipe(
        "phi_rules",
        config={
            "patterns": {"@misc": "spacy_deid.phi_patterns.v1", "families": families},
            "label_map": label_map,
        },
    )
    return nlp


def _overlaps(span: Span3, gold: Iterable[Span3]) -> bool:
    start, end, label = span
    return any(g[2] == label and g[0] < end and start < g[1] for g in gold)


def evaluate(nlp: Language, notes: Iterable[Note]) -> Dict[str, Dict]:
    """Score the ruler's candidates (per pattern) and entities (per label).

    RETURNS (Dict[str, Dict]): "patterns" (id -> matches, won, exact,
        overlap), "labels" (label -> tp, fp, fn, overlap_found, support) and
        "notes" (count).
    """
    ruler: PhiRuler = nlp.get_pipe("phi_rules")
    patterns: Dict[str, Counter] = defaultdict(Counter)
    labels: Dict[str, Counter] = defaultdict(Counter)
    emitted = set(ruler.labels)
    count = 0
    texts = ((note.text, note) for note in notes)
    for doc, note in nlp.pipe(texts, as_tuples=True, batch_size=32):
        count += 1
        gold = [(s.start, s.end, s.label) for s in note.spans]
        gold_set = set(gold)
        ents: Set[Span3] = {(e.start_char, e.end_char, e.label_) for e in doc.ents}
        for cand in ruler.match(doc):
            span = doc.char_span(
                cand.start_char, cand.end_char, alignment_mode="expand"
            )
            label = ruler.map_label(cand.pattern.label, span.text if span else "")
            if span is None or label is None or label == "NOT_PHI":
                continue
            key = (span.start_char, span.end_char, label)
            row = patterns[cand.pattern.id]
            row["matches"] += 1
            row["won"] += key in ents
            row["exact"] += key in gold_set
            row["overlap"] += _overlaps(key, gold)
        for label in emitted:
            pred = {e for e in ents if e[2] == label}
            ref = {g for g in gold_set if g[2] == label}
            row = labels[label]
            row["tp"] += len(pred & ref)
            row["fp"] += len(pred - ref)
            row["fn"] += len(ref - pred)
            row["support"] += len(ref)
            row["overlap_found"] += sum(_overlaps(g, pred) for g in ref)
    return {"patterns": dict(patterns), "labels": dict(labels), "notes": count}


def _ratio(num: int, den: int) -> float:
    return num / den if den else 0.0


def format_patterns(rows: Dict[str, Counter], order: List[str]) -> str:
    """One line per pattern id: matches, won, exact and overlap precision."""
    head = f"{'pattern':<28}{'matches':>8}{'won':>6}{'exact P':>9}{'overlap P':>11}"
    lines = [head, "-" * len(head)]
    for pid in order:
        row = rows.get(pid, Counter())
        n = row["matches"]
        exact = f"{_ratio(row['exact'], n):.3f}" if n else "-"
        overlap = f"{_ratio(row['overlap'], n):.3f}" if n else "-"
        lines.append(f"{pid:<28}{n:>8}{row['won']:>6}{exact:>9}{overlap:>11}")
    return "\n".join(lines)


def label_scores(row: Counter) -> Dict[str, float]:
    """Strict precision, recall and F1, and the overlap recall."""
    p = _ratio(row["tp"], row["tp"] + row["fp"])
    r = _ratio(row["tp"], row["support"])
    f1 = _ratio(2 * p * r, p + r)
    return {"precision": p, "recall": r, "f1": f1,
            "overlap_recall": _ratio(row["overlap_found"], row["support"])}  # fmt: skip


def format_labels(rows: Dict[str, Counter]) -> str:
    """One line per emitted label: support, predicted, strict P/R/F1, overlap R."""
    head = (
        f"{'label':<34}{'support':>8}{'pred':>6}{'P':>8}{'R':>8}{'F1':>8}{'ovl R':>8}"
    )
    lines = [head, "-" * len(head)]
    for label in sorted(rows):
        row = rows[label]
        s = label_scores(row)
        lines.append(
            f"{label:<34}{row['support']:>8}{row['tp'] + row['fp']:>6}"
            f"{s['precision']:>8.3f}{s['recall']:>8.3f}{s['f1']:>8.3f}"
            f"{s['overlap_recall']:>8.3f}"
        )
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("input", type=Path, help="MEDDOCAN-style JSONL file")
    parser.add_argument("--families", default=DEFAULT_FAMILIES)
    parser.add_argument("--label-map", default="i2b22meddocan")
    parser.add_argument("--limit", type=int, default=0, help="First N notes (0: all)")
    parser.add_argument("--json", type=Path, default=None, help="Write figures here")
    args = parser.parse_args()
    families = [name for name in args.families.split(",") if name]
    nlp = build_pipeline(families, args.label_map)
    notes: Iterable[Note] = read_jsonl(args.input)
    if args.limit:
        notes = (note for i, note in enumerate(notes) if i < args.limit)
    result = evaluate(nlp, notes)
    order = [p["id"] for p in default_patterns(families=families)]
    print(f"file: {args.input.name}  notes: {result['notes']}")
    print(f"families: {','.join(families)}  label_map: {args.label_map}\n")
    print(format_patterns(result["patterns"], order))
    print()
    print(format_labels(result["labels"]))
    if args.json is not None:
        figures = {
            "file": args.input.name,
            "notes": result["notes"],
            "families": families,
            "label_map": args.label_map,
            "patterns": {k: dict(v) for k, v in result["patterns"].items()},
            "labels": {
                k: {**dict(v), **label_scores(v)} for k, v in result["labels"].items()
            },
        }
        args.json.write_text(json.dumps(figures, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()

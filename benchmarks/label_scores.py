"""Per-label precision/recall/F1 of the rules-only pipeline on generated notes.

    python benchmarks/label_scores.py [--notes 500] [--seed 3] [--split dev]
        [--model en] [--labels HOSPITAL,CITY]

Generates notes with `spacy_deid.synth.generate`, runs the shipped
pipeline without `phi_surrogates`, and prints strict per-label scores
(`spacy_deid.evaluate.evaluate_notes`) and the binary token recall. The
generator is a smoke test, not a held-out set: don't tune patterns to it.
"""

import argparse
from typing import Any, Dict, List

import spacy_deid
from spacy_deid.synth import generate
from spacy_deid.core.types import Note, PhiSpan
from spacy_deid.evaluate import evaluate_notes


def predict(nlp, notes: List[Note]) -> List[Note]:
    """Run the pipeline and return predicted notes with the same ids."""
    texts = (n.text for n in notes)
    out = []
    for note, doc in zip(notes, nlp.pipe(texts, batch_size=64), strict=True):
        spans = [PhiSpan(e.start_char, e.end_char, e.label_) for e in doc.ents]
        out.append(Note(id=note.id, text=note.text, spans=spans))
    return out


def format_labels(table: Dict[str, Any], only: List[str]) -> str:
    """Strict per-label rows: support, predicted, P, R, F1."""
    head = f"{'label':<16}{'support':>8}{'pred':>6}{'P':>8}{'R':>8}{'F1':>8}"
    rows = [head, "-" * len(head)]
    for label, row in table.items():
        if only and label not in only:
            continue
        s = row["strict"]
        pred = s["tp"] + s["fp"]
        rows.append(
            f"{label:<16}{s['support']:>8}{pred:>6}{s['precision']:>8.4f}"
            f"{s['recall']:>8.4f}{s['f1']:>8.4f}"
        )
    return "\n".join(rows)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--notes", type=int, default=500)
    parser.add_argument("--seed", type=int, default=3)
    parser.add_argument("--split", default="dev")
    parser.add_argument("--model", default="en")
    parser.add_argument("--labels", default="", help="Comma-separated labels")
    args = parser.parse_args()
    gold = list(generate(args.notes, seed=args.seed, split=args.split))
    nlp = spacy_deid.load(args.model)
    if "phi_surrogates" in nlp.pipe_names:
        nlp.remove_pipe("phi_surrogates")
    result = evaluate_notes(gold, predict(nlp, gold))
    only = [label for label in args.labels.split(",") if label]
    print(f"notes: {result['notes']}  split: {args.split}  seed: {args.seed}")
    print(format_labels(result["per_label"]["subcategory"], only))
    for measure in ("strict", "token", "binary_token"):
        mi = result[measure]["micro"]
        print(
            f"{measure:<13} micro P {mi['precision']:.4f}  R {mi['recall']:.4f}"
            f"  F1 {mi['f1']:.4f}"
        )
    print(f"binary token recall: {result['binary_token']['micro']['recall']:.4f}")


if __name__ == "__main__":
    main()

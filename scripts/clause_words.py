"""Derive `phi_relabel`'s clause settings from a train corpus's gold spans.

    python scripts/clause_words.py TRAIN.jsonl [--model en]
        [--labels PROFESSION,ORGANIZATION,...]

A lower-case stop word of the language inside a tagged span marks a clause
("nurse who visits on weekends") unless gold spans of that label hold such words.
Prints, as config lines for `[components.phi_relabel]`:

- `clause_kept`: per label, the lower-case stop words that the label's gold
  spans hold ("and" in "logistics and distribution manager");
- `clause_joiners`: the stop words that some gold span holds between two
  capitalised words ("and", "of": "Bureau of Prisons").

With `--word-labels` (the `clause_word_labels`), `clause_kept` also holds, for
those labels, the lower-case common words (`edges.common_word_marker`) that
the label's gold spans hold beside a capitalised word ("school" in "Holy
Family school"): common words that end no name of that label.

Tokens come from the pipeline's own tokenizer, so that they are the tokens
the component sees. Run it on the train split only. Prints no note text:
only stop words, which no note's PHI is.
"""

import argparse
import json
from collections import defaultdict
from typing import Dict, Iterator, List, Set, Tuple

import srsly
from spacy.tokens import Span

import spacy_deid
from spacy_deid.merge.edges import common_word_marker

DEFAULT_LABELS = (
    "PATIENT,DOCTOR,PROFESSION,ORGANIZATION,HOSPITAL,DEPARTMENT,"
    "CITY,STATE,COUNTRY,STREET,LOCATION_OTHER"
)


def gold_spans(path: str, model: str) -> Iterator[Span]:
    """Every gold span of the corpus, on the pipeline's tokens."""
    nlp = spacy_deid.load(model)
    for record in srsly.read_jsonl(path):
        doc = nlp.make_doc(record["text"])
        for s in record.get("spans", []):
            span = doc.char_span(s["start"], s["end"], s["label"], "expand")
            if span is not None:
                yield span


def clause_settings(
    spans: Iterator[Span],
    labels: Set[str],
    word_labels: Set[str] = frozenset(),
    min_name_count: int = 1000,
) -> Tuple[Dict, List]:
    """(clause_kept, clause_joiners) from gold spans."""
    kept: Dict[str, Set[str]] = defaultdict(set)
    joiners: Set[str] = set()
    for span in spans:
        if span.label_ in word_labels and any(
            t.is_alpha and t.text[:1].isupper() for t in span
        ):
            kept[span.label_].update(
                t.text for t in span if common_word_marker(t, min_name_count)
            )
        for t in span:
            if not (t.is_stop and t.is_alpha and t.is_lower):
                continue
            if span.label_ in labels:
                kept[span.label_].add(t.text)
            if span.start < t.i < span.end - 1:
                before, after = span.doc[t.i - 1], span.doc[t.i + 1]
                if before.text[:1].isupper() and after.text[:1].isupper():
                    joiners.add(t.text)
    kept_lists = {label: sorted(kept[label]) for label in sorted(kept)}
    return kept_lists, sorted(joiners)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("train", help="Train corpus (JSONL with gold spans)")
    parser.add_argument("--model", default="en", help="Pipeline whose tokenizer to use")
    parser.add_argument("--labels", default=DEFAULT_LABELS, help="Labels to derive")
    parser.add_argument(
        "--word-labels", default="", help="The clause_word_labels (comma-separated)"
    )
    parser.add_argument(
        "--min-name-count", type=int, default=1000, help="phi_relabel's min_name_count"
    )
    args = parser.parse_args()
    labels = set(args.labels.split(","))
    word_labels = set(filter(None, args.word_labels.split(",")))
    kept, joiners = clause_settings(
        gold_spans(args.train, args.model), labels, word_labels, args.min_name_count
    )
    print(f"clause_labels = {json.dumps(sorted(labels))}")
    print(f"clause_kept = {json.dumps(kept)}")
    print(f"clause_joiners = {json.dumps(joiners)}")


if __name__ == "__main__":
    main()

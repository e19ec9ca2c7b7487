"""Gold PHI that the detectors found and the later components lost.

    python benchmarks/relabel_drops.py GOLD.jsonl [--model en] [--notes 1000]
        [--after phi_ner]

Runs a pipeline twice over the first `--notes` annotated notes ({"id",
"text", "spans"}): once up to and including the component `--after` (by
default the last detector, `phi_ner`), once whole. A gold span is *lost*
when an entity of the first run overlaps it and none of the whole run does:
a check of `phi_relabel` or `phi_merge` that took real PHI for a quantity, a
drug, a common word or a piece of code. It prints those counts by gold label
and by the label the detectors gave, and the gold spans found in each run.
On the generator's train split this is a bug detector: its templates are the
ones the rules were written from, so every loss there is a check to look at.

Prints counts only, never note text. Numbers depend on the pipeline and the
notes: run it, read it, don't assert on it in tests.
"""

import argparse
import json
import warnings
from collections import Counter
from typing import Iterable, List, Sequence, Tuple

import spacy_deid

Span = Tuple[int, int, str]


def read_gold(path: str, limit: int) -> List[dict]:
    """The first `limit` annotated notes of a JSONL file."""
    notes = []
    with open(path, encoding="utf-8") as lines:
        for line in lines:
            if line.strip():
                notes.append(json.loads(line))
            if len(notes) >= limit:
                break
    return notes


def entities(nlp, texts: Iterable[str]) -> List[List[Span]]:
    """Each text's entities as (start_char, end_char, label)."""
    return [
        [(e.start_char, e.end_char, e.label_) for e in doc.ents]
        for doc in nlp.pipe(texts, batch_size=32)
    ]


def overlapping(spans: Sequence[Span], start: int, end: int) -> List[Span]:
    """The spans that share a character with [start, end)."""
    return [s for s in spans if s[0] < end and s[1] > start]


def lost_spans(
    notes: Sequence[dict], before: Sequence[List[Span]], after: Sequence[List[Span]]
) -> Tuple[Counter, int, int]:
    """Count the gold spans found before and lost after.

    RETURNS (Tuple[Counter, int, int]): (gold label, detected label) ->
        count of lost spans; gold spans found before; found after.
    """
    lost: Counter = Counter()
    found_before = found_after = 0
    for note, first, whole in zip(notes, before, after, strict=True):
        for gold in note["spans"]:
            early = overlapping(first, gold["start"], gold["end"])
            late = overlapping(whole, gold["start"], gold["end"])
            found_before += bool(early)
            found_after += bool(late)
            if early and not late:
                lost[(gold["label"], early[0][2])] += 1
    return lost, found_before, found_after


def main(argv=None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("gold")
    parser.add_argument("--model", default="en")
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--after", default="phi_ner", help="last component of run 1")
    args = parser.parse_args(argv)
    warnings.simplefilter("ignore")  # no key: surrogates are not written here
    nlp = spacy_deid.load(args.model)
    names = [name for name, _ in nlp.pipeline]
    if args.after not in names:
        parser.error(f"--after {args.after}: not in {names}")
    notes = read_gold(args.gold, args.notes)
    texts = [note["text"] for note in notes]
    with nlp.select_pipes(enable=names[: names.index(args.after) + 1]):
        before = entities(nlp, texts)
    after = entities(nlp, texts)
    lost, found_before, found_after = lost_spans(notes, before, after)
    total = sum(len(note["spans"]) for note in notes)
    print(f"{len(notes)} notes, {total} gold spans, pipeline {args.model}")
    print(f"found up to {args.after}: {found_before}; found by the whole: {found_after}")
    print(f"lost after {args.after}: {sum(lost.values())}")
    print(f"{'gold label':16} {'detected as':16} {'lost':>5}")
    for (gold, detected), count in lost.most_common():
        print(f"{gold:16} {detected:16} {count:5}")


if __name__ == "__main__":
    main()

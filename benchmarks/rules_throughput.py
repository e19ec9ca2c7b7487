"""Throughput and PHI counts of a pipeline on generated (or given) notes.

    python benchmarks/rules_throughput.py [--notes 2000] [--seed 7] [--input notes.jsonl]
        [--model en] [--n-process 1] [--rules-only]

Prints tokens/s and notes/s (one run after a warm-up), peak RSS, and how many
PHI spans the pipeline finds per label next to the gold counts (for generated
notes). Figures depend on the machine: run it, don't assert on it in tests.
"""

import argparse
import resource
import time
from collections import Counter
from typing import List, Tuple

import srsly

import spacy_deid
from spacy_deid.synth import generate
from spacy_deid.core.types import Note


def load_notes(args: argparse.Namespace) -> List[Note]:
    if args.input:
        return [Note.from_dict(r) for r in srsly.read_jsonl(args.input)]
    return list(generate(args.notes, seed=args.seed, split="all"))


def timed_pipe(nlp, notes: List[Note], n_process: int) -> Tuple[float, int, Counter]:
    found: Counter = Counter()
    n_tokens = 0
    start = time.perf_counter()
    texts = ((n.text, {"patient": n.patient}) for n in notes)
    for doc, _ in nlp.pipe(texts, as_tuples=True, n_process=n_process, batch_size=64):
        n_tokens += len(doc)
        found.update(e.label_ for e in doc.ents)
    return time.perf_counter() - start, n_tokens, found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--notes", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--input", default=None)
    parser.add_argument("--model", default="en")
    parser.add_argument("--n-process", type=int, default=1)
    parser.add_argument("--rules-only", action="store_true", help="Drop phi_surrogates")
    args = parser.parse_args()
    notes = load_notes(args)
    nlp = spacy_deid.load(args.model)
    if args.rules_only:
        nlp.remove_pipe("phi_surrogates")
    if "phi_surrogates" in nlp.pipe_names:
        nlp.get_pipe("phi_surrogates").set_key(b"benchmark-key-0123456789")
    timed_pipe(nlp, notes[:50], 1)  # warm-up
    seconds, n_tokens, found = timed_pipe(nlp, notes, args.n_process)
    gold = Counter(s.label for n in notes for s in n.spans)
    rss_mb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"pipeline: {nlp.pipe_names} n_process={args.n_process}")
    print(f"notes: {len(notes)}  tokens: {n_tokens}  seconds: {seconds:.2f}")
    print(f"tokens/s: {n_tokens / seconds:,.0f}  notes/s: {len(notes) / seconds:,.1f}")
    print(f"peak RSS (main process): {rss_mb:,.0f} MB")
    print(f"\n{'label':<16}{'found':>8}{'gold':>8}")
    for label in sorted(set(found) | set(gold)):
        print(f"{label:<16}{found[label]:>8}{gold[label]:>8}")
    print(f"{'TOTAL':<16}{sum(found.values()):>8}{sum(gold.values()):>8}")


if __name__ == "__main__":
    main()

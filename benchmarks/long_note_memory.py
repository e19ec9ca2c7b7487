"""Peak memory and time of one very long note (memory must not depend
on how long a note is).

    python benchmarks/long_note_memory.py [--chars 999000] [--model en] [--seed 3]

Builds one note of `--chars` characters from generated notes (joined by
blank lines; spaCy's default `max_length` is 1,000,000), runs it through
`runner.deidentify_items` (`phi_surrogates` in surrogate mode, as
`spacy-deid run`) in this process, and prints its tokens, seconds, whether
it was rejected, and the process's peak RSS before and after. `phi_ner`
predicts a doc of more than `segments.MAX_DOC_TOKENS` tokens in pieces; a
1,000,000-character note took 1.9 GB before, about 480 MB with pieces.
Never prints note text. Figures depend on the machine: run it, don't assert
on it in tests.
"""

import argparse
import resource
import time
import warnings

import spacy_deid
from spacy_deid.synth import generate
from spacy_deid.io.records import Record
from spacy_deid.run.runner import deidentify_items
from spacy_deid.surrogates.replacer import EphemeralKeyWarning


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def long_text(n_chars: int, seed: int) -> str:
    """Generated notes joined by blank lines, cut to `n_chars` characters."""
    parts, total = [], 0
    for note in generate(10**6, seed=seed, split="all"):
        parts.append(note.text)
        total += len(note.text) + 2
        if total >= n_chars:
            break
    return "\n\n".join(parts)[:n_chars]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--chars", type=int, default=999_000)
    parser.add_argument("--model", default="en")
    parser.add_argument("--seed", type=int, default=3)
    args = parser.parse_args()
    warnings.simplefilter("ignore", EphemeralKeyWarning)
    nlp = spacy_deid.load(args.model)
    text = long_text(args.chars, args.seed)
    nlp.max_length = max(nlp.max_length, len(text) + 1)
    n_tokens = len(nlp.make_doc(text))
    before = peak_rss_mb()
    start = time.perf_counter()
    (output,) = list(deidentify_items(nlp, [Record(0, "long", text)]))
    seconds = time.perf_counter() - start
    rejected = getattr(output, "error", None) or "no"
    print(
        f"model {args.model}: one note of {len(text):,} characters, {n_tokens:,} tokens"
    )
    print(
        f"time {seconds:.1f} s ({n_tokens / seconds:,.0f} tokens/s), rejected: {rejected}"
    )
    print(f"peak RSS {peak_rss_mb():.0f} MB (loaded and tokenized: {before:.0f} MB)")


if __name__ == "__main__":
    main()

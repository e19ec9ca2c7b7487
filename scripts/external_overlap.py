"""Phrases that the generator's train split shares with an external note set.

An evaluation set written outside this repository only measures generalization
while none of its phrasing has leaked into the generator's templates or value
lists. This script generates train notes and prints each word n-gram (default:
five words) that occurs both in them and in the external notes, with how many
generated notes hold it. Generic clinical phrasing (operative and letter
formulas) is expected; a phrase in the external notes' own wording, with their
names, hobbies or turns of phrase, means a template copied it and must be
rewritten. Only phrases the generator also wrote are printed; run it on
fictional evaluation notes, never on real ones.

    python scripts/external_overlap.py ../shared/data/en_notes/docs.jsonl \
        [--notes 4000] [--n 5] [--seed 1]
"""

import argparse
import json
import re
from collections import Counter
from pathlib import Path
from typing import Iterable, Iterator, Optional, Sequence, Set, Tuple

from spacy_deid.synth import generate

_WORD = re.compile(r"[a-z0-9']+")


def ngrams(text: str, n: int) -> Iterator[Tuple[str, ...]]:
    """The word n-grams of a text, lower-cased."""
    words = _WORD.findall(text.lower())
    for i in range(len(words) - n + 1):
        yield tuple(words[i : i + n])


def shared_ngrams(
    external: Iterable[str], generated: Iterable[str], n: int
) -> Counter:
    """n-gram -> how many generated texts hold it, for those the external
    texts hold too."""
    wanted: Set[Tuple[str, ...]] = set()
    for text in external:
        wanted.update(ngrams(text, n))
    shared: Counter = Counter()
    for text in generated:
        shared.update(set(ngrams(text, n)) & wanted)
    return shared


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("external", type=Path, help="JSONL with a 'text' field")
    parser.add_argument("--notes", type=int, default=4000, help="train notes made")
    parser.add_argument("--n", type=int, default=5, help="words per phrase")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    with args.external.open(encoding="utf-8") as file:
        external = [json.loads(line)["text"] for line in file if line.strip()]
    notes = generate(args.notes, seed=args.seed, split="train", everyday_rate=0.4)
    shared = shared_ngrams(external, (note.text for note in notes), args.n)
    print(f"{len(shared)} shared {args.n}-word phrases in {args.notes} train notes")
    for phrase, count in shared.most_common():
        print(f"{count:6d}  {' '.join(phrase)}")


if __name__ == "__main__":
    main()

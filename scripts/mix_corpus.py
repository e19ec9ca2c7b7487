"""A training corpus mixed from several corpus JSONL files, some repeated.

The shipped `phi_ner` was last fine-tuned on generated notes and on the notes
by other hands (`benchmarks/data/other_hands_en.txt`), whose layouts the
generator does not write: these are few, so each is repeated. Notes whose id
starts with a dropped prefix stay out (the batches kept back for evaluation).

    python scripts/mix_corpus.py train_mix.jsonl train.jsonl oh.jsonl:5 \
        --drop hwV- hwW- hwX- hwY- hwZ- hwAA-

Each input is FILE or FILE:REPEAT; a repeated note's id gets "-x<k>" so that
every id stays unique. Lines are written in input order (`spacy train`
shuffles).
"""

import argparse
import json
from pathlib import Path
from typing import Iterator, List, Sequence, Tuple


def parse_input(spec: str) -> Tuple[Path, int]:
    """FILE or FILE:REPEAT as (path, repeat)."""
    path, _, repeat = spec.rpartition(":")
    if path and repeat.isdigit() and int(repeat) > 0:
        return Path(path), int(repeat)
    return Path(spec), 1


def mixed(inputs: Sequence[Tuple[Path, int]], drop: Sequence[str]) -> Iterator[dict]:
    """The records of the inputs, repeated, without those of dropped ids."""
    for path, repeat in inputs:
        records = [json.loads(line) for line in path.open(encoding="utf8") if line.strip()]
        kept = [r for r in records if not str(r["id"]).startswith(tuple(drop))]
        for k in range(repeat):
            for record in kept:
                yield record if repeat == 1 else {**record, "id": f"{record['id']}-x{k}"}


def main(argv: List[str] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("output", type=Path)
    parser.add_argument("inputs", nargs="+", help="FILE or FILE:REPEAT")
    parser.add_argument("--drop", nargs="*", default=[], help="id prefixes left out")
    args = parser.parse_args(argv)
    n = 0
    with args.output.open("w", encoding="utf8") as out:
        for record in mixed([parse_input(s) for s in args.inputs], args.drop):
            out.write(json.dumps(record, ensure_ascii=False) + "\n")
            n += 1
    print(f"Wrote {n} notes to {args.output}")


if __name__ == "__main__":
    main()

"""Prediction speed of a trained `phi_ner` pipeline.

    python benchmarks/ner_speed.py PIPELINE_DIR --input notes.jsonl [--docs 200]
        [--batch-size 32] [--profile]

Reads the "text" of each JSONL line (first N), tokenizes once, then times
`phi_ner.predict` (model + Viterbi + marginals) and `set_annotations`
separately and prints tokens/s for each and for both, after one warm-up
batch. `--profile` prints the top functions of a cProfile run of predict.
Numbers depend on the machine (and on BLAS threads): run it, don't assert on
it in tests.
"""

import argparse
import cProfile
import pstats
import time
from typing import List

import spacy
import srsly
from spacy.tokens import Doc


def read_docs(nlp, path: str, n_docs: int) -> List[Doc]:
    texts = []
    for record in srsly.read_jsonl(path):
        texts.append(record["text"])
        if len(texts) >= n_docs:
            break
    return [nlp.make_doc(text) for text in texts]


def time_ner(ner, docs: List[Doc], batch_size: int) -> None:
    batches = [docs[i : i + batch_size] for i in range(0, len(docs), batch_size)]
    ner.predict(batches[0])  # warm-up
    n_tokens = sum(len(doc) for doc in docs)
    start = time.perf_counter()
    preds = [ner.predict(batch) for batch in batches]
    predict_s = time.perf_counter() - start
    start = time.perf_counter()
    for batch, pred in zip(batches, preds, strict=True):
        ner.set_annotations(batch, pred)
    annotate_s = time.perf_counter() - start
    total = predict_s + annotate_s
    print(f"docs: {len(docs)}, tokens: {n_tokens}, batch size: {batch_size}")
    print(
        f"predict:         {n_tokens / predict_s:10,.0f} tokens/s ({predict_s:.2f} s)"
    )
    print(f"set_annotations: {n_tokens / annotate_s:10,.0f} tokens/s")
    print(f"total:           {n_tokens / total:10,.0f} tokens/s")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("pipeline", help="Directory of a trained pipeline")
    parser.add_argument("--input", required=True, help="JSONL with a 'text' field")
    parser.add_argument("--docs", type=int, default=200)
    parser.add_argument("--batch-size", type=int, default=32)
    parser.add_argument("--component", default="phi_ner")
    parser.add_argument("--profile", action="store_true")
    args = parser.parse_args()
    nlp = spacy.load(args.pipeline)
    ner = nlp.get_pipe(args.component)
    docs = read_docs(nlp, args.input, args.docs)
    time_ner(ner, docs, args.batch_size)
    if args.profile:
        profiler = cProfile.Profile()
        profiler.enable()
        for i in range(0, len(docs), args.batch_size):
            ner.predict(docs[i : i + args.batch_size])
        profiler.disable()
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()

"""Where the time of a run goes: microseconds per token for reading the
input, each pipeline component and writing the output, for one or more
pipelines measured side by side.

    python benchmarks/component_profile.py NOTES.jsonl [--pipelines en,en_rules]
        [--notes 500] [--batch-size 64] [--repeats 2]

A pipeline given as "en:uncached" runs without the tagger's word cache.

Reads the first `--notes` records of a JSONL file ({"id", "text"}), then runs
every pipeline over the same batches, alternating which goes first from
batch to batch, so that a busy or throttled machine slows all of them alike
(on a shared 2-core machine whole runs of the same pipeline vary by 10-20%;
interleaved batches by a few percent). Times are CPU time of this process
(`time.process_time`), after one warm-up batch per pipeline. "read" parses
the JSONL lines, "write" serialises the output records (text, spans) as
`spacy-deid run` writes them; every pipeline runs in surrogate mode with a
fixed benchmark key. A pipeline name is a shipped pipeline or a path.
A component that reads span scores (`phi_consistency`) makes the tagger
compute its CRF marginals; without one, the tagger skips them, as in a run.
Numbers depend on the machine: run it, don't assert on it in tests.
"""

import argparse
import json
import time
from collections import Counter
from typing import Dict, List

import spacy_deid
from spacy_deid.ner._word_cache import word_caches

BENCH_KEY = "component-profile-benchmark-key"


def read_lines(path: str, n_notes: int) -> List[str]:
    """The first `n_notes` JSONL lines, unparsed."""
    lines: List[str] = []
    with open(path, encoding="utf8") as f:
        for line in f:
            if line.strip():
                lines.append(line)
            if len(lines) >= n_notes:
                break
    return lines


def open_pipeline(name: str):
    """The pipeline, with span scores off where nothing reads them; a name
    ending in ":uncached" turns the tagger's word cache off."""
    path, uncached = name.removesuffix(":uncached"), name.endswith(":uncached")
    nlp = spacy_deid.load(path)
    if uncached and "phi_ner" in nlp.pipe_names:
        for cache in word_caches(nlp.get_pipe("phi_ner").model):
            cache.max_words = 0
    for _, proc in nlp.pipeline:
        if hasattr(proc, "set_key"):
            proc.set_key(BENCH_KEY)
    if "phi_consistency" not in nlp.pipe_names and "phi_ner" in nlp.pipe_names:
        nlp.get_pipe("phi_ner").with_scores = False
    return nlp


def run_batch(nlp, lines: List[str], times: Counter) -> None:
    """Read, run and write one batch, adding CPU seconds to `times`."""
    start = time.process_time()
    records = [json.loads(line) for line in lines]
    times["read"] += time.process_time() - start
    start = time.process_time()
    docs = [nlp.make_doc(record["text"]) for record in records]
    times["tokenizer"] += time.process_time() - start
    for name, proc in nlp.pipeline:
        start = time.process_time()
        if hasattr(proc, "pipe"):
            docs = list(proc.pipe(docs))
        else:
            docs = [proc(doc) for doc in docs]
        times[name] += time.process_time() - start
    start = time.process_time()
    for record, doc in zip(records, docs, strict=True):
        spans = [
            {"start": e.start_char, "end": e.end_char, "label": e.label_}
            for e in doc.ents
        ]
        json.dumps({"id": record["id"], "text": doc._.deidentified, "spans": spans})
    times["write"] += time.process_time() - start


def profile(lines: List[str], names: List[str], batch_size: int, repeats: int):
    """CPU seconds per stage and pipeline."""
    nlps = {name: open_pipeline(name) for name in names}
    for nlp in nlps.values():
        run_batch(nlp, lines[:batch_size], Counter())
    times: Dict[str, Counter] = {name: Counter() for name in names}
    batches = [lines[i : i + batch_size] for i in range(0, len(lines), batch_size)]
    for _ in range(repeats):
        for b, batch in enumerate(batches):
            order = names if b % 2 == 0 else names[::-1]
            for name in order:
                run_batch(nlps[name], batch, times[name])
    n_tokens = sum(len(nlps[names[0]].make_doc(json.loads(x)["text"])) for x in lines)
    return times, n_tokens * repeats


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("notes")
    parser.add_argument("--pipelines", default="en")
    parser.add_argument("--notes", dest="n_notes", type=int, default=500)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--repeats", type=int, default=2)
    args = parser.parse_args()
    names = [n for n in args.pipelines.split(",") if n]
    if len(set(names)) != len(names):
        parser.error("--pipelines: each pipeline once (give a copy another path)")
    lines = read_lines(args.notes, args.n_notes)
    times, n_tokens = profile(lines, names, args.batch_size, args.repeats)
    stages = list(dict.fromkeys(s for name in names for s in times[name]))
    width = max(len(s) for s in stages + ["total"])
    print(f"{len(lines)} notes, {n_tokens // args.repeats} tokens; us per token")
    print(" " * width, *(f"{name[-14:]:>14}" for name in names))
    for stage in stages + ["total"]:
        row = []
        for name in names:
            secs = sum(times[name].values()) if stage == "total" else times[name][stage]
            row.append(f"{secs / n_tokens * 1e6:14.2f}")
        print(f"{stage:{width}}", *row)
    base = sum(times[names[0]].values())
    for name in names[1:]:
        print(f"{names[0]} / {name}: {base / sum(times[name].values()):.3f}")


if __name__ == "__main__":
    main()

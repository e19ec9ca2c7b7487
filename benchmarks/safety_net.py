"""What `phi_safety_net` adds: binary PHI-token recall and precision of a
pipeline without and with the net, on a gold JSONL corpus.

    spacy-deid synth 300 dev.jsonl --seed 2 --split dev
    python benchmarks/safety_net.py dev.jsonl [--pipeline en] \
        [--set min_name_count=50 --set max_word_zipf=3.5]

The pipeline (a shipped name or a directory, default `en`) runs once with
`phi_surrogates` and any `phi_safety_net` switched off; its `doc.ents` are
scored, then the net (added before `phi_surrogates` when the pipeline has
none; `--set` overrides its settings) runs on the same docs and they are
scored again, with `spacy_deid.evaluate.evaluate_notes` (the i2b2 2014
binary token measure, micro). Also printed: the spans the net added per cue
class and how many of their tokens are gold PHI. No note text is printed.
"""

import argparse
import json
from collections import Counter
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
import spacy_deid.safetynet  # noqa: F401 - registers "phi_safety_net"
from spacy_deid.corpus import Note, PhiSpan, read_jsonl
from spacy_deid.evaluate import evaluate_notes
from spacy_deid.safetynet import SOURCE

NET = "phi_safety_net"


def load(pipeline: str, settings: Dict[str, Any]) -> Tuple[Language, Any]:
    """The pipeline and its net (added when absent, before `phi_surrogates`)."""
    if Path(pipeline).exists():
        nlp = spacy.load(pipeline)
    else:
        nlp = spacy_deid.load(pipeline)
    if NET in nlp.pipe_names and settings:
        nlp.remove_pipe(NET)
    if NET not in nlp.pipe_names:
        where = (
            {"before": "phi_surrogates"} if "phi_surrogates" in nlp.pipe_names else {}
        )
        nlp.add_pipe(NET, config=settings, **where)
    return nlp, nlp.get_pipe(NET)


def parse_settings(items: Sequence[str]) -> Dict[str, Any]:
    """`key=value` pairs, values read as JSON where they parse ("50", "null")."""
    settings = {}
    for item in items:
        key, _, value = item.partition("=")
        try:
            settings[key] = json.loads(value)
        except ValueError:
            settings[key] = value
    return settings


def to_note(gold: Note, doc: Doc) -> Note:
    spans = [PhiSpan(e.start_char, e.end_char, e.label_) for e in doc.ents]
    return Note(id=gold.id, text=gold.text, spans=spans)


def binary(gold: List[Note], pred: List[Note]) -> Dict[str, float]:
    """Micro binary PHI-token precision, recall and F1."""
    return evaluate_notes(gold, pred)["binary_token"]["micro"]


def added_tokens(gold: Note, doc: Doc) -> Tuple[Counter, Counter]:
    """Per cue class: tokens the net added, and how many are gold PHI."""
    phi = [False] * len(gold.text)
    for span in gold.spans:
        phi[span.start : span.end] = [True] * (span.end - span.start)
    added: Counter = Counter()
    right: Counter = Counter()
    for ent in doc.ents:
        source = ent._.phi_source or ""
        if not source.startswith(SOURCE + ":"):
            continue
        kind = source.split(":", 1)[1]
        for token in ent:
            added[kind] += 1
            right[kind] += int(any(phi[token.idx : token.idx + len(token)]))
    return added, right


def main(argv: Optional[Sequence[str]] = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("gold", type=Path, help="gold corpus JSONL")
    parser.add_argument("--pipeline", default="en", help="shipped name or directory")
    parser.add_argument("--set", action="append", default=[], help="net setting k=v")
    parser.add_argument("--limit", type=int, default=None, help="first N notes")
    parser.add_argument("--batch-size", type=int, default=64)
    args = parser.parse_args(argv)
    gold = list(read_jsonl(args.gold))[: args.limit]
    nlp, net = load(args.pipeline, parse_settings(args.set))
    off = [name for name in (NET, "phi_surrogates") if name in nlp.pipe_names]
    with nlp.select_pipes(disable=off):
        docs = list(nlp.pipe((n.text for n in gold), batch_size=args.batch_size))
    without = [to_note(g, d) for g, d in zip(gold, docs, strict=True)]
    docs = list(net.pipe(docs))
    with_net = [to_note(g, d) for g, d in zip(gold, docs, strict=True)]
    added: Counter = Counter()
    right: Counter = Counter()
    for note, doc in zip(gold, docs, strict=True):
        a, r = added_tokens(note, doc)
        added.update(a)
        right.update(r)
    print(f"notes: {len(gold)}  pipeline: {args.pipeline}  net: {json.dumps(net.cfg)}")
    print(f"{'':16}{'precision':>10}{'recall':>10}{'f1':>10}")
    for name, pred in (("without net", without), ("with net", with_net)):
        s = binary(gold, pred)
        print(f"{name:16}{s['precision']:>10.4f}{s['recall']:>10.4f}{s['f1']:>10.4f}")
    print("tokens added by the net (gold PHI / added):")
    for kind in sorted(added):
        print(f"  {kind:12}{right[kind]:>6} / {added[kind]}")


if __name__ == "__main__":
    main()

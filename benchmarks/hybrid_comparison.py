"""Hybrid detection compared: rules, phi_ner, phi_crf and each merge strategy, with and
without consistency, on the English withheld-style dev set and MEDDOCAN dev.

    python benchmarks/hybrid_comparison.py --en-dev EN_DEV.jsonl --crf-en CRF_EN_DIR
        [--es-dev ES_DEV.jsonl --crf-es CRF_ES_DIR] [--en-pipeline en]
        [--es-pipeline es_meddocan] [--limit N] [--shuffles 9999]
        [--batch-size 64] [--json OUT.json]

Each dev set is run once through one detection pipeline: `--en-pipeline` or
`--es-pipeline` (a shipped name or a directory; default the shipped "en" and
"es_meddocan") without `phi_surrogates`, with `phi_ner` writing
`doc.spans["phi_ner"]` (`spans_key`) and the trained `phi_crf` (a `spacy
train` output of configs/crf_en.cfg or crf_meddocan.cfg) writing
`doc.spans["phi_crf"]`; `phi_rules` writes `doc.spans["phi_rules"]` and its
winners to `doc.ents`. The systems are then built from those span groups on
the same docs, so they differ only in how the detections are combined:

- rules: `phi_rules`'s entities;
- phi_ner, phi_crf: one model's spans alone;
- rules + phi_ner (shipped): the shipped merge (`phi_ner` with
  `overwrite_ents` and the pipeline's `protected_labels`);
- merge priority / union / vote: `phi_merge` over rules > phi_ner > phi_crf
  (the hybrid system's rule > character-level > token-level order; vote with
  2 of 3), with the same protected labels.

"+ consistency" runs `phi_consistency` after the system (patient scope:
English notes carry a patient id; MEDDOCAN notes are one scope each).
MEDDOCAN systems all end with the shipped pipeline's `phi_boundaries` (its
span conventions). Scores: strict micro F1 and binary PHI-token precision
and recall (`spacy_deid.evaluate`); p-values: approximate randomization
(`--shuffles`) of strict F1 and binary-token recall for the main comparisons.
No note text is printed. Figures depend on the machine only for time.
"""

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any, Callable, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

import spacy_deid
from spacy_deid.corpus import Note
from spacy_deid.evaluate.significance import approximate_randomization
from spacy_deid.merge.component import PhiMerger
from spacy_deid.tagging.ents import merge_ents

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy_speed import (
    docs_to_notes,  # noqa: E402
    accuracy_figures,
    find_es_dev,
    format_table,
    machine_info,
    read_gold,
)

SOURCES = ("phi_rules", "phi_ner", "phi_crf")
SHIPPED = {"en": "en", "es": "es_meddocan"}
AGE_LABELS = {"en": ["AGE"], "es": ["EDAD_SUJETO_ASISTENCIA"]}
# (system A, system B): the comparisons tested for significance.
COMPARISONS = (
    ("phi_ner", "phi_crf"),
    ("rules + phi_ner (shipped)", "phi_ner"),
    ("merge priority", "rules + phi_ner (shipped)"),
    ("merge union", "merge priority"),
    ("merge vote", "merge priority"),
    ("rules + phi_ner (shipped) + consistency", "rules + phi_ner (shipped)"),
    ("merge priority + consistency", "merge priority"),
    ("rules + consistency", "rules"),
)

System = Callable[[Doc, List[Span]], List[Span]]


def load_pipeline(name: str) -> Language:
    """A shipped pipeline by name, or a pipeline directory, without
    `phi_surrogates`."""
    if name in spacy_deid.PIPELINES:
        return spacy_deid.load(name, exclude=["phi_surrogates"])
    return spacy.load(name, exclude=["phi_surrogates"])


def detection_pipeline(pipeline: str, crf_dir: Path) -> Tuple[Language, List[str]]:
    """The pipeline with both models writing span groups, and the components
    to run after a system (MEDDOCAN: phi_boundaries)."""
    nlp = load_pipeline(pipeline)
    after = [name for name in nlp.pipe_names if name == "phi_boundaries"]
    for name in after:
        nlp.disable_pipe(name)
    nlp.get_pipe("phi_ner").cfg["spans_key"] = "phi_ner"
    crf_nlp = spacy.load(crf_dir)
    nlp.add_pipe("phi_crf", source=crf_nlp, after="phi_ner")
    nlp.get_pipe("phi_crf").cfg["spans_key"] = "phi_crf"
    return nlp, after


def systems(nlp: Language) -> Dict[str, System]:
    """Name -> function from (doc, rule entities) to the system's entities."""
    protected = list(nlp.get_pipe("phi_ner").cfg["protected_labels"])

    def group(key: str) -> System:
        return lambda doc, rules: list(doc.spans.get(key, []))

    def shipped(doc: Doc, rules: List[Span]) -> List[Span]:
        kept, new = merge_ents(
            rules, list(doc.spans["phi_ner"]), overwrite=True, protected=protected
        )
        return sorted(kept + new, key=lambda span: span.start)

    def merged(strategy: str) -> System:
        merger = PhiMerger(
            sources=SOURCES, strategy=strategy, protected_labels=protected
        )

        def run(doc: Doc, rules: List[Span]) -> List[Span]:
            return list(merger(doc).ents)

        return run

    return {
        "rules": lambda doc, rules: rules,
        "phi_ner": group("phi_ner"),
        "phi_crf": group("phi_crf"),
        "rules + phi_ner (shipped)": shipped,
        "merge priority": merged("priority"),
        "merge union": merged("union"),
        "merge vote": merged("vote"),
    }


def run_systems(
    lang: str, pipeline: str, gold: List[Note], crf_dir: Path, batch_size: int
) -> Dict[str, List[Note]]:
    """Predictions of every system, with and without consistency."""
    nlp, after = detection_pipeline(pipeline, crf_dir)
    pairs = [(note.text, {"patient": note.patient or note.id}) for note in gold]
    stream = nlp.pipe(pairs, as_tuples=True, batch_size=batch_size)
    docs = [doc for doc, _ in stream]
    rules = [list(doc.ents) for doc in docs]
    consistency = nlp.create_pipe(
        "phi_consistency", config={"exclude_labels": AGE_LABELS[lang]}
    )
    finish = [nlp.get_pipe(name) for name in after]
    preds: Dict[str, List[Note]] = {}
    for name, system in systems(nlp).items():
        for doc, doc_rules in zip(docs, rules, strict=True):
            doc.set_ents(system(doc, doc_rules), default="outside")
        preds[name] = docs_to_notes(
            gold, [_finish(doc, finish) for doc in _copies(docs)]
        )
        consistent = consistency.apply(_copies(docs), by_patient=True)
        preds[name + " + consistency"] = docs_to_notes(
            gold, [_finish(doc, finish) for doc in consistent]
        )
    return preds


def _copies(docs: List[Doc]) -> List[Doc]:
    """Independent copies (span groups, entities, extensions and context)."""
    copies = []
    for doc in docs:
        copy = doc.copy()
        copy._context = getattr(doc, "_context", None)
        copies.append(copy)
    return copies


def _finish(doc: Doc, components: List[Any]) -> Doc:
    for component in components:
        doc = component(doc)
    return doc


def figures(gold: List[Note], pred: List[Note]) -> Dict[str, float]:
    result = accuracy_figures(gold, pred)
    strict, binary = result["strict"]["micro"], result["binary_token"]["micro"]
    return {
        "strict_p": strict["precision"],
        "strict_r": strict["recall"],
        "strict_f1": strict["f1"],
        "bin_p": binary["precision"],
        "bin_r": binary["recall"],
    }


def significance(
    gold: List[Note], preds: Dict[str, List[Note]], shuffles: int
) -> List[Dict[str, Any]]:
    """AR p-values of strict F1 and binary-token recall per comparison."""
    rows = []
    for a, b in COMPARISONS:
        strict = approximate_randomization(gold, preds[a], preds[b], n=shuffles)
        binary = approximate_randomization(
            gold, preds[a], preds[b], n=shuffles, measure="binary_token"
        )
        rows.append(
            {
                "a": a,
                "b": b,
                "strict_f1_diff": strict["f1"]["diff"],
                "strict_f1_p": strict["f1"]["p_value"],
                "bin_r_diff": binary["recall"]["diff"],
                "bin_r_p": binary["recall"]["p_value"],
            }
        )
    return rows


def score_table(results: Dict[str, Dict[str, float]]) -> str:
    headers = ["system", "strict P", "strict R", "strict F1", "bin-tok P", "bin-tok R"]
    keys = ("strict_p", "strict_r", "strict_f1", "bin_p", "bin_r")
    rows = [[name] + [f"{r[k]:.4f}" for k in keys] for name, r in results.items()]
    return format_table(headers, rows)


def p_table(rows: List[Dict[str, Any]]) -> str:
    headers = ["A", "B", "strict F1 A-B", "p", "bin-tok R A-B", "p"]
    body = [
        [
            r["a"],
            r["b"],
            f"{r['strict_f1_diff']:+.4f}",
            f"{r['strict_f1_p']:.4f}",
            f"{r['bin_r_diff']:+.4f}",
            f"{r['bin_r_p']:.4f}",
        ]
        for r in rows
    ]
    return format_table(headers, body, left=(0, 1))


def run_dev(
    lang: str, pipeline: str, dev: Path, crf_dir: Path, args: argparse.Namespace
) -> Dict[str, Any]:
    gold = read_gold(dev, args.limit)
    start = time.perf_counter()
    preds = run_systems(lang, pipeline, gold, crf_dir, args.batch_size)
    results = {name: figures(gold, pred) for name, pred in preds.items()}
    tests = significance(gold, preds, args.shuffles)
    seconds = time.perf_counter() - start
    title = f"{lang} dev: {dev.name}, {len(gold)} notes, pipeline {pipeline}"
    print(f"\n## {title} ({seconds:.0f}s)\n")
    print(score_table(results))
    print(f"\nApproximate randomization, {args.shuffles} shuffles:\n")
    print(p_table(tests))
    return {
        "dev": str(dev),
        "pipeline": pipeline,
        "crf": str(crf_dir),
        "notes": len(gold),
        "shuffles": args.shuffles,
        "scores": results,
        "tests": tests,
    }


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--en-dev", type=Path)
    parser.add_argument("--en-pipeline", default=SHIPPED["en"])
    parser.add_argument("--es-pipeline", default=SHIPPED["es"])
    parser.add_argument("--crf-en", type=Path)
    parser.add_argument("--es-dev", type=Path, default=None)
    parser.add_argument("--crf-es", type=Path)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--shuffles", type=int, default=9999)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args(argv)


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    out: Dict[str, Any] = {"machine": machine_info()}
    if args.en_dev and args.crf_en:
        out["en"] = run_dev("en", args.en_pipeline, args.en_dev, args.crf_en, args)
    es_dev = args.es_dev or find_es_dev()
    if es_dev and args.crf_es:
        out["es"] = run_dev("es", args.es_pipeline, es_dev, args.crf_es, args)
    if args.json:
        args.json.write_text(json.dumps(out, indent=2))


if __name__ == "__main__":
    main()

"""HMM-DP, HMM-DP + skip-chain, the feature CRF and phi_ner compared on MEDDOCAN
dev and English held-out sets (after Chen, Cullen and Godwin 2015).

    python benchmarks/hmm_comparison.py [--es-dev ES_DEV.jsonl]
        [--en-sets NAME=PATH ...] [--hmm-es DIR] [--hmm-en DIR]
        [--skipchain-es DIR] [--skipchain-en DIR] [--crf-es DIR] [--crf-en DIR]
        [--ner-es PIPELINE] [--ner-en PIPELINE] [--limit N] [--batch-size 64]
        [--json OUT.json]

Rows: HMM-DP (a `spacy train` output of configs/hmm_{en,meddocan}.cfg),
HMM-DP + skip-chain (configs/hmm_skipchain_{en,meddocan}.cfg: `phi_hmm`
then `phi_skipchain`), the feature CRF (configs/crf_{en,meddocan}.cfg) and
phi_ner (a shipped pipeline name or a pipeline directory). A DIR may be the
training output (its `model-best` is used) or a pipeline directory. A row
whose model is not given is skipped. Every row is its model alone: in the
phi_ner pipeline only `phi_ner` and the sentencizer run (no rules, no
post-processing), as the other rows have none.

One table per gold set (MEDDOCAN dev; each `--en-sets NAME=PATH`, e.g. the
generator's test split and notes from outside the generator; JSONL or any
corpus format `spacy_deid.corpus.read_notes` detects). Docs go
through `nlp.pipe` with their patient id as context (the JSONL `patient`,
else the note id: MEDDOCAN reports are one scope each), a patient's notes in
one contiguous run, so that `phi_skipchain` (scope "patient") aligns them.
Columns (`spacy_deid.evaluate`, micro): strict P/R/F1 (subcategory labels as
they are: MEDDOCAN types on MEDDOCAN), binary PHI-token recall, i2b2 2014
token F1 overall and per large category (labels mapped to categories with
`labels.maps.to_coarse`: MEDDOCAN types to NAME, LOCATION, ...; "-" where
neither gold nor prediction has the category), and the training time from
`train_time.json` (`benchmarks/timed.py`) in the model or training folder,
or `training.seconds` in meta.json, else "n/a". No note text is printed.
"""

import argparse
import json
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
from spacy_deid.corpus import Note, read_notes
from spacy_deid.evaluate import evaluate_notes

sys.path.insert(0, str(Path(__file__).resolve().parent))
from accuracy_speed import (  # noqa: E402
    docs_to_notes,
    find_es_dev,
    format_table,
    machine_info,
)
from timed import FILE_NAME as TIME_FILE  # noqa: E402

# (row name, option stem): `--{stem}-es` and `--{stem}-en`.
SYSTEMS = (
    ("HMM-DP", "hmm"),
    ("HMM-DP + skip-chain", "skipchain"),
    ("feature CRF", "crf"),
    ("phi_ner", "ner"),
)
# The large i2b2 2014 categories (MEDDOCAN types map onto them).
CATEGORIES = ("NAME", "LOCATION", "DATE", "PROFESSION", "AGE", "CONTACT", "ID")
NER = "phi_ner"
KEEP_WITH_NER = ("phi_ner", "clinical_sentencizer", "sentencizer", "senter")


@dataclass
class GoldSet:
    """A gold corpus and the language of the models that tag it."""

    name: str
    lang: str
    path: Path


def model_path(path: Path) -> Path:
    """The pipeline of a training output (`model-best`), or `path` itself."""
    best = path / "model-best"
    return best if best.is_dir() else path


def load_system(model: str) -> Language:
    """Load a row's pipeline, without `phi_surrogates`; in a phi_ner pipeline
    everything but `phi_ner` and the sentencizer is disabled."""
    if model in spacy_deid.PIPELINES:
        nlp = spacy_deid.load(model, exclude=["phi_surrogates"])
    else:
        nlp = spacy.load(model_path(Path(model)), exclude=["phi_surrogates"])
    if NER in nlp.pipe_names:
        for name in nlp.pipe_names:
            if name not in KEEP_WITH_NER:
                nlp.disable_pipe(name)
    return nlp


def training_seconds(model: str) -> Optional[float]:
    """Training wall time: `train_time.json` in the model folder or the
    training folder above it, else meta.json's `training.seconds`."""
    path = Path(model)
    if model in spacy_deid.PIPELINES or not path.exists():
        path = Path(spacy_deid.__file__).parent / "pretrained" / model
    for folder in (model_path(path), path, model_path(path).parent):
        record = folder / TIME_FILE
        if record.is_file():
            return float(json.loads(record.read_text(encoding="utf-8"))["seconds"])
    meta = model_path(path) / "meta.json"
    if meta.is_file():
        training = json.loads(meta.read_text(encoding="utf-8")).get("training")
        if isinstance(training, dict) and "seconds" in training:
            return float(training["seconds"])
    return None


def read_gold(path: Path, limit: Optional[int]) -> List[Note]:
    """The first `limit` notes (all when None) of a gold corpus (JSONL, or
    any format `spacy_deid.corpus.read_notes` detects)."""
    notes = []
    for note in read_notes(path):
        if limit is not None and len(notes) >= limit:
            break
        notes.append(note)
    return notes


def patient_order(gold: List[Note]) -> List[int]:
    """Note indices with each patient's notes contiguous (first-seen order)."""
    first: Dict[str, int] = {}
    for i, note in enumerate(gold):
        first.setdefault(patient_of(note), i)
    return sorted(range(len(gold)), key=lambda i: (first[patient_of(gold[i])], i))


def patient_of(note: Note) -> str:
    """The note's patient id, else its own id (a scope of its own)."""
    return note.patient or note.id


def predict(nlp: Language, gold: List[Note], batch_size: int) -> List[Note]:
    """Tag the notes patient by patient; predictions in the gold order."""
    order = patient_order(gold)
    pairs = ((gold[i].text, {"patient": patient_of(gold[i])}) for i in order)
    docs: List[Optional[Doc]] = [None] * len(gold)
    stream = nlp.pipe(pairs, as_tuples=True, batch_size=batch_size)
    for i, (doc, _) in zip(order, stream, strict=True):
        docs[i] = doc
    return docs_to_notes(gold, docs)  # type: ignore[arg-type]


def figures(gold: List[Note], pred: List[Note]) -> Dict[str, Any]:
    """Strict P/R/F1, binary-token recall, token F1 overall and per category."""
    result = evaluate_notes(gold, pred, labels="subcategory")
    strict = result["strict"]["micro"]
    per_category = result["per_label"]["category"]
    return {
        "strict_p": strict["precision"],
        "strict_r": strict["recall"],
        "strict_f1": strict["f1"],
        "bin_r": result["binary_token"]["micro"]["recall"],
        "token_f1": result["token"]["micro"]["f1"],
        "category_token_f1": {
            cat: category_f1(per_category.get(cat)) for cat in CATEGORIES
        },
        "category_token_support": {
            cat: per_category[cat]["token"]["support"] if cat in per_category else 0
            for cat in CATEGORIES
        },
    }


def category_f1(row: Optional[Dict[str, Any]]) -> Optional[float]:
    """Token F1 of one category; None when neither side has it."""
    if row is None:
        return None
    token = row["token"]
    return None if token["tp"] + token["fp"] + token["fn"] == 0 else token["f1"]


def run_system(model: str, gold: List[Note], batch_size: int) -> Dict[str, Any]:
    """Load, tag and score one row."""
    nlp = load_system(model)
    start = time.perf_counter()
    pred = predict(nlp, gold, batch_size)
    seconds = time.perf_counter() - start
    return {
        "model": model,
        "components": [n for n in nlp.pipe_names if n not in nlp.disabled],
        "predict_s": seconds,
        "train_s": training_seconds(model),
        **figures(gold, pred),
    }


def run_set(
    gold_set: GoldSet, models: Dict[str, str], limit: Optional[int], batch_size: int
) -> Dict[str, Any]:
    """Every row with a model on one gold set; prints the table."""
    gold = read_gold(gold_set.path, limit)
    rows = {}
    for name, model in models.items():
        progress(f"{gold_set.name}: {name} ({model})")
        rows[name] = run_system(model, gold, batch_size)
    title = (
        f"{gold_set.name} ({gold_set.lang}): {gold_set.path.name}, {len(gold)} notes"
    )
    print(f"\n## {title}\n")
    print(score_table(rows))
    print(
        "\n"
        + "\n".join(f"- {n}: {r['model']}, {r['components']}" for n, r in rows.items())
    )
    return {
        "gold": str(gold_set.path),
        "lang": gold_set.lang,
        "notes": len(gold),
        "rows": rows,
    }


def score_table(rows: Dict[str, Dict[str, Any]]) -> str:
    """The markdown table of one gold set."""
    headers = ["system", "strict P", "strict R", "strict F1", "bin-tok R", "token F1"]
    headers += list(CATEGORIES) + ["train time"]
    body = []
    for name, r in rows.items():
        cells = [name] + [_num(r[k]) for k in ("strict_p", "strict_r", "strict_f1")]
        cells += [_num(r["bin_r"]), _num(r["token_f1"])]
        cells += [_num(r["category_token_f1"][cat]) for cat in CATEGORIES]
        body.append(cells + [_duration(r["train_s"])])
    return format_table(headers, body)


def _num(value: Optional[float]) -> str:
    return "-" if value is None else f"{value:.4f}"


def _duration(seconds: Optional[float]) -> str:
    if seconds is None:
        return "n/a"
    return f"{seconds:.0f} s" if seconds < 600 else f"{seconds / 60:.1f} min"


def parse_en_set(text: str) -> Tuple[str, Path]:
    """Parse `NAME=PATH`."""
    name, sep, path = text.partition("=")
    if not (sep and name.strip() and path):
        raise argparse.ArgumentTypeError(f"--en-sets {text!r}: expected NAME=PATH")
    return name.strip(), Path(path)


def gold_sets(args: argparse.Namespace) -> List[GoldSet]:
    """MEDDOCAN dev (given or found) and the English sets."""
    sets = []
    es_dev = args.es_dev or find_es_dev()
    if es_dev is not None:
        sets.append(GoldSet("MEDDOCAN dev", "es", Path(es_dev)))
    sets += [GoldSet(name, "en", path) for name, path in args.en_sets]
    return sets


def models_for(args: argparse.Namespace, lang: str) -> Dict[str, str]:
    """Row name -> model for one language (rows without a model left out)."""
    models = {}
    for name, stem in SYSTEMS:
        model = getattr(args, f"{stem}_{lang}")
        if model:
            models[name] = str(model)
    return models


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--es-dev", type=Path, help="MEDDOCAN dev JSONL")
    parser.add_argument(
        "--en-sets", nargs="*", type=parse_en_set, default=[], help="NAME=PATH ..."
    )
    for _, stem in SYSTEMS:
        for lang in ("es", "en"):
            parser.add_argument(f"--{stem}-{lang}", default=None)
    parser.add_argument("--limit", type=int, default=None)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--json", type=Path, default=None)
    return parser.parse_args(argv)


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[hmm_comparison] {message}", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> Dict[str, Any]:
    args = parse_args(argv)
    out: Dict[str, Any] = {"machine": machine_info(), "limit": args.limit, "sets": {}}
    for gold_set in gold_sets(args):
        models = models_for(args, gold_set.lang)
        if not models:
            progress(f"{gold_set.name}: no model given, skipped")
            continue
        out["sets"][gold_set.name] = run_set(
            gold_set, models, args.limit, args.batch_size
        )
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"\nWrote {args.json}")
    return out


if __name__ == "__main__":
    main()

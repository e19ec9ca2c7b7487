"""Precision/recall curve of a pipeline over its `phi_ner` recall bias.

    python benchmarks/recall_curve.py --pipeline PIPELINE --dev DEV.jsonl
        [--limit N] [--biases=-4,-2,-1,0,1,2,3,4,6] [--out DIR]
        [--component NAME] [--batch-size 64] [--recall-target 0.98]

PIPELINE is a shipped name ("en", "es_meddocan": `spacy_deid.load`) or a
pipeline directory, loaded once (`phi_surrogates` excluded). DEV is a gold
JSONL file (`{"id", "text", "spans": [{"start", "end", "label"}]}`), e.g.
`spacy-deid synth 500 dev.jsonl --seed 2 --split dev` or MEDDOCAN's dev.jsonl;
`--limit N` keeps its first N notes. Write a grid starting with a negative
number as `--biases=-4,-2,0,2` (or space separated: `--biases -4 -2 0 2`).

For each bias, only `cfg["recall_bias"]` of the `phi_ner` component changes
(`--component` names it when the pipeline has several). The components
before it and its model run once per note; each point decodes the cached
emission scores with the new bias (`PhiEntityRecognizer.decode`, exactly what
`predict` does), sets the annotations and runs the components after it on
copies of the docs. `doc.ents` are scored as in `accuracy_speed.py`
(`spacy_deid.evaluate.evaluate_notes`, subcategory labels as they are: MEDDOCAN
types on MEDDOCAN): strict micro P/R/F1 and binary PHI-token micro P/R/F1.

Outputs in --out (default `recall_curve/`): `recall_curve.json` (every measure,
micro and macro, per point; command, machine, settings), `recall_curve.csv`
(micro P/R/F1 of each measure per point) and `recall_curve.png` (precision
against recall, strict and binary-token curves, points labelled with their
bias). The plot needs matplotlib (`pip install "spacy-deid[bench]"`); without
it the table and files are written and the plot is reported as skipped.
Figures depend on the dev set only (not on the machine), apart from the
timings. No note text is printed.
"""

import argparse
import csv
import json
import math
import shlex
import sys
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Dict, List, Optional, Sequence, Tuple

from accuracy_speed import (
    docs_to_notes,
    SURROGATES,
    PipelineSpec,
    RowError,
    accuracy_figures,
    format_table,
    header,
    load_pipeline,
    machine_info,
    read_gold,
)
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch
from thinc.types import Floats2d

from spacy_deid.corpus import CorpusError, Note

NER_FACTORY = "phi_ner"
DEFAULT_BIASES = (-4.0, -2.0, -1.0, 0.0, 1.0, 2.0, 3.0, 4.0, 6.0)
DEFAULT_OUT = Path("recall_curve")
MEASURES = ("strict", "relaxed", "token", "binary_token")
# (measure, legend, marker) of the plotted curves.
PLOTTED = (
    ("strict", "strict (span + label)", "o"),
    ("binary_token", "binary PHI token", "s"),
)
PLOT_INSTALL = 'pip install "spacy-deid[bench]"'


class CurveError(Exception):
    """A setting or input the sweep cannot use; the message holds no note text."""


@dataclass
class Prepared:
    """Docs after the components before `phi_ner`, and its emission scores."""

    docs: List[Doc]
    scores: List[Floats2d]


def parse_biases(values: Sequence[str]) -> List[float]:
    """Parse `--biases` values ("-4,-2,0" and/or separate numbers).

    values (Sequence[str]): The option's values.
    RETURNS (List[float]): The distinct biases, ascending.
    RAISES (CurveError): An item is not a finite number, or none is given.
    """
    biases = set()
    for value in values:
        for item in value.split(","):
            if not item.strip():
                continue
            try:
                bias = float(item)
            except ValueError:
                raise CurveError(
                    f"--biases: {item.strip()!r} is not a number"
                ) from None
            if not math.isfinite(bias):
                raise CurveError(f"--biases: {item.strip()!r} is not finite")
            biases.add(bias)
    if not biases:
        raise CurveError("--biases: no bias given")
    return sorted(biases)


def find_ner(nlp: Language, name: Optional[str]) -> str:
    """The name of the enabled `phi_ner` component to sweep.

    nlp (Language): The pipeline.
    name (Optional[str]): The `--component` value, or None for the only one.
    RETURNS (str): The component name.
    RAISES (CurveError): None, several (without `name`) or `name` is not one.
    """
    found = [n for n in nlp.pipe_names if nlp.get_pipe_meta(n).factory == NER_FACTORY]
    if name is not None:
        if name not in found:
            raise CurveError(
                f"--component {name!r} is not an enabled {NER_FACTORY} "
                f"component (found: {found or 'none'})"
            )
        return name
    if len(found) != 1:
        raise CurveError(
            f"the pipeline has {len(found)} enabled {NER_FACTORY} components "
            f"({found}); pick one with --component"
        )
    return found[0]


def split_pipeline(nlp: Language, ner_name: str) -> Sequence[Sequence[str]]:
    """The enabled component names before and after the `phi_ner` one."""
    names = list(nlp.pipe_names)
    i = names.index(ner_name)
    return names[:i], names[i + 1 :]


def prepare(
    nlp: Language, ner_name: str, texts: List[str], batch_size: int
) -> Prepared:
    """Run the components before `ner_name` and its model, once.

    RETURNS (Prepared): The docs and their emission scores.
    """
    before, _ = split_pipeline(nlp, ner_name)
    ner = nlp.get_pipe(ner_name)
    with nlp.select_pipes(enable=list(before)):
        docs = list(nlp.pipe(texts, batch_size=batch_size))
    scores: List[Floats2d] = []
    for batch in minibatch(docs, size=batch_size):
        scores.extend(ner.emission_scores(batch))
    return Prepared(docs, scores)


def run_point(
    nlp: Language, ner_name: str, prepared: Prepared, bias: float, batch_size: int
) -> List[Doc]:
    """Annotate copies of the prepared docs with `recall_bias = bias`, then run
    the components after `ner_name`; `cfg["recall_bias"]` is left at `bias`.

    RETURNS (List[Doc]): The annotated docs.
    """
    _, after = split_pipeline(nlp, ner_name)
    ner = nlp.get_pipe(ner_name)
    ner.cfg["recall_bias"] = bias
    docs = [doc.copy() for doc in prepared.docs]
    ner.set_annotations(docs, ner.decode(prepared.scores))
    for name in after:
        proc = nlp.get_pipe(name)
        if hasattr(proc, "pipe"):
            docs = list(proc.pipe(docs, batch_size=batch_size))
        else:
            docs = [proc(doc) for doc in docs]
    return docs


def sweep(
    nlp: Language,
    ner_name: str,
    gold: List[Note],
    biases: Sequence[float],
    batch_size: int,
) -> List[Dict[str, Any]]:
    """Score the pipeline at every bias; the component's configured bias is
    restored afterwards.

    RETURNS (List[Dict[str, Any]]): Per bias: `bias`, `seconds` (decoding,
        annotation and scoring), `pred_spans`, `pred_phi_tokens` and the
        measures of `accuracy_speed.accuracy_figures`.
    """
    ner = nlp.get_pipe(ner_name)
    configured = ner.cfg["recall_bias"]
    progress(f"running the pipeline up to '{ner_name}' on {len(gold)} notes")
    prepared = prepare(nlp, ner_name, [note.text for note in gold], batch_size)
    points = []
    try:
        for bias in biases:
            start = time.perf_counter()
            docs = run_point(nlp, ner_name, prepared, bias, batch_size)
            figures = accuracy_figures(gold, docs_to_notes(gold, docs))
            seconds = time.perf_counter() - start
            points.append(
                dict(
                    bias=bias,
                    seconds=seconds,
                    pred_spans=sum(len(doc.ents) for doc in docs),
                    pred_phi_tokens=sum(len(e) for doc in docs for e in doc.ents),
                    **figures,
                )
            )
            micro = figures["binary_token"]["micro"]
            progress(
                f"bias {bias:+g}: bin-tok P {micro['precision']:.4f} "
                f"R {micro['recall']:.4f} ({seconds:.1f} s)"
            )
    finally:
        ner.cfg["recall_bias"] = configured
    return points


def micro_row(point: Dict[str, Any], measure: str) -> List[float]:
    """Micro precision, recall and F1 of one measure at one point."""
    micro = point[measure]["micro"]
    return [micro["precision"], micro["recall"], micro["f1"]]


def curve_table(points: List[Dict[str, Any]], configured: float) -> str:
    """The markdown table: one row per bias (the configured one marked *)."""
    headers = [
        "bias",
        "strict P",
        "strict R",
        "strict F1",
        "bin-tok P",
        "bin-tok R",
        "bin-tok F1",
        "pred spans",
        "PHI tokens",
    ]
    rows = []
    for p in points:
        mark = "*" if p["bias"] == configured else " "
        scores = micro_row(p, "strict") + micro_row(p, "binary_token")
        rows.append(
            [
                f"{p['bias']:+g}{mark}",
                *(f"{x:.4f}" for x in scores),
                str(p["pred_spans"]),
                str(p["pred_phi_tokens"]),
            ]
        )
    return format_table(headers, rows, left=())


def summary(points: List[Dict[str, Any]], recall_target: float) -> List[str]:
    """The best strict F1 point and the lowest bias reaching the binary-token
    recall target."""
    best = max(points, key=lambda p: p["strict"]["micro"]["f1"])
    lines = [
        f"best strict F1: {best['strict']['micro']['f1']:.4f} at bias {best['bias']:+g}"
    ]
    reached = [
        p for p in points if p["binary_token"]["micro"]["recall"] >= recall_target
    ]
    if reached:
        p = reached[0]
        lines.append(
            f"lowest bias with bin-tok R >= {recall_target:g}: {p['bias']:+g} "
            f"(bin-tok P {p['binary_token']['micro']['precision']:.4f}, "
            f"strict F1 {p['strict']['micro']['f1']:.4f})"
        )
    else:
        lines.append(f"no bias of the grid reaches bin-tok R >= {recall_target:g}")
    return lines


def write_csv(points: List[Dict[str, Any]], path: Path) -> None:
    """Micro P/R/F1 of every measure per point, one row per bias."""
    fields = ["bias", "pred_spans", "pred_phi_tokens", "seconds"]
    for measure in MEASURES:
        fields += [f"{measure}_{x}" for x in ("precision", "recall", "f1")]
    with path.open("w", newline="", encoding="utf-8") as file:
        writer = csv.DictWriter(file, fieldnames=fields)
        writer.writeheader()
        for p in points:
            row = {key: p[key] for key in fields[:4]}
            for measure in MEASURES:
                for name, value in zip(
                    ("precision", "recall", "f1"), micro_row(p, measure), strict=True
                ):
                    row[f"{measure}_{name}"] = f"{value:.6f}"
            writer.writerow(row)


def plot(points: List[Dict[str, Any]], path: Path, title: str) -> Optional[str]:
    """Save precision against recall (strict and binary-token curves, points
    labelled with their bias) as a PNG.

    RETURNS (Optional[str]): None when saved, else why the plot was skipped.
    """
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        return f"matplotlib is not installed ({PLOT_INSTALL})"
    fig, ax = plt.subplots(figsize=(7, 5.5))
    for measure, label, marker in PLOTTED:
        recall = [p[measure]["micro"]["recall"] for p in points]
        precision = [p[measure]["micro"]["precision"] for p in points]
        (line,) = ax.plot(recall, precision, marker=marker, label=label)
        for p, x, y in zip(points, recall, precision, strict=True):
            ax.annotate(
                f"{p['bias']:+g}",
                (x, y),
                textcoords="offset points",
                xytext=(4, 4),
                fontsize=8,
                color=line.get_color(),
            )
    ax.set_xlabel("recall (micro)")
    ax.set_ylabel("precision (micro)")
    ax.set_title(title, fontsize=10)
    ax.grid(True, alpha=0.3)
    ax.legend(title="points: recall_bias", loc="best")
    fig.tight_layout()
    fig.savefig(path, dpi=120)
    plt.close(fig)
    return None


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument(
        "--pipeline", default="en", help="Shipped name or pipeline directory"
    )
    parser.add_argument("--dev", type=Path, required=True, help="Gold JSONL (dev)")
    parser.add_argument("--limit", type=int, help="Score the first N notes only")
    parser.add_argument(
        "--biases",
        nargs="+",
        default=[",".join(f"{b:g}" for b in DEFAULT_BIASES)],
        help="recall_bias grid, e.g. --biases=-4,-2,0,2 (default: %(default)s)",
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="Output folder")
    parser.add_argument(
        "--component", help="The phi_ner component to sweep (if several)"
    )
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument(
        "--recall-target",
        type=float,
        default=0.98,
        help="Report the lowest bias with at least this binary-token recall",
    )
    return parser.parse_args(argv)


def load(args: argparse.Namespace) -> Tuple[Language, str, List[Note]]:
    """Load the pipeline and the gold notes; RETURNS (nlp, ner name, gold)."""
    if args.limit is not None and args.limit < 1:
        raise CurveError("--limit must be at least 1")
    if args.batch_size < 1:
        raise CurveError("--batch-size must be at least 1")
    if not args.dev.is_file():
        raise CurveError(f"dev file {args.dev} not found")
    nlp = load_pipeline(PipelineSpec(args.pipeline), exclude=(SURROGATES,))
    ner_name = find_ner(nlp, args.component)
    gold = read_gold(args.dev, args.limit)
    if not gold:
        raise CurveError(f"dev file {args.dev} has no notes")
    return nlp, ner_name, gold


def payload(
    args: argparse.Namespace,
    command: str,
    machine: Dict[str, Any],
    nlp: Language,
    ner_name: str,
    points: List[Dict[str, Any]],
) -> Dict[str, Any]:
    """Everything the JSON file holds (no note text)."""
    cfg = nlp.get_pipe(ner_name).cfg
    return {
        "command": command,
        "machine": machine,
        "pipeline": args.pipeline,
        "components": list(nlp.pipe_names),
        "component": ner_name,
        "configured_recall_bias": cfg["recall_bias"],
        "thresholds": cfg["thresholds"],
        "spans_key": cfg["spans_key"],
        "dev": str(args.dev),
        "limit": args.limit,
        "batch_size": args.batch_size,
        "recall_target": args.recall_target,
        "points": points,
    }


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[recall_curve] {message}", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    command = shlex.join(["python", *sys.argv])
    machine = machine_info()
    print(header(command, machine) + "\n", flush=True)
    try:
        biases = parse_biases(args.biases)
        nlp, ner_name, gold = load(args)
        points = sweep(nlp, ner_name, gold, biases, args.batch_size)
    except (CurveError, RowError) as error:
        sys.exit(f"error: {error}")
    except CorpusError as error:  # our messages name ids and offsets only
        sys.exit(f"error: CorpusError: {error}")
    except Exception as error:  # noqa: BLE001 - never print a message with text
        sys.exit(f"error: {type(error).__name__} (message withheld: may hold text)")
    cfg = nlp.get_pipe(ner_name).cfg
    print(
        f"## recall_bias sweep of '{ner_name}' ({args.pipeline}) on {len(gold)} "
        f"notes of {args.dev} (subcategory labels, micro; * = configured bias)\n"
    )
    print(curve_table(points, cfg["recall_bias"]) + "\n")
    print("\n".join(summary(points, args.recall_target)))
    print(f"components: {nlp.pipe_names}; thresholds: {cfg['thresholds'] or 'none'}")
    if cfg["spans_key"] is not None:
        print(
            f"note: '{ner_name}' writes doc.spans[{cfg['spans_key']!r}]; the scores "
            "are those of doc.ents as set by the components after it"
        )
    args.out.mkdir(parents=True, exist_ok=True)
    data = payload(args, command, machine, nlp, ner_name, points)
    json_path, csv_path = args.out / "recall_curve.json", args.out / "recall_curve.csv"
    png_path = args.out / "recall_curve.png"
    title = (
        f"{args.pipeline}: recall_bias sweep on {len(gold)} notes of {args.dev.name}"
    )
    skipped = plot(points, png_path, title)
    data["plot"] = None if skipped else str(png_path)
    data["plot_skipped"] = skipped
    json_path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
    write_csv(points, csv_path)
    print(f"\nWrote {json_path} and {csv_path}")
    print(f"Plot skipped: {skipped}" if skipped else f"Wrote {png_path}")


if __name__ == "__main__":
    main()

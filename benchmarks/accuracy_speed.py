"""Accuracy and throughput of the shipped pipelines, against the project's targets.

    python benchmarks/accuracy_speed.py --en-dev EN_DEV.jsonl [--es-dev ES_DEV.jsonl]
        [--row "NAME=LANG:PIPELINE[:disable=comp1,comp2]" ...] [--no-defaults]
        [--limit N] [--speed-notes 1000] [--speed-input NOTES.jsonl]
        [--speed-default en] [--speed-rules en_rules] [--no-speed] [--batch-size 64]
        [--json OUT.json]

Accuracy. Each row runs one pipeline over a gold JSONL dev file and scores
`doc.ents` with `spacy_deid.evaluate.evaluate_notes` (i2b2 2014 measures,
subcategory level, labels as they are: MEDDOCAN types on MEDDOCAN). PIPELINE
is a shipped name ("en", "en_rules", "es_meddocan": `spacy_deid.load`) or a
pipeline directory (`spacy.load`), so a bare `spacy train` output or a stock
spaCy `ner` model works too. `phi_surrogates` is excluded when present;
`:disable=...` disables more components (e.g. `phi_rules` for a "no rules"
ablation). LANG picks the dev file: `en` (--en-dev) or `es` (--es-dev, by
default the MEDDOCAN dev set under `../shared/data/meddocan/`, skipped when
absent). Default rows: "default en" (shipped "en") and "rules only"
("en_rules") on en-dev, "es_meddocan" on es-dev. Targets: MEDDOCAN dev strict
micro F1 >= 0.965; English withheld-style dev binary PHI-token micro recall
>= 0.98 and strict micro F1 >= 0.90. `--limit N` scores the first N notes of
each dev file only.

Throughput. The full default pipeline (all components, `phi_surrogates`
included, with a fixed benchmark key) and the rules-only pipeline run in this
one process on the same English notes: `--speed-notes` notes generated with
`spacy_deid.synth.generate(N, seed=7, split="all")` (as
`rules_throughput.py` does), or the first N of `--speed-input`. `nlp.pipe`
with `--batch-size`, patients passed as context, after a warm-up on the first
50 notes; tokens are the pipeline's own tokens. Target: default >= 5,000
tokens/s. Peak RSS is the process peak (`resource.getrusage`) read after each
run, so a later row includes every earlier one; throughput runs before the
accuracy rows so that the accuracy pipelines don't count in it.

A pipeline that is not shipped or does not load gives a message for its row
and the script goes on. Figures depend on the machine and its load (shown at
the top): run it, don't assert on it in tests. No note text is printed.
"""

import argparse
import importlib.metadata
import json
import os
import platform
import resource
import shlex
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
from spacy_deid.corpus import CorpusError, Note, PhiSpan, read_jsonl
from spacy_deid.synth import generate
from spacy_deid.evaluate import evaluate_notes

ROOT = Path(__file__).resolve().parent.parent
ES_DEV_CANDIDATES = (
    ROOT.parent / "shared" / "data" / "meddocan" / "dev.jsonl",
    Path("/work/shared/data/meddocan/dev.jsonl"),
)
LANGS = ("en", "es")
SURROGATES = "phi_surrogates"
BENCHMARK_KEY = b"benchmark-key-0123456789"
SPEED_SEED = 7
SPEED_SPLIT = "all"
WARMUP_NOTES = 50
# Accuracy targets of the shipped pipelines.
ES_STRICT_F1 = 0.965
EN_TOKEN_RECALL = 0.98
EN_STRICT_F1 = 0.90
SPEED_TOKENS_PER_S = 5000.0
DEFAULT_ROWS = (
    "default en=en:en",
    "rules only=en:en_rules",
    "es_meddocan=es:es_meddocan",
)


class RowError(Exception):
    """A row that cannot run (pipeline missing, bad spec); the message is safe
    to print (no note text)."""


@dataclass
class PipelineSpec:
    """A pipeline to load: shipped name or directory, and components to disable."""

    pipeline: str
    disable: Tuple[str, ...] = ()

    def __str__(self) -> str:
        suffix = f":disable={','.join(self.disable)}" if self.disable else ""
        return f"{self.pipeline}{suffix}"


@dataclass
class RowSpec:
    """One accuracy row: a system name, the dev set (`lang`) and a pipeline."""

    name: str
    lang: str
    spec: PipelineSpec
    result: Dict[str, Any] = field(default_factory=dict)


def parse_pipeline(text: str) -> PipelineSpec:
    """Parse `PIPELINE[:disable=comp1,comp2]`.

    text (str): The spec.
    RETURNS (PipelineSpec): The pipeline and the components to disable.
    """
    pipeline, sep, names = text.rpartition(":disable=")
    if not sep:
        return PipelineSpec(text)
    disable = tuple(n.strip() for n in names.split(",") if n.strip())
    return PipelineSpec(pipeline, disable)


def parse_row(text: str) -> RowSpec:
    """Parse a `--row` value, `NAME=LANG:PIPELINE[:disable=comp1,comp2]`.

    text (str): The value.
    RETURNS (RowSpec): The row.
    RAISES (ValueError): Malformed value or unknown LANG.
    """
    name, sep, rest = text.partition("=")
    lang, sep2, pipeline = rest.partition(":")
    if not (sep and sep2 and name.strip() and pipeline):
        raise ValueError(
            f"--row {text!r}: expected NAME=LANG:PIPELINE[:disable=comp1,comp2]"
        )
    if lang not in LANGS:
        raise ValueError(f"--row {text!r}: LANG must be one of {', '.join(LANGS)}")
    return RowSpec(name.strip(), lang, parse_pipeline(pipeline))


def load_pipeline(spec: PipelineSpec, exclude: Sequence[str] = ()) -> Language:
    """Load a shipped pipeline (`spacy_deid.load`) or a directory
    (`spacy.load`), excluding `exclude` when present and disabling
    `spec.disable` (each must be in the pipeline).

    spec (PipelineSpec): What to load.
    exclude (Sequence[str]): Components not to load if the pipeline has them.
    RETURNS (Language): The pipeline.
    RAISES (RowError): Not shipped and not a directory, fails to load, or a
        component to disable is not in it.
    """
    name = spec.pipeline
    shipped = name in spacy_deid.PIPELINES
    if not shipped and not Path(name).is_dir():
        known = ", ".join(sorted(spacy_deid.PIPELINES))
        raise RowError(
            f"'{name}' is neither a shipped pipeline (shipped: {known}) "
            "nor a pipeline directory"
        )
    try:
        if shipped:
            nlp = spacy_deid.load(name, exclude=list(exclude))
        else:
            nlp = spacy.load(name, exclude=list(exclude))
    except Exception as error:  # noqa: BLE001 - any load failure ends the row
        message = f"'{name}' does not load: {type(error).__name__}: {error}"
        raise RowError(message) from None
    for component in spec.disable:
        if component not in nlp.pipe_names:
            raise RowError(
                f"cannot disable '{component}': not in {name}'s pipeline "
                f"{nlp.pipe_names}"
            )
        nlp.disable_pipe(component)
    return nlp


def find_es_dev() -> Optional[Path]:
    """The MEDDOCAN dev file, if one of `ES_DEV_CANDIDATES` exists."""
    return next((p for p in ES_DEV_CANDIDATES if p.exists()), None)


def read_gold(path: Path, limit: Optional[int]) -> List[Note]:
    """The first `limit` notes (all when None) of a gold JSONL file."""
    notes = []
    for note in read_jsonl(path):
        if limit is not None and len(notes) >= limit:
            break
        notes.append(note)
    return notes


def predict(nlp: Language, notes: List[Note], batch_size: int) -> List[Note]:
    """Run the pipeline; predicted notes carry the same ids and `doc.ents`."""
    texts = (note.text for note in notes)
    return docs_to_notes(notes, nlp.pipe(texts, batch_size=batch_size))


def docs_to_notes(gold: List[Note], docs: Iterable[Doc]) -> List[Note]:
    """Predicted notes (`doc.ents`), with the gold notes' ids and texts."""
    return [
        Note(
            id=note.id,
            text=note.text,
            spans=[PhiSpan(e.start_char, e.end_char, e.label_) for e in doc.ents],
        )
        for note, doc in zip(gold, docs, strict=True)
    ]


def accuracy_figures(gold: List[Note], pred: List[Note]) -> Dict[str, Any]:
    """Micro and macro scores of every measure (`evaluate_notes`, subcategory).

    RETURNS (Dict[str, Any]): `notes`, `strict`/`relaxed`/`token`/
        `binary_token` (each `{"micro", "macro"}`), `unknown_pred_labels`.
    """
    result = evaluate_notes(gold, pred, labels="subcategory")
    keys = ("notes", "strict", "relaxed", "token", "binary_token")
    figures = {key: result[key] for key in keys}
    figures["unknown_pred_labels"] = result["unknown_pred_labels"]
    return figures


def accuracy_target(lang: str) -> str:
    """The accuracy target for a dev set, as text."""
    if lang == "es":
        return f"strict F1 >= {ES_STRICT_F1:.3f}"
    return f"bin-tok R >= {EN_TOKEN_RECALL:.2f}, strict F1 >= {EN_STRICT_F1:.2f}"


def meets_accuracy_target(lang: str, figures: Dict[str, Any]) -> bool:
    """Whether the scores meet the target of their dev set."""
    strict_f1 = figures["strict"]["micro"]["f1"]
    if lang == "es":
        return strict_f1 >= ES_STRICT_F1
    recall = figures["binary_token"]["micro"]["recall"]
    return recall >= EN_TOKEN_RECALL and strict_f1 >= EN_STRICT_F1


def run_row(row: RowSpec, dev: Dict[str, Optional[Path]], limit, batch_size) -> None:
    """Evaluate one accuracy row; fills `row.result` (status "ok", "skipped"
    or "error", with a message when not ok)."""
    path = dev[row.lang]
    base = {"name": row.name, "lang": row.lang, "pipeline": str(row.spec)}
    row.result = dict(base, dev=None if path is None else str(path))
    if path is None:
        option = f"--{row.lang}-dev"
        message = f"no {row.lang} dev file ({option} not given or not found)"
        row.result.update(status="skipped", message=message)
        return
    try:
        nlp = load_pipeline(row.spec, exclude=(SURROGATES,))
        gold = read_gold(path, limit)
        start = time.perf_counter()
        figures = accuracy_figures(gold, predict(nlp, gold, batch_size))
    except RowError as error:
        row.result.update(status="error", message=str(error))
        return
    except CorpusError as error:  # our messages name ids and offsets only
        row.result.update(status="error", message=f"CorpusError: {error}")
        return
    except Exception as error:  # noqa: BLE001 - report the row, go on
        message = f"{type(error).__name__} (message withheld: may hold note text)"
        row.result.update(status="error", message=message)
        return
    row.result.update(
        status="ok",
        components=list(nlp.pipe_names),
        predict_and_score_s=time.perf_counter() - start,
        target=accuracy_target(row.lang),
        passed=meets_accuracy_target(row.lang, figures),
        **figures,
    )


def load_speed_notes(n: int, path: Optional[Path]) -> List[Note]:
    """The throughput notes: the first `n` of `path`, or `n` generated ones."""
    if path is not None:
        return read_gold(path, n)
    return list(generate(n, seed=SPEED_SEED, split=SPEED_SPLIT))


def timed_pipe(nlp: Language, notes: List[Note], batch_size: int) -> Tuple[float, int]:
    """Run the pipeline over the notes (patient as context).

    RETURNS (Tuple[float, int]): Seconds and number of tokens.
    """
    n_tokens = 0
    texts = ((note.text, {"patient": note.patient or note.id}) for note in notes)
    start = time.perf_counter()
    for doc, _ in nlp.pipe(texts, as_tuples=True, batch_size=batch_size):
        n_tokens += len(doc)
    return time.perf_counter() - start, n_tokens


def peak_rss_mb() -> float:
    """Peak resident set size of this process so far, in MB (Linux: KB units)."""
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def run_speed(
    name: str,
    spec: PipelineSpec,
    notes: List[Note],
    batch_size: int,
    target: Optional[float],
) -> Dict[str, Any]:
    """Measure one pipeline (all its components) after a warm-up.

    RETURNS (Dict[str, Any]): name, pipeline, status and, when ok,
        components, notes, tokens, seconds, tokens_per_s, notes_per_s,
        peak_rss_mb (process peak so far), target, passed.
    """
    result: Dict[str, Any] = {"name": name, "pipeline": str(spec)}
    try:
        nlp = load_pipeline(spec)
    except RowError as error:
        return dict(result, status="error", message=str(error))
    if SURROGATES in nlp.pipe_names:
        nlp.get_pipe(SURROGATES).set_key(BENCHMARK_KEY)
    try:
        timed_pipe(nlp, notes[:WARMUP_NOTES], batch_size)
        seconds, n_tokens = timed_pipe(nlp, notes, batch_size)
    except Exception as error:  # noqa: BLE001 - report the row, go on
        message = f"{type(error).__name__} (message withheld: may hold note text)"
        return dict(result, status="error", message=message)
    tokens_per_s = n_tokens / seconds if seconds else 0.0
    return dict(
        result,
        status="ok",
        components=list(nlp.pipe_names),
        notes=len(notes),
        tokens=n_tokens,
        seconds=seconds,
        tokens_per_s=tokens_per_s,
        notes_per_s=len(notes) / seconds if seconds else 0.0,
        peak_rss_mb=peak_rss_mb(),
        target=target,
        passed=None if target is None else tokens_per_s >= target,
    )


def format_table(
    headers: Sequence[str], rows: Sequence[Sequence[str]], left: Sequence[int] = (0,)
) -> str:
    """A markdown table with padded columns.

    left (Sequence[int]): Indices of the left-aligned (text) columns; the
        others are right-aligned.
    """
    widths = [max(len(str(c)) for c in col) for col in zip(headers, *rows, strict=True)]

    def line(cells: Sequence[str]) -> str:
        padded = [
            str(c).ljust(w) if i in left else str(c).rjust(w)
            for i, (c, w) in enumerate(zip(cells, widths, strict=True))
        ]
        return "| " + " | ".join(padded) + " |"

    rule = "|" + "|".join("-" * (w + 2) for w in widths) + "|"
    return "\n".join([line(headers), rule, *(line(r) for r in rows)])


def pass_text(passed: Optional[bool]) -> str:
    """PASS, FAIL or - (no target)."""
    return "-" if passed is None else ("PASS" if passed else "FAIL")


def accuracy_table(rows: List[RowSpec]) -> str:
    """The accuracy table, then one line per row: components run or why not."""
    headers = [
        "system",
        "dev",
        "notes",
        "strict P",
        "strict R",
        "strict F1",
        "bin-tok P",
        "bin-tok R",
        "target",
        "result",
    ]
    lines, notes = [], []
    for row in rows:
        r = row.result
        if r["status"] != "ok":
            lines.append([row.name, row.lang, "-", *["-"] * 5, "-", "n/a"])
            notes.append(
                f"- {row.name} ({r['pipeline']}): {r['status']}: {r['message']}"
            )
            continue
        s, b = r["strict"]["micro"], r["binary_token"]["micro"]
        scores = [s["precision"], s["recall"], s["f1"], b["precision"], b["recall"]]
        lines.append(
            [
                row.name,
                row.lang,
                str(r["notes"]),
                *(f"{x:.4f}" for x in scores),
                r["target"],
                pass_text(r["passed"]),
            ]
        )
        notes.append(
            f"- {row.name}: {r['pipeline']} on {r['dev']}, components {r['components']}"
        )
    table = format_table(headers, lines, left=(0, 8))
    return table + "\n\n" + "\n".join(notes)


def speed_table(results: List[Dict[str, Any]]) -> str:
    """The throughput table, then one line per row: components run or why not."""
    headers = [
        "pipeline",
        "notes",
        "tokens",
        "seconds",
        "tokens/s",
        "notes/s",
        "peak RSS MB",
        "target",
        "result",
    ]
    lines, notes = [], []
    for r in results:
        if r["status"] != "ok":
            lines.append([r["name"], *["-"] * 7, "n/a"])
            notes.append(f"- {r['name']} ({r['pipeline']}): error: {r['message']}")
            continue
        target = "-" if r["target"] is None else f">= {r['target']:,.0f} tok/s"
        lines.append(
            [
                r["name"],
                str(r["notes"]),
                str(r["tokens"]),
                f"{r['seconds']:.2f}",
                f"{r['tokens_per_s']:,.0f}",
                f"{r['notes_per_s']:,.1f}",
                f"{r['peak_rss_mb']:,.0f}",
                target,
                pass_text(r["passed"]),
            ]
        )
        notes.append(f"- {r['name']}: {r['pipeline']}, components {r['components']}")
    table = format_table(headers, lines, left=(0, 7))
    return table + "\n\n" + "\n".join(notes)


def cpu_model() -> str:
    """The CPU model name from /proc/cpuinfo, or `platform.processor()`."""
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


def machine_info() -> Dict[str, Any]:
    """CPU count and model, load average, platform, Python/spaCy versions."""
    usable = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else None
    load = os.getloadavg() if hasattr(os, "getloadavg") else None
    return {
        "cpu_count": os.cpu_count(),
        "cpus_usable": usable,
        "cpu_model": cpu_model(),
        "load_avg_1_5_15": None if load is None else [round(x, 2) for x in load],
        "platform": platform.platform(),
        "python": platform.python_version(),
        "spacy": spacy.__version__,
        "spacy_deid": spacy_deid.__version__,
        "rules_prefilter": rules_prefilter(),
    }


def rules_prefilter() -> str:
    """What rules out patterns before `re` runs them (`rules/prefilter.py`)."""
    from spacy_deid.rules.prefilter import available

    if not available():
        return "none (Hyperscan not installed)"
    return f"Hyperscan {importlib.metadata.version('hyperscan')}"


def header(command: str, machine: Dict[str, Any]) -> str:
    """The command line and machine info, as text."""
    return "\n".join(
        [
            f"command: {command}",
            f"machine: {machine['cpu_count']} CPUs ({machine['cpus_usable']} usable), "
            f"{machine['cpu_model']}, load avg {machine['load_avg_1_5_15']}",
            f"         {machine['platform']}, Python {machine['python']}, "
            f"spaCy {machine['spacy']}, spacy-deid {machine['spacy_deid']}, "
            f"rules prefilter: {machine.get('rules_prefilter')}",
        ]
    )


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--en-dev", type=Path, help="English gold JSONL (dev)")
    parser.add_argument(
        "--es-dev",
        type=Path,
        help="MEDDOCAN dev JSONL "
        "(default: ../shared/data/meddocan/dev.jsonl if it exists)",
    )
    parser.add_argument(
        "--row",
        action="append",
        default=[],
        help="NAME=LANG:PIPELINE[:disable=comp1,comp2] (repeatable)",
    )
    parser.add_argument(
        "--no-defaults",
        action="store_true",
        help="Only the --row rows, not the default ones",
    )
    parser.add_argument(
        "--limit", type=int, help="Score the first N notes of each dev file"
    )
    parser.add_argument("--speed-notes", type=int, default=1000)
    parser.add_argument(
        "--speed-input",
        type=Path,
        help="Time the first N notes of this JSONL instead of generated ones",
    )
    parser.add_argument(
        "--speed-default",
        default="en",
        help="Default pipeline for throughput: PIPELINE[:disable=...]",
    )
    parser.add_argument(
        "--speed-rules",
        default="en_rules",
        help="Rules-only pipeline for throughput: PIPELINE[:disable=...]",
    )
    parser.add_argument("--no-speed", action="store_true", help="Skip throughput")
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--json", type=Path, help="Write all figures as JSON")
    return parser.parse_args(argv)


def accuracy_rows(args: argparse.Namespace) -> List[RowSpec]:
    """The default rows (unless --no-defaults) and the --row rows."""
    texts = ([] if args.no_defaults else list(DEFAULT_ROWS)) + list(args.row)
    try:
        return [parse_row(text) for text in texts]
    except ValueError as error:
        sys.exit(f"error: {error}")


def speed_section(args: argparse.Namespace) -> Tuple[str, List[Dict[str, Any]]]:
    """Run both throughput rows on the same notes; RETURNS (text, results)."""
    notes = load_speed_notes(args.speed_notes, args.speed_input)
    source = (
        f"first {len(notes)} notes of {args.speed_input}"
        if args.speed_input
        else f"{len(notes)} notes from synth.generate(seed={SPEED_SEED}, "
        f"split={SPEED_SPLIT!r})"
    )
    results = []
    for name, spec, target in (
        ("default", args.speed_default, SPEED_TOKENS_PER_S),
        ("rules only", args.speed_rules, None),
    ):
        progress(f"throughput: {name} ({spec})")
        result = run_speed(name, parse_pipeline(spec), notes, args.batch_size, target)
        results.append(dict(result, notes_source=source))
    title = (
        f"## Throughput ({source}; one process, nlp.pipe batch size "
        f"{args.batch_size}, warm-up {min(WARMUP_NOTES, len(notes))} notes; "
        "peak RSS = process peak so far)"
    )
    return f"{title}\n\n{speed_table(results)}", results


def accuracy_section(args: argparse.Namespace) -> Tuple[str, List[RowSpec]]:
    """Run every accuracy row; RETURNS (text, rows)."""
    rows = accuracy_rows(args)
    dev = {"en": args.en_dev, "es": args.es_dev or find_es_dev()}
    for lang, path in dev.items():
        if path is not None and not Path(path).is_file():
            progress(f"{lang} dev file {path} not found: its rows are skipped")
            dev[lang] = None
    for row in rows:
        progress(f"accuracy: {row.name} ({row.lang}: {row.spec})")
        run_row(row, dev, args.limit, args.batch_size)
    scope = "all notes" if args.limit is None else f"first {args.limit} notes"
    title = (
        f"## Accuracy (subcategory labels, micro; {scope} of each dev file; "
        f"en: {dev['en']}, es: {dev['es']})"
    )
    return f"{title}\n\n{accuracy_table(rows)}", rows


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[accuracy_speed] {message}", file=sys.stderr, flush=True)


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    command = shlex.join(["python", *sys.argv])
    machine = machine_info()
    print(header(command, machine) + "\n", flush=True)
    speed: List[Dict[str, Any]] = []
    if not args.no_speed:
        text, speed = speed_section(args)
        print(text + "\n", flush=True)
    text, rows = accuracy_section(args)
    print(text, flush=True)
    if args.json is not None:
        payload = {
            "command": command,
            "machine": machine,
            "limit": args.limit,
            "batch_size": args.batch_size,
            "targets": {
                "es_strict_micro_f1": ES_STRICT_F1,
                "en_binary_token_micro_recall": EN_TOKEN_RECALL,
                "en_strict_micro_f1": EN_STRICT_F1,
                "default_tokens_per_s": SPEED_TOKENS_PER_S,
            },
            "accuracy": [row.result for row in rows],
            "throughput": speed,
        }
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nWrote {args.json}")


if __name__ == "__main__":
    main()

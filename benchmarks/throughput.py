"""Throughput, memory and PHI-token recall of our pipelines and of the tools
users would pick instead, on the same generated notes.

    python benchmarks/throughput.py [--notes 1000] [--seed 7]
        [--parts ours,competitors,growth] [--pipelines en_rules,en]
        [--processes 1,2] [--batch-size 64] [--mode surrogate]
        [--competitors presidio,philter,scrubadub]
        [--growth-sizes 1000,10000,100000] [--growth-model en]
        [--threads 1] [--interval 0.05] [--work-dir DIR] [--keep-files]
        [--json OUT.json] [--gold CORPUS [--gold-format FORMAT]]

Notes. `spacy_deid.synth.generate(N, seed=S)`, the notes of
`spacy-deid synth N --seed S`, are written once, streaming, to a JSONL file
in the work directory (the largest size any part needs; every part reads a
prefix, which is the same as generating that many notes). With `--gold`,
the ours and competitors parts read the first `--notes` notes of a corpus
with gold PHI instead (any format `spacy-deid convert` reads: JSONL, an i2b2
2014 XML directory, brat; `--gold-format` when the path does not tell), so
that users with i2b2 access can compare the tools on real notes; growth
needs generated notes and is not run. "Tokens" are the
tokens of the shipped `en` pipeline's tokenizer (`ClinicalTokenizer.v1`,
the same in `en_rules`), counted once in this process: every system's
tokens/s divides the same count, so they compare.

Every configuration runs in a fresh subprocess, with `--threads` BLAS/OpenMP
threads per process, while this process polls the VmRSS and VmHWM of the
subprocess's process tree (`/proc/<pid>/status`, every `--interval` s); every
10th poll it finds the tree again (a scan of /proc) and reads its PSS.
Memory columns: "load RSS" = the worker's VmRSS once loaded, before the
first note; "peak RSS" = the largest single process's peak (its VmHWM, read
by the process itself at the end, from RUSAGE_CHILDREN for the workers of
`n_process`, and as polled); "tree RSS" = the peak of the polled sum of
VmRSS over the tree (forked workers share the parent's pages, which this
counts once per process); "tree PSS" = the same with shared pages divided
among the processes sharing them.

- ours: each of `--pipelines` at each of `--processes`, through the stable
  runner API (`spacy_deid.run.runner.deidentify_items` over
  `spacy_deid.io.records.read_records`, `phi_surrogates` in `--mode` with a
  fixed benchmark key, as `spacy-deid run`). Load time (imports and
  `spacy_deid.load`) is timed apart: tokens/s and notes/s are processing
  only; "total s" is the subprocess's whole wall time.
- competitors: each tool of `competitors.py` in its own subprocess, one note
  at a time as its documentation shows; a tool that is not installed or
  cannot run offline is reported and skipped, a note it fails on is counted.
- growth: `--growth-model` at 1 process on the first 1k, 10k and 100k notes
  (`--growth-sizes`): time per 1k notes (should stay constant) and peak RSS
  (should stay flat). 100k notes of `en` take about 70 min on a 2-core machine,
  after about 12 min to generate the notes and count their tokens.

Accuracy. Every system's spans (our `Result.spans`, the tools' spans) are
scored against the gold spans with `spacy_deid.evaluate`'s binary
PHI-token measure: the evaluation tokens of the gold text (`\\w+|[^\\w\\s]`,
`evaluate.tokens`) are PHI when a gold span overlaps them and flagged when a
predicted span does, labels ignored. Per category (gold spans of HIPAA
subcategories only, at i2b2 category level): "any" recall counts a PHI
token found when any span flags it; "typed" recall only when the span's
label maps to the token's category (the label maps are printed; "-" where
the tool has no label for the category). A note a system rejected or failed
on counts as flagging nothing.

Targets, printed as PASS/FAIL: `en` >= 5,000 tokens/s per process;
2 processes >= 1.7x one; peak RSS of one `en` process < 600 MB; peak RSS
within 10% from the second to the last growth size; `en` >= 10x Presidio's
tokens/s with a higher binary PHI-token recall (and the same line for each
other pipeline measured, `en_rules` by default). Figures depend on the
machine and its load (printed at the top): run it, don't assert on it in
tests. No note text is printed.
"""

import argparse
import functools
import importlib.util
import itertools
import json
import multiprocessing
import os
import resource
import shlex
import shutil
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set
from typing import Tuple

import competitors

# Everything else (spacy_deid, its evaluation, accuracy_speed's helpers) is
# imported where it is used, so that a worker process holds only the
# pipeline it measures.
HERE = Path(__file__).resolve().parent
PARTS = ("ours", "competitors", "growth")
BENCHMARK_KEY = b"benchmark-key-0123456789"
TOKEN_PIPELINE = "en"
DEFAULT_PIPELINE = "en"
UNMAPPED = "UNMAPPED"
# The process tree is found again, and its PSS read, every SCAN_EVERY polls.
SCAN_EVERY = 10
THREAD_VARS = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
# Speed and memory targets of the shipped pipelines.
TOKENS_PER_S = 5000.0
SPEEDUP_2 = 1.7
RSS_MB = 600.0
RSS_GROWTH = 0.10
PRESIDIO_FACTOR = 10.0


class BenchError(Exception):
    """A configuration that could not be measured; the message is safe to
    print (no note text)."""


# Notes


@dataclass
class NotesFile:
    """The notes (generated, or read from `--gold`) and their token counts
    at the sizes parts use."""

    path: Path
    seed: Optional[int]
    notes: int
    tokens: Dict[int, int]
    chars: Dict[int, int]
    seconds: float
    source: Optional[str] = None  # the --gold corpus's name

    def describe(self, n: int) -> str:
        """Where `n` of these notes come from, for titles."""
        if self.source is not None:
            return f"{n} notes of {self.source}"
        return f"{n} notes of synth seed {self.seed}"


@functools.lru_cache(maxsize=1)
def token_counter(pipeline: str = TOKEN_PIPELINE):
    """A shipped pipeline without its components, for its tokenizer."""
    import spacy

    import spacy_deid

    config = spacy.util.load_config(spacy_deid.pipeline_path(pipeline) / "config.cfg")
    return spacy_deid.load(pipeline, exclude=list(config["nlp"]["pipeline"]))


def write_notes(path: Path, n: int, seed: int, sizes: Sequence[int]) -> NotesFile:
    """Generate `n` notes into `path`, streaming, and count their tokens.

    sizes (Sequence[int]): Prefix sizes whose token and character counts
        are kept (`n` is always kept).
    RETURNS (NotesFile): The file and the counts.
    """
    from spacy_deid.synth import generate

    start = time.perf_counter()
    counts = write_counted(generate(n, seed=seed, split="all"), path, set(sizes) | {n})
    return NotesFile(path, seed, n, *counts, time.perf_counter() - start)


def read_gold(path: Path, out: Path, limit: int, format: Optional[str]) -> NotesFile:
    """Copy the first `limit` notes of a gold corpus (any format of
    `spacy_deid.corpus.read_notes`) to `out` as JSONL, and count their tokens.

    RETURNS (NotesFile): The copy and its counts; `notes` is how many were read.
    """
    from spacy_deid.core.errors import CorpusError
    from spacy_deid.corpus.formats import read_notes

    start = time.perf_counter()
    notes = itertools.islice(read_notes(path, format=format), limit)
    tokens, chars = write_counted(notes, out, None)
    if not tokens:
        raise CorpusError(f"no note in the gold corpus '{path}'")
    n = max(tokens)
    source = f"gold corpus {path.name}"
    return NotesFile(out, None, n, tokens, chars, time.perf_counter() - start, source)


def write_counted(
    notes: Iterable[Any], path: Path, keep: Optional[Set[int]]
) -> Tuple[Dict[int, int], Dict[int, int]]:
    """Write notes to `path` as JSONL, streaming, counting tokens and
    characters. RETURNS the running totals after each count in `keep` (None:
    after the last note only)."""
    from spacy_deid.corpus import write_jsonl

    nlp = token_counter()
    tokens: Dict[int, int] = {}
    chars: Dict[int, int] = {}
    totals = [0, 0, 0]  # notes, tokens, characters

    def counted() -> Iterator[Any]:
        for note in notes:
            with nlp.memory_zone():
                totals[1] += len(nlp.make_doc(note.text))
            totals[2] += len(note.text)
            totals[0] += 1
            if keep is not None and totals[0] in keep:
                tokens[totals[0]], chars[totals[0]] = totals[1:]
            yield note

    write_jsonl(counted(), path)
    if keep is None and totals[0]:
        tokens[totals[0]], chars[totals[0]] = totals[1:]
    return tokens, chars


# Memory of a process tree


def proc_children() -> Dict[int, List[int]]:
    """Parent pid -> child pids, from /proc/*/stat."""
    children: Dict[int, List[int]] = defaultdict(list)
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:
            continue
        # The command name may hold spaces and ")": fields follow the last ")".
        fields = stat.rsplit(")", 1)[1].split()
        children[int(fields[1])].append(int(entry))
    return children


def process_tree(root: int) -> List[int]:
    """The pid and every descendant of `root` that is alive now."""
    children = proc_children()
    tree, todo = [], [root]
    while todo:
        pid = todo.pop()
        tree.append(pid)
        todo.extend(children.get(pid, ()))
    return tree


def read_kb(path: str, keys: Sequence[str]) -> Dict[str, int]:
    """The `key: N kB` values of a /proc file; {} when the process is gone."""
    values: Dict[str, int] = {}
    try:
        with open(path) as handle:
            for line in handle:
                key, _, rest = line.partition(":")
                if key in keys:
                    values[key] = int(rest.split()[0])
    except (OSError, ValueError, IndexError):
        return {}
    return values


@dataclass
class TreeMemory:
    """Peaks polled over a process tree, in KB."""

    samples: int = 0
    tree_rss: int = 0
    tree_pss: int = 0
    rss: Dict[int, int] = field(default_factory=dict)
    hwm: Dict[int, int] = field(default_factory=dict)
    pids: List[int] = field(default_factory=list)

    def poll(self, root: int) -> None:
        """Sample the tree once: VmRSS and VmHWM of its processes; every
        `SCAN_EVERY` polls it is found again (a scan of /proc, the costly
        part) and PSS is read."""
        rescan = self.samples % SCAN_EVERY == 0 or not self.pids
        if rescan:
            self.pids = process_tree(root)
        pids, with_pss = self.pids, rescan
        self.samples += 1
        rss_sum = pss_sum = 0
        for pid in pids:
            status = read_kb(f"/proc/{pid}/status", ("VmRSS", "VmHWM"))
            if not status:
                continue
            rss_sum += status.get("VmRSS", 0)
            self.rss[pid] = max(self.rss.get(pid, 0), status.get("VmRSS", 0))
            self.hwm[pid] = max(self.hwm.get(pid, 0), status.get("VmHWM", 0))
            if with_pss:
                pss_sum += read_kb(f"/proc/{pid}/smaps_rollup", ("Pss",)).get("Pss", 0)
        self.tree_rss = max(self.tree_rss, rss_sum)
        self.tree_pss = max(self.tree_pss, pss_sum)

    def figures(self) -> Dict[str, Any]:
        """Peaks in MB: largest single process (polled), tree sums."""
        peaks = {pid: max(self.rss[pid], self.hwm.get(pid, 0)) for pid in self.rss}
        return {
            "polls": self.samples,
            "processes_seen": len(peaks),
            "largest_process_polled_mb": max(peaks.values(), default=0) / 1024,
            "per_process_polled_mb": sorted(
                (v / 1024 for v in peaks.values()), reverse=True
            ),
            "tree_rss_mb": self.tree_rss / 1024,
            "tree_pss_mb": self.tree_pss / 1024,
        }


def subprocess_env(threads: int) -> Dict[str, str]:
    """This environment with `threads` BLAS/OpenMP threads and the
    benchmarks folder importable."""
    env = dict(os.environ)
    for name in THREAD_VARS:
        env[name] = str(threads)
    env["PYTHONPATH"] = os.pathsep.join(
        p for p in (str(HERE), env.get("PYTHONPATH", "")) if p
    )
    return env


def run_measured(
    command: List[str], log: Path, threads: int, interval: float
) -> Tuple[int, float, Dict[str, Any]]:
    """Run a command while polling its process tree's memory.

    log (Path): Receives the command's stdout and stderr (never printed: a
        tool's messages may quote note text).
    RETURNS (Tuple[int, float, Dict[str, Any]]): exit code, wall seconds,
        `TreeMemory.figures()`.
    """
    memory = TreeMemory()
    start = time.perf_counter()
    with log.open("wb") as out:
        proc = subprocess.Popen(
            command, stdout=out, stderr=subprocess.STDOUT, env=subprocess_env(threads)
        )
        while proc.poll() is None:
            memory.poll(proc.pid)
            time.sleep(interval)
    return proc.returncode, time.perf_counter() - start, memory.figures()


# Workers (run in the measured subprocess)


def load_ours(model: str, mode: str):
    """A shipped pipeline with `phi_surrogates` in `mode` and a fixed key."""
    import spacy_deid

    nlp = spacy_deid.load(model)
    name = "phi_surrogates"
    config = dict(nlp.config["components"][name])
    if config.get("mode") != mode:
        config.pop("factory", None)
        config["mode"] = mode
        nlp.replace_pipe(name, name, config=config)
    nlp.get_pipe(name).set_key(BENCHMARK_KEY)
    return nlp


def ours_worker(spec: Dict[str, Any]) -> Dict[str, Any]:
    """Load a pipeline and de-identify the first `spec["limit"]` notes with
    `deidentify_items`, writing {"id", "spans"} / {"id", "error"} lines to
    `spec["spans_out"]` (None: keep nothing).

    RETURNS (Dict[str, Any]): import_s, load_s, rss_after_load_mb,
        process_s, notes, rejected, rejections, components, peak_rss_mb (own
        VmHWM),
        children_peak_rss_mb (largest finished worker, RUSAGE_CHILDREN).
    """
    start = time.perf_counter()
    from spacy_deid.io.records import read_records
    from spacy_deid.run.runner import Rejected, deidentify_items

    imported = time.perf_counter()
    nlp = load_ours(spec["model"], spec["mode"])
    loaded = time.perf_counter()
    rss_after_load = competitors.status_mb("VmRSS")
    items = itertools.islice(read_records(spec["notes"]), spec["limit"])
    outputs = deidentify_items(
        nlp, items, n_process=spec["n_process"], batch_size=spec["batch_size"]
    )
    rejections: Counter = Counter()
    n_notes = 0
    spans_out = spec.get("spans_out")
    with open(spans_out or os.devnull, "w", encoding="utf-8") as out:
        for output in outputs:
            n_notes += 1
            if isinstance(output, Rejected):
                error = output.error.split(":", 1)[0]
                rejections[error] += 1
                line: Dict[str, Any] = {"id": output.id, "error": error}
            else:
                spans = [(s["start"], s["end"], s["label"]) for s in output.spans]
                line = {"id": output.id, "spans": spans}
            if spans_out:
                out.write(json.dumps(line) + "\n")
    done = time.perf_counter()
    return {
        "status": "ok",
        "components": list(nlp.pipe_names),
        "import_s": imported - start,
        "load_s": loaded - imported,
        "rss_after_load_mb": rss_after_load,
        "process_s": done - loaded,
        "notes": n_notes,
        "rejected": sum(rejections.values()),
        "rejections": dict(rejections),
        "peak_rss_mb": competitors.vm_hwm_mb(),
        "children_peak_rss_mb": resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss
        / 1024,
    }


# Running the configurations


@dataclass
class Context:
    """What every configuration needs: notes, settings, work directory."""

    notes: NotesFile
    work: Path
    batch_size: int
    mode: str
    threads: int
    interval: float


def measure_ours(
    ctx: Context, model: str, n_process: int, limit: int, keep_spans: bool = True
) -> Dict[str, Any]:
    """Run one pipeline configuration in a fresh subprocess and measure it.

    RETURNS (Dict[str, Any]): The worker's figures plus wall_s, memory,
        peak_rss_mb (largest single process), tokens, tokens_per_s,
        notes_per_s, tokens_per_s_per_process, and `spans` (path) when kept.
    """
    name = f"{model}-n{n_process}-{limit}"
    spans = ctx.work / f"{name}.spans.jsonl" if keep_spans else None
    spec = {
        "model": model,
        "mode": ctx.mode,
        "notes": str(ctx.notes.path),
        "limit": limit,
        "n_process": n_process,
        "batch_size": ctx.batch_size,
        "spans_out": None if spans is None else str(spans),
        "result_out": str(ctx.work / f"{name}.result.json"),
    }
    spec_path = ctx.work / f"{name}.spec.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    command = [
        sys.executable,
        str(Path(__file__).resolve()),
        "--worker",
        str(spec_path),
    ]
    base = {"system": model, "n_process": n_process, "notes_requested": limit}
    code, wall, memory = run_measured(
        command, ctx.work / f"{name}.log", ctx.threads, ctx.interval
    )
    result = read_result(Path(spec["result_out"]), code, ctx.work / f"{name}.log")
    if result["status"] != "ok":
        return dict(base, **result)
    own = [result["peak_rss_mb"] or 0.0, result["children_peak_rss_mb"]]
    result = dict(base, **result, wall_s=wall, memory=memory)
    result["peak_rss_mb"] = max(own + [memory["largest_process_polled_mb"]])
    result["spans"] = None if spans is None else str(spans)
    return add_rates(result, ctx.notes.tokens[limit], n_process)


def measure_tool(ctx: Context, tool: str, limit: int) -> Dict[str, Any]:
    """Run one competitor in a fresh subprocess (`competitors.py`)."""
    base = {"system": tool, "n_process": 1, "notes_requested": limit}
    adapter = competitors.ADAPTERS[tool]()
    base["versions"] = adapter.versions()
    if importlib.util.find_spec(adapter.module) is None:
        return dict(base, status="not installed", message="not installed")
    spans = ctx.work / f"{tool}.spans.jsonl"
    result_path = ctx.work / f"{tool}.result.json"
    log = ctx.work / f"{tool}.log"
    command = [
        sys.executable, str(HERE / "competitors.py"), tool, str(ctx.notes.path),
        str(spans), str(result_path), "--limit", str(limit),
    ]  # fmt: skip
    code, wall, memory = run_measured(command, log, ctx.threads, ctx.interval)
    result = read_result(result_path, code, log)
    if result["status"] != "ok":
        return dict(base, **result)
    result = dict(base, **result, wall_s=wall, memory=memory)
    polled = memory["largest_process_polled_mb"]
    result["peak_rss_mb"] = max(result["peak_rss_mb"] or 0.0, polled)
    result["spans"] = str(spans)
    return add_rates(result, ctx.notes.tokens[limit], 1)


def read_result(path: Path, code: int, log: Path) -> Dict[str, Any]:
    """A worker's result file, or an error naming its exit code and log."""
    if code == 0 and path.exists():
        return json.loads(path.read_text(encoding="utf-8"))
    return {
        "status": "error",
        "message": f"the subprocess exited with code {code} (its output is in "
        f"{log}, kept with --keep-files; it may quote note text)",
    }


def add_rates(result: Dict[str, Any], tokens: int, n_process: int) -> Dict[str, Any]:
    """Add tokens and processing rates (load excluded) to a result."""
    seconds = result["process_s"]
    rate = tokens / seconds if seconds else 0.0
    result.update(
        tokens=tokens,
        tokens_per_s=rate,
        tokens_per_s_per_process=rate / n_process,
        notes_per_s=result["notes"] / seconds if seconds else 0.0,
    )
    return result


# Scoring


def category_of_label(label: str, labels: Optional[Dict[str, Optional[str]]]) -> str:
    """A predicted label's i2b2 category: through a tool's label map, or
    ours (`to_coarse`) when `labels` is None; UNMAPPED when it has none."""
    from spacy_deid.labels.maps import to_coarse

    category = labels.get(label) if labels is not None else to_coarse(label)
    return category or UNMAPPED


def read_predictions(path: Path) -> Iterator[Dict[str, Any]]:
    """The {"id", "spans"} / {"id", "error"} lines a worker wrote."""
    with path.open("r", encoding="utf-8") as handle:
        for line in handle:
            yield json.loads(line)


def score_system(
    notes: Path,
    spans: Path,
    limit: int,
    labels: Optional[Dict[str, Optional[str]]],
) -> Dict[str, Any]:
    """Binary PHI-token P/R/F1 and per-category recall of a system's spans.

    labels (Optional[Dict[str, Optional[str]]]): The tool's label map to
        categories; None for our pipelines (our labels).
    RETURNS (Dict[str, Any]): binary_token (Counts.to_dict()),
        hipaa_binary_token_recall, by_category ({category: {"tokens",
        "any_recall", "typed_recall"}}), notes, missing, invalid_spans.
    """
    from spacy_deid.corpus import PhiSpan, read_jsonl
    from spacy_deid.evaluate.matching import binary_token_counts, token_counts
    from spacy_deid.evaluate.metrics import Counts
    from spacy_deid.evaluate.scoring import hipaa_only, relabel
    from spacy_deid.evaluate.tokens import token_labels, tokenize

    binary, hipaa = Counts(), Counts()
    typed: Dict[str, Counts] = defaultdict(Counts)
    found: Counter = Counter()
    support: Counter = Counter()
    missing = invalid = n_notes = 0
    preds = read_predictions(spans)
    for note in itertools.islice(read_jsonl(notes), limit):
        n_notes += 1
        pred = next(preds, None)
        if pred is None or pred["id"] != note.id:
            raise BenchError(
                f"the predictions do not follow the notes at note {note.id}"
            )
        if "error" in pred:
            missing += 1
        predicted = []
        for start, end, label in pred.get("spans", []):
            if not 0 <= start < end <= len(note.text):
                invalid += 1
                continue
            predicted.append(PhiSpan(start, end, category_of_label(label, labels)))
        tokens = tokenize(note.text)
        pred_tokens = token_labels(tokens, predicted)
        binary += binary_token_counts(token_labels(tokens, note.spans), pred_tokens)
        gold_hipaa = token_labels(tokens, relabel(hipaa_only(note.spans), "category"))
        hipaa += binary_token_counts(gold_hipaa, pred_tokens)
        for category, counts in token_counts(gold_hipaa, pred_tokens).items():
            typed[category] += counts
        for gold, guess in zip(gold_hipaa, pred_tokens, strict=True):
            if gold is not None:
                support[gold] += 1
                found[gold] += guess is not None
    known = set(labels.values()) if labels is not None else None
    by_category = {}
    for category in sorted(support):
        counts = typed[category]
        allowed = known is None or category in known
        by_category[category] = {
            "tokens": support[category],
            "any_recall": found[category] / support[category],
            "typed_recall": counts.tp / (counts.tp + counts.fn) if allowed else None,
        }
    return {
        "notes": n_notes,
        "missing": missing,
        "invalid_spans": invalid,
        "binary_token": binary.to_dict(),
        "hipaa_binary_token_recall": hipaa.recall,
        "by_category": by_category,
    }


def add_scores(result: Dict[str, Any], ctx: Context, limit: int, labels) -> None:
    """Score a measured system in place (`accuracy`), if it ran."""
    if result.get("status") == "ok" and result.get("spans"):
        path = Path(result["spans"])
        try:
            result["accuracy"] = score_system(ctx.notes.path, path, limit, labels)
        except BenchError as error:
            result["accuracy_error"] = str(error)


# The parts


def part_ours(ctx: Context, args: argparse.Namespace) -> List[Dict[str, Any]]:
    """Every pipeline at every process count, scored."""
    results = []
    for model in args.pipelines:
        for n_process in args.processes:
            progress(f"ours: {model}, {n_process} process(es), {args.notes} notes")
            result = measure_ours(ctx, model, n_process, args.notes)
            add_scores(result, ctx, args.notes, None)
            results.append(result)
    return results


def part_competitors(ctx: Context, args: argparse.Namespace) -> List[Dict[str, Any]]:
    """Every competitor, scored."""
    results = []
    for tool in args.competitors:
        progress(f"competitors: {tool}, {args.notes} notes")
        result = measure_tool(ctx, tool, args.notes)
        add_scores(result, ctx, args.notes, competitors.ADAPTERS[tool].labels)
        results.append(result)
    return results


def part_growth(ctx: Context, args: argparse.Namespace) -> Dict[str, Any]:
    """The growth model at 1 process on each growth size (spans not kept)."""
    rows = []
    for size in args.growth_sizes:
        progress(f"growth: {args.growth_model}, {size} notes")
        row = measure_ours(ctx, args.growth_model, 1, size, keep_spans=False)
        if row.get("status") == "ok":
            row["s_per_1k_notes"] = row["process_s"] / row["notes"] * 1000
        rows.append(row)
    return {"model": args.growth_model, "rows": rows, "rss_change": rss_change(rows)}


def rss_change(rows: List[Dict[str, Any]]) -> Optional[float]:
    """Relative change of peak RSS from the second to the last growth size."""
    ok = [r for r in rows if r.get("status") == "ok"]
    if len(ok) < 2 or len(ok) != len(rows):
        return None
    first = ok[1] if len(ok) > 2 else ok[0]
    return (ok[-1]["peak_rss_mb"] - first["peak_rss_mb"]) / first["peak_rss_mb"]


# Targets


def find(results: List[Dict[str, Any]], system: str, n_process: int = 1):
    """The ok result of a system at a process count, or None."""
    for r in results:
        if r["system"] == system and r["n_process"] == n_process:
            return r if r.get("status") == "ok" else None
    return None


def speedup(results: List[Dict[str, Any]], system: str) -> Optional[float]:
    """Processing tokens/s at 2 processes over 1, or None."""
    one, two = find(results, system, 1), find(results, system, 2)
    if one is None or two is None or not one["tokens_per_s"]:
        return None
    return two["tokens_per_s"] / one["tokens_per_s"]


def target_lines(figures: Dict[str, Any]) -> List[Dict[str, Any]]:
    """The speed and memory targets: {"target", "value", "passed"} (passed None: not
    measured in this run)."""
    ours = figures.get("ours") or []
    tools = figures.get("competitors") or []
    default = find(ours, DEFAULT_PIPELINE)
    lines = []

    def add(target: str, value: Optional[str], passed: Optional[bool]) -> None:
        lines.append({"target": target, "value": value, "passed": passed})

    rate = None if default is None else default["tokens_per_s_per_process"]
    add(
        f"{DEFAULT_PIPELINE} >= {TOKENS_PER_S:,.0f} tokens/s per process",
        None if rate is None else f"{rate:,.0f} tokens/s",
        None if rate is None else rate >= TOKENS_PER_S,
    )
    for system in dict.fromkeys(r["system"] for r in ours):
        value = speedup(ours, system)
        add(
            f"{system}: 2 processes >= {SPEEDUP_2}x one",
            None if value is None else f"{value:.2f}x",
            None if value is None else value >= SPEEDUP_2,
        )
    peak = None if default is None else default["peak_rss_mb"]
    add(
        f"peak RSS of one {DEFAULT_PIPELINE} process < {RSS_MB:,.0f} MB",
        None if peak is None else f"{peak:,.0f} MB",
        None if peak is None else peak < RSS_MB,
    )
    growth = figures.get("growth") or {}
    change = growth.get("rss_change")
    sizes = [r["notes_requested"] for r in growth.get("rows", [])]
    span = (
        f"{sizes[1] if len(sizes) > 2 else sizes[0]:,}-{sizes[-1]:,}" if sizes else ""
    )
    add(
        f"peak RSS flat within {RSS_GROWTH:.0%} over {span or 'the growth sizes'} notes",
        None if change is None else f"{change:+.1%}",
        None if change is None else abs(change) <= RSS_GROWTH,
    )
    presidio = find(tools, "presidio")
    add(*presidio_target(DEFAULT_PIPELINE, default, presidio))
    # The same bar for each other pipeline measured (e.g. `en_rules`): the
    # target is set for the default, but it shows what a shipped pipeline does.
    for system in dict.fromkeys(r["system"] for r in ours):
        if system != DEFAULT_PIPELINE:
            add(*presidio_target(system, find(ours, system), presidio))
    return lines


def presidio_target(
    system: str, result, presidio
) -> Tuple[str, Optional[str], Optional[bool]]:
    """`system` >= 10x Presidio's tokens/s (one process each) with a higher
    binary PHI-token recall."""
    target = (
        f"{system} >= {PRESIDIO_FACTOR:.0f}x Presidio's tokens/s with a "
        "higher binary PHI-token recall"
    )
    if result is None or presidio is None or "accuracy" not in presidio:
        return target, None, None
    if "accuracy" not in result or not presidio["tokens_per_s"]:
        return target, None, None
    factor = result["tokens_per_s"] / presidio["tokens_per_s"]
    ours_r = result["accuracy"]["binary_token"]["recall"]
    theirs_r = presidio["accuracy"]["binary_token"]["recall"]
    value = f"{factor:.1f}x, recall {ours_r:.4f} vs {theirs_r:.4f}"
    return target, value, factor >= PRESIDIO_FACTOR and ours_r > theirs_r


# Output


def fmt(value: Optional[float], spec: str = ",.0f") -> str:
    """A number, or "-" for None."""
    return "-" if value is None else format(value, spec)


def accuracy_cells(result: Dict[str, Any]) -> List[str]:
    """bin-tok P, R, HIPAA R cells of a result."""
    acc = result.get("accuracy")
    if acc is None:
        return ["-", "-", "-"]
    b = acc["binary_token"]
    return [
        f"{b['precision']:.4f}",
        f"{b['recall']:.4f}",
        f"{acc['hipaa_binary_token_recall']:.4f}",
    ]


def ours_table(results: List[Dict[str, Any]]) -> str:
    """Part 1: one row per pipeline and process count, then the speedups."""
    from accuracy_speed import format_table

    headers = [
        "pipeline", "proc", "notes", "tokens", "load s", "process s", "total s",
        "tokens/s", "tok/s/proc", "notes/s", "load RSS MB", "peak RSS MB",
        "tree RSS MB", "tree PSS MB", "rejected", "bin-tok P", "bin-tok R", "HIPAA R",
    ]  # fmt: skip
    rows, notes = [], []
    for r in results:
        if r.get("status") != "ok":
            rows.append([r["system"], str(r["n_process"]), *["-"] * 16])
            notes.append(f"- {r['system']} x{r['n_process']}: {r['message']}")
            continue
        m = r["memory"]
        rows.append(
            [
                r["system"], str(r["n_process"]), str(r["notes"]), str(r["tokens"]),
                f"{r['import_s'] + r['load_s']:.1f}", f"{r['process_s']:.1f}",
                f"{r['wall_s']:.1f}", fmt(r["tokens_per_s"]),
                fmt(r["tokens_per_s_per_process"]), fmt(r["notes_per_s"], ",.1f"),
                fmt(r.get("rss_after_load_mb")), fmt(r["peak_rss_mb"]),
                fmt(m["tree_rss_mb"]), fmt(m["tree_pss_mb"]),
                str(r["rejected"]), *accuracy_cells(r),
            ]
        )  # fmt: skip
    for system in dict.fromkeys(r["system"] for r in results):
        value = speedup(results, system)
        if value is not None:
            notes.append(f"- {system}: 2 processes = {value:.2f}x the tokens/s of one")
    return format_table(headers, rows, left=(0,)) + "\n\n" + "\n".join(notes)


def competitor_table(
    tools: List[Dict[str, Any]], ours: List[Dict[str, Any]]
) -> Tuple[str, str]:
    """Part 2: throughput and binary scores of each tool next to our
    1-process rows, and the per-category recall table."""
    from accuracy_speed import format_table

    headers = [
        "system", "notes", "failed", "load s", "process s", "tokens/s", "notes/s",
        "load RSS MB", "peak RSS MB", "bin-tok P", "bin-tok R", "HIPAA R",
    ]  # fmt: skip
    rows, notes = [], []
    systems = [
        dict(r, system=f"{r['system']} (ours)")
        for r in ours
        if r["n_process"] == 1 and r.get("status") == "ok"
    ]
    for r in systems + tools:
        if r.get("status") != "ok":
            rows.append([r["system"], *["-"] * 11])
            notes.append(f"- {r['system']}: {r['status']}: {r['message']}")
            continue
        load = r["load_s"] + r.get("import_s", 0.0)
        failed = r.get("failed", r.get("rejected", 0))
        rows.append(
            [
                r["system"], str(r["notes"]), str(failed), f"{load:.1f}",
                f"{r['process_s']:.1f}", fmt(r["tokens_per_s"]),
                fmt(r["notes_per_s"], ",.1f"), fmt(r.get("rss_after_load_mb")),
                fmt(r["peak_rss_mb"]), *accuracy_cells(r),
            ]
        )  # fmt: skip
        if r.get("failures"):
            notes.append(f"- {r['system']}: failed notes by error {r['failures']}")
        if r.get("settings"):
            notes.append(f"- {r['system']}: {r['settings']}")
    main = format_table(headers, rows, left=(0,)) + "\n\n" + "\n".join(notes)
    return main, category_table(systems + tools)


def category_table(results: List[Dict[str, Any]]) -> str:
    """Per-category recall over HIPAA gold tokens, "any/typed" per cell."""
    from accuracy_speed import format_table

    scored = [r for r in results if "accuracy" in r]
    categories = sorted({c for r in scored for c in r["accuracy"]["by_category"]})
    rows = []
    for r in scored:
        cells = []
        for category in categories:
            c = r["accuracy"]["by_category"].get(category)
            if c is None:
                cells.append("-")
                continue
            cells.append(f"{c['any_recall']:.3f}/{fmt(c['typed_recall'], '.3f')}")
        rows.append([r["system"], *cells])
    if scored:
        support = scored[0]["accuracy"]["by_category"]
        rows.append(["(gold tokens)", *(str(support[c]["tokens"]) for c in categories)])
    return format_table(["system", *categories], rows, left=(0,))


def label_map_text() -> str:
    """The label maps used for typed recall, one line per tool."""
    lines = ["ours: subcategory -> its i2b2 category (spacy_deid.labels)"]
    for name, adapter in competitors.ADAPTERS.items():
        pairs = ", ".join(f"{k}->{v or '-'}" for k, v in adapter.labels.items())
        lines.append(f"{name}: {pairs}")
    return "\n".join(f"- {line}" for line in lines)


def growth_table(growth: Dict[str, Any]) -> str:
    """Part 3: time per 1k notes and peak RSS at each size."""
    from accuracy_speed import format_table

    headers = [
        "notes", "tokens", "load s", "process s", "s / 1k notes", "tokens/s",
        "peak RSS MB", "tree PSS MB",
    ]  # fmt: skip
    rows, notes = [], []
    for r in growth["rows"]:
        if r.get("status") != "ok":
            rows.append([str(r["notes_requested"]), *["-"] * 7])
            notes.append(f"- {r['notes_requested']} notes: {r['message']}")
            continue
        rows.append(
            [
                str(r["notes"]), str(r["tokens"]), f"{r['import_s'] + r['load_s']:.1f}",
                f"{r['process_s']:.1f}", f"{r['s_per_1k_notes']:.2f}",
                fmt(r["tokens_per_s"]), fmt(r["peak_rss_mb"]),
                fmt(r["memory"]["tree_pss_mb"]),
            ]
        )  # fmt: skip
    change = growth["rss_change"]
    if change is not None:
        notes.append(f"- peak RSS change, second to last size: {change:+.1%}")
    return format_table(headers, rows, left=()) + "\n\n" + "\n".join(notes)


def targets_text(lines: List[Dict[str, Any]]) -> str:
    """One PASS/FAIL (or n/a) line per target."""
    out = []
    for line in lines:
        verdict = {True: "PASS", False: "FAIL", None: "n/a "}[line["passed"]]
        value = line["value"] or "not measured in this run"
        out.append(f"{verdict}  {line['target']}: {value}")
    return "\n".join(out)


def machine(threads: int) -> Dict[str, Any]:
    """`accuracy_speed.machine_info()` plus every competitor's versions."""
    from accuracy_speed import machine_info

    info = machine_info()
    info["threads_per_process"] = threads
    info["start_method"] = multiprocessing.get_start_method()
    info["competitors"] = {
        name: adapter().versions() for name, adapter in competitors.ADAPTERS.items()
    }
    return info


def progress(message: str) -> None:
    """A progress line on stderr."""
    print(f"[throughput] {message}", file=sys.stderr, flush=True)


# Command line


def csv_list(text: str) -> List[str]:
    return [item.strip() for item in text.split(",") if item.strip()]


def csv_ints(text: str) -> List[int]:
    try:
        values = [int(item) for item in csv_list(text)]
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a list of integers: {text!r}") from None
    if not values or min(values) < 1:
        raise argparse.ArgumentTypeError(f"expected positive integers: {text!r}")
    return values


def parse_args(argv: Optional[Sequence[str]] = None) -> argparse.Namespace:
    """The command line (see the module docstring)."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--notes", type=int, default=1000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--parts", type=csv_list, default=None)
    parser.add_argument("--pipelines", type=csv_list, default=["en_rules", "en"])
    parser.add_argument("--processes", type=csv_ints, default=[1, 2])
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument(
        "--mode", default="surrogate", choices=("surrogate", "redact", "tag")
    )
    parser.add_argument(
        "--competitors", type=csv_list, default=list(competitors.ADAPTERS)
    )
    parser.add_argument("--growth-sizes", type=csv_ints, default=[1000, 10000, 100000])
    parser.add_argument("--growth-model", default=DEFAULT_PIPELINE)
    parser.add_argument(
        "--threads", type=int, default=1, help="BLAS threads per process"
    )
    parser.add_argument(
        "--interval", type=float, default=0.05, help="RSS poll, seconds"
    )
    parser.add_argument("--work-dir", type=Path, help="Keep notes and spans here")
    parser.add_argument("--keep-files", action="store_true")
    parser.add_argument("--json", type=Path, help="Write every figure as JSON")
    parser.add_argument(
        "--gold", type=Path, help="Measure on this gold corpus, not on synth notes"
    )
    parser.add_argument(
        "--gold-format", default=None, help="Its format (default: auto)"
    )
    parser.add_argument("--worker", type=Path, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.parts is None:
        args.parts = [p for p in PARTS if args.gold is None or p != "growth"]
    elif args.gold is not None and "growth" in args.parts:
        parser.error("the growth part needs generated notes: leave it out with --gold")
    unknown = [p for p in args.parts if p not in PARTS] + [
        t for t in args.competitors if t not in competitors.ADAPTERS
    ]
    if unknown:
        parser.error(f"unknown part or competitor: {', '.join(unknown)}")
    if args.notes < 1:
        parser.error("--notes must be at least 1")
    return args


def sizes_needed(args: argparse.Namespace) -> List[int]:
    """The note counts the selected parts read."""
    sizes: Set[int] = set()
    if "ours" in args.parts or "competitors" in args.parts:
        sizes.add(args.notes)
    if "growth" in args.parts:
        sizes.update(args.growth_sizes)
    return sorted(sizes)


def run_parts(ctx: Context, args: argparse.Namespace) -> Dict[str, Any]:
    """Run the selected parts; RETURNS their figures and printed sections."""
    figures: Dict[str, Any] = {}
    if "ours" in args.parts:
        figures["ours"] = part_ours(ctx, args)
    if "competitors" in args.parts:
        figures["competitors"] = part_competitors(ctx, args)
    if "growth" in args.parts:
        figures["growth"] = part_growth(ctx, args)
    figures["targets"] = target_lines(figures)
    return figures


def report(figures: Dict[str, Any], args: argparse.Namespace, notes: NotesFile) -> str:
    """The Markdown sections of every part that ran, and the targets."""
    where = notes.describe(args.notes)
    sections = []
    if "ours" in figures:
        title = (
            f"## Our pipelines ({where}, {notes.tokens[args.notes]:,} ClinicalTokenizer "
            f"tokens; runner batch size {args.batch_size}, mode {args.mode}; "
            "tokens/s excludes load)"
        )
        sections.append(f"{title}\n\n{ours_table(figures['ours'])}")
    if "competitors" in figures:
        main, by_category = competitor_table(
            figures["competitors"], figures.get("ours", [])
        )
        sections.append(
            f"## Competitors ({where}, one process each, our token count)\n\n{main}"
        )
        sections.append(
            "## Recall per category (HIPAA gold tokens; any label / typed)\n\n"
            f"{by_category}\n\nLabel maps:\n{label_map_text()}"
        )
    if "growth" in figures:
        title = f"## Cost growth ({figures['growth']['model']}, 1 process)"
        sections.append(f"{title}\n\n{growth_table(figures['growth'])}")
    sections.append("## Targets\n\n" + targets_text(figures["targets"]))
    return "\n\n".join(sections)


def prepare_notes(args: argparse.Namespace, work: Path) -> NotesFile:
    """Generate the notes the parts need, or copy the `--gold` notes (then
    `args.notes` becomes the number read, if fewer)."""
    if args.gold is not None:
        progress(f"reading up to {args.notes} gold notes into {work}")
        notes = read_gold(args.gold, work / "notes.jsonl", args.notes, args.gold_format)
        args.notes = notes.notes
        return notes
    sizes = sizes_needed(args)
    progress(f"generating {max(sizes)} notes (seed {args.seed}) in {work}")
    return write_notes(work / "notes.jsonl", max(sizes), args.seed, sizes)


def run(args: argparse.Namespace) -> Dict[str, Any]:
    """Generate the notes, run the parts, print and return every figure."""
    command = shlex.join(["python", *sys.argv])
    info = machine(args.threads)
    from accuracy_speed import header

    print(header(command, info) + "\n", flush=True)
    work = args.work_dir or Path(tempfile.mkdtemp(prefix="spacy-deid-bench-"))
    work.mkdir(parents=True, exist_ok=True)
    try:
        notes = prepare_notes(args, work)
        ctx = Context(
            notes, work, args.batch_size, args.mode, args.threads, args.interval
        )
        figures = run_parts(ctx, args)
        print(report(figures, args, notes), flush=True)
        print(f"\nload avg at the end: {[round(x, 2) for x in os.getloadavg()]}")
    finally:
        if not args.keep_files and args.work_dir is None:
            shutil.rmtree(work, ignore_errors=True)
    payload = {
        "command": command,
        "machine": info,
        "load_avg_after": list(os.getloadavg()),
        "settings": {
            k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()
        },
        "notes": {
            "seed": notes.seed,
            "source": notes.source,
            "count": notes.notes,
            "generate_s": notes.seconds,
            "tokens": notes.tokens,
            "chars": notes.chars,
            "tokenizer": f"{TOKEN_PIPELINE} pipeline's ClinicalTokenizer.v1",
        },
        "targets_spec": {
            "tokens_per_s_per_process": TOKENS_PER_S,
            "speedup_2_processes": SPEEDUP_2,
            "peak_rss_mb": RSS_MB,
            "rss_growth": RSS_GROWTH,
            "presidio_factor": PRESIDIO_FACTOR,
        },
        **figures,
    }
    if args.json is not None:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        args.json.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
        print(f"\nWrote {args.json}")
    return payload


def main(argv: Optional[Sequence[str]] = None) -> None:
    args = parse_args(argv)
    if args.worker is not None:
        spec = json.loads(args.worker.read_text(encoding="utf-8"))
        result = ours_worker(spec)
        Path(spec["result_out"]).write_text(json.dumps(result) + "\n", encoding="utf-8")
        return
    run(args)


if __name__ == "__main__":
    main()

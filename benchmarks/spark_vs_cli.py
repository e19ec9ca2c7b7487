"""`spacy-deid run` against `spacy_deid.spark.deidentify_dataframe` on the same notes.

    python benchmarks/spark_vs_cli.py [--notes 10000] [--seed 7] [--model en]
        [--master local[2]] [--partitions 8] [--batch-size 64] [--cli-n-process 1]
        [--work-dir DIR] [--json figures.json]

Generates N notes with `spacy-deid synth`, makes a key, runs the CLI (one
process, or `--cli-n-process`) and the Spark function (`--master`, the notes
read with `spark.read.json` and repartitioned round-robin into `--partitions`)
with the same key, batch size and model, and compares them: row counts, and
identical de-identified text, spans and rejection for every id. Prints wall
times: the CLI's (Python start and model load included), Spark's session
start, and the Spark job's (worker start and model loads included, writing
Parquet). Exit code 0 when the outputs are identical, 1 otherwise.

No note text is printed: differences are named by id and field. The work
folder (a temporary one unless `--work-dir`) holds the notes, the key and
both outputs; a temporary one is deleted at the end.
"""

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import pyarrow.parquet as pq

from spacy_deid.surrogates.keys import write_key_file

Outputs = Dict[str, Tuple[Optional[str], Optional[List[Dict[str, Any]]], bool]]


def run_command(command: List[str]) -> Tuple[float, int, str]:
    """Run a command; (wall seconds, exit code, the end of its stderr)."""
    start = time.perf_counter()
    proc = subprocess.run(command, capture_output=True, text=True)
    return time.perf_counter() - start, proc.returncode, proc.stderr[-2000:]


def synth(n: int, seed: int, path: Path) -> None:
    command = [sys.executable, "-m", "spacy_deid", "synth", str(n), str(path)]
    _, code, stderr = run_command(command + ["--seed", str(seed)])
    if code != 0:
        sys.exit(f"spacy-deid synth failed ({code}):\n{stderr}")


def run_cli(args: argparse.Namespace, work: Path) -> Tuple[float, Outputs]:
    """Run `spacy-deid run`; its wall time and {id: (text, spans, rejected)}."""
    out, rejects = work / "cli.jsonl", work / "cli_rejects.jsonl"
    command = [
        sys.executable, "-m", "spacy_deid", "run", str(work / "notes.jsonl"),
        str(out), "--model", args.model, "--key-file", str(work / "deid.key"),
        "--batch-size", str(args.batch_size), "--n-process", str(args.cli_n_process),
        "--reject-file", str(rejects), "--no-progress",
    ]  # fmt: skip
    seconds, code, stderr = run_command(command)
    if code not in (0, 3):
        sys.exit(f"spacy-deid run failed ({code}):\n{stderr}")
    outputs: Outputs = {}
    with out.open(encoding="utf8") as lines:
        for line in lines:
            record = json.loads(line)
            rejected = bool(record.get("redacted_all"))
            outputs[record["id"]] = (record["text"], record["spans"], rejected)
    with rejects.open(encoding="utf8") as lines:
        for line in lines:
            record = json.loads(line)
            if record["id"] not in outputs:
                outputs[record["id"]] = (None, None, True)
    return seconds, outputs


def start_spark(master: str) -> Tuple[float, Any]:
    from pyspark.sql import SparkSession

    os.environ.setdefault("PYSPARK_PYTHON", sys.executable)
    start = time.perf_counter()
    spark = (
        SparkSession.builder.master(master)
        .appName("spacy-deid spark_vs_cli")
        .config("spark.ui.enabled", "false")
        .config("spark.ui.showConsoleProgress", "false")
        .config("spark.driver.memory", "2g")
        .config("spark.executorEnv.OPENBLAS_NUM_THREADS", "1")
        .getOrCreate()
    )
    spark.sparkContext.setLogLevel("ERROR")
    return time.perf_counter() - start, spark


def run_spark(
    args: argparse.Namespace, spark: Any, work: Path
) -> Tuple[float, Outputs]:
    """Run the Spark function, writing Parquet; its wall time and outputs."""
    from spacy_deid.spark import deidentify_dataframe

    key = (work / "deid.key").read_bytes()
    out = work / "spark.parquet"
    start = time.perf_counter()
    notes = spark.read.schema("id string, text string, patient string").json(
        str(work / "notes.jsonl")
    )
    result = deidentify_dataframe(
        notes.repartition(args.partitions),
        patient_col="patient",
        model=args.model,
        key=key,
        batch_size=args.batch_size,
    )
    result.write.mode("overwrite").parquet(str(out))
    seconds = time.perf_counter() - start
    outputs: Outputs = {}
    for row in pq.read_table(out).to_pylist():
        rejected = row["deid_error"] is not None
        outputs[row["id"]] = (row["text"], row["spans"], rejected)
    return seconds, outputs


def compare(cli: Outputs, spark: Outputs) -> Dict[str, Any]:
    """Counts of identical and different rows, and the ids that differ."""
    common = sorted(set(cli) & set(spark))
    text_diff = [i for i in common if cli[i][0] != spark[i][0]]
    span_diff = [i for i in common if (cli[i][1] or []) != (spark[i][1] or [])]
    rejected_diff = [i for i in common if cli[i][2] != spark[i][2]]
    return {
        "cli_rows": len(cli),
        "spark_rows": len(spark),
        "only_cli": sorted(set(cli) - set(spark)),
        "only_spark": sorted(set(spark) - set(cli)),
        "cli_rejected": sum(out[2] for out in cli.values()),
        "spark_rejected": sum(out[2] for out in spark.values()),
        "text_differs": text_diff,
        "spans_differ": span_diff,
        "rejected_differs": rejected_diff,
        "identical": sum(
            1 for i in common if i not in set(text_diff + span_diff + rejected_diff)
        ),
    }


def print_report(args: argparse.Namespace, figures: Dict[str, Any]) -> None:
    diff = figures["comparison"]
    n = args.notes
    print(f"command: python {' '.join(sys.argv)}")
    load = ", ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"machine: {platform.machine()}, {os.cpu_count()} CPUs, load {load}")
    print(f"notes: {n} (spacy-deid synth --seed {args.seed}), model: {args.model}")
    print()
    print("| run | wall s | notes/s |")
    print("| --- | ---: | ---: |")
    cli_s, job_s = figures["cli_seconds"], figures["spark_job_seconds"]
    print(f"| CLI (--n-process {args.cli_n_process}) | {cli_s:.1f} | {n / cli_s:.1f} |")
    print(f"| Spark session start ({args.master}) | {figures['spark_start_seconds']:.1f} | |")  # fmt: skip
    print(f"| Spark job ({args.partitions} partitions) | {job_s:.1f} | {n / job_s:.1f} |")  # fmt: skip
    print()
    print(f"rows: CLI {diff['cli_rows']}, Spark {diff['spark_rows']}")
    print(f"rejected: CLI {diff['cli_rejected']}, Spark {diff['spark_rejected']}")
    print(f"identical text, spans and rejection: {diff['identical']} ids")
    for name in ("only_cli", "only_spark", "text_differs", "spans_differ", "rejected_differs"):  # fmt: skip
        ids = diff[name]
        if ids:
            print(f"{name}: {len(ids)} ids, e.g. {', '.join(ids[:10])}")
    verdict = "IDENTICAL" if figures["identical"] else "DIFFERENT"
    print(f"result: {verdict}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--notes", type=int, default=10_000)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--model", default="en")
    parser.add_argument("--master", default="local[2]")
    parser.add_argument("--partitions", type=int, default=8)
    parser.add_argument("--batch-size", type=int, default=64)
    parser.add_argument("--cli-n-process", type=int, default=1)
    parser.add_argument("--work-dir", type=Path, default=None)
    parser.add_argument("--json", type=Path, default=None, help="Write the figures")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="spark_vs_cli_") as tmp:
        work = args.work_dir or Path(tmp)
        work.mkdir(parents=True, exist_ok=True)
        synth(args.notes, args.seed, work / "notes.jsonl")
        key_path = work / "deid.key"
        key_path.unlink(missing_ok=True)
        write_key_file(key_path)
        cli_seconds, cli = run_cli(args, work)
        start_seconds, spark = start_spark(args.master)
        try:
            job_seconds, spark_out = run_spark(args, spark, work)
        finally:
            spark.stop()
    comparison = compare(cli, spark_out)
    identical = comparison["identical"] == len(cli) == len(spark_out) == args.notes
    figures = {
        "notes": args.notes,
        "model": args.model,
        "master": args.master,
        "partitions": args.partitions,
        "cli_n_process": args.cli_n_process,
        "cli_seconds": round(cli_seconds, 2),
        "spark_start_seconds": round(start_seconds, 2),
        "spark_job_seconds": round(job_seconds, 2),
        "comparison": comparison,
        "identical": identical,
    }
    print_report(args, figures)
    if args.json:
        args.json.write_text(json.dumps(figures, indent=2) + "\n", encoding="utf8")
    sys.exit(0 if identical else 1)


if __name__ == "__main__":
    main()

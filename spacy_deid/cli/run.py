"""`spacy-deid run IN OUT`: de-identify JSONL, CSV, Parquet or a folder of
.txt files, into JSONL, CSV, Parquet or a folder of .txt files.

Formats come from the paths (`.jsonl`, `.csv`, `.parquet`, a folder) or from
`--input-format/--output-format`. Tables are read with `--id-column`,
`--text-column` and `--patient-column` (optional in the data); the output
keeps the id and patient columns, has the de-identified text in the text
column, a `spans` column and, with `--on-error redact-all`, `redacted_all`.
Every other input column or JSONL field is dropped (it may hold PHI) unless
named in `--keep-columns` (then the user answers for what it holds).

Exit codes: 0 all records de-identified; 1 fatal error (nothing trustworthy was
written for the remaining records); 2 bad command line; 3 finished, but some
records were rejected (listed in the reject file and on stderr; on
`--resume`, in this run or the earlier one); 130 interrupted by SIGINT or
SIGTERM (the output holds whole records only: the records finished before
the signal, a prefix of the input order).

`--on-error redact-all` writes a record whose processing or check failed with
all its text redacted (letters and digits replaced by "X", same length),
no spans and `"redacted_all": true`; it is still listed as rejected (exit 3).

Output is written whole records at a time, once per batch (Parquet: a row
group every few thousand rows); a signal that comes during a write takes
effect once that write has finished. An existing OUT is overwritten, unless
`--resume`: then the records already in OUT (and in `--reject-file`) are
skipped by id (a multiset: duplicate ids count) and the rest appended, so
that an interrupted run (SIGINT, SIGTERM, kill -9) finished with `--resume`
gives the output of one uninterrupted run. A record cut by kill -9 is cut
off first. Parquet output is resumable as a dataset folder of part files.

Progress (`--progress`, default when stderr is a terminal): records done,
notes/s, rejected and, when the number of input records is known (counted in
a background thread; Parquet from its metadata; not for stdin), the ETA.

Known PHI (identifiers from the structured record) comes from the records'
"known_phi" field (column) and/or from `--known-phi FILE`, a JSONL file of
{"patient": ..., "known_phi": [...]} lines (for every record of that patient)
and {"id": ..., "known_phi": [...]} lines (for one record), read up front.
"""

import multiprocessing
import os
import sys
from dataclasses import replace
from pathlib import Path
from typing import Optional, Tuple

import typer
from spacy.language import Language

from ..io.readers import FORMATS, SUFFIXES, input_format, read_rows
from ..io.records import Columns, InputError
from ..io.resume import Done, ResumeError, read_done
from ..io.tables import MissingDependency, import_parquet, input_columns
from ..io.writers import REDACTED_ALL, ROWS_PER_PART, SPANS, Layout, clear_dataset
from ..known.store import DEFAULT_MAX_PATIENTS, KnownFileError, KnownPhiStore
from ..run.job import JobEnd, JobSettings, run_job
from ..run.pipeline import open_known, set_recall_bias
from ..run.pool import limit_threads
from ..run.progress import Progress, count_in_background
from ..run.runner import ON_ERROR_POLICIES, ON_ERROR_REDACT_ALL, ON_ERROR_REJECT
from ..run.signals import EXIT_INTERRUPTED
from ._app import app
from .common import EXIT_FATAL, EXIT_REJECTED, err, load_pipeline

TABLES = ("csv", "parquet")

INPUT_ARG = typer.Argument(
    ...,
    help=(
        "JSONL file of {id, text, patient?, known_phi?}, a CSV or Parquet "
        "file (or Parquet dataset folder, with --input-format parquet), a "
        "folder of .txt files, or - for stdin (JSONL or CSV)"
    ),
)
OUTPUT_ARG = typer.Argument(
    ...,
    help=(
        "Output: .jsonl, .csv or .parquet file, - for stdout (JSONL or CSV), "
        "a folder of .txt files + spans.jsonl (for .txt input), or a Parquet "
        "dataset folder (--output-format parquet and a path without "
        ".parquet, or --resume)"
    ),
)
INPUT_FORMAT_OPT = typer.Option(
    None,
    "--input-format",
    help="jsonl, csv, parquet or txt (default: from the path)",
)
OUTPUT_FORMAT_OPT = typer.Option(
    None,
    "--output-format",
    help="jsonl, csv, parquet or txt (default: from the path)",
)
ID_COLUMN_OPT = typer.Option(
    "id", "--id-column", help="CSV/Parquet column of the record id"
)
TEXT_COLUMN_OPT = typer.Option(
    "text",
    "--text-column",
    help="CSV/Parquet column of the note (de-identified in the output)",
)
PATIENT_COLUMN_OPT = typer.Option(
    "patient",
    "--patient-column",
    help="CSV/Parquet column of the patient id (optional in the data)",
)
KEEP_COLUMNS_OPT = typer.Option(
    None,
    "--keep-columns",
    help=(
        "Other input columns/fields to copy to the output unchanged, "
        "comma-separated (all others are dropped: they may hold PHI; what "
        "you keep is your responsibility)"
    ),
)
RESUME_OPT = typer.Option(
    False,
    "--resume",
    help=(
        "Continue an interrupted run: keep what OUT (and --reject-file) "
        "holds, skip those records, append the rest. Without it an "
        "existing OUT is overwritten"
    ),
)
ROWS_PER_PART_OPT = typer.Option(
    ROWS_PER_PART,
    "--rows-per-part",
    min=1,
    help="Rows per part file of a Parquet dataset output",
)
MODE_OPT = typer.Option(
    "surrogate", "--mode", "-m", help="surrogate, redact or tag"
)
KEY_FILE_OPT = typer.Option(
    None,
    "--key-file",
    "-k",
    help="Secret key for consistent surrogates (see `spacy-deid keygen`)",
)
MODEL_OPT = typer.Option(
    "en",
    "--model",
    help=(
        "Shipped pipeline (en: rules + tagger, the default; en_rules: rules "
        "only; es_meddocan: Spanish, MEDDOCAN labels), a pipeline directory "
        "or a package"
    ),
)
REJECT_FILE_OPT = typer.Option(
    None, "--reject-file", help="Write rejected record ids and errors here (JSONL)"
)
N_PROCESS_OPT = typer.Option(
    1, "--n-process", "-n", min=1, help="Worker processes"
)
BATCH_SIZE_OPT = typer.Option(
    64, "--batch-size", "-b", min=1, help="Records per batch"
)
TIMEOUT_OPT = typer.Option(
    None,
    "--timeout",
    min=0.001,
    help=(
        "Seconds a worker process may spend on one batch: a batch that "
        "takes longer is redone record by record, and a record that takes "
        "longer alone is rejected (WorkerTimeout). Runs in worker "
        "processes, also with -n 1"
    ),
)
START_METHOD_OPT = typer.Option(
    None,
    "--start-method",
    help=(
        "How worker processes start: fork, spawn or forkserver (default: "
        "Python's default on this platform). spawn and forkserver load a "
        "copy of the pipeline in each worker (slower to start) and are safe "
        "where fork is not"
    ),
)
WITH_OFFSETS_OPT = typer.Option(
    False,
    "--with-offsets",
    help="Add out_start/out_end (offsets in the output text) to spans",
)
PROGRESS_OPT = typer.Option(
    None,
    "--progress/--no-progress",
    help=(
        "Show counts, notes/s and ETA on stderr (default: only when stderr "
        "is a terminal)"
    ),
    show_default=False,
)
KNOWN_PHI_OPT = typer.Option(
    None,
    "--known-phi",
    help=(
        "JSONL file of known PHI from the structured record: "
        '{"patient": ..., "known_phi": [{"text": ..., "label": ...}]} lines '
        '(every record of the patient) and {"id": ..., "known_phi": [...]} '
        "lines (one record)"
    ),
)
KNOWN_CACHE_SIZE_OPT = typer.Option(
    DEFAULT_MAX_PATIENTS,
    "--known-cache-size",
    min=1,
    help=(
        "Patients whose known_phi (from an earlier record) is kept for their "
        "later records; records grouped by patient need 1"
    ),
)
ON_ERROR_OPT = typer.Option(
    ON_ERROR_REJECT,
    "--on-error",
    help=(
        "What to do with a record whose processing or check failed: reject "
        "(leave it out of the output) or redact-all (write it with every "
        'letter and digit replaced by X, no spans, "redacted_all": true); '
        "either way it is listed as rejected (exit code 3)"
    ),
)
MAX_LENGTH_OPT = typer.Option(
    None,
    "--max-length",
    min=1,
    help=(
        "Longest note in characters read as one doc (default: the "
        "pipeline's max_length, 1000000 for the shipped ones); longer notes "
        "are de-identified in overlapping pieces of bounded size"
    ),
)
RECALL_BIAS_OPT = typer.Option(
    None,
    "--recall-bias",
    help=(
        "Set recall_bias on every component that has it (the taggers): "
        "higher finds more PHI at the cost of precision"
    ),
)


@app.command("run")
def run_cli(
    input: str = INPUT_ARG,
    output: str = OUTPUT_ARG,
    input_format: Optional[str] = INPUT_FORMAT_OPT,
    output_format: Optional[str] = OUTPUT_FORMAT_OPT,
    id_column: str = ID_COLUMN_OPT,
    text_column: str = TEXT_COLUMN_OPT,
    patient_column: str = PATIENT_COLUMN_OPT,
    keep_columns: Optional[str] = KEEP_COLUMNS_OPT,
    resume: bool = RESUME_OPT,
    rows_per_part: int = ROWS_PER_PART_OPT,
    mode: str = MODE_OPT,
    key_file: Optional[Path] = KEY_FILE_OPT,
    model: str = MODEL_OPT,
    reject_file: Optional[Path] = REJECT_FILE_OPT,
    n_process: int = N_PROCESS_OPT,
    batch_size: int = BATCH_SIZE_OPT,
    timeout: Optional[float] = TIMEOUT_OPT,
    start_method: Optional[str] = START_METHOD_OPT,
    with_offsets: bool = WITH_OFFSETS_OPT,
    progress: Optional[bool] = PROGRESS_OPT,
    known_phi: Optional[Path] = KNOWN_PHI_OPT,
    known_cache_size: int = KNOWN_CACHE_SIZE_OPT,
    on_error: str = ON_ERROR_OPT,
    max_length: Optional[int] = MAX_LENGTH_OPT,
    recall_bias: Optional[float] = RECALL_BIAS_OPT,
) -> None:
    """De-identify notes from JSONL, CSV, Parquet or .txt files: every output
    record is {id, text, spans} where text is the de-identified note and spans
    are [start, end) offsets into the input (tables keep the patient column
    too). Other input fields are dropped unless named in --keep-columns.
    --resume continues an interrupted run."""
    _check_choices(mode, on_error, start_method)
    if input != "-" and not Path(input).exists():
        err(f"Input not found: {input}")
        raise typer.Exit(EXIT_FATAL)
    fmt_in = _input_format(input, input_format)
    columns = Columns(id_column, text_column, patient_column, _keep_columns(keep_columns))
    try:
        layout = _layout(input, fmt_in, output, output_format, columns, resume, on_error)
        layout = replace(layout, with_offsets=with_offsets, rows_per_part=rows_per_part)
    except (InputError, MissingDependency) as error:
        err(str(error))
        raise typer.Exit(EXIT_FATAL) from None
    done = _resume(layout, reject_file) if resume else None
    if not resume and layout.fmt == "parquet" and layout.dataset:
        clear_dataset(Path(layout.path))
    known = _load_known(known_phi, known_cache_size)
    nlp = load_pipeline(model, mode, key_file, max_length)
    # One BLAS/OpenMP thread per process (parallelism is --n-process): the
    # CRF's small matrix products slow down many times over when BLAS
    # threads compete with other processes for the cores.
    limiter = limit_threads()  # noqa: F841 - keep the limit in force
    if recall_bias is not None:
        _set_recall_bias(nlp, recall_bias)
    tracker = Progress(progress if progress is not None else sys.stderr.isatty())
    count_in_background(tracker, input, fmt_in)
    settings = JobSettings(
        n_process=n_process,
        batch_size=batch_size,
        with_offsets=with_offsets,
        on_error=on_error,
        timeout=timeout,
        start_method=start_method,
        unit="row" if fmt_in in TABLES else "line",
    )
    rows = read_rows(input, fmt_in, columns)
    end = run_job(
        nlp,
        rows,
        layout,
        known=known,
        tracker=tracker,
        echo=err,
        settings=settings,
        done=done,
        reject_file=reject_file,
    )
    _finish(tracker, end, done)


def _check_choices(mode: str, on_error: str, start_method: Optional[str]) -> None:
    if mode not in ("surrogate", "redact", "tag"):
        raise typer.BadParameter(
            "must be surrogate, redact or tag", param_hint="--mode"
        )
    if on_error not in ON_ERROR_POLICIES:
        raise typer.BadParameter(
            f"must be {' or '.join(ON_ERROR_POLICIES)}", param_hint="--on-error"
        )
    methods = multiprocessing.get_all_start_methods()
    if start_method is not None and start_method not in methods:
        raise typer.BadParameter(
            f"must be {' or '.join(methods)} on this platform",
            param_hint="--start-method",
        )


def _set_recall_bias(nlp: Language, value: float) -> None:
    try:
        set_recall_bias(nlp, value)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--recall-bias") from None


def _load_known(path: Optional[Path], cache_size: int) -> KnownPhiStore:
    """The known-PHI store of a run, with the presets of `--known-phi`."""
    try:
        return open_known(path, cache_size)
    except KnownFileError as error:
        err(f"Invalid --known-phi file {path}: {error}")
        raise typer.Exit(EXIT_FATAL) from None
    except OSError as error:
        err(f"Could not read the --known-phi file {path}: {error.strerror}")
        raise typer.Exit(EXIT_FATAL) from None


def _resume(layout: Layout, reject_file: Optional[Path]) -> Optional[Done]:
    """What the interrupted run wrote (None when there is no output yet: a
    fresh run). Exit 1 when it cannot be resumed."""
    try:
        return read_done(layout, reject_file)
    except (ResumeError, MissingDependency) as error:
        err(f"Cannot resume: {error}")
        raise typer.Exit(EXIT_FATAL) from None


def _finish(tracker: Progress, end: JobEnd, done: Optional[Done]) -> None:
    """The summary on stderr and the exit code."""
    if end.interrupted or end.failed:
        what = "Interrupted" if end.interrupted else "Stopped"
        err(
            f"{what}: wrote {end.writer.written} records "
            f"({tracker.rejected} rejected) before stopping."
        )
        code = EXIT_INTERRUPTED if end.interrupted else EXIT_FATAL
        raise typer.Exit(code)
    redacted = (
        f" ({tracker.redacted_all} written redacted whole)"
        if tracker.redacted_all
        else ""
    )
    earlier = ""
    if done is not None:
        earlier = (
            f" Resumed: skipped {end.feed.skipped} records done before"
            f" ({done.n_rejected} of them rejected)."
        )
    err(
        f"De-identified {tracker.done - tracker.rejected} notes, "
        f"rejected {tracker.rejected}{redacted}.{earlier}"
    )
    if tracker.rejected or (done is not None and done.n_rejected):
        raise typer.Exit(EXIT_REJECTED)


def _input_format(source: str, given: Optional[str]) -> str:
    try:
        fmt = input_format(source, given)
    except ValueError as error:
        raise typer.BadParameter(str(error), param_hint="--input-format") from None
    if source == "-" and fmt not in ("jsonl", "csv"):
        raise typer.BadParameter(
            "stdin can be read as jsonl or csv only", param_hint="--input-format"
        )
    return fmt


def _keep_columns(value: Optional[str]) -> Tuple[str, ...]:
    names = tuple(dict.fromkeys(n.strip() for n in (value or "").split(",")))
    names = tuple(n for n in names if n)
    reserved = {"id", "text", SPANS, REDACTED_ALL}
    bad = [n for n in names if n in reserved]
    if bad:
        raise typer.BadParameter(
            f"{', '.join(bad)} cannot be kept: the output has its own",
            param_hint="--keep-columns",
        )
    return names


def _output_format(output: str, given: Optional[str], fmt_in: str) -> str:
    if given is not None:
        if given not in FORMATS:
            raise typer.BadParameter(
                f"must be one of {', '.join(FORMATS)}", param_hint="--output-format"
            )
        return given
    if output == "-":
        return "jsonl"
    suffix = SUFFIXES.get(Path(output).suffix.lower())
    if suffix is not None:
        return suffix
    return "txt" if fmt_in == "txt" else "jsonl"


def _layout(
    source: str,
    fmt_in: str,
    output: str,
    given: Optional[str],
    columns: Columns,
    resume: bool,
    on_error: str,
) -> Layout:
    """The output's format and columns (see `io.writers.Layout`)."""
    fmt = _output_format(output, given, fmt_in)
    if "parquet" in (fmt, fmt_in):
        import_parquet()
    if output == "-" and fmt not in ("jsonl", "csv"):
        raise typer.BadParameter(
            "stdout can be written as jsonl or csv only", param_hint="--output-format"
        )
    if resume and output == "-":
        raise typer.BadParameter("cannot resume on stdout", param_hint="--resume")
    if fmt not in ("csv", "parquet"):
        return Layout(fmt, output, keep=columns.keep)
    for name in (columns.id, columns.text):
        if name in columns.keep:
            raise typer.BadParameter(
                f"{name} cannot be kept: the output has its own",
                param_hint="--keep-columns",
            )
    path = Path(output)
    dataset = fmt == "parquet" and (
        resume
        or path.is_dir()
        or output.endswith(("/", os.sep))
        or path.suffix.lower() not in (".parquet", ".pq")
    )
    names, keep_types = input_columns(source, fmt_in, columns, fmt)
    patient = columns.patient if names is None or columns.patient in names else None
    return Layout(
        fmt,
        output,
        dataset=dataset,
        id=columns.id,
        text=columns.text,
        patient=patient,
        redacted_all=on_error == ON_ERROR_REDACT_ALL,
        keep=columns.keep,
        keep_types=keep_types,
    )

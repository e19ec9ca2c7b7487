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

import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter, deque
from contextlib import ExitStack, contextmanager
from dataclasses import replace
from pathlib import Path
from types import FrameType
from typing import (
    IO,
    Any,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Set,
    Tuple,
)

import typer
from spacy.language import Language

from ..known.items import KnownPhiError, validate_known
from ..known.store import DEFAULT_MAX_PATIENTS, KnownFileError, KnownPhiStore
from ..io.writers import (
    NO_META,
    REDACTED_ALL,
    ROWS_PER_PART,
    SPANS,
    Done,
    KeyMultiset,
    Layout,
    Meta,
    ResumeError,
    Writer,
    clear_dataset,
    existing_output,
    item_key,
    make_writer,
    scan_jsonl,
    scan_output,
)
from ..run.pool import limit_threads
from ..io.records import (
    FORMATS,
    SUFFIXES,
    Columns,
    InputError,
    Item,
    Record,
    Row,
    input_format,
    read_rows,
)
from ..run.runner import (
    ON_ERROR_POLICIES,
    ON_ERROR_REDACT_ALL,
    ON_ERROR_REJECT,
    Output,
    Rejected,
    Result,
    deidentify_items,
)
from ..io.tables import (
    MissingDependency,
    check_columns,
    count_rows,
    csv_rows,
    import_parquet,
    parquet_schema_of,
)
from ._app import app
from .common import EXIT_FATAL, EXIT_REJECTED, err, load_pipeline

TABLES = ("csv", "parquet")
# Skipped records of one patient sent again on --resume, at most.
MAX_REPLAY = 1000
EXIT_INTERRUPTED = 130
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Progress:
    """Counts on stderr, never note text: records done, notes/s (moving
    average over the last `window` seconds), rejected, and with a known
    total the share done and the ETA. On a terminal the line is redrawn
    every `interval` seconds (default 1); elsewhere (a forced `--progress`
    into a log) one line is written every 10 seconds."""

    def __init__(
        self,
        enabled: bool,
        stream: Optional[IO[str]] = None,
        clock: Callable[[], float] = time.monotonic,
        interval: Optional[float] = None,
        window: float = 30.0,
    ) -> None:
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = (
            interval if interval is not None else (1.0 if self.tty else 10.0)
        )
        self.clock = clock
        self.window = window
        self.start = clock()
        self.last = self.start
        self.samples: Deque[Tuple[float, int]] = deque([(self.start, 0)])
        self.done = 0
        self.rejected = 0
        self.redacted_all = 0
        # Records in the input (None: unknown) and records skipped (resume).
        self.total: Optional[int] = None
        self.skipped = 0
        self.width = 0

    def update(self, output: Output) -> None:
        self.done += 1
        # A record redacted whole ("redact-all") was rejected all the same.
        redacted_all = isinstance(output, Result) and output.rejected is not None
        self.redacted_all += redacted_all
        self.rejected += isinstance(output, Rejected) or redacted_all
        now = self.clock()
        if self.enabled and now - self.last >= self.interval:
            self.last = now
            self._print(end="\r" if self.tty else "\n")

    def rate(self) -> float:
        """Notes per second over the last `window` seconds (at least the
        last two samples)."""
        now = self.clock()
        self.samples.append((now, self.done))
        while len(self.samples) > 2 and now - self.samples[1][0] >= self.window:
            self.samples.popleft()
        then, done_then = self.samples[0]
        return (self.done - done_then) / max(now - then, 1e-9)

    def line(self) -> str:
        """The progress line."""
        rate = self.rate()
        msg = f"{self.done:,} notes, {rate:,.1f} notes/s, {self.rejected:,} rejected"
        if self.total is not None:
            total = max(self.total - self.skipped, self.done)
            share = 100.0 * self.done / total if total else 100.0
            msg += f", {share:.1f}% of {total:,}"
            if rate > 0:
                msg += f", ETA {format_duration((total - self.done) / rate)}"
        return msg

    def _print(self, end: str) -> None:
        msg = self.line()
        if end == "\r":
            msg, self.width = msg.ljust(self.width), max(self.width, len(msg))
        self.stream.write(msg + end)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._print(end="\n")


def format_duration(seconds: float) -> str:
    """H:MM:SS."""
    seconds = int(round(max(seconds, 0.0)))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def count_in_background(tracker: Progress, source: str, fmt: str) -> None:
    """Count the input's records in a daemon thread (for the ETA): the run
    starts at once, the ETA shows once the count is known."""

    def count() -> None:
        try:
            tracker.total = count_rows(source, fmt)
        except Exception:  # noqa: BLE001 - no count, no ETA
            tracker.total = None

    if tracker.enabled and source != "-":
        threading.Thread(target=count, name="spacy-deid-count", daemon=True).start()


class StopOnSignal:
    """While entered, SIGINT and SIGTERM raise KeyboardInterrupt, except inside
    `hold()` (a write in progress): then as soon as the write is over. Worker
    processes (`--n-process`) are terminated first: `nlp.pipe` would otherwise
    wait for them forever when it is stopped half-way."""

    def __init__(self) -> None:
        self.holding = 0
        self.pending = False
        # Set once the run is stopping: later signals are ignored.
        self.stopped = False
        self.previous: Dict[int, Any] = {}
        self.pid = os.getpid()

    def __enter__(self) -> "StopOnSignal":
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self.previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *args: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}

    def _handle(self, signum: int, frame: Optional[FrameType]) -> None:
        if self.stopped:
            return
        if self.holding:
            self.pending = True
            return
        self._stop()

    def _stop(self) -> None:
        if os.getpid() != self.pid:
            # A forked worker: its work is lost anyway; leave without a trace.
            os._exit(EXIT_INTERRUPTED)
        for child in multiprocessing.active_children():
            child.terminate()
        raise KeyboardInterrupt

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Defer signals until the block ends."""
        self.holding += 1
        try:
            yield
        finally:
            self.holding -= 1
        if not self.holding and self.pending and not self.stopped:
            self.pending = False
            self._stop()


class Feed:
    """Turns input rows into the items for the runner. It keeps each record's
    patient and kept values by index until its output is written (only the
    records in flight), and on `--resume` skips the records already written
    or rejected (a multiset of ids: an id written k times skips its first k
    occurrences).

    A resumed run must give what one run would: so the skipped records of
    the patient whose run of notes the resumed part continues are sent
    again, their outputs dropped (`replayed`), so that cross-note
    components (`phi_consistency`) see the whole run; and the skipped
    records' own known PHI is passed on to their patient's later records.
    """

    def __init__(self, store: KnownPhiStore, done: Optional[Done] = None) -> None:
        self.store = store
        # What the earlier run wrote (large) and rejected (few), to skip.
        self.skip_written = done.written if done is not None else KeyMultiset()
        self.skip_rejected: Counter = Counter()
        if done is not None:
            self.skip_rejected = done.rejected.copy()
        self.meta: Dict[int, Meta] = {}
        self.replayed: Set[int] = set()
        self.held: Deque[Record] = deque()
        self.skipped = 0

    def items(self, rows: Iterable[Row]) -> Iterator[Item]:
        for row in rows:
            item = row.item
            if (self.skip_written or self.skip_rejected) and self._skipped(item):
                continue
            if isinstance(item, Record):
                if self.held and _scope(self.held[-1]) == _scope(item):
                    for record in self.held:
                        self.replayed.add(record.index)
                        yield record
                    self.held.clear()
                self.meta[item.index] = (item.patient, row.kept)
            self._pass_on_held()
            yield item
        self._pass_on_held()

    def _skipped(self, item: Item) -> bool:
        key = item_key(item.id, item.line)
        if not self.skip_written.take(key):
            if not self.skip_rejected.get(key):
                return False
            self.skip_rejected[key] -= 1
            if not self.skip_rejected[key]:
                del self.skip_rejected[key]
        self.skipped += 1
        if isinstance(item, Record):
            if self.held and _scope(self.held[-1]) != _scope(item):
                self._pass_on_held()
            if len(self.held) >= MAX_REPLAY:
                self._pass_on(self.held.popleft())
            self.held.append(item)
        return True

    def _pass_on_held(self) -> None:
        while self.held:
            self._pass_on(self.held.popleft())

    def _pass_on(self, record: Record) -> None:
        """Let a skipped record pass its known PHI on, as if processed."""
        try:
            own = validate_known(record.known_phi) or None
            self.store.resolve(record.id, record.patient, own)
        except KnownPhiError:
            pass

    def take(self, output: Output) -> Tuple[bool, Meta]:
        """(whether the output is to be written, the record's patient and
        kept values)."""
        meta = self.meta.pop(output.index, NO_META)
        if output.index in self.replayed:
            self.replayed.discard(output.index)
            return False, meta
        return True, meta


def _scope(record: Record) -> str:
    return record.patient or record.id


class Rejects:
    """Reports rejections on stderr (id and line/row, never text) and to the
    writer; on `--resume`, a record written redacted whole whose rejection
    is already in the reject file is not listed twice."""

    def __init__(self, writer: Writer, unit: str, done: Optional[Done]) -> None:
        self.writer = writer
        self.unit = unit
        self.listed: Counter = Counter()
        if done is not None:
            # Rejections listed with no redacted output (cut by kill -9).
            self.listed = done.rejected_redacted - done.redacted

    def __call__(self, item: Rejected, redacted: bool = False) -> None:
        where = f"{self.unit} {item.line}" if item.line is not None else "input"
        name = f"record {item.id!r}" if item.id is not None else "a record"
        err(f"Rejected {name} ({where}): {item.error}")
        key = item_key(item.id, item.line)
        if redacted and self.listed.get(key):
            self.listed[key] -= 1
            return
        self.writer.reject(item, redacted)


RECALL_BIAS = "recall_bias"


def set_recall_bias(nlp: Language, value: float) -> List[str]:
    """Set `cfg["recall_bias"]` on every component that has that setting.

    nlp (Language): The pipeline.
    value (float): The bias (finite).
    RETURNS (List[str]): The names of the components changed.
    """
    if not math.isfinite(value):
        raise ValueError("the recall bias must be a finite number")
    names = []
    for name, pipe in nlp.pipeline:
        cfg = getattr(pipe, "cfg", None)
        if isinstance(cfg, dict) and RECALL_BIAS in cfg:
            cfg[RECALL_BIAS] = float(value)
            names.append(name)
    if not names:
        raise ValueError(
            "no component of this pipeline has a recall_bias setting "
            f"(components: {', '.join(nlp.pipe_names)})"
        )
    return names


def load_known(path: Optional[Path], cache_size: int) -> KnownPhiStore:
    """The known-PHI store of a run, with the presets of `--known-phi`."""
    if path is None:
        return KnownPhiStore(max_patients=cache_size)
    try:
        return KnownPhiStore.from_file(path, max_patients=cache_size)
    except KnownFileError as error:
        err(f"Invalid --known-phi file {path}: {error}")
        raise typer.Exit(EXIT_FATAL) from None
    except OSError as error:
        err(f"Could not read the --known-phi file {path}: {error.strerror}")
        raise typer.Exit(EXIT_FATAL) from None


@app.command("run")
def run_cli(
    input: str = typer.Argument(
        ...,
        help=(
            "JSONL file of {id, text, patient?, known_phi?}, a CSV or Parquet "
            "file (or Parquet dataset folder, with --input-format parquet), a "
            "folder of .txt files, or - for stdin (JSONL or CSV)"
        ),
    ),
    output: str = typer.Argument(
        ...,
        help=(
            "Output: .jsonl, .csv or .parquet file, - for stdout (JSONL or CSV), "
            "a folder of .txt files + spans.jsonl (for .txt input), or a Parquet "
            "dataset folder (--output-format parquet and a path without "
            ".parquet, or --resume)"
        ),
    ),
    input_format: Optional[str] = typer.Option(
        None,
        "--input-format",
        help="jsonl, csv, parquet or txt (default: from the path)",
    ),
    output_format: Optional[str] = typer.Option(
        None,
        "--output-format",
        help="jsonl, csv, parquet or txt (default: from the path)",
    ),
    id_column: str = typer.Option(
        "id", "--id-column", help="CSV/Parquet column of the record id"
    ),
    text_column: str = typer.Option(
        "text",
        "--text-column",
        help="CSV/Parquet column of the note (de-identified in the output)",
    ),
    patient_column: str = typer.Option(
        "patient",
        "--patient-column",
        help="CSV/Parquet column of the patient id (optional in the data)",
    ),
    keep_columns: Optional[str] = typer.Option(
        None,
        "--keep-columns",
        help=(
            "Other input columns/fields to copy to the output unchanged, "
            "comma-separated (all others are dropped: they may hold PHI; what "
            "you keep is your responsibility)"
        ),
    ),
    resume: bool = typer.Option(
        False,
        "--resume",
        help=(
            "Continue an interrupted run: keep what OUT (and --reject-file) "
            "holds, skip those records, append the rest. Without it an "
            "existing OUT is overwritten"
        ),
    ),
    rows_per_part: int = typer.Option(
        ROWS_PER_PART,
        "--rows-per-part",
        min=1,
        help="Rows per part file of a Parquet dataset output",
    ),
    mode: str = typer.Option(
        "surrogate", "--mode", "-m", help="surrogate, redact or tag"
    ),
    key_file: Optional[Path] = typer.Option(
        None,
        "--key-file",
        "-k",
        help="Secret key for consistent surrogates (see `spacy-deid keygen`)",
    ),
    model: str = typer.Option(
        "en",
        "--model",
        help=(
            "Shipped pipeline (en: rules + tagger, the default; en_rules: rules "
            "only; es_meddocan: Spanish, MEDDOCAN labels), a pipeline directory "
            "or a package"
        ),
    ),
    reject_file: Optional[Path] = typer.Option(
        None, "--reject-file", help="Write rejected record ids and errors here (JSONL)"
    ),
    n_process: int = typer.Option(
        1, "--n-process", "-n", min=1, help="Worker processes"
    ),
    batch_size: int = typer.Option(
        64, "--batch-size", "-b", min=1, help="Records per batch"
    ),
    timeout: Optional[float] = typer.Option(
        None,
        "--timeout",
        min=0.001,
        help=(
            "Seconds a worker process may spend on one batch: a batch that "
            "takes longer is redone record by record, and a record that takes "
            "longer alone is rejected (WorkerTimeout). Runs in worker "
            "processes, also with -n 1"
        ),
    ),
    start_method: Optional[str] = typer.Option(
        None,
        "--start-method",
        help=(
            "How worker processes start: fork, spawn or forkserver (default: "
            "Python's default on this platform). spawn and forkserver load a "
            "copy of the pipeline in each worker (slower to start) and are safe "
            "where fork is not"
        ),
    ),
    with_offsets: bool = typer.Option(
        False,
        "--with-offsets",
        help="Add out_start/out_end (offsets in the output text) to spans",
    ),
    progress: Optional[bool] = typer.Option(
        None,
        "--progress/--no-progress",
        help=(
            "Show counts, notes/s and ETA on stderr (default: only when stderr "
            "is a terminal)"
        ),
        show_default=False,
    ),
    known_phi: Optional[Path] = typer.Option(
        None,
        "--known-phi",
        help=(
            "JSONL file of known PHI from the structured record: "
            '{"patient": ..., "known_phi": [{"text": ..., "label": ...}]} lines '
            '(every record of the patient) and {"id": ..., "known_phi": [...]} '
            "lines (one record)"
        ),
    ),
    known_cache_size: int = typer.Option(
        DEFAULT_MAX_PATIENTS,
        "--known-cache-size",
        min=1,
        help=(
            "Patients whose known_phi (from an earlier record) is kept for their "
            "later records; records grouped by patient need 1"
        ),
    ),
    on_error: str = typer.Option(
        ON_ERROR_REJECT,
        "--on-error",
        help=(
            "What to do with a record whose processing or check failed: reject "
            "(leave it out of the output) or redact-all (write it with every "
            'letter and digit replaced by X, no spans, "redacted_all": true); '
            "either way it is listed as rejected (exit code 3)"
        ),
    ),
    max_length: Optional[int] = typer.Option(
        None,
        "--max-length",
        min=1,
        help=(
            "Longest note in characters (default: the pipeline's max_length, "
            "1000000 for the shipped ones); longer notes fail with TooLong. "
            "Rules-only pipelines handle several million"
        ),
    ),
    recall_bias: Optional[float] = typer.Option(
        None,
        "--recall-bias",
        help=(
            "Set recall_bias on every component that has it (the taggers): "
            "higher finds more PHI at the cost of precision"
        ),
    ),
) -> None:
    """De-identify notes from JSONL, CSV, Parquet or .txt files: every output
    record is {id, text, spans} where text is the de-identified note and spans
    are [start, end) offsets into the input (tables keep the patient column
    too). Other input fields are dropped unless named in --keep-columns.
    --resume continues an interrupted run."""
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
    if input != "-" and not Path(input).exists():
        err(f"Input not found: {input}")
        raise typer.Exit(EXIT_FATAL)
    fmt_in = _input_format(input, input_format)
    keep = _keep_columns(keep_columns)
    columns = Columns(id_column, text_column, patient_column, keep)
    try:
        layout = _layout(
            input, fmt_in, output, output_format, columns, resume, on_error
        )
        layout = replace(layout, with_offsets=with_offsets, rows_per_part=rows_per_part)
    except (InputError, MissingDependency) as error:
        err(str(error))
        raise typer.Exit(EXIT_FATAL) from None
    done = _resume(layout, reject_file) if resume else None
    if not resume and layout.fmt == "parquet" and layout.dataset:
        clear_dataset(Path(layout.path))
    known = load_known(known_phi, known_cache_size)
    nlp = load_pipeline(model, mode, key_file)
    # One BLAS/OpenMP thread per process (parallelism is --n-process): the
    # CRF's small matrix products slow down many times over when BLAS
    # threads compete with other processes for the cores.
    limiter = limit_threads()  # noqa: F841 - keep the limit in force
    if max_length is not None:
        nlp.max_length = max_length
    if recall_bias is not None:
        try:
            set_recall_bias(nlp, recall_bias)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--recall-bias") from None
    show = progress if progress is not None else sys.stderr.isatty()
    tracker = Progress(show)
    count_in_background(tracker, input, fmt_in)
    feed = Feed(known, done)
    interrupted = failed = False
    with ExitStack() as stack:
        guard = stack.enter_context(StopOnSignal())
        writer = make_writer(
            layout,
            stack,
            reject_file=reject_file,
            append=done is not None,
            hold=guard.hold,
            position_key="row" if fmt_in in TABLES else "line",
            **({"first_part": done.next_part} if done and layout.dataset else {}),
        )
        report = Rejects(writer, "row" if fmt_in in TABLES else "line", done)
        outputs = deidentify_items(
            nlp,
            feed.items(read_rows(input, fmt_in, columns)),
            n_process=n_process,
            batch_size=batch_size,
            with_offsets=with_offsets,
            known=known,
            on_error=on_error,
            timeout=timeout,
            start_method=start_method,
        )
        try:
            for out in outputs:
                tracker.skipped = feed.skipped
                # Signals take effect while the pipeline runs, never half-way
                # through buffering or writing a record.
                with guard.hold():
                    _handle(out, feed, writer, report, tracker)
                    if tracker.done % batch_size == 0:
                        writer.flush()
            writer.flush()
            writer.close()
        except KeyboardInterrupt:
            interrupted = True
            guard.stopped = True
            # What is buffered is finished and checked: write it whole.
            writer.flush()
            writer.close()
        except InputError as error:
            failed = True
            guard.stopped = True
            writer.flush()
            writer.close()
            err(f"Could not read the input: {error}")
        finally:
            guard.stopped = True
            outputs.close()
    tracker.close()
    _finish(tracker, writer, feed, done, interrupted, failed)


def _handle(
    out: Output, feed: Feed, writer: Writer, report: Rejects, tracker: Progress
) -> None:
    """Write or report one output (replayed records are dropped)."""
    keep, meta = feed.take(out)
    if not keep:
        return
    if isinstance(out, Result):
        problem = writer.check(out)
        if problem is not None:
            out = Rejected(out.index, out.id, problem)
    tracker.update(out)
    if isinstance(out, Rejected):
        report(out)
        return
    if out.rejected is not None:
        report(out.rejected, redacted=True)
    writer.write(out, meta)


def _finish(
    tracker: Progress,
    writer: Writer,
    feed: Feed,
    done: Optional[Done],
    interrupted: bool,
    failed: bool,
) -> None:
    """The summary on stderr and the exit code."""
    if interrupted or failed:
        what = "Interrupted" if interrupted else "Stopped"
        err(
            f"{what}: wrote {writer.written} records "
            f"({tracker.rejected} rejected) before stopping."
        )
        code = EXIT_INTERRUPTED if interrupted else EXIT_FATAL
        raise typer.Exit(code)
    redacted = (
        f" ({tracker.redacted_all} written redacted whole)"
        if tracker.redacted_all
        else ""
    )
    earlier = ""
    if done is not None:
        earlier = (
            f" Resumed: skipped {feed.skipped} records done before"
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
    """The output's format and columns (see `outputs.Layout`)."""
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
    names, keep_types = _input_columns(source, fmt_in, columns, fmt)
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


def _input_columns(
    source: str, fmt_in: str, columns: Columns, fmt_out: str
) -> Tuple[Optional[List[str]], Dict[str, Any]]:
    """The input's column names (None when not known up front: JSONL) and
    the Arrow types of the kept columns (Parquet to Parquet)."""
    if fmt_in == "txt":
        return [], {}
    if fmt_in == "jsonl" or source == "-":
        return None, {}
    if fmt_in == "csv":
        with open(source, "rb") as stream:
            first = next(csv_rows(stream), None)
        names = (first[0] or []) if first is not None else []
        check_columns(columns, names, f"'{source}'")
        return names, {}
    schema = parquet_schema_of(source)
    check_columns(columns, schema.names, f"'{source}'")
    types = {}
    if fmt_out == "parquet":
        types = {n: schema.field(n).type for n in columns.keep if n in schema.names}
    return list(schema.names), types


def _resume(layout: Layout, reject_file: Optional[Path]) -> Optional[Done]:
    """What the interrupted run wrote (None when there is no output yet: a
    fresh run). Exit 1 when it cannot be resumed."""
    try:
        if not existing_output(layout):
            if layout.fmt == "parquet":
                scan_output(layout, Done())  # removes unfinished parts
            return None
        done = Done()
        scan_output(layout, done)
        if reject_file is not None and reject_file.exists():
            scan_jsonl(reject_file, done, "rejects")
    except (ResumeError, MissingDependency) as error:
        err(f"Cannot resume: {error}")
        raise typer.Exit(EXIT_FATAL) from None
    return done

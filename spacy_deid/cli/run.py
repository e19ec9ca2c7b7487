"""`spacy-deid run IN OUT`: de-identify a JSONL stream or a folder of .txt files.

Exit codes: 0 all records de-identified; 1 fatal error (nothing trustworthy was
written for the remaining records); 2 bad command line; 3 finished, but some
records were rejected (listed in the reject file and on stderr); 130
interrupted by SIGINT or SIGTERM (the output holds whole lines only: the
records finished before the signal, a prefix of the input order).

`--on-error redact-all` writes a record whose processing or check failed with
all its text redacted (letters and digits replaced by "X", same length),
no spans and `"redacted_all": true`; it is still listed as rejected (exit 3).

Output is written whole lines at a time, once per batch; a signal that comes
during a write takes effect once that write has finished.

Known PHI (identifiers from the structured record) comes from the records'
"known_phi" field and/or from `--known-phi FILE`, a JSONL file of
{"patient": ..., "known_phi": [...]} lines (for every record of that patient)
and {"id": ..., "known_phi": [...]} lines (for one record), read up front.
"""

import json
import math
import multiprocessing
import os
import signal
import sys
import threading
import time
from contextlib import ExitStack, contextmanager
from pathlib import Path
from types import FrameType
from typing import IO, Any, Dict, Iterator, List, Optional

import typer
from spacy.language import Language

from ..known.store import DEFAULT_MAX_PATIENTS, KnownFileError, KnownPhiStore
from ..records import read_records
from ..corpus.atomic import write_text_atomic
from ..runner import (
    ON_ERROR_POLICIES,
    ON_ERROR_REJECT,
    Output,
    Rejected,
    Result,
    deidentify_items,
)
from ._app import app
from .common import EXIT_FATAL, EXIT_REJECTED, err, load_pipeline, open_text_out

EXIT_INTERRUPTED = 130
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class Progress:
    """Counts on stderr (never note text), at most once a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.done = 0
        self.rejected = 0
        self.redacted_all = 0

    def update(self, output: Output) -> None:
        self.done += 1
        # A record redacted whole ("redact-all") was rejected all the same.
        redacted_all = isinstance(output, Result) and output.rejected is not None
        self.redacted_all += redacted_all
        self.rejected += isinstance(output, Rejected) or redacted_all
        now = time.perf_counter()
        if self.enabled and now - self.last >= 1.0:
            self.last = now
            self._print(end="\r")

    def _print(self, end: str) -> None:
        elapsed = max(time.perf_counter() - self.start, 1e-9)
        rate = self.done / elapsed
        msg = f"{self.done} notes, {rate:.1f} notes/s, {self.rejected} rejected"
        sys.stderr.write(msg + end)
        sys.stderr.flush()

    def close(self) -> None:
        if self.enabled:
            self._print(end="\n")


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


class Writer:
    """Writes results as JSONL (file or stdout) or as .txt files in a folder
    (each renamed into place whole), and rejections as JSONL. Lines are
    buffered and written whole, one batch at a time, under `guard.hold()`."""

    def __init__(
        self,
        out: str,
        folder: bool,
        stack: ExitStack,
        reject_file: Optional[Path] = None,
        guard: Optional[StopOnSignal] = None,
    ) -> None:
        self.folder = Path(out) if folder else None
        self.guard = guard if guard is not None else StopOnSignal()
        self.lines: List[str] = []
        self.texts: Dict[Path, str] = {}
        self.reject_lines: List[str] = []
        self.written = 0
        self.pending = 0
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            spans_path = self.folder / "spans.jsonl"
            self.stream = stack.enter_context(spans_path.open("w", encoding="utf8"))
        else:
            self.stream = stack.enter_context(open_text_out(out))
        self.reject_stream: Optional[IO[str]] = None
        if reject_file is not None:
            self.reject_stream = stack.enter_context(
                reject_file.open("w", encoding="utf8")
            )

    def write(self, result: Result) -> None:
        """Buffer a result (written by `flush`)."""
        self.pending += 1
        if self.folder is None:
            line = json.dumps(result.to_dict(), ensure_ascii=False)
            self.lines.append(line + "\n")
            return
        self.texts[self.folder / f"{result.id}.txt"] = result.text
        record: Dict[str, Any] = {"id": result.id, "spans": result.spans}
        if result.redacted_all:
            record["redacted_all"] = True
        self.lines.append(json.dumps(record) + "\n")

    def reject(self, item: Rejected) -> None:
        """Buffer a rejection for the reject file (written by `flush`)."""
        if self.reject_stream is not None:
            self.reject_lines.append(json.dumps(item.to_dict()) + "\n")

    def flush(self) -> None:
        """Write the buffered lines whole; signals wait until it is done."""
        with self.guard.hold():
            if self.texts:
                write_text_atomic(self.texts)
            if self.lines:
                self.stream.write("".join(self.lines))
                self.stream.flush()
            if self.reject_lines and self.reject_stream is not None:
                self.reject_stream.write("".join(self.reject_lines))
                self.reject_stream.flush()
            self.written += self.pending
            self.texts, self.lines, self.reject_lines = {}, [], []
            self.pending = 0


def _report_rejected(item: Rejected, writer: Writer) -> None:
    where = f"line {item.line}" if item.line is not None else "input"
    name = f"record {item.id!r}" if item.id is not None else "a record"
    err(f"Rejected {name} ({where}): {item.error}")
    writer.reject(item)


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
            "JSONL file of {id, text, patient?, known_phi?}, a folder of .txt "
            "files, or - for stdin"
        ),
    ),
    output: str = typer.Argument(
        ..., help="Output JSONL file, - for stdout, or a folder (for .txt input)"
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
    with_offsets: bool = typer.Option(
        False,
        "--with-offsets",
        help="Add out_start/out_end (offsets in the output text) to spans",
    ),
    progress: bool = typer.Option(
        True, "--progress/--no-progress", help="Show counts on stderr"
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
    """De-identify notes: every output record is {id, text, spans} where text is
    the de-identified note and spans are [start, end) offsets into the input."""
    if mode not in ("surrogate", "redact", "tag"):
        raise typer.BadParameter(
            "must be surrogate, redact or tag", param_hint="--mode"
        )
    if on_error not in ON_ERROR_POLICIES:
        raise typer.BadParameter(
            f"must be {' or '.join(ON_ERROR_POLICIES)}", param_hint="--on-error"
        )
    if input != "-" and not Path(input).exists():
        err(f"Input not found: {input}")
        raise typer.Exit(EXIT_FATAL)
    known = load_known(known_phi, known_cache_size)
    nlp = load_pipeline(model, mode, key_file)
    if max_length is not None:
        nlp.max_length = max_length
    if recall_bias is not None:
        try:
            set_recall_bias(nlp, recall_bias)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--recall-bias") from None
    folder_out = (
        output != "-" and Path(input).is_dir() and not output.endswith(".jsonl")
    )
    tracker = Progress(progress and sys.stderr.isatty())
    interrupted = False
    with ExitStack() as stack:
        guard = stack.enter_context(StopOnSignal())
        writer = Writer(output, folder_out, stack, reject_file, guard)
        outputs = deidentify_items(
            nlp,
            read_records(input),
            n_process=n_process,
            batch_size=batch_size,
            with_offsets=with_offsets,
            known=known,
            on_error=on_error,
        )
        try:
            for out in outputs:
                # Signals take effect while the pipeline runs, never half-way
                # through buffering or writing a record.
                with guard.hold():
                    tracker.update(out)
                    if isinstance(out, Rejected):
                        _report_rejected(out, writer)
                    else:
                        if out.rejected is not None:
                            _report_rejected(out.rejected, writer)
                        writer.write(out)
                    if tracker.done % batch_size == 0:
                        writer.flush()
            writer.flush()
        except KeyboardInterrupt:
            interrupted = True
            guard.stopped = True
            # What is buffered is finished and checked: write it whole.
            writer.flush()
        finally:
            guard.stopped = True
            outputs.close()
    tracker.close()
    if interrupted:
        err(
            f"Interrupted: wrote {writer.written} records "
            f"({tracker.rejected} rejected) before stopping."
        )
        if n_process > 1:
            # The output files are closed. The terminated workers' queues
            # still hold work, and multiprocessing's exit handlers would wait
            # forever for it to be sent: leave without running them.
            sys.stdout.flush()
            sys.stderr.flush()
            os._exit(EXIT_INTERRUPTED)
        raise typer.Exit(EXIT_INTERRUPTED)
    redacted = (
        f" ({tracker.redacted_all} written redacted whole)"
        if tracker.redacted_all
        else ""
    )
    err(
        f"De-identified {tracker.done - tracker.rejected} notes, "
        f"rejected {tracker.rejected}{redacted}."
    )
    if tracker.rejected:
        raise typer.Exit(EXIT_REJECTED)

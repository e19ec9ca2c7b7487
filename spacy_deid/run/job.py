"""A whole run from input rows to an output: the runner's outputs are
written whole records at a time, once per batch, rejections are reported,
the progress counted, and SIGINT/SIGTERM stop the run between writes (what
is written is then whole records only, a prefix of the input order)."""

from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Iterable, Optional

from spacy.language import Language

from ..io.records import InputError, Output, Rejected, Result, Row
from ..io.rejects import Rejects
from ..io.resume import Done, Feed
from ..io.writers import Layout, Writer, make_writer
from ..known.store import KnownPhiStore
from .progress import Progress
from .runner import ON_ERROR_REJECT, deidentify_items
from .signals import StopOnSignal


@dataclass(frozen=True)
class JobSettings:
    """How the runner processes the records (see `runner.deidentify_items`).

    unit (str): "line" (JSONL, text folders) or "row" (tables): how record
        positions are named in the reject file and on stderr.
    """

    n_process: int = 1
    batch_size: int = 64
    with_offsets: bool = False
    on_error: str = ON_ERROR_REJECT
    timeout: Optional[float] = None
    start_method: Optional[str] = None
    unit: str = "line"


@dataclass
class JobEnd:
    """How a run ended: the writer (its `written` count), the feed (its
    `skipped` count), and whether a signal or an unreadable input stopped
    it."""

    writer: Writer
    feed: Feed
    interrupted: bool = False
    failed: bool = False


def run_job(
    nlp: Language,
    rows: Iterable[Row],
    layout: Layout,
    *,
    known: KnownPhiStore,
    tracker: Progress,
    echo: Callable[[str], None],
    settings: JobSettings = JobSettings(),
    done: Optional[Done] = None,
    reject_file: Optional[Path] = None,
) -> JobEnd:
    """De-identify input rows into an output.

    nlp (Language): The pipeline (see `pipeline.open_pipeline`).
    rows (Iterable[Row]): The input (see `io.readers.read_rows`).
    layout (Layout): The output.
    known (KnownPhiStore): The known PHI of the run.
    tracker (Progress): Counts the outputs.
    echo (Callable[[str], None]): Prints a status line on stderr.
    settings (JobSettings): How the runner processes the records.
    done (Optional[Done]): What an earlier run wrote (`--resume`), to skip.
    reject_file (Optional[Path]): Where to list rejections (JSONL).
    RETURNS (JobEnd): How the run ended.
    """
    feed = Feed(known, done)
    end: Optional[JobEnd] = None
    with ExitStack() as stack:
        guard = stack.enter_context(StopOnSignal())
        writer = make_writer(
            layout,
            stack,
            reject_file=reject_file,
            append=done is not None,
            hold=guard.hold,
            position_key=settings.unit,
            **({"first_part": done.next_part} if done and layout.dataset else {}),
        )
        end = JobEnd(writer, feed)
        report = Rejects(writer, settings.unit, done, echo)
        outputs = deidentify_items(
            nlp,
            feed.items(rows),
            n_process=settings.n_process,
            batch_size=settings.batch_size,
            with_offsets=settings.with_offsets,
            known=known,
            on_error=settings.on_error,
            timeout=settings.timeout,
            start_method=settings.start_method,
        )
        try:
            for out in outputs:
                tracker.skipped = feed.skipped
                # Signals take effect while the pipeline runs, never half-way
                # through buffering or writing a record.
                with guard.hold():
                    _handle(out, feed, writer, report, tracker)
                    if tracker.done % settings.batch_size == 0:
                        writer.flush()
            writer.flush()
            writer.close()
            if tracker.done == 0 and feed.skipped == 0:
                echo("The input holds no records: nothing was written.")
        except KeyboardInterrupt:
            end.interrupted = True
            guard.stopped = True
            # What is buffered is finished and checked: write it whole.
            writer.flush()
            writer.close()
        except InputError as error:
            end.failed = True
            guard.stopped = True
            writer.flush()
            writer.close()
            echo(f"Could not read the input: {error}")
        finally:
            guard.stopped = True
            outputs.close()
            report.close(reject_file.name if reject_file is not None else None)
    tracker.close()
    return end


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

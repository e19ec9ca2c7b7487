"""`spacy-deid run IN OUT`: de-identify a JSONL stream or a folder of .txt files.

Exit codes: 0 all records de-identified; 1 fatal error (nothing trustworthy was
written for the remaining records); 2 bad command line; 3 finished, but some
records were rejected (listed in the reject file and on stderr).
"""

import json
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import IO, Optional

import typer

from ..records import read_records
from ..runner import Output, Rejected, Result, deidentify_items
from ._app import app
from .common import EXIT_FATAL, EXIT_REJECTED, err, load_pipeline, open_text_out


class Progress:
    """Counts on stderr (never note text), at most once a second."""

    def __init__(self, enabled: bool) -> None:
        self.enabled = enabled
        self.start = time.perf_counter()
        self.last = 0.0
        self.done = 0
        self.rejected = 0

    def update(self, output: Output) -> None:
        self.done += 1
        self.rejected += isinstance(output, Rejected)
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


class Writer:
    """Writes results as JSONL (file or stdout) or as .txt files in a folder."""

    def __init__(self, out: str, folder: bool, stack: ExitStack) -> None:
        self.folder = Path(out) if folder else None
        self.stream: Optional[IO[str]] = None
        if self.folder is not None:
            self.folder.mkdir(parents=True, exist_ok=True)
            spans_path = self.folder / "spans.jsonl"
            self.stream = stack.enter_context(spans_path.open("w", encoding="utf8"))
        else:
            self.stream = stack.enter_context(open_text_out(out))

    def write(self, result: Result) -> None:
        assert self.stream is not None
        if self.folder is None:
            self.stream.write(json.dumps(result.to_dict(), ensure_ascii=False) + "\n")
            return
        target = self.folder / f"{result.id}.txt"
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(result.text, encoding="utf8")
        record = {"id": result.id, "spans": result.spans}
        self.stream.write(json.dumps(record) + "\n")


def _report_rejected(item: Rejected, reject_stream: Optional[IO[str]]) -> None:
    where = f"line {item.line}" if item.line is not None else "input"
    name = f"record {item.id!r}" if item.id is not None else "a record"
    err(f"Rejected {name} ({where}): {item.error}")
    if reject_stream is not None:
        reject_stream.write(json.dumps(item.to_dict()) + "\n")


@app.command("run")
def run_cli(
    input: str = typer.Argument(
        ...,
        help="JSONL file of {id, text, patient?}, a folder of .txt files, or - for stdin",
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
) -> None:
    """De-identify notes: every output record is {id, text, spans} where text is
    the de-identified note and spans are [start, end) offsets into the input."""
    if mode not in ("surrogate", "redact", "tag"):
        raise typer.BadParameter(
            "must be surrogate, redact or tag", param_hint="--mode"
        )
    if input != "-" and not Path(input).exists():
        err(f"Input not found: {input}")
        raise typer.Exit(EXIT_FATAL)
    nlp = load_pipeline(model, mode, key_file)
    folder_out = (
        output != "-" and Path(input).is_dir() and not output.endswith(".jsonl")
    )
    tracker = Progress(progress and sys.stderr.isatty())
    with ExitStack() as stack:
        writer = Writer(output, folder_out, stack)
        reject_stream = None
        if reject_file is not None:
            reject_stream = stack.enter_context(reject_file.open("w", encoding="utf8"))
        items = read_records(input)
        outputs = deidentify_items(
            nlp,
            items,
            n_process=n_process,
            batch_size=batch_size,
            with_offsets=with_offsets,
        )
        for out in outputs:
            tracker.update(out)
            if isinstance(out, Rejected):
                _report_rejected(out, reject_stream)
            else:
                writer.write(out)
    tracker.close()
    err(
        f"De-identified {tracker.done - tracker.rejected} notes, rejected {tracker.rejected}."
    )
    if tracker.rejected:
        raise typer.Exit(EXIT_REJECTED)

"""`spacy-deid run IN OUT`: de-identify a JSONL stream or a folder of .txt files.

Exit codes: 0 all records de-identified; 1 fatal error (nothing trustworthy was
written for the remaining records); 2 bad command line; 3 finished, but some
records were rejected (listed in the reject file and on stderr).

Known PHI (identifiers from the structured record) comes from the records'
"known_phi" field and/or from `--known-phi FILE`, a JSONL file of
{"patient": ..., "known_phi": [...]} lines (for every record of that patient)
and {"id": ..., "known_phi": [...]} lines (for one record), read up front.
"""

import json
import math
import sys
import time
from contextlib import ExitStack
from pathlib import Path
from typing import IO, List, Optional

import typer
from spacy.language import Language

from ..known.store import DEFAULT_MAX_PATIENTS, KnownFileError, KnownPhiStore
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
    if input != "-" and not Path(input).exists():
        err(f"Input not found: {input}")
        raise typer.Exit(EXIT_FATAL)
    known = load_known(known_phi, known_cache_size)
    nlp = load_pipeline(model, mode, key_file)
    if recall_bias is not None:
        try:
            set_recall_bias(nlp, recall_bias)
        except ValueError as error:
            raise typer.BadParameter(str(error), param_hint="--recall-bias") from None
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
            known=known,
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

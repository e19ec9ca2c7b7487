"""The executor side of `spacy_deid.spark`: de-identify one partition.

`DeidentifyPartition` is the `mapInArrow` function. It runs the Arrow batches
of a partition as one stream through `runner.deidentify_items` (the CLI's
fail-closed runner) and gives each input batch back with the de-identified
text, spans and error columns, every other column untouched. The pipeline is
loaded once per Python worker and kept (`cached_pipeline`). Nothing here logs,
and errors that escape name their class only, never note text.
"""

import hashlib
from collections import OrderedDict, deque
from dataclasses import dataclass
from typing import Any, Deque, Dict, Iterator, List, Optional, Sequence, Tuple

import pyarrow as pa
from spacy.language import Language

from ..io.records import ARROW, Item, Output, Rejected, make_item
from ..known.items import KnownItem
from ..known.store import KnownPhiStore, merge_known
from ..run.pipeline import PipelineError, open_pipeline
from ..run.pool import limit_threads
from ..run.runner import deidentify_items

# Pipelines kept per Python worker (each holds a model in memory).
CACHE_SIZE = 2
OFFSET_FIELDS = ("out_start", "out_end")


class SparkDeidError(RuntimeError):
    """A partition could not be de-identified. Messages never hold text."""


@dataclass(frozen=True)
class DeidSettings:
    """What the executors need to de-identify a partition (no key, no text)."""

    model: str
    mode: str
    on_error: str
    batch_size: int
    max_length: Optional[int]
    text_col: str
    id_col: str
    patient_col: Optional[str]
    known_phi_col: Optional[str]
    output_col: str
    spans_col: str
    error_col: str
    with_offsets: bool
    # The output columns, in order.
    columns: Tuple[str, ...]
    # Seconds one batch may take in the task's worker process; None: no
    # limit (and no worker process).
    timeout: Optional[float] = None


class InlineKey:
    """A key carried inside the pickled function (Spark Connect has no
    broadcast variables); its repr never shows it."""

    def __init__(self, value: bytes) -> None:
        self.value = value

    def __repr__(self) -> str:
        return "InlineKey(<hidden>)"


def spans_arrow_type(with_offsets: bool) -> pa.DataType:
    """The Arrow type of the spans column (see `spans_type`)."""
    fields = [("start", pa.int32()), ("end", pa.int32()), ("label", pa.string())]
    if with_offsets:
        fields += [(name, pa.int32()) for name in OFFSET_FIELDS]
    return pa.list_(pa.struct(fields))


_PIPELINES: "OrderedDict[Tuple[Any, ...], Language]" = OrderedDict()
# The thread limits set in this process (kept so that they stay in force).
_THREAD_LIMITS: List[Any] = []


def cached_pipeline(
    model: str, mode: str, key: Optional[bytes], max_length: Optional[int]
) -> Language:
    """The pipeline for these settings, loaded once per Python process (the
    last `CACHE_SIZE` kept). The cache is keyed by a digest of the key."""
    digest = hashlib.sha256(key).hexdigest() if key is not None else None
    cache_key = (model, mode, digest, max_length)
    nlp = _PIPELINES.get(cache_key)
    if nlp is not None:
        _PIPELINES.move_to_end(cache_key)
        return nlp
    nlp = open_pipeline(model, mode, key=key, max_length=max_length)
    # One BLAS thread per Python worker: Spark runs one per task slot.
    if not _THREAD_LIMITS:
        _THREAD_LIMITS.append(limit_threads())
    _PIPELINES[cache_key] = nlp
    while len(_PIPELINES) > CACHE_SIZE:
        _PIPELINES.popitem(last=False)
    return nlp


class RowKnownPhi(KnownPhiStore):
    """Known PHI of a row applies to that row only: no inheritance between
    rows, so the output does not depend on partitioning or row order."""

    def resolve(
        self,
        record_id: str,
        patient: Optional[str],
        own: Optional[Sequence[KnownItem]] = None,
    ) -> Optional[List[KnownItem]]:
        return merge_known(own) or None


def row_item(
    index: int,
    record_id: Any,
    text: Any,
    patient: Any = None,
    known: Any = None,
) -> Item:
    """The record of a row, or why it is rejected (never with its text).

    index (int): The row's position in the partition.
    record_id (Any): The id (string or integer).
    text (Any): The note (str, or UTF-8 bytes).
    patient (Any): The patient id, or None.
    known (Any): Known PHI (list of {"text", "label"} or JSON), or None.
    RETURNS (Item): A Record or a Rejected item.
    """
    return make_item(index, record_id, text, patient, known, dialect=ARROW)


def output_row(
    output: Output,
) -> Tuple[Optional[str], Optional[List[Dict]], Optional[str]]:
    """(text, spans, error) of a row: the de-identified text and spans; the
    whole-note redaction, no spans and the error ("redact-all"); or no text,
    no spans and the error (rejected)."""
    if isinstance(output, Rejected):
        return None, None, output.error
    if output.rejected is not None:
        return output.text, [], output.rejected.error
    return output.text, output.spans, None


class DeidentifyPartition:
    """The `mapInArrow` function: de-identify the Arrow batches of one
    partition as one stream through `deidentify_items`, and give each input
    batch back with the output columns. Picklable (no pipeline, no key)."""

    def __init__(self, settings: DeidSettings, key: Any = None) -> None:
        """Initialize the function.

        settings (DeidSettings): The run's settings.
        key (Any): A broadcast variable or `InlineKey` holding the key, or None.
        """
        self.settings = settings
        self.key = key

    def __call__(self, batches: Iterator[pa.RecordBatch]) -> Iterator[pa.RecordBatch]:
        settings = self.settings
        key = self.key.value if self.key is not None else None
        try:
            nlp = cached_pipeline(
                settings.model, settings.mode, key, settings.max_length
            )
        except Exception as error:  # noqa: BLE001 - report without chaining
            if isinstance(error, PipelineError):
                error = error.error
            raise SparkDeidError(
                f"could not load the pipeline '{settings.model}': "
                f"{type(error).__name__}: {error}"
            ) from None
        try:
            yield from self._run(nlp, batches)
        except SparkDeidError:
            raise
        except Exception as error:  # noqa: BLE001 - never chain a message with text
            raise SparkDeidError(
                f"de-identification of a partition failed: {type(error).__name__}"
            ) from None

    def _run(
        self, nlp: Language, batches: Iterator[pa.RecordBatch]
    ) -> Iterator[pa.RecordBatch]:
        pending: Deque[pa.RecordBatch] = deque()

        def items() -> Iterator[Item]:
            start = 0
            for batch in batches:
                pending.append(batch)
                yield from self._items(batch, start)
                start += batch.num_rows

        outputs = deidentify_items(
            nlp,
            items(),
            batch_size=self.settings.batch_size,
            with_offsets=self.settings.with_offsets,
            known=RowKnownPhi(),
            on_error=self.settings.on_error,
            timeout=self.settings.timeout,
        )
        done: List[Output] = []
        start = 0
        try:
            for output in outputs:
                if output.index != start + len(done):
                    raise SparkDeidError("the runner returned rows out of order")
                done.append(output)
                while pending and len(done) >= pending[0].num_rows:
                    batch = pending.popleft()
                    yield self._output_batch(batch, done[: batch.num_rows])
                    start += batch.num_rows
                    done = done[batch.num_rows :]
        finally:
            outputs.close()
        if done or any(batch.num_rows for batch in pending):
            raise SparkDeidError("the runner lost rows of a partition")
        for batch in pending:
            yield self._output_batch(batch, [])

    def _column(self, batch: pa.RecordBatch, name: Optional[str]) -> List[Any]:
        if name is None:
            return [None] * batch.num_rows
        return batch.column(batch.schema.get_field_index(name)).to_pylist()

    def _items(self, batch: pa.RecordBatch, start: int) -> Iterator[Item]:
        settings = self.settings
        ids = self._column(batch, settings.id_col)
        texts = self._column(batch, settings.text_col)
        patients = self._column(batch, settings.patient_col)
        known = self._column(batch, settings.known_phi_col)
        for i in range(batch.num_rows):
            yield row_item(start + i, ids[i], texts[i], patients[i], known[i])

    def _output_batch(
        self, batch: pa.RecordBatch, outputs: List[Output]
    ) -> pa.RecordBatch:
        settings = self.settings
        rows = [output_row(output) for output in outputs]
        new = {
            settings.output_col: pa.array([r[0] for r in rows], pa.string()),
            settings.spans_col: pa.array(
                [r[1] for r in rows], spans_arrow_type(settings.with_offsets)
            ),
            settings.error_col: pa.array([r[2] for r in rows], pa.string()),
        }
        arrays = [
            new[name]
            if name in new
            else batch.column(batch.schema.get_field_index(name))
            for name in settings.columns
        ]
        return pa.RecordBatch.from_arrays(arrays, names=list(settings.columns))

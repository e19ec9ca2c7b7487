"""Run a de-identification pipeline over a stream of records, failing closed.

A record whose processing raises is never emitted as if it were clean: it comes
out as a `Rejected` item (error class only, no text), and every other record is
still processed. Output order equals input order.

Known PHI (`Record.known_phi`, identifiers from the structured record) is
resolved per record by a `KnownPhiStore` (preset lists, and inheritance from
earlier records of the same patient) and passed to the pipeline in the pipe
context ("known_phi"); a `phi_known` component is added before
`phi_surrogates` if the pipeline has none.

Error policy (`on_error`): "reject" (default) drops a record whose processing
or check failed; "redact-all" instead emits it with every character that is
not whitespace, punctuation or a symbol replaced by "X" (same length, so
offsets still line up), no spans, and `Result.rejected` set, so that callers
still report it. Items that could not be parsed (no id or text) and records
with an invalid known-PHI list are rejected under both policies. A record
longer than `nlp.max_length` is processed in pieces of bounded size
(`pieces`), with the same checks.

Processes (`n_process`): the records are cut into the same batches either
way (`patient_batches`), and each batch goes through `run_batch` (memory
zone, check, record-by-record retry) in this process or in a worker of
`pool.WorkerPool`; a record that kills its worker process is rejected with
"WorkerDied" and the run goes on.
"""

import os
import unicodedata
from collections import deque
from dataclasses import replace
from functools import partial
from typing import (
    Any,
    Callable,
    Deque,
    Dict,
    Generator,
    Iterable,
    Iterator,
    List,
    Optional,
)

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..core.extensions import SPAN_GROUPS, install_extensions
from ..known.component import CONTEXT_KEY as KNOWN_CONTEXT_KEY
from ..known.items import KnownItem, KnownPhiError, validate_known
from ..known.store import KnownPhiStore
from .check import (
    DeidCheckError,
    check_deidentified,
    error_name,
    kept_by,
    kept_label,
)
from ..io.records import Item, Output, Record, Rejected, Result
from ..text.tokenizer_cache import warm_up
from . import pieces
from .check import SURROGATES
from .plan import prepare_run, undo_run
from .pool import WorkerPool

# A batch may grow to this many records to keep one patient's run whole.
MAX_PATIENT_BATCH = 1000
ON_ERROR_REJECT = "reject"
ON_ERROR_REDACT_ALL = "redact-all"
ON_ERROR_POLICIES = (ON_ERROR_REJECT, ON_ERROR_REDACT_ALL)
REDACT_CHAR = "X"




def doc_to_result(
    record: Record,
    doc: Doc,
    with_offsets: bool = False,
    kept: Callable[[Span], bool] = kept_label,
) -> Result:
    """Build the output record from a processed doc; raise if it is not
    de-identified (fail closed). `kept`: see `check_deidentified`."""
    text = doc.text
    if text != record.text:
        raise DeidCheckError("the pipeline changed the input text")
    ents = doc.ents
    deidentified = check_deidentified(doc, ents, text, kept)
    spans = []
    out_offsets = {(s, e): (os_, oe) for s, e, os_, oe in doc._.offset_map}
    for ent in ents:
        span: Dict[str, Any] = {
            "start": ent.start_char,
            "end": ent.end_char,
            "label": ent.label_,
        }
        if with_offsets and (ent.start_char, ent.end_char) in out_offsets:
            out_s, out_e = out_offsets[(ent.start_char, ent.end_char)]
            span["out_start"], span["out_end"] = out_s, out_e
        spans.append(span)
    return Result(record.index, record.id, deidentified, spans)


def _keep_char(char: str) -> bool:
    """Whether `redact_all_text` keeps a character: whitespace, punctuation
    and symbols, which carry no identifier."""
    return char.isspace() or unicodedata.category(char)[0] in "PS"


def redact_all_text(text: str) -> str:
    """Replace every character but whitespace, punctuation and symbols by "X".
    The result has the same length, so offsets still line up."""
    return "".join(c if _keep_char(c) else REDACT_CHAR for c in text)


def redact_all(record: Record, rejected: Rejected) -> Result:
    """The whole-note redaction of a record that failed (`on_error="redact-all"`)."""
    return Result(record.index, record.id, redact_all_text(record.text), [], rejected)


def _context(record: Record) -> Dict[str, Any]:
    context = {"index": record.index, "patient": record.patient or record.id}
    if record.known_phi:
        context[KNOWN_CONTEXT_KEY] = record.known_phi
    return context


def _one(
    nlp: Language, record: Record, with_offsets: bool, kept: Callable[[Span], bool]
) -> Output:
    """Process one record on its own; any error rejects only this record.
    `kept`: see `check_deidentified`."""
    try:
        with nlp.memory_zone():
            pairs = list(nlp.pipe([(record.text, _context(record))], as_tuples=True))
            if not pairs:
                # A failing component dropped the doc (see `MarkFailed`).
                error = "ProcessingError: a component failed and dropped the doc"
                return Rejected(record.index, record.id, error, record.line)
            return doc_to_result(record, pairs[0][0], with_offsets, kept)
    except Exception as err:  # noqa: BLE001 - fail closed, whatever the error
        return Rejected(record.index, record.id, error_name(err), record.line)


def _scope(record: Record) -> str:
    """The consistency scope of a record (as in `_context`)."""
    return record.patient or record.id


def patient_batches(
    records: Iterable[Record], batch_size: int, max_size: int
) -> Iterator[List[Record]]:
    """Batches of about `batch_size` records that do not cut a contiguous run
    of one patient's records (so that cross-note components such as
    `phi_consistency` see the whole run), unless a batch would exceed
    `max_size` records."""
    batch: List[Record] = []
    for record in records:
        if batch and len(batch) >= batch_size:
            if _scope(record) != _scope(batch[-1]) or len(batch) >= max_size:
                yield batch
                batch = []
        batch.append(record)
    if batch:
        yield batch


def run_batch(
    nlp: Language, batch: List[Record], with_offsets: bool = False
) -> List[Output]:
    """De-identify one batch in `nlp.memory_zone()`, so that the strings of
    its notes (PHI included) do not stay in the vocab; if the batch fails, it
    is redone record by record, so that an error rejects only its record. A
    note longer than `nlp.max_length` is done in pieces (`deidentify_long`).

    nlp (Language): The pipeline, with `MarkFailed` as its error handler.
    batch (List[Record]): The records, e.g. one of `patient_batches`.
    with_offsets (bool): Add `out_start`/`out_end` to spans.
    RETURNS (List[Output]): One output per record, in order.
    """
    kept = kept_by(nlp)
    short = [r for r in batch if len(r.text) <= nlp.max_length]
    outputs = {out.index: out for out in _run_whole(nlp, short, with_offsets, kept)}
    for record in batch:
        if record.index not in outputs:
            outputs[record.index] = deidentify_long(nlp, record, with_offsets, kept)
    return [outputs[record.index] for record in batch]


def _run_whole(
    nlp: Language,
    batch: List[Record],
    with_offsets: bool,
    kept: Callable[[Span], bool],
) -> List[Output]:
    """The records of a batch, each as one doc (see `run_batch`)."""
    if not batch:
        return []
    try:
        with nlp.memory_zone():
            pairs = nlp.pipe(((r.text, _context(r)) for r in batch), as_tuples=True)
            return [
                doc_to_result(r, doc, with_offsets, kept)
                for r, (doc, _) in zip(batch, pairs, strict=True)
            ]
    except Exception:  # noqa: BLE001 - isolate the bad record below
        return [_one(nlp, r, with_offsets, kept) for r in batch]


def deidentify_long(
    nlp: Language, record: Record, with_offsets: bool, kept: Callable[[Span], bool]
) -> Output:
    """A note longer than `nlp.max_length`, found in overlapping windows and
    replaced in segments (see `pieces`); any error rejects only this record.

    nlp (Language): The pipeline, ending with `phi_surrogates`.
    record (Record): The note.
    with_offsets (bool): Add `out_start`/`out_end` to spans.
    kept (Callable[[Span], bool]): See `check_deidentified`.
    RETURNS (Output): The result, or the rejection.
    """
    try:
        strings = pieces.new_strings(nlp)
        found = pieces.find(nlp, record.text, _context(record), strings)
        texts: List[str] = []
        spans: List[Dict[str, Any]] = []
        out_at = 0
        segments = pieces.replace(
            nlp, record.text, found, _scope(record), strings, kept
        )
        for start, out, ents, offset_map in segments:
            out_offsets = {(s, e): (os_, oe) for s, e, os_, oe in offset_map}
            for ent in ents:
                span: Dict[str, Any] = {
                    "start": ent.start_char + start,
                    "end": ent.end_char + start,
                    "label": ent.label_,
                }
                if with_offsets and (ent.start_char, ent.end_char) in out_offsets:
                    out_s, out_e = out_offsets[(ent.start_char, ent.end_char)]
                    span["out_start"], span["out_end"] = out_s + out_at, out_e + out_at
                spans.append(span)
            texts.append(out)
            out_at += len(out)
        return Result(record.index, record.id, "".join(texts), spans)
    except Exception as err:  # noqa: BLE001 - fail closed, whatever the error
        return Rejected(record.index, record.id, error_name(err), record.line)


def _single_process(
    nlp: Language, records: Iterable[Record], batch_size: int, with_offsets: bool
) -> Generator[Output, None, None]:
    """Batches in this process; a failing batch is redone record by record.
    Each batch runs in `nlp.memory_zone()`, so the strings of the notes (PHI
    included) do not stay in the vocab: memory stays flat over any number of
    notes and a pipeline saved after a run holds none of them. The
    tokenizer's cache is warmed after the first batch, outside its zone: a
    run of one batch does not pay for it (about 0.2 s)."""
    max_size = max(batch_size, MAX_PATIENT_BATCH)
    for i, batch in enumerate(patient_batches(records, batch_size, max_size)):
        if i == 1:
            warm_up(nlp)
        yield from run_batch(nlp, batch, with_offsets)


def setup_worker(nlp: Language) -> None:
    """Prepare a worker's copy of the pipeline as `deidentify_items` prepares
    the parent's (`prepare_run`), with the extensions and the tokenizer's
    cache (a pickled tokenizer arrives with an empty one)."""
    install_extensions()
    prepare_run(nlp)
    warm_up(nlp)


def _multi_process(
    nlp: Language,
    records: Iterable[Record],
    n_process: int,
    batch_size: int,
    with_offsets: bool,
    timeout: Optional[float] = None,
    start_method: Optional[str] = None,
) -> Generator[Output, None, None]:
    """The batches of `_single_process`, each run by `run_batch` in one of
    `n_process` worker processes (`pool.WorkerPool`); outputs in input order.
    A record whose worker process died on it is rejected ("WorkerDied"), one
    that gave no result within `timeout` seconds ("WorkerTimeout")."""
    max_size = max(batch_size, MAX_PATIENT_BATCH)
    work = partial(run_batch, with_offsets=with_offsets)
    pool = WorkerPool(
        nlp,
        work,
        n_process,
        setup=setup_worker,
        start_method=start_method,
        task_timeout=timeout,
    )
    if pool.start_method == "fork":
        build_prefilters(nlp)
    with pool:
        yield from pool.map(patient_batches(records, batch_size, max_size))


def build_prefilters(nlp: Language) -> None:
    """Build the rules' prefilter databases in this process (`PhiRuler.
    build_prefilter`), so that forked workers share them instead of each
    building its own (about 2 s of CPU each)."""
    for _, component in nlp.pipeline:
        build = getattr(component, "build_prefilter", None)
        if callable(build):
            build()


def check_pipeline(nlp: Language) -> None:
    """Raise unless `phi_surrogates` is the last component and reads doc.ents,
    and every component that writes its spans only to a span group
    (`writes_ents` false, `spans_key` set) is read by a later component that
    merges that group (requires doc.spans and has the key in its
    `sources`): otherwise its PHI would never be replaced."""
    if not nlp.pipe_names or nlp.pipe_names[-1] != SURROGATES:
        raise ValueError(f"The pipeline must end with the '{SURROGATES}' component")
    if nlp.get_pipe(SURROGATES).cfg.get("spans_key") is not None:
        raise ValueError(f"'{SURROGATES}' must read doc.ents (spans_key = null)")
    for i, name in enumerate(nlp.pipe_names):
        pipe = nlp.get_pipe(name)
        if getattr(pipe, "writes_ents", True):
            continue
        key = getattr(pipe, "cfg", {}).get("spans_key")
        if key is not None and not _merged_later(nlp, i, key):
            raise ValueError(
                f"'{name}' writes its spans to doc.spans['{key}'] only, and no "
                "later component (e.g. phi_merge) merges that key"
            )


def set_surrogate_mode(nlp: Language, mode: str) -> None:
    """Give the pipeline's `phi_surrogates` this mode (adding the component if
    there is none), then `check_pipeline`.

    nlp (Language): The pipeline.
    mode (str): surrogate, redact or tag.
    """
    if SURROGATES in nlp.pipe_names:
        config = dict(nlp.config["components"][SURROGATES])
        config.pop("factory", None)
        config["mode"] = mode
        nlp.replace_pipe(SURROGATES, SURROGATES, config=config)
    else:
        nlp.add_pipe(SURROGATES, config={"mode": mode})
    check_pipeline(nlp)


def _merged_later(nlp: Language, index: int, key: str) -> bool:
    """Whether a component after position `index` reads span groups and has
    `key` among its `sources`."""
    for name in nlp.pipe_names[index + 1 :]:
        reads_groups = SPAN_GROUPS in nlp.get_pipe_meta(name).requires
        sources = getattr(nlp.get_pipe(name), "cfg", {}).get("sources", [])
        if reads_groups and key in sources:
            return True
    return False


def with_known_phi(record: Record, store: KnownPhiStore) -> Record:
    """The record with all the known PHI that applies to it (preset lists,
    inherited ones, its own); see `KnownPhiStore.resolve`. Raises a
    KnownPhiError (no text) if the record's own list is malformed."""
    own = validate_known(record.known_phi) or None
    known: Optional[List[KnownItem]] = store.resolve(record.id, record.patient, own)
    if known == record.known_phi:
        return record
    return replace(record, known_phi=known)


def deidentify_items(
    nlp: Language,
    items: Iterable[Item],
    *,
    n_process: int = 1,
    batch_size: int = 64,
    with_offsets: bool = False,
    known: Optional[KnownPhiStore] = None,
    on_error: str = ON_ERROR_REJECT,
    timeout: Optional[float] = None,
    start_method: Optional[str] = None,
) -> Iterator[Output]:
    """De-identify a stream of records, passing rejections through in order.

    If `nlp` has no `phi_known` component, one is added before
    `phi_surrogates` for the run (and removed when the stream ends), so that
    the records' known PHI is marked.
    A `phi_ner` component whose span scores nothing after it reads computes
    none during the run (`skip_unread_scores`; restored when the stream ends).

    Records are cut into batches of about `batch_size` that keep a patient's
    contiguous run of records whole (`patient_batches`); each batch runs in
    `nlp.memory_zone()` (memory stays flat) and a failing batch is redone
    record by record. With `n_process` > 1 the same batches run in worker
    processes (`pool.WorkerPool`, started once with a copy of `nlp`), so the
    output is the same as with one process; at most 2 batches per worker are
    read ahead. A record whose worker process died on it (killed, crashed,
    out of memory) comes out as rejected ("WorkerDied: ...") after its batch
    was redone whole and then record by record; the other records go on.
    With `timeout`, a batch that gives no result within that many seconds
    has its worker killed and is redone record by record; a record that
    times out alone is rejected ("WorkerTimeout: ..."). A timeout needs a
    worker process, so with `n_process` 1 one worker process runs the
    batches. Closing the iterator stops the workers.

    nlp (Language): A pipeline ending with `phi_surrogates`.
    items (Iterable[Item]): Records and already-rejected items.
    n_process (int): Processes: 1 runs in this process; N > 1 starts N
        worker processes; -1: one per CPU.
    batch_size (int): Records per batch.
    with_offsets (bool): Add `out_start`/`out_end` (offsets in the output) to spans.
    known (Optional[KnownPhiStore]): Preset known PHI and the per-patient
        inheritance cache; None: a new `KnownPhiStore()` (no presets).
    on_error (str): "reject": a record whose processing or check failed comes
        out as `Rejected`; "redact-all": as a `Result` with all its text
        redacted (see `redact_all`), no spans, and `rejected` set.
    timeout (Optional[float]): Seconds a worker may spend on one batch; None:
        no limit (and no worker process with `n_process` 1).
    start_method (Optional[str]): How worker processes start ("fork",
        "spawn", "forkserver"); None: `pool.START_METHOD`.
    RETURNS (Iterator[Output]): Results and rejections, in input order.
    """
    if on_error not in ON_ERROR_POLICIES:
        raise ValueError(f"on_error must be one of {', '.join(ON_ERROR_POLICIES)}")
    if n_process == -1:
        n_process = os.cpu_count() or 1
    if n_process < 1:
        raise ValueError("n_process must be at least 1, or -1 (one per CPU)")
    install_extensions()
    check_pipeline(nlp)
    store = known if known is not None else KnownPhiStore()
    waiting: Deque[Output] = deque()
    # Records sent to the pipeline and not yet output (for "redact-all").
    in_flight: Dict[int, Record] = {}
    redact = on_error == ON_ERROR_REDACT_ALL

    def good() -> Iterator[Record]:
        for item in items:
            if isinstance(item, Rejected):
                waiting.append(item)
                continue
            try:
                record = with_known_phi(item, store)
            except KnownPhiError as error:
                error_text = f"InvalidRecord: {error}"
                waiting.append(Rejected(item.index, item.id, error_text, item.line))
                continue
            if redact:
                in_flight[record.index] = record
            yield record

    changes = prepare_run(nlp)
    outputs: Optional[Generator[Output, None, None]] = None
    try:
        if n_process == 1 and timeout is None:
            outputs = _single_process(nlp, good(), batch_size, with_offsets)
        else:
            # Before the batches' memory zones, where spaCy caches no chunk,
            # and before the workers start, which may share the parent's.
            warm_up(nlp)
            outputs = _multi_process(
                nlp, good(), n_process, batch_size, with_offsets, timeout, start_method
            )
        for output in outputs:
            while waiting and waiting[0].index < output.index:
                yield waiting.popleft()
            record = in_flight.pop(output.index, None)
            if record is not None and isinstance(output, Rejected):
                output = redact_all(record, output)
            yield output
        yield from waiting
    finally:
        # The pipeline is as it was, also when the run fails to start.
        if outputs is not None:
            # Stops the worker processes now, not when the generator is collected.
            outputs.close()
        undo_run(nlp, changes)


def deidentify_texts(
    nlp: Language,
    texts: Iterable[str],
    patient: Optional[str] = None,
    known_phi: Optional[List[KnownItem]] = None,
) -> List[str]:
    """Convenience: de-identify plain strings; raise if any of them fails.
    `known_phi` ([{"text", "label"}, ...]) applies to every text."""
    known = validate_known(known_phi) or None
    records = [
        Record(i, str(i), text, patient, known_phi=known)
        for i, text in enumerate(texts)
    ]
    out: List[str] = []
    for output in deidentify_items(nlp, records):
        if isinstance(output, Rejected):
            raise RuntimeError(
                f"note {output.id} could not be de-identified: {output.error}"
            )
        out.append(output.text)
    return out

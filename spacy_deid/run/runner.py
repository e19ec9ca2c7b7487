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
longer than `nlp.max_length` is not processed: it fails with "TooLong".

Processes (`n_process`): the records are cut into the same batches either
way (`patient_batches`), and each batch goes through `run_batch` (memory
zone, check, record-by-record retry) in this process or in a worker of
`pool.WorkerPool`; a record that kills its worker process is rejected with
"WorkerDied" and the run goes on.
"""

import os
import unicodedata
from bisect import bisect_right
from collections import deque
from dataclasses import dataclass, field, replace
from functools import partial
from typing import (
    Any,
    Callable,
    Deque,
    Dict,
    FrozenSet,
    Generator,
    Iterable,
    Iterator,
    List,
    Optional,
    Sequence,
)

from spacy.language import Language
from spacy.tokens import Doc, Span

from ..core.extensions import install_extensions
from ..known.component import CONTEXT_KEY as KNOWN_CONTEXT_KEY
from ..known.items import KnownItem, KnownPhiError, validate_known
from ..known.store import KnownPhiStore
from ..tagging.segments import MAX_DOC_TOKENS
from .pool import WorkerPool
from ..io.records import Item, Output, Record, Rejected, Result
from ..text.tokenizer_cache import warm_up

SURROGATES = "phi_surrogates"
MERGE = "phi_merge"
# Detectors that, with `spans_key` set, write a span group and not doc.ents.
SPANS_ONLY_FACTORIES = frozenset({"phi_ner", "phi_crf"})
# A batch may grow to this many records to keep one patient's run whole.
MAX_PATIENT_BATCH = 1000
KNOWN = "phi_known"
# The `phi_known` label map that gives known spans the labels of a pipeline
# whose `phi_surrogates` reads them through this label map.
KNOWN_LABEL_MAPS = {"meddocan2i2b2": "i2b22meddocan"}
NER = "phi_ner"
# Taggers that give their spans a `phi_score` (see `skip_unread_scores`).
SCORING_FACTORIES = frozenset({NER, "phi_crf"})
# Components that read no `phi_score`: a `phi_ner` followed by these alone
# computes no scores during a run (see `skip_unread_scores`).
SCORE_BLIND_FACTORIES = frozenset({KNOWN, SURROGATES})
# Sentence splitters, and the components that read no sentence boundaries: a
# splitter followed by these alone is left out of a run (see
# `skip_unread_sentences`).
CLINICAL_SENTENCIZER = "clinical_sentencizer"
SENTENCIZER_FACTORIES = frozenset({CLINICAL_SENTENCIZER, "sentencizer"})
SENTENCE_BLIND_FACTORIES = frozenset({KNOWN, "phi_rules", SURROGATES})
# Components that read sentence starts only to cut a doc longer than
# `segments.MAX_DOC_TOKENS` into pieces (see `limit_unread_sentences`).
LONG_DOC_SENTENCE_FACTORIES = frozenset({NER, "phi_crf"})
FAILED_KEY = "spacy_deid_failed"
# Labels whose replacement may equal the original (ages <= 89 are kept), as
# `phi_surrogates` sees them (after its `label_map`; see `kept_by`).
KEPT_LABELS = frozenset({"AGE"})
ON_ERROR_REJECT = "reject"
ON_ERROR_REDACT_ALL = "redact-all"
ON_ERROR_POLICIES = (ON_ERROR_REJECT, ON_ERROR_REDACT_ALL)
REDACT_CHAR = "X"


class DeidCheckError(RuntimeError):
    """A processed doc is not safely de-identified. Messages never hold text."""


def _error_name(err: BaseException) -> str:
    """Describe an exception by its class only (messages may quote note text),
    except our own check errors, whose messages are safe."""
    if isinstance(err, DeidCheckError):
        return f"NotDeidentified: {err}"
    return f"ProcessingError: {type(err).__name__}"


def _kept_label(span: Span) -> bool:
    return span.label_ in KEPT_LABELS


def kept_by(nlp: Language) -> Callable[[Span], bool]:
    """Which PHI spans a pipeline may replace by themselves: those whose label,
    as its `phi_surrogates` maps it for surrogates, is in
    KEPT_LABELS. A MEDDOCAN age ("EDAD_SUJETO_ASISTENCIA") is an AGE there.

    nlp (Language): A pipeline ending with `phi_surrogates`.
    RETURNS (Callable[[Span], bool]): The test, for `check_deidentified`.
    """
    pipe = nlp.get_pipe(SURROGATES) if SURROGATES in nlp.pipe_names else None
    surrogate_label = getattr(pipe, "surrogate_label", None)
    if surrogate_label is None:
        return _kept_label

    def kept(span: Span) -> bool:
        return surrogate_label(span.label_, span.text) in KEPT_LABELS

    return kept


def check_deidentified(
    doc: Doc,
    spans: Sequence[Span],
    text: Optional[str] = None,
    kept: Callable[[Span], bool] = _kept_label,
) -> str:
    """Return `doc._.deidentified` after checking that it really is the input
    with every PHI span replaced; raise otherwise (fail closed).

    doc (Doc): A doc processed by a pipeline ending with `phi_surrogates`.
    spans (Sequence[Span]): The PHI spans that must have been replaced.
    text (Optional[str]): `doc.text`, if the caller has just read it
        (`doc.text` joins every token's text at each access).
    kept (Callable[[Span], bool]): Which spans may be replaced by themselves
        (default: a label in KEPT_LABELS; see `kept_by`).
    RETURNS (str): The de-identified text.
    """
    if doc.user_data.get(FAILED_KEY):
        raise DeidCheckError(f"a component failed ({doc.user_data[FAILED_KEY]})")
    out = doc._.deidentified
    if not isinstance(out, str) or doc._.offset_map is None:
        raise DeidCheckError("the pipeline did not set doc._.deidentified")
    # `doc.text` is rebuilt from the tokens at each access: read it once.
    text = doc.text if text is None else text
    regions = sorted(tuple(r) for r in doc._.offset_map)
    in_prev = out_prev = 0
    for in_s, in_e, out_s, out_e in regions:
        if text[in_prev:in_s] != out[out_prev:out_s]:
            raise DeidCheckError("the de-identified text does not match the offset map")
        in_prev, out_prev = in_e, out_e
    if text[in_prev:] != out[out_prev:]:
        raise DeidCheckError("the de-identified text does not match the offset map")
    starts = [region[0] for region in regions]
    for span in spans:
        # Regions do not overlap: only the last one starting at or before the
        # span can cover it.
        i = bisect_right(starts, span.start_char) - 1
        if i < 0 or regions[i][1] < span.end_char:
            raise DeidCheckError(f"a {span.label_} span was not replaced")
        in_s, in_e, out_s, out_e = regions[i]
        if text[in_s:in_e] == out[out_s:out_e] and not kept(span):
            raise DeidCheckError(f"a {span.label_} span was replaced by itself")
    return out


def doc_to_result(
    record: Record,
    doc: Doc,
    with_offsets: bool = False,
    kept: Callable[[Span], bool] = _kept_label,
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


class MarkFailed:
    """An error handler for `nlp.pipe` that lets the stream go on but marks the
    docs a component failed on, so that they are rejected, never emitted."""

    def __call__(self, name: Any, component: Any, docs: Any, err: Exception) -> None:
        for doc in docs or []:
            if isinstance(doc, Doc):
                doc.user_data[FAILED_KEY] = type(err).__name__


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
        return Rejected(record.index, record.id, _error_name(err), record.line)


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
    is redone record by record, so that an error rejects only its record.

    nlp (Language): The pipeline, with `MarkFailed` as its error handler.
    batch (List[Record]): The records, e.g. one of `patient_batches`.
    with_offsets (bool): Add `out_start`/`out_end` to spans.
    RETURNS (List[Output]): One output per record, in order.
    """
    kept = kept_by(nlp)
    try:
        with nlp.memory_zone():
            pairs = nlp.pipe(((r.text, _context(r)) for r in batch), as_tuples=True)
            return [
                doc_to_result(r, doc, with_offsets, kept)
                for r, (doc, _) in zip(batch, pairs, strict=True)
            ]
    except Exception:  # noqa: BLE001 - isolate the bad record below
        return [_one(nlp, r, with_offsets, kept) for r in batch]


def _single_process(
    nlp: Language, records: Iterable[Record], batch_size: int, with_offsets: bool
) -> Generator[Output, None, None]:
    """Batches in this process; a failing batch is redone record by record.
    Each batch runs in `nlp.memory_zone()`, so the strings of the notes (PHI
    included) do not stay in the vocab: memory stays flat over any number of
    notes and a pipeline saved after a run holds none of them."""
    max_size = max(batch_size, MAX_PATIENT_BATCH)
    for batch in patient_batches(records, batch_size, max_size):
        yield from run_batch(nlp, batch, with_offsets)


@dataclass
class RunChanges:
    """What `prepare_run` changed on a pipeline, for `undo_run`."""

    added: Optional[str]
    unscored: List[str]
    error_handler: Callable
    unsplit: List[str] = field(default_factory=list)
    limited: List[str] = field(default_factory=list)


def prepare_run(nlp: Language) -> RunChanges:
    """Prepare a pipeline for a run: a `phi_known` component
    (`ensure_known_pipe`), no unread span scores (`skip_unread_scores`) or
    sentences (`skip_unread_sentences`) and the `MarkFailed` error handler.

    nlp (Language): A pipeline ending with `phi_surrogates`.
    RETURNS (RunChanges): The changes, for `undo_run`.
    """
    changes = RunChanges(
        ensure_known_pipe(nlp),
        skip_unread_scores(nlp),
        nlp.default_error_handler,
        skip_unread_sentences(nlp),
        limit_unread_sentences(nlp),
    )
    nlp.set_error_handler(MarkFailed())
    return changes


def undo_run(nlp: Language, changes: RunChanges) -> None:
    """Undo `prepare_run`."""
    nlp.set_error_handler(changes.error_handler)
    restore_scores(nlp, changes.unscored)
    for name in changes.unsplit:
        if name in nlp.disabled:
            nlp.enable_pipe(name)
    for name in changes.limited:
        nlp.get_pipe(name).min_tokens = 0
    if changes.added is not None and changes.added in nlp.pipe_names:
        nlp.remove_pipe(changes.added)


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
    and every detector that writes only a span group (`spans_key` set) is
    read by a later `phi_merge`: otherwise its PHI would never be replaced."""
    if not nlp.pipe_names or nlp.pipe_names[-1] != SURROGATES:
        raise ValueError(f"The pipeline must end with the '{SURROGATES}' component")
    if nlp.get_pipe(SURROGATES).cfg.get("spans_key") is not None:
        raise ValueError(f"'{SURROGATES}' must read doc.ents (spans_key = null)")
    for i, name in enumerate(nlp.pipe_names):
        if nlp.get_pipe_meta(name).factory not in SPANS_ONLY_FACTORIES:
            continue
        key = getattr(nlp.get_pipe(name), "cfg", {}).get("spans_key")
        if key is not None and not _merged_later(nlp, i, key):
            raise ValueError(
                f"'{name}' writes its spans to doc.spans['{key}'] only, and no "
                f"later '{MERGE}' component reads that key"
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
    """Whether a `phi_merge` after position `index` has `key` in its sources."""
    for name in nlp.pipe_names[index + 1 :]:
        if nlp.get_pipe_meta(name).factory == MERGE:
            if key in nlp.get_pipe(name).cfg.get("sources", []):
                return True
    return False


def ensure_known_pipe(nlp: Language) -> Optional[str]:
    """Add a `phi_known` component before `phi_surrogates` unless the
    pipeline has one (made by the "phi_known" factory, whatever its name).
    Known items with i2b2 labels get the pipeline's labels (e.g. MEDDOCAN
    types for es_meddocan, see KNOWN_LABEL_MAPS).

    nlp (Language): A pipeline ending with `phi_surrogates`.
    RETURNS (Optional[str]): The name of the component added, or None.
    """
    if any(nlp.get_pipe_meta(name).factory == KNOWN for name in nlp.pipe_names):
        return None
    name, n = KNOWN, 1
    while name in nlp.pipe_names:
        name, n = f"{KNOWN}_{n}", n + 1
    surrogate_map = nlp.get_pipe(SURROGATES).cfg.get("label_map")
    config = {"label_map": KNOWN_LABEL_MAPS.get(surrogate_map)}
    nlp.add_pipe(KNOWN, name=name, before=SURROGATES, config=config)
    return name


def _only_followed_by(nlp: Language, index: int, factories: FrozenSet[str]) -> bool:
    """Whether every active component after the `index`-th is made by one of
    `factories`."""
    later = nlp.pipe_names[index + 1 :]
    return all(nlp.get_pipe_meta(name).factory in factories for name in later)


def skip_unread_scores(nlp: Language) -> List[str]:
    """Turn off the span scores (`with_scores`) of every `phi_ner` or
    `phi_crf` component after which only score-blind components run
    (`SCORE_BLIND_FACTORIES`): the runner's outputs hold no scores, and the
    CRF marginals behind them take about 15% of `en`'s time. Components that read scores
    (`phi_consistency`, `phi_merge`, any other) keep them, as do `thresholds`.

    nlp (Language): The pipeline.
    RETURNS (List[str]): The names of the components turned off, for
        `restore_scores`.
    """
    names = nlp.pipe_names
    changed = []
    for i, name in enumerate(names):
        pipe = nlp.get_pipe(name)
        factory = nlp.get_pipe_meta(name).factory
        if factory not in SCORING_FACTORIES or not pipe.with_scores:
            continue
        if _only_followed_by(nlp, i, SCORE_BLIND_FACTORIES):
            pipe.with_scores = False
            changed.append(name)
    return changed


def skip_unread_sentences(nlp: Language) -> List[str]:
    """Disable every sentence splitter (`SENTENCIZER_FACTORIES`) after which
    only sentence-blind components run (`SENTENCE_BLIND_FACTORIES`), as in
    `en_rules`: the runner's outputs hold no sentences, and the splitter took
    about 8% of that pipeline's time. A splitter before `phi_ner` (which cuts
    long docs at sentence starts), or before any other component, stays.

    nlp (Language): The pipeline.
    RETURNS (List[str]): The names of the components disabled, for `undo_run`.
    """
    names = nlp.pipe_names
    skipped = []
    for i, name in enumerate(names):
        if nlp.get_pipe_meta(name).factory not in SENTENCIZER_FACTORIES:
            continue
        if _only_followed_by(nlp, i, SENTENCE_BLIND_FACTORIES):
            skipped.append(name)
    for name in skipped:
        nlp.disable_pipe(name)
    return skipped


def limit_unread_sentences(nlp: Language) -> List[str]:
    """Split only the docs longer than `segments.MAX_DOC_TOKENS` tokens with
    every active `clinical_sentencizer` after which only sentence-blind
    components and taggers that cut long docs at sentence starts
    (`LONG_DOC_SENTENCE_FACTORIES`) run, as in `en`: those taggers read no
    other doc's sentences, the runner's outputs hold none, and the splitter
    took about 5% of `en`'s time. Output is the same.

    nlp (Language): The pipeline.
    RETURNS (List[str]): The names of the splitters limited, for `undo_run`.
    """
    readers = SENTENCE_BLIND_FACTORIES | LONG_DOC_SENTENCE_FACTORIES
    limited = []
    for i, name in enumerate(nlp.pipe_names):
        if nlp.get_pipe_meta(name).factory != CLINICAL_SENTENCIZER:
            continue
        if _only_followed_by(nlp, i, readers):
            nlp.get_pipe(name).min_tokens = MAX_DOC_TOKENS + 1
            limited.append(name)
    return limited


def restore_scores(nlp: Language, names: List[str]) -> None:
    """Turn the span scores of these `phi_ner`/`phi_crf` components back on."""
    for name in names:
        if name in nlp.pipe_names:
            nlp.get_pipe(name).with_scores = True


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
            if len(record.text) > nlp.max_length:
                too_long = Rejected(
                    record.index,
                    record.id,
                    f"TooLong: {len(record.text)} characters, more than the "
                    f"pipeline's max_length ({nlp.max_length})",
                    record.line,
                )
                waiting.append(redact_all(record, too_long) if redact else too_long)
                continue
            if redact:
                in_flight[record.index] = record
            yield record

    changes = prepare_run(nlp)
    outputs: Optional[Generator[Output, None, None]] = None
    try:
        # Before the batches' memory zones, where spaCy caches no chunk.
        warm_up(nlp)
        if n_process == 1 and timeout is None:
            outputs = _single_process(nlp, good(), batch_size, with_offsets)
        else:
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

"""Run a de-identification pipeline over a stream of records, failing closed.

A record whose processing raises is never emitted as if it were clean: it comes
out as a `Rejected` item (error class only, no text), and every other record is
still processed. Output order equals input order.
"""

from collections import deque
from dataclasses import dataclass, field
from typing import Any, Deque, Dict, Iterable, Iterator, List, Optional, Tuple, Union

from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import minibatch

from .extensions import install_extensions
from .records import Item, Record, Rejected

SURROGATES = "phi_surrogates"


@dataclass
class Result:
    """The de-identified form of one record."""

    index: int
    id: str
    text: str
    spans: List[Dict[str, Any]] = field(default_factory=list)

    def to_dict(self) -> Dict[str, Any]:
        return {"id": self.id, "text": self.text, "spans": self.spans}


Output = Union[Result, Rejected]


def _error_name(err: BaseException) -> str:
    """Describe an exception by its class only: messages may quote note text."""
    return f"ProcessingError: {type(err).__name__}"


def doc_to_result(record: Record, doc: Doc, with_offsets: bool = False) -> Result:
    """Build the output record from a processed doc; raise if it is not
    de-identified (fail closed)."""
    deidentified = doc._.deidentified
    if not isinstance(deidentified, str):
        raise RuntimeError("the pipeline did not set doc._.deidentified")
    if doc.text != record.text:
        raise RuntimeError("the pipeline changed the input text")
    spans = []
    out_offsets = {(s, e): (os_, oe) for s, e, os_, oe in (doc._.offset_map or [])}
    for ent in doc.ents:
        span: Dict[str, Any] = {
            "start": ent.start_char,
            "end": ent.end_char,
            "label": ent.label_,
        }
        if with_offsets and (ent.start_char, ent.end_char) in out_offsets:
            span["out_start"], span["out_end"] = out_offsets[
                (ent.start_char, ent.end_char)
            ]
        spans.append(span)
    return Result(record.index, record.id, deidentified, spans)


def _context(record: Record) -> Dict[str, Any]:
    return {"index": record.index, "patient": record.patient or record.id}


class _Collector:
    """An error handler for `nlp.pipe` that lets the stream go on."""

    def __call__(self, name: Any, component: Any, docs: Any, err: Exception) -> None:
        return None


def _one(nlp: Language, record: Record, with_offsets: bool) -> Output:
    """Process one record on its own; any error rejects only this record."""
    try:
        pairs = list(nlp.pipe([(record.text, _context(record))], as_tuples=True))
        return doc_to_result(record, pairs[0][0], with_offsets)
    except Exception as err:  # noqa: BLE001 - fail closed, whatever the error
        return Rejected(record.index, record.id, _error_name(err), record.line)


def _single_process(
    nlp: Language, records: Iterable[Record], batch_size: int, with_offsets: bool
) -> Iterator[Output]:
    """Batches in this process; a failing batch is redone record by record."""
    for batch in minibatch(records, batch_size):
        try:
            pairs = nlp.pipe(((r.text, _context(r)) for r in batch), as_tuples=True)
            results = [
                doc_to_result(r, doc, with_offsets)
                for r, (doc, _) in zip(batch, pairs, strict=True)
            ]
        except Exception:  # noqa: BLE001 - isolate the bad record below
            results = [_one(nlp, r, with_offsets) for r in batch]
        yield from results


def _multi_process(
    nlp: Language,
    records: Iterable[Record],
    n_process: int,
    batch_size: int,
    with_offsets: bool,
) -> Iterator[Output]:
    """`nlp.pipe(n_process=N)`; records whose batch failed in a worker are
    missing from its output and are redone here, one by one."""
    pending: Deque[Record] = deque()

    def feed() -> Iterator[Tuple[str, Dict[str, Any]]]:
        for record in records:
            pending.append(record)
            yield record.text, _context(record)

    previous = nlp.default_error_handler
    nlp.set_error_handler(_Collector())
    try:
        stream = nlp.pipe(
            feed(), as_tuples=True, n_process=n_process, batch_size=batch_size
        )
        for doc, context in stream:
            while pending and pending[0].index != context["index"]:
                yield _one(nlp, pending.popleft(), with_offsets)
            record = pending.popleft()
            try:
                yield doc_to_result(record, doc, with_offsets)
            except Exception as err:  # noqa: BLE001
                yield Rejected(record.index, record.id, _error_name(err), record.line)
        while pending:
            yield _one(nlp, pending.popleft(), with_offsets)
    finally:
        nlp.set_error_handler(previous)


def deidentify_items(
    nlp: Language,
    items: Iterable[Item],
    *,
    n_process: int = 1,
    batch_size: int = 64,
    with_offsets: bool = False,
) -> Iterator[Output]:
    """De-identify a stream of records, passing rejections through in order.

    nlp (Language): A pipeline ending with `phi_surrogates`.
    items (Iterable[Item]): Records and already-rejected items.
    n_process (int): Worker processes for `nlp.pipe`.
    batch_size (int): Records per batch.
    with_offsets (bool): Add `out_start`/`out_end` (offsets in the output) to spans.
    RETURNS (Iterator[Output]): Results and rejections, in input order.
    """
    install_extensions()
    if SURROGATES not in nlp.pipe_names:
        raise ValueError(f"The pipeline has no '{SURROGATES}' component")
    waiting: Deque[Rejected] = deque()

    def good() -> Iterator[Record]:
        for item in items:
            if isinstance(item, Rejected):
                waiting.append(item)
            else:
                yield item

    if n_process == 1:
        outputs = _single_process(nlp, good(), batch_size, with_offsets)
    else:
        outputs = _multi_process(nlp, good(), n_process, batch_size, with_offsets)
    for output in outputs:
        while waiting and waiting[0].index < output.index:
            yield waiting.popleft()
        yield output
    yield from waiting


def deidentify_texts(
    nlp: Language, texts: Iterable[str], patient: Optional[str] = None
) -> List[str]:
    """Convenience: de-identify plain strings; raise if any of them fails."""
    records = [Record(i, str(i), text, patient) for i, text in enumerate(texts)]
    out: List[str] = []
    for output in deidentify_items(nlp, records):
        if isinstance(output, Rejected):
            raise RuntimeError(
                f"note {output.id} could not be de-identified: {output.error}"
            )
        out.append(output.text)
    return out

"""The fail-closed check of a processed doc: its de-identified text is the
input with every PHI span replaced, region by region (`check_deidentified`),
and a doc a component failed on is never emitted (`MarkFailed`)."""

from bisect import bisect_right
from typing import Any, Callable, Optional, Sequence

from spacy.language import Language
from spacy.tokens import Doc, Span

SURROGATES = "phi_surrogates"
FAILED_KEY = "spacy_deid_failed"
# Labels whose replacement may equal the original (ages <= 89 are kept), as
# `phi_surrogates` sees them (after its `label_map`; see `kept_by`).
KEPT_LABELS = frozenset({"AGE"})


class DeidCheckError(RuntimeError):
    """A processed doc is not safely de-identified. Messages never hold text."""


def error_name(err: BaseException) -> str:
    """Describe an exception by its class only (messages may quote note text),
    except our own check errors, whose messages are safe."""
    if isinstance(err, DeidCheckError):
        return f"NotDeidentified: {err}"
    return f"ProcessingError: {type(err).__name__}"


def kept_label(span: Span) -> bool:
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
        return kept_label

    def kept(span: Span) -> bool:
        return surrogate_label(span.label_, span.text) in KEPT_LABELS

    return kept


def check_deidentified(
    doc: Doc,
    spans: Sequence[Span],
    text: Optional[str] = None,
    kept: Callable[[Span], bool] = kept_label,
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


class MarkFailed:
    """An error handler for `nlp.pipe` that lets the stream go on but marks the
    docs a component failed on, so that they are rejected, never emitted."""

    def __call__(self, name: Any, component: Any, docs: Any, err: Exception) -> None:
        for doc in docs or []:
            if isinstance(doc, Doc):
                doc.user_data[FAILED_KEY] = type(err).__name__

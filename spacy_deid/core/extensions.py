"""Custom attributes (`doc._.*`, `span._.*`) shared by the spacy-deid components.

All values are plain JSON/msgpack types so that they survive `doc.to_bytes()`
and therefore `nlp.pipe(..., n_process=N)`.
"""

from spacy.tokens import Doc, Span

DOC_EXTENSIONS = {
    # Patient (or other consistency scope) of the note; surrogates and date
    # shifts are consistent per patient. May also come from the `as_tuples`
    # context: {"patient": ...}.
    "patient": None,
    # The de-identified text written by `phi_surrogates`.
    "deidentified": None,
    # [[in_start, in_end, out_start, out_end], ...] for each replaced span.
    "offset_map": None,
    # Identifiers known from the structured record, [{"text", "label"}, ...],
    # marked by `phi_known`; may also come from the context: {"known_phi": ...}.
    "known_phi": None,
}

SPAN_EXTENSIONS = {
    # Which detector proposed the span, e.g. "rules:phone.us".
    "phi_source": None,
    # Confidence in [0, 1] when the detector has one.
    "phi_score": None,
    # Sorted keys of all sources with a span in the run (set by `phi_merge`).
    "phi_sources": None,
    # Extra facts about the span, e.g. ["AGE_OVER_89"].
    "phi_flags": None,
    # The replacement text written by `phi_surrogates`.
    "surrogate": None,
}


def install_extensions() -> None:
    """Register the extensions once; safe to call any number of times."""
    for name, default in DOC_EXTENSIONS.items():
        if not Doc.has_extension(name):
            Doc.set_extension(name, default=default)
    for name, default in SPAN_EXTENSIONS.items():
        if not Span.has_extension(name):
            Span.set_extension(name, default=default)


def get_patient(doc: Doc) -> str:
    """Return the doc's patient id: `doc._.patient`, else the pipe context's
    "patient" key, else "" (one shared scope)."""
    install_extensions()
    patient = doc._.patient
    if patient is None:
        context = getattr(doc, "_context", None)
        if isinstance(context, dict):
            patient = context.get("patient")
    return "" if patient is None else str(patient)

"""Custom attributes (`doc._.*`, `span._.*`) shared by the spacy-deid components,
and the attribute names components declare in `requires` and `assigns`.

All values are plain JSON/msgpack types so that they survive `doc.to_bytes()`
and therefore `nlp.pipe(..., n_process=N)`.

What a component reads and writes. Every factory declares it with spaCy's
`@Language.factory(..., requires=[...], assigns=[...])`, using the constants
below (strings that `spacy.pipe_analysis.validate_attrs` accepts). Two
optional hooks let a run switch off work that nothing reads:

- `read_from` (`Dict[str, int]`, a property): a component that reads an
  attribute only in docs of at least N tokens says so, e.g. `phi_ner` and
  `phi_crf` read sentence starts only to cut docs longer than
  `segments.MAX_DOC_TOKENS`: `{SENTS: MAX_DOC_TOKENS + 1}`. An attribute in
  `requires` but not in `read_from` is read from the first token (0).
- `skip_unread(read_from: Dict[str, int]) -> Optional[Callable[[], None]]`:
  called once before a run with, for each attribute the component assigns,
  the fewest doc tokens from which a later component (or the runner) reads
  it; an attribute absent from the dict is read by nobody. The component
  switches off the work nobody reads and returns a function that undoes it
  (None if it changed nothing). `phi_ner` and `phi_crf` compute no span
  scores when SCORES is unread (`with_scores = False`);
  `clinical_sentencizer` splits only docs of at least n tokens when SENTS is
  read from n > 0 (`min_tokens = n`). A component none of whose assigned
  attributes is read is left out of the run by the runner.
"""

from spacy.tokens import Doc, Span

# Attributes for `requires` / `assigns` (spaCy's own, then ours).
ENTS = "doc.ents"
SPAN_GROUPS = "doc.spans"
SENTS = "token.is_sent_start"
ENT_IOB = "token.ent_iob"
ENT_TYPE = "token.ent_type"
SCORES = "span._.phi_score"
SOURCE_ATTR = "span._.phi_source"
SOURCES_ATTR = "span._.phi_sources"
FLAGS = "span._.phi_flags"
SURROGATE = "span._.surrogate"
DEIDENTIFIED = "doc._.deidentified"
OFFSET_MAP = "doc._.offset_map"
KNOWN_PHI = "doc._.known_phi"
PATIENT = "doc._.patient"

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

"""Helpers for the phi_merge tests: tiny docs with hand-made span groups."""

from typing import Iterable, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc, Span

import spacy_deid.merge.component  # noqa: F401 - registers "phi_merge"

# (start, end, label, score, phi_source, phi_flags); the last three optional.
SpanSpec = Tuple


def make_nlp(**config) -> Language:
    """A blank pipeline with only phi_merge."""
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_merge", config=config)
    return nlp


def make_doc(nlp: Language, n: int = 12, words: Optional[Sequence[str]] = None) -> Doc:
    """A doc of n alphanumeric tokens "w0" ... (or the given words)."""
    words = list(words) if words is not None else [f"w{i}" for i in range(n)]
    return Doc(nlp.vocab, words=words)


def add_group(doc: Doc, key: str, specs: Iterable[SpanSpec]) -> None:
    """Set doc.spans[key] from specs and their span extensions."""
    spans = []
    for spec in specs:
        start, end, label, *rest = spec
        span = Span(doc, start, end, label=label)
        score, source, flags = (list(rest) + [None, None, None])[:3]
        if score is not None:
            span._.phi_score = score
        if source is not None:
            span._.phi_source = source
        if flags is not None:
            span._.phi_flags = flags
        spans.append(span)
    doc.spans[key] = spans


def ents(doc: Doc):
    """(start, end, label, phi_source, phi_sources, phi_score) per entity."""
    return [
        (e.start, e.end, e.label_, e._.phi_source, e._.phi_sources, e._.phi_score)
        for e in doc.ents
    ]

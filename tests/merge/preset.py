"""Docs with preset entities for the span post-processing tests."""


def doc_with_ents(nlp, text, ents):
    """`text` as a doc whose entities are `ents` ((surface, label) pairs), each
    with a test source and score."""
    doc = nlp.make_doc(text)
    spans = []
    for surface, label in ents:
        start = text.index(surface)
        span = doc.char_span(start, start + len(surface), label=label)
        span._.phi_source, span._.phi_score = "test", 0.75
        spans.append(span)
    doc.set_ents(spans)
    return doc


def ents_of(doc):
    """The (text, label) pairs of `doc.ents`."""
    return [(e.text, e.label_) for e in doc.ents]

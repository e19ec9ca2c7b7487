"""Helpers for the phi_consistency tests: tiny docs with hand-set entities."""

from functools import lru_cache
from typing import Any, List, Optional, Sequence, Tuple

import spacy
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid.consistency  # noqa: F401 - registers "phi_consistency"
from spacy_deid.consistency import SOURCE, PhiConsistency
from spacy_deid.labels import NOT_PHI_KEY

TEST_SOURCE = "test"


def make_nlp(lang: str = "en", **config: Any) -> Language:
    """A blank pipeline with only phi_consistency (config overrides)."""
    nlp = spacy.blank(lang)
    nlp.add_pipe("phi_consistency", config=config)
    return nlp


@lru_cache(maxsize=None)
def blank(lang: str = "en") -> Language:
    """A shared blank pipeline, for its tokenizer and factories only."""
    return spacy.blank(lang)


def make_component(lang: str = "en", **config: Any) -> PhiConsistency:
    """A phi_consistency component built by its factory (config overrides)."""
    return blank(lang).create_pipe("phi_consistency", config=config)


def _find(text: str, sub: str, nth: int) -> int:
    start = -1
    for _ in range(nth + 1):
        start = text.index(sub, start + 1)
    return start


def annotate(
    nlp: Language,
    text: str,
    ents: Sequence[Tuple] = (),
    *,
    patient: Optional[str] = None,
    not_phi: Sequence[Tuple[str, int]] = (),
) -> Doc:
    """Make a doc with entities, as a detector would set them.

    ents: (substring, label[, score[, nth]]): the nth (default first) exact
        occurrence of substring; phi_source "test", phi_score score (None).
    not_phi: (substring, nth) spans for doc.spans["phi_not"].
    """
    doc = nlp.make_doc(text)
    spans = []
    for item in ents:
        sub, label = item[0], item[1]
        score = item[2] if len(item) > 2 else None
        start = _find(text, sub, item[3] if len(item) > 3 else 0)
        span = doc.char_span(start, start + len(sub), label=label)
        assert span is not None, "test entity not token-aligned"
        spans.append((span, score))
    doc.set_ents([span for span, _ in spans])
    for span, score in spans:
        span._.phi_source = TEST_SOURCE
        span._.phi_score = score
    groups = []
    for sub, nth in not_phi:
        start = _find(text, sub, nth)
        groups.append(doc.char_span(start, start + len(sub)))
    if groups:
        doc.spans[NOT_PHI_KEY] = groups
    if patient is not None:
        doc._.patient = patient
    return doc


def added(doc: Doc) -> List[Tuple[str, str]]:
    """(text, label) of the entities added by phi_consistency, in order."""
    return [(e.text, e.label_) for e in doc.ents if e._.phi_source == SOURCE]


def added_offsets(doc: Doc) -> List[Tuple[int, int, str]]:
    return [
        (e.start_char, e.end_char, e.label_)
        for e in doc.ents
        if e._.phi_source == SOURCE
    ]

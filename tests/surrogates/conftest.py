"""Fixtures for the phi_surrogates tests (docs are built by hand)."""

from typing import List, Optional, Sequence, Tuple

import pytest
import spacy
from spacy.language import Language
from spacy.tokens import Doc

from spacy_deid.surrogates.replacer import reset_ephemeral_warning

KEY = b"spacy-deid-test-key-0123456789"
OTHER_KEY = b"another-test-key-abcdefghijklmn"


@pytest.fixture(autouse=True)
def _no_env_key(monkeypatch):
    monkeypatch.delenv("SPACY_DEID_KEY", raising=False)
    monkeypatch.delenv("SPACY_DEID_KEY_FILE", raising=False)
    reset_ephemeral_warning()  # the key warning is shown once per process


def make_nlp(key: Optional[bytes] = KEY, **config) -> Language:
    """A blank pipeline with phi_surrogates, keyed unless key is None."""
    nlp = spacy.blank("en")
    component = nlp.add_pipe("phi_surrogates", config=config)
    if key is not None:
        component.set_key(key)
    return nlp


def make_doc(
    nlp: Language,
    text: str,
    phi: Sequence[Tuple[str, str]],
    patient: Optional[str] = None,
) -> Doc:
    """Make a doc with entities set on the (first unused) occurrences of the
    given strings."""
    doc = nlp.make_doc(text)
    ents = []
    search_from = 0
    for value, label in phi:
        start = text.index(value, search_from)
        span = doc.char_span(start, start + len(value), label=label)
        assert span is not None, value
        ents.append(span)
        search_from = start + len(value)
    doc.ents = ents
    if patient is not None:
        doc._.patient = patient
    return doc


def deidentify(
    nlp: Language,
    text: str,
    phi: Sequence[Tuple[str, str]],
    patient: Optional[str] = None,
) -> Doc:
    return nlp(make_doc(nlp, text, phi, patient))


def surrogates(doc: Doc) -> List[str]:
    return [ent._.surrogate for ent in doc.ents]


@pytest.fixture(scope="session")
def nlp() -> Language:
    """One shared keyed pipeline (the component keeps no per-doc state)."""
    return make_nlp()

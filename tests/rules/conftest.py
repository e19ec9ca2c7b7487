"""Fixtures for the rule tests: run all default patterns, one family, or one
pattern id over a text and get (text, label) pairs of `doc.ents`."""

from typing import Callable, Dict, List, Optional, Tuple

import pytest
import spacy

from spacy_deid.rules.patterns import default_patterns, family_patterns
from spacy_deid.rules.ruler import PhiRuler

Found = List[Tuple[str, str]]


@pytest.fixture(scope="session")
def nlp():
    return spacy.blank("en")


@pytest.fixture(scope="session")
def get_ruler() -> Callable[..., PhiRuler]:
    """`get_ruler()` (all defaults), `get_ruler(family="dates")` or
    `get_ruler(pattern_id="date.weekday")`; cached per argument."""
    cache: Dict[Tuple[Optional[str], Optional[str]], PhiRuler] = {}

    def _get(family: Optional[str] = None, pattern_id: Optional[str] = None):
        key = (family, pattern_id)
        if key not in cache:
            patterns = family_patterns(family) if family else default_patterns()
            if pattern_id:
                patterns = [p for p in patterns if p["id"] == pattern_id]
                assert patterns, f"no pattern {pattern_id}"
            cache[key] = PhiRuler(patterns=patterns)
        return cache[key]

    return _get


@pytest.fixture(scope="session")
def find(nlp, get_ruler) -> Callable[..., Found]:
    """Return the (text, label) pairs of doc.ents for a text."""

    def _find(text: str, **kwargs) -> Found:
        doc = get_ruler(**kwargs)(nlp.make_doc(text))
        for ent in doc.ents:
            assert doc.text[ent.start_char : ent.end_char] == ent.text
        return [(ent.text, ent.label_) for ent in doc.ents]

    return _find


@pytest.fixture(scope="session")
def find_doc(nlp, get_ruler):
    """Return the annotated doc for a text (all default patterns)."""

    def _find_doc(text: str, **kwargs):
        return get_ruler(**kwargs)(nlp.make_doc(text))

    return _find_doc

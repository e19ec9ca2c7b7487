"""Which kind of place a phrase names: facilities by their head words."""

import pytest

from spacy_deid.merge.places import names_facility


@pytest.mark.parametrize(
    "text,expected",
    [
        ("maple bend nursing home", True),
        ("Harrowgate Medical Center", True),
        ("the nursing home", False),  # a stop word alone before the head
        ("nursing home", False),
        ("maple bend", False),  # no head
        ("her clinic", False),
    ],
)
def test_names_facility(text, expected):
    assert names_facility(text) is expected


@pytest.mark.parametrize(
    "text,surface,expected",
    [
        ("Call Bigelow 11 at 555-0101.", "Bigelow 11", True),
        ("Questions to CW 3 at 555-0101.", "CW 3", True),
        ("CALL ELLISON 12 AT 555-0101.", "ELLISON 12", True),
        ("Found off Route 204 at noon.", "Route 204", False),  # a street word
        ("Signed by KAA753 today.", "KAA753", False),  # no space: a login
        ("Open port 9165 now.", "port 9165", False),  # lower case
        ("Call Bigelow 1100 now.", "Bigelow 1100", False),  # no floor
    ],
)
def test_is_named_ward(text, surface, expected):
    from spacy_deid.corpus.convert import make_converter_nlp
    from spacy_deid.merge.places import is_named_ward

    doc = make_converter_nlp("en").make_doc(text)
    start = text.index(surface)
    assert is_named_ward(doc.char_span(start, start + len(surface))) is expected

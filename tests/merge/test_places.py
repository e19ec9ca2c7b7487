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

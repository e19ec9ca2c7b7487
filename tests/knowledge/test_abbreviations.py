"""Medical abbreviations: clinical shorthand that names no hospital."""

import pytest

from spacy_deid.knowledge.abbreviations import is_medical_abbreviation


@pytest.mark.parametrize("word", ["BPH", "bph", "OSH", "TSH", "ICU", "SNF"])
def test_shorthand_is_known(word):
    assert is_medical_abbreviation(word)


@pytest.mark.parametrize("word", ["KCH", "QVH", "Quillon", "", "B.P.H."])
def test_hospitals_and_other_words_are_not(word):
    # "KCH" is in the glossary, but only as a hospital's name.
    assert not is_medical_abbreviation(word)

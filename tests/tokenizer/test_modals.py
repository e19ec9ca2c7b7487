"""The word after a sentence-opening modal tells the verb from the name."""

import pytest

from spacy_deid.text.modals import MODALS, NOT_AFTER_MODAL, takes_base_form


@pytest.mark.parametrize(
    "word,expected",
    [
        ("schedule", True),
        ("f/u", True),
        ("need", True),  # "-eed" is no past form
        ("discuss", True),  # "-ss" is no third person
        ("is", False),
        ("called", False),
        ("prefers", False),
        ("and", False),
        ("aware", False),
        ("will", False),  # two modals in a row: the first is a name
        ("Schedule", False),  # capitalised: a name's next word
        ("2", False),
        ("aware.", False),
    ],
)
def test_takes_base_form(word, expected):
    assert takes_base_form(word) is expected


def test_modals_never_follow_a_modal():
    assert MODALS <= NOT_AFTER_MODAL

"""Occupation words from Faker's job titles and agent-noun endings."""

import pytest

from spacy_deid.knowledge.occupations import (
    is_occupation_word,
    names_an_occupation,
    occupation_heads,
)


def test_heads_come_from_job_titles():
    heads = occupation_heads()
    assert len(heads) > 100
    assert {"librarian", "nurse", "engineer"} <= heads
    assert "public" not in heads  # "Librarian, public": the head is the noun


@pytest.mark.parametrize(
    "text,expected",
    [
        ("crane operator", True),
        ("retired welder", True),
        ("Nurses", True),
        ("physiotherapist", True),
        ("banana", False),
        ("shoveling the driveway", False),
        ("warehouse", False),
    ],
)
def test_names_an_occupation(text, expected):
    assert names_an_occupation(text) is expected


def test_plural_and_case():
    assert is_occupation_word("TEACHERS") and not is_occupation_word("snow")

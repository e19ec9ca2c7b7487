"""Occupation words from Faker's job titles and agent-noun endings."""

import pytest

from spacy_deid.knowledge.occupations import (
    head_words,
    heads_an_occupation,
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


@pytest.mark.parametrize(
    "text,heads",
    [
        ("crane operator", ["operator"]),
        ("Engineer, civil (consulting)", ["engineer", "civil"]),
        ("director of nursing", ["nursing", "director"]),
        ("welder and fitter", ["fitter", "welder"]),
        ("cook/cleaner", ["cook", "cleaner"]),
        ("", []),
    ],
)
def test_head_words(text, heads):
    assert head_words(text) == heads


@pytest.mark.parametrize(
    "text,expected",
    [
        ("retired welder", True),
        ("director of nursing", True),
        ("Research scientist (physical sciences)", True),
        # An agent ending away from the head names no job.
        ("a cabin stay in the cold winter months", False),
        ("good candidate for a second opinion", False),
    ],
)
def test_heads_an_occupation(text, expected):
    assert names_an_occupation(text) is True
    assert heads_an_occupation(text) is expected

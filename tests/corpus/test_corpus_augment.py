"""corpus/augment.py: other words around the PHI of training notes."""

import pickle
import random

import pytest
import spacy
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import registry

from spacy_deid.corpus import create_phi_corpus, write_jsonl
from spacy_deid.corpus.augment import create_context_swap, swap_words, swapped_example
from spacy_deid.knowledge import lookup


def _examples(tmp_path, notes, augmenter=None):
    write_jsonl(notes, tmp_path / "train.jsonl")
    corpus = create_phi_corpus(tmp_path / "train.jsonl", augmenter=augmenter)
    return list(corpus(spacy.blank("en")))


def _ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def test_entry_point_resolves():
    assert registry.augmenters.get("spacy_deid.context_swap.v1") is create_context_swap


def test_a_corpus_with_the_augmenter_pickles(tmp_path, notes):
    write_jsonl(notes, tmp_path / "train.jsonl")
    corpus = create_phi_corpus(
        tmp_path / "train.jsonl", augmenter=create_context_swap(1.0, 0.5)
    )
    copy = pickle.loads(pickle.dumps(corpus))
    assert len(list(copy(spacy.blank("en")))) == len(notes)


def test_swap_words_are_frequent_words_nobody_bears():
    words = swap_words()
    assert len(words) > 1000 and list(words) == sorted(words)
    for word in words[::50]:
        k = lookup(word)
        assert word.islower() and len(word) >= 3 and k.word_zipf >= 4.0
        assert not (k.surname_count or k.given_count or k.place_population)


def test_every_plain_word_outside_the_spans_is_swapped(tmp_path, notes):
    for example in _examples(tmp_path, notes):
        swapped = swapped_example(spacy.blank("en"), example, 1.0, random.Random(0))
        reference = example.reference
        assert _ents(swapped.reference) == _ents(reference)
        assert swapped.predicted.text == swapped.reference.text
        inside = {t.i for e in reference.ents for t in e}
        for old, new in zip(reference, swapped.reference, strict=True):
            assert old.whitespace_ == new.whitespace_
            plain = old.is_alpha and (old.is_lower or old.is_title)
            if old.i in inside or not plain:
                assert new.text == old.text
            else:
                assert new.text.lower() in swap_words()
                assert new.is_title == old.is_title


def test_rate_zero_keeps_the_text(tmp_path, notes):
    example = _examples(tmp_path, notes)[2]
    swapped = swapped_example(spacy.blank("en"), example, 0.0, random.Random(0))
    assert swapped.reference.text == example.reference.text
    assert _ents(swapped.reference) == _ents(example.reference)


def test_missing_annotation_stays_missing_and_unswapped():
    nlp = spacy.blank("en")
    words = ["Seen", "by", "Ivo", "Pell", "today", "here"]
    ents = ["O", "O", "B-DOCTOR", "I-DOCTOR", None, "O"]
    reference = Doc(nlp.vocab, words=words, ents=ents)
    example = Example(nlp.make_doc(reference.text), reference)
    swapped = swapped_example(nlp, example, 1.0, random.Random(3)).reference
    assert swapped[4].text == "today" and swapped[4].ent_iob_ == ""
    assert swapped[0].text != "Seen" and swapped[5].text != "here"
    assert _ents(swapped) == [("Ivo Pell", "DOCTOR")]


def test_level_decides_which_examples_change(tmp_path, notes):
    plain = _examples(tmp_path, notes)
    kept = _examples(tmp_path, notes, create_context_swap(0.0, 1.0))
    assert [e.reference.text for e in kept] == [e.reference.text for e in plain]
    changed = _examples(tmp_path, notes, create_context_swap(1.0, 1.0, seed=1))
    assert len(changed) == len(plain)
    assert all(
        a.reference.text != b.reference.text
        for a, b in zip(changed, plain, strict=True)
    )
    assert [_ents(a.reference) for a in changed] == [_ents(b.reference) for b in plain]


@pytest.mark.parametrize("level,rate", [(-0.1, 0.1), (0.5, 1.5)])
def test_bad_settings_fail(level, rate):
    with pytest.raises(ValueError):
        create_context_swap(level, rate)

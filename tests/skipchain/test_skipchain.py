"""phi_skipchain: planted inconsistent repeats, guards, exact decoding,
serialization, training, determinism (small fictional fixtures)."""

import numpy as np
import pytest
import spacy
from spacy.training import Example

import spacy_deid.skipchain.component  # noqa: F401 - registers "phi_skipchain"
from spacy_deid.skipchain import SOURCE, brute_force, decode_clique
from spacy_deid.skipchain.decoding import clique_score

from ..consistency.conftest import annotate


def make_nlp(**config):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_skipchain", config=config)
    return nlp


def added(doc):
    return [(e.text, e.label_) for e in doc.ents if e._.phi_source == SOURCE]


def test_missed_repeat_is_tagged():
    nlp = make_nlp(scope="doc")
    text = "Quillon was seen today. Later Quillon called back about the rash."
    doc = nlp(annotate(nlp, text, [("Quillon", "PATIENT", 0.9)]))
    assert added(doc) == [("Quillon", "PATIENT")]
    assert [e.start_char for e in doc.ents] == [0, text.index("Later") + 6]
    assert doc.ents[1]._.phi_score == 0.9


def test_multi_token_name_reuses_span():
    nlp = make_nlp(scope="doc")
    text = "Quillon Xavier was seen. We called quillon xavier again."
    doc = nlp(annotate(nlp, text, [("Quillon Xavier", "PATIENT")]))
    assert added(doc) == [("quillon xavier", "PATIENT")]


def test_consistent_repeats_are_left_alone():
    nlp = make_nlp(scope="doc")
    text = "Quillon was seen. Quillon called. Dr. Zarvek came; Zarvek left."
    ents = [("Quillon", "PATIENT"), ("Quillon", "PATIENT", None, 1)]
    ents += [("Zarvek", "DOCTOR"), ("Zarvek", "DOCTOR", None, 1)]
    doc = annotate(nlp, text, ents)
    before = [(e.start, e.end, e.label_, e._.phi_source) for e in doc.ents]
    doc = nlp(doc)
    assert [(e.start, e.end, e.label_, e._.phi_source) for e in doc.ents] == before


def test_common_word_does_not_spread():
    nlp = make_nlp(scope="doc")
    text = "Faith Quillon was seen. There is faith in recovery. Faith is good."
    doc = nlp(annotate(nlp, text, [("Faith", "PATIENT")]))
    assert added(doc) == []


def test_single_occurrence_and_unmarked_words_are_left_alone():
    nlp = make_nlp(scope="doc")
    text = "Quillon was seen. Zarvek came and Zarvek left."
    doc = nlp(annotate(nlp, text, [("Quillon", "PATIENT")]))
    assert added(doc) == []


def test_patient_scope_across_docs():
    nlp = make_nlp(scope="patient")
    first = annotate(
        nlp, "Quillon seen in clinic.", [("Quillon", "PATIENT")], patient="p1"
    )
    second = annotate(nlp, "Phone call with Quillon today.", [], patient="p1")
    other = annotate(nlp, "Phone call with Quillon today.", [], patient="p2")
    docs = list(nlp.pipe([first, second, other]))
    assert added(docs[0]) == []
    assert added(docs[1]) == [("Quillon", "PATIENT")]
    assert added(docs[2]) == []


def test_doc_scope_does_not_cross_docs():
    nlp = make_nlp(scope="doc")
    first = annotate(
        nlp, "Quillon seen in clinic.", [("Quillon", "PATIENT")], patient="p1"
    )
    second = annotate(nlp, "Phone call with Quillon today.", [], patient="p1")
    docs = list(nlp.pipe([first, second]))
    assert added(docs[1]) == []


def test_remove_option():
    text = "Quillon seen. Quillon called. Quillon left. Quillon phoned."
    ents = [("Quillon", "PATIENT", 0.1)]
    kept = make_nlp(scope="doc", remove=False)
    doc = kept(annotate(kept, text, ents))
    assert len(doc.ents) >= 1 and doc.ents[0]._.phi_source == "test"
    # A strong pull to "O" from the other occurrences removes a weak entity.
    removing = make_nlp(scope="doc", remove=True)
    comp = removing.get_pipe("phi_skipchain")
    comp.model.det_o, comp.model.det_phi = 3.0, 1.0
    doc = removing(annotate(removing, text, ents))
    assert list(doc.ents) == []


@pytest.mark.parametrize("seed", range(20))
def test_decoding_equals_brute_force(seed):
    rng = np.random.default_rng(seed)
    n, k = int(rng.integers(1, 7)), int(rng.integers(1, 4))
    unary = rng.normal(size=(n, k))
    weight = float(rng.uniform(0, 3))
    labels, exact = decode_clique(unary, weight)
    _, best = brute_force(unary, weight)
    assert exact
    assert clique_score(unary, weight, labels) == pytest.approx(best)


def test_approximate_decoding_is_marked():
    rng = np.random.default_rng(0)
    unary = rng.normal(size=(6, 3))
    labels, exact = decode_clique(unary, 1.0, max_candidates=3)
    assert not exact and labels.shape == (6,)


def train_examples(nlp):
    """Fictional notes: a name tagged in the first sentence, missed later."""
    names = ["Quillon", "Zarvek", "Mireth", "Toskal", "Brenvik", "Ulmarr"]
    out = []
    for name in names * 3:
        text = f"Patient {name} was seen . Later {name} called about pain ."
        doc = nlp.make_doc(text)
        gold = [(text.index(name), text.index(name) + len(name), "PATIENT")]
        second = text.index(name, gold[0][1])
        gold.append((second, second + len(name), "PATIENT"))
        pred = doc.char_span(gold[0][0], gold[0][1], label="PATIENT")
        doc.set_ents([pred])
        out.append(Example.from_dict(doc, {"entities": gold}))
    return out


def test_training_and_serialization_round_trip(tmp_path):
    nlp = make_nlp(scope="doc")
    examples = train_examples(nlp)
    nlp.initialize(get_examples=lambda: examples)
    comp = nlp.get_pipe("phi_skipchain")
    assert comp.model.labels == ["O", "PATIENT"]
    assert comp.model.agreement > 0
    text = "Patient Vardis was seen . Later Vardis called about pain ."
    doc = nlp(annotate(nlp, text, [("Vardis", "PATIENT")]))
    assert added(doc) == [("Vardis", "PATIENT")]
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    other = loaded.get_pipe("phi_skipchain")
    assert np.array_equal(other.model.weights, comp.model.weights)
    assert other.model.agreement == comp.model.agreement
    again = loaded(annotate(loaded, text, [("Vardis", "PATIENT")]))
    assert added(again) == added(doc)
    blank = make_nlp(scope="patient").get_pipe("phi_skipchain")
    blank.from_bytes(comp.to_bytes())
    assert blank.cfg == comp.cfg
    assert np.array_equal(blank.model.weights, comp.model.weights)


def test_deterministic():
    results = []
    for _ in range(2):
        nlp = make_nlp(scope="doc")
        examples = train_examples(nlp)
        nlp.initialize(get_examples=lambda egs=examples: egs)
        comp = nlp.get_pipe("phi_skipchain")
        results.append((comp.to_bytes(), comp.model.agreement))
    assert results[0] == results[1]


def test_bad_config():
    with pytest.raises(ValueError):
        make_nlp(scope="corpus")

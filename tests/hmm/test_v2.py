"""spacy_deid.HMMDP.v2: decoding by each doc's posterior tag marginals over
the sub-tags, and the v2 word classes."""

import itertools

import numpy as np
import pytest
import spacy
from spacy.util import make_tempdir

from spacy_deid.hmm.decoding import SubtagHMM, joint_log_prob, posterior_means
from spacy_deid.hmm.model import HMMDPSettings, build_hmm_dp_v2
from spacy_deid.hmm.variational import Layout, context_keys, expectations, fit
from spacy_deid.hmm.variational import make_batches
from spacy_deid.hmm.words import WORD_CLASSES_V2, WordVocab, knowledge_bucket
from spacy_deid.hmm.words import word_class, word_class_v2

from .conftest import make_data, make_nlp, train_nlp
from .test_variational import PRIORS, toy_corpus

V2 = {"@architectures": "spacy_deid.HMMDP.v2"}


def _ents(doc):
    return [(e.start_char, e.end_char, e.label_) for e in doc.ents]


@pytest.fixture(scope="module")
def trained_v2():
    return train_nlp(V2)


def test_v2_settings_round_trip():
    settings = build_hmm_dp_v2(n_subtags_o=3)
    assert settings.version == 2 and settings.architecture == "spacy_deid.HMMDP.v2"
    assert HMMDPSettings.from_dict(settings.to_dict()) == settings
    assert HMMDPSettings.from_dict({"n_subtags_o": 3}).version == 1
    with pytest.raises(ValueError, match="version"):
        HMMDPSettings.from_dict({"version": 7})


def test_v2_overfits_and_scores(trained_v2):
    hmm = trained_v2.get_pipe("phi_hmm")
    assert hmm.cfg["model_version"] == "spacy_deid.HMMDP.v2"
    assert hmm.cfg["word_classes"] == WORD_CLASSES_V2
    assert isinstance(hmm.hmm, SubtagHMM)
    for text, ents in make_data():
        assert _ents(trained_v2(text)) == ents
    (span,) = trained_v2("Dr. Smith called back about the results .").ents
    assert span.label_ == "DOCTOR" and 0.5 < span._.phi_score <= 1.0


def test_v2_serialization_round_trip(trained_v2):
    texts = [text for text, _ in make_data(12)] + ["Dr. Unseenname on 12/03 ."]
    expected = [
        (_ents(d), [e._.phi_score for e in d.ents]) for d in trained_v2.pipe(texts)
    ]
    with make_tempdir() as path:
        trained_v2.to_disk(path)
        loaded = spacy.load(path)
    got = [(_ents(d), [e._.phi_score for e in d.ents]) for d in loaded.pipe(texts)]
    assert got == expected


def test_v2_training_is_deterministic():
    a = train_nlp({**V2, "max_iterations": 4}).get_pipe("phi_hmm")
    b = train_nlp({**V2, "max_iterations": 4}).get_pipe("phi_hmm")
    assert a.to_bytes() == b.to_bytes()


def test_a_v1_model_loads_into_a_v2_component():
    v1 = train_nlp({"max_iterations": 4})
    nlp = make_nlp(V2)
    nlp.get_pipe("phi_hmm").from_bytes(v1.get_pipe("phi_hmm").to_bytes())
    assert nlp.get_pipe("phi_hmm").cfg["model_version"] == "spacy_deid.HMMDP.v1"
    texts = [text for text, _ in make_data(8)]
    assert [_ents(d) for d in nlp.pipe(texts)] == [_ents(d) for d in v1.pipe(texts)]


def test_v2_word_classes_keep_digit_runs():
    assert word_class("2569870") == word_class("28035") == "<D:dddd>"
    assert word_class_v2("2569870") == "<D:ddddddd>"
    assert word_class_v2("28035") == "<D:ddddd>"
    assert word_class_v2("12/03/2019") == "<D:dd/dd/dddd>"
    assert word_class_v2("1" * 14) == "<D:dddddddddd>"
    assert word_class_v2("\n") == "<NL>"
    assert word_class_v2("--") == "<P:-->"


def test_v2_word_classes_know_names_and_places():
    assert knowledge_bucket("Zqxvbrtw") is None
    assert word_class_v2("Zqxvbrtw") == "<W:Xx:rtw>"
    assert knowledge_bucket("Garcia")[0] == "N"
    assert knowledge_bucket("Madrid")[0] == "L"
    assert word_class_v2("GARCIA") == f"<W:X:{knowledge_bucket('Garcia')}>"
    vocab = WordVocab.build(["Garcia", "Zqxvbrtw"] * 2 + ["Smith"], 2, WORD_CLASSES_V2)
    assert vocab.ids(["Garcia"])[0] != vocab.unk
    with pytest.raises(ValueError, match="word classes"):
        WordVocab(["<UNK>"], "nope")


def _toy_subtag_hmm():
    layout = Layout.for_labels(1, 4, 2)
    post, _, _ = fit(
        make_batches(toy_corpus(80)), layout, PRIORS, 12,
        max_iterations=15, tol=0.0, seed=0,
    )  # fmt: skip
    means = posterior_means(post, expectations(post, layout).mean_beta, layout)
    return layout, means, SubtagHMM.from_means(means, layout)


def test_subtag_marginals_match_brute_force():
    layout, means, hmm = _toy_subtag_hmm()
    rng = np.random.default_rng(5)
    for _ in range(20):
        words = rng.integers(0, 12, rng.integers(1, 5))
        joint = np.zeros((len(words), layout.n_tags))
        for tags in itertools.product(range(layout.n_tags), repeat=len(words)):
            p = np.exp(joint_log_prob(means, layout, words, np.array(tags)))
            joint[np.arange(len(words)), list(tags)] += p
        expected = joint / joint.sum(axis=1, keepdims=True)
        got = np.exp(hmm.emissions(words))
        assert np.allclose(got, expected, atol=1e-4), (got, expected)


def test_subtag_marginals_do_not_depend_on_the_batch():
    _, _, hmm = _toy_subtag_hmm()
    rng = np.random.default_rng(6)
    seqs = [rng.integers(0, 12, n) for n in (7, 0, 1, 30, 7, 2)]
    together = hmm.log_marginals(seqs)
    for seq, marg in zip(seqs, together, strict=True):
        assert marg.shape == (len(seq), hmm.n_tags)
        assert np.allclose(marg, hmm.log_marginals([seq])[0], atol=1e-5)
    restored = SubtagHMM.from_dict(hmm.to_dict())
    assert np.array_equal(restored.log_marginals(seqs)[3], together[3])


def test_context_keys_name_the_entity_next_to_an_o_token():
    # Two labels: O = 0, then B, I, L, U = 1..4 (label 0) and 5..8 (label 1).
    seqs = [
        (np.arange(9), np.array([0, 0, 4, 0, 0, 5, 7, 0, 0]), True, True),
        (np.arange(3), np.array([0, 0, 8]), True, True),
    ]
    (batch,) = make_batches(seqs)
    keys = context_keys(batch, 9)
    # 1 + label: an entity starts next; 3 + label: one after the next "O";
    # 5 + label: an entity ended just before. Entity tokens get 0.
    assert keys[0].tolist() == [3, 1, 0, 4, 2, 0, 0, 6, 0]
    assert keys[1, :3].tolist() == [4, 2, 0]


def test_context_start_never_lowers_the_bound_and_beats_random():
    layout = Layout.for_labels(1, 4, 2)
    batches = make_batches(toy_corpus())
    runs = {
        init: fit(batches, layout, PRIORS, 12, max_iterations=15, tol=0.0,
                  seed=1, init=init)[2]
        for init in ("random", "context")
    }  # fmt: skip
    assert np.diff(runs["context"]).min() > -1e-6 * abs(runs["context"][-1])
    assert runs["context"][0] > runs["random"][0]
    with pytest.raises(ValueError, match="init"):
        fit(batches, layout, PRIORS, 12, max_iterations=1, tol=0.0, seed=1, init="x")


def test_v2_init_setting():
    assert build_hmm_dp_v2().init == "context"
    assert build_hmm_dp_v2(init="random").init == "random"
    with pytest.raises(ValueError, match="init"):
        build_hmm_dp_v2(init="kmeans")
    with pytest.raises(ValueError, match="v1"):
        HMMDPSettings.from_dict({"init": "context"})

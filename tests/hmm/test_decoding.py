"""The approximate decoder against brute force over tag sequences.

The decoder runs Viterbi on the tag HMM p^ closest in KL to the latent model
(the paper's approximation), not on the latent model itself, so it may pick
another sequence than the exact max over tags of Σ_z p(s, z, w). On the toy
model below, over 200 random word sequences of 1 to 5 tokens (random, so
often unlike the training data), the two agreed on 178 (89 %); the test
asserts at least 85 % and its message gives the rate.
"""

import itertools

import numpy as np

from spacy_deid.hmm.decoding import approximate, joint_log_prob, posterior_means
from spacy_deid.hmm.variational import Layout, expectations, fit, make_batches
from spacy_deid.tagging.crf import is_valid_biluo, viterbi_seqs

from .test_variational import PRIORS, toy_corpus


def _trained():
    layout = Layout.for_labels(1, 4, 2)
    post, counts, _ = fit(
        make_batches(toy_corpus(80)), layout, PRIORS, 12,
        max_iterations=25, tol=0.0, seed=0,
    )  # fmt: skip
    means = posterior_means(post, expectations(post, layout).mean_beta, layout)
    return layout, means, approximate(counts, means, layout)


def _brute_force(layout, means, words):
    best, best_tags = -np.inf, None
    for tags in itertools.product(range(layout.n_tags), repeat=len(words)):
        if not is_valid_biluo(tags, layout.n_tags):
            continue
        score = joint_log_prob(means, layout, words, np.array(tags))
        if score > best:
            best, best_tags = score, list(tags)
    return best_tags


def test_approximate_decoder_matches_brute_force_mostly():
    layout, means, hmm = _trained()
    rng = np.random.default_rng(3)
    sentences = [rng.integers(0, 12, rng.integers(1, 6)) for _ in range(200)]
    paths, _ = viterbi_seqs([hmm.emissions(s) for s in sentences], hmm.params())
    agree = sum(
        list(path) == _brute_force(layout, means, words)
        for words, path in zip(sentences, paths, strict=True)
    )
    assert agree >= 170, f"{agree}/200 agree"


def test_decoding_is_legal_biluo():
    layout, _, hmm = _trained()
    rng = np.random.default_rng(4)
    sentences = [rng.integers(0, 12, rng.integers(1, 30)) for _ in range(50)]
    paths, _ = viterbi_seqs([hmm.emissions(s) for s in sentences], hmm.params())
    assert all(is_valid_biluo(list(p), layout.n_tags) for p in paths)


def test_joint_probability_mass_of_one_token_sequences():
    """p(s, w) of the latent model is a distribution over sequences of any
    length: the mass of all one-token sequences is positive and below 1."""
    layout, means, _ = _trained()
    total = 0.0
    for words in itertools.product(range(12), repeat=1):
        for tags in itertools.product(range(layout.n_tags), repeat=1):
            total += np.exp(
                joint_log_prob(means, layout, np.array(words), np.array(tags))
            )
    assert 0.0 < total < 1.0

"""CRF maths: gradients, Viterbi against brute force, BILUO validity."""

import itertools

import numpy as np
import pytest

from spacy_deid.tagging.crf import (
    IMPOSSIBLE,
    CRFParams,
    biluo_tag_names,
    crf_loss,
    crf_marginals,
    crf_marginals_seqs,
    is_valid_biluo,
    legal_transitions,
    viterbi,
    viterbi_seqs,
)


def _random_case(seed, n_labels=2, lengths=(4, 1, 3), scale=2.0):
    rng = np.random.default_rng(seed)
    K = 1 + 4 * n_labels
    T = max(lengths)
    E = rng.normal(scale=scale, size=(len(lengths), T, K))
    trans = rng.normal(size=(K, K))
    start = rng.normal(size=K)
    end = rng.normal(size=K)
    return E, np.array(lengths), trans, start, end


def _legal_paths(n, K):
    for path in itertools.product(range(K), repeat=n):
        if is_valid_biluo(path, K):
            yield path


def _path_score(E, path, p):
    score = p.start[path[0]] + p.end[path[-1]]
    score += sum(E[i, k] for i, k in enumerate(path))
    score += sum(p.transitions[a, b] for a, b in zip(path[:-1], path[1:], strict=True))
    return score


def _brute_log_z(E, n, p, allowed=None):
    scores = [
        _path_score(E, path, p)
        for path in _legal_paths(n, E.shape[1])
        if allowed is None or all(allowed[i][k] for i, k in enumerate(path))
    ]
    return np.logaddexp.reduce(scores)


def _gold(E, lengths, p, missing=()):
    """A legal gold path per row (the Viterbi path of shuffled scores)."""
    rng = np.random.default_rng(1)
    gold, _ = viterbi(rng.normal(size=E.shape) * 3, lengths, p)
    for row, col in missing:
        gold[row, col] = -1
    return gold


def _total_loss(E, lengths, gold, trans, start, end):
    p = CRFParams.constrained(trans, start, end)
    return crf_loss(E, lengths, gold, p).loss.sum()


def test_tag_names_and_mask():
    assert biluo_tag_names(["A"]) == ["O", "B-A", "I-A", "L-A", "U-A"]
    legal, first, last = legal_transitions(9)
    names = biluo_tag_names(["A", "B"])
    idx = {n: i for i, n in enumerate(names)}
    assert legal[idx["B-A"], idx["I-A"]] and legal[idx["I-A"], idx["L-A"]]
    assert not legal[idx["B-A"], idx["I-B"]] and not legal[idx["B-A"], idx["O"]]
    assert legal[idx["L-A"], idx["B-B"]] and not legal[idx["O"], idx["I-A"]]
    assert legal[idx["U-A"], idx["U-B"]] and legal[idx["O"], idx["O"]]
    assert [n for n in names if first[idx[n]]] == ["O", "B-A", "U-A", "B-B", "U-B"]
    assert [n for n in names if last[idx[n]]] == ["O", "L-A", "U-A", "L-B", "U-B"]


@pytest.mark.parametrize("seed", [0, 1, 2])
def test_log_z_and_marginals_match_brute_force(seed):
    E, lengths, trans, start, end = _random_case(seed)
    p = CRFParams.constrained(trans, start, end)
    gold = np.full(E.shape[:2], -1)
    result = crf_loss(E, lengths, gold, p)
    # All tags missing: logZ_gold == logZ, so the loss is zero.
    assert np.allclose(result.loss, 0.0, atol=1e-9)
    marg = crf_marginals(E, lengths, p)
    packed = crf_marginals_seqs([E[b, :n] for b, n in enumerate(lengths)], p)
    for b, n in enumerate(lengths):
        log_z = _brute_log_z(E[b], n, p)
        paths = list(_legal_paths(n, E.shape[2]))
        scores = np.array([_path_score(E[b], path, p) for path in paths])
        probs = np.exp(scores - log_z)
        expected = np.zeros((n, E.shape[2]))
        for path, prob in zip(paths, probs, strict=True):
            expected[np.arange(n), path] += prob
        assert np.allclose(marg[b, :n], expected, atol=1e-9)
        assert np.allclose(marg[b, n:], 0.0)
        assert np.allclose(packed[b], expected, atol=1e-9)


def test_packed_marginals_of_empty_and_long_batches():
    """`crf_marginals_seqs` keeps empty sequences in place and agrees with
    the padded `crf_marginals` on long rows of mixed lengths, with scores
    large enough to need the per-step scaling."""
    rng = np.random.default_rng(11)
    K = 1 + 4 * 3
    lengths = np.array([300, 1, 57, 0, 300, 12])
    E = rng.normal(scale=20.0, size=(len(lengths), 300, K))
    p = CRFParams.constrained(*(rng.normal(size=s) for s in ((K, K), K, K)))
    packed = crf_marginals_seqs([E[b, :n] for b, n in enumerate(lengths)], p)
    assert [len(m) for m in packed] == list(lengths)
    keep = lengths > 0
    padded = crf_marginals(E[keep], lengths[keep], p)
    for row, b in enumerate(np.flatnonzero(keep)):
        assert np.allclose(packed[b], padded[row, : lengths[b]], atol=1e-12)
        assert np.allclose(packed[b].sum(axis=1), 1.0)
    single = crf_marginals_seqs([E[b, :n] for b, n in enumerate(lengths)], p, "f4")
    for b in range(len(lengths)):
        assert single[b].dtype == np.float32
        assert np.allclose(single[b], packed[b], atol=1e-5)
    assert crf_marginals_seqs([], p) == []


def test_single_precision_marginals_fall_back_on_overflow():
    """Scores beyond float32's range give the float64 result, not inf, NaN
    or rows of zeros."""
    rng = np.random.default_rng(12)
    K = 1 + 4 * 2
    E = rng.normal(scale=400.0, size=(3, 40, K))
    p = CRFParams.constrained(*(rng.normal(scale=300.0, size=s) for s in ((K, K), K, K)))
    seqs = [E[b, : 40 - 10 * b] for b in range(3)]
    single = crf_marginals_seqs(seqs, p, "f4")
    for got, want in zip(single, crf_marginals_seqs(seqs, p), strict=True):
        assert got.dtype == np.float64
        assert np.array_equal(got, want, equal_nan=True)


@pytest.mark.parametrize("seed", [0, 1])
def test_full_nll_matches_brute_force(seed):
    E, lengths, trans, start, end = _random_case(seed)
    p = CRFParams.constrained(trans, start, end)
    gold = _gold(E, lengths, p)
    loss = crf_loss(E, lengths, gold, p).loss
    for b, n in enumerate(lengths):
        expected = _brute_log_z(E[b], n, p) - _path_score(E[b], gold[b, :n], p)
        assert loss[b] == pytest.approx(expected, abs=1e-8)


def test_partial_matches_brute_force():
    E, lengths, trans, start, end = _random_case(3)
    p = CRFParams.constrained(trans, start, end)
    gold = _gold(E, lengths, p, missing=[(0, 1), (0, 2), (2, 0)])
    loss = crf_loss(E, lengths, gold, p).loss
    K = E.shape[2]
    for b, n in enumerate(lengths):
        allowed = [[g < 0 or g == k for k in range(K)] for g in gold[b, :n]]
        constrained = _brute_log_z(E[b], n, p, allowed)
        assert loss[b] == pytest.approx(_brute_log_z(E[b], n, p) - constrained)


@pytest.mark.parametrize("missing", [[], [(0, 1), (0, 2), (2, 0), (1, 0)]])
def test_numerical_gradients(missing):
    E, lengths, trans, start, end = _random_case(4)
    p = CRFParams.constrained(trans, start, end)
    gold = _gold(E, lengths, p, missing=missing)
    grads = crf_loss(E, lengths, gold, p)
    args = [E, lengths, gold, trans, start, end]
    eps = 1e-6
    for pos, analytic in [
        (0, grads.d_emissions),
        (3, grads.d_transitions),
        (4, grads.d_start),
        (5, grads.d_end),
    ]:
        numeric = np.zeros_like(args[pos])
        for idx in np.ndindex(args[pos].shape):
            plus = [a.copy() for a in args]
            minus = [a.copy() for a in args]
            plus[pos][idx] += eps
            minus[pos][idx] -= eps
            numeric[idx] = (_total_loss(*plus) - _total_loss(*minus)) / (2 * eps)
        if pos == 0:  # padding positions get no gradient
            for b, n in enumerate(lengths):
                numeric[b, n:] = 0.0
        assert np.abs(numeric - analytic).max() < 1e-5


def test_partial_with_all_tags_known_is_full_nll():
    E, lengths, trans, start, end = _random_case(5)
    p = CRFParams.constrained(trans, start, end)
    gold = _gold(E, lengths, p)
    full = crf_loss(E, lengths, gold, p).loss
    for b, n in enumerate(lengths):
        nll = _brute_log_z(E[b], n, p) - _path_score(E[b], gold[b, :n], p)
        assert full[b] == pytest.approx(nll)
    assert (full > 0).all()


def test_infeasible_gold_gets_no_gradient():
    E, lengths, trans, start, end = _random_case(6, lengths=(3, 2))
    p = CRFParams.constrained(trans, start, end)
    gold = _gold(E, lengths, p)
    gold[0, :3] = [1, 0, 0]  # "B-A" then "O": no legal path
    result = crf_loss(E, lengths, gold, p)
    assert not result.feasible[0] and result.feasible[1]
    assert result.loss[0] == 0.0 and np.all(result.d_emissions[0] == 0.0)
    single = crf_loss(E[1:], lengths[1:], gold[1:], p)
    assert np.allclose(result.d_transitions, single.d_transitions)
    assert np.isfinite(result.d_emissions).all()


@pytest.mark.parametrize("seed", range(5))
def test_viterbi_matches_brute_force(seed):
    E, lengths, trans, start, end = _random_case(seed, lengths=(5, 1, 3, 4))
    p = CRFParams.constrained(trans, start, end)
    paths, scores = viterbi(E, lengths, p)
    for b, n in enumerate(lengths):
        best = max(_legal_paths(n, E.shape[2]), key=lambda y: _path_score(E[b], y, p))
        assert tuple(paths[b, :n]) == best
        assert scores[b] == pytest.approx(_path_score(E[b], best, p))
        assert (paths[b, n:] == -1).all()


def _dense_viterbi(E, n, p):
    """Textbook Viterbi over all K x K transitions, ties to the lower tag."""
    delta = E[0] + p.start
    back = []
    for i in range(1, n):
        cand = delta[:, None] + p.transitions  # (from, to)
        back.append(cand.argmax(axis=0))
        delta = cand.max(axis=0) + E[i]
    delta = delta + p.end
    path = [int(delta.argmax())]
    for pointers in reversed(back):
        path.append(int(pointers[path[-1]]))
    return path[::-1], float(delta.max())


def _assert_dense_viterbi(E, lengths, p):
    paths, scores = viterbi(E, lengths, p)
    for b, n in enumerate(lengths):
        path, score = _dense_viterbi(E[b], n, p)
        assert list(paths[b, :n]) == path
        assert scores[b] == score


@pytest.mark.parametrize("seed", range(4))
def test_viterbi_over_legal_blocks_equals_dense_viterbi(seed):
    """The Viterbi step only scores the legal transition blocks; with ties
    everywhere (small integer scores) it still picks what the dense
    recursion over all tags picks."""
    rng = np.random.default_rng(seed)
    K = 1 + 4 * 6
    lengths = rng.integers(1, 30, size=12)
    E = rng.integers(-2, 3, size=(12, 30, K)).astype("f8")
    trans = rng.integers(-1, 2, size=(K, K)).astype("f8")
    p = CRFParams.constrained(trans, np.zeros(K), np.zeros(K))
    _assert_dense_viterbi(E, lengths, p)


@pytest.mark.parametrize("seed", range(4))
def test_pruned_viterbi_equals_dense_viterbi(seed):
    """Sources more than the transition range below the best are pruned from
    the Viterbi step; with emissions spread wider than that range (as a
    trained model's are) and sources exactly at the pruning bound (integer
    scores), the paths and scores are still the dense recursion's."""
    rng = np.random.default_rng(seed)
    K = 1 + 4 * 6
    lengths = rng.integers(1, 30, size=12)
    E = rng.integers(-6, 7, size=(12, 30, K)).astype("f8")
    E[:, :, 0] += rng.integers(0, 4, size=(12, 30))  # "O" often well ahead
    trans = rng.integers(-1, 2, size=(K, K)).astype("f8")
    p = CRFParams.constrained(trans, np.zeros(K), np.zeros(K))
    _assert_dense_viterbi(E, lengths, p)


def test_length_one():
    E, lengths, trans, start, end = _random_case(7, n_labels=1, lengths=(1,))
    p = CRFParams.constrained(trans, start, end)
    paths, _ = viterbi(E, lengths, p)
    assert paths[0, 0] in (0, 4)  # "O" or "U-A"
    marg = crf_marginals(E, lengths, p)
    assert marg[0, 0].sum() == pytest.approx(1.0)
    assert marg[0, 0, [1, 2, 3]].max() == 0.0
    gold = np.array([[4]])
    loss = crf_loss(E, lengths, gold, p).loss[0]
    assert loss == pytest.approx(_brute_log_z(E[0], 1, p) - _path_score(E[0], [4], p))


def test_decoding_is_always_valid():
    rng = np.random.default_rng(8)
    K = 1 + 4 * 5
    lengths = rng.integers(1, 40, size=30)
    E = rng.normal(scale=50.0, size=(30, 40, K))
    trans = rng.normal(scale=50.0, size=(K, K))
    p = CRFParams.constrained(trans, rng.normal(size=K), rng.normal(size=K))
    paths, _ = viterbi(E, lengths, p)
    for b, n in enumerate(lengths):
        assert is_valid_biluo(list(paths[b, :n]), K)
    assert IMPOSSIBLE < -1000


def test_empty_batch():
    p = CRFParams.constrained(np.zeros((5, 5)), np.zeros(5), np.zeros(5))
    paths, scores = viterbi(np.zeros((0, 0, 5)), np.zeros(0, dtype=int), p)
    assert paths.shape == (0, 0) and scores.shape == (0,)


@pytest.mark.parametrize("n_labels", [2, 64])
def test_viterbi_seqs_decodes_each_sequence_as_dense_viterbi(n_labels):
    """Packed decoding of sequences in any order of length, an empty one
    among them, and more than 256 tags (wider back pointers): each sequence
    gets the dense Viterbi path and score; the empty one an empty path."""
    rng = np.random.default_rng(n_labels)
    K = 1 + 4 * n_labels
    lengths = [3, 9, 0, 1, 9, 5]
    seqs = [rng.normal(scale=3.0, size=(n, K)) for n in lengths]
    trans = rng.normal(size=(K, K))
    p = CRFParams.constrained(trans, rng.normal(size=K), rng.normal(size=K))
    paths, scores = viterbi_seqs(seqs, p)
    for seq, path, score in zip(seqs, paths, scores, strict=True):
        if not len(seq):
            assert path.shape == (0,) and score == 0.0
            continue
        dense_path, dense_score = _dense_viterbi(seq, len(seq), p)
        assert list(path) == dense_path
        assert score == pytest.approx(dense_score)
    assert viterbi_seqs([], p)[0] == []

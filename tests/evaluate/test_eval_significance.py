from spacy_deid.evaluate import approximate_randomization

from .conftest import gold_spans, note, span


def _corpus(n):
    return [note(gold_spans(), f"n{i}") for i in range(n)]


def test_identical_systems_give_p_one():
    gold = _corpus(10)
    result = approximate_randomization(gold, gold, gold, n=199, seed=1)
    assert result["diff"] == 0.0
    assert result["p_value"] == 1.0


def test_very_different_systems_give_small_p():
    gold = _corpus(30)
    empty = [note([], f"n{i}") for i in range(30)]
    result = approximate_randomization(gold, gold, empty, n=199, seed=0)
    assert result["f1_a"] == 1.0 and result["f1_b"] == 0.0
    assert result["p_value"] == 1 / 200


def test_seeded_and_reproducible():
    gold = _corpus(12)
    half = [note(gold_spans()[: 1 + i % 4], f"n{i}") for i in range(12)]
    other = [note([span("John Smith", "PATIENT")], f"n{i}") for i in range(12)]
    a = approximate_randomization(gold, half, other, n=299, seed=3)
    b = approximate_randomization(gold, half, other, n=299, seed=3)
    assert a == b
    assert 0 < a["p_value"] <= 1
    token = approximate_randomization(gold, half, other, n=99, measure="binary_token")
    assert token["measure"] == "binary_token"

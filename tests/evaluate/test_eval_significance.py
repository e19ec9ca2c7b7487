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


def test_precision_recall_and_f1_are_tested_separately():
    gold = _corpus(30)
    # B finds half of the PHI and nothing wrong: same precision, lower recall
    half = [note(gold_spans()[:2], f"n{i}") for i in range(30)]
    result = approximate_randomization(gold, gold, half, n=199, seed=0)
    assert set(result) >= {"precision", "recall", "f1", "p_value", "f1_a"}
    p, r, f = result["precision"], result["recall"], result["f1"]
    assert (p["a"], p["b"], p["diff"], p["p_value"]) == (1.0, 1.0, 0.0, 1.0)
    assert (r["a"], r["b"], r["diff"]) == (1.0, 0.5, 0.5)
    assert r["p_value"] == 1 / 200 and f["p_value"] == 1 / 200
    assert (result["f1_a"], result["diff"], result["p_value"]) == (
        f["a"],
        f["diff"],
        f["p_value"],
    )
    # B adds a wrong span everywhere: same recall, lower precision
    noisy = [note(gold_spans() + [span("Pt", "PHONE")], f"n{i}") for i in range(30)]
    result = approximate_randomization(gold, gold, noisy, n=199, seed=0)
    assert result["recall"]["p_value"] == 1.0
    assert result["precision"]["p_value"] == 1 / 200


def test_report_shows_all_three_p_values():
    from spacy_deid.evaluate import evaluate_notes, format_table

    gold = _corpus(5)
    result = evaluate_notes(gold, gold)
    result["significance"] = approximate_randomization(gold, gold, gold, n=9)
    table = format_table(result)
    for name in ("precision", "recall", "f1"):
        assert any(line.startswith(name) for line in table.splitlines())

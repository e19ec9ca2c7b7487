from spacy_deid.evaluate import error_taxonomy, evaluate_notes

from .conftest import gold_spans, note, span


def test_taxonomy_counts():
    pred_a = [
        span("John", "PATIENT"),  # short
        span("seen 2020-01-02", "DATE"),  # long
        span("Mercy Hospital", "DOCTOR"),  # type
        span("Pt", "PHONE"),  # spurious; "Ann Lee" is missing
    ]
    gold_b = [span("John Smith", "PATIENT")]
    pred_b = [span("Pt John", "PATIENT")]  # starts early, ends early
    result = evaluate_notes(
        [note(gold_spans(), "a"), note(gold_b, "b")],
        [note(pred_a, "a"), note(pred_b, "b")],
    )
    tax = result["taxonomy"]
    assert tax["totals"] == {
        "exact": 0,
        "type": 1,
        "short": 1,
        "long": 1,
        "short_long": 1,
        "spurious": 1,
        "missing": 1,
    }
    assert tax["per_label"]["PATIENT"]["short"] == 1
    assert tax["per_label"]["PATIENT"]["short_long"] == 1
    assert tax["per_label"]["DATE"]["long"] == 1
    assert tax["per_label"]["HOSPITAL"]["type"] == 1
    assert tax["per_label"]["DOCTOR"]["missing"] == 1
    assert tax["per_label"]["PHONE"]["spurious"] == 1
    assert tax["confusion"] == {
        "DATE": {"DATE": 1},
        "HOSPITAL": {"DOCTOR": 1},
        "PATIENT": {"PATIENT": 2},
    }


def test_error_taxonomy_function_exact():
    tax = error_taxonomy([(gold_spans(), gold_spans())])
    assert tax["totals"]["exact"] == 4
    assert sum(tax["totals"].values()) == 4

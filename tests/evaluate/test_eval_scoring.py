import pytest

from spacy_deid.corpus import CorpusError
from spacy_deid.evaluate import MEASURES, evaluate_notes

from .conftest import TEXT, gold_spans, note, span


def prf(result, measure, avg="micro", key=None):
    block = result if key is None else result[key]
    m = block[measure][avg]
    return (round(m["precision"], 4), round(m["recall"], 4), round(m["f1"], 4))


def run(pred_spans, gold=None):
    gold = gold_spans() if gold is None else gold
    return evaluate_notes([note(gold)], [note(pred_spans)])


def test_perfect_prediction():
    result = run(gold_spans())
    for measure in MEASURES:
        assert prf(result, measure) == (1.0, 1.0, 1.0)
        assert prf(result, measure, "macro") == (1.0, 1.0, 1.0)
    # HIPAA subset: PATIENT and DATE only (DOCTOR and HOSPITAL are not HIPAA)
    assert result["hipaa"]["strict"]["micro"]["tp"] == 2
    assert result["strict"]["micro"]["tp"] == 4


def test_one_miss():
    result = run(gold_spans()[:3])
    assert prf(result, "strict") == (1.0, 0.75, round(6 / 7, 4))
    # i2b2 tokens: 9 gold (John Smith 2, 2020-01-02 3, Mercy Hospital 2, Ann Lee
    # 2), 7 predicted (Ann, Lee missing)
    assert prf(result, "token") == (1.0, round(7 / 9, 4), round(14 / 16, 4))
    # whole-text tokens: 11 gold (the date is 2020 - 01 - 02), 9 predicted
    assert prf(result, "text_token") == (1.0, round(9 / 11, 4), round(18 / 20, 4))
    assert result["per_label"]["subcategory"]["DOCTOR"]["strict"]["recall"] == 0.0
    assert result["per_label"]["category"]["NAME"]["strict"]["recall"] == 0.5


@pytest.mark.parametrize(
    "dstart,dend,strict_tp,relaxed_tp",
    [
        (0, -1, 0, 1),
        (0, 1, 0, 1),
        (0, 2, 0, 1),
        (0, -2, 0, 1),
        (0, 3, 0, 0),
        (1, 0, 0, 0),
        (-1, 0, 0, 0),
        (0, 0, 1, 1),
    ],
)
def test_boundary_offsets(dstart, dend, strict_tp, relaxed_tp):
    gold = [span("John Smith", "PATIENT")]
    pred = [span("John Smith", "PATIENT", dstart=dstart, dend=dend)]
    result = run(pred, gold)
    assert result["strict"]["micro"]["tp"] == strict_tp
    assert result["relaxed"]["micro"]["tp"] == relaxed_tp
    assert result["relaxed"]["micro"]["fp"] == 1 - relaxed_tp


def test_relaxed_is_one_to_one_and_needs_same_label():
    gold = [span("John Smith", "PATIENT")]
    pred = [
        span("John Smith", "PATIENT", dend=-1),
        span("John Smith", "PATIENT", dend=1),
    ]
    result = run(pred, gold)
    assert result["relaxed"]["micro"]["tp"] == 1
    assert result["relaxed"]["micro"]["fp"] == 1
    typed = run([span("John Smith", "DOCTOR", dend=-1)], gold)
    assert typed["relaxed"]["micro"]["tp"] == 0


def test_wrong_type():
    gold = [span("John Smith", "PATIENT")]
    result = run([span("John Smith", "DOCTOR")], gold)
    assert prf(result, "strict") == (0.0, 0.0, 0.0)
    assert prf(result, "token") == (0.0, 0.0, 0.0)
    assert prf(result, "binary_token") == (1.0, 1.0, 1.0)
    # at category level both are NAME
    cat = evaluate_notes(
        [note(gold)], [note([span("John Smith", "DOCTOR")])], labels="category"
    )
    assert prf(cat, "strict") == (1.0, 1.0, 1.0)
    assert result["taxonomy"]["confusion"]["PATIENT"] == {"DOCTOR": 1}


def test_overlapping_gold_spans():
    gold = [span("John Smith", "PATIENT"), span("John", "PATIENT")]
    result = run([span("John Smith", "PATIENT")], gold)
    assert prf(result, "strict") == (1.0, 0.5, round(2 / 3, 4))
    # i2b2 tokens are sets: (PATIENT, John) from both gold spans counts once
    assert prf(result, "token") == (1.0, 1.0, 1.0)
    # whole-text tokens take the label of the longest covering span
    assert prf(result, "text_token") == (1.0, 1.0, 1.0)


def test_duplicates_count_once():
    gold = [span("John Smith", "PATIENT")]
    result = run(gold * 2, gold * 2)
    assert result["strict"]["micro"]["tp"] == 1
    assert result["strict"]["micro"]["fp"] == 0


def test_empty_gold_and_pred():
    result = run([], [])
    for measure in MEASURES:
        assert prf(result, measure) == (0.0, 0.0, 0.0)
        assert prf(result, measure, "macro") == (0.0, 0.0, 0.0)
    only_pred = run(gold_spans(), [])
    assert only_pred["strict"]["micro"]["fp"] == 4
    assert prf(only_pred, "strict") == (0.0, 0.0, 0.0)


def test_macro_differs_from_micro():
    gold = [note([span("John Smith", "PATIENT")], "a"), note(gold_spans()[1:], "b")]
    pred = [note([span("John Smith", "PATIENT")], "a"), note([], "b")]
    result = evaluate_notes(gold, pred)
    # micro: tp 1, fp 0, fn 3 -> P 1, R .25, F .4
    assert prf(result, "strict") == (1.0, 0.25, 0.4)
    # macro (i2b2): P = (1 + 0) / 2, R = (1 + 0) / 2, F = F(P, R)
    assert prf(result, "strict", "macro") == (0.5, 0.5, 0.5)


def test_binary_token_measure():
    gold = [span("John Smith", "PATIENT")]
    pred = [span("Smith seen", "DOCTOR")]
    result = run(pred, gold)
    # tokens: John (gold), Smith (both), seen (pred)
    for measure in ("binary_token", "binary_text_token"):
        assert prf(result, measure) == (0.5, 0.5, 0.5)
    for measure in ("token", "text_token"):
        assert prf(result, measure) == (0.0, 0.0, 0.0)


def test_hipaa_subset():
    pred = [span("John Smith", "PATIENT"), span("Ann Lee", "PATIENT")]
    result = run(pred)
    # HIPAA gold: PATIENT, DATE; HIPAA pred: both PATIENT spans
    assert result["hipaa"]["strict"]["micro"]["tp"] == 1
    assert result["hipaa"]["strict"]["micro"]["fp"] == 1
    assert result["hipaa"]["strict"]["micro"]["fn"] == 1


def test_missing_and_extra_notes():
    gold = [note(gold_spans(), "a"), note(gold_spans(), "b")]
    pred = [note(gold_spans(), "a"), note([], "zzz")]
    result = evaluate_notes(gold, pred)
    assert result["missing_pred"] == ["b"] and result["extra_pred"] == ["zzz"]
    assert result["strict"]["micro"]["fn"] == 4


def test_out_of_range_prediction_names_note():
    with pytest.raises(CorpusError, match="'n1'"):
        run([span("John Smith", "PATIENT", dend=len(TEXT))])


def test_hipaa_subset_for_meddocan_labels():
    text = "Pedro, 53 años, Dr. Ruiz"
    gold = [
        span("Pedro", "NOMBRE_SUJETO_ASISTENCIA", text),
        span("53 años", "EDAD_SUJETO_ASISTENCIA", text),
        span("Ruiz", "NOMBRE_PERSONAL_SANITARIO", text),
    ]
    result = evaluate_notes([note(gold, text=text)], [note(gold, text=text)])
    assert result["strict"]["micro"]["tp"] == 3
    assert result["hipaa"]["strict"]["micro"]["tp"] == 2
    assert set(result["per_label"]["category"]) == {"NAME", "AGE"}

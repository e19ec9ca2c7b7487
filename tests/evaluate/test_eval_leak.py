from spacy_deid.core.types import Note
from spacy_deid.evaluate import leak_rate
from spacy_deid.evaluate.deid import split_deid_output

from .conftest import TEXT, gold_spans, note, span

DEID = "Pt [PATIENT] seen [DATE] at Mercy Hospital by Dr Ann Leeson."


def test_leak_rate_counts_verbatim_survivors():
    gold = [note(gold_spans())]
    result = leak_rate(gold, {"n1": DEID})
    # Mercy Hospital survives; "Ann Lee" is only part of the word "Leeson"
    assert result["overall"] == {"leaked": 1, "total": 4, "rate": 0.25}
    assert result["per_label"]["HOSPITAL"]["rate"] == 1.0
    assert result["per_label"]["DOCTOR"]["leaked"] == 0
    assert result["leaked_notes"] == ["n1"]


def test_leak_rate_skips_short_strings_and_missing_notes():
    gold = [note([span("J", "PATIENT")], "a"), note(gold_spans(), "b")]
    result = leak_rate(gold, [Note("a", "J was here")])
    assert result["skipped"] == 1 and result["overall"]["total"] == 0
    assert result["notes_missing"] == ["b"]


def test_split_deid_output():
    gold = [note(gold_spans())]
    deid = [Note("n1", DEID, gold_spans())]
    pred, texts = split_deid_output(gold, deid)
    assert pred[0].text == TEXT and texts == {"n1": DEID}
    same, none = split_deid_output(gold, gold)
    assert none is None and same[0].text == TEXT
    _, forced = split_deid_output(gold, gold, force=True)
    assert forced == {"n1": TEXT}

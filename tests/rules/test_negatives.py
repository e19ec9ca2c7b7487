"""NOT_PHI patterns: known non-PHI kept out of doc.ents and shown to phi_ner."""

import pytest

from spacy_deid.labels import NOT_PHI_KEY
from spacy_deid.rules.patterns import default_patterns


@pytest.mark.parametrize(
    "text,negatives",
    [
        ("Pain reassessed after tylenol 500 mg daily: 2/10. Plan", ["2/10"]),
        ("Motor strength 4/5 in both legs.", ["4/5"]),
        ("pain score 10/10 this morning", ["10/10"]),
        ("Follow up on 2/10 in clinic.", []),
        ("Pain 2/10.\nSeen 3/14/2067.", ["2/10"]),
    ],
)
def test_scores_are_not_phi(nlp_rules, text, negatives):
    doc = nlp_rules(text)
    assert [s.text for s in doc.spans[NOT_PHI_KEY]] == negatives
    assert not any(e.label_ == "NOT_PHI" for e in doc.ents)
    assert all(s.label_ != "NOT_PHI" for s in doc.spans["phi_rules"])


def test_phi_rule_beats_not_phi(nlp_rules):
    doc = nlp_rules("Pain clinic visit dated 2/10/2067, rated 3/10.")
    assert [(e.text, e.label_) for e in doc.ents] == [("2/10/2067", "DATE")]
    assert [s.text for s in doc.spans[NOT_PHI_KEY]] == ["3/10"]


def test_not_phi_kept_with_label_filter(nlp_rules):
    assert any(p["label"] == "NOT_PHI" for p in default_patterns(labels=["DATE"]))
    assert "NOT_PHI" not in nlp_rules.get_pipe("phi_rules").labels


@pytest.mark.parametrize(
    "text,date,time",
    [
        ("Logged 2066-08-19T06:41:33+05:30 by the pump.", "2066-08-19", "T06:41:33+05:30"),
        ("Logged 2066-08-19T06:41:33Z by the pump.", "2066-08-19", "T06:41:33Z"),
        ("Logged 2066-08-19T06:41 by the pump.", "2066-08-19", "T06:41"),
        ("Logged 2066-08-19 06:41:33-0800 by the pump.", "2066-08-19", "06:41:33-0800"),
    ],
)
def test_iso_time_is_not_phi(nlp_rules, text, date, time):
    """The date of an ISO date-time is a DATE; its time and offset are known
    non-PHI, so that a model does not read them as a user name or e-mail."""
    doc = nlp_rules(text)
    assert [(e.text, e.label_) for e in doc.ents] == [(date, "DATE")]
    assert [s.text for s in doc.spans[NOT_PHI_KEY]] == [time]


def test_iso_time_keeps_model_spans_out(nlp_en):
    """phi_ner drops what it finds inside the time of an ISO date-time."""
    doc = nlp_en("Event at 2066-08-19T06:41:33+05:30 recorded.")
    assert [(e.text, e.label_) for e in doc.ents] == [("2066-08-19", "DATE")]

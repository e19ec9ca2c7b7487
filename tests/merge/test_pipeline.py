"""phi_merge in a real pipeline: the shipped rules plus a hand-made source,
through phi_surrogates and the fail-closed runner."""

import re
from typing import Dict

import pytest
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
import spacy_deid.merge.component  # noqa: F401 - registers "phi_merge"
from spacy_deid.io.records import Record, Rejected
from spacy_deid.run.runner import Result, deidentify_items

TEXT = (
    "Seen by Dr John Smith on 12/03/2020, call 555-123-4567. "
    "Pain 2/10. Transferred from Mercy today."
)
FAKE_KEY = "fake"


@Language.factory(
    "merge_test_source",
    default_config={"key": FAKE_KEY, "phrases": {}, "score": 0.7},
)
def make_merge_test_source(
    nlp: Language, name: str, key: str, phrases: Dict[str, str], score: float
) -> "PhraseSource":
    return PhraseSource(key, phrases, score)


class PhraseSource:
    """A stand-in detector: writes each listed phrase, where found, to
    doc.spans[key] with the given label ("" for a span without label)."""

    def __init__(self, key: str, phrases: Dict[str, str], score: float) -> None:
        self.key = key
        self.phrases = phrases
        self.score = score

    def __call__(self, doc: Doc) -> Doc:
        spans = []
        for phrase, label in sorted(self.phrases.items()):
            start = doc.text.find(phrase)
            if start < 0:
                continue
            span = doc.char_span(start, start + len(phrase), label=label)
            span._.phi_source = "fake_model"
            span._.phi_score = self.score
            spans.append(span)
        doc.spans[self.key] = spans
        return doc


def _pipeline(phrases, **merge_config):
    """en_rules with the fake source and phi_merge before phi_surrogates."""
    nlp = spacy_deid.load("en_rules")
    nlp.get_pipe("phi_surrogates").set_key(b"merge-pipeline-test-key-0123")
    nlp.add_pipe("merge_test_source", before="phi_surrogates")
    nlp.add_pipe("phi_merge", before="phi_surrogates")
    return _configure(nlp, phrases, **merge_config)


def _configure(nlp, phrases, **merge_config):
    """Rebuild the fake source and phi_merge of a pipeline with new settings
    (each test sets all of them, so tests do not depend on their order)."""
    nlp.replace_pipe(
        "merge_test_source", "merge_test_source", config={"phrases": phrases}
    )
    config = {"sources": ["phi_rules", FAKE_KEY], **merge_config}
    nlp.replace_pipe("phi_merge", "phi_merge", config=config)
    return nlp


PHRASES = {
    "Dr John Smith": "PATIENT",  # reaches beyond the rules' DOCTOR span
    "2/10": "DATE",  # the rules mark it as non-PHI
    "Mercy": "HOSPITAL",  # found by the fake source only
}


@pytest.fixture(scope="module")
def base():
    return _pipeline(PHRASES)


@pytest.fixture
def nlp(base):
    return _configure(base, PHRASES)


def test_rules_and_fake_source_are_merged(nlp):
    doc = nlp(TEXT)
    found = {
        doc.text[e.start_char : e.end_char]: (
            e.label_,
            e._.phi_source,
            e._.phi_sources,
        )
        for e in doc.ents
    }
    # The rule DOCTOR span beats the fake PATIENT span and is widened to it.
    assert found["Dr John Smith"] == ("DOCTOR", "phi_rules", [FAKE_KEY, "phi_rules"])
    assert found["Mercy"] == ("HOSPITAL", FAKE_KEY, [FAKE_KEY])
    assert found["12/03/2020"][:2] == ("DATE", "phi_rules")
    assert found["555-123-4567"][:2] == ("PHONE", "phi_rules")
    assert "2/10" not in found
    doctor = next(e for e in doc.ents if e.label_ == "DOCTOR")
    assert doctor._.phi_score == pytest.approx(
        max(s._.phi_score for s in doc.spans["phi_rules"] if s.label_ == "DOCTOR")
    )
    out = doc._.deidentified
    for phi in ("John", "Smith", "Mercy", "12/03/2020", "555-123-4567"):
        assert not re.search(rf"\b{re.escape(phi)}\b", out)
    assert "2/10" in out


def test_runner_accepts_merged_docs(nlp):
    (result,) = list(deidentify_items(nlp, [Record(0, "n0", TEXT)]))
    assert isinstance(result, Result)
    assert "Mercy" not in result.text
    assert {s["label"] for s in result.spans} >= {"DOCTOR", "HOSPITAL", "DATE"}


def test_runner_rejects_a_note_the_merge_fails_on(base):
    nlp = _configure(base, {"Mercy": ""})
    records = [Record(0, "n0", TEXT), Record(1, "n1", "Seen on 01/02/2021.")]
    first, second = list(deidentify_items(nlp, records))
    assert isinstance(first, Rejected) and first.id == "n0"
    assert "Mercy" not in first.error and "Smith" not in first.error
    assert isinstance(second, Result) and "01/02/2021" not in second.text


def test_union_and_vote_with_the_rules(base):
    union = _configure(base, PHRASES, strategy="union")(TEXT)
    assert [e.label_ for e in union.ents if e.text == "Dr John Smith"] == ["DOCTOR"]
    vote = _configure(base, PHRASES, strategy="vote")(TEXT)
    # Only the name is found by both sources; the rules' boundaries win.
    assert [(e.text, e.label_) for e in vote.ents] == [("John Smith", "DOCTOR")]


def test_protected_rule_label_wins_in_the_pipeline(base):
    phrases = {"call 555-123-4567": "PATIENT"}
    nlp = _configure(base, phrases, protected_labels=["PHONE"], extend=False)
    doc = nlp(TEXT)
    phone = [e for e in doc.ents if e.label_ == "PHONE"]
    assert [e.text for e in phone] == ["555-123-4567"]
    assert not any(e.label_ == "PATIENT" for e in doc.ents)

"""Tests for the clinical_sentencizer component (spacy_deid/text/sentences.py)."""

import pickle
from itertools import pairwise
import subprocess
import sys

import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st
from spacy.tokens import Doc
from spacy.training import Example
from spacy.util import make_tempdir

from spacy_deid.text.sentences import ClinicalSentencizer, _normalize_line_breaks

TOKENIZER_CONFIG = {
    "nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}
}

# (text, expected sentences as `sent.text`). Whitespace after a sentence
# stays with it.
SENT_CASES = [
    # Titles and abbreviations, also across line breaks.
    ("Dr.\nSmith", ["Dr.\nSmith"]),
    ("Seen by Dr. \n John Smith today.", ["Seen by Dr. \n John Smith today."]),
    (
        "Seen by Dr. Smith. Mr. Jones agreed.",
        ["Seen by Dr. Smith.", "Mr. Jones agreed."],
    ),
    ("Mrs. Ames and Ms. Lee vs. Prof. Kay.", ["Mrs. Ames and Ms. Lee vs. Prof. Kay."]),
    ("Weight approx. 70 kg. Stable.", ["Weight approx. 70 kg.", "Stable."]),
    ("J. Smith was seen. K. Lee too.", ["J. Smith was seen.", "K. Lee too."]),
    ("Seen in Jan. 2067 by St. Mary staff.", ["Seen in Jan. 2067 by St. Mary staff."]),
    ("Room No. 5 today. No. We left.", ["Room No. 5 today.", "No.", "We left."]),
    ("Take e.g. the aspirin.", ["Take e.g. the aspirin."]),
    # Final punctuation followed by a capital or a digit.
    ("He is well. She is not.", ["He is well.", "She is not."]),
    ("Pain resolved. 5 days later, back.", ["Pain resolved.", "5 days later, back."]),
    ("Is it? Yes! Ok.", ["Is it?", "Yes!", "Ok."]),
    ("Take 1 tab b.i.d. He was fine.", ["Take 1 tab b.i.d.", "He was fine."]),
    ('He said "stop." Then left.', ['He said "stop."', "Then left."]),
    ("BP 120/80. HR 72; RR 16.", ["BP 120/80.", "HR 72; RR 16."]),
    ("Labs: pH 7.35. see below.", ["Labs: pH 7.35. see below."]),
    # Line breaks.
    ("Line one\n\nLine two", ["Line one\n\n", "Line two"]),
    ("Dr.\n\nSmith", ["Dr.\n\n", "Smith"]),
    ("no stop\r\n\r\nnext", ["no stop\r\n\r\n", "next"]),
    # CRLF and lone CR line breaks read like "\n".
    ("Dr.\r\nSmith", ["Dr.\r\nSmith"]),
    ("Dr.\rSmith", ["Dr.\rSmith"]),
    ("Dr.\r\n\r\nSmith", ["Dr.\r\n\r\n", "Smith"]),
    ("Line one\r\rLine two", ["Line one\r\r", "Line two"]),
    ("He is well.\rshe is not.", ["He is well.\r", "she is not."]),
    ("The patient was seen by\r\nthe team.", ["The patient was seen by\r\nthe team."]),
    ("Meds:\r1. Aspirin\r2. Tylenol", ["Meds:\r", "1. Aspirin\r", "2. Tylenol"]),
    (
        "PHYSICAL EXAMINATION\r\nGeneral: well\r\nHEENT: ok",
        ["PHYSICAL EXAMINATION\r\n", "General: well\r\n", "HEENT: ok"],
    ),
    ("Page one.\x0cPage two", ["Page one.\x0c", "Page two"]),
    (
        "The patient was seen by\nthe team today.",
        ["The patient was seen by\nthe team today."],
    ),
    ("Referred by\nDr. Smith for pain.", ["Referred by\nDr. Smith for pain."]),
    ("He is well.\nshe is not.", ["He is well.\n", "she is not."]),
    # Headers, fields and lists.
    (
        "HISTORY OF PRESENT ILLNESS:\nThe patient is a 26 yo.\nAssessment: stable.",
        [
            "HISTORY OF PRESENT ILLNESS:\n",
            "The patient is a 26 yo.\n",
            "Assessment: stable.",
        ],
    ),
    (
        "Name: Ann Lee\nDOB:01/02/1960\nMRN: 12345",
        ["Name: Ann Lee\n", "DOB:01/02/1960\n", "MRN: 12345"],
    ),
    (
        "PHYSICAL EXAMINATION\nGeneral: well",
        ["PHYSICAL EXAMINATION\n", "General: well"],
    ),
    ("Meds:\n1. Aspirin\n2. Tylenol", ["Meds:\n", "1. Aspirin\n", "2. Tylenol"]),
    ("Plan:\n- ASA\n- statin", ["Plan:\n", "- ASA\n", "- statin"]),
    ("Seen at\n14:30 by the team", ["Seen at\n14:30 by the team"]),
    # Leading whitespace stays in the first sentence.
    ("  \nHello. World", ["  \nHello.", "World"]),
]


@pytest.fixture(scope="module")
def nlp():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe("clinical_sentencizer")
    return nlp


def sent_texts(doc):
    return [sent.text for sent in doc.sents]


@pytest.mark.parametrize("text,expected", SENT_CASES)
def test_clinical_sentencizer_cases(nlp, text, expected):
    doc = nlp(text)
    assert doc.text == text
    assert sent_texts(doc) == expected


def test_clinical_sentencizer_sets_every_token(nlp):
    doc = nlp("Seen by Dr. Smith.\n\nHe is well. She is not.\n")
    assert doc.has_annotation("SENT_START")
    assert doc[0].is_sent_start
    for token in doc:
        assert token.is_sent_start is not None
        if token.is_space:
            assert not token.is_sent_start


@pytest.mark.parametrize("text", ["", " ", "\n\n", "Hello", "."])
def test_clinical_sentencizer_short_docs(nlp, text):
    doc = nlp(text)
    assert doc.text == text
    assert len(list(doc.sents)) == (1 if len(doc) else 0)


def test_clinical_sentencizer_pipe(nlp):
    texts = [text for text, _ in SENT_CASES]
    for doc, text in zip(nlp.pipe(texts, batch_size=4), texts, strict=True):
        assert sent_texts(doc) == sent_texts(nlp(text))


def _all_pairs(sentencizer, doc):
    """The rule applied to every pair of neighbouring words, without the
    search for candidate pairs."""
    text = _normalize_line_breaks(doc.text)
    starts = [False] * len(doc)
    starts[0] = True
    words = [token for token in doc if not token.is_space]
    for prev, token in pairwise(words):
        starts[token.i] = sentencizer._is_break(text, prev, token)
    if words and words[0].i > 0:
        starts[words[0].i] = False
    return starts


PIECES = [
    "Dr.", "No.", "5", "J.", "well", "Smith", "HPI:", "1.", "-", ".", "?", "!",
    "...", "\u2026", ")", '"', "\u201d", ";", "b.i.d.", "ALLCAPS LINE", "e.g.",
    " ", "  ", "\n", "\n\n", "\r\n", "\r", "\x0c", "\u2028", "\t", "x\ny",
]  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=30), st.booleans())
def test_candidate_pairs_give_the_rule_on_all_pairs(nlp, pieces, semicolon):
    """Only pairs with a line break between them or a possibly final last
    character are checked: the same starts as checking every pair."""
    sentencizer = nlp.get_pipe("clinical_sentencizer")
    if semicolon:  # other punctuation, a multi-character one, no "."
        sentencizer = ClinicalSentencizer(punct_chars=[";"])
        sentencizer.punct_chars.add("!!")  # changed after construction
    doc = nlp.make_doc("".join(pieces))
    if len(doc):
        assert sentencizer.predict(doc) == _all_pairs(sentencizer, doc)


def test_clinical_sentencizer_config_abbreviations():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe("clinical_sentencizer", config={"abbreviations": ["Pt"]})
    assert sent_texts(nlp("Seen by Pt. Smith today.")) == ["Seen by Pt. Smith today."]
    # The list replaces the default one.
    assert sent_texts(nlp("Dr. Smith")) == ["Dr.", "Smith"]


def test_clinical_sentencizer_config_punct_chars():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe("clinical_sentencizer", config={"punct_chars": [".", ";"]})
    assert sent_texts(nlp("HTN; DM. Stable!")) == ["HTN;", "DM.", "Stable!"]


def test_clinical_sentencizer_overwrite():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    sentencizer = nlp.add_pipe("clinical_sentencizer")
    doc = nlp.make_doc("He is well. She is not.")
    doc[1].is_sent_start = True
    assert sent_texts(sentencizer(doc)) == ["He", "is well.", "She is not."]
    sentencizer.overwrite = True
    assert sent_texts(sentencizer(doc)) == ["He is well.", "She is not."]


def test_clinical_sentencizer_on_plain_doc():
    """The component works on a stock tokenizer too (without a pipeline)."""
    sentencizer = ClinicalSentencizer()
    doc = spacy.blank("en")("Seen by Dr. Smith. He is well.")
    assert sent_texts(sentencizer(doc)) == ["Seen by Dr. Smith.", "He is well."]
    words, spaces = ["Dr.", "\n", "Smith", "."], [False, False, False, False]
    doc = Doc(spacy.blank("en").vocab, words=words, spaces=spaces)
    assert sent_texts(sentencizer(doc)) == ["Dr.\nSmith."]


def test_clinical_sentencizer_pickle(nlp):
    sentencizer = nlp.get_pipe("clinical_sentencizer")
    copy = pickle.loads(pickle.dumps(sentencizer))
    assert copy.abbreviations == sentencizer.abbreviations
    text = "Seen by Dr.\nSmith. He is well."
    assert sent_texts(copy(nlp.make_doc(text))) == sent_texts(nlp(text))
    nlp2 = pickle.loads(pickle.dumps(nlp))
    assert sent_texts(nlp2(text)) == sent_texts(nlp(text))


def test_clinical_sentencizer_to_from_bytes():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe("clinical_sentencizer", config={"abbreviations": ["Pt"]})
    data = nlp.get_pipe("clinical_sentencizer").to_bytes()
    other = ClinicalSentencizer().from_bytes(data)
    assert other.abbreviations == {"pt"}
    assert sent_texts(other(nlp.make_doc("Pt. Smith. Dr. Lee."))) == [
        "Pt. Smith.",
        "Dr.",
        "Lee.",
    ]


def test_clinical_sentencizer_to_disk_and_load():
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    nlp.add_pipe(
        "clinical_sentencizer",
        config={"abbreviations": ["Dr", "Pt"], "punct_chars": [".", "?", ";"]},
    )
    texts = [text for text, _ in SENT_CASES] + ["Pt. Smith; well."]
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
    sentencizer = loaded.get_pipe("clinical_sentencizer")
    assert sentencizer.abbreviations == {"dr", "pt"}
    assert sentencizer.punct_chars == {".", "?", ";"}
    for text in texts:
        assert sent_texts(loaded(text)) == sent_texts(nlp(text))


def test_clinical_sentencizer_score(nlp):
    text = "He is well. She is not."
    reference = nlp.make_doc(text)
    for token in reference:
        token.is_sent_start = token.i in (0, 4)
    scores = nlp.evaluate([Example(nlp.make_doc(text), reference)])
    assert scores["sents_f"] == 1.0


def test_clinical_sentencizer_spawn_n_process():
    """Tokenizer and sentencizer survive pickling into spawned workers."""
    code = (
        "import multiprocessing as mp, spacy\n"
        "if __name__ == '__main__':\n"
        "    mp.set_start_method('spawn', force=True)\n"
        f"    nlp = spacy.blank('en', config={TOKENIZER_CONFIG!r})\n"
        "    nlp.add_pipe('clinical_sentencizer')\n"
        "    texts = ['Seen by Dr.\\nSmith. He is well.', 'MR:6746781 ok'] * 4\n"
        "    docs = list(nlp.pipe(texts, n_process=2, batch_size=2))\n"
        "    print(len(list(docs[0].sents)), docs[1][0].text)\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.split() == ["2", "MR"]

"""Long docs are predicted in pieces (bounded memory), cut at line breaks."""

import numpy as np
import pytest
import spacy

import spacy_deid.ner.component as component
from spacy_deid.tagging.crf import is_valid_biluo
from spacy_deid.tagging.segments import join_predictions, piece_bounds, split_docs

from ..conftest import listening_tagger_pipeline

NOTE = (
    "Seen by Dr. Whalen on 09/14/2067 at Mercy Hospital. MRN: 7194334.\n"
    "Pt John Smith, 67 y/o, lives in Boston, MA 02115. Call 617-555-0199."
)


@pytest.fixture(scope="module")
def blank():
    return spacy.blank("en")


def _covers(bounds, n, max_tokens):
    assert bounds[0][0] == 0 and bounds[-1][1] == n
    for (_, end), (start, _) in zip(bounds[:-1], bounds[1:], strict=True):
        assert end == start
    assert all(0 < end - start <= max_tokens for start, end in bounds)


def test_short_docs_are_one_piece(blank):
    doc = blank("a b c")
    assert piece_bounds(doc, 3) == [(0, 3)]
    assert piece_bounds(blank(""), 3) == [(0, 0)]
    pieces, owners = split_docs([doc, blank("d")], 3)
    assert pieces[0] is doc and owners == [0, 1]


def test_cuts_after_line_breaks_then_sentences_then_anywhere(blank):
    doc = blank("a b c d e \n f g h i j \n k l m n o p")
    bounds = piece_bounds(doc, 8)
    _covers(bounds, len(doc), 8)
    assert [doc[end - 1].text.strip() for _, end in bounds[:-1]] == ["", ""]
    words = blank(" ".join(f"w{i}" for i in range(20)))
    for i in (6, 13):
        words[i].is_sent_start = True
    bounds = piece_bounds(words, 8)
    _covers(bounds, len(words), 8)
    assert [start for start, _ in bounds[1:]] == [6, 13]
    plain = blank(" ".join("x" * 25))
    assert piece_bounds(plain, 10) == [(0, 10), (10, 20), (20, 25)]


def test_join_predictions_restores_each_doc():
    preds = [
        (np.array([1, 2]), np.array([0.5, 0.6])),
        (np.array([3]), np.array([0.7])),
        (np.array([0]), np.array([0.9])),
    ]
    joined = join_predictions(preds, [0, 0, 1], 2)
    assert joined[0][0].tolist() == [1, 2, 3] and joined[1][0].tolist() == [0]
    assert joined[0][1].tolist() == [0.5, 0.6, 0.7]
    # Without scores (`with_scores` off) a doc's probabilities stay None.
    unscored = [(tags, None) for tags, _ in preds]
    joined = join_predictions(unscored, [0, 0, 1], 2)
    assert joined[0][0].tolist() == [1, 2, 3] and joined[1][0].tolist() == [0]
    assert joined[0][1] is None and joined[1][1] is None


def test_long_doc_is_predicted_as_its_pieces(nlp_en, monkeypatch):
    """A doc over MAX_DOC_TOKENS gets the tags of its pieces (cut at the line
    breaks between copies of a note), each predicted as a doc of its own;
    PHI is found in every piece; docs up to the limit are not cut."""
    ner = nlp_en.get_pipe("phi_ner")
    one = nlp_en.make_doc(NOTE + "\n\n")
    text = (NOTE + "\n\n") * 5
    doc = nlp_en.make_doc(text)
    whole = ner.predict([doc])[0][0]  # no cut at the default limit
    limit = len(one) + len(one) // 3
    monkeypatch.setattr(component, "MAX_DOC_TOKENS", limit)
    bounds = piece_bounds(doc, limit)
    assert len(bounds) == 5 and all(end - start == len(one) for start, end in bounds)
    tags, probs = ner.predict([doc])[0]
    assert len(tags) == len(doc) == len(probs)
    assert is_valid_biluo(list(tags), len(ner.tag_names))
    alone = ner.predict([nlp_en.make_doc(doc[a:b].text) for a, b in bounds])
    assert np.array_equal(tags, np.concatenate([t for t, _ in alone]))
    names = [ner.tag_names[t] for t in tags]
    assert sum(name.endswith("DATE") and name[0] in "BU" for name in names) >= 5
    # Pieces that start with the same text get the same tags up to the cut.
    assert np.array_equal(tags[: len(one) - 2], whole[: len(one) - 2])


def test_listening_taggers_predict_docs_whole(nlp_en, monkeypatch):
    """A tagger that reads an upstream tok2vec's output from the doc cannot
    be given pieces (copies without that output): its docs are whole."""
    from spacy_deid.tagging import tagger
    from spacy_deid.tagging.segments import listens_upstream

    nlp = listening_tagger_pipeline()
    assert listens_upstream(nlp.get_pipe("phi_ner").model)
    assert not listens_upstream(nlp_en.get_pipe("phi_ner").model)

    def no_split(*args, **kwargs):
        raise AssertionError("split a doc for a listening tagger")

    monkeypatch.setattr(component, "MAX_DOC_TOKENS", 4)
    monkeypatch.setattr(tagger, "split_docs", no_split)
    long_doc = nlp("Seen by Whalen on 09/14/2067.\n" * 5)
    assert len(long_doc) > 4

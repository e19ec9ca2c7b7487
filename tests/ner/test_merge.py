"""Merging model spans with earlier entities: overwrite_ents, protected_labels."""

import numpy as np
import pytest
import spacy
from spacy.tokens import Span

from spacy_deid.tagging.ents import merge_ents

from .conftest import make_nlp

# Seen(0) by(1) Dr(2) John(3) Smith(4) on(5) 12/03/2020(6) at(7) Mercy(8)
# Hospital(9) .(10)
TEXT = "Seen by Dr John Smith on 12/03/2020 at Mercy Hospital ."
LABELS = ("DATE", "DOCTOR", "HOSPITAL", "PATIENT", "CITY")


def _ner(overwrite, protected=(), grow=False):
    nlp = make_nlp(
        overwrite_ents=overwrite, protected_labels=list(protected), grow_protected=grow
    )
    ner = nlp.get_pipe("phi_ner")
    for label in LABELS:
        ner.add_label(label)
    return nlp, ner


def _doc(nlp, rule_ents):
    """A doc with entities from an earlier (rule) component."""
    doc = nlp.make_doc(TEXT)
    ents = [Span(doc, s, e, label=label) for s, e, label in rule_ents]
    for ent in ents:
        ent._.phi_source = "rules:test"
    doc.set_ents(ents, default="outside")
    return doc


def _pred(ner, n_tokens, model_spans, prob=0.75):
    """A prediction (tag ids, probabilities) for hand-made model spans."""
    index = {tag: i for i, tag in enumerate(ner.tag_names)}
    tags = ["O"] * n_tokens
    for start, end, label in model_spans:
        if end - start == 1:
            tags[start] = f"U-{label}"
            continue
        tags[start:end] = (
            [f"B-{label}"] + [f"I-{label}"] * (end - start - 2) + [f"L-{label}"]
        )
    tag_ids = np.array([index[tag] for tag in tags], dtype="i8")
    return tag_ids, np.full(n_tokens, prob, dtype="f4")


def _apply(overwrite, protected, rule_ents, model_spans, grow=False):
    nlp, ner = _ner(overwrite, protected, grow)
    doc = _doc(nlp, rule_ents)
    ner.set_annotations([doc], [_pred(ner, len(doc), model_spans)])
    return doc


def _ents(doc):
    return [(e.start, e.end, e.label_, e._.phi_source) for e in doc.ents]


RULES = [(4, 6, "CITY"), (6, 7, "DATE"), (8, 10, "HOSPITAL")]
MODEL = [(0, 1, "PATIENT"), (3, 6, "DOCTOR"), (6, 8, "DATE")]


def test_protected_rule_beats_model_and_model_beats_unprotected():
    doc = _apply(True, ["DATE"], RULES, MODEL)
    assert _ents(doc) == [
        (0, 1, "PATIENT", "phi_ner"),  # non-overlapping model span
        (3, 6, "DOCTOR", "phi_ner"),  # covers the unprotected CITY: wins
        (6, 7, "DATE", "rules:test"),  # protected: the model's DATE is dropped
        (8, 10, "HOSPITAL", "rules:test"),  # non-overlapping rule entity
    ]
    for ent in doc.ents:
        if ent._.phi_source == "phi_ner":
            assert ent._.phi_score == pytest.approx(0.75)
        else:
            assert ent._.phi_score is None
    # The dropped model span got no extensions.
    assert Span(doc, 6, 8, label="DATE")._.phi_source is None
    assert Span(doc, 6, 8, label="DATE")._.phi_score is None


def test_without_protected_labels_model_wins_everywhere():
    doc = _apply(True, [], RULES, MODEL)
    assert _ents(doc) == [
        (0, 1, "PATIENT", "phi_ner"),
        (3, 6, "DOCTOR", "phi_ner"),
        (6, 8, "DATE", "phi_ner"),
        (8, 10, "HOSPITAL", "rules:test"),
    ]


@pytest.mark.parametrize(
    "model,expected",
    [
        ([(3, 4, "PATIENT")], (3, 5, "DOCTOR")),  # shorter model span inside
        ([(4, 6, "PATIENT")], (3, 6, "DOCTOR")),  # partial overlap
        ([(2, 4, "PATIENT")], (2, 5, "DOCTOR")),
    ],
)
def test_partly_covered_rule_entity_becomes_the_union(model, expected):
    """A model span never uncovers tokens of a rule entity it overlaps."""
    doc = _apply(True, ["DATE"], [(3, 5, "DOCTOR"), (6, 7, "DATE")], model)
    assert [e[:3] for e in _ents(doc)] == [expected, (6, 7, "DATE")]


# Admitted(0) May(1) .(2) 8th(3) 2100(4) by(5) Dr(6) Quillon(7) .(8)
GROWN_TEXT = "Admitted May . 8th 2100 by Dr Quillon ."


@pytest.mark.parametrize(
    "rules,model,expected",
    [
        # The model's "May. 8th 2100" reaches past the rule's "May": one span.
        ([(1, 2, "DATE")], [(1, 5, "DATE")], [(1, 5, "DATE", "phi_ner")]),
        ([(4, 5, "DATE")], [(1, 5, "DATE")], [(1, 5, "DATE", "phi_ner")]),
        # Only words added, inside the rule's span, or another label: the
        # rule's span stays.
        ([(1, 2, "DATE")], [(0, 2, "DATE")], [(1, 2, "DATE", "rules:test")]),
        ([(1, 5, "DATE")], [(3, 5, "DATE")], [(1, 5, "DATE", "rules:test")]),
        # Another label: its tokens outside the rule's span stay its own.
        (
            [(1, 5, "DATE")],
            [(4, 8, "DOCTOR")],
            [(1, 5, "DATE", "rules:test"), (5, 8, "DOCTOR", "phi_ner")],
        ),
        ([(1, 5, "DATE")], [(2, 5, "CITY")], [(1, 5, "DATE", "rules:test")]),
        # A common word outside it is the entity's cue, not a name: dropped.
        ([(1, 5, "DATE")], [(0, 5, "CITY")], [(1, 5, "DATE", "rules:test")]),
        # Never over another earlier entity.
        (
            [(1, 2, "DATE"), (3, 4, "CITY")],
            [(1, 5, "DATE")],
            [(1, 2, "DATE", "rules:test"), (3, 4, "CITY", "rules:test")],
        ),
    ],
)
def test_grow_protected_joins_a_rule_and_the_model_span_of_its_label(
    rules, model, expected
):
    def apply(grow):
        nlp, ner = _ner(True, ["DATE"], grow)
        doc = nlp.make_doc(GROWN_TEXT)
        ents = [Span(doc, s, e, label=label) for s, e, label in rules]
        for ent in ents:
            ent._.phi_source = "rules:test"
        doc.set_ents(ents, default="outside")
        ner.set_annotations([doc], [_pred(ner, len(doc), model)])
        return _ents(doc)

    assert apply(True) == expected
    # Off by default: the protected rule's span wins as it is.
    dates = [(*rule, "rules:test") for rule in rules if rule[2] == "DATE"]
    assert [ent for ent in apply(False) if ent[2] == "DATE"] == dates


def test_grown_spans_lose_edges_without_letters_or_digits():
    nlp, ner = _ner(True, ["PHONE"], grow=True)
    doc = nlp.make_doc("Clinic - 5550122 ext 12 .")
    ner.add_label("PHONE")
    doc.set_ents([Span(doc, 2, 3, label="PHONE")])  # "5550122"
    ner.set_annotations([doc], [_pred(ner, len(doc), [(1, 5, "PHONE")])])
    assert [(e.text, e.label_) for e in doc.ents] == [("5550122 ext 12", "PHONE")]


def test_unprotected_rule_loses_only_to_written_model_spans():
    # The model's "on 12/03/2020" overlaps the unprotected CITY "on" and the
    # protected DATE: it is dropped, so CITY stays.
    doc = _apply(True, ["DATE"], [(5, 6, "CITY"), (6, 7, "DATE")], [(5, 7, "DATE")])
    assert _ents(doc) == [(5, 6, "CITY", "rules:test"), (6, 7, "DATE", "rules:test")]


def test_equal_span_protected_keeps_rule_extensions():
    doc = _apply(True, ["DATE"], [(6, 7, "DATE")], [(6, 7, "DATE")])
    assert _ents(doc) == [(6, 7, "DATE", "rules:test")]
    assert doc.ents[0]._.phi_score is None
    doc = _apply(True, ["DATE"], [(3, 5, "DOCTOR")], [(3, 5, "DOCTOR")])
    assert _ents(doc) == [(3, 5, "DOCTOR", "phi_ner")]


@pytest.mark.parametrize("overwrite", [False, True])
def test_adjacent_spans_are_kept(overwrite):
    rules = [(6, 7, "DATE"), (8, 10, "HOSPITAL")]
    model = [(0, 1, "PATIENT"), (3, 6, "DOCTOR"), (7, 8, "CITY")]
    doc = _apply(overwrite, ["DATE"], rules, model)
    assert _ents(doc) == [
        (0, 1, "PATIENT", "phi_ner"),
        (3, 6, "DOCTOR", "phi_ner"),
        (6, 7, "DATE", "rules:test"),
        (7, 8, "CITY", "phi_ner"),
        (8, 10, "HOSPITAL", "rules:test"),
    ]


@pytest.mark.parametrize("protected", [[], ["DATE"], ["CITY", "HOSPITAL"]])
def test_overwrite_false_is_unchanged(protected):
    doc = _apply(False, protected, RULES, MODEL)
    assert _ents(doc) == [
        (0, 1, "PATIENT", "phi_ner"),
        (4, 6, "CITY", "rules:test"),
        (6, 7, "DATE", "rules:test"),
        (8, 10, "HOSPITAL", "rules:test"),
    ]


def test_protected_labels_validation():
    with pytest.raises(ValueError, match="protected_labels"):
        from spacy_deid.ner import PhiEntityRecognizer

        PhiEntityRecognizer(spacy.blank("en").vocab, None, protected_labels="DATE")
    nlp, ner = _ner(True, ["DATE"])
    assert ner.cfg["protected_labels"] == ["DATE"]
    assert make_nlp().get_pipe("phi_ner").cfg["protected_labels"] == []


def _overlap(a, b):
    return a.start < b.end and b.start < a.end


def _old_policy(existing, spans, overwrite):
    """The merge before protected_labels, for comparison."""
    if overwrite:
        return [e for e in existing if not any(_overlap(e, s) for s in spans)], spans
    return existing, [s for s in spans if not any(_overlap(s, e) for e in existing)]


def _random_spans(doc, rng, labels):
    spans, i = [], int(rng.integers(0, 3))
    while i < len(doc):
        length = int(rng.integers(1, 4))
        if i + length <= len(doc):
            spans.append(Span(doc, i, i + length, label=str(rng.choice(labels))))
        i += length + int(rng.integers(0, 3))
    return spans


@pytest.mark.parametrize("seed", range(30))
def test_merge_properties(seed):
    rng = np.random.default_rng(seed)
    doc = spacy.blank("en").make_doc(" ".join(["zorvex"] * 25))  # no word: a name
    labels = ["A", "B", "C"]
    existing = _random_spans(doc, rng, labels)
    spans = _random_spans(doc, rng, labels)
    old = _old_policy(existing, spans, False)
    assert merge_ents(existing, spans, overwrite=False) == old
    assert merge_ents(existing, spans, overwrite=False, protected=["A"]) == old
    for protected in ([], ["A"]):
        _check_grown(existing, spans, protected)
        kept, new = merge_ents(existing, spans, overwrite=True, protected=protected)
        again = merge_ents(existing, spans, overwrite=True, protected=protected)
        assert (kept, new) == again
        result = sorted(kept + new, key=lambda s: s.start)
        # Nothing overlaps; protected entities are all kept and beat the model
        # spans that overlap them; no PHI token found by either side is lost.
        assert all(
            a.end <= b.start for a, b in zip(result[:-1], result[1:], strict=True)
        )
        guarded = [e for e in existing if e.label_ in protected]
        assert guarded == [e for e in kept if e.label_ in protected]
        covered = {i for span in result for i in range(span.start, span.end)}
        for span in existing + spans:
            if span in existing or not any(_overlap(span, e) for e in guarded):
                assert set(range(span.start, span.end)) <= covered
        for span in spans:
            if any(_overlap(span, e) for e in guarded):
                assert span not in new


@pytest.mark.parametrize("seed", range(60))
def test_grow_properties_on_words_marks_and_numbers(seed):
    """With `grow`, on tokens of every kind: no empty or overlapping span, and
    nothing covered without it is uncovered with it."""
    rng = np.random.default_rng(seed)
    words = rng.choice(["zorvex", "-", "7", "room", "\u00b7"], size=25)
    doc = spacy.blank("en").make_doc(" ".join(words))
    existing = _random_spans(doc, rng, ["A", "B", "C"])
    spans = _random_spans(doc, rng, ["A", "B", "C"])
    kept, new = merge_ents(existing, spans, overwrite=True, protected=["A"], grow=True)
    result = sorted(kept + new, key=lambda s: s.start)
    assert all(len(span) for span in result)
    assert all(a.end <= b.start for a, b in zip(result[:-1], result[1:], strict=True))
    covered = {i for span in result for i in range(span.start, span.end)}
    plain = merge_ents(existing, spans, overwrite=True, protected=["A"])
    for span in plain[0] + plain[1]:
        assert set(range(span.start, span.end)) <= covered


def _check_grown(existing, spans, protected):
    """With `grow`: nothing overlaps, and every token covered without it is
    covered with it."""
    kept, new = merge_ents(
        existing, spans, overwrite=True, protected=protected, grow=True
    )
    result = sorted(kept + new, key=lambda s: s.start)
    assert all(a.end <= b.start for a, b in zip(result[:-1], result[1:], strict=True))
    plain = merge_ents(existing, spans, overwrite=True, protected=protected)
    covered = {i for span in result for i in range(span.start, span.end)}
    for span in plain[0] + plain[1]:
        assert set(range(span.start, span.end)) <= covered
    # A model span of an unprotected label loses no token.
    for span in spans:
        if span.label_ not in protected:
            assert set(range(span.start, span.end)) <= covered


def test_model_spans_inside_not_phi_are_dropped():
    from spacy_deid.labels import NOT_PHI_KEY
    from spacy_deid.tagging.spans import drop_not_phi as _drop_not_phi

    doc = spacy.blank("en").make_doc("Pain after tylenol : 2/10 on 2/10 .")
    doc.spans[NOT_PHI_KEY] = [Span(doc, 4, 5)]
    spans = [Span(doc, 4, 5, label="DATE"), Span(doc, 6, 7, label="DATE")]
    assert _drop_not_phi(doc, spans) == [spans[1]]
    wider = [Span(doc, 3, 5, label="DATE")]
    assert _drop_not_phi(doc, wider) == wider
    assert _drop_not_phi(spacy.blank("en").make_doc("x"), []) == []


def test_spans_without_letters_or_digits_are_dropped():
    nlp, ner = _ner(True)
    doc = nlp.make_doc("Seen by Dr John Smith - on 12/03/2020 .")
    pred = _pred(ner, len(doc), [(3, 5, "DOCTOR"), (5, 6, "CITY"), (8, 9, "DATE")])
    ner.set_annotations([doc], [pred])
    assert [(e.text, e.label_) for e in doc.ents] == [("John Smith", "DOCTOR")]

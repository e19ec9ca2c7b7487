"""phi_consistency within one doc: matching, labels, scores, what it never touches."""

import pytest

from spacy_deid.consistency import SOURCE

from .conftest import TEST_SOURCE, added, annotate, blank, make_component


def make(**config):
    """The shared blank English pipeline and a fresh component."""
    return blank("en"), make_component(**config)


def run(component, doc):
    return component(doc)


def snapshot(doc):
    return [
        (e.start, e.end, e.label_, e._.phi_source, e._.phi_score, e._.phi_flags)
        for e in doc.ents
    ]


def test_case_variants_are_marked():
    nlp, comp = make()
    text = "Quillon Xavier seen. QUILLON XAVIER called. Then quillon xavier left."
    doc = run(comp, annotate(nlp, text, [("Quillon Xavier", "PATIENT", 0.9)]))
    assert added(doc) == [("QUILLON XAVIER", "PATIENT"), ("quillon xavier", "PATIENT")]
    for ent in doc.ents:
        assert doc.text[ent.start_char : ent.end_char] == ent.text
        assert ent._.phi_score == 0.9


@pytest.mark.parametrize(
    "source,other",
    [
        ("Quillon Xavier", "Quillon  Xavier"),
        ("Quillon Xavier", "Quillon\n\nXavier"),
        ("Quillon\nXavier", "Quillon Xavier"),
    ],
)
def test_whitespace_runs_are_collapsed(source, other):
    nlp, comp = make()
    text = f"{source} seen today. Later {other} called."
    doc = run(comp, annotate(nlp, text, [(source, "PATIENT")]))
    assert added(doc) == [(other, "PATIENT")]


def test_no_whitespace_is_not_whitespace():
    nlp, comp = make()
    text = "Quillon-Xavier seen. Quillon - Xavier called. QuillonXavier left."
    doc = run(comp, annotate(nlp, text, [("Quillon-Xavier", "PATIENT")]))
    assert added(doc) == []


def test_token_alignment():
    nlp, comp = make()
    text = "Ann seen. Annual visit with Anne and Ann's sister; ANN agreed. Joann too."
    doc = run(comp, annotate(nlp, text, [("Ann", "PATIENT")]))
    assert [(e.start_char, e.text) for e in doc.ents if e._.phi_source == SOURCE] == [
        (text.index("Ann's"), "Ann"),
        (text.index("ANN"), "ANN"),
    ]


def test_multi_token_name_spreads_though_a_word_is_common():
    nlp, comp = make()
    text = "Cole Brown admitted. Mr. Brown is stable. cole brown discharged."
    doc = run(comp, annotate(nlp, text, [("Cole Brown", "PATIENT")]))
    assert added(doc) == [("cole brown", "PATIENT")]


def test_longest_string_wins():
    nlp, comp = make()
    text = "Quillon here. Xavier Quillon there. Later Xavier Quillon and Quillon."
    ents = [("Quillon", "PATIENT"), ("Xavier Quillon", "PATIENT", None, 0)]
    doc = run(comp, annotate(nlp, text, ents))
    assert added(doc) == [("Xavier Quillon", "PATIENT"), ("Quillon", "PATIENT")]


def test_existing_entities_are_never_changed():
    nlp, comp = make()
    text = "Quillon seen at 12 Quillon Street on 3/4. Quillon called Dr. Quillon."
    ents = [
        ("Quillon", "PATIENT", 0.9),
        ("12 Quillon Street", "STREET", 0.75),
        ("3/4", "DATE", 0.8),
        ("Quillon", "DOCTOR", 0.99, 3),
    ]
    doc = annotate(nlp, text, ents)
    doc.ents[1]._.phi_flags = ["X"]
    before = snapshot(doc)
    run(comp, doc)
    after = snapshot(doc)
    assert [e for e in after if e[3] != SOURCE] == before
    assert added(doc) == [("Quillon", "PATIENT")]
    assert [e.start_char for e in doc.ents if e._.phi_source == SOURCE] == [
        text.index("Quillon called")
    ]


def test_most_frequent_label_then_scheme_order():
    nlp, comp = make()
    text = "Marlow A. Marlow B. Marlow C. Marlow D."
    ents = [("Marlow", "DOCTOR"), ("Marlow", "PATIENT", None, 1)]
    ents += [("Marlow", "PATIENT", None, 2)]
    assert added(run(comp, annotate(nlp, text, ents))) == [("Marlow", "PATIENT")]
    ents = [("Marlow", "HOSPITAL"), ("Marlow", "DOCTOR", None, 1)]
    assert added(run(comp, annotate(nlp, text, ents))) == [
        ("Marlow", "DOCTOR"),
        ("Marlow", "DOCTOR"),
    ]
    ents = [("Marlow", "DOCTOR"), ("Marlow", "PATIENT", None, 1)]
    assert added(run(comp, annotate(nlp, text, ents)))[0] == ("Marlow", "PATIENT")
    # Labels outside the scheme (e.g. MEDDOCAN) come after it, by name.
    ents = [("Marlow", "NOMBRE_B"), ("Marlow", "NOMBRE_A", None, 1)]
    assert added(run(comp, annotate(nlp, text, ents)))[0] == ("Marlow", "NOMBRE_A")
    ents = [("Marlow", "NOMBRE_A"), ("Marlow", "PATIENT", None, 1)]
    assert added(run(comp, annotate(nlp, text, ents)))[0] == ("Marlow", "PATIENT")


@pytest.mark.parametrize(
    "scores,expected",
    [((0.8, 0.95), 0.95), ((None, None), None), ((None, 0.8), 0.8)],
)
def test_score_is_the_best_source_score(scores, expected):
    nlp, comp = make()
    text = "Marlow A. Marlow B. Marlow C."
    ents = [("Marlow", "PATIENT", scores[0]), ("Marlow", "PATIENT", scores[1], 1)]
    doc = run(comp, annotate(nlp, text, ents))
    assert [e._.phi_score for e in doc.ents if e._.phi_source == SOURCE] == [expected]


def test_flags_of_the_label_are_copied():
    nlp, comp = make()
    text = "Seen 13/13/2067 and again 13/13/2067."
    doc = annotate(nlp, text, [("13/13/2067", "DATE", 0.9)])
    doc.ents[0]._.phi_flags = ["INVALID_DATE"]
    run(comp, doc)
    assert [e._.phi_flags for e in doc.ents] == [["INVALID_DATE"], ["INVALID_DATE"]]


def test_phi_not_spans_are_respected():
    nlp, comp = make()
    text = (
        "Quillon seen by Quillon Xavier. Quillon sign negative. "
        "Quillon Xavier and Quillon called."
    )
    ents = [("Quillon", "PATIENT"), ("Quillon Xavier", "PATIENT")]
    not_phi = [("Quillon sign", 0), ("Quillon", 3)]
    doc = run(comp, annotate(nlp, text, ents, not_phi=not_phi))
    # "Quillon sign" is inside known non-PHI; "Quillon Xavier" is only
    # partly inside.
    assert [e.start_char for e in doc.ents if e._.phi_source == SOURCE] == [
        text.index("Quillon Xavier and"),
        text.index("Quillon called"),
    ]


def test_added_entities_are_not_sources_and_rerun_is_stable():
    nlp, comp = make(labels=["PATIENT"])
    text = "Quillon A. Quillon B. Quillon C."
    doc = run(comp, annotate(nlp, text, [("Quillon", "PATIENT")]))
    first = snapshot(doc)
    assert len(added(doc)) == 2
    assert snapshot(run(comp, doc)) == first
    assert doc.ents[0]._.phi_source == TEST_SOURCE


@pytest.mark.parametrize("text", ["", "   ", "\n\n", "No PHI here at all."])
def test_empty_and_plain_docs(text):
    nlp, comp = make()
    doc = run(comp, annotate(nlp, text))
    assert list(doc.ents) == []


def test_doc_without_other_occurrences_is_unchanged():
    nlp, comp = make()
    text = "Quillon Xavier seen on 01/02/2067."
    doc = annotate(nlp, text, [("Quillon Xavier", "PATIENT"), ("01/02/2067", "DATE")])
    before = snapshot(doc)
    assert snapshot(run(comp, doc)) == before


def test_many_strings_long_doc():
    nlp, comp = make()
    names = [f"Zyx{i:03d}" for i in range(200)]
    text = " ".join([f"{name} seen ." for name in names] * 5)
    doc = annotate(nlp, text, [(name, "PATIENT") for name in names])
    run(comp, doc)
    assert len(doc.ents) == 1000
    assert len(added(doc)) == 800


def test_a_name_that_is_an_ordinary_word_spreads_inside_sentences_only():
    nlp, comp = make(cased_labels=["PATIENT"])
    text = (
        "Came with his wife, Dawn. Per Dawn's account he falls often.\n"
        "Dawn is his carer. Plan:  Dawn to call. He wakes at dawn; dawn is hard."
        " Placed a Dawn catheter."
    )
    doc = run(comp, annotate(nlp, text, [("Dawn", "PATIENT", 0.9)]))
    # Inside a sentence, capitalised: marked. At a sentence start, after a
    # colon, in lower case ("at dawn") or before an eponym's head: left alone.
    assert added(doc) == [("Dawn", "PATIENT")]
    (ent,) = [e for e in doc.ents if e._.phi_source == SOURCE]
    assert text[ent.start_char - 4 : ent.end_char] == "Per Dawn"
    assert ent._.phi_score == 0.9


@pytest.mark.parametrize(
    "config,ents",
    [
        ({}, [("Dawn", "PATIENT", 0.9)]),  # off by default
        ({"cased_labels": ["PATIENT"]}, [("Dawn", "CITY", 0.9)]),  # other labels
        ({"cased_labels": ["PATIENT"]}, [("Dawn", "PATIENT", 0.1)]),  # low score
    ],
)
def test_ordinary_word_names_spread_only_when_asked(config, ents):
    nlp, comp = make(**config)
    text = "Came with his wife, Dawn. Per Dawn's account he falls often."
    doc = run(comp, annotate(nlp, text, ents))
    assert added(doc) == []


def test_a_names_words_spread_alone_where_they_stand_as_a_name():
    nlp, comp = make(part_labels=["DOCTOR"])
    text = (
        "Found by: Quillon Vantreese, RN.\n04:13  PEA   -   Vantreese\n"
        "Asked Vantreese to chart. Vantreese sign negative. Vantreese's cart.\n"
        "Quillon Meadows came. vantreese ok."
    )
    doc = run(comp, annotate(nlp, text, [("Quillon Vantreese", "DOCTOR", 0.9)]))
    # Alone, or before a stop word: marked. Before a lower-case word that is
    # no stop word ("sign"), before a possessive, next to another capitalised
    # word ("Quillon Meadows") or in lower case: left alone.
    assert added(doc) == [("Vantreese", "DOCTOR"), ("Vantreese", "DOCTOR")]
    starts = [e.start_char for e in doc.ents if e._.phi_source == SOURCE]
    assert [text[s - 6 : s] for s in starts] == ["  -   ", "Asked "]


def test_name_words_have_their_own_score_bar():
    text = "Meds by Ravi Vantreese, PharmD.\n04:19  VF   Vantreese\nPharmD note."
    ents = [("Ravi Vantreese", "DOCTOR", 0.8)]
    nlp, comp = make(part_labels=["DOCTOR"], min_score=0.9, part_min_score=0.75)
    # Below min_score the whole name does not spread, its words do; a
    # credential is no name's word.
    assert added(run(comp, annotate(nlp, text, ents))) == [("Vantreese", "DOCTOR")]
    nlp, comp = make(part_labels=["DOCTOR"], min_score=0.9, part_min_score=0.85)
    assert added(run(comp, annotate(nlp, text, ents))) == []
    with pytest.raises(ValueError, match="part_min_score"):
        make(part_min_score="high")


@pytest.mark.parametrize(
    "config,ents",
    [
        ({}, [("Quillon Vantreese", "DOCTOR", 0.9)]),  # off by default
        ({"part_labels": ["DOCTOR"]}, [("Quillon Vantreese", "CITY", 0.9)]),
        ({"part_labels": ["DOCTOR"]}, [("Quillon Vantreese", "DOCTOR", 0.1)]),
        # Words that are no name alone: short capitals, a common word.
        ({"part_labels": ["DOCTOR"]}, [("EEG Hope", "DOCTOR", 0.9)]),
    ],
)
def test_name_words_spread_only_when_asked(config, ents):
    nlp, comp = make(**config)
    text = f"{ents[0][0]} seen.\nAsked Vantreese to chart; EEG to do; Hope to call."
    doc = run(comp, annotate(nlp, text, ents))
    assert added(doc) == []

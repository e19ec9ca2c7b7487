"""The phi_merge component on hand-made span groups: settings, provenance,
vetoes, earlier entities, errors and serialization."""

import pickle

import numpy as np
import pytest
import spacy
from spacy.tokens import Doc, Span
from spacy.training import Example

from spacy_deid.labels import NOT_PHI_KEY
from spacy_deid.merge.component import PhiMerger

from .conftest import add_group, ents, make_doc, make_nlp

RULES = "phi_rules"
NER = "phi_ner"


_PIPELINES = {}


def _run(doc_groups, **config):
    """Run phi_merge on a 12-token doc with the given {key: specs} groups."""
    key = repr(sorted(config.items()))
    if key not in _PIPELINES:
        _PIPELINES[key] = make_nlp(**config)
    nlp = _PIPELINES[key]
    doc = make_doc(nlp)
    for key, specs in doc_groups.items():
        add_group(doc, key, specs)
    return nlp.get_pipe("phi_merge")(doc)


def test_factory_defaults():
    merger = make_nlp().get_pipe("phi_merge")
    assert isinstance(merger, PhiMerger)
    assert merger.cfg == {
        "sources": ["phi_rules", "phi_ner"],
        "strategy": "priority",
        "min_votes": 2,
        "protected_labels": [],
        "extend": True,
        "drop_not_phi": True,
        "overwrite_ents": True,
    }
    assert merger.sources == ("phi_rules", "phi_ner")
    assert merger.strategy == "priority"


def test_priority_extend_writes_ents_and_provenance():
    doc = _run(
        {
            RULES: [(1, 3, "DOCTOR", 0.9, "rules:name.doctor_title")],
            NER: [(0, 3, "PATIENT", 0.6, "phi_ner"), (5, 6, "CITY", 0.4, "phi_ner")],
        }
    )
    assert ents(doc) == [
        (0, 3, "DOCTOR", RULES, [RULES, NER][::-1], 0.9),
        (5, 6, "CITY", NER, [NER], 0.4),
    ]
    assert [t.ent_iob_ for t in doc[:4]] == ["B", "I", "I", "O"]


def test_output_span_at_source_offsets_gets_the_merged_values():
    doc = _run(
        {
            RULES: [(1, 3, "DATE", 0.5, "rules:date.mdy")],
            NER: [(1, 3, "DATE", 0.8, "phi_ner")],
        }
    )
    assert ents(doc) == [(1, 3, "DATE", RULES, [NER, RULES], 0.8)]
    # spaCy keys span extensions by offsets: the source spans share the value.
    assert doc.spans[RULES][0]._.phi_source == RULES


@pytest.mark.parametrize(
    "strategy,expected",
    [
        ("priority", [(0, 4, "DATE"), (6, 8, "CITY")]),
        ("union", [(0, 4, "DATE"), (6, 8, "CITY")]),
        ("vote", [(1, 3, "DATE")]),
    ],
)
def test_strategies_in_the_component(strategy, expected):
    doc = _run(
        {
            RULES: [(1, 3, "DATE", 1.0)],
            NER: [(0, 4, "AGE", 0.5), (6, 8, "CITY", 0.5)],
        },
        strategy=strategy,
    )
    assert [(e.start, e.end, e.label_) for e in doc.ents] == expected


def test_extend_off_drops_the_lower_span():
    groups = {RULES: [(1, 3, "DATE")], NER: [(0, 4, "AGE", 0.5)]}
    doc = _run(groups, extend=False)
    assert ents(doc) == [(1, 3, "DATE", RULES, [NER, RULES], 0.5)]


def test_protected_labels_in_the_component():
    groups = {RULES: [(4, 6, "PATIENT")], NER: [(3, 5, "PHONE", 0.9)]}
    doc = _run(groups, protected_labels=["PHONE"], extend=False)
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [(3, 5, "PHONE")]


def test_missing_source_key_means_no_spans():
    doc = _run({NER: [(2, 4, "CITY", 0.3)]})
    assert ents(doc) == [(2, 4, "CITY", NER, [NER], 0.3)]
    empty = _run({})
    assert list(empty.ents) == []


def test_unlisted_groups_are_ignored():
    doc = _run({"other": [(2, 4, "CITY")], RULES: [(6, 7, "DATE")]})
    assert [(e.start, e.end) for e in doc.ents] == [(6, 7)]


def test_flags_of_the_run_are_carried():
    doc = _run(
        {
            RULES: [(2, 3, "AGE", 1.0, "rules:age", ["AGE_OVER_89"])],
            NER: [(1, 4, "AGE", 0.5), (8, 9, "DATE", 0.5)],
        }
    )
    assert [(e.start, e.end, e._.phi_flags) for e in doc.ents] == [
        (1, 4, ["AGE_OVER_89"]),
        (8, 9, None),
    ]


def test_drop_not_phi():
    groups = {
        NOT_PHI_KEY: [(2, 3, "NOT_PHI"), (3, 4, "NOT_PHI"), (8, 10, "NOT_PHI")],
        NER: [
            (2, 4, "DATE", 0.5),  # covered by two touching vetoes: dropped
            (8, 9, "PHONE", 0.5),  # protected: kept
            (9, 11, "AGE", 0.5),  # only partly vetoed: kept
        ],
    }
    doc = _run(groups, protected_labels=["PHONE"])
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [
        (8, 9, "PHONE"),
        (9, 11, "AGE"),
    ]
    kept = _run(groups, protected_labels=["PHONE"], drop_not_phi=False)
    assert [(e.start, e.end) for e in kept.ents] == [(2, 4), (8, 9), (9, 11)]


def test_vetoed_span_does_not_vote_or_extend():
    groups = {
        NOT_PHI_KEY: [(0, 3, "NOT_PHI")],
        RULES: [(2, 4, "DATE")],
        NER: [(1, 3, "AGE", 0.9)],
    }
    assert [(e.start, e.end) for e in _run(groups).ents] == [(2, 4)]
    assert list(_run(groups, strategy="vote").ents) == []


def test_spans_without_letter_or_digit_are_never_output():
    nlp = make_nlp(protected_labels=["PHONE"])
    words = ["Call", "(", "555", ")", "-", "1234", "now", "-", "-"]
    doc = make_doc(nlp, words=words)
    add_group(doc, RULES, [(2, 3, "PHONE"), (7, 9, "DATE")])
    # The NER span is clipped around the protected PHONE; its left part "("
    # and its right part ")" "-" are punctuation.
    add_group(doc, NER, [(1, 5, "IDNUM", 0.5)])
    nlp.get_pipe("phi_merge")(doc)
    assert [(e.start, e.end, e.label_) for e in doc.ents] == [(2, 3, "PHONE")]


def test_overwrite_ents():
    def run(overwrite):
        nlp = make_nlp(overwrite_ents=overwrite)
        doc = make_doc(nlp)
        doc.set_ents([Span(doc, 0, 1, "CITY"), Span(doc, 3, 5, "STATE")])
        add_group(doc, NER, [(4, 6, "DATE", 0.5), (8, 9, "AGE", 0.5)])
        return [(e.start, e.end, e.label_) for e in nlp.get_pipe("phi_merge")(doc).ents]

    assert run(True) == [(4, 6, "DATE"), (8, 9, "AGE")]
    assert run(False) == [(0, 1, "CITY"), (4, 6, "DATE"), (8, 9, "AGE")]


def test_same_output_whatever_the_order_of_groups_and_spans():
    rules = [(0, 2, "DATE", 0.9), (1, 3, "AGE", 0.9), (6, 9, "CITY", 0.7)]
    ner = [(2, 5, "PATIENT", 0.4), (5, 7, "HOSPITAL", 0.6), (10, 11, "DATE", 0.2)]
    crf = [(0, 3, "DATE", 0.5), (9, 11, "ZIP", 0.1)]
    sources = [RULES, NER, "phi_crf"]
    for strategy in ("priority", "union", "vote"):
        first = _run(
            {RULES: rules, NER: ner, "phi_crf": crf},
            sources=sources,
            strategy=strategy,
        )
        second = _run(
            {"phi_crf": crf[::-1], NER: ner[::-1], RULES: rules[::-1]},
            sources=sources,
            strategy=strategy,
        )
        assert ents(first) == ents(second)
        assert ents(first)


def test_empty_doc():
    nlp = make_nlp()
    doc = nlp.get_pipe("phi_merge")(Doc(nlp.vocab, words=[]))
    assert list(doc.ents) == []


def test_span_without_label_is_an_error_that_names_no_text():
    nlp = make_nlp()
    doc = make_doc(nlp, words=["Patient", "Johnathan", "Smithers", "seen"])
    doc.spans[NER] = [Span(doc, 1, 3)]
    with pytest.raises(ValueError) as err:
        nlp.get_pipe("phi_merge")(doc)
    message = str(err.value)
    assert "span 0 of source 'phi_ner'" in message
    assert "Johnathan" not in message and "Smithers" not in message


def test_numpy_and_nan_scores():
    doc = _run(
        {
            RULES: [(1, 2, "DATE", float("nan"))],
            NER: [(1, 3, "DATE", np.float32(0.25)), (5, 6, "CITY", float("nan"))],
        }
    )
    assert ents(doc) == [
        (1, 3, "DATE", RULES, [NER, RULES], 0.25),
        (5, 6, "CITY", NER, [NER], None),
    ]
    assert type(doc.ents[0]._.phi_score) is float


def test_score_that_is_not_a_number_is_an_error():
    nlp = make_nlp()
    doc = make_doc(nlp)
    add_group(doc, NER, [(1, 2, "DATE", "high")])
    with pytest.raises(ValueError, match="phi_score"):
        nlp.get_pipe("phi_merge")(doc)


def test_pipe_passes_a_failing_doc_to_the_error_handler_and_drops_it():
    nlp = make_nlp()
    good, bad, other = (make_doc(nlp) for _ in range(3))
    add_group(good, NER, [(1, 2, "DATE", 0.5)])
    bad.spans[NER] = [Span(bad, 1, 2)]
    add_group(other, NER, [(3, 4, "CITY", 0.5)])
    merger = nlp.get_pipe("phi_merge")
    failed = []
    merger.set_error_handler(lambda name, proc, docs, e: failed.extend(docs))
    out = list(merger.pipe([good, bad, other]))
    assert out == [good, other]
    assert failed == [bad]
    assert [e.label_ for e in other.ents] == ["CITY"]
    # Without a handler the error is raised.
    with pytest.raises(ValueError):
        list(make_nlp().get_pipe("phi_merge").pipe([bad]))


@pytest.mark.parametrize(
    "config",
    [
        {"strategy": "max"},
        {"sources": []},
        {"sources": ["phi_rules", "phi_rules"]},
        {"sources": ["phi_rules", ""]},
        {"sources": ["phi_rules", NOT_PHI_KEY]},
        {"min_votes": 0},
        {"strategy": "vote", "min_votes": 3},
    ],
)
def test_invalid_settings_raise(config):
    with pytest.raises(ValueError, match="phi_merge|phi_not"):
        make_nlp(**config)


@pytest.mark.parametrize(
    "kwargs",
    [
        {"sources": "phi_rules"},
        {"protected_labels": "PHONE"},
        {"min_votes": True},
        {"extend": "yes"},
        {"overwrite_ents": 1},
    ],
)
def test_invalid_settings_raise_in_the_class(kwargs):
    with pytest.raises(ValueError, match="phi_merge"):
        PhiMerger(**kwargs)


CONFIG = {
    "sources": [NER, RULES],
    "strategy": "union",
    "min_votes": 1,
    "protected_labels": ["PHONE"],
    "extend": False,
    "drop_not_phi": False,
    "overwrite_ents": False,
}
GROUPS = {RULES: [(1, 3, "DATE", 1.0)], NER: [(0, 2, "AGE", 0.5), (7, 8, "PHONE", 0.7)]}


def _annotate(nlp):
    doc = make_doc(nlp)
    for key, specs in GROUPS.items():
        add_group(doc, key, specs)
    return nlp.get_pipe("phi_merge")(doc)


def test_to_disk_and_spacy_load_round_trip(tmp_path):
    nlp = make_nlp(**CONFIG)
    nlp.to_disk(tmp_path / "model")
    loaded = spacy.load(tmp_path / "model")
    assert loaded.pipe_names == ["phi_merge"]
    assert loaded.get_pipe("phi_merge").cfg == CONFIG
    assert ents(_annotate(loaded)) == ents(_annotate(nlp))
    assert ents(_annotate(loaded))[0] == (0, 3, "AGE", NER, [NER, RULES], 1.0)


def test_component_bytes_and_pickle_round_trip():
    merger = make_nlp(**CONFIG).get_pipe("phi_merge")
    fresh = make_nlp().get_pipe("phi_merge")
    fresh.from_bytes(merger.to_bytes())
    assert fresh.cfg == CONFIG
    assert pickle.loads(pickle.dumps(merger)).cfg == CONFIG
    with pytest.raises(ValueError, match="strategy"):
        bad = PhiMerger(strategy="union")
        bad.cfg["strategy"] = "max"
        fresh.from_bytes(bad.to_bytes())
    assert fresh.cfg == CONFIG


def test_doc_to_bytes_keeps_the_provenance():
    nlp = make_nlp(**CONFIG)
    doc = _annotate(nlp)
    restored = Doc(nlp.vocab).from_bytes(doc.to_bytes())
    assert ents(restored) == ents(doc)
    assert [e._.phi_flags for e in restored.ents] == [e._.phi_flags for e in doc.ents]
    for ent in restored.ents:
        assert isinstance(ent._.phi_sources, list)
        assert all(isinstance(key, str) for key in ent._.phi_sources)


def test_score_uses_the_merged_entities():
    nlp = make_nlp()
    predicted = make_doc(nlp)
    add_group(predicted, NER, [(1, 3, "DATE", 0.5), (6, 7, "CITY", 0.5)])
    nlp.get_pipe("phi_merge")(predicted)
    reference = make_doc(nlp)
    reference.set_ents([Span(reference, 1, 3, "DATE")])
    scores = nlp.get_pipe("phi_merge").score([Example(predicted, reference)])
    assert scores["ents_p"] == pytest.approx(0.5)
    assert scores["ents_r"] == pytest.approx(1.0)
    assert scores["phi_token_r"] == pytest.approx(1.0)

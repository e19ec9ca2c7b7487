"""phi_consistency across docs: patient runs in pipe(), carry-over, scopes,
contexts, apply_consistency, and failing closed."""

import pytest

from spacy_deid.consistency import apply_consistency

from .conftest import added, annotate, blank, make_component, make_nlp

Q = [("Quillon", "PATIENT")]


def doc(text, ents=(), patient=None, lang="en"):
    return annotate(blank(lang), text, ents, patient=patient)


def run_pipe(component, docs):
    out = list(component.pipe(iter(docs)))
    assert [id(d) for d in out] == [id(d) for d in docs]
    return out


def test_string_found_in_third_doc_marks_the_first():
    docs = [
        doc("Quillon called.", patient="p1"),
        doc("Seen QUILLON today.", patient="p1"),
        doc("Quillon admitted.", Q, patient="p1"),
    ]
    out = run_pipe(make_component(), docs)
    assert [added(d) for d in out] == [
        [("Quillon", "PATIENT")],
        [("QUILLON", "PATIENT")],
        [],
    ]


def test_no_leakage_across_patients():
    docs = [
        doc("Quillon admitted.", Q, patient="p1"),
        doc("Quillon called.", patient="p2"),
        doc("Quillon again.", patient="p3"),
        doc("Xavier Zorn seen, Quillon too.", [("Xavier Zorn", "DOCTOR")], "p4"),
        doc("Xavier Zorn again.", patient="p4"),
    ]
    out = run_pipe(make_component(), docs)
    assert [added(d) for d in out] == [[], [], [], [], [("Xavier Zorn", "DOCTOR")]]


def test_runs_are_contiguous():
    docs = [
        doc("Quillon admitted.", Q, patient="p1"),
        doc("Nothing here.", patient="p2"),
        doc("Quillon called.", patient="p1"),
    ]
    assert [added(d) for d in run_pipe(make_component(), docs)] == [[], [], []]


def test_doc_scope_does_not_cross_docs():
    docs = [
        doc("Quillon admitted. Quillon fed.", Q, patient="p1"),
        doc("Quillon called.", patient="p1"),
    ]
    out = run_pipe(make_component(scope="doc"), docs)
    assert [added(d) for d in out] == [[("Quillon", "PATIENT")], []]


def test_call_is_doc_scope():
    component = make_component()
    first = component(doc("Quillon admitted.", Q, patient="p1"))
    second = component(doc("Quillon called.", patient="p1"))
    assert added(first) == added(second) == []


def test_docs_without_patient_are_their_own_scope():
    docs = [
        doc("Quillon admitted.", Q),
        doc("Quillon called."),
        doc("Quillon again. Quillon.", Q, patient=""),
        doc("Quillon once more."),
    ]
    out = run_pipe(make_component(), docs)
    assert [added(d) for d in out] == [[], [], [("Quillon", "PATIENT")], []]


def test_max_run_docs_keeps_earlier_strings():
    text = "Quillon and Xavier."
    docs = [doc(text, Q, patient="p1")]
    docs += [doc(text, patient="p1") for _ in range(2)]
    docs += [doc(text, [("Xavier", "DOCTOR")], patient="p1")]
    docs += [doc(text, patient="p1")]
    # Runs of 2: [0, 1], [2, 3], [4]; Quillon (doc 0) reaches every later
    # doc, Xavier (doc 3) its own run and the runs after it.
    out = run_pipe(make_component(max_run_docs=2), docs)
    assert [added(d) for d in out] == [
        [],
        [("Quillon", "PATIENT")],
        [("Quillon", "PATIENT"), ("Xavier", "DOCTOR")],
        [("Quillon", "PATIENT")],
        [("Quillon", "PATIENT"), ("Xavier", "DOCTOR")],
    ]
    # The carried strings are the patient's only.
    docs = [doc(text, Q, patient="p1"), doc(text, patient="p1")]
    docs += [doc(text, patient="p2")]
    out = run_pipe(make_component(max_run_docs=1), docs)
    assert [added(d) for d in out] == [[], [("Quillon", "PATIENT")], []]


def test_runs_stream_and_state_is_bounded():
    pulled = []

    def stream():
        for i in range(40):
            pulled.append(i)
            yield doc("Quillon seen.", Q if i % 4 == 0 else (), patient=f"p{i // 4}")

    component = make_component()
    outputs = component.pipe(stream())
    first = next(outputs)
    # The first patient's run is yielded once the next patient starts.
    assert len(pulled) == 5
    assert added(first) == []
    rest = [first] + list(outputs)
    assert len(rest) == 40
    assert all(len(added(d)) == (0 if i % 4 == 0 else 1) for i, d in enumerate(rest))


def test_max_run_docs_bounds_the_buffer():
    pulled = []

    def stream():
        for i in range(10):
            pulled.append(i)
            yield doc("Quillon seen.", Q if i == 0 else (), patient="p1")

    outputs = make_component(max_run_docs=3).pipe(stream())
    next(outputs)
    assert len(pulled) == 4
    assert sum(len(added(d)) for d in outputs) == 9


def test_context_patient_with_as_tuples():
    nlp = make_nlp()
    data = [
        (annotate(nlp, "Quillon called."), {"patient": "p1", "n": 0}),
        (annotate(nlp, "Quillon admitted.", Q), {"patient": "p1", "n": 1}),
        (annotate(nlp, "Quillon left."), {"patient": "p2", "n": 2}),
    ]
    out = list(nlp.pipe(data, as_tuples=True))
    assert [context["n"] for _, context in out] == [0, 1, 2]
    assert [added(d) for d, _ in out] == [[("Quillon", "PATIENT")], [], []]


def test_doc_patient_attribute_wins_and_works_in_nlp_pipe():
    nlp = make_nlp()
    docs = [
        annotate(nlp, "Quillon called.", patient="p1"),
        annotate(nlp, "Quillon admitted.", Q, patient="p1"),
    ]
    data = [(d, {"patient": f"other{i}"}) for i, d in enumerate(docs)]
    out = [d for d, _ in nlp.pipe(data, as_tuples=True)]
    assert [added(d) for d in out] == [[("Quillon", "PATIENT")], []]


def test_apply_consistency_groups_non_contiguous_patients():
    def make_docs():
        return [
            doc("Quillon admitted.", Q, patient="p1"),
            doc("Quillon called.", patient="p2"),
            doc("Quillon again.", patient="p1"),
            doc("Quillon with no patient."),
        ]

    out = apply_consistency(make_docs(), by_patient=True)
    assert [added(d) for d in out] == [[], [], [("Quillon", "PATIENT")], []]
    out = apply_consistency(make_docs())
    assert [len(added(d)) for d in out] == [0, 1, 1, 1]
    out = make_component().apply(make_docs(), by_patient=True)
    assert [len(added(d)) for d in out] == [0, 0, 1, 0]
    out = apply_consistency(make_docs(), labels=["DOCTOR"])
    assert [len(added(d)) for d in out] == [0, 0, 0, 0]


def test_apply_consistency_language():
    docs = [
        doc("Dolores y Quiñones.", [("Dolores", "PATIENT")], lang="es"),
        doc("Dolores. Quiñones.", [("Quiñones", "PATIENT")], lang="es"),
    ]
    out = apply_consistency(docs)
    assert [added(d) for d in out] == [[("Quiñones", "PATIENT")], []]
    mixed = [doc("Quillon.", Q), doc("Quillon.", lang="es")]
    with pytest.raises(ValueError):
        apply_consistency(mixed)
    assert apply_consistency([]) == []


def test_already_deidentified_docs_fail_closed():
    secret = "Quillon"
    bad = doc(f"{secret} called.", patient="p1")
    bad._.deidentified = "[**] called."
    with pytest.raises(ValueError) as err:
        make_component()(bad)
    assert secret not in str(err.value)
    docs = [doc("Quillon admitted.", Q, patient="p1"), bad]
    with pytest.raises(ValueError, match="doc 1"):
        apply_consistency(docs)


def test_pipe_errors_go_to_the_error_handler():
    failed = []

    def handler(name, component, docs, err):
        failed.extend((name, d, type(err).__name__) for d in docs)

    bad = doc("Quillon called.", patient="p1")
    bad._.deidentified = "[**] called."
    docs = [
        doc("Quillon admitted.", Q, patient="p1"),
        bad,
        doc("Quillon left.", patient="p1"),
    ]
    component = make_component()
    component.set_error_handler(handler)
    out = list(component.pipe(iter(docs)))
    assert out == [docs[0], docs[2]]
    assert failed == [("phi_consistency", bad, "ValueError")]
    assert added(docs[2]) == [("Quillon", "PATIENT")]
    component.set_error_handler(handler)
    failed.clear()
    assert component(bad) is bad
    assert len(failed) == 1

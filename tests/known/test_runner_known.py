"""Known PHI in JSONL records and the runner: inheritance per patient,
rejection of bad lists, the per-patient cache, end to end with en_rules."""

import json
import re

import pytest
import spacy

from spacy_deid.known import KnownPhiStore
from spacy_deid.io.records import Record, Rejected, parse_jsonl_line
from spacy_deid.run.runner import Result, deidentify_items, deidentify_texts

pytestmark = pytest.mark.filterwarnings(
    "ignore::spacy_deid.surrogates.replacer.EphemeralKeyWarning"
)

# Planted names that no rule or word list knows.
FIRST, LAST = "Zarqowitz", "Ulvenhart"
KNOWN = [{"text": f"{LAST}, {FIRST}", "label": "PATIENT"}]


def items_from(lines):
    return [parse_jsonl_line(json.dumps(d), i + 1, i) for i, d in enumerate(lines)]


def leaks(text):
    return re.findall(f"(?i){FIRST}|{LAST}", text)


def test_parse_known_phi_field():
    line = {"id": 1, "text": "x", "known_phi": [{"text": " Ann ", "label": "patient"}]}
    record = parse_jsonl_line(json.dumps(line), 1, 0)
    assert isinstance(record, Record)
    assert record.known_phi == [{"text": "Ann", "label": "PATIENT"}]
    for empty in (None, []):
        line["known_phi"] = empty
        assert parse_jsonl_line(json.dumps(line), 1, 0).known_phi is None


@pytest.mark.parametrize(
    "value,message",
    [
        ("Zarqowitz", "known_phi is str, not a list"),
        ({"text": "Zarqowitz"}, "known_phi is dict, not a list"),
        (["Zarqowitz"], "known_phi[0] is str, not an object"),
        ([{"label": "PATIENT"}], "known_phi[0] has no 'text'"),
        ([{"text": "Zarqowitz"}], "known_phi[0] has no 'label'"),
        ([{"text": 1234567, "label": "MEDICALRECORD"}], "'text' is int"),
        ([{"text": "Zarqowitz", "label": None}], "'label' is null"),
        ([KNOWN[0], {"text": "Zarqowitz", "label": " "}], "known_phi[1]: 'label'"),
    ],
)
def test_bad_known_phi_rejects_only_that_record(nlp_rules, value, message):
    lines = [
        {"id": "a", "patient": "p", "text": "Seen today."},
        {"id": "b", "patient": "p", "text": f"{FIRST} seen.", "known_phi": value},
        {"id": "c", "patient": "p", "text": "MRN: 7194334."},
    ]
    outs = list(deidentify_items(nlp_rules, items_from(lines)))
    assert [type(o).__name__ for o in outs] == ["Result", "Rejected", "Result"]
    rejected = outs[1]
    assert rejected.id == "b" and rejected.line == 2
    assert rejected.error.startswith("InvalidRecord: ") and message in rejected.error
    assert not leaks(json.dumps(rejected.to_dict()))
    assert "7194334" not in outs[2].text


def test_known_phi_is_inherited_by_later_records_of_the_patient(nlp_rules):
    lines = [
        {"id": "0", "patient": "p1", "text": f"Before: {FIRST} {LAST}."},
        {
            "id": "1",
            "patient": "p1",
            "text": f"{FIRST} {LAST} seen.",
            "known_phi": KNOWN,
        },
        {"id": "2", "patient": "p1", "text": f"Follow-up: {LAST.upper()}, {FIRST[0]}."},
        {"id": "3", "patient": "p2", "text": f"{FIRST} {LAST} is another person."},
        {"id": "4", "patient": "p1", "text": f"Call {FIRST} back."},
        {"id": "5", "text": f"No patient: {LAST}."},
    ]
    outs = list(deidentify_items(nlp_rules, items_from(lines)))
    assert all(isinstance(o, Result) for o in outs)
    texts = [o.text for o in outs]
    # Earlier records and other patients do not get it.
    assert leaks(texts[0]) and leaks(texts[3]) and leaks(texts[5])
    for text in (texts[1], texts[2], texts[4]):
        assert not leaks(text)
    assert {s["label"] for s in outs[2].spans} == {"PATIENT"}


def test_own_list_is_united_with_the_inherited_one(nlp_rules):
    mrn = [{"text": "00-4417-22", "label": "MEDICALRECORD"}]
    lines = [
        {"id": "a", "patient": "p", "text": "x", "known_phi": KNOWN},
        {"id": "b", "patient": "p", "text": f"{LAST} 441722", "known_phi": mrn},
        {"id": "c", "patient": "p", "text": f"{FIRST}: ref 4417 22"},
    ]
    outs = list(deidentify_items(nlp_rules, items_from(lines)))
    for out in outs[1:]:
        assert not leaks(out.text)
    assert "441722" not in outs[1].text and "4417 22" not in outs[2].text


def test_store_presets_and_bounded_cache():
    store = KnownPhiStore(
        by_patient={"p": KNOWN}, by_id={"r9": [{"text": "Boston", "label": "CITY"}]}
    )
    assert store.resolve("r1", "p") == KNOWN
    assert store.resolve("r9", None) == [{"text": "Boston", "label": "CITY"}]
    assert store.resolve("r2", "q") is None
    # Interleaved patients with a cache of 2: the oldest list is evicted.
    store = KnownPhiStore(max_patients=2)
    for n in range(5):
        own = [{"text": f"Name{n} Person", "label": "PATIENT"}]
        store.resolve(f"r{n}", f"p{n}", own)
    assert len(store) == 2 and store.evicted == 3
    assert store.resolve("x", "p0") is None
    assert store.resolve("y", "p4") == [{"text": "Name4 Person", "label": "PATIENT"}]
    # A cache of 1 is enough when records are grouped by patient.
    store = KnownPhiStore(max_patients=1)
    for patient in ("a", "b"):
        own = [{"text": f"{patient}{FIRST}", "label": "PATIENT"}]
        assert store.resolve(f"{patient}0", patient, own) == own
        assert store.resolve(f"{patient}1", patient) == own
    assert store.evicted == 1


def test_store_merges_without_duplicates():
    store = KnownPhiStore()
    store.add(KNOWN, patient="p")
    store.add([{"text": f"{LAST.upper()}, {FIRST}", "label": "PATIENT"}], patient="p")
    own = [{"text": "1950-03-07", "label": "DATE"}]
    assert store.resolve("r", "p", own) == KNOWN + own
    with pytest.raises(ValueError):
        store.add(KNOWN)
    with pytest.raises(ValueError):
        KnownPhiStore(max_patients=0)


def test_runner_uses_the_store_and_restores_the_pipeline(nlp_rules):
    names = list(nlp_rules.pipe_names)
    store = KnownPhiStore(by_patient={"p": KNOWN})
    records = [Record(0, "a", f"{FIRST} {LAST} here", "p")]
    (out,) = deidentify_items(nlp_rules, records, known=store)
    assert not leaks(out.text)
    assert nlp_rules.pipe_names == names  # phi_known was added for the run only
    # A pipeline with its own phi_known keeps it (and its settings).
    nlp_rules.add_pipe("phi_known", name="my_known", before="phi_surrogates")
    try:
        nlp_rules.get_pipe("my_known").cfg["min_part_length"] = 0
        records = [Record(0, "a", f"{FIRST} alone", "p")]
        (out,) = deidentify_items(nlp_rules, records, known=store)
        assert leaks(out.text)  # parts are not searched alone any more
        assert "phi_known" not in nlp_rules.pipe_names
    finally:
        nlp_rules.remove_pipe("my_known")


def test_end_to_end_planted_name_never_in_output(nlp_rules):
    """With en_rules, a rare name given as known PHI is replaced in every
    form it takes; without it, the rules miss it (so the test is not void)."""
    note = (
        f"Patient: {LAST}, {FIRST}\n"
        f"HPI: {FIRST} {LAST} is a 67 yo man. Mr. {LAST} reports pain.\n"
        f"Plan: {FIRST[0]}. {LAST} to return; {LAST.upper()} {FIRST.upper()} "
        f"aware. Discussed with {FIRST.lower()}'s daughter."
    )
    (plain,) = deidentify_texts(nlp_rules, [note])
    assert leaks(plain)
    (out,) = deidentify_texts(nlp_rules, [note], known_phi=KNOWN)
    assert not leaks(out)
    assert "67 yo" in out  # the rest of the note is kept


def test_context_reaches_worker_processes(nlp_rules):
    lines = [
        {"id": str(i), "patient": "p", "text": f"{FIRST} {LAST} visit {i}."}
        for i in range(4)
    ]
    lines[0]["known_phi"] = KNOWN
    outs = list(
        deidentify_items(nlp_rules, items_from(lines), n_process=2, batch_size=2)
    )
    assert [o.id for o in outs] == ["0", "1", "2", "3"]
    assert all(isinstance(o, Result) and not leaks(o.text) for o in outs)


def test_pipeline_error_on_known_phi_fails_closed(nlp_rules):
    """A doc whose known PHI cannot be used is rejected, never emitted."""
    nlp_rules.add_pipe(
        "phi_known", name="strict", before="phi_surrogates", config={"labels": ["DATE"]}
    )
    try:
        records = [
            Record(0, "a", f"{FIRST} seen", "p", known_phi=KNOWN),
            Record(1, "b", "ok", "q"),
        ]
        outs = list(deidentify_items(nlp_rules, records))
        assert isinstance(outs[0], Rejected) and not leaks(outs[0].error)
        assert isinstance(outs[1], Result) and outs[1].text == "ok"
    finally:
        nlp_rules.remove_pipe("strict")


def test_known_spans_get_the_pipeline_labels():
    """With MEDDOCAN labels (es_meddocan's surrogates map them to i2b2), known
    items with i2b2 labels are written with MEDDOCAN labels."""
    nlp = spacy.blank("es")
    config = {"label_map": "meddocan2i2b2", "locale": "es_ES", "mode": "tag"}
    nlp.add_pipe("phi_surrogates", config=config)
    known = [
        {"text": "Lucía Ferrer Soler", "label": "PATIENT"},
        {"text": "44172", "label": "MEDICALRECORD"},
        {"text": "1950-03-07", "label": "DATE"},
        {"text": "Zaragoza", "label": "TERRITORIO"},
    ]
    text = "Paciente Lucía Ferrer, NHC 0044172, de Zaragoza, nacida el 7/3/1950."
    (out,) = deidentify_items(nlp, [Record(0, "a", text, "p", known_phi=known)])
    assert out.text == (
        "Paciente [NOMBRE_SUJETO_ASISTENCIA], NHC [ID_SUJETO_ASISTENCIA], "
        "de [TERRITORIO], nacida el [FECHAS]."
    )


def test_records_built_in_code_are_checked_too(nlp_rules):
    records = [
        Record(0, "a", f"{FIRST} seen", "p", known_phi=[{"text": 7, "label": "X"}]),
        Record(1, "b", f"{FIRST} seen", "p", known_phi=KNOWN),
    ]
    outs = list(deidentify_items(nlp_rules, records))
    assert isinstance(outs[0], Rejected) and "known_phi[0]" in outs[0].error
    assert isinstance(outs[1], Result) and not leaks(outs[1].text)

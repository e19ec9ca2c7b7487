"""Surrogates cannot be mapped back without the key.

No mapping table is kept or serialized, different keys give unrelated
surrogates, date shifts stay in range and are per patient, and surrogates of
names, places and identifiers never equal the original.
"""

import datetime as dt
import hashlib
import re
import types
from random import Random
from typing import Any, List, Set, Tuple

import pytest
import srsly

import spacy_deid
from spacy_deid.synth.values import Values
from spacy_deid.run.runner import deidentify_texts

from .strategies import KEY, OTHER_KEY, configured, synth_items

DATE_RE = re.compile(r"\b(\d{2})/(\d{2})/(\d{4})\b")


@pytest.fixture(scope="module")
def values() -> Values:
    return Values(Random(31))


def new_pipeline(mode: str = "surrogate", key: bytes = KEY, **cfg: Any):
    nlp = configured(spacy_deid.load("en_rules"), mode, key)
    if cfg:
        pipe = nlp.get_pipe("phi_surrogates")
        pipe.from_bytes(srsly.msgpack_dumps({"cfg": {**pipe.cfg, **cfg}}))
    return nlp


def replacements(docs) -> Set[str]:
    """The replacement texts written into the outputs."""
    found = set()
    for doc in docs:
        for _, _, out_s, out_e in doc._.offset_map:
            found.add(doc._.deidentified[out_s:out_e])
    return found


def process(nlp, items: List[Tuple[str, str]]):
    stream = ((text, {"patient": patient}) for text, patient in items)
    return [doc for doc, _ in nlp.pipe(stream, as_tuples=True)]


def reachable_strings(root: Any, limit: int = 200_000) -> Set[str]:
    """Every string reachable from `root` through attributes and containers."""
    seen, found, stack = set(), set(), [root]
    while stack and len(seen) < limit:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        if isinstance(obj, str):
            found.add(obj)
        elif isinstance(obj, bytes):
            found.add(obj.decode("latin-1"))
        elif isinstance(obj, dict):
            stack.extend(obj.keys())
            stack.extend(obj.values())
        elif isinstance(obj, (list, tuple, set, frozenset)):
            stack.extend(obj)
        elif isinstance(obj, (types.ModuleType, type, types.FunctionType)):
            continue
        else:
            stack.extend(getattr(obj, "__dict__", {}).values())
            for slot in getattr(type(obj), "__slots__", ()):
                if hasattr(obj, slot):
                    stack.append(getattr(obj, slot))
    return found


# Random-looking, unlike KEY (bytes 0-31), a run that compiled tables such as
# the rules' prefilter database (phi_rules/prefilter.hs) hold by themselves.
LEAK_TEST_KEY = hashlib.sha256(b"spacy-deid: serialized key leak test").digest()


def test_serialized_pipeline_holds_no_key_or_surrogate(tmp_path):
    nlp = new_pipeline(key=LEAK_TEST_KEY)
    pipe = nlp.get_pipe("phi_surrogates")
    # What the pipeline holds before any note: the rules' prefilter database
    # holds the patterns' words, e.g. "Wednesday".
    nlp.to_disk(tmp_path / "before")
    before = nlp.to_bytes() + _files(tmp_path / "before")
    pipe_before = pipe.to_bytes()
    items = synth_items(80, seed=41)
    docs = process(nlp, items)
    inputs = "\n".join(text for text, _ in items).lower()
    # Surrogates that also occur in the inputs may be in the vocab's strings
    # (spaCy keeps every token it has seen, and its lower-case form), so they
    # say nothing.
    made = {
        s
        for s in replacements(docs)
        if sum(c.isalnum() for c in s) >= 4 and s.lower() not in inputs
    }
    assert len(made) > 150
    nlp.to_disk(tmp_path / "nlp")
    on_disk = _files(tmp_path / "nlp")
    # The component's own state does not change with use.
    assert pipe.to_bytes() == pipe_before
    for blob in (nlp.to_bytes(), on_disk):
        key = LEAK_TEST_KEY
        for key_form in (key, key.hex().encode(), key.hex().upper().encode()):
            assert key_form not in blob
        leaked = [
            s
            for s in made
            if s.encode("utf8") in blob and s.encode("utf8") not in before
        ]
        assert not leaked, f"{len(leaked)} surrogates found in the serialization"


def _files(directory) -> bytes:
    """The contents of every file under a directory, joined."""
    paths = sorted(p for p in directory.rglob("*") if p.is_file())
    return b"".join(path.read_bytes() for path in paths)


def test_component_retains_no_originals_or_surrogates():
    nlp = new_pipeline()
    pipe = nlp.get_pipe("phi_surrogates")
    process(nlp, synth_items(10, seed=42))  # warm up lazy state (Faker etc.)
    baseline = reachable_strings(pipe)
    docs = process(nlp, synth_items(120, seed=43))
    originals = {ent.text for doc in docs for ent in doc.ents}
    made = replacements(docs)
    assert len(originals) > 300
    after = reachable_strings(pipe)
    new = after - baseline
    assert not (new & originals), "the component kept original PHI strings"
    assert not (new & made), "the component kept surrogates"
    assert len(new) == 0, f"{len(new)} new strings held by the component"
    # Nothing in the component names a doc either.
    assert not any(isinstance(v, dict) and len(v) > 1000 for v in vars(pipe).values())


def name_surrogates(pipe, names: List[str], patient: str = "p") -> List[str]:
    return [pipe.surrogate("PATIENT", name, patient) for name in names]


def test_different_keys_give_unrelated_surrogates(values):
    names = sorted({values.name(values.person(), "full") for _ in range(260)})[:200]
    mrns = sorted({values.ident("mrn") for _ in range(260)})[:200]
    first = new_pipeline(key=KEY).get_pipe("phi_surrogates")
    second = new_pipeline(key=OTHER_KEY).get_pipe("phi_surrogates")
    same_names = sum(
        a == b
        for a, b in zip(
            name_surrogates(first, names),
            name_surrogates(second, names),
            strict=True,
        )
    )
    assert same_names / len(names) < 0.03
    # Surname tokens alone: near the chance of drawing the same pool entry.
    lasts = [name.split()[-1] for name in names]
    same_lasts = sum(
        a == b
        for a, b in zip(
            name_surrogates(first, lasts),
            name_surrogates(second, lasts),
            strict=True,
        )
    )
    assert same_lasts / len(lasts) < 0.05
    same_ids = sum(
        first.surrogate("MEDICALRECORD", mrn) == second.surrogate("MEDICALRECORD", mrn)
        for mrn in mrns
    )
    assert same_ids / len(mrns) < 0.02
    patients = [f"p{i}" for i in range(200)]
    same_shifts = sum(first.date_shift(p) == second.date_shift(p) for p in patients)
    assert same_shifts / len(patients) < 0.05
    # The same key is reproducible.
    again = new_pipeline(key=KEY).get_pipe("phi_surrogates")
    assert name_surrogates(again, names) == name_surrogates(first, names)


@pytest.mark.parametrize("low,high", [(1, 365), (10, 20), (30, 30)])
def test_date_shift_within_configured_range(low, high):
    pipe = new_pipeline(date_shift_min=low, date_shift_max=high).get_pipe(
        "phi_surrogates"
    )
    shifts = [pipe.date_shift(f"patient-{i}") for i in range(500)]
    assert all(low <= abs(shift) <= high for shift in shifts)
    assert {shift > 0 for shift in shifts} == {True, False}
    if high - low >= 30:
        # Weekdays and whole years always change when the range allows it.
        assert all(shift % 7 and abs(shift) not in (365, 366) for shift in shifts)
        assert len(set(shifts)) > 200


def dates_of(text: str) -> List[dt.date]:
    return [dt.date(int(y), int(m), int(d)) for m, d, y in DATE_RE.findall(text)]


def test_one_shift_per_patient_across_notes():
    nlp = new_pipeline()
    pipe = nlp.get_pipe("phi_surrogates")
    days = [dt.date(2012, 1, 1) + dt.timedelta(days=97 * i) for i in range(8)]
    lines = [f"Seen on {day:%m/%d/%Y}." for day in days]
    notes = ["\n".join(lines[:4]), "\n".join(lines[4:])]
    shifts = {}
    for i in range(40):
        patient = f"pt-{i}"
        deltas = set()
        for note in notes:
            out = process(nlp, [(note, patient)])[0]._.deidentified
            pairs = list(zip(dates_of(note), dates_of(out), strict=True))
            assert len(pairs) == 4
            deltas.update((new - old).days for old, new in pairs)
        assert deltas == {pipe.date_shift(patient)}
        shifts[patient] = deltas.pop()
    assert len(set(shifts.values())) >= 35


@pytest.fixture(scope="module")
def keyed_pipes():
    """Surrogate components with three different keys."""
    return [
        new_pipeline(key=bytes([seed]) * 32).get_pipe("phi_surrogates")
        for seed in range(1, 4)
    ]


LABELLED_VALUES = (
    ("PATIENT", lambda v: v.name(v.person())),
    ("DOCTOR", lambda v: v.name(v.person(), "full")),
    ("CITY", lambda v: v.address().city),
    ("STREET", lambda v: v.address().street),
    ("STATE", lambda v: v.address().state),
    ("ZIP", lambda v: v.address().zip),
    ("HOSPITAL", lambda v: v.hospital().name),
    ("ORGANIZATION", lambda v: v.organization()),
    ("MEDICALRECORD", lambda v: v.ident("mrn")),
    ("SSN", lambda v: v.ident("ssn")),
    ("ACCOUNT", lambda v: v.ident("account")),
    ("HEALTHPLAN", lambda v: v.ident("healthplan")),
    ("LICENSE", lambda v: v.ident("license")),
    ("DEVICE", lambda v: v.ident("device")),
    ("VEHICLE", lambda v: v.vehicle()),
    ("PHONE", lambda v: v.phone()),
    ("EMAIL", lambda v: v.email(v.person())),
    ("URL", lambda v: v.url()),
    ("IPADDR", lambda v: v.ip()),
    ("USERNAME", lambda v: v.username(v.person())),
    ("ROOM", lambda v: v.room()),
)


@pytest.mark.parametrize(
    "label,make", LABELLED_VALUES, ids=[x[0] for x in LABELLED_VALUES]
)
def test_surrogate_never_equals_original(values, keyed_pipes, label, make):
    pipes = keyed_pipes
    originals = [make(values) for _ in range(60)]
    for pipe in pipes:
        for i, original in enumerate(originals):
            new = pipe.surrogate(label, original, f"p{i % 7}")
            assert new.casefold() != original.casefold(), f"{label} value {i}"
            assert new.strip(), f"{label} value {i} became empty"


def test_generated_notes_replace_every_name_token():
    """Over generated notes, no name token (3+ letters) of a detected name is
    left in its own surrogate."""
    nlp = new_pipeline()
    docs = process(nlp, synth_items(60, seed=44))
    checked = 0
    for doc in docs:
        for ent in doc.ents:
            if ent.label_ not in ("PATIENT", "DOCTOR"):
                continue
            new = ent._.surrogate
            assert new is not None
            tokens = {t.casefold() for t in re.findall(r"[^\W\d_]{3,}", ent.text)}
            kept = tokens & {t.casefold() for t in re.findall(r"[^\W\d_]{3,}", new)}
            assert not kept - {"dr", "mr", "mrs", "ms", "miss", "prof"}
            checked += 1
    assert checked > 50


def test_runner_leaves_no_phi_in_vocab():
    """The runner processes in `nlp.memory_zone()`: no note's PHI stays in the
    vocab or goes into a later to_bytes/to_disk of the pipeline."""
    nlp = new_pipeline()
    before = nlp.to_bytes()
    items = synth_items(20, seed=45)
    records = [text for text, _ in items]
    outputs = deidentify_texts(nlp, records)
    if len(outputs) != len(records):
        raise RuntimeError("the runner lost records")
    docs = process(new_pipeline(), items)
    originals = {
        ent.text
        for doc in docs
        for ent in doc.ents
        if ent.label_ not in ("AGE",) and sum(c.isalnum() for c in ent.text) >= 4
    }
    blob = nlp.to_bytes()
    leaked = [
        phi
        for phi in originals
        if phi.encode("utf8") in blob and phi.encode("utf8") not in before
    ]
    assert not leaked, f"{len(leaked)} PHI strings in the serialized pipeline"


def test_name_surrogate_is_not_another_detected_name(values):
    """A surname whose surrogate (out of context) is another surname of the
    same note gets a different one in that note: no detected real name comes
    out as a surrogate."""
    nlp = new_pipeline()
    pipe = nlp.get_pipe("phi_surrogates")
    faker = values.fakers["en_US"]
    surnames = sorted({faker.last_name() for _ in range(400)})
    made = {name: pipe.surrogate("DOCTOR", name, "p") for name in surnames}
    pairs = [(a, b) for a, b in made.items() if b in made and b != a]
    if not pairs:
        raise LookupError("no surname maps onto another one in this sample")
    first, second = pairs[0]
    text = f"Seen by Dr. {first} today.\nCc: Dr. {second}, cardiology."
    doc = process(nlp, [(text, "p")])[0]
    if [ent.label_ for ent in doc.ents] != ["DOCTOR", "DOCTOR"]:
        raise LookupError("the rules did not find both doctors")
    # Both doctors' real surnames were detected; neither may be in the output.
    assert first not in doc._.deidentified
    assert second not in doc._.deidentified

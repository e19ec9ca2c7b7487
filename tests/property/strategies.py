"""Hypothesis strategies and checks shared by the property tests.

Texts are built from pieces of synthetic notes (`spacy_deid.synth`),
PHI values from the generator's value factories (planted after a cue such as
"MRN:" so that the rules can find them) and unicode / whitespace / CRLF noise.
All data is synthetic.
"""

import datetime as dt
import re
from functools import lru_cache
from random import Random
from typing import Dict, List, Tuple

import srsly
from hypothesis import strategies as st
from spacy.language import Language
from spacy.tokens import Doc

import spacy_deid
from spacy_deid.synth import generate
from spacy_deid.synth.values import Values
from spacy_deid.labels import normalize_label
from spacy_deid.run.runner import check_deidentified

KEY = bytes(range(32))
OTHER_KEY = bytes(range(100, 132))
# Labels whose surrogate may equal the original (ages <= 89 are kept).
MAY_BE_KEPT = frozenset({"AGE"})
NAME_LABELS = frozenset({"PATIENT", "DOCTOR"})
NOISE = (
    " ",
    "  ",
    "\t",
    "\n",
    "\r\n",
    "\r",
    "\n\n",
    "\r\n\r\n",
    "\u00a0",
    "\u2028",
    "\u2029",
    "\u200b",
    "\ufeff",
    "\x0b",
    "\x0c",
    "\x00",
    "\u3000",
    "e\u0301",
    "\U0001f469\u200d\u2695\ufe0f",
    "\u0645\u0631\u062d\u0628\u0627",
    "\u6f22\u5b57",
    "-",
    ":",
    ", ",
    ". ",
    "/",
    "(",
    ")",
    "#",
)


@lru_cache(maxsize=None)
def note_fragments() -> Tuple[str, ...]:
    """Lines (with their line ends) and whole short notes from the generator."""
    pieces: List[str] = []
    for note in generate(60, seed=7, split="all"):
        pieces.extend(line for line in note.text.splitlines(True) if line.strip())
        if len(note.text) < 400:
            pieces.append(note.text)
    return tuple(pieces)


@lru_cache(maxsize=None)
def gold_values() -> Tuple[Tuple[str, str], ...]:
    """(label, text) of the generator's gold PHI spans."""
    found = set()
    for note in generate(60, seed=8, split="all"):
        for span in note.spans:
            found.add((span.label, note.text[span.start : span.end]))
    return tuple(sorted(found))


@lru_cache(maxsize=None)
def planted_values() -> Tuple[str, ...]:
    """PHI values from the generator's value functions, each after a cue."""
    values = Values(Random(11))
    rng = Random(12)
    out: List[str] = []
    for _ in range(60):
        person = values.person()
        day = dt.date(1930, 1, 1) + dt.timedelta(days=rng.randrange(35000))
        address = values.address()
        out.extend(
            [
                "Patient: " + values.name(person),
                "Dr. " + values.name(values.person()),
                "seen by Dr. " + values.person().last,
                "DOB: " + values.date(day),
                "on " + values.date(day),
                "since " + values.partial_date(day),
                "Phone: " + values.phone(),
                "Pager " + values.pager(),
                "Email: " + values.email(person),
                "URL: " + values.url(),
                "IP " + values.ip(),
                f"{address.street}, {address.city}, {address.state} {address.zip}",
                "employed at " + values.organization(),
                "admitted to " + values.hospital().name,
                "Room " + values.room(),
                "MRN: " + values.ident("mrn"),
                "SSN " + values.ident("ssn"),
                "Acct # " + values.ident("account"),
                "Health plan ID " + values.ident("healthplan"),
                "License " + values.ident("license"),
                "Device serial " + values.ident("device"),
                "Plate " + values.vehicle(),
                "user " + values.username(person),
                f"{rng.randint(18, 104)} year old",
            ]
        )
    return tuple(out)


def pieces() -> st.SearchStrategy[str]:
    """One piece of a note: a note fragment, a planted or gold PHI value, or
    noise."""
    return st.one_of(
        st.sampled_from(note_fragments()),
        st.sampled_from(planted_values()),
        st.sampled_from(gold_values()).map(lambda item: item[1]),
        st.sampled_from(NOISE),
        st.text(max_size=4),
    )


def texts(max_pieces: int = 8) -> st.SearchStrategy[str]:
    """Texts made of `pieces()`, sometimes glued, sometimes spaced."""
    return st.lists(
        st.tuples(pieces(), st.sampled_from(("", " ", "\n", "\r\n", "\t"))),
        max_size=max_pieces,
    ).map(lambda items: "".join(piece + sep for piece, sep in items))


@lru_cache(maxsize=None)
def whole_notes() -> Tuple[str, ...]:
    """Whole generated notes (all kinds, some with CRLF line ends)."""
    return tuple(note.text for note in generate(40, seed=9, split="all"))


def _insert(text: str, insertions: List[Tuple[float, str]]) -> str:
    for where, noise in sorted(insertions, reverse=True):
        at = int(where * len(text))
        text = text[:at] + noise + text[at:]
    return text


def noisy_notes() -> st.SearchStrategy[str]:
    """A whole generated note with noise or PHI values inserted at random
    places (possibly inside words or PHI)."""
    insertion = st.tuples(st.floats(0, 1), st.one_of(st.sampled_from(NOISE), pieces()))
    return st.builds(
        _insert, st.sampled_from(whole_notes()), st.lists(insertion, max_size=6)
    )


def any_text() -> st.SearchStrategy[str]:
    """Short mixed texts or noisy whole notes."""
    return st.one_of(texts(), noisy_notes())


patients = st.sampled_from(("", "p1", "p2", "patient-\u00df-3"))


@lru_cache(maxsize=None)
def rules_pipeline(mode: str = "surrogate", instance: int = 0) -> Language:
    """A private `en_rules` pipeline (never the shared session fixture) with
    `mode` and the test key; `instance` gives independent copies."""
    return configured(spacy_deid.load("en_rules"), mode)


def configured(nlp: Language, mode: str, key: bytes = KEY) -> Language:
    """Set the surrogate component's mode (through its serialized settings)
    and key."""
    pipe = nlp.get_pipe("phi_surrogates")
    pipe.from_bytes(srsly.msgpack_dumps({"cfg": {**pipe.cfg, "mode": mode}}))
    pipe.set_key(key)
    return nlp


def run(nlp: Language, text: str, patient: str) -> Doc:
    """Process `text` for `patient`."""
    doc = nlp.make_doc(text)
    doc._.patient = patient or None
    return nlp(doc)


def regions(doc: Doc) -> List[List[int]]:
    """The offset map, checked to be sorted, non-overlapping and in bounds."""
    offset_map = [list(entry) for entry in doc._.offset_map]
    out = doc._.deidentified
    prev_in = prev_out = 0
    for in_s, in_e, out_s, out_e in offset_map:
        assert prev_in <= in_s <= in_e <= len(doc.text)
        assert prev_out <= out_s <= out_e <= len(out)
        # Text between regions is copied, so it has the same length.
        assert in_s - prev_in == out_s - prev_out
        prev_in, prev_out = in_e, out_e
    assert len(doc.text) - prev_in == len(out) - prev_out
    return offset_map


def check_offsets(text: str, doc: Doc) -> List[List[int]]:
    """Properties (a) and (b): the doc keeps the input, entities point at the
    input, and the offset map rebuilds the output from the input."""
    assert doc.text == text
    out = doc._.deidentified
    assert isinstance(out, str)
    offset_map = regions(doc)
    for ent in doc.ents:
        assert text[ent.start_char : ent.end_char] == ent.text
    rebuilt = []
    prev = 0
    for in_s, in_e, out_s, out_e in offset_map:
        rebuilt.append(text[prev:in_s])
        rebuilt.append(out[out_s:out_e])
        prev = in_e
    rebuilt.append(text[prev:])
    assert "".join(rebuilt) == out
    # Every entity lies inside one replaced region.
    for ent in doc.ents:
        if not ent.text.strip():
            continue
        assert any(
            in_s <= ent.start_char and ent.end_char <= in_e
            for in_s, in_e, _, _ in offset_map
        ), f"{ent.label_} entity at {ent.start_char} not replaced"
    # The runner's fail-closed check agrees.
    assert check_deidentified(doc, doc.ents) == out
    return offset_map


def is_checked_phi(label: str, phi: str) -> bool:
    """Entities whose text must not survive: 3+ alphanumerics, and a label
    whose surrogate never equals the original."""
    return (
        normalize_label(label) not in MAY_BE_KEPT
        and sum(char.isalnum() for char in phi) >= 3
    )


def word_pattern(phi: str) -> "re.Pattern[str]":
    """The PHI string as a whole word, ignoring case."""
    return re.compile(r"(?<!\w)" + re.escape(phi) + r"(?!\w)", re.IGNORECASE)


def check_no_phi(text: str, doc: Doc) -> None:
    """Property (c): no detected PHI string is left in its own place and no
    detected name appears anywhere it did not already appear undetected."""
    out = doc._.deidentified
    offset_map = regions(doc)
    copied: List[Tuple[int, int]] = []
    prev = 0
    for in_s, in_e, _, _ in offset_map:
        copied.append((prev, in_s))
        prev = in_e
    copied.append((prev, len(text)))
    for ent in doc.ents:
        if not is_checked_phi(ent.label_, ent.text):
            continue
        pattern = word_pattern(ent.text)
        for in_s, in_e, out_s, out_e in offset_map:
            if in_s <= ent.start_char and ent.end_char <= in_e:
                assert not pattern.search(out[out_s:out_e]), (
                    f"{ent.label_} entity at {ent.start_char} kept in place"
                )
        if normalize_label(ent.label_) in NAME_LABELS:
            # Names copied from undetected mentions are a detection miss, not
            # a surrogate leak; the surrogates must never add one.
            undetected = sum(
                len(pattern.findall(text[start:end])) for start, end in copied
            )
            assert len(pattern.findall(out)) <= undetected, (
                f"{ent.label_} entity at {ent.start_char} appears in the output"
            )


def deidentified(nlp: Language, items: List[Tuple[str, str]], n_process: int):
    """De-identified texts of (text, patient) items via `nlp.pipe`."""
    stream = ((text, {"patient": patient}) for text, patient in items)
    docs = nlp.pipe(stream, as_tuples=True, n_process=n_process, batch_size=4)
    return [doc._.deidentified for doc, _ in docs]


def synth_items(n: int, seed: int) -> List[Tuple[str, str]]:
    """(text, patient) of `n` generated notes."""
    return [(note.text, note.patient or "") for note in generate(n, seed=seed)]


def label_counts(docs: List[Doc]) -> Dict[str, int]:
    """Entities per label (for a sanity check that PHI was found)."""
    counts: Dict[str, int] = {}
    for doc in docs:
        for ent in doc.ents:
            counts[ent.label_] = counts.get(ent.label_, 0) + 1
    return counts

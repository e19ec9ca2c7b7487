from random import Random

import pytest

from spacy_deid.synth import generate
from spacy_deid.synth.builder import NoteBuilder
from spacy_deid.synth.families import REGISTRY
from spacy_deid.synth.grammar import TemplateError, count_phrasings, parse
from spacy_deid.synth.noise import NoiseProfile, apply_noise


def test_grammar_syntax():
    assert parse(r"a \<b\> \[c\]") == [("t", "a <b> [c]")]
    assert count_phrasings("<x|y[ z]> {slot:arg}") == 3
    for bad in ("<a|b", "[a", "a>"):
        with pytest.raises((TemplateError, ValueError)):
            parse(bad)


def test_noise_keeps_phi_surface():
    b = NoteBuilder()
    for i in range(200):
        b.add(f"Patient seen today number {i} with breathing problems ")
        b.phi(f"John Smith{i}", "PATIENT")
        b.add(" Chief complaint follows. ")
    profile = NoiseProfile(0.2, 0.5, 60, False, False, 0.3, 0.5, 0.5)
    b.segments = apply_noise(b.segments, profile, Random(1))
    text, spans = b.build()
    assert [text[s.start : s.end] for s in spans] == [
        f"John Smith{i}" for i in range(200)
    ]
    assert max(len(line) for line in text.split("\n")) < 120


def test_meta_families_registered():
    for note in generate(200, seed=12):
        assert note.meta["kind"]
        for fid in note.meta["family"]:
            assert fid in REGISTRY


def test_bad_arguments():
    with pytest.raises(ValueError):
        list(generate(1, split="holdout"))
    with pytest.raises(ValueError):
        list(generate(1, kinds=["nope"]))
    notes = list(generate(30, seed=1, kinds=["radiology"]))
    assert {n.meta["kind"] for n in notes} == {"radiology"}

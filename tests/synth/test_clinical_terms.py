"""Non-PHI clinical vocabulary from the knowledge tables, and its use in notes."""

import re
from random import Random

from spacy_deid.knowledge.tables import load
from spacy_deid.synth import clinical_terms


def test_diagnoses_come_from_icd10cm():
    rng = Random(4)
    draws = [clinical_terms.diagnosis(rng) for _ in range(300)]
    assert len(set(draws)) > 250
    conditions = load("conditions")
    for code, description in draws:
        assert conditions[code] == description
        assert re.fullmatch(r"[A-R]\d[0-9A-Z](\.[0-9A-Z]{1,4})?", code)
        assert "unspecified" not in description.lower()


def test_drug_names_are_no_names_places_or_common_words():
    rng = Random(2)
    names = {clinical_terms.drug_name(rng) for _ in range(500)}
    assert len(names) > 450
    words, drugs = load("words"), load("drugs")
    for name in names:
        assert name in drugs and name.isalpha() and name.islower()
        assert name not in load("surnames") and name not in load("given")
        assert name not in load("places") and words.get(name, 0) < 300


def test_written_varies_casing_only():
    rng = Random(0)
    forms = {clinical_terms.written(rng, "Aqueous misdirection") for _ in range(200)}
    assert forms == {
        "Aqueous misdirection",
        "aqueous misdirection",
        "Aqueous Misdirection",
        "AQUEOUS MISDIRECTION",
    }


def test_notes_carry_unannotated_diagnoses(notes_train):
    descriptions = {d.lower() for d in load("conditions").values() if len(d) > 15}
    found = 0
    for note in notes_train:
        lowered = note.text.lower()
        for span in note.spans:
            # No diagnosis is ever inside a gold span.
            assert lowered[span.start : span.end] not in descriptions
        found += sum(1 for d in descriptions if d in lowered)
    assert found > len(notes_train)


def test_diagnoses_fit_the_patient():
    rng = Random(9)
    men = [clinical_terms.diagnosis(rng, "M", 40) for _ in range(2000)]
    assert not any(code.startswith(("O", "N8", "C56", "P")) for code, _ in men)
    assert not any("pregnan" in d.lower() or "ovar" in d.lower() for _, d in men)
    children = [clinical_terms.diagnosis(rng, "F", 6) for _ in range(2000)]
    assert not any(code.startswith(("G30", "C61")) for code, _ in children)
    assert not any("senile" in d.lower() or "prostat" in d.lower() for _, d in children)
    # an unknown sex gets neither sex's own diagnoses
    anyone = [clinical_terms.diagnosis(rng, "", 50) for _ in range(2000)]
    assert not any(code.startswith(("N40", "O")) for code, _ in anyone)

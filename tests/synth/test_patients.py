from collections import defaultdict

ID_LABELS = ("PATIENT", "MEDICALRECORD", "PHONE", "STREET", "HEALTHPLAN", "SSN")


def _tokens(note):
    out = set()
    for s in note.spans:
        if s.label in ID_LABELS:
            text = note.text[s.start : s.end].lower().replace(",", " ")
            out.update((s.label, tok) for tok in text.split() if len(tok) > 2)
    return out


def _phi(note, labels=ID_LABELS):
    return {
        (s.label, note.text[s.start : s.end].lower())
        for s in note.spans
        if s.label in labels
    }


def test_patient_sets_share_phi(notes_all):
    by_patient = defaultdict(list)
    for note in notes_all:
        by_patient[note.patient].append(note)
    multi = [notes for notes in by_patient.values() if len(notes) >= 3]
    assert len(multi) > 30
    shared = 0
    for notes in multi:
        dates = [n.meta["date"] for n in notes]
        assert dates == sorted(dates)
        phis = [_tokens(n) for n in notes]
        if any(
            phis[i] & phis[j] for i in range(len(phis)) for j in range(i + 1, len(phis))
        ):
            shared += 1
    assert shared / len(multi) > 0.8


def test_patients_do_not_share_mrn(notes_all):
    owner = {}
    for note in notes_all:
        for _label, text in _phi(note, ("MEDICALRECORD",)):
            assert owner.setdefault(text, note.patient) == note.patient

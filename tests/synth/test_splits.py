from collections import Counter

from spacy_deid.synth import families
from spacy_deid.synth.families import REGISTRY, withheld_ids
from spacy_deid.synth.kinds import DEV_KINDS, KINDS, TRAIN_KINDS


def test_withheld_definitions():
    assert 2 <= len(DEV_KINDS) <= 3
    assert set(DEV_KINDS) | set(TRAIN_KINDS) == set(KINDS)
    withheld, held_out = set(withheld_ids()), set(families.test_ids())
    assert not withheld & held_out
    for kind in TRAIN_KINDS:
        fams = [f for f in REGISTRY if f.startswith(kind + ".")]
        dev = [f for f in fams if f in withheld]
        test = [f for f in fams if f in held_out]
        assert dev and test, kind
        assert 0.1 <= len(dev) / len(fams) <= 0.4, (kind, len(dev), len(fams))
        assert len(test) / len(fams) <= 0.4, (kind, len(test), len(fams))
    # The withheld kinds are dev's: their families are not test's.
    for kind in DEV_KINDS:
        assert not [f for f in held_out if f.startswith(kind + ".")], kind
    for prefix in ("prose.", "common."):
        assert [f for f in held_out if f.startswith(prefix)], prefix


def test_train_never_uses_withheld(notes_train):
    withheld = set(withheld_ids()) | set(families.test_ids())
    for note in notes_train:
        assert note.meta["kind"] not in DEV_KINDS
        assert not withheld & set(note.meta["family"]), note.meta
    assert {n.meta["kind"] for n in notes_train} == set(TRAIN_KINDS)


def test_test_families_used_by_neither_train_nor_dev(
    notes_train, notes_dev, notes_test
):
    held_out = set(families.test_ids())
    for note in notes_train + notes_dev:
        assert not held_out & set(note.meta["family"]), note.meta
    withheld = set(withheld_ids())
    for note in notes_test:
        assert note.meta["kind"] in TRAIN_KINDS, note.meta
        fams = set(note.meta["family"])
        # Every test note holds a structure never seen in train or dev, and
        # none of dev's.
        assert held_out & fams, note.meta
        assert not withheld & fams, note.meta
    used = {f for n in notes_test for f in n.meta["family"]}
    assert held_out <= used, held_out - used


def test_dev_uses_only_withheld_structures(notes_dev):
    withheld = set(withheld_ids())
    kinds = Counter(n.meta["kind"] for n in notes_dev)
    for kind in DEV_KINDS:
        assert kinds[kind] > 20
    for note in notes_dev:
        if note.meta["kind"] in DEV_KINDS:
            continue
        assert withheld & set(note.meta["family"]), note.meta


def test_splits_differ_in_surface(notes_train, notes_dev):
    train_first = Counter(n.text.split("\n", 1)[0][:12] for n in notes_train)
    dev_first = Counter(n.text.split("\n", 1)[0][:12] for n in notes_dev)
    assert set(train_first) != set(dev_first)


def test_both_splits_cover_every_label():
    from spacy_deid.synth import generate
    from spacy_deid.labels import LABEL_NAMES

    for split in ("train", "dev", "test"):
        labels = {s.label for n in generate(800, seed=5, split=split) for s in n.spans}
        assert labels == set(LABEL_NAMES), (split, set(LABEL_NAMES) - labels)


def test_rule_cues_come_from_train_templates():
    # `name.action`, `name.patient_line` and `name.regarding` in
    # rules/patterns/names.py are written from train templates only.
    train = "\n".join(frame for f in REGISTRY.values() if f.train for frame in f.frames)
    for cue in (
        "taken by {staff}",
        "<route|forward> to {drname",
        "I saw and examined the patient with {drname",
        "Records from {drname",
        "f/u {drname",
        "<faxed|fax> to {drname",
        "<Discussed with|Seen with> {drname",
        "<Re|RE>: {pt}[ ({age_sex})]",
        "{pt} / {age_sex} / DOB",
        "{pt_hdr}  MRN {mrn}",
        "{pt_hdr} ({mrn})",
    ):
        assert cue in train, cue

from collections import Counter

from spacy_deid.synth.families import REGISTRY, withheld_ids
from spacy_deid.synth.kinds import DEV_KINDS, KINDS, TRAIN_KINDS


def test_withheld_definitions():
    assert 2 <= len(DEV_KINDS) <= 3
    assert set(DEV_KINDS) | set(TRAIN_KINDS) == set(KINDS)
    withheld = set(withheld_ids())
    for kind in TRAIN_KINDS:
        fams = [f for f in REGISTRY if f.startswith(kind + ".")]
        dev = [f for f in fams if f in withheld]
        assert dev, kind
        assert 0.1 <= len(dev) / len(fams) <= 0.4, (kind, len(dev), len(fams))


def test_train_never_uses_withheld(notes_train):
    withheld = set(withheld_ids())
    for note in notes_train:
        assert note.meta["kind"] not in DEV_KINDS
        assert not withheld & set(note.meta["family"]), note.meta
    assert {n.meta["kind"] for n in notes_train} == set(TRAIN_KINDS)


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

    for split in ("train", "dev"):
        labels = {s.label for n in generate(800, seed=5, split=split) for s in n.spans}
        assert labels == set(LABEL_NAMES), (split, set(LABEL_NAMES) - labels)

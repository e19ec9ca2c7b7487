from spacy_deid.synth import generate, template_stats
from spacy_deid.synth.context import SLOTS
from spacy_deid.synth.families import REGISTRY
from spacy_deid.synth.grammar import count_phrasings, parse
from spacy_deid.synth.kinds import KINDS
from spacy_deid.core.types import Note
from spacy_deid.labels import LABEL_NAMES


def _slots(seq):
    for kind, val in seq:
        if kind == "s":
            yield val
        elif kind == "a":
            for sub in val:
                yield from _slots(sub)
        elif kind == "o":
            yield from _slots(val)


def check_note(note: Note) -> None:
    spans = sorted(note.spans)
    prev_end = -1
    for span in spans:
        assert span.label in LABEL_NAMES
        assert 0 <= span.start < span.end <= len(note.text)
        surface = note.text[span.start : span.end]
        assert surface == surface.strip(), (note.id, surface)
        assert "\n" not in surface, (note.id, surface)
        assert span.start >= prev_end, (note.id, span)
        prev_end = span.end


def test_spans_exact_and_disjoint(notes_all):
    for note in notes_all:
        check_note(note)


def test_spans_exact_without_noise():
    for note in generate(150, seed=5, noise=False):
        check_note(note)


def test_all_kinds_and_roundtrip(notes_all):
    kinds = {n.meta["kind"] for n in notes_all}
    assert kinds == set(KINDS)
    for note in notes_all[:50]:
        again = Note.from_dict(note.to_dict())
        assert again.text == note.text and sorted(again.spans) == sorted(note.spans)
        assert note.meta["family"] and isinstance(note.meta["family"], list)


def test_every_label_in_300_notes():
    for seed in (0, 1):
        labels = {s.label for n in generate(300, seed=seed) for s in n.spans}
        assert labels == set(LABEL_NAMES), set(LABEL_NAMES) - labels


def test_unique_ids(notes_all):
    ids = [n.id for n in notes_all]
    assert len(ids) == len(set(ids))


def test_templates_parse_and_slots_exist():
    for fam in REGISTRY.values():
        assert fam.frames
        for frame in fam.frames:
            parse(frame)
            for name in _slots(parse(frame)):
                assert name.split(":")[0] in SLOTS, (fam.id, name)
    assert count_phrasings("<a|b|c> [x ]<y|z>") == 12
    stats = template_stats()
    for kind in KINDS:
        assert stats[kind]["families"] >= 3
        assert stats[kind]["phrasings"] >= 40

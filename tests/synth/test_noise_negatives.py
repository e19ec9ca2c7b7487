import re

from spacy_deid.synth import generate

EPONYMS = (
    "Parkinson's",
    "Foley catheter",
    "Babinski",
    "Crohn's",
    "Hodgkin lymphoma",
    "Glasgow Coma Scale",
    "Swan-Ganz",
    "Trendelenburg",
    "Murphy's sign",
)
AMBIGUOUS = (
    "May",
    "Will",
    "Bill",
    "Reading",
    "Nitro",
    "Mark",
    "Grace",
    "Hope",
    "Jordan",
    "Chase",
    "Florence",
    "Lincoln",
    "Warren",
    "Bath",
)


def _covered(note):
    covered = [False] * len(note.text)
    for s in note.spans:
        for i in range(s.start, s.end):
            covered[i] = True
    return covered


def test_noise_features(notes_all):
    feats = {f for n in notes_all for f in n.meta["noise"]}
    assert {"typo", "glue", "wrap", "caps", "double", "tabs"} <= feats
    texts = [n.text for n in notes_all]
    assert any(re.search(r"\bDR?\.?\n", t, re.I) for t in texts)
    assert any("***" in t for t in texts)
    assert any("\t" in t for t in texts)
    glued = 0
    for note in notes_all:
        for s in note.spans:
            after = note.text[s.end : s.end + 1]
            before = note.text[s.start - 1 : s.start] if s.start else ""
            if (after.isalnum() and note.text[s.end - 1].isalnum()) or (
                before.isalpha() and note.text[s.start].isalnum()
            ):
                glued += 1
    assert glued > 20
    caps = [n for n in notes_all if "caps" in n.meta["noise"]]
    assert all(n.text == n.text.upper() for n in caps)


def test_eponyms_unannotated(notes_all):
    found = set()
    for note in notes_all:
        covered = _covered(note)
        for word in EPONYMS:
            for m in re.finditer(re.escape(word), note.text):
                # a clinician surnamed Parkinson ("Scott Parkinson's note")
                if any(s.start < m.start() < s.end for s in note.spans):
                    continue
                assert not any(covered[m.start() : m.end()]), (note.id, word)
                found.add(word)
    assert len(found) >= 6


def test_ambiguous_words_both_ways():
    both = set()
    plain, phi = set(), set()
    for note in generate(1500, seed=21, noise=False):
        covered = _covered(note)
        for word in AMBIGUOUS:
            for m in re.finditer(rf"\b{word}\b", note.text):
                (phi if covered[m.start()] else plain).add(word)
    both = plain & phi
    assert len(plain) >= 12, plain
    assert len(both) >= 8, both

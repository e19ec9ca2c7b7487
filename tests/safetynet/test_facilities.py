"""`phi_safety_net`'s facility class: a hospital's initials after "to",
"from", "at" or "@", a facility field's colon, or a person's "of"."""

import pytest
from spacy.tokens import Span

from spacy_deid.safetynet.facilities import is_initials

from .test_component import make_nlp
from .test_places import NAMES_OFF, ents

FACILITIES = {**NAMES_OFF, "facility": "HOSPITAL"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=FACILITIES)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Transferred from QVH for workup.", ["QVH"]),
        ("Radio report given to TVMC ED.", ["TVMC"]),
        ("prior adm @ HVHC; rehab after", ["HVHC"]),
        ("D/C'D TO QVH. STABLE.", ["QVH"]),
        # A facility field's colon, and "of" after a credential or a name.
        ("Bed search: QVH, then home.", ["QVH"]),
        ("Destination: TVMC", ["TVMC"]),
        ("Dispo: rehab - QVH", ["QVH"]),
        ("Referred by Ana Ruiz, PA-C of QVH.", ["QVH"]),
        ("Seen by Dr. Miller of TVMC today.", ["TVMC"]),
    ],
)
def test_finds_initials_after_a_preposition(nlp, text, expected):
    assert ents(nlp(text)) == [(w, "HOSPITAL", "safety_net:facility") for w in expected]


@pytest.mark.parametrize(
    "text",
    [
        # Clinical shorthand, words, places, states and names.
        "Hematuria due to BPH.",
        "Transferred from OSH for workup.",
        "Seen at ICU rounds.",
        "SENT TO BATH. WALKED TO SOUTH.",
        "MOVED TO UTAH.",
        "Flew to PERTH.",
        # "to" after a word of cause.
        "Bleed secondary to QVH.",
        # No preposition, another line, glued, or another shape.
        "QVH records reviewed.",
        "Transferred to\\nQVH",
        "sent toQVH today",
        "Transferred to QVX, then to QH.",
        # "of" after an ordinary word, another field's colon.
        "History of QVH in infancy.",
        "Procedure: QVH repair.",
        "Grade - QVH noted.",
    ],
)
def test_leaves_shorthand_words_and_other_positions(nlp, text):
    assert ents(nlp(text)) == []


def test_initials_shape():
    assert is_initials("QVH") and is_initials("TVMC") and is_initials("HVHC")
    assert not is_initials("QH") and not is_initials("QVXYZH")
    assert not is_initials("Qvh") and not is_initials("TSH")


def test_facilities_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("Transferred from QVH.").ents == ()
    nlp = make_nlp(labels=FACILITIES)
    doc = nlp.make_doc("Moved from QVH to TVMC.")
    doc.ents = [Span(doc, 2, 3, label="ORGANIZATION")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("QVH", "ORGANIZATION"),
        ("TVMC", "HOSPITAL"),
    ]

"""`phi_safety_net`'s place classes: a US state's full name standing alone,
a large city after a preposition of place."""

import pytest
from spacy.tokens import Span

from .test_component import make_nlp, net_with_ents

NAMES_OFF = {"clinician": None, "patient": None, "relative": None}
NAMES_OFF.update({"sign_off": None, "arrow": None})
PLACES = {**NAMES_OFF, "state": "STATE", "city": "CITY"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=PLACES)


def ents(doc):
    return [(e.text, e.label_, e._.phi_source) for e in doc.ents]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Commercial license: Ohio, class B.", [("Ohio", "STATE", "safety_net:state")]),
        ("Grew up near Omaha, then moved to New Mexico.",
         [("New Mexico", "STATE", "safety_net:state")]),
        ("Texas\nwas hot.", [("Texas", "STATE", "safety_net:state")]),
        ("Flew back from Lagos last week.", [("Lagos", "CITY", "safety_net:city")]),
        ("Family lives in Karachi, Pakistan.", [("Karachi", "CITY", "safety_net:city")]),
    ],
)
def test_finds_states_and_large_cities(nlp, text, expected):
    assert ents(nlp(text)) == expected


@pytest.mark.parametrize(
    "text",
    [
        # Part of a longer name, or a name many people bear.
        "Attends Kansas State University now.",
        "Graduate of University of Iowa.",
        "Seen with Georgia and Virginia today.",
        # No preposition of place, a capital "In", or an ordinary word.
        "Karachi trip planned.",
        "Calcium Deposit In Lagos",
        "Sent in Mobile unit.",
        # A city name many people bear, a small place, or lower case.
        "Moved to Houston in May.",
        "Moved to Smallville in May.",
        "moved to lagos in may.",
        # A state code is the rules' business.
        "Lives in OH now.",
    ],
)
def test_leaves_ambiguous_or_joined_names(nlp, text):
    assert ents(nlp(text)) == []


def test_places_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("Lives in Lagos, Texas.").ents == ()
    nlp = make_nlp(labels=PLACES)
    doc = nlp.make_doc("Lives in Lagos, Texas.")
    doc.ents = [Span(doc, 2, 3, label="HOSPITAL")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("Lagos", "HOSPITAL"),
        ("Texas", "STATE"),
    ]


def test_thresholds_are_config_driven():
    text = "Flew back from Lagos last week; license: Florida."
    assert ents(make_nlp(labels=PLACES)(text)) == [
        ("Lagos", "CITY", "safety_net:city"),
        ("Florida", "STATE", "safety_net:state"),
    ]
    big = make_nlp(labels=PLACES, min_city_population=100_000_000, max_place_bearers=10)
    assert ents(big(text)) == []
    with pytest.raises(ValueError):
        make_nlp(labels=PLACES, max_place_bearers=-1)


@pytest.mark.parametrize(
    "text,city,expected",
    [
        ("fire at home, Quillonville MI. No burns", "Quillonville", ["MI"]),
        ("2200 W 41st St, Quillonville, SD 57105", "Quillonville", ["SD"]),
        ("lives in Quillonville, OR with wife", "Quillonville", ["OR"]),
        # A code that is a word needs a comma; a code on the next line or
        # after no city is none.
        ("RETURNED FROM QUILLONVILLE IN APRIL", "QUILLONVILLE", []),
        ("Quillonville\nMI", "Quillonville", []),
        ("Seen in MI clinic", None, []),
    ],
)
def test_a_state_code_after_a_city_is_its_state(nlp, text, city, expected):
    doc = net_with_ents(nlp, text, [(city, "CITY")] if city else [])
    assert [e.text for e in doc.ents if e.label_ == "STATE"] == expected


@pytest.mark.parametrize(
    "text,expected",
    [
        ("micro lab        Corpus Christi, TX", [("Corpus Christi", "CITY"), ("TX", "STATE")]),
        ("sector geo: near Ely, NV", [("Ely", "CITY"), ("NV", "STATE")]),
        ("Lab at Boston, MA 02114 today", [("Boston", "CITY"), ("MA", "STATE")]),
        # A credential or a field's name after a name; no US place.
        ("Read by: Laura Davis, MD", []),
        ("Agency ID: K44", []),
        ("Seen in Quillonville, SD", []),
    ],
)
def test_a_us_place_before_a_state_code_is_a_city(nlp, text, expected):
    assert [e[:2] for e in ents(nlp(text))] == expected

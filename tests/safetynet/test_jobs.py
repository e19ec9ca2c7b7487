"""`phi_safety_net`'s job class: a job after a work cue."""

import pytest
from spacy.tokens import Span

from spacy_deid.safetynet.jobs import is_job_word

from .test_component import make_nlp
from .test_places import NAMES_OFF, ents

JOBS = {**NAMES_OFF, "job": "PROFESSION"}


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=JOBS)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Was working as a gaffer back in Lagos.", ["gaffer"]),
        ("job: risk analyst with Quillon Landscaping", ["risk analyst"]),
        (
            "Was working as a medical sales representative in Accra.",
            ["medical sales representative"],
        ),
        ("She used to be an electrician.", ["electrician"]),
        ("Occupation: welder", ["welder"]),
    ],
)
def test_finds_jobs_after_work_cues(nlp, text, expected):
    assert ents(nlp(text)) == [(w, "PROFESSION", "safety_net:job") for w in expected]


@pytest.mark.parametrize(
    "text",
    [
        "She used to be a student.",  # no job title's head
        "formerly a woman of means",  # a person by relation
        "Was working as\nwelder",  # a line break
        "A welder came by.",  # no cue
        "works as a team on weekends",  # "team" heads no job
    ],
)
def test_leaves_what_names_no_job(nlp, text):
    assert ents(nlp(text)) == []


def test_job_words():
    assert is_job_word("gaffer") and is_job_word("Welder") and is_job_word("nurse")
    assert not is_job_word("woman") and not is_job_word("student")


def test_jobs_are_off_by_default_and_never_cover_entities():
    assert make_nlp(labels=NAMES_OFF)("Was working as a gaffer.").ents == ()
    nlp = make_nlp(labels=JOBS)
    doc = nlp.make_doc("Was working as a gaffer, then works as a welder.")
    doc.ents = [Span(doc, 4, 5, label="PATIENT")]
    assert [(e.text, e.label_) for e in nlp.get_pipe("phi_safety_net")(doc).ents] == [
        ("gaffer", "PATIENT"),
        ("welder", "PROFESSION"),
    ]


@pytest.mark.parametrize(
    "text,name,expected",
    [
        ("Here with mom Quilla Arden (land surveyor) today.", "Quilla Arden",
         ["land surveyor"]),
        # A relation, a job after a comma, or another line.
        ("Emergency contact: Ruel Arden (neighbor) 555-0101", "Ruel Arden", []),
        ("Seen w/ son-in-law, Ruel, feels better.", "Ruel", []),
        ("Daughter Quilla (master plumber in Reno) flying in.", "Quilla", ["master plumber"]),
        ("Son Ruel (student) visits.", "Ruel", []),
        ("Seen with Arden, Quilla Welder today.", "Arden", []),
        ("Mom Quilla Arden (\nland surveyor)", "Quilla Arden", []),
    ],
)
def test_finds_a_job_beside_a_persons_name(text, name, expected):
    nlp = make_nlp(labels={**JOBS, "relative": "PATIENT"})
    doc = nlp.make_doc(text)
    start = text.index(name)
    doc.ents = [doc.char_span(start, start + len(name), label="PATIENT")]
    found = [e.text for e in nlp.get_pipe("phi_safety_net")(doc).ents if e.label_ == "PROFESSION"]
    assert found == expected
    # Without a person label for the names, only work cues count.
    doc = make_nlp(labels=JOBS).make_doc(text)
    doc.ents = [doc.char_span(start, start + len(name), label="PATIENT")]
    assert [e.label_ for e in make_nlp(labels=JOBS).get_pipe("phi_safety_net")(doc).ents] == [
        "PATIENT"
    ]


@pytest.mark.parametrize(
    "text,employer,expected",
    [
        ("HPI: 23yo F, vet tech at Quillmoor Animal Clinic.", "Quillmoor Animal Clinic",
         ["vet tech"]),
        ("Dad (3rd grade teacher at Quillmoor School) called.", "Quillmoor School",
         ["3rd grade teacher"]),
        # After a word that opens no job phrase, a plural or verb, a relation.
        ("seen by the nurse at Quillmoor Hospital", "Quillmoor Hospital", []),
        ("Retired; ushers at Quillmoor Church.", "Quillmoor Church", []),
        ("Contact: (neighbor at Quillmoor Farms)", "Quillmoor Farms", []),
        ("Retired, and a deacon at Quillmoor Chapel.", "Quillmoor Chapel", []),
        # No employer after the link.
        ("HPI: 23yo F, vet tech at home.", None, []),
    ],
)
def test_finds_a_job_before_its_employer(text, employer, expected):
    nlp = make_nlp(labels=JOBS)
    doc = nlp.make_doc(text)
    if employer:
        start = text.index(employer)
        doc.ents = [doc.char_span(start, start + len(employer), label="ORGANIZATION")]
    found = [e.text for e in nlp.get_pipe("phi_safety_net")(doc).ents if e.label_ == "PROFESSION"]
    assert found == expected


def test_retired_is_a_work_cue(nlp):
    assert ents(nlp("A retired machinist from Ohio.")) == [
        ("machinist", "PROFESSION", "safety_net:job")
    ]
    assert ents(nlp("She retired early.")) == []

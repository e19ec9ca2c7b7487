"""The `phi_safety_net` component: names in cue positions, and the guard."""

import pickle

import pytest
import spacy
import srsly
from spacy.tokens import Span

import spacy_deid.safetynet  # noqa: F401 - registers "phi_safety_net"
from spacy_deid.safetynet import SOURCE, PhiSafetyNet

TOKENIZER = {"nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}}


def make_nlp(**config):
    """A blank English pipeline with the clinical tokenizer and the net."""
    nlp = spacy.blank("en", config=TOKENIZER)
    nlp.add_pipe("phi_safety_net", config=config)
    return nlp


@pytest.fixture(scope="module")
def nlp():
    return make_nlp()


def ents(doc):
    return [(e.text, e.label_) for e in doc.ents]


def net_with_ents(nlp, text, spans):
    """The doc after the net alone, with (substring, label) spans set as the
    detectors' entities."""
    doc = nlp.make_doc(text)
    found = []
    for surface, label in spans:
        start = text.index(surface)
        found.append(doc.char_span(start, start + len(surface), label=label))
    doc.ents = found
    return nlp.get_pipe("phi_safety_net")(doc)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Pt Orsolya Brandwijk seen today.", [("Orsolya Brandwijk", "PATIENT")]),
        ("d/w dr. feliciano re: plan", [("feliciano", "DOCTOR")]),
        ("per rn b. achebe", [("b. achebe", "DOCTOR")]),
        ("sis Fenella called back", [("Fenella", "PATIENT")]),
        ("wife June at bedside", [("June", "PATIENT")]),
        ("her son Tamsin visited", [("Tamsin", "PATIENT")]),
        (
            "kids Amber (8), Orsolya and Tamsin at home",
            [("Amber", "PATIENT"), ("Orsolya", "PATIENT"), ("Tamsin", "PATIENT")],
        ),
        ("dtr Fenella, and then home", [("Fenella", "PATIENT")]),
        ("FOB Tamsin Brandwijk visits", [("Tamsin Brandwijk", "PATIENT")]),
        ("MOB Fenella at bedside", [("Fenella", "PATIENT")]),
        # A lower-case given name English seldom uses, after a relative.
        ("wife peg calls nightly", [("peg", "PATIENT")]),
        ("hcp = son minh, speaks for her", [("minh", "PATIENT")]),
        ("sibling Fenella currently w/ pgm Orsolya", [("Fenella", "PATIENT"), ("Orsolya", "PATIENT")]),
        ("if rebleed call GI fellow Brandwijk", [("Brandwijk", "DOCTOR")]),
        ("day: vantreese (pgy2), garcia (intern)", [("vantreese", "DOCTOR"), ("garcia", "DOCTOR")]),
        ("(ferraro -> okonkwo)", [("ferraro", "DOCTOR"), ("okonkwo", "DOCTOR")]),
        ("Will call in the morning.\nThanks, Bo", [("Bo", "DOCTOR")]),
        ("Labs reviewed.\nThank you,\nBo\n", [("Bo", "DOCTOR")]),
        ("Message taken by gabriel woods", [("gabriel woods", "DOCTOR")]),
        ("Crew chief: Steve Hudson", [("Steve Hudson", "DOCTOR")]),
        ("Plan reviewed.\n-- carlito bernat\n", [("carlito bernat", "DOCTOR")]),
        ("Signed: Darren 05/11/2093", [("Darren", "DOCTOR")]),
        ("O. Brandwijk, MD", [("O. Brandwijk", "DOCTOR")]),
        # A pager number in brackets after a sign-out's name.
        ("from: castellanos (pgr 3-2210) -> float", [("castellanos", "DOCTOR")]),
        ("covering: Marchbanks (pager 2231)", [("Marchbanks", "DOCTOR")]),
        ("cc: Dr. Halvorsrud-Okonkwo", [("Halvorsrud-Okonkwo", "DOCTOR")]),
        ("Attending: Feliciano", [("Feliciano", "DOCTOR")]),
        # As frequent as a word, but as a name first: a surname.
        ("d/w williams ok to feed", [("williams", "DOCTOR")]),
        ("per johnson ok to diurese", [("johnson", "DOCTOR")]),
        # Cues of train's sign-out and consult notes.
        ("covering for Marchbanks - on lasix", [("Marchbanks", "DOCTOR")]),
        ("x-cover for Brandwijk tonight", [("Brandwijk", "DOCTOR")]),
        ("f/u w Feliciano re: INR", [("Feliciano", "DOCTOR")]),
        ("Follow up with Marchbanks in clinic", [("Marchbanks", "DOCTOR")]),
        ("Pt consulted by Brandwijk for pain", [("Brandwijk", "DOCTOR")]),
        ("Call asked by marchbanks at noon", [("marchbanks", "DOCTOR")]),
        ("attn Feliciano", [("Feliciano", "DOCTOR")]),
        ("lpn Brandwijk aware", [("Brandwijk", "DOCTOR")]),
        # Two modals in a row: the first is a name the issue lists (May).
        ("sister may can drive her home", [("may", "PATIENT")]),
        # A modal that opens a sentence before a word no modal takes.
        ("Seen today.\nWill is a retired welder.", [("Will", "PATIENT")]),
        ("Family met. May would like to go home.", [("May", "PATIENT")]),
        # Initials that open a sentence before such a word.
        ("Labs drawn. R.W. reports less pain.", [("R.W.", "PATIENT")]),
        # The people a patient lives or works with, and clergy by title.
        ("witnessed by roommate Orsolya at home", [("Orsolya", "PATIENT")]),
        ("off work; supervisor Brandwijk offered light duty", [("Brandwijk", "PATIENT")]),
        ("anointed by Rev. Okonkwo last week", [("Okonkwo", "PATIENT")]),
        ("Officer Marchbanks took the report", [("Marchbanks", "PATIENT")]),
        ("Fr. Brandwijk to visit weekly", [("Brandwijk", "PATIENT")]),
        ("GF Orsolya Brandwijk supportive", [("Orsolya Brandwijk", "PATIENT")]),
        ("per teammate Orsolya on the sideline", [("Orsolya", "PATIENT")]),
        # Case managers and navigators are clinicians; so is a name before a
        # credential of three capitals or more after a comma.
        ("case mgr Orsolya Brandwijk on SNF referral", [("Orsolya Brandwijk", "DOCTOR")]),
        ("Navigator Marchbanks to arrange lodging", [("Marchbanks", "DOCTOR")]),
        ("Tdap given by Marchbanks, CMA today", [("Marchbanks", "DOCTOR")]),
        # A nickname is a strong cue: ordinary words that are names count.
        (
            "Mr. Marchbanks (nickname Buddy) at bedside",
            [("Marchbanks", "PATIENT"), ("Buddy", "PATIENT")],
        ),
    ],
)
def test_finds_names_in_cue_positions(nlp, text, expected):
    doc = nlp(text)
    assert ents(doc) == expected
    assert all(e._.phi_source.startswith(SOURCE + ":") for e in doc.ents)
    assert all(e._.phi_score == 0.5 for e in doc.ents)


@pytest.mark.parametrize(
    "text",
    [
        "Foley catheter placed; pt Foley catheter in place",
        "per Babinski sign, pt Parkinson disease, per Hodgkin lymphoma",
        "pt may go home",
        "pt will follow up",
        "sister may visit",
        "wife at bedside, son car broke down",
        "son states he is fine",
        "wife can must drive",  # "Can" is a rare given name
        "Stool FOB negative x3, FOB test pending",
        "Dr. order",
        "patient fall",
        "son Humira",
        "per protocol",
        "d/w team",
        "Pt Afebrile",
        "pt ambulating",
        "per ED",
        "patient Saturday",
        "Thanks, will call",
        "Thanks, Bo will call",
        "Cr 1.2 -> 1.5, NC -> RA, ICU -> floor",
        "mom will pick him up",
        "Will follow up in clinic. May resume diet.",
        "Will patients need a ride?",
        "U.S. was the destination.",
        "Note by Ames. M.D. is on call.",
        "Seen by P.A. today.",
        "Plan: will is signed",
        "needs refill of ms contin",
        "Chart reviewed, MD FAACP",
        "call cardiology (pgr 4402) with questions",
        "(pgr 4402)",
        "pt grant funding",
        "14 Fr Foley placed",  # a catheter's size, not "Fr."
        "Father: colon ca at 66",  # a lower-case organ, whoever bears it
        "adv to ADA as tol, SLP bedside swallow",  # no capitalised name
        "Pt and son verbalized understanding",
        "d/w mills re: plan",  # more a word than its name counts explain
        "per brown stools",
        "- Continue Lasix\n- Brandwijk",
        "covering for the night team",
        "follow up with cardiology",
        "f/u w PCP in 2 weeks",
        "nickname the pillbox",
        "supervisor aware",
        "the coach said ok",
        "hard to judge Bell palsy",
        "nickname Parkinson disease",
        # A diagnosis word after the name: an eponymous disease.
        "Consult neuro re: Arnold neuralgia.",
        # A diagnosis word that few people bear, or clinical shorthand.
        "Seen by ortho re: Osteonecrosis of hip.",
        "d/w team re: dispo",
        "Pt Tmax 38.4 overnight.",
        "d/w Whipple cardiomyopathy team",
        # A full stop after a relative: the next sentence's first word.
        "Lives with her husband. He drives her.",
        "No children. Her sister visits.",
        "Eldest of four children. Born abroad.",
    ],
)
def test_guard_leaves_ordinary_words(nlp, text):
    assert ents(nlp(text)) == []


def test_a_name_after_a_relative_and_a_full_stop_must_be_no_ordinary_word(nlp):
    assert ents(nlp("Spoke with wife. Fenella agrees.")) == [("Fenella", "PATIENT")]
    assert ents(nlp("Spoke with wife. Mark agrees.")) == []
    assert ents(nlp("Spoke with husband Mark today.")) == [("Mark", "PATIENT")]


def test_ordinary_name_words_only_after_strong_cues_written_as_names(nlp):
    assert ents(nlp("Dr. May")) == [("May", "DOCTOR")]
    assert ents(nlp("pt May")) == []
    assert ents(nlp("husband Grant")) == [("Grant", "PATIENT")]
    assert ents(nlp("husband grant")) == []


def test_names_before_a_lower_case_post_nominal_that_ends_its_line(nlp):
    assert ents(nlp("rpt given to haverty rn\nbed 4 stable")) == [
        ("haverty", "DOCTOR")
    ]
    assert ents(nlp("questions per rn\nbed 4 stable")) == []  # a common word
    assert ents(nlp("haverty rn to call back")) == []  # not at the line's end


def test_consult_services_after_per_are_no_names(nlp):
    assert ents(nlp("on insulin gtt per endo, titrate q1h")) == []
    assert ents(nlp("plan per derm: biopsy")) == []


def test_short_capitals_names_after_a_relative_cue_in_capitals(nlp):
    assert ents(nlp("PT'S COUSIN BEN BROUGHT MEDS.")) == [("BEN", "PATIENT")]
    assert ents(nlp("SISTER, DAWN, AT BEDSIDE.")) == [("DAWN", "PATIENT")]
    assert ents(nlp("MEDS GIVEN; TECH BILL PRESENT.")) == [("BILL", "DOCTOR")]
    assert ents(nlp("CHAPLAIN NOTE: PT RESTING.")) == []
    # Abbreviations, stop words and date words stay; so does a cue in lower
    # case, where a capitals word is an abbreviation ("son ED visit").
    assert ents(nlp("SON ED VISIT TODAY.")) == []
    assert ents(nlp("SISTER AT BEDSIDE.")) == []
    assert ents(nlp("DAUGHTER AUG 3RD VISIT.")) == []
    assert ents(nlp("cousin BEN brought meds.")) == []


def test_a_care_role_is_a_strong_cue(nlp):
    assert ents(nlp("meds given; nurse Bill present.")) == [("Bill", "DOCTOR")]
    assert ents(nlp("rad tech Summer aware")) == [("Summer", "DOCTOR")]
    assert ents(nlp("chaplain Tove Haverty visited")) == [("Tove Haverty", "DOCTOR")]
    # Not a name: lower case, a header in capitals, words nobody bears.
    assert ents(nlp("nurse will call back")) == []
    assert ents(nlp("NURSE NOTE\nPt resting")) == []
    assert ents(nlp("Nurse Note: pt resting.")) == []


def test_never_overrides_or_overlaps_existing_entities(nlp):
    doc = nlp.make_doc("Pt Orsolya Brandwijk seen; sis Fenella called")
    doc.ents = [Span(doc, 2, 3, label="HOSPITAL")]  # "Brandwijk"
    doc = nlp.get_pipe("phi_safety_net")(doc)
    assert ents(doc) == [
        ("Orsolya", "PATIENT"),
        ("Brandwijk", "HOSPITAL"),
        ("Fenella", "PATIENT"),
    ]
    assert doc.ents[1]._.phi_source is None
    # An entity on the first name: nothing is added around it.
    doc = nlp.make_doc("Pt Orsolya Brandwijk seen")
    doc.ents = [Span(doc, 1, 2, label="PATIENT")]  # "Orsolya"

    doc = nlp.get_pipe("phi_safety_net")(doc)
    assert ents(doc) == [("Orsolya", "PATIENT")]


def test_particles_before_an_entity_are_no_name_of_their_own(nlp):
    doc = net_with_ents(nlp, "Seen by Dr van der Wiel today.", [("der Wiel", "PATIENT")])
    assert ents(doc) == [("der Wiel", "PATIENT")]
    doc = net_with_ents(nlp, "Seen by Dr van Wiel-Oordt today.", [])
    assert ents(doc) == [("van Wiel-Oordt", "DOCTOR")]


def test_arrow_partner_may_be_an_entity_and_a_date_may_follow(nlp):
    # The other side already found (even with a wrong label) still pairs.
    doc = nlp.make_doc("(ferraro -> lindgren)")
    doc.ents = [Span(doc, 4, 5, label="HOSPITAL")]  # "lindgren"
    doc = nlp.get_pipe("phi_safety_net")(doc)
    assert ents(doc) == [("ferraro", "DOCTOR"), ("lindgren", "HOSPITAL")]
    # A date found after a side is another entity, not a word beside it.
    doc = nlp.make_doc("coverage:\tferraro -> lindgren July 8, 2102")
    doc.ents = [Span(doc, 7, 11, label="DATE")]
    doc = nlp.get_pipe("phi_safety_net")(doc)
    assert ents(doc)[:2] == [("ferraro", "DOCTOR"), ("lindgren", "DOCTOR")]
    # Free words beside a side still make it no lone name.
    assert ents(nlp("ferraro -> lindgren called back")) == []
    # A taken side alone pairs with nothing that is no surname.
    doc = nlp.make_doc("ICU -> floor")
    doc.ents = [Span(doc, 0, 1, label="HOSPITAL")]
    assert ents(nlp.get_pipe("phi_safety_net")(doc)) == [("ICU", "HOSPITAL")]


def test_known_non_phi_is_left_alone(nlp):
    doc = nlp.make_doc("sis Fenella called")
    doc.spans["phi_not"] = [doc[1:2]]
    assert ents(nlp.get_pipe("phi_safety_net")(doc)) == []


def test_labels_setting_maps_and_switches_off_cue_classes():
    off = {"patient": None, "sign_off": None, "arrow": None}
    nlp = make_nlp(labels={**off, "clinician": "PROFESSION"})
    doc = nlp("sis Fenella d/w dr. feliciano (ferraro -> lindgren)")
    assert ents(doc) == [("Fenella", "PATIENT"), ("feliciano", "PROFESSION")]
    with pytest.raises(ValueError):
        make_nlp(labels={"nurse": "DOCTOR"})
    with pytest.raises(ValueError):
        make_nlp(labels={"relative": "NOT_A_LABEL"})


def test_thresholds_are_config_driven():
    # Fenella: 119 people; with a higher bar it is an unseen word (title
    # case, no word use) after a strong cue, still a name; lower case, not.
    strict = make_nlp(min_name_count=1000, max_unseen_zipf=0.0)
    assert ents(strict("sis fenella")) == []
    assert ents(make_nlp()("sis fenella")) == [("fenella", "PATIENT")]
    assert ents(make_nlp(extra_words=["Fenella"])("sis Fenella")) == []


@pytest.mark.parametrize(
    "text,expected",
    [
        ("per quorvatz ok to feed", [("quorvatz", "DOCTOR")]),
        ("d/w brelinski, may diurese", [("brelinski", "DOCTOR")]),
        ("per pateint request", []),  # a misspelling of "patient"
        ("per pulm", []),  # too short: shorthand
        ("pt quorvatz today", []),  # not after a clinician cue
        ("sis quorvatz visited", [("quorvatz", "PATIENT")]),  # a strong cue
        # A common word inflected is a verb, whatever the cue.
        ("Pt and son verbalized understanding", []),
        ("per verbalized plan", []),
    ],
)
def test_lower_case_unseen_words_after_clinician_cues(text, expected):
    assert ents(make_nlp(lower_unseen=True)(text)) == expected


def test_lower_unseen_is_off_by_default(nlp):
    assert ents(nlp("per quorvatz ok to feed")) == []
    with pytest.raises(ValueError, match="lower_unseen"):
        make_nlp(lower_unseen="yes")


@pytest.mark.parametrize(
    "text,expected",
    [
        ("paged dr mills x2, aware", [("mills", "DOCTOR")]),
        ("d/w dr. young re plan", [("young", "DOCTOR")]),
        ("dr order for labs", []),  # few people are called so
        ("dr said ok", []),  # a stop word
        ("dr well known to us", []),  # too common a word
        ("d/w mills re: plan", []),  # not after a title
    ],
)
def test_lower_case_surnames_after_a_clinician_title(text, expected):
    assert ents(make_nlp(lower_after_title=True)(text)) == expected


def test_lower_after_title_is_off_by_default(nlp):
    assert ents(nlp("paged dr mills x2")) == []
    with pytest.raises(ValueError, match="lower_after_title"):
        make_nlp(lower_after_title=1)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("d/w mills re: plan", [("mills", "DOCTOR")]),
        ("cocaine + ; d/w bell may diurese", [("bell", "DOCTOR")]),
        ("rn ford aware", [("ford", "DOCTOR")]),
        # Used far more as words than as names, or no surname at all.
        ("d/w staff and family", []),
        ("spoke with blood bank re: products", []),
        ("d/w team", []),
        ("per mills ok to feed", [("mills", "DOCTOR")]),
        ("Gross by Ford 6/11/2020.", [("Ford", "DOCTOR")]),
        ("Will forward to Hall.", [("Hall", "DOCTOR")]),
        # Latin after "per", and the chief complaint after "CC:".
        ("pt per diem teacher", []),
        ("CC: rash", []),
        # Title case is the ordinary guard's, as before.
        ("d/w Staff", []),
    ],
)
def test_lower_case_surnames_after_a_naming_cue(text, expected):
    assert ents(make_nlp(surname_after_cue=True)(text)) == expected


def test_surname_after_cue_is_off_by_default(nlp):
    assert ents(nlp("d/w mills re: plan")) == []
    with pytest.raises(ValueError, match="surname_after_cue"):
        make_nlp(surname_after_cue="yes")


def test_one_slip_finds_misspellings():
    from spacy_deid.safetynet.guard import is_misspelling, one_slip

    assert {"pateint", "patint", "patientt", "pbtient"} <= set(one_slip("patient"))
    assert is_misspelling("pateint") and is_misspelling("caled")
    assert not is_misspelling("quorvatz")


def test_inflections_of_common_words():
    from spacy_deid.safetynet.guard import is_inflection

    assert is_inflection("verbalized") and is_inflection("carried")
    assert not is_inflection("quorvatz") and not is_inflection("ahmed")


def test_spans_key_keeps_the_added_spans():
    nlp = make_nlp(spans_key="safety_net")
    doc = nlp("sis Fenella and wife June")
    assert [s.text for s in doc.spans["safety_net"]] == ["Fenella", "June"]


def test_refuses_deidentified_docs(nlp):
    doc = nlp.make_doc("sis Fenella")
    doc._.deidentified = "sis [PATIENT]"
    with pytest.raises(ValueError):
        nlp.get_pipe("phi_safety_net").mark(doc)


def test_serialization_round_trip(tmp_path):
    off = {"patient": None, "sign_off": None, "arrow": None, "clinician": None}
    nlp = make_nlp(min_name_count=500, labels=off, score=0.4)
    nlp.to_disk(tmp_path / "nlp")
    stored = srsly.read_json(tmp_path / "nlp" / "phi_safety_net" / "cfg")
    assert stored["min_name_count"] == 500
    loaded = spacy.load(tmp_path / "nlp")
    net = loaded.get_pipe("phi_safety_net")
    assert net.cfg == nlp.get_pipe("phi_safety_net").cfg
    assert ents(loaded("sis Fenella d/w dr. feliciano")) == [("Fenella", "PATIENT")]
    assert loaded("sis Fenella").ents[0]._.phi_score == 0.4
    fresh = PhiSafetyNet().from_bytes(net.to_bytes())
    assert fresh.cfg == net.cfg
    assert pickle.loads(pickle.dumps(net)).cfg == net.cfg


def test_pipe_batch_matches_call(nlp):
    texts = [
        "Pt Orsolya Brandwijk seen.",
        "pt may go home",
        "",
        "d/w dr. feliciano; sis Fenella",
        "(ferraro -> lindgren)",
    ]
    piped = [ents(doc) for doc in nlp.pipe(texts, batch_size=2)]
    assert piped == [ents(nlp(text)) for text in texts]
    assert piped[3] == [("feliciano", "DOCTOR"), ("Fenella", "PATIENT")]


def test_factory_is_declared():
    meta = spacy.Language.get_factory_meta("phi_safety_net")
    assert "doc.ents" in meta.requires and "doc.ents" in meta.assigns


def test_entry_point_and_pipeline_config():
    from pathlib import Path

    root = Path(__file__).resolve().parents[2]
    pyproject = (root / "pyproject.toml").read_text()
    assert (
        'phi_safety_net = "spacy_deid.safetynet.component:make_phi_safety_net"'
        in pyproject
    )
    config = spacy.util.load_config(root / "configs" / "pipeline_en.cfg")
    pipeline = config["nlp"]["pipeline"]
    assert pipeline.index("phi_ner") < pipeline.index("phi_safety_net")
    assert pipeline.index("phi_safety_net") < pipeline.index("phi_surrogates")


_TIE_SCRIPT = """
import spacy, spacy_deid.safetynet
nlp = spacy.blank("en", config={"nlp": {"tokenizer": {
    "@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}})
labels = {"clinician": "DOCTOR", "patient": "PATIENT", "relative": "PATIENT",
          "sign_off": "PATIENT", "arrow": "DOCTOR"}
nlp.add_pipe("phi_safety_net", config={"labels": labels})
doc = nlp("Echo reviewed with the team.\\n-- Ivo RN, 3/9/2064\\n")
print([(e.text, e.label_, e._.phi_source) for e in doc.ents])
"""


def test_same_words_found_by_two_cue_classes_resolve_the_same_every_run():
    """A sign-off and a post-nominal find the same name: the earlier cue
    class (clinician) wins whatever the process's string hash seed."""
    import os
    import subprocess
    import sys

    outputs = set()
    for seed in ("1", "2", "3", "4"):
        env = {**os.environ, "PYTHONHASHSEED": seed}
        run = subprocess.run(
            [sys.executable, "-c", _TIE_SCRIPT],
            capture_output=True,
            text=True,
            env=env,
            check=True,
        )
        outputs.add(run.stdout.strip())
    assert outputs == {"[('Ivo', 'DOCTOR', 'safety_net:clinician')]"}


def test_a_diagnosis_word_that_many_people_bear_is_still_a_name(nlp):
    from spacy_deid.knowledge.conditions import is_condition_word

    assert is_condition_word("Burkitt")  # "Burkitt lymphoma"
    assert ents(nlp("d/w Dr. Burkitt today")) == [("Burkitt", "DOCTOR")]
    assert ents(nlp("d/w Dr. Burkitt lymphoma team")) == []

"""`phi_safety_net`'s column classes: names and initials under a table's
header of people ("BY", "INIT", "TCHR")."""

import pytest

from .test_component import ents, make_nlp
from .test_places import NAMES_OFF

COLUMNS = {**NAMES_OFF, "staff_column": "DOCTOR", "person_column": "PATIENT"}

MAR = (
    "TIME  MEDICATION        DOSE        RESULT   INIT  COMMENT\n"
    "0800  donepezil         10 mg po    given    TM\n"
    "0800  metoprolol        25 mg po    HELD     TM    AP 54 (hold <55)\n"
    "1230  acetaminophen     650 mg po   given    QL    L hip pain 6/10\n"
    "\n"
    "NOTES\n"
    "0805  TM called pharmacy.\n"
)
LOG = (
    "TIME  STUDENT            GR  TCHR          REASON\n"
    "0752  Vantreese, Quil    3   Brandwijk     sched med\n"
    "0831  Orsolya, Bex       1   Pohakuloa     fell - recess\n"
)
CREW = (
    "TIME   RHYTHM   ACTION                  DOSE       BY\n"
    "04:12  PEA      CPR started             -          Quorvatz\n"
    "04:14  PEA      epinephrine             1 mg IV    P. Brandwijk\n"
    "04:16  PEA      pulse check             -          see note\n"
)


@pytest.fixture(scope="module")
def nlp():
    return make_nlp(labels=COLUMNS)


def test_initials_under_an_initials_header_are_staff(nlp):
    assert ents(nlp(MAR)) == [("TM", "DOCTOR"), ("TM", "DOCTOR"), ("QL", "DOCTOR")]


def test_a_teachers_column_names_people(nlp):
    assert ents(nlp(LOG)) == [("Brandwijk", "PATIENT"), ("Pohakuloa", "PATIENT")]


def test_names_under_by_and_words_left_alone(nlp):
    assert ents(nlp(CREW)) == [("Quorvatz", "DOCTOR"), ("P. Brandwijk", "DOCTOR")]


@pytest.mark.parametrize(
    "text",
    [
        # A row with digits is no header; credentials are no initials.
        "Pain     morphine 5 mg SL q2h prn     daily     RN\n"
        "Skin     q2h turns                    3x/wk     RN\n",
        "TIME  DRUG        DOSE     INIT\n0800  sertraline  50 mg    RN\n",
        # Two cells are no table.
        "Signed by  Quorvatz\nQuorvatz  Brandwijk\n",
    ],
)
def test_no_table_of_people_no_names(nlp, text):
    assert ents(nlp(text)) == []


def test_columns_are_off_by_default():
    assert make_nlp(labels=NAMES_OFF)(MAR).ents == ()

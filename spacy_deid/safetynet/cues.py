"""The cue words of `phi_safety_net`: grammar words before (or after) a name.

Each cue is a short phrase written as it appears in notes ("d/w", "cc:",
"discussed with"); it is matched on the lower-case *pieces* of the tokens
(runs of letters, digits, or one other character), so that it matches
however the tokenizer cut it ("Dr." and "dr ." alike). None of these words
is PHI. A *strong* cue (a title, a relative, a sign-off) is one after which
an ordinary word that is also a frequent name is taken as a name ("wife
June"); after a weak cue ("pt", "per") it is not ("pt may go home").
"""

import re
from functools import lru_cache
from typing import Dict, Iterable, List, NamedTuple, Optional, Sequence, Tuple

# Cue classes; the `labels` setting maps each to a PHI label.
CLINICIAN = "clinician"
PATIENT = "patient"
RELATIVE = "relative"
SIGN_OFF = "sign_off"
ARROW = "arrow"
# Places (`places.py`): a state's full name, a large city after "in".
STATE = "state"
CITY = "city"
# A month's full name standing free (`months.py`).
MONTH = "month"
# A floor number and a compass direction (`wards.py`).
WARD = "ward"
# A hospital's initials after "to", "from", "at" (`facilities.py`).
FACILITY = "facility"
# A job after a work cue ("working as a gaffer", `jobs.py`).
JOB = "job"
# A unit after its hospital and a separator ("Mercy Hospital - Unit 3B",
# `units.py`).
UNIT = "unit"
# A month/day in a position that marks a date ("XR 8/3:", `slash_dates.py`).
SLASH_DATE = "slash_date"
# A relative's age in brackets after the name, or after "ages" (`kin_ages.py`).
KIN_AGE = "kin_age"
# A weekday right before or after a date (`weekdays.py`).
WEEKDAY = "weekday"
# A login made from a person's name in the same doc (`logins.py`).
LOGIN = "login"
# Initials after a dash or slash that sign an entry (`initials.py`).
INITIALS = "initials"
# Quoted words in brackets after a person's name ('Ana Ruiz ("Nani")',
# `nicknames.py`).
NICKNAME = "nickname"
# Names and initials in a table's column of people ("BY", "INIT", "TCHR",
# `columns.py`): staff, and others (teachers, callers).
STAFF_COLUMN = "staff_column"
PERSON_COLUMN = "person_column"
CUE_CLASSES = (
    CLINICIAN,
    PATIENT,
    RELATIVE,
    SIGN_OFF,
    ARROW,
    STATE,
    CITY,
    MONTH,
    WARD,
    FACILITY,
    JOB,
    UNIT,
    SLASH_DATE,
    KIN_AGE,
    WEEKDAY,
    LOGIN,
    INITIALS,
    NICKNAME,
    STAFF_COLUMN,
    PERSON_COLUMN,
)

CLINICIAN_TITLES: Tuple[str, ...] = ("dr", "doctor")
CLINICIAN_CUES: Tuple[str, ...] = (
    "rn",
    "np",
    "pa",
    "md",
    "per",
    "d/w",
    "discussed with",
    "spoke with",
    "paged",
    "cc:",
    "attending",
    "resident",
    "fellow",
    "covering",
    "signed by",
    "seen by",
    "examined by",
    "reviewed by",
    "reviewed with",
    "updated by",
    "taken by",
    "dictated by",
    "entered by",
    "written by",
    "performed by",
    "gross by",
    "route to",
    "routed to",
    "spoke to",
    "message from",
    "msg from",
    "message for",
    "msg for",
    "rph",
    "crew chief",
    # Before a clinician in train's sign-out and consult notes.
    "covering for",
    "cover for",
    "f/u w",
    "follow up with",
    "consulted by",
    "asked by",
    "attn",
    "lpn",
    # In train every word after it is a clinician's name (14 of 14).
    "forward to",
    "forwarded to",
    # Case managers are clinicians in i2b2 2014 ("case mgr Ana Ruiz").
    "case manager",
    "case mgr",
)
# A care role before a first name, as a title is: strong ("nurse Bill",
# "tech Summer"; in train a title-case word after "nurse" or "therapist" is a
# gold name in 54 of 56 cases outside all-capitals headers).
CLINICIAN_ROLES: Tuple[str, ...] = ("nurse", "tech", "therapist", "chaplain", "navigator")
# Work cues before a job (`jobs.py`): "was working as a gaffer".
JOB_CUES: Tuple[str, ...] = (
    "working as",
    "works as",
    "worked as",
    "work as",
    "employed as",
    "job:",
    "occupation:",
    "used to be",
    "formerly",
    "retired",
)
# After a name: "Feliciano, MD". Upper case only ("to DO list" aside).
POST_NOMINALS: Tuple[str, ...] = ("MD", "DO", "RN", "NP", "PA")
# In lower case only at the end of a line ("report to tamsin rn").
LOWER_POST_NOMINALS: Tuple[str, ...] = ("md", "rn", "np", "lpn", "cna")
# A pager number in brackets after a clinician's name ("castellanos (pgr 3-2210)",
# as train's sign-outs write it), in lower case.
PAGER_WORDS: Tuple[str, ...] = ("pgr", "pager")
PATIENT_TITLES: Tuple[str, ...] = ("mr", "mrs", "ms", "miss")
PATIENT_CUES: Tuple[str, ...] = ("pt", "patient", "call from", "re:")
# Non-clinicians are PATIENT in i2b2 2014: clergy by their title (strong), and
# officers, coaches, judges and lawyers (weak: "coach" and "judge" are verbs).
# "Fr." with its period only: "14 Fr Foley" is a catheter's size.
CLERGY_TITLES: Tuple[str, ...] = (
    "pastor", "rev", "reverend", "rabbi", "imam", "deacon", "fr.",
)  # fmt: skip
OFFICIAL_CUES: Tuple[str, ...] = ("officer", "coach", "judge", "attorney", "atty")
# A nickname: strong, since nicknames are often ordinary words ("Pt
# (nickname Buddy)", as train's notes write it).
NICKNAME_CUES: Tuple[str, ...] = ("nickname",)
RELATIVE_CUES: Tuple[str, ...] = (
    "sis",
    "sister",
    "bro",
    "brother",
    "wife",
    "husband",
    "spouse",
    "son",
    "daughter",
    "dtr",
    "stepson",
    "stepdaughter",
    "kids",
    "children",
    "mom",
    "mother",
    "dad",
    "father",
    "friend",
    "neighbor",
    "partner",
    "fiance",
    "grandson",
    "granddaughter",
    "grandmother",
    "grandfather",
    "aunt",
    "uncle",
    "niece",
    "nephew",
    "cousin",
    "guardian",
    # Father and mother of the baby, in neonatal and obstetric notes.
    "fob",
    "mob",
    # Step-relatives, partners and the people a patient lives or works with.
    "stepmother",
    "stepfather",
    "stepmom",
    "stepdad",
    "grandma",
    "grandpa",
    "sibling",
    "half-sister",
    "half-brother",
    "stepsister",
    "stepbrother",
    "godmother",
    "godfather",
    # Grandparents on the mother's and father's side.
    "mgm",
    "mgf",
    "pgm",
    "pgf",
    "girlfriend",
    "gf",
    "boyfriend",
    "fiancee",
    "roommate",
    "housemate",
    "coworker",
    "co-worker",
    "teammate",
    "classmate",
    "supervisor",
    "boss",
    "landlord",
    "landlady",
    "caregiver",
)
SIGN_OFFS: Tuple[str, ...] = (
    "thanks,",
    "thank you,",
    "regards,",
    "sincerely,",
    "yours truly,",
)
# Weaker than a sign-off: the name must be a known or a title-cased one.
SIGNATURES: Tuple[str, ...] = ("signed", "electronically signed by", "--")
# Cues that count only at the start of a line ("-- Feliciano").
LINE_START: Tuple[str, ...] = ("--",)
ARROWS: Tuple[str, ...] = ("->", "-->", "=>", "\u2192")

_PIECE = re.compile(r"[^\W\d_]+(?:'[^\W\d_]+)*|\d+|\S")


@lru_cache(maxsize=1 << 16)
def pieces(text: str) -> Tuple[str, ...]:
    """The lower-case pieces of a token or cue: letter runs (apostrophes
    inside kept), digit runs, single other characters. Cached: most words of
    a batch repeat."""
    return tuple(_PIECE.findall(text.lower()))


class Cue(NamedTuple):
    """One cue phrase: its pieces, its class and whether it is strong."""

    pieces: Tuple[str, ...]
    kind: str
    strong: bool


def default_cues() -> List[Cue]:
    """Every prefix cue, titles and relatives strong."""
    groups: Sequence[Tuple[Iterable[str], str, bool]] = (
        (CLINICIAN_TITLES, CLINICIAN, True),
        (CLINICIAN_ROLES, CLINICIAN, True),
        (CLINICIAN_CUES, CLINICIAN, False),
        (PATIENT_TITLES, PATIENT, True),
        (PATIENT_CUES, PATIENT, False),
        (NICKNAME_CUES, PATIENT, True),
        (CLERGY_TITLES, PATIENT, True),
        (OFFICIAL_CUES, PATIENT, False),
        (RELATIVE_CUES, RELATIVE, True),
        (SIGN_OFFS, SIGN_OFF, True),
        (SIGNATURES, SIGN_OFF, False),
    )
    return [
        Cue(tuple(pieces(phrase)), kind, strong)
        for phrases, kind, strong in groups
        for phrase in phrases
    ]


class CueIndex:
    """Cue phrases by first piece, longest first, for matching at a piece."""

    def __init__(self, cues: Iterable[Cue]) -> None:
        self.by_first: Dict[str, List[Cue]] = {}
        for cue in cues:
            self.by_first.setdefault(cue.pieces[0], []).append(cue)
        for found in self.by_first.values():
            found.sort(key=lambda cue: -len(cue.pieces))

    def match(self, stream: Sequence[str], i: int) -> Optional[Cue]:
        """The longest cue whose pieces start at `stream[i]`, or None."""
        for cue in self.by_first.get(stream[i], ()):
            n = len(cue.pieces)
            if tuple(stream[i : i + n]) == cue.pieces:
                return cue
        return None

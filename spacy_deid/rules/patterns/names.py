"""Name patterns from titles, credentials, header lines, relatives and actions.

`Dr. Smith` -> DOCTOR "Smith" (the title is context, not PHI);
`Mr./Mrs./Ms./Miss Jones` -> PATIENT "Jones"; `Jane Smith, MD` -> DOCTOR
"Jane Smith"; `msg taken by Amber Garcia`, `d/w C. Madden` -> DOCTOR (what a
clinician did, without a colon: these cues take two name parts, or `Last,
First`); `SMITH, JOHN  MRN 1234567` and `Re: KIM, Sandra` -> PATIENT (a line
that opens with the name before an ID field, a message's subject). Names have
1-3 capitalised words or initials, or `Last, First`; they never cross a line
break ("\n", "\r\n" or "\r"), except right after a title at the end of a
line. A few brands after a title ("Mr. Coffee", "Mrs. Dash", "Dr. Pepper",
"Dr. Scholl's") are no names, unless a name word follows.

The cues of the action, patient-line and `Re:` patterns occur in the
generator's train templates (tests/synth/test_splits.py checks it): rules are
written from train, as the models learn from it, never from dev or test.
"""

from typing import List

from ...knowledge.particles import NAME_PARTICLES, WORD_PARTICLES
from ._common import (
    BOL,
    END,
    EOL,
    NL,
    PRIO_NAME,
    alternation,
    make_pattern,
    title_and_upper,
    word_trie,
)

# Capitalised words that follow a title but are not names ("Dr. Smith's office"
# is fine, "Mr. Patient" or "Dr. Office" is not), and words that end a name.
_STOP_WORDS = [
    "Patient", "Pt", "Doctor", "Dr", "Office", "Clinic", "Hospital", "Team",
    "Service", "Note", "Today", "Tomorrow", "Yesterday", "And", "Or", "The", "A",
    "An", "To", "On", "At", "In", "Of", "For", "With", "From", "By", "Is", "Was",
    "Will", "Has", "Had", "Said", "Says", "Called", "Saw", "Sees", "See", "Per",
    "Who", "Whom", "Which", "That", "This", "He", "She", "They", "We", "I",
    "Recommended", "Recommends", "Agrees", "Notified", "Aware", "Please", "Thank",
    "Thanks", "Cc", "Re", "MD", "DO", "RN", "NP", "PA", "PhD", "Jr", "Sr",
    "Cardiology", "Neurology", "Oncology", "Surgery", "Medicine", "Radiology",
    "Pediatrics", "Psychiatry", "Urology", "Dermatology", "Endocrinology",
    "Nephrology", "Pulmonary", "Pulmonology", "Gastroenterology", "Hematology",
    "Orthopedics", "Anesthesia", "Pathology", "Obstetrics", "Gynecology",
    "Internal", "Family", "Emergency", "Primary", "Care", "Attending", "Resident",
    "Fellow", "Intern", "Nurse", "Unit", "Department", "Dept", "Floor", "Room",
    "Charge", "Covering", "Bedside", "Night", "Day", "Home", "Visiting", "Case",
    "Triage", "Staff", "Consulting", "Admitting", "Nursing", "On-call", "Call",
    "ICU", "MICU", "SICU", "CCU", "NICU", "PICU", "PACU", "ED", "ER", "OR", "GI",
    "ID", "PCP", "OT", "SW", "CM", "IR", "EP", "CT", "MRI", "EKG", "ECG", "Per",
    "DOS", "DOA", "DOD", "HPI", "PMH", "PSH", "ROS", "FH", "SH", "PE", "IMP",
    "PLAN", "DX", "MEDS", "ALL", "NKDA", "Facility", "Tel", "Phone", "Ph", "Fax",
    "Pager", "Cell", "Email", "MRN", "DOB", "Date",
    "SSN", "NPI", "DEA", "Acct", "Account", "Policy", "License", "Age", "Sex",
    "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday",
    "January", "February", "March", "April", "May", "June", "July", "August",
    "September", "October", "November", "December", "Social", "Work", "Physical",
    "Occupational", "Speech", "Therapy", "Pharmacy", "Nutrition", "Palliative",
    "Hospice", "Infectious", "Disease", "Heme", "Onc", "Renal", "Transplant",
    "Vascular", "Sleep", "Pain", "Wound", "Ortho", "Neuro", "Cards", "Rehab",
    "Management", "Services", "Center", "Health", "Medical", "Group", "Lab", "Labs",
    "Results", "Reviewed", "Reports", "Reported", "States", "Stated", "Agreed",
    "Updated", "Paged", "Rapid", "Response", "Code", "Security", "Chaplain",
    "Interpreter", "Transport", "Outside", "Prior", "Previous", "Admission",
    "Discharge",
]  # fmt: skip
_CREDENTIALS = [
    "MD", r"M\.D\.", "RN", "NP", "PA-C", r"D\.O\.", "PhD", "MBBS", "FNP", "ANP",
    "CNM", "CRNA", "DDS", "DMD", "PharmD", "LCSW", "NP-C", "FNP-BC", "MSW", "LPN",
    "RRT", "CRT", "EMT", "EMT-B", "EMT-P", "NRP", "CNA", "LICSW", "APRN", "DPM",
    "PsyD", "DPT", "FACP", "FACC", "FACS",
]  # fmt: skip
# Credentials written in lower case ("Michelle Morgan, md"): only after a
# comma, and none that is a word or a state ("do", "pa", "ma").
_LOWER_CREDENTIALS = ["md", r"m\.d\.", "rn", "np", "rrt", "cna", "lpn", "crna", "emt"]
# Credentials end a name, never are one ("Pogorzelec, RRT" is no "Last, First").
_NOT_NAMES = _STOP_WORDS + [c for c in _CREDENTIALS if c.isalpha()]
_STOP = r"(?!" + word_trie(_NOT_NAMES + [w.upper() for w in _NOT_NAMES]) + r"\b)"
# Letters beyond ASCII so that "Nevárez", "Phạm", "Ánh", "Íñigo" are names.
# Latin Extended-A and Latin Extended Additional mix both cases; both count.
_UP = "A-Z\u00c0-\u00d6\u00d8-\u00de\u0100-\u017f\u1e00-\u1eff"
_LO = "a-z\u00df-\u00f6\u00f8-\u00ff\u0100-\u017f\u1e00-\u1eff"
_NOT_LETTER = r"(?![" + _UP + _LO + r"])"
# One title-case name word: Smith, O'Brien, McDonald, Smith-Jones, Nevárez.
_TITLE_WORD = (
    _STOP
    + r"["
    + _UP
    + r"](?:'["
    + _UP
    + r"])?["
    + _LO
    + r"]+(?:["
    + _UP
    + r"]["
    + _LO
    + r"]+)?(?:-["
    + _UP
    + r"]["
    + _LO
    + r"]+)?"
    + _NOT_LETTER
)
# One name word, title case or upper case (SMITH, O'BRIEN-JONES).
_WORD = (
    r"(?:"
    + _TITLE_WORD
    + r"|"
    + _STOP
    + r"["
    + _UP
    + r"]{2,}(?:['\-]["
    + _UP
    + r"]{2,})?"
    + _NOT_LETTER
    + r")"
)
_INITIAL = r"[" + _UP + r"](?:\.|" + _NOT_LETTER + r")"
# 1-3 words/initials on one line, ending in a word: "J. Smith", "John A. Smith".
_NAME = (
    r"(?:"
    + _INITIAL
    + r"[ \t]*){0,2}"
    + _WORD
    + r"(?:[ \t]+(?:"
    + _INITIAL
    + r"[ \t]+)?"
    + _WORD
    + r"){0,2}"
)
# At least two parts ("John Smith", "J. Smith", "Smith, John"), for weak cues.
_NAME2 = (
    r"(?:(?:"
    + _INITIAL
    + r"[ \t]*){1,2}"
    + _WORD
    + r"|"
    + _WORD
    + r"(?:[ \t]+(?:"
    + _INITIAL
    + r"[ \t]+)?"
    + _WORD
    + r"){1,2}"
    + r"|"
    + _WORD
    + r",[ \t]*"
    + _WORD
    + r"(?:[ \t]+"
    + _INITIAL
    + r")?)"
)
# After a title, a surname with lower-case particles: "Dr. van der Berg",
# "Dr. Ana de Souza" (else "van" is left before a "der Berg" of the tagger).
_PARTICLES = (
    r"(?:(?:" + "|".join(sorted(NAME_PARTICLES - WORD_PARTICLES)) + r")[ \t]+){1,2}"
)
_PARTICLE_NAME = r"(?:" + _TITLE_WORD + r"[ \t]+)?" + _PARTICLES + _WORD
# Title-case only (no SMITH), for relatives: "his father CAD" is no name.
_TITLE_NAME = _TITLE_WORD + r"(?:[ \t]+" + _TITLE_WORD + r")?"
# "Last, First" / "Last, First M." ("Smith, John A.").
_COMMA_NAME = _WORD + r",[ \t]*" + _WORD + r"(?:[ \t]+" + _INITIAL + r")?"
# "Last, First" / "Last, First M.", only where the name ends there (line end or
# punctuation other than ":"), so "Dr. Smith, Tel: ..." gives "Smith".
_LAST_FIRST = _COMMA_NAME + r"(?=[ \t]*(?:" + EOL + r"|[.,;)])|[ \t]{2}|\t)"
# What may follow a name in a header line: the line end, a wide gap, a comma,
# or the next header field ("Patient: Jones, Robert    MRN: ...").
_HEADER_END = (
    r"(?=[ \t]*"
    + EOL
    + r"|[ \t]{2}|\t|[ \t]*[,;(|/]|[ \t]+(?i:mrn|dob|age|sex|unit|acct|ssn"
    r"|date|room|bed|pager|pgr|ext|tel|phone|md|m\.d\.|rn|np|attending)\b)"
)
# After a title: spaces, or a newline when the title ends the line.
_AFTER_TITLE = r"(?:[ \t]+|[ \t]*" + NL + r"[ \t]*)"
# Brand names that read as a title and a surname ("Mr. Coffee", "Dr. Pepper"):
# a small deny list, checked right after the title. A brand followed by another
# name word ("Dr. Pepper Smith") is still a name.
_BRANDS = [
    "Coffee", "Clean", "Pibb", "Goodbar", "Potato Head", "Dash", "Butterworth's",
    "Butterworth", "Paul's", "Pepper", "Scholl's", "Martens", "Bronner's",
]  # fmt: skip
_NOT_BRAND = (
    r"(?!"
    + alternation(
        b.replace(" ", r"[ \t]+").replace("'", "['\u2019]")
        for b in title_and_upper(_BRANDS)
    )
    + r"(?![\w'\u2019\-])(?![ \t]+[A-Z][a-z]))"
)
# Header roles that introduce a clinician: "Attending: ...", "Dictated by: ...".
_ROLE = (
    r"(?i:attending|resident|fellow|intern|pcp|admitting|referring|consultant"
    r"|surgeon|anesthesiologist|provider|physician|cardiologist|oncologist"
    r"|(?:dictated|ordered|signed|cosigned|co-signed|reviewed|seen|examined"
    r"|referred|transcribed|read|interpreted|approved|verified)[ \t]+by"
    r"|electronically[ \t]+signed[ \t]+by|cc|signed|cosigned|co-signed"
    r"|(?:discharging|admitting|attending|referring|primary)[ \t]+(?:md|physician"
    r"|provider))"
)
# Relatives and contacts of the patient (PATIENT in i2b2).
_RELATIVE = (
    r"(?i:mother|father|mom|dad|wife|husband|spouse|partner|son|daughter|sister"
    r"|brother|aunt|uncle|niece|nephew|cousin|grandmother|grandfather|grandson"
    r"|granddaughter|grandchild|boyfriend|girlfriend|fianc[eé]e?|friend|neighbor"
    r"|neighbour|roommate|stepdaughter|stepson|stepmother|stepfather|guardian"
    r"|caregiver|sibling)"
)
# Header cues for the patient or a contact.
_PATIENT_HEAD = (
    r"(?i:patient|pt|name|patient[ \t]+name|pt[ \t]+name|emergency[ \t]+contact"
    r"|next[ \t]+of[ \t]+kin|nok|guarantor|health[ \t]+care[ \t]+proxy|hcp|proxy"
    r"|guardian|call[ \t]+from|caller|spoke[ \t]+with)"
)
# Clinicians named by what they did, without a colon: "msg taken by Amber
# Garcia", "discussed with Carol Madden, fellow", "f/u S.Sellers 08/07".
_ACTION = (
    r"(?i:(?:msg|message|call)[ \t]+taken[ \t]+by|taken[ \t]+by|triaged[ \t]+by"
    r"|discussed[ \t]+with|d/w|paged|f/u(?:[ \t]+with)?|follow[ \-]?up[ \t]+with"
    r"|fax(?:ed)?[ \t]+to|records[ \t]+from|seen[ \t]+(?:and[ \t]+examined[ \t]+)?with"
    r"|(?:will[ \t]+)?(?:route|forward|send)(?:ed)?[ \t]+to"
    r"|(?:saw|examined)[ \t]+(?:and[ \t]+examined[ \t]+)?the[ \t]+patient"
    r"[ \t]+with)"
)
# A patient line that starts with the name: "SMITH, JOHN  MRN 1234567",
# "Jessica Leonard / 63yoF / DOB ...", "Palmer, Rodney\tMRN ...".
_ID_FIELD = (
    r"(?:(?:[ \t]{2,}|[ \t]*[/|\t][ \t]*)(?:(?i:mrn|mr[ \t]*#|dob|med[ \t]+rec"
    r"|unit[ \t]+no|acct)\b|\d{1,3}[ \t]*(?i:yo|y/o|y\.o\.)?[ \t]*(?i:[mf]|male"
    r"|female)\b)|[ \t]*\([A-Z]?\d{6,}\))"
)
# An age and sex in parentheses after a name: "(45yoF)", "(32 y.o. male)".
_AGE_SEX = (
    r"[ \t]*\([ \t]*\d{1,3}[ \t\-]*(?i:yo|y/o|y\.o\.|year[ \t\-]old)?[ \t]*"
    r"(?i:[mf]|male|female|man|woman)\b"
)


def _name(id: str, label: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_NAME)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # Dr. Smith / Dr Smith / DR. SMITH / dr. Smith / Doctor John A. Smith /
    # Dr. Smith, John
    _name(
        "name.doctor_title",
        "DOCTOR",
        r"\b(?:Dr|DR|dr|Doctor|DOCTOR)\b\.?"
        + _AFTER_TITLE
        + _NOT_BRAND
        + r"(?P<phi>"
        + _LAST_FIRST
        + r"|"
        + _PARTICLE_NAME
        + r"|"
        + _NAME
        + r")",
        # "435 Roberts Dr Lynn, MA": "Dr" is a street suffix there.
        exclude_before=r"\b\d{1,6}[ \t]+(?:[A-Z][A-Za-z'\-]*[ \t]+){1,3}"
        r"(?:Dr|DR)\.?[ \t]*" + END,
        score=0.9,
    ),
    # Mr. Jones / Mrs. Ann Jones / Ms. Jones / Miss Jones -> PATIENT
    _name(
        "name.patient_title",
        "PATIENT",
        # Upper-case MR/MS need the dot (mitral regurgitation, multiple sclerosis).
        r"\b(?:(?:MR|MRS|MS|Mr|Mrs|Ms|Mx)\."
        + _AFTER_TITLE
        + r"|(?:Mr|Mrs|Ms|Mx|Miss)[ \t]+)"
        + _NOT_BRAND
        + r"(?P<phi>"
        + _PARTICLE_NAME
        + r"|"
        + _NAME
        + r")",
        score=0.85,
    ),
    # Header lines: "Patient: Jones, Robert", "Name: Lynne R. Roberts  Unit #",
    # "Emergency contact: Mark, Scott (nephew)".
    _name(
        "name.patient_header",
        "PATIENT",
        BOL
        + r"[ \t]*"
        + _PATIENT_HEAD
        + r"[ \t]*:[ \t]*(?P<phi>"
        + _COMMA_NAME
        + r"|"
        + _NAME
        + r")"
        + _HEADER_END,
        flags="m",
        score=0.85,
    ),
    # "his mother Amanda", "her boyfriend David Warren" -> PATIENT (relatives).
    _name(
        "name.relative",
        "PATIENT",
        r"\b(?i:his|her|their|pt'?s|patient'?s|the[ \t]+patient'?s)[ \t]+"
        + _RELATIVE
        + r"[ \t]*,?[ \t]+(?P<phi>"
        + _TITLE_NAME
        + r")",
        validator="relative_name",
        score=0.75,
    ),
    # "Son (Tom Baker)", "daughter (Maria, HCP)" -> PATIENT (relatives).
    _name(
        "name.relative_paren",
        "PATIENT",
        r"\b" + _RELATIVE + r"[ \t]*\([ \t]*(?P<phi>" + _TITLE_NAME + r")[ \t]*[),;]",
        validator="relative_name",
        score=0.75,
    ),
    # "wife, Ann, is at bedside" -> PATIENT: a name set off by commas.
    _name(
        "name.relative_appositive",
        "PATIENT",
        r"\b" + _RELATIVE + r",[ \t]*(?P<phi>" + _TITLE_NAME + r"),",
        validator="relative_name",
        score=0.7,
    ),
    # "Attending: John Smith", "Dictated by: Catherine Lewis", "cc: C. Pham, MD".
    _name(
        "name.role_header",
        "DOCTOR",
        r"\b"
        + _ROLE
        + r"[ \t]*:[ \t]*(?:(?:Dr|DR|dr)\.?[ \t]+)?(?P<phi>"
        + _NAME2
        + r")"
        + _HEADER_END,
        flags="m",
        score=0.8,
    ),
    # Jane Smith, MD / J. Smith RN / Smith, PA-C -> DOCTOR
    _name(
        "name.credential",
        "DOCTOR",
        # "Smith, MD" (comma, any name) or "Jane Smith MD" (2+ name parts).
        r"(?<![\w.])(?P<phi>"
        + _NAME
        + r"(?=,)|"
        + _NAME2
        + r")(?:,?[ \t]+"
        + alternation(_CREDENTIALS)
        + r"|,[ \t]"
        + alternation(_LOWER_CREDENTIALS)
        + r")"
        # "Requesting MD: Dr. X" is a role label, not a name; "BALTIMORE MD 21292"
        # is a city and state.
        + r"(?![\w\-]|[ \t]*:|[ \t]*\d{5})",
        # "OOB MD aware", "NH RN Borras": the credential used as a noun.
        exclude_after=r"^,?[ \t]+\S+[ \t]+(?i:aware|notified|is|was|to|will|made"
        r"|updated|at|paged|called|informed|contacted|said|says|recommends"
        r"|recommended)\b",
        score=0.85,
    ),
    # "msg taken by Amber Garcia", "d/w Carol Madden, fellow", "f/u S.Sellers".
    _name(
        "name.action",
        "DOCTOR",
        r"\b"
        + _ACTION
        + r"[ \t]*:?[ \t]*(?:(?:Dr|DR|dr)\.?[ \t]+)?(?P<phi>"
        + _LAST_FIRST
        + r"|"
        + _NAME2
        + r")",
        score=0.75,
    ),
    # A patient line that opens with the name: "SMITH, JOHN  MRN 1234567",
    # "Jessica Leonard / 63yoF / DOB 10-03-1943".
    _name(
        "name.patient_line",
        "PATIENT",
        BOL
        + r"[ \t]*(?P<phi>"
        + _COMMA_NAME
        + r"|"
        + _NAME2
        + r")(?="
        + _ID_FIELD
        + r")",
        score=0.8,
    ),
    # A bed list's row: the room, a lower-case name, the age and the sex
    # ("447 hammer 89 F", "bed 12: ruiz-lomas 78f", "bed 3: tove 85yo m",
    # "2) 4114b  quil de vantreese  84f"),
    # as the train split's sign-out lists write it; there the name may be an
    # ordinary word.
    _name(
        "name.bed_list",
        "PATIENT",
        BOL
        + r"[ \t*\-]*(?:\d{1,2}[.)][ \t]+)?(?:(?i:bed|rm|room)[ \t]*)?#?\d{1,4}"
        r"[A-Za-z]?[:.)]?[ \t]+"
        r"(?!(?:units?|tabs?|caps?|amps?|puffs?|drops?|days?|hrs?|mins?)\b)"
        r"(?P<phi>[a-z][a-z'\-]+(?:[ \t][a-z][a-z'\-]+){0,2})[ \t]+\d{1,3}[ \t]?"
        r"(?:y/?o|yr?s?)?[ \t]?[mfMF]\b",
        score=0.8,
    ),
    # A message about a patient: "Re: KIM, Sandra", "Re: Jason Taneja (32 M)":
    # "Last, First", or a name followed by age and sex.
    _name(
        "name.regarding",
        "PATIENT",
        BOL
        + r"[ \t]*(?i:re|regarding)[ \t]*:[ \t]*(?P<phi>"
        + _COMMA_NAME
        + _HEADER_END
        + r"|"
        + _NAME2
        + r"(?="
        + _AGE_SEX
        + r"))",
        score=0.8,
    ),
]

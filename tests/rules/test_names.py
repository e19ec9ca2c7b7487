"""Name patterns from titles and credentials."""

import pytest

from spacy_deid.rules.patterns import family_patterns

NAME_LABELS = {"DOCTOR", "PATIENT"}

# (pattern id, text, expected span, label)
POSITIVES = [
    ("name.doctor_title", "seen by Dr. Smith today", "Smith", "DOCTOR"),
    ("name.doctor_title", "Dr Smith", "Smith", "DOCTOR"),
    ("name.doctor_title", "DR. SMITH", "SMITH", "DOCTOR"),
    ("name.doctor_title", "Doctor John A. Smith", "John A. Smith", "DOCTOR"),
    ("name.doctor_title", "Dr. J. Smith", "J. Smith", "DOCTOR"),
    ("name.doctor_title", "Dr. Smith's office", "Smith", "DOCTOR"),
    ("name.doctor_title", "Dr. O'Brien", "O'Brien", "DOCTOR"),
    ("name.doctor_title", "Dr. McDonald-Jones", "McDonald-Jones", "DOCTOR"),
    ("name.doctor_title", "Dr. Smith, John", "Smith, John", "DOCTOR"),
    ("name.doctor_title", "Dr. Smith, Cardiology", "Smith", "DOCTOR"),
    ("name.doctor_title", "cc: Dr.\nSmith", "Smith", "DOCTOR"),
    ("name.doctor_title", "Dr. Smith Today", "Smith", "DOCTOR"),
    ("name.patient_title", "Mr. Jones is", "Jones", "PATIENT"),
    ("name.patient_title", "Mrs. Ann Jones", "Ann Jones", "PATIENT"),
    ("name.patient_title", "Ms Lee", "Lee", "PATIENT"),
    ("name.patient_title", "Miss Jones", "Jones", "PATIENT"),
    ("name.patient_title", "MR. JONES", "JONES", "PATIENT"),
    (
        "name.patient_header",
        "Patient: Jones, Robert    MRN: 1234567",
        "Jones, Robert",
        "PATIENT",
    ),
    (
        "name.patient_header",
        "Patient Name: Robert Jones\nDOB",
        "Robert Jones",
        "PATIENT",
    ),
    ("name.patient_header", "Pt: Jones, Robert A", "Jones, Robert A", "PATIENT"),
    ("name.doctor_title", "ordered by dr. Kayla Johnston", "Kayla Johnston", "DOCTOR"),
    ("name.doctor_title", "dr. Nelson, Debra  Pager 9-5311", "Nelson, Debra", "DOCTOR"),
    ("name.doctor_title", "DR. D.Austin", "D.Austin", "DOCTOR"),
    ("name.doctor_title", "Dr. Ánh T. Nguyễn", "Ánh T. Nguyễn", "DOCTOR"),
    ("name.doctor_title", "seen by Dr. van Oordt today", "van Oordt", "DOCTOR"),
    ("name.doctor_title", "Dr van der Wiel to see", "van der Wiel", "DOCTOR"),
    ("name.doctor_title", "d/w Dr. Ilse de Moraes", "Ilse de Moraes", "DOCTOR"),
    ("name.patient_title", "Mrs. de Kuyper called", "de Kuyper", "PATIENT"),
    (
        "name.patient_header",
        "Emergency contact: Mark, Scott (nephew)",
        "Mark, Scott",
        "PATIENT",
    ),
    ("name.patient_header", "Patient: Lê, Yến\nDOB", "Lê, Yến", "PATIENT"),
    ("name.relative", "his mother Amanda at bedside", "Amanda", "PATIENT"),
    ("name.relative", "her boyfriend David Warren\n", "David Warren", "PATIENT"),
    ("name.relative_paren", "Son (Tom Baker) at bedside", "Tom Baker", "PATIENT"),
    ("name.relative_paren", "daughter (Maria) present", "Maria", "PATIENT"),
    ("name.relative_paren", "Son (Tom Baker, HCP)", "Tom Baker", "PATIENT"),
    ("name.relative_appositive", "His wife, Ann, is here.", "Ann", "PATIENT"),
    ("name.relative_appositive", "Daughter, Maria, visited.", "Maria", "PATIENT"),
    (
        "name.role_header",
        "Attending: DAVID LOGAN  Resident: Michael Kelly",
        "Michael Kelly",
        "DOCTOR",
    ),
    (
        "name.role_header",
        "Dictated by: Elisa L. Caldeira\nD:",
        "Elisa L. Caldeira",
        "DOCTOR",
    ),
    ("name.role_header", "CC: C. Phạm, MD", "C. Phạm", "DOCTOR"),
    ("name.credential", "Jane Smith, MD", "Jane Smith", "DOCTOR"),
    ("name.credential", "signed J. Smith, M.D.", "J. Smith", "DOCTOR"),
    ("name.credential", "Mary Jones RN", "Mary Jones", "DOCTOR"),
    ("name.credential", "Tom Lee, PA-C", "Tom Lee", "DOCTOR"),
    ("name.credential", "Kim Park, NP", "Kim Park", "DOCTOR"),
    # Line endings other than "\n" (every case also runs in test_line_endings).
    ("name.doctor_title", "cc: Dr.\r\nLucas Whalen", "Lucas Whalen", "DOCTOR"),
    ("name.doctor_title", "cc: Dr.\rLucas Whalen", "Lucas Whalen", "DOCTOR"),
    (
        "name.patient_header",
        "Patient: Hendrickson, Ora\r\nMRN: 7194334",
        "Hendrickson, Ora",
        "PATIENT",
    ),
    (
        "name.patient_header",
        "x\rPatient: Hendrickson, Ora\rMRN: 7194334",
        "Hendrickson, Ora",
        "PATIENT",
    ),
    # A brand word after a title is a name when another name word follows.
    ("name.doctor_title", "Dr. Pepper Smith", "Pepper Smith", "DOCTOR"),
    ("name.doctor_title", "Dr. Scholl", "Scholl", "DOCTOR"),
    ("name.patient_title", "Mr. Dashwood", "Dashwood", "PATIENT"),
    # Credentials added later, and lower-case ones after a comma.
    ("name.credential", "Triaged by G. Jordan, RRT", "G. Jordan", "DOCTOR"),
    ("name.credential", "MICHELLE MORGAN, md facp", "MICHELLE MORGAN", "DOCTOR"),
    ("name.credential", "Signed: Ann Lee, cna", "Ann Lee", "DOCTOR"),
    ("name.role_header", "Signed: Sherry Ramirez\n", "Sherry Ramirez", "DOCTOR"),
    ("name.role_header", "Discharging MD: A Cole\n", "A Cole", "DOCTOR"),
    ("name.action", "msg taken by Amber Garcia 5/31", "Amber Garcia", "DOCTOR"),
    ("name.action", "Discussed with Carol Madden, fellow.", "Carol Madden", "DOCTOR"),
    ("name.action", "f/u S.Sellers 08/07", "S.Sellers", "DOCTOR"),
    ("name.action", "will route to ALEXIS COLLINS. Dr. on", "ALEXIS COLLINS", "DOCTOR"),
    (
        "name.action",
        "Records from Reynolds, David reviewed",
        "Reynolds, David",
        "DOCTOR",
    ),
    ("name.action", "faxed to Elsa G. Arteaga @ 555", "Elsa G. Arteaga", "DOCTOR"),
    (
        "name.action",
        "I saw and examined the patient with Laksh C. Bahri and agree",
        "Laksh C. Bahri",
        "DOCTOR",
    ),
    ("name.patient_line", "NGUYEN, Minh  MRN 0666159", "NGUYEN, Minh", "PATIENT"),
    (
        "name.patient_line",
        "x\nKAREN HAMILTON  MRN 48483218",
        "KAREN HAMILTON",
        "PATIENT",
    ),
    (
        "name.patient_line",
        "Jessica Leonard / 63yoF / DOB 10-03-1943",
        "Jessica Leonard",
        "PATIENT",
    ),
    (
        "name.patient_line",
        "COX, Dominique (6313279)\nReport",
        "COX, Dominique",
        "PATIENT",
    ),
    ("name.patient_header", "Spoke with: Gary Peters\n", "Gary Peters", "PATIENT"),
    ("name.regarding", "Re: KIM, Sandra\n", "KIM, Sandra", "PATIENT"),
    ("name.regarding", "RE: RODNEY CAMPBELL (76M)", "RODNEY CAMPBELL", "PATIENT"),
    ("name.regarding", "Re: Jason Taneja (32 y.o. male)", "Jason Taneja", "PATIENT"),
    ("name.bed_list", "SIGNOUT\n412 hammer 81 F - cellulitis", "hammer", "PATIENT"),
    ("name.bed_list", "bed 7b: ruiz-lomas 64m, CHF", "ruiz-lomas", "PATIENT"),
    ("name.bed_list", "  - 23 van wyk 70 M", "van wyk", "PATIENT"),
    ("name.bed_list", "2) 4114b  quil de vantreese  84f", "quil de vantreese", "PATIENT"),
    ("name.bed_list", "bed 11:\tquillon 85yo m -- CHF", "quillon", "PATIENT"),
    ("name.bed_list", "bed 9: haverty 73yM -- pyelo", "haverty", "PATIENT"),
    ("name.bed_list", "rm 4 oduro 60 y/o F", "oduro", "PATIENT"),
]

NEGATIVES = [
    "2 units 40 m",  # a dose, not a bed list
    "seen in 412 with hammer 81 F",  # not at the start of a line
    "Mr. Patient",
    "Dr. Office",
    "the doctor said",
    "MR 2+",
    "MS flare",
    "did not miss doses",
    "Dr.\n\nSmith",  # a blank line in between
    "Dr. smith",  # lower case
    "Dr. de la",  # particles alone
    "Dr. al Said",  # "al" is a word too ("et al")
    "Internal Medicine, MD",
    "Cardiology, NP",
    "Patient: Alert and oriented",
    "spoke with Charge RN",
    "per ICU RN",
    "d/w covering NP",
    "his father CAD",
    "his wife Called",
    "Attending: Agree with plan",
    "Attending: Agree",
    "Requesting MD: see below",
    "Discharging MD: PHILIP",
    "Destination:\tDR\nDOS:\tFebruary 5",
    "RT in at 0400 OOB MD aware c/o.",
    "SBT passed, VSS, MD aware",
    "Per NH RN Borrás, pt",
    "vent AC , BRP OOB MD aware RT",
    "Patient: Tolerating diet well",
    "The patient: Smith said",  # not at the start of a line
    "Mother (Breast Cancer)",
    "Father (Deceased)",
    "brother (Alive, 60)",
    "son (HCP)",
    "Mother, Father, and Sister healthy",
    "sister, Parkinson's, ",
    "his mother Alzheimer's",
    "Bill was paid",
    "Dr.\r\n\r\nSmith",  # a blank line in between
    "Dr.\r\rSmith",
    # Brands that read as a title and a surname.
    "Mr. Coffee",
    "drinks a Mr. Coffee brew",
    "Mrs. Dash",
    "Mrs. Dash seasoning",
    "Dr. Pepper",
    "DR. PEPPER",
    "a can of Dr. Pepper, then",
    "Dr. Scholl's",
    "Dr. Scholl\u2019s inserts",
    "Mrs. Butterworth's",
    # Found by the large hypothesis run: a header field after a title at the
    # end of a line is not a name.
    "cc: Dr\r\nSSN 945645873",
    "Dr.\nNPI 1234567893",
    "Dr\nAcct 2260469429",
    # Cues of the newer patterns before departments, services and topics.
    "discussed with Social Work",
    "f/u Heme Onc in 2 weeks",
    "d/w Renal Fellow",
    "will route to Billing Office",
    "faxed to Home Health Services",
    "Records from Outside Hospital reviewed",
    "paged Rapid Response Team",
    "Records from Prior Admission reviewed",
    "discussed with Outside Pharmacy",
    "Re: Lab Results",
    "Re: Follow Up",
    "Re: medication refill (3 M tabs)",
    "Signed: Agree with the plan",
    "123 Main St SW",
    "Baltimore, md 21201",
    "MRN 1234567  DOB 01/02/1960",
    "Plan  MRN pending",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_names_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_names_negative(find, text):
    assert [e for e in find(text) if e[1] in NAME_LABELS] == []


def test_name_does_not_cross_newline(find):
    assert find("Dr. Smith\nPlan: rest") == [("Smith", "DOCTOR")]


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_name_does_not_cross_any_line_break(find, newline):
    assert find(f"Dr. Smith{newline}Plan: rest") == [("Smith", "DOCTOR")]
    text = f"Patient: Hendrickson, Ora{newline}Plan"
    assert find(text) == [("Hendrickson, Ora", "PATIENT")]


def test_title_and_credential_agree(find):
    assert find("Dr. Jane Smith, MD") == [("Jane Smith", "DOCTOR")]


def test_every_name_pattern_tested():
    ids = {p["id"] for p in family_patterns("names")}
    assert ids == {p[0] for p in POSITIVES}

"""Tests for spacy_deid.ClinicalTokenizer.v1 (spacy_deid/text/tokenizer.py)."""

import pickle
import re
import subprocess
import sys

import pytest
import spacy
from spacy.util import make_tempdir

from spacy_deid.text.tokenizer import MAX_AFFIX_RUN, TOKEN_MATCH, _scope_flags

TOKENIZER_CONFIG = {
    "nlp": {"tokenizer": {"@tokenizers": "spacy_deid.ClinicalTokenizer.v1"}}
}

# (text, expected tokens). Whitespace tokens are listed as spaCy makes them.
SPLIT_CASES = [
    # A title glued by its period to a name in lower case or capitals.
    ("per dr.okonkwo.", ["per", "dr.", "okonkwo", "."]),
    ("PER DR.OKORO.", ["PER", "DR.", "OKORO", "."]),
    ("ms.brask called", ["ms.", "brask", "called"]),
    ("dr.okonkwo@clinic.org", ["dr.okonkwo@clinic.org"]),
    # Dates glued to words.
    ("09/14/2067CPT", ["09/14/2067", "CPT"]),
    ("Results02/20/2087", ["Results", "02/20/2087"]),
    ("on09/14/2067", ["on", "09/14/2067"]),
    # Ages glued to the article or unit.
    ("a26", ["a", "26"]),
    ("26yo", ["26", "yo"]),
    ("a26 yo", ["a", "26", "yo"]),
    ("a26yo male", ["a", "26", "yo", "male"]),
    ("26y/o", ["26", "y/o"]),
    ("26yoM", ["26", "yoM"]),
    ("45F", ["45", "F"]),
    # Camel-case glue.
    ("WhalenChief", ["Whalen", "Chief"]),
    ("USMeaningful", ["US", "Meaningful"]),
    ("WhalenChief Complaint", ["Whalen", "Chief", "Complaint"]),
    ("WhalenChiefComplaint", ["Whalen", "Chief", "Complaint"]),
    ("McDonaldChief", ["McDonald", "Chief"]),
    ("109 121 1400Prior", ["109", "121", "1400", "Prior"]),
    ("hcuutaj@bdd.comOther", ["hcuutaj@bdd.com", "Other"]),
    ("www.bdd.comOther", ["www.bdd.com", "Other"]),
    # Field labels glued to values.
    ("MR:6746781", ["MR", ":", "6746781"]),
    ("MRN#12345", ["MRN", "#", "12345"]),
    ("Tel:617-555-1234", ["Tel", ":", "617-555-1234"]),
    ("DOB:01/02/1960", ["DOB", ":", "01/02/1960"]),
    ("MRN-12345", ["MRN", "-", "12345"]),
    ("MRN12345", ["MRN", "12345"]),
    ("Email:joe@x.org", ["Email", ":", "joe@x.org"]),
    # Records with separators, and key=value pairs.
    (
        "869|E06-1336|2021-05-25|Berry",
        ["869", "|", "E06-1336", "|", "2021-05-25", "|", "Berry"],
    ),
    ("user=CAO352;src=10.1.2.3", ["user", "=", "CAO352", ";", "src", "=", "10.1.2.3"]),
    ("ACV813,172.49.154.54,VIEW", ["ACV813", ",", "172.49.154.54", ",", "VIEW"]),
    ("mrn=52-208-093", ["mrn", "=", "52-208-093"]),
    ("HTN;DM;CAD", ["HTN", ";", "DM", ";", "CAD"]),
    (
        "2067-03-01T08:15Z,jsmith2,10.1.2.3,VIEW",
        ["2067-03-01", "T08:15Z", ",", "jsmith2", ",", "10.1.2.3", ",", "VIEW"],
    ),
    ("A|B|C", ["A", "|", "B", "|", "C"]),
    ("a|b||c;d", ["a", "|", "b", "|", "|", "c", ";", "d"]),
    ("1,000 mg", ["1,000", "mg"]),
    # Dates glued to times.
    ("2097-12-09T0800Z", ["2097-12-09", "T0800Z"]),
    (
        "11/18/02T14:30Z;user=JCR748;src=1",
        ["11/18/02", "T14:30Z", ";", "user", "=", "JCR748", ";", "src", "=", "1"],
    ),
    ("08:15,SJ512,EXPORT", ["08:15", ",", "SJ512", ",", "EXPORT"]),
    ("on4/16.", ["on", "4/16", "."]),
    ("pH7.35", ["pH", "7.35"]),
    ("10/30/20250800", ["10/30/2025", "0800"]),
    ("08/17/9411:00", ["08/17/94", "11:00"]),
    ("08/15/2069at noon", ["08/15/2069", "at", "noon"]),
    # Titles, extensions, signatures.
    ("DrBarry Wood", ["Dr", "Barry", "Wood"]),
    ("x645-3055", ["x", "645-3055"]),
    ("617-555-0142x12", ["617-555-0142", "x12"]),
    ("Tel:617.555.0142ext.12,", ["Tel", ":", "617.555.0142", "ext.12", ","]),
    ("X5493", ["X", "5493"]),
    ("-S Johnson", ["-", "S", "Johnson"]),
    ("91y", ["91", "y"]),
    ("38Y.O.", ["38", "Y.O."]),
    # Phone numbers, with their punctuation split off.
    ("(416) 943-8331", ["(", "416", ")", "943-8331"]),
    ("Call 617-555-1234.", ["Call", "617-555-1234", "."]),
    ("(617.555.1234)", ["(", "617.555.1234", ")"]),
    # Periods and initials.
    ("J. Smith", ["J", ".", "Smith"]),
    ("Dr. Smith", ["Dr.", "Smith"]),
    ("Dr.Smith", ["Dr.", "Smith"]),
    ("DR.Smith", ["DR", ".", "Smith"]),
    ("in 2014.The", ["in", "2014", ".", "The"]),
    ("Apt 3B.", ["Apt", "3B", "."]),
    ("Na 140 mEq/L.", ["Na", "140", "mEq/L", "."]),
    # Units after numbers.
    ("0.5mg", ["0.5", "mg"]),
    ("120/80mmHg", ["120/80", "mmHg"]),
    ("5mg/kg", ["5", "mg/kg"]),
    # Abbreviations inside text.
    ("take 5mg b.i.d. x 3d.", ["take", "5", "mg", "b.i.d.", "x", "3d", "."]),
    ("(s/p CABG)", ["(", "s/p", "CABG", ")"]),
    ("w/pain", ["w/", "pain"]),
    # Hyphen and slash ranges keep spaCy's splits.
    ("5-10", ["5", "-", "10"]),
    ("2010-2015", ["2010", "-", "2015"]),
    ("09/14/2067-09/20/2067", ["09/14/2067", "-", "09/20/2067"]),
    ("9/14/2067-9/16/2067", ["9/14/2067", "-", "9/16/2067"]),
    ("9/14-9/16", ["9/14", "-", "9/16"]),
    ("09/14/2067-", ["09/14/2067", "-"]),
    ("seen 09/14/2067-\nback", ["seen", "09/14/2067", "-", "\n", "back"]),
    # ALLCAPS glued to a word of two lowercase letters or more.
    ("EKGNormal", ["EKG", "Normal"]),
    # Whitespace keeps its offsets.
    ("x\r\ny", ["x", "\r\n", "y"]),
    ("x\ry", ["x", "\r", "y"]),
    ("Dr.\r\nSmith", ["Dr.", "\r\n", "Smith"]),
    ("Dr.\rSmith", ["Dr.", "\r", "Smith"]),
    (
        "MR:123\r\nDOB:01/02/1960\r",
        ["MR", ":", "123", "\r\n", "DOB", ":", "01/02/1960", "\r"],
    ),
    ("end.\r\n\r\nNext\r\rLine", ["end", ".", "\r\n\r\n", "Next", "\r\r", "Line"]),
    ("a\t\tb  c\r\n\r\nd", ["a", "\t\t", "b", " ", "c", "\r\n\r\n", "d"]),
    ("Dr.\nSmith", ["Dr.", "\n", "Smith"]),
    ("Dr. \n John Smith", ["Dr.", "\n ", "John", "Smith"]),
    ("\n\nName:  John\n", ["\n\n", "Name", ":", " ", "John", "\n"]),
    # Lower case glued to ALLCAPS, a room glued to a capitalized word.
    ("Dr. Ruth KaneMD", ["Dr.", "Ruth", "Kane", "MD"]),
    ("NAME: Lee, AnnMRN: 12", ["NAME", ":", "Lee", ",", "Ann", "MRN", ":", "12"]),
    ("seen atICU", ["seen", "at", "ICU"]),
    ("Rm 12BOvernight", ["Rm", "12B", "Overnight"]),
    # Age and sex, numbers glued to words.
    ("(42f)", ["(", "42", "f", ")"]),
    ("6M with fever", ["6", "M", "with", "fever"]),
    ("Ward 3appt", ["Ward", "3", "appt"]),
    ("Bed 4NOTES", ["Bed", "4", "NOTES"]),
    ("on the9th", ["on", "the", "9th"]),
    ("the 2ndfloor", ["the", "2nd", "floor"]),
    ("at 10the", ["at", "10", "the"]),
    ("bed 3there", ["bed", "3", "there"]),
    ("15stitches", ["15", "stitches"]),
    ("since'97", ["since", "'", "97"]),
    ("12/05/2071D/C", ["12/05/2071", "D/C"]),
    ("555-867-5309F/U", ["555-867-5309", "F/U"]),
    # Times glued to dates of every shape.
    ("2071-05-120900", ["2071-05-12", "0900"]),
    ("2071-05-1214:30", ["2071-05-12", "14:30"]),
    ("05-12-20710900", ["05-12-2071", "0900"]),
    ("12-May-20710900", ["12", "-", "May-2071", "0900"]),
    ("12MAY20710900", ["12MAY2071", "0900"]),
    ("12MAY20719:30", ["12MAY2071", "9:30"]),
    ("05.12.20710900", ["05.12.2071", "0900"]),
    ("June 3 207111:45", ["June", "3", "2071", "11:45"]),
    ("12MAY2071T0930Z", ["12MAY2071", "T0930Z"]),
    ("12-May-2071T09:30Z;user=ab", ["12-May-2071", "T09:30Z", ";", "user", "=", "ab"]),
    # Phone numbers: the "+", a word glued to "(" or to an abbreviation.
    ("+44 20 7946 0000", ["+", "44", "20", "7946", "0000"]),
    ("Tel.+44 20", ["Tel.", "+", "44", "20"]),
    ("Fig.2", ["Fig.", "2"]),
    ("phone(555)867-5309", ["phone", "(555)867-5309"]),
    ("call(555) 867-5309", ["call", "(", "555", ")", "867-5309"]),
    # A word glued to a URL; emails glued to their field label.
    ("seehttps://example.org/x", ["see", "https://example.org/x"]),
    ("E-mail.ann.lee@example.org", ["E-mail", ".", "ann.lee@example.org"]),
    ("Email-ann@example.org", ["Email", "-", "ann@example.org"]),
    # A record field after a word and a comma.
    ("VIEW,123-45-67", ["VIEW", ",", "123-45-67"]),
    # Periods: two of them, after a single capital, between words.
    ("Blvd..", ["Blvd", ".", "."]),
    ("Apt 4..", ["Apt", "4", ".", "."]),
    ("wait...", ["wait", "..."]),
    ("ID 4471-K.", ["ID", "4471", "-", "K", "."]),
    ("ST. E'S.", ["ST", ".", "E", "'S", "."]),
    ("K.Lund", ["K", ".", "Lund"]),
    ("A.B.Chen", ["A.B", ".", "Chen"]),
    ("Lugo.e-mail", ["Lugo", ".", "e", "-", "mail"]),
    ("works at Acme Inc.", ["works", "at", "Acme", "Inc", "."]),
    ("Acme Ltd. in", ["Acme", "Ltd", ".", "in"]),
    ("Ann Lee Jr.", ["Ann", "Lee", "Jr", "."]),
    # Hyphens and slashes glued to words, parentheses to numbers.
    ("Clinic-.", ["Clinic", "-", "."]),
    ("Lee/***", ["Lee", "/", "*", "*", "*"]),
    ("**/Ann", ["*", "*", "/", "Ann"]),
    ("(Ward 8)", ["(", "Ward", "8", ")"]),
    ("DrK Lund", ["Dr", "K", "Lund"]),
]

# Spanish: (text, expected tokens).
SPANISH_SPLIT_CASES = [
    ("28001-Madrid", ["28001", "-", "Madrid"]),
    ("Lugo-España", ["Lugo", "-", "España"]),
    ("LópezNºCol: 28", ["López", "NºCol", ":", "28"]),
    ("Calle Mayor, 3, 2º-B.", ["Calle", "Mayor", ",", "3", ",", "2º-B", "."]),
    ("piso 3º.", ["piso", "3º", "."]),
    ("4ª.", ["4ª", "."]),
    ("5 Izq..", ["5", "Izq", ".", "."]),
    ("Hospital del Mar-.", ["Hospital", "del", "Mar", "-", "."]),
    ("Tfno.+34 600", ["Tfno.", "+", "34", "600"]),
    ("Correo-ana@ejemplo.es", ["Correo", "-", "ana@ejemplo.es"]),
    ("Vigo.e-mail", ["Vigo", ".", "e", "-", "mail"]),
    ("Localidad/ Provincia", ["Localidad", "/", "Provincia"]),
]

# Strings that must stay one token, alone and inside a sentence.
SINGLE_TOKENS = [
    # Contact details and IDs.
    "hcuutaj@bdd.com",
    "first.last+tag@mail.example.org",
    "http://www.example.com/PathName?a=1",
    "www.example.com",
    "943-8331",
    "617-555-1234",
    "617.555.1234",
    "1-800-555-1234",
    "(416)943-8331",
    "258-16-49-2",
    "123-45-6789",
    "02115-1234",
    "7600593-6",
    "2001:db8::1",
    "fe80::1ff:fe23:4567:890a",
    "2001:0db8:0000:0000:0000:ff00:0042:8329",
    "::1",
    "00:1a:2b:3c:4d:5e",
    # Dates, times, numbers.
    "09/14/2067",
    "2067-09-14",
    "14.09.2067",
    "12MAR2067",
    "12Mar67",
    "3/14",
    "14:30",
    "7.35",
    "120/80",
    # Clinical abbreviations.
    "b.i.d.",
    "q.d.",
    "t.i.d.",
    "p.o.",
    "B.I.D.",
    "Dr.",
    "Mr.",
    "Mrs.",
    "Ms.",
    "e.g.",
    "i.e.",
    "a.m.",
    "p.m.",
    "s/p",
    "w/",
    "w/o",
    "c/o",
    "h/o",
    "ACEi",
    "PMHx",
    "ABGs",
    "UAs",
    "CXRs",
    "EKGs",
    "PEx",
    "FHx",
    "SHx",
    "HPIs",
    "NSAIDs",
    "mRNA",
    "pCO2",
    # Names.
    "McDonald",
    "MacArthur",
    "O'Brien",
    "DeVries",
    "LaToya",
    # Units and lab names.
    "mmHg",
    "mEq/L",
    "mg/dL",
    "mcg/kg/min",
    "HbA1c",
    "pH",
    "mEq",
    "iPhone",
    "SpO2",
    "B12",
    "q12h",
    "COVID-19",
    "1st",
    "21st",
    "21ST",
    "1,000",
    "1,234,567",
    "x100",
    "Drew",
    # Kept whole although they look like glued text.
    "q4hrs",
    "G6PD",
    "V1F",
    "1er",
    "2do",
    "J.R.",
    "M.D.",
    "3.14159265",
    "+1-800-555-0199",
    "09-530625",
    "20710512",
    "lesion.12",
]


@pytest.fixture(scope="module")
def nlp():
    return spacy.blank("en", config=TOKENIZER_CONFIG)


def assert_offsets(doc, text, expected):
    """Check tokens, `doc.text` and every `token.idx` against `text`."""
    assert doc.text == text
    assert [t.text for t in doc] == expected
    pos = 0
    for token, orth in zip(doc, expected, strict=True):
        if orth.isspace():
            # A whitespace token follows the single space owned by the token
            # before it, so `find` could land one character early.
            assert text[token.idx : token.idx + len(orth)] == orth
        else:
            assert token.idx == text.find(orth, pos)
        pos = token.idx + len(orth)


@pytest.mark.parametrize("text,expected", SPLIT_CASES)
def test_clinical_tokenizer_splits(nlp, text, expected):
    assert_offsets(nlp(text), text, expected)


@pytest.mark.parametrize("text", SINGLE_TOKENS)
def test_clinical_tokenizer_single_token(nlp, text):
    assert [t.text for t in nlp(text)] == [text]


@pytest.mark.parametrize("text", SINGLE_TOKENS)
def test_clinical_tokenizer_single_token_in_context(nlp, text):
    sentence = f"Seen {text} today"
    assert_offsets(nlp(sentence), sentence, ["Seen", text, "today"])


def test_clinical_tokenizer_is_registered(nlp):
    tokenizer_cfg = nlp.config["nlp"]["tokenizer"]
    assert tokenizer_cfg["@tokenizers"] == "spacy_deid.ClinicalTokenizer.v1"


@pytest.mark.parametrize("lang", ["en", "es", "xx"])
def test_clinical_tokenizer_other_languages(lang):
    nlp = spacy.blank(lang, config=TOKENIZER_CONFIG)
    text = "MR:6746781 WhalenChief 09/14/2067CPT Tel:617-555-1234"
    expected = ["MR", ":", "6746781", "Whalen", "Chief", "09/14/2067", "CPT"]
    expected += ["Tel", ":", "617-555-1234"]
    assert_offsets(nlp(text), text, expected)


@pytest.mark.parametrize("text,expected", SPANISH_SPLIT_CASES)
def test_clinical_tokenizer_spanish_splits(text, expected):
    nlp = spacy.blank("es", config=TOKENIZER_CONFIG)
    assert_offsets(nlp(text), text, expected)


@pytest.mark.parametrize("text", ["1er", "2do", "3ra", "Dr.", "Avda."])
def test_clinical_tokenizer_spanish_single_token(text):
    nlp = spacy.blank("es", config=TOKENIZER_CONFIG)
    assert [t.text for t in nlp(text)] == [text]


def test_clinical_tokenizer_double_period_after_exception():
    """An exception keeps its period before a second one ("Dr.." -> "Dr."
    "."): spaCy re-checks special cases after splitting a suffix."""
    nlp = spacy.blank("en", config=TOKENIZER_CONFIG)
    assert [t.text for t in nlp("Dr..")] == ["Dr.", "."]


@pytest.mark.parametrize(
    "pattern,scoped",
    [("(?iu)^a-b$", "(?i:^a-b$)"), ("(?u)x", "(?:x)"), ("^x$", "^x$")],
)
def test_scope_flags(pattern, scoped):
    """A language's own token_match (French has "(?iu)...") can join ours."""
    assert _scope_flags(pattern) == scoped
    token_match = re.compile(TOKEN_MATCH + "|" + scoped).match
    assert token_match("617-555-1234")
    assert bool(token_match("A-B")) == (pattern == "(?iu)^a-b$")


def test_clinical_tokenizer_keeps_text_of_a_note(nlp):
    text = (
        "Record date: 2067-09-14\r\n\r\nNAME:  Whalen, Ann\tMRN#12345\n"
        "HPI:a26 yo F s/p CABG 2065.BP 120/80mmHg, HR 72.\n"
        "Plan:  ASA 81mg p.o. q.d.; f/u w/Dr.Smith (617)555-1234 x 2wks.  \n"
    )
    doc = nlp(text)
    assert doc.text == text
    assert "".join(t.text_with_ws for t in doc) == text
    for token in doc:
        assert text[token.idx : token.idx + len(token)] == token.text


def test_clinical_tokenizer_line_breaks_stay_alone(nlp):
    """CR, LF and CRLF are whitespace tokens of their own, never glued to a
    word."""
    text = "Name: Ann\r\nMRN:12345\rDOB: 01/02/1960\n\r\nPlan:\r\n- ASA\r"
    doc = nlp(text)
    assert "".join(t.text_with_ws for t in doc) == text
    for token in doc:
        if not token.is_space:
            assert "\r" not in token.text and "\n" not in token.text
    assert [t.text for t in doc if t.is_space] == ["\r\n", "\r", "\n\r\n", "\r\n", "\r"]


def test_clinical_tokenizer_long_runs(nlp):
    """Runs longer than MAX_AFFIX_RUN are split by the infixes only: record
    separators still split, offsets stay exact."""
    row = "2067-03-01T08:15Z,jsmith2,10.1.2.3,VIEW"
    text = ",".join([row] * 10)
    assert len(text) > MAX_AFFIX_RUN
    doc = nlp(text)
    assert_offsets(doc, text, [t.text for t in doc])
    words = [t.text for t in doc]
    # Split at every comma; the affix rules do not apply, so the date is
    # split at its hyphens by spaCy's infixes (a known gap).
    assert words.count(",") == text.count(",")
    assert all("," not in w for w in words if w != ",")
    assert {"jsmith2", "10.1.2.3", "VIEW"} <= set(words)
    assert len(nlp("a;" * 4000)) == 8000
    assert [t.text for t in nlp("ab|" * 3000)][:3] == ["ab", "|", "ab"]
    # A long URL with a scheme stays whole.
    url = "https://example.org/" + "a" * 300
    assert [t.text for t in nlp(f"see {url} now")] == ["see", url, "now"]


def test_clinical_tokenizer_empty_and_whitespace(nlp):
    assert len(nlp("")) == 0
    for text in [" ", "\n", "\r\n\t ", "   \n\n  "]:
        assert nlp(text).text == text


def test_clinical_tokenizer_to_disk_and_load(nlp):
    texts = [text for text, _ in SPLIT_CASES] + SINGLE_TOKENS
    with make_tempdir() as d:
        nlp.to_disk(d)
        loaded = spacy.load(d)
        # A stock tokenizer that only reads the saved rules.
        plain = spacy.blank("en")
        plain.tokenizer.from_disk(d / "tokenizer")
    for text in texts:
        expected = [t.text for t in nlp(text)]
        assert [t.text for t in loaded(text)] == expected
        assert [t.text for t in plain(text)] == expected


def test_clinical_tokenizer_to_bytes_and_pickle(nlp):
    texts = [text for text, _ in SPLIT_CASES]
    plain = spacy.blank("en")
    plain.tokenizer.from_bytes(nlp.tokenizer.to_bytes())
    unpickled = pickle.loads(pickle.dumps(nlp))
    for text in texts:
        expected = [t.text for t in nlp(text)]
        assert [t.text for t in plain(text)] == expected
        assert [t.text for t in unpickled(text)] == expected


def test_clinical_tokenizer_entry_point_without_import():
    """The registered name resolves in a fresh interpreter through the entry
    point, with no `import spacy_deid`."""
    code = (
        "import spacy\n"
        f"nlp = spacy.blank('en', config={TOKENIZER_CONFIG!r})\n"
        "print('|'.join(t.text for t in nlp('WhalenChief')))\n"
    )
    out = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, check=True
    )
    assert out.stdout.strip() == "Whalen|Chief"

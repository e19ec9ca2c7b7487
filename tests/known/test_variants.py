"""Surface variants of known PHI (`spacy_deid.known.variants`)."""

import time

import pytest

from spacy_deid.known.dates import DateParts, parse_date
from spacy_deid.known.names import name_parts, name_readings
from spacy_deid.known.variants import compile_known, label_family, variants


def found(items, text):
    """The matched strings, in text order."""
    return [text[m.start : m.end] for m in compile_known(items).find(text)]


def longest(items, text):
    """The maximal matched strings (the union of overlapping matches)."""
    spans = []
    for m in compile_known(items).find(text):
        if spans and m.start < spans[-1][1]:
            spans[-1][1] = max(spans[-1][1], m.end)
        else:
            spans.append([m.start, m.end])
    return [text[s:e] for s, e in spans]


NAME = [{"text": "Smith, John Quincy", "label": "PATIENT"}]


@pytest.mark.parametrize(
    "text,expected",
    [
        ("Smith, John Quincy", "Smith, John Quincy"),
        ("SMITH, JOHN", "SMITH, JOHN"),
        ("smith, john q.", "smith, john q."),
        ("John Smith", "John Smith"),
        ("John Q. Smith", "John Q. Smith"),
        ("John Quincy Smith", "John Quincy Smith"),
        ("J. Smith", "J. Smith"),
        ("J Smith", "J Smith"),
        ("J. Q. Smith", "J. Q. Smith"),
        ("Smith J.", "Smith J."),
        ("Smith, J.", "Smith, J."),
        ("Smith John", "Smith John"),
        ("Jack Smith", "Jack Smith"),  # nickname of John
        ("John\nSmith", "John\nSmith"),  # wrapped line
    ],
)
def test_name_variants(text, expected):
    note = f"Seen: {text} today."
    assert longest(NAME, note) == [expected]


def test_name_parts_alone_and_case():
    note = "Mr. SMITH said john would call; quincy too."
    assert found(NAME, note) == ["SMITH", "john", "quincy"]


def test_name_parts_guard():
    """Short words and stop words are not searched alone."""
    items = [{"text": "Will Al Lee-Ray", "label": "PATIENT"}]
    assert name_parts("Will Al Lee-Ray") == ["Lee-Ray", "Lee", "Ray"]
    note = "She will see Al and Lee."
    assert found(items, note) == ["Lee"]
    # Without parts, only full-name forms match.
    assert compile_known(items, min_part_length=0).find(note) == []


def test_name_not_inside_words():
    items = [{"text": "Ann Lee", "label": "PATIENT"}]
    assert found(items, "Annual planning; Leeway; Ann's visit; ANN.") == [
        "Ann",
        "ANN",
    ]


def test_name_accents_titles_and_compound_family_names():
    items = [{"text": "Dra. Lucía Ferrer Soler", "label": "DOCTOR"}]
    assert name_readings("Dra. Lucía Ferrer Soler") == [
        (["Lucía"], ["Ferrer", "Soler"]),
        (["Lucía", "Ferrer"], ["Soler"]),
        (["Lucía"], ["Ferrer"]),
    ]
    assert longest(items, "Firma: Ferrer Soler, Lucia.") == ["Ferrer Soler, Lucia"]
    assert longest(items, "Dra. L. Ferrer Soler") == ["L. Ferrer Soler"]
    assert longest(items, "LUCÍA FERRER") == ["LUCÍA FERRER"]
    assert found(items, "Dra") == []  # the title is not a name part


@pytest.mark.parametrize(
    "known",
    ["1950-03-07", "03/07/1950", "7 March 1950", "March 7, 1950", "19500307"],
)
@pytest.mark.parametrize(
    "written",
    [
        "03/07/1950",
        "3/7/1950",
        "3/7/50",
        "03-07-1950",
        "1950-03-07",
        "1950/3/7",
        "19500307",
        "March 7, 1950",
        "Mar 7 1950",
        "Mar. 7th, 1950",
        "7 March 1950",
        "7th of March, 1950",
        "07-MAR-1950",
        "07MAR50",
        "7 de marzo de 1950",
        "March 7",
        "7 Mar",
    ],
)
def test_birth_date_formats(known, written):
    """A birth date given in one format is found in the others."""
    items = [{"text": known, "label": "DATE"}]
    note = f"DOB: {written} (confirmed)"
    assert longest(items, note) == [written]


def test_date_european_order_and_no_false_dates():
    items = [{"text": "7 March 1950", "label": "DATE"}]
    assert longest(items, "geb. 07.03.1950") == ["07.03.1950"]
    note = "BP 3/7, 17/3/1950, 7/3/19501, 1950 total, March 17, 1950"
    assert found(items, note) == []


def test_parse_date():
    assert parse_date("03/07/1950") == [
        DateParts(7, 3, (1950,)),
        DateParts(3, 7, (1950,)),
    ]
    assert parse_date("13/07/1950") == [DateParts(13, 7, (1950,))]
    assert parse_date("7 de marzo de 1950") == [DateParts(7, 3, (1950,))]
    assert parse_date("07-Mar-50") == [DateParts(7, 3, (1950, 2050))]
    assert parse_date("March 1950") == [DateParts(None, 3, (1950,))]
    assert parse_date("Christmas") == []
    assert parse_date("02/30/1950") == []


def test_unparsable_date_is_matched_exactly():
    items = [{"text": "Easter 1950", "label": "DATE"}]
    assert found(items, "since easter 1950.") == ["easter 1950"]


@pytest.mark.parametrize(
    "written",
    ["0012345", "12345", "000012345", "00-12345", "12 345", "123-45", "1.2.3.4.5"],
)
def test_mrn_separators_and_leading_zeros(written):
    items = [{"text": "0012345", "label": "MEDICALRECORD"}]
    assert longest(items, f"MRN: {written}.") == [written]


def test_mrn_not_inside_longer_numbers():
    items = [{"text": "12345", "label": "MEDICALRECORD"}]
    assert found(items, "912345 and 123456 and 12345678") == []
    assert found(items, "MRN12345") == ["12345"]  # letters may touch it


def test_other_ids_keep_their_zeros():
    items = [{"text": "123-45-6789", "label": "SSN"}]
    assert longest(items, "SSN 123 45 6789; 123456789.") == [
        "123 45 6789",
        "123456789",
    ]
    items = [{"text": "00123", "label": "SSN"}]  # zeros are not optional
    assert found(items, "00123 and 123 and 00 123") == ["00123", "00 123"]
    items = [{"text": "A.12", "label": "IDNUM"}]  # too short to be flexible
    assert found(items, "a.12, A12, A 12, A/12") == ["a.12"]


@pytest.mark.parametrize(
    "written",
    [
        "(617) 555-0142",
        "617-555-0142",
        "617.555.0142",
        "617 555 0142",
        "6175550142",
        "+1 617 555 0142",
        "1-617-555-0142",
    ],
)
def test_phone_formats(written):
    items = [{"text": "(617) 555-0142", "label": "PHONE"}]
    spans = longest(items, f"Call {written} now")
    assert len(spans) == 1 and spans[0] in written and spans[0].endswith("0142")
    assert "617" in spans[0]


def test_spanish_phone_with_country_code():
    items = [{"text": "+34 912 345 678", "label": "PHONE"}]
    assert longest(items, "Tfno: 912345678") == ["912345678"]
    assert longest(items, "Tfno: 0034 912-34-56-78") == ["0034 912-34-56-78"]


@pytest.mark.parametrize(
    "written",
    [
        "12 Main Street",
        "12 Main St.",
        "12 MAIN ST",
        "12 Main Str",
        "Main St",
        "12 Main Street, Apt 4",
        "12 Main St Apt. 4",
    ],
)
def test_street_abbreviations(written):
    items = [{"text": "12 Main Street, Apartment 4", "label": "STREET"}]
    assert longest(items, f"Lives at {written}, Boston") == [written]


@pytest.mark.parametrize(
    "known,written",
    [
        ("45 North Elm Avenue", "45 N. Elm Ave"),
        ("9 Sunset Boulevard", "9 Sunset Blvd."),
        ("3 Oak Road", "3 Oak Rd"),
        ("3 Oak Drive", "3 Oak Dr."),
        ("Calle Mayor 5", "C/ Mayor 5"),
        ("Calle Mayor 5", "C/Mayor 5"),
        ("Avenida de la Paz 12", "Avda. de la Paz 12"),
        ("Avenida de la Paz 12", "Av. de la Paz"),
    ],
)
def test_street_forms(known, written):
    items = [{"text": known, "label": "STREET"}]
    assert longest(items, f"Domicilio: {written} (casa)") == [written]


def test_other_labels_exact_case_insensitive():
    items = [{"text": "Mass General", "label": "HOSPITAL"}]
    assert found(items, "At MASS  GENERAL; massgeneral; Mass Generally") == [
        "MASS  GENERAL"
    ]


def test_label_families_and_meddocan_labels():
    assert label_family("PATIENT") == "name"
    assert label_family("patient") == "name"
    assert label_family("NOMBRE_SUJETO_ASISTENCIA") == "name"
    assert label_family("FECHAS") == "date"
    assert label_family("ID_SUJETO_ASISTENCIA") == "id"
    assert label_family("NUMERO_TELEFONO") == "phone"
    assert label_family("CALLE") == "street"
    assert label_family("CITY") == "exact"
    assert label_family("SOMETHING_ELSE") == "exact"
    item = {"text": "Lucía Ferrer", "label": "NOMBRE_SUJETO_ASISTENCIA"}
    assert len(variants(item)) > 3


def test_overlapping_items_are_all_found():
    items = [
        {"text": "Ann Lee", "label": "PATIENT"},
        {"text": "Lee Road", "label": "STREET"},
    ]
    matches = compile_known(items).find("Ann Lee Road")
    assert {("Ann Lee Road"[m.start : m.end], m.label) for m in matches} >= {
        ("Ann Lee", "PATIENT"),
        ("Lee Road", "STREET"),
    }


def test_compile_is_cached():
    items = [{"text": "John Smith", "label": "PATIENT"}]
    assert compile_known(items) is compile_known([dict(items[0])])


def test_many_items_on_a_long_text_stay_fast():
    """Dozens of items over a 1 MB text: one pass, well under the pipeline's
    own cost (a loose bound: this is not a benchmark)."""
    items = [{"text": f"Name{i} Surname{i}", "label": "PATIENT"} for i in range(30)]
    items += [
        {"text": "1950-03-07", "label": "DATE"},
        {"text": "0012345", "label": "MEDICALRECORD"},
        {"text": "(617) 555-0142", "label": "PHONE"},
        {"text": "12 Main Street", "label": "STREET"},
    ]
    line = "Seen on 3/4 with BP 120/80 and pain 2067 mg daily; Smithfield note.\n"
    text = line * (1_000_000 // len(line)) + "Name7 Surname7 DOB 3/7/1950"
    matcher = compile_known(items)
    start = time.perf_counter()
    matches = matcher.find(text)
    assert time.perf_counter() - start < 30
    assert [text[m.start : m.end] for m in matches] == [
        "Name7 Surname7",
        "Surname7",
        "3/7/1950",
    ]


def test_words_after_underscores_and_digits_inside_words():
    items = [{"text": "John Smith", "label": "PATIENT"}]
    # "jsmith" is "J Smith" without the space; "_" separates words.
    assert found(items, "user jsmith_john; file smith_j.txt; xsmith") == [
        "jsmith",
        "john",
        "smith",
    ]
    items = [{"text": "1950-03-07", "label": "DATE"}]
    assert found(items, "DOB03/07/1950") == ["03/07/1950"]

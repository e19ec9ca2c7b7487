"""SSN, MEDICALRECORD, ACCOUNT, HEALTHPLAN, LICENSE, VEHICLE, DEVICE, BIOID,
IDNUM patterns and their validators."""

import re

import pytest

from spacy_deid.rules import validators
from spacy_deid.rules.patterns import family_patterns

ID_LABELS = {
    "SSN",
    "MEDICALRECORD",
    "ACCOUNT",
    "HEALTHPLAN",
    "LICENSE",
    "VEHICLE",
    "DEVICE",
    "BIOID",
    "IDNUM",
}

# (pattern id, text, expected span, label)
POSITIVES = [
    ("healthplan.mbi", "MBI 7TW3-KH8-PX52 on file", "7TW3-KH8-PX52", "HEALTHPLAN"),
    ("ssn.dashed", "SS card: 123-45-6789.", "123-45-6789", "SSN"),
    ("ssn.masked", "benefits (xxx-xx-5182) on file", "xx-5182", "SSN"),  # token-aligned
    ("ssn.cued", "SSN 123 45 6789", "123 45 6789", "SSN"),
    ("ssn.cued", "Social Security Number: 123456789", "123456789", "SSN"),
    ("ssn.cued", "SS# 123-45-6789", "123-45-6789", "SSN"),
    ("mrn.cued", "MRN: 7194334", "7194334", "MEDICALRECORD"),
    ("mrn.cued", "KING, Ann  MRN 4443 694  Call back", "4443 694", "MEDICALRECORD"),
    ("mrn.cued", "UNIT NUMBER: 4374 147\nADMITTED", "4374 147", "MEDICALRECORD"),
    ("mrn.cued", "MRN 4443694 120 mg daily", "4443694", "MEDICALRECORD"),
    ("mrn.cued", "MR # 258-16-49-2", "258-16-49-2", "MEDICALRECORD"),
    ("mrn.cued", "MR:6746781", "MR:6746781", "MEDICALRECORD"),  # one token today
    ("mrn.cued", "MR No. 0123456", "0123456", "MEDICALRECORD"),
    ("mrn.cued", "MC # 12345678", "12345678", "MEDICALRECORD"),
    ("mrn.cued", "Medical record number: BH 1234567", "BH 1234567", "MEDICALRECORD"),
    ("mrn.cued", "Unit No: 123-45-67", "123-45-67", "MEDICALRECORD"),
    ("mrn.cued", "mrn 00-112-345", "00-112-345", "MEDICALRECORD"),
    ("mrn.i2b2_shape", "Record 258-16-49-2 reviewed", "258-16-49-2", "MEDICALRECORD"),
    ("account.cued", "Acct # 12345678", "12345678", "ACCOUNT"),
    ("account.cued", "Account number: A-0012345", "A-0012345", "ACCOUNT"),
    ("healthplan.cued", "Member ID: XJH123456789", "XJH123456789", "HEALTHPLAN"),
    ("healthplan.cued", "Policy # 99887766", "99887766", "HEALTHPLAN"),
    ("healthplan.cued", "Medicaid # 123456789", "123456789", "HEALTHPLAN"),
    ("healthplan.cued", "Medicare No. 1EG4TE5MK73", "1EG4TE5MK73", "HEALTHPLAN"),
    ("healthplan.cued", "insurance ID 55512345", "55512345", "HEALTHPLAN"),
    ("healthplan.cued", "Group #: 004455", "004455", "HEALTHPLAN"),
    ("license.npi", "NPI: 1234567893", "1234567893", "LICENSE"),
    ("license.cued", "License # 12345", "12345", "LICENSE"),
    ("license.cued", "Lic. 0012345", "0012345", "LICENSE"),
    ("license.cued", "DEA # AB1234563", "AB1234563", "LICENSE"),
    ("license.cued", "CLIA #48483-S", "48483-S", "LICENSE"),
    ("license.cued", "NPI 2120229438", "2120229438", "LICENSE"),  # fails Luhn
    ("license.dea", "prescriber AB1234563 signed", "AB1234563", "LICENSE"),
    ("vehicle.vin", "car 1HGCM82633A004352 towed", "1HGCM82633A004352", "VEHICLE"),
    ("vehicle.vin_cued", "VIN: WVWZZZ1JZXW000001", "WVWZZZ1JZXW000001", "VEHICLE"),
    ("vehicle.plate", "license plate 4ABC123", "4ABC123", "VEHICLE"),
    ("vehicle.plate", "plate # 4AB-123", "4AB-123", "VEHICLE"),
    ("vehicle.plate", "driver of a SUV (plate 322-YZK).", "322-YZK", "VEHICLE"),
    ("vehicle.plate", "(reg 26P 1C8)", "26P 1C8", "VEHICLE"),
    ("vehicle.unit", "by ground, County EMS Medic 14  Room 2", "Medic 14", "VEHICLE"),
    ("vehicle.unit", "per crew of ENGINE 3 on scene", "ENGINE 3", "VEHICLE"),
    ("healthplan.cued", "Primary ins: Keystone Mutual grp 40718", "40718", "HEALTHPLAN"),
    ("healthplan.cued", "Ins UJO325462726 SSN", "UJO325462726", "HEALTHPLAN"),
    (
        "healthplan.cued",
        "INSURANCE: Tufts HP #QTZ70361364-81",
        "QTZ70361364-81",
        "HEALTHPLAN",
    ),
    ("ssn.cued", "SSN: 913048696", "913048696", "SSN"),  # invalid area, but cued
    ("device.cued", "s/n aao973746s; supplier", "aao973746s", "DEVICE"),
    ("device.cued", "PPM # SN-00041796 AGAIN", "SN-00041796", "DEVICE"),
    ("device.cued", "VP shunt # YLI369058Z again", "YLI369058Z", "DEVICE"),
    ("device.cued", "Port sn WWD012245L noted", "WWD012245L", "DEVICE"),
    ("device.cued", "Device I284655311; supplier", "I284655311", "DEVICE"),
    ("device.cued", "pacemaker serial # PJN123456", "PJN123456", "DEVICE"),
    ("device.cued", "S/N: 12345-ABC", "12345-ABC", "DEVICE"),
    ("device.cued", "model # 5076-52", "5076-52", "DEVICE"),
    ("device.cued", "SN: AB12345", "AB12345", "DEVICE"),
    ("device.cued", "sensor transmitter ID 7RW2QK paired", "7RW2QK", "DEVICE"),
    ("bioid.cued", "fingerprint ID 88812345", "88812345", "BIOID"),
    ("bioid.cued", "retinal scan ID: RS-0042117", "RS-0042117", "BIOID"),
    ("idnum.cued", "Accession # S67-12345", "S67-12345", "IDNUM"),
    ("idnum.cued", "Specimen #: 12-34567", "12-34567", "IDNUM"),
    ("idnum.cued", "Order # 555123", "555123", "IDNUM"),
    ("idnum.cued", "Lab # 123456", "123456", "IDNUM"),
    ("idnum.cued", "Case # 2067-123", "2067-123", "IDNUM"),
    ("idnum.cued", "Path # SP-67-4433", "SP-67-4433", "IDNUM"),
    ("idnum.cued", "Study ID: 10042", "10042", "IDNUM"),
    ("idnum.cued", "Encounter #: 998877", "998877", "IDNUM"),
    ("idnum.cued", "ID: 4455667", "4455667", "IDNUM"),
    ("idnum.cued", "Requisition #E36835  PRIORITY", "E36835", "IDNUM"),
    ("idnum.cued", "Job #: E94359", "E94359", "IDNUM"),
    ("idnum.cued", "Tissue block SP-30-74242 sent", "SP-30-74242", "IDNUM"),
    ("idnum.cued", "ACC #: 680975759", "680975759", "IDNUM"),
    ("mrn.cued", '"mrn": "882-87-76"}', "882-87-76", "MEDICALRECORD"),
    ("bioid.cued", "Palm vein ID: RET66149065", "RET66149065", "BIOID"),
    ("bioid.cued", "Bio ID VP-U791", "VP-U791", "BIOID"),
]

NEGATIVES = [
    "Ambulance 2 mg given",  # a dose after a word, no unit's number
    "the medic 14 times",  # a unit's kind in lower case is an ordinary word
    "MR 2+",  # mitral regurgitation
    "moderate MR, no AS",
    "MRN: pending",
    "ID: f/u with ID",
    "ID consult recommended",
    "Lab: Na 140",
    "Lab # 12",  # fewer than 3 digits
    "000-12-3456",  # invalid SSN area
    "666-12-3456",
    "912-34-5678",
    "123-00-4567",
    "ID: WBC 4.5-11.0 ref",
    "heart block 3",
    "plate 12 holes",
    "regular insulin 10 units",
    "reg insulin",
    "Ins is pending",
    "lead II",
    "monitor # 2",
    "insulin 12345",
    "AB1234567",  # fails DEA checksum
    "1HGCM82633A004353",  # bad VIN check digit
    "platelets 250",
    "plate count 12",
    "on account of pain",
    "group B strep",
    "license plate unknown",
    "order set",
    "case discussed",
    "J45.909",
    "ICD-10 E11.9",
    "CPT 99213",
    "GCS 15",
    "serial exams",
    "serial troponins 0.01",
    "serial x-rays",
    "policy discussed",
    "mRNA-1273 vaccine",
    "ACCOUNTS 1234",
]


@pytest.mark.parametrize("pattern_id,text,span,label", POSITIVES)
def test_ids_positive(find, pattern_id, text, span, label):
    assert (span, label) in find(text)
    assert (span, label) in find(text, pattern_id=pattern_id)


@pytest.mark.parametrize("text", NEGATIVES)
def test_ids_negative(find, text):
    assert [e for e in find(text) if e[1] in ID_LABELS] == []


def test_cue_beats_shape(find):
    # An MRN cue in front of an SSN-shaped number makes it an MRN.
    assert find("MRN: 123-45-6789") == [("123-45-6789", "MEDICALRECORD")]


def _check(name, text):
    return validators.VALIDATORS[name](re.match(r".*", text), (0, len(text)))


@pytest.mark.parametrize(
    "name,text,ok",
    [
        ("npi", "1234567893", True),
        ("npi", "1234567890", False),
        ("dea", "AB1234563", True),
        ("dea", "AB1234564", False),
        ("vin", "1HGCM82633A004352", True),
        ("vin", "11111111111111111", False),  # no letters
        ("ssn", "123-45-6789", True),
        ("ssn", "900-12-3456", False),
        ("ssn", "123-45-0000", False),
        ("id_value", "A12", False),
        ("id_value", "A123", True),
        ("id_value", "7RW2QK", True),  # a code of letters and 2 digits
        ("id_value", "RW2QK", False),  # 1 digit
        ("id_value", "R2Q7", False),  # too short
        ("plate", "ABCDEFG", False),
        ("plate", "1234", False),
        ("plate", "4ABC123", True),
    ],
)
def test_id_validators(name, text, ok):
    assert (_check(name, text) is not None) is ok


def test_every_id_pattern_tested():
    ids = {p["id"] for p in family_patterns("ids")}
    assert ids == {p[0] for p in POSITIVES}


@pytest.mark.parametrize(
    "text,span",
    [
        ("MBI 7TW3-KH8-PX52 on the card", "7TW3-KH8-PX52"),
        ("beneficiary 7TW3KH8PX52.", "7TW3KH8PX52"),
        ("Medicare number: 3AC9-D45-RT06", "3AC9-D45-RT06"),
    ],
)
def test_medicare_beneficiary_identifier(find, text, span):
    """The CMS layout is enough, cue or not."""
    assert (span, "HEALTHPLAN") in find(text, pattern_id="healthplan.mbi")


@pytest.mark.parametrize(
    "text",
    [
        "7TW3-KH8PX52",  # one dash only
        "0TW3KH8PX52",  # starts with 0
        "7SW3KH8PX52",  # S is not an MBI letter
        "7TW3KH8PX521",  # 12 characters
        "A7TW3KH8PX52",
    ],
)
def test_not_medicare_beneficiary_identifier(find, text):
    assert find(text, pattern_id="healthplan.mbi") == []

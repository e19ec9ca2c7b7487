"""Identifier patterns: SSN, MEDICALRECORD, ACCOUNT, HEALTHPLAN, LICENSE,
VEHICLE, DEVICE, BIOID, IDNUM.

Most identifiers have no recognisable shape, so they need a cue ("MRN:",
"Acct #", "S/N"); the cue is context and only the value is the PHI span.
"""

from typing import List

from ._common import (
    CUE_SEP,
    PRIO_CUED,
    PRIO_SHAPE,
    PRIO_SHAPE_WEAK,
    make_pattern,
)

# An identifier value: letters/digits in dash/dot-separated groups starting
# with an upper-case letter or a digit ("7194334", "258-16-49-2", "VP-U791",
# "SP-30-74242"), optionally after an upper-case prefix and a space before 3+
# digits ("BH 1234567"; so "ID: WBC 4.5" is no ID). Slashes are excluded so that
# dates and fractions are never IDs. The `id_value` validator requires at
# least 3 digits.
_ID = r"(?:[A-Z]{1,4}[ ](?=\d{3}))?[A-Z0-9](?:[A-Za-z0-9]|[\-.](?=[A-Za-z0-9]))*"
# After a strong cue ("s/n") a value may also start in lower case.
_ID_ANYCASE = r"[A-Za-z0-9](?:[A-Za-z0-9]|[\-.](?=[A-Za-z0-9]))*"
_END = r"(?![A-Za-z0-9])"
# A record number printed in digit groups after an MRN cue ("MRN 4443 694").
_ID_GROUPED = r"\d{3,5}(?:[ ]\d{3,5})+(?![A-Za-z0-9])|" + _ID
# "#", "no.", "number", "num", "id" after a cue word.
_MARK = r"[ \t]*(?:#|no\b\.?|number\b|num\b|nbr\b|id\b)"


def _cued(id: str, label: str, cue: str, value: str = _ID, **kwargs) -> dict:
    """A pattern `cue + separator + (?P<phi>value)`."""
    # A cue ending in a letter must end a word: "mRNA-1273" has no "mrn" cue,
    # but "Requisition #E36835" has one.
    regex = (
        r"(?:"
        + cue
        + r")(?!(?<=[A-Za-z])[A-Za-z])"
        + CUE_SEP
        + r"(?P<phi>"
        + value
        + r")"
        + _END
    )
    kwargs.setdefault("validator", "id_value")
    kwargs.setdefault("priority", PRIO_CUED)
    return make_pattern(id, label, regex, **kwargs)


_MRN_CUE = (
    r"\b(?i:mrn|medical[ \t]+record(?:"
    + _MARK
    + r")?|med\.?[ \t]*rec\.?"
    + _MARK
    + r"|(?:unit|hospital|chart|patient)"
    + _MARK
    + r"|empi\b)"
    # "MR #", "MR:", "MR No", "MC #": upper case and an explicit marker, because
    # bare "MR" is mitral regurgitation.
    + r"|\bM[RC](?=[ \t]*(?:#|:|No\b|NO\b|Num|Number))"
)
_SSN_CUE = (
    r"\b(?i:ssn|ss[ \t]*#|soc(?:ial)?\.?[ \t]*sec(?:urity)?\.?(?:" + _MARK + r")?)"
)
_ACCOUNT_CUE = (
    r"\b(?i:acct|account|billing" + _MARK + r"|fin(?=[ \t]*[:#])"
    r"|financial" + _MARK + r")"
)
_HEALTHPLAN_CUE = (
    r"\b(?i:(?:member|subscriber|policy|beneficiary|medicaid|medicare|masshealth"
    r"|insurance|insurer|health[ \t]*plan|plan|coverage|hmo|ppo|bcbs"
    r"|blue[ \t]+cross(?:[ \t]+blue[ \t]+shield)?)"
    + _MARK
    + r"|group"
    + _MARK
    + r"|(?:hicn|mbi|policy|grp)\b)"
    # "Ins W548336566" (case-sensitive: "ins" is too common), and
    # "INSURANCE: Aetna #H51513700" (a payer name before the number sign).
    + r"|\b(?:Ins|INS)\b\.?(?=[ \t]*[:#]?[ \t]*[A-Z0-9]*\d)"
    + r"|\b(?i:insurance|insurer|payer|payor|plan)[ \t]*:[ \t]*"
    + r"(?:[A-Z][\w&.'\-]*[ \t]+){0,3}#"
)
_LICENSE_CUE = (
    # "license plate" is a VEHICLE, not a LICENSE.
    r"\b(?i:licen[cs]e(?![ \t]*plate)(?:" + _MARK + r")?|lic\b\.?(?:[ \t]*#)?"
    r"|dea(?:" + _MARK + r")?|certificate" + _MARK + r"|cert\b\.?[ \t]*#|clia"
    # An NPI that fails the Luhn check is still an identifier (typo or not).
    r"|npi)"
)
# Implanted or home devices: "PPM # ...", "Port sn ...", "VP shunt # ...".
_DEVICE_NOUN = (
    r"(?:model|catalog|catalogue|implant|pacemaker|ppm|icd|aicd|generator|port"
    r"|shunt|pump|stimulator|defibrillator|lead|cpap|bipap|concentrator|monitor"
    # Continuous glucose monitors: "transmitter ID ...", "sensor s/n ...".
    r"|transmitter|sensor|receiver|cgm)"
)
_DEVICE_CUE = (
    r"\b(?i:serial(?:"
    + _MARK
    + r")?|s/n|device(?:"
    + _MARK
    + r")?|udi|"
    + _DEVICE_NOUN
    + r"(?:"
    + _MARK
    + r"|[ \t]*(?:sn|s/n)\b))"
    + r"|\bSN(?=[ \t]*[:#])"
)
_BIOID_CUE = (
    r"\b(?i:(?:finger[ \t]*print|retinal?[ \t]*scan|iris[ \t]*scan|voice[ \t]*print"
    r"|palm[ \t]*(?:print|vein)|biometric|bio)(?:" + _MARK + r")?)"
)
_IDNUM_CUE = (
    r"\b(?i:(?:order|lab|case|path|pathology|study|encounter|enc|visit|sample"
    r"|reference|ref|confirmation|claim|pt|control|tracking|report|episode"
    r"|requisition|req|specimen|accession|accn|acc|job|block|rig|unit)"
    + _MARK
    + r"|(?:accession|accn|specimen|csn|tissue[ \t]+block)\b)"
    # "ID:" / "ID #" (upper case, with a marker: bare "ID" is infectious disease).
    + r"|\bI[Dd](?=[ \t]*[:#])"
)

# Medicare Beneficiary Identifier letters: A-Z without S, L, O, I, B, Z.
_MBI_A = "[AC-HJKMNP-RT-Y]"
_MBI_AN = "[AC-HJKMNP-RT-Y0-9]"
_MBI_HEAD = "[1-9]" + _MBI_A + _MBI_AN + r"\d"
_MBI_MID = _MBI_A + _MBI_AN + r"\d"
_MBI_TAIL = _MBI_A + _MBI_A + r"\d\d"

PATTERNS: List[dict] = [
    make_pattern(
        "ssn.dashed",
        "SSN",
        r"(?<![\w\-])(?P<phi>\d{3}-\d{2}-\d{4})(?![\w\-])",
        priority=PRIO_SHAPE,
        validator="ssn",
        score=0.9,
    ),
    # A masked SSN keeps its last four digits: "xxx-xx-4417", "***-**-2164".
    make_pattern(
        "ssn.masked",
        "SSN",
        r"(?<![\w\-*#])(?:[xX]{3}-[xX]{2}|\*{3}-\*{2}|#{3}-#{2})-(?P<phi>\d{4})(?![\w\-])",
        priority=PRIO_SHAPE,
        score=0.9,
    ),
    _cued(
        "ssn.cued",
        "SSN",
        _SSN_CUE,
        r"\d{3}[\- ]?\d{2}[\- ]?\d{4}",
        # With a cue, even an invalid area (9xx, typos, test data) is redacted.
        validator=None,
        score=0.98,
    ),
    _cued("mrn.cued", "MEDICALRECORD", _MRN_CUE, _ID_GROUPED, score=0.95),
    # The i2b2 MRN shape 258-16-49-2 is distinctive enough without a cue.
    make_pattern(
        "mrn.i2b2_shape",
        "MEDICALRECORD",
        r"(?<![\w\-])(?P<phi>\d{3}-\d{2}-\d{2}-\d)(?![\w\-])",
        priority=PRIO_SHAPE,
        score=0.8,
    ),
    _cued("account.cued", "ACCOUNT", _ACCOUNT_CUE, score=0.9),
    _cued("healthplan.cued", "HEALTHPLAN", _HEALTHPLAN_CUE, score=0.9),
    _cued(
        "license.npi",
        "LICENSE",
        r"\bNPI\b",
        r"\d{10}",
        validator="npi",
        score=0.98,
    ),
    _cued("license.cued", "LICENSE", _LICENSE_CUE, score=0.9),
    # DEA registration number without cue: registrant letter, last-name initial
    # (or 9), 7 digits with the DEA check digit.
    make_pattern(
        "license.dea",
        "LICENSE",
        r"(?<![A-Za-z0-9])(?P<phi>[ABCDEFGHJKLMPRSTUX][A-Z9]\d{7})(?![A-Za-z0-9])",
        priority=PRIO_SHAPE_WEAK,
        validator="dea",
        score=0.85,
    ),
    # Medicare Beneficiary Identifier (CMS): 11 characters in a fixed layout
    # (digit 1-9, letter, letter or digit, digit, letter, letter or digit,
    # digit, letter, letter, digit, digit), letters without S, L, O, I, B, Z,
    # dashes after the 4th and 7th characters or none. Two branches, not a
    # backreference, so that the pattern gets a scout.
    make_pattern(
        "healthplan.mbi",
        "HEALTHPLAN",
        r"(?<![A-Za-z0-9\-])(?P<phi>"
        + _MBI_HEAD
        + _MBI_MID
        + _MBI_TAIL
        + "|"
        + _MBI_HEAD
        + "-"
        + _MBI_MID
        + "-"
        + _MBI_TAIL
        + r")(?![A-Za-z0-9]|-\w)",
        priority=PRIO_SHAPE,
        score=0.95,
    ),
    # VIN: 17 characters without I, O, Q, with the check digit in position 9.
    make_pattern(
        "vehicle.vin",
        "VEHICLE",
        r"(?<![A-Za-z0-9])(?P<phi>[A-HJ-NPR-Z0-9]{17})(?![A-Za-z0-9])",
        priority=PRIO_SHAPE_WEAK,
        validator="vin",
        score=0.9,
    ),
    # With a "VIN" cue the check digit is not required (non-US VINs lack it).
    _cued(
        "vehicle.vin_cued",
        "VEHICLE",
        r"\b(?i:vin)\b",
        r"[A-HJ-NPR-Za-hj-npr-z0-9]{17}",
        validator=None,
        score=0.95,
    ),
    _cued(
        "vehicle.plate",
        "VEHICLE",
        # The validator wants a letter and a digit ("plate 12 holes" is no plate).
        r"\b(?i:(?:licen[cs]e|registration|tag)[ \t]+plate(?:" + _MARK + r")?"
        r"|plate(?:" + _MARK + r")?|reg(?:istration)?(?:" + _MARK + r")?|tag[ \t]*#)",
        r"[A-Z0-9]{1,4}[\- ]?[A-Z0-9]{1,4}",
        validator="plate",
        score=0.9,
    ),
    # EMS and fire units' call signs ("Medic 14", "Engine 3", "LADDER 12"):
    # the vehicle's own number, written with its kind in title case or capitals.
    make_pattern(
        "vehicle.unit",
        "VEHICLE",
        r"(?<![\w\-])(?P<phi>(?:Medic|MEDIC|Engine|ENGINE|Ladder|LADDER"
        r"|Squad|SQUAD|Ambulance|AMBULANCE|Battalion|BATTALION)"
        r"[ \t]+\d{1,3}[A-Z]?)(?![\w.\-]|[ \t]*(?:%|(?i:m?[lg]|mcg|kg|min|hr?s?|x)\b))",
        priority=PRIO_SHAPE_WEAK,
        score=0.8,
    ),
    _cued("device.cued", "DEVICE", _DEVICE_CUE, _ID_ANYCASE, score=0.9),
    _cued("bioid.cued", "BIOID", _BIOID_CUE, score=0.9),
    _cued("idnum.cued", "IDNUM", _IDNUM_CUE, score=0.85),
]

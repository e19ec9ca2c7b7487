"""Place tables and helpers for surrogates: US states and their ZIP ranges,
street suffixes and house numbers, hospital and department names."""

import random
import re
from typing import Dict, Optional, Tuple

from faker.providers.address.en_US import Provider as _AddressProvider

from .shapes import shape_replace

DEPARTMENTS = [
    "Cardiology", "Oncology", "Neurology", "Radiology", "Nephrology",
    "Gastroenterology", "Pulmonology", "Orthopedics", "Dermatology",
    "Endocrinology", "Urology", "Hematology", "Rheumatology", "Psychiatry",
    "Emergency Medicine", "Internal Medicine", "General Surgery", "Pediatrics",
    "Obstetrics", "Infectious Disease",
]  # fmt: skip
HOSPITAL_SUFFIXES = [
    "Medical Center", "General Hospital", "Hospital", "Clinic",
    "Regional Medical Center", "Community Hospital",
]  # fmt: skip
LOCATION_SUFFIXES = ["Park", "Plaza", "Square", "Center", "Building", "Tower", "Mall"]
# Spanish hospital names put the kind first ("Hospital General X").
ES_HOSPITAL_PREFIXES = [
    "Hospital", "Hospital General", "Hospital Universitario", "Clínica",
    "Hospital Clínico", "Centro de Salud",
]  # fmt: skip


STREET_NUMBER_RE = re.compile(r"^(\d+[A-Za-z]?)(\s+)(\S.*)$")

PO_BOX_RE = re.compile(
    r"(?i)^(\s*(?:p\.?\s*o\.?|post\s+office)\s*box\s*#?\s*)(\d+)(.*)$"
)
STREET_SUFFIXES = {
    suffix.lower() for suffix in _AddressProvider.street_suffixes
} | {
    "st", "ave", "av", "rd", "blvd", "ln", "dr", "ct", "pl", "ter", "cir", "pkwy",
    "hwy", "sq", "trl", "way", "aly", "expy", "fwy", "plz", "row", "xing",
}  # fmt: skip
STREET_WORD_RE = re.compile(r"[A-Za-z]+\.?")
# State name or abbreviation -> abbreviation; ZIP ranges per state.
# (Faker's abbreviation list has DC, its name list has not.)
STATES_BY_ABBR: Dict[str, str] = dict(
    zip(
        [abbr for abbr in _AddressProvider.states_abbr if abbr != "DC"],
        _AddressProvider.states,
        strict=True,
    )
)
STATES_BY_ABBR["DC"] = "District of Columbia"
_STATE_ABBRS: Dict[str, str] = {
    **{abbr.lower(): abbr for abbr in STATES_BY_ABBR},
    **{name.lower(): abbr for abbr, name in STATES_BY_ABBR.items()},
}
STATE_LIST = sorted(STATES_BY_ABBR)
ZIP_RANGES: Dict[str, Tuple[int, int]] = {
    abbr: rng
    for abbr, rng in _AddressProvider.states_postcode.items()
    if abbr in STATES_BY_ABBR
}


def state_abbr(text: str) -> Optional[str]:
    return _STATE_ABBRS.get(" ".join(text.strip().rstrip(".").lower().split()))


def zip_state(zip5: str) -> Optional[str]:
    number = int(zip5)
    for abbr, (low, high) in ZIP_RANGES.items():
        if low <= number <= high:
            return abbr
    return None


def house_number(number: str, rng: random.Random) -> str:
    new = shape_replace(number, rng)
    if new[0] == "0":
        new = rng.choice("123456789") + new[1:]
    return new


def es_hospital_prefix(text: str, rng: random.Random) -> str:
    lower = text.lower()
    if "centro de salud" in lower:
        return "Centro de Salud"
    if "clínica" in lower or "clinica" in lower:
        return "Clínica"
    return rng.choice(ES_HOSPITAL_PREFIXES)


def hospital_suffix(text: str, rng: random.Random) -> str:
    lower = text.lower()
    if "clinic" in lower:
        return "Clinic"
    if "hospital" in lower:
        return rng.choice(["General Hospital", "Hospital", "Community Hospital"])
    if "center" in lower or "centre" in lower:
        return rng.choice(["Medical Center", "Regional Medical Center"])
    return rng.choice(HOSPITAL_SUFFIXES)

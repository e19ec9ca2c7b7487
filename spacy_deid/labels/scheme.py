"""The PHI label scheme: i2b2 2014 subcategories, their categories, and HIPAA.

Every other module (rules, evaluation, surrogates, corpus readers) takes its
labels from here, so a label is defined in exactly one place.

HIPAA column: whether the HIPAA Safe Harbor method (45 CFR 164.514(b)(2))
requires removing the identifier. Safe Harbor covers names of the patient and
relatives/employers/household members (not clinicians), geographic subdivisions
smaller than a state (street, city, ZIP), all elements of dates except the year,
ages over 89, telephone/fax numbers, email, URLs, IP addresses, SSN, medical
record, health plan, account, certificate/license, vehicle and device numbers,
biometric identifiers and any other unique identifying number. Note that the
i2b2 2014 organisers' table marks URL and IPADDR as non-HIPAA; we follow the
regulation's text and mark them HIPAA.
"""

from dataclasses import dataclass
from typing import Dict, FrozenSet, List


@dataclass(frozen=True)
class PhiLabel:
    """One i2b2 2014 PHI subcategory."""

    name: str
    category: str
    hipaa: bool
    description: str


_LABELS: List[PhiLabel] = [
    PhiLabel("PATIENT", "NAME", True, "name of the patient or a relative"),
    PhiLabel("DOCTOR", "NAME", False, "name of a clinician or other staff"),
    PhiLabel("USERNAME", "NAME", False, "user name or login"),
    PhiLabel("PROFESSION", "PROFESSION", False, "job or profession"),
    PhiLabel("ROOM", "LOCATION", False, "room or bed number"),
    PhiLabel("DEPARTMENT", "LOCATION", False, "hospital department or unit"),
    PhiLabel("HOSPITAL", "LOCATION", False, "hospital, clinic or care facility"),
    PhiLabel("ORGANIZATION", "LOCATION", True, "employer or other organisation"),
    PhiLabel("STREET", "LOCATION", True, "street address"),
    PhiLabel("CITY", "LOCATION", True, "city or town"),
    PhiLabel("STATE", "LOCATION", False, "state or province"),
    PhiLabel("COUNTRY", "LOCATION", False, "country"),
    PhiLabel("ZIP", "LOCATION", True, "postal code"),
    PhiLabel("LOCATION_OTHER", "LOCATION", False, "other location or landmark"),
    PhiLabel("AGE", "AGE", True, "age (HIPAA: ages over 89)"),
    PhiLabel("DATE", "DATE", True, "date, day, month, year, season or holiday"),
    PhiLabel("PHONE", "CONTACT", True, "telephone or pager number"),
    PhiLabel("FAX", "CONTACT", True, "fax number"),
    PhiLabel("EMAIL", "CONTACT", True, "e-mail address"),
    PhiLabel("URL", "CONTACT", True, "web address"),
    PhiLabel("IPADDR", "CONTACT", True, "IP address"),
    PhiLabel("SSN", "ID", True, "social security number"),
    PhiLabel("MEDICALRECORD", "ID", True, "medical record number"),
    PhiLabel("HEALTHPLAN", "ID", True, "health plan or insurance number"),
    PhiLabel("ACCOUNT", "ID", True, "account number"),
    PhiLabel("LICENSE", "ID", True, "certificate or license number (incl. DEA, NPI)"),
    PhiLabel("VEHICLE", "ID", True, "vehicle identifier or licence plate"),
    PhiLabel("DEVICE", "ID", True, "device identifier or serial number"),
    PhiLabel("BIOID", "ID", True, "biometric identifier"),
    PhiLabel("IDNUM", "ID", True, "any other identifying number"),
]

LABELS: Dict[str, PhiLabel] = {label.name: label for label in _LABELS}
LABEL_NAMES: List[str] = [label.name for label in _LABELS]
CATEGORIES: List[str] = [
    "NAME",
    "PROFESSION",
    "LOCATION",
    "AGE",
    "DATE",
    "CONTACT",
    "ID",
]
HIPAA_LABELS: FrozenSet[str] = frozenset(lab.name for lab in _LABELS if lab.hipaa)

# i2b2 XML spells some subcategories differently.
I2B2_ALIASES: Dict[str, str] = {
    "LOCATION-OTHER": "LOCATION_OTHER",
    "OTHER": "LOCATION_OTHER",
}

_CATEGORY_COLORS = {
    "NAME": "#f4a3a3",
    "PROFESSION": "#d8c3f0",
    "LOCATION": "#a9d8f5",
    "AGE": "#f7d59c",
    "DATE": "#b7e4b0",
    "CONTACT": "#f5c6e0",
    "ID": "#e0e0a0",
}
PHI_COLORS: Dict[str, str] = {
    lab.name: _CATEGORY_COLORS[lab.category] for lab in _LABELS
}


# doc.spans key where `phi_rules` puts known non-PHI ("pain 2/10"); `phi_ner`
# drops model spans inside these.
NOT_PHI_KEY = "phi_not"


def normalize_label(label: str) -> str:
    """Return the canonical subcategory name for an i2b2-style label.

    label (str): A label such as "LOCATION-OTHER" or "patient".
    RETURNS (str): The canonical name, e.g. "LOCATION_OTHER".
    """
    upper = label.strip().upper()
    return I2B2_ALIASES.get(upper, upper)


def category_of(label: str) -> str:
    """Return the i2b2 category (NAME, LOCATION, ...) of a subcategory.

    Labels outside the scheme raise a KeyError.
    """
    return LABELS[normalize_label(label)].category


def is_hipaa(label: str) -> bool:
    """Whether HIPAA Safe Harbor requires removing this subcategory."""
    return LABELS[normalize_label(label)].hipaa


def labels_in_category(category: str) -> List[str]:
    """All subcategories of one i2b2 category, in scheme order."""
    return [lab.name for lab in _LABELS if lab.category == category]

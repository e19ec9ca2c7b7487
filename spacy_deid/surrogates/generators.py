"""Per-label surrogate values, derived from the secret key.

Every value is drawn from a `random.Random` seeded with
HMAC-SHA256(key, label family, patient, normalised value, attempt), so the
same string for the same patient always gets the same surrogate. Realistic
values (cities, companies...) come from one shared Faker instance reseeded
per value.
"""

import random
import re
from typing import Callable, Dict, Iterable, List, Optional

from faker import Faker
from faker.providers.person.en_US import Provider as _PersonProvider

from ..labels import LABELS, normalize_label
from .dates import shift_date_text
from .keys import derive_rng
from .shapes import (
    apply_case,
    has_alnum,
    normalize_alnum,
    normalize_text,
    random_capitals,
    shape_replace,
)

AGE_OVER_89_FLAG = "AGE_OVER_89"
AGE_OVER_89_TEXT = "90+"
ID_LABELS = ("SSN",) + tuple(
    name for name, lab in LABELS.items() if lab.category == "ID" and name != "SSN"
)

# HMAC "label family": labels that may be confused with each other share one,
# so a value labelled PATIENT in one note and DOCTOR in another stays consistent.
FAMILIES: Dict[str, str] = {
    "PATIENT": "NAME",
    "DOCTOR": "NAME",
    "PHONE": "PHONE",
    "FAX": "PHONE",
    **{label: "ID" for label in ID_LABELS},
}

_FIRST_MALE: List[str] = list(_PersonProvider.first_names_male)
_FIRST_FEMALE: List[str] = list(_PersonProvider.first_names_female)
_LAST: List[str] = list(_PersonProvider.last_names)
_FIRST_MALE_SET = {name.lower() for name in _FIRST_MALE}
_FIRST_FEMALE_SET = {name.lower() for name in _FIRST_FEMALE}
_FIRST_SET = _FIRST_MALE_SET | _FIRST_FEMALE_SET

# Titles and suffixes kept in names. Particles ("de", "van", "Le") are not
# kept: some are whole surnames.
NAME_KEEP_WORDS = {
    "mr", "mrs", "ms", "miss", "mx", "dr", "prof", "sir", "rev", "md", "phd",
    "rn", "np", "jr", "sr", "ii", "iii", "iv",
}  # fmt: skip
PHONE_KEEP_WORDS = {"ext", "x", "tel", "fax", "ph", "phone", "pager", "beeper", "cell"}
ROOM_KEEP_WORDS = {"room", "rm", "bed", "suite", "ste", "unit", "floor", "fl", "ward"}
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

_NAME_TOKEN_RE = re.compile(r"[^\W\d_]+(?:['\u2019][^\W\d_]+)*")
_DIGITS_RE = re.compile(r"\d+(?:\.\d+)?")
_IPV4_RE = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_URL_PREFIX_RE = re.compile(r"(?i)^((?:[a-z][a-z0-9+.-]*://)?)((?:www\d?\.)?)")
_STREET_NUMBER_RE = re.compile(r"^(\d+[A-Za-z]?)(\s+)(\S.*)$")
_AGE_WORDS_OVER_89 = ("ninety", "hundred")


class SurrogateGenerator:
    """Derives surrogate values from a secret key (no mapping table)."""

    def __init__(self, key: bytes, *, keep_ages_under_90: bool = True) -> None:
        """Initialize the generator.

        key (bytes): The secret key.
        keep_ages_under_90 (bool): Keep ages <= 89 unchanged.
        """
        self.key = key
        self.keep_ages_under_90 = keep_ages_under_90
        self._faker: Optional[Faker] = None
        self._methods: Dict[str, Callable[[str, random.Random], str]] = {
            "USERNAME": self._shape,
            "PROFESSION": self._profession,
            "ROOM": self._room,
            "DEPARTMENT": self._department,
            "HOSPITAL": self._hospital,
            "ORGANIZATION": self._organization,
            "STREET": self._street,
            "CITY": self._city,
            "STATE": self._state,
            "COUNTRY": self._country,
            "ZIP": self._shape,
            "LOCATION_OTHER": self._location_other,
            "PHONE": self._phone,
            "FAX": self._phone,
            "EMAIL": self._email,
            "URL": self._url,
            "IPADDR": self._ipaddr,
            **{label: self._shape for label in ID_LABELS},
        }

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_faker"] = None
        state.pop("_methods", None)
        return state

    def __setstate__(self, state: dict) -> None:
        key = state.pop("key")
        self.__init__(key, keep_ages_under_90=state["keep_ages_under_90"])

    @property
    def faker(self) -> Faker:
        """The shared Faker instance (created on first use)."""
        if self._faker is None:
            self._faker = Faker("en_US")
        return self._faker

    def rng(
        self, label: str, patient: str, value: str, attempt: int = 0
    ) -> random.Random:
        """A generator seeded from (family, patient, value, attempt).

        RETURNS (random.Random): The seeded generator.
        """
        family = FAMILIES.get(label, label)
        return derive_rng(self.key, "v1", family, patient, value, str(attempt))

    def generate(
        self,
        label: str,
        text: str,
        patient: str,
        *,
        date_shift: int,
        flags: Iterable[str] = (),
        attempt: int = 0,
    ) -> str:
        """Return the surrogate for one PHI string.

        label (str): The PHI label.
        text (str): The original text (never logged).
        patient (str): The patient id (consistency scope).
        date_shift (int): The patient's date shift in days.
        flags (Iterable[str]): The span's `phi_flags`.
        attempt (int): Re-derivation counter, used when a surrogate equals
            the original.
        RETURNS (str): The surrogate.
        """
        label = normalize_label(label)
        if label in ("PATIENT", "DOCTOR"):
            return self.name(text, patient, attempt)
        if label == "AGE":
            return self.age(text, patient, flags, attempt)
        if label == "DATE":
            return self.date(text, patient, date_shift, attempt)
        if label in ("ZIP", "USERNAME") or label in FAMILIES:
            value = normalize_alnum(text)
        else:
            value = normalize_text(text)
        rng = self.rng(label, patient, value, attempt)
        method = self._methods.get(label, self._shape)
        return method(text, rng)

    def name(self, text: str, patient: str, attempt: int = 0) -> str:
        """Replace each name token, keeping case, punctuation and titles.

        The same token gets the same surrogate token for the same patient, so
        "John Smith", "Mr. Smith" and "SMITH" stay consistent.
        """
        pieces = []
        last = 0
        for match in _NAME_TOKEN_RE.finditer(text):
            pieces.append(text[last : match.start()])
            pieces.append(self._name_token(match.group(), patient))
            last = match.end()
        pieces.append(text[last:])
        out = "".join(pieces)
        # Digits in a name span (rare) are replaced by shape.
        if any(char.isdigit() for char in out):
            rng = self.rng("PATIENT", patient, normalize_alnum(text), attempt)
            out = shape_replace(out, rng, letters=False)
        return out

    def age(self, text: str, patient: str, flags: Iterable[str], attempt: int) -> str:
        """Ages over 89 become "90+"; others are kept or moved by a few years."""
        if is_age_over_89(text, flags):
            return _replace_number(text, AGE_OVER_89_TEXT)
        match = _DIGITS_RE.search(text)
        rng = self.rng("AGE", patient, normalize_text(text), attempt)
        if match is None:
            return shape_replace(text, rng)
        age = int(float(match.group()))
        choices = [n for n in range(max(0, age - 3), min(89, age + 3) + 1) if n != age]
        return _replace_number(text, str(rng.choice(choices)))

    def keeps_age(self, text: str, flags: Iterable[str]) -> bool:
        """Whether an AGE span is kept unchanged (HIPAA allows ages <= 89)."""
        return self.keep_ages_under_90 and not is_age_over_89(text, flags)

    def date(self, text: str, patient: str, date_shift: int, attempt: int = 0) -> str:
        """Shift the date by the patient's offset, keeping its format; fall
        back to shape replacement if it can't be parsed."""
        if attempt == 0:
            shifted = shift_date_text(text, date_shift)
            if shifted is not None:
                return shifted
        rng = self.rng("DATE", patient, normalize_text(text), attempt)
        has_digits = any(char.isdigit() for char in text)
        return shape_replace(text, rng, letters=not has_digits)

    def _name_token(self, token: str, patient: str) -> str:
        lower = token.lower()
        if lower in NAME_KEEP_WORDS:
            return token
        for attempt in range(20):
            rng = derive_rng(self.key, "v1", "NAME", patient, lower, str(attempt))
            if len(token) == 1:
                new = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            else:
                new = rng.choice(_name_pool(lower, rng))
            if new.lower() != lower:
                return apply_case(token, new) if len(token) > 1 else _case1(token, new)
        raise ValueError("Could not derive a different name token.")

    def _seeded_faker(self, rng: random.Random) -> Faker:
        faker = self.faker
        faker.seed_instance(rng.getrandbits(64))
        return faker

    def _shape(self, text: str, rng: random.Random) -> str:
        return shape_replace(text, rng)

    def _phone(self, text: str, rng: random.Random) -> str:
        return shape_replace(text, rng, keep_words=PHONE_KEEP_WORDS)

    def _room(self, text: str, rng: random.Random) -> str:
        return shape_replace(text, rng, keep_words=ROOM_KEEP_WORDS)

    def _profession(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).job())

    def _department(self, text: str, rng: random.Random) -> str:
        return apply_case(text, rng.choice(DEPARTMENTS))

    def _organization(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).company())

    def _city(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).city())

    def _country(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).country())

    def _state(self, text: str, rng: random.Random) -> str:
        faker = self._seeded_faker(rng)
        stripped = text.strip().rstrip(".")
        if len(stripped) == 2 and stripped.isalpha():
            new = faker.state_abbr(include_territories=False)
            return new if stripped.isupper() else apply_case(stripped, new)
        return apply_case(text, faker.state())

    def _street(self, text: str, rng: random.Random) -> str:
        street = self._seeded_faker(rng).street_name()
        match = _STREET_NUMBER_RE.match(text)
        if match is None:
            return apply_case(text, street)
        number = shape_replace(match.group(1), rng)
        if number[0] == "0":
            number = rng.choice("123456789") + number[1:]
        return number + match.group(2) + apply_case(match.group(3), street)

    def _hospital(self, text: str, rng: random.Random) -> str:
        stripped = text.strip()
        if stripped.isalpha() and stripped.isupper() and 2 <= len(stripped) <= 6:
            return random_capitals(len(stripped), rng)
        faker = self._seeded_faker(rng)
        base = faker.last_name() if rng.random() < 0.5 else faker.city()
        return apply_case(text, base + " " + _hospital_suffix(text, rng))

    def _location_other(self, text: str, rng: random.Random) -> str:
        base = self._seeded_faker(rng).last_name()
        return apply_case(text, base + " " + rng.choice(LOCATION_SUFFIXES))

    def _email(self, text: str, rng: random.Random) -> str:
        faker = self._seeded_faker(rng)
        return apply_case(text, f"{faker.user_name()}@{faker.safe_domain_name()}")

    def _url(self, text: str, rng: random.Random) -> str:
        faker = self._seeded_faker(rng)
        prefix = _URL_PREFIX_RE.match(text)
        scheme, www = (prefix.group(1), prefix.group(2)) if prefix else ("", "")
        rest = text[len(scheme) + len(www) :]
        url = scheme + www + faker.domain_name()
        if "/" in rest.rstrip("/"):
            url += "/" + faker.uri_path()
        elif rest.endswith("/"):
            url += "/"
        return url

    def _ipaddr(self, text: str, rng: random.Random) -> str:
        if _IPV4_RE.fullmatch(text.strip()):
            first = rng.choice([n for n in range(1, 224) if n not in (10, 127)])
            rest = [str(rng.randint(0, 255)) for _ in range(3)]
            return ".".join([str(first)] + rest)
        return shape_replace(text, rng, hex_letters=True)


def is_age_over_89(text: str, flags: Iterable[str] = ()) -> bool:
    """Whether an AGE span is over 89 (flagged, a number > 89, or "ninety...").

    text (str): The AGE text.
    flags (Iterable[str]): The span's `phi_flags`.
    RETURNS (bool): True if the age must become "90+".
    """
    if flags and AGE_OVER_89_FLAG in flags:
        return True
    match = _DIGITS_RE.search(text)
    if match is not None:
        return float(match.group()) > 89
    lower = text.lower()
    return any(word in lower for word in _AGE_WORDS_OVER_89)


def _replace_number(text: str, new: str) -> str:
    match = _DIGITS_RE.search(text)
    if match is None:
        return new
    return text[: match.start()] + new + text[match.end() :]


def _name_pool(lower: str, rng: random.Random) -> List[str]:
    if lower in _FIRST_SET:
        if lower in _FIRST_MALE_SET and lower in _FIRST_FEMALE_SET:
            return _FIRST_MALE if rng.random() < 0.5 else _FIRST_FEMALE
        return _FIRST_MALE if lower in _FIRST_MALE_SET else _FIRST_FEMALE
    return _LAST


def _case1(token: str, new: str) -> str:
    return new.lower() if token.islower() else new.upper()


def _hospital_suffix(text: str, rng: random.Random) -> str:
    lower = text.lower()
    if "clinic" in lower:
        return "Clinic"
    if "hospital" in lower:
        return rng.choice(["General Hospital", "Hospital", "Community Hospital"])
    if "center" in lower or "centre" in lower:
        return rng.choice(["Medical Center", "Regional Medical Center"])
    return rng.choice(HOSPITAL_SUFFIXES)


__all__ = ["SurrogateGenerator", "is_age_over_89", "has_alnum", "FAMILIES"]

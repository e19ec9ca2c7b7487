"""Per-label surrogate values, derived from the secret key.

Every value is drawn from a `random.Random` seeded with
HMAC-SHA256(key, label family, patient, normalised value, attempt), so the
same string for the same patient always gets the same surrogate. Realistic
values (cities, companies...) come from one shared Faker instance reseeded
per value. `locale` picks the Faker locale (names, cities, companies...).
The label-specific helpers are beside it: `names` (name pools, initials),
`ages`, `phones`, `places` (states, ZIP ranges, streets, hospitals) and
`dates` (date shifting).
"""

import datetime
import random
import re
from typing import (
    Callable,
    Dict,
    FrozenSet,
    Iterable,
    Optional,
    Sequence,
)

from faker import Faker
from faker.config import AVAILABLE_LOCALES

from ..labels import LABELS, normalize_label
from .ages import (
    AGE_DECADE_RE,
    AGE_OVER_89_TEXT,
    DIGITS_RE,
    is_age_decade_over_89,
    is_age_kept,
    is_age_over_89,
    replace_number,
)
from .date_patterns import is_date_word
from .dates import date_language, shift_date_text
from .keys import derive_rng
from .names import (
    AVOID_KEY,
    NAME_KEEP_WORDS,
    NAME_TOKEN_RE,
    NameContext,
    is_initials,
    name_context,
    name_pools,
    one_letter_case,
)
from .phones import phone_surrogate, phone_value
from .readable import natural_job
from .places import (
    DEPARTMENTS,
    LOCATION_SUFFIXES,
    PO_BOX_RE,
    STATE_LIST,
    STATES_BY_ABBR,
    STREET_NUMBER_RE,
    STREET_SUFFIXES,
    STREET_WORD_RE,
    ZIP_RANGES,
    es_hospital_prefix,
    hospital_suffix,
    house_number,
    state_abbr,
    zip_state,
)
from .shapes import (
    apply_case,
    has_alnum,
    normalize_alnum,
    normalize_text,
    random_capitals,
    shape_replace,
)

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


ROOM_KEEP_WORDS = {"room", "rm", "bed", "suite", "ste", "unit", "floor", "fl", "ward"}
# Words of a unit after a street ("Apt 4B", "Suite 200", "Fl 3").
STREET_UNIT_WORDS = ROOM_KEEP_WORDS | {"apt", "apartment", "bldg", "building", "no"}
# A run of words not glued to a digit ("Reading" in "St Reading", not the "B"
# of "4B").
_WORD_RUN_RE = re.compile(r"(?<![\w])[^\W\d_]+(?:[ \t]+[^\W\d_]+)*(?![\w])")

_IPV4_RE = re.compile(r"\d{1,3}(?:\.\d{1,3}){3}")
_URL_PREFIX_RE = re.compile(r"(?i)^((?:[a-z][a-z0-9+.-]*://)?)((?:www\d?\.)?)")
# A run of letters ("rd" of "3rd", "okoro" of "okoro/75").
_LETTERS_RE = re.compile(r"[^\W\d_]+")
# A date span made only of words that could not be read (neutral word).
DATE_WORD_FALLBACK = "that day"

DEFAULT_LOCALE = "en_US"


def check_locale(locale: str) -> str:
    """Raise a ValueError unless Faker knows the locale.

    locale (str): A Faker locale such as "en_US" or "es_ES".
    RETURNS (str): The locale.
    """
    if not isinstance(locale, str) or locale not in AVAILABLE_LOCALES:
        raise ValueError(f"unknown Faker locale {locale!r} (e.g. 'en_US', 'es_ES')")
    return locale


class SurrogateGenerator:
    """Derives surrogate values from a secret key (no mapping table)."""

    def __init__(
        self,
        key: bytes,
        *,
        keep_ages_under_90: bool = True,
        locale: str = DEFAULT_LOCALE,
        date_lang: str = "en",
    ) -> None:
        """Initialize the generator.

        key (bytes): The secret key.
        keep_ages_under_90 (bool): Keep ages <= 89 unchanged.
        locale (str): The Faker locale of names, places and companies.
        date_lang (str): The language of the dates in the text ("en", "es";
            see `dates.date_language`).
        """
        self.key = key
        self.keep_ages_under_90 = keep_ages_under_90
        self.locale = check_locale(locale)
        self.date_lang = date_language(date_lang)
        self._names = name_pools(locale)
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
        state.pop("_names", None)
        return state

    def __setstate__(self, state: dict) -> None:
        key = state.pop("key")
        self.__init__(
            key,
            keep_ages_under_90=state["keep_ages_under_90"],
            locale=state.get("locale", DEFAULT_LOCALE),
            date_lang=state.get("date_lang", "en"),
        )

    @property
    def faker(self) -> Faker:
        """The shared Faker instance (created on first use)."""
        if self._faker is None:
            self._faker = Faker(self.locale)
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
        reference: Optional[datetime.date] = None,
        names: Optional["NameContext"] = None,
        dates: FrozenSet[str] = frozenset(),
    ) -> str:
        """Return the surrogate for one PHI string.

        label (str): The PHI label.
        text (str): The original text (never logged).
        patient (str): The patient id (consistency scope).
        date_shift (int): The patient's date shift in days.
        flags (Iterable[str]): The span's `phi_flags`.
        attempt (int): Re-derivation counter, used when a surrogate equals
            the original.
        reference (Optional[datetime.date]): For DATE: the nearest dated
            mention in the doc, to place dates written without a year.
        names (Optional[NameContext]): For names: the doc's full names, so
            that initials match the surrogate names (see `name_context`).
        dates (FrozenSet[str]): For DATE: the doc's original date strings
            (`dates.date_strings`), which no shifted date may read as.
        RETURNS (str): The surrogate.
        """
        label = normalize_label(label)
        if label in ("PATIENT", "DOCTOR"):
            return self.name(text, patient, attempt, names=names)
        if label == "AGE":
            return self.age(text, patient, flags, attempt)
        if label == "DATE":
            return self.date(text, patient, date_shift, attempt, reference, dates)
        if label == "ZIP":
            return self.zip_code(text, patient, attempt)
        if label in ("PHONE", "FAX"):
            value = phone_value(text)
        elif label == "STATE":
            value = "state:" + state_abbr(text) if state_abbr(text) else text
            value = normalize_text(value)
        elif label == "USERNAME" or label in FAMILIES:
            value = normalize_alnum(text)
        else:
            value = normalize_text(text)
        rng = self.rng(label, patient, value, attempt)
        method = self._methods.get(label, self._shape)
        return method(text, rng)

    def name(
        self,
        text: str,
        patient: str,
        attempt: int = 0,
        names: Optional["NameContext"] = None,
    ) -> str:
        """Replace each name token, keeping case, punctuation and titles.

        The same token gets the same surrogate token for the same patient, so
        "John Smith", "Mr. Smith" and "SMITH" stay consistent. Initials ("JS",
        the "L" of "L. Whalen") become as many capitals; when the doc has the
        full name (`names`), they are the initials of its surrogate.
        """
        pieces = []
        last = 0
        avoid = frozenset(names.get(AVOID_KEY, ())) if names else frozenset()
        matches = list(NAME_TOKEN_RE.finditer(text))
        for i, match in enumerate(matches):
            token = match.group()
            pieces.append(text[last : match.start()])
            following = matches[i + 1].group() if i + 1 < len(matches) else None
            if is_initials(token):
                pieces.append(self._initials(token, following, patient, names))
            else:
                pieces.append(self._name_token(token, patient, avoid))
            last = match.end()
        pieces.append(text[last:])
        out = "".join(pieces)
        # Digits in a name span (rare) are replaced by shape.
        if any(char.isdigit() for char in out):
            rng = self.rng("PATIENT", patient, normalize_alnum(text), attempt)
            out = shape_replace(out, rng, letters=False)
        return out

    def age(self, text: str, patient: str, flags: Iterable[str], attempt: int) -> str:
        """Ages over 89 become "90+"; others are kept or moved by a few years
        (decades such as "40s" by ten). "90s" is kept (already aggregated)."""
        if is_age_decade_over_89(text):
            return text
        if is_age_over_89(text, flags):
            return replace_number(text, AGE_OVER_89_TEXT)
        match = DIGITS_RE.search(text)
        rng = self.rng("AGE", patient, normalize_text(text), attempt)
        if match is None:
            return shape_replace(text, rng)
        age = int(float(match.group()))
        if AGE_DECADE_RE.search(text) and age % 10 == 0:
            choices = [n for n in (age - 10, age + 10) if 0 < n <= 80] or [10]
        else:
            choices = [
                n for n in range(max(0, age - 3), min(89, age + 3) + 1) if n != age
            ]
        return replace_number(text, str(rng.choice(choices)))

    def keeps_age(self, text: str, flags: Iterable[str]) -> bool:
        """Whether an AGE span is kept unchanged (see `is_age_kept`)."""
        return is_age_kept(text, flags, self.keep_ages_under_90)

    def date(
        self,
        text: str,
        patient: str,
        date_shift: int,
        attempt: int = 0,
        reference: Optional[datetime.date] = None,
        avoid: FrozenSet[str] = frozenset(),
    ) -> str:
        """Shift the date by the patient's offset, keeping its format (moved
        a little further where it would read as one of the `avoid` strings,
        the doc's original dates). The rest of the span, or all of it if it
        can't be parsed, keeps only its date words
        (`date_patterns.is_date_word`): other words and digits are replaced by
        shape ("okoro" in "okoro/75", "RXN" in an ID). A span made only of
        words that can't be parsed becomes DATE_WORD_FALLBACK (never random
        letters)."""
        rng: Optional[random.Random] = None

        def undated(part: str) -> str:
            nonlocal rng
            if not has_alnum(part):
                return part
            if rng is None:  # derived once, and only where needed
                rng = self.rng("DATE", patient, normalize_text(text), attempt)
            words = _LETTERS_RE.findall(part)
            keep = [word for word in words if is_date_word(word, self.date_lang)]
            return shape_replace(part, rng, keep_words=keep)

        if attempt == 0:
            shifted = shift_date_text(
                text, date_shift, reference, self.date_lang, gap=undated, avoid=avoid
            )
            if shifted is not None:
                return shifted
        if not any(char.isdigit() for char in text):
            return apply_case(text, DATE_WORD_FALLBACK)
        return undated(text)

    def zip_code(self, text: str, patient: str, attempt: int = 0) -> str:
        """A ZIP code in the surrogate of the original ZIP's state (the same
        state `STATE` gives for that state), keeping the shape."""
        rng = self.rng("ZIP", patient, normalize_alnum(text), attempt)
        match = re.fullmatch(r"(\s*)(\d{5})(.*)", text, flags=re.DOTALL)
        state = zip_state(match.group(2)) if match else None
        if match is None or state is None:
            return shape_replace(text, rng)
        low, high = ZIP_RANGES[self.state_for(state, patient)]
        new = f"{rng.randint(low, high):05d}"
        return match.group(1) + new + shape_replace(match.group(3), rng)

    def state_for(self, abbr: str, patient: str, attempt: int = 0) -> str:
        """The surrogate state (abbreviation) of a state abbreviation."""
        rng = self.rng("STATE", patient, normalize_text("state:" + abbr), attempt)
        return rng.choice([other for other in STATE_LIST if other != abbr])

    def _name_token(
        self, token: str, patient: str, avoid: FrozenSet[str] = frozenset()
    ) -> str:
        """A surrogate name token: keyed per patient and token, never the token
        itself nor (for tokens of 2+ letters) one of the `avoid` tokens, the
        doc's other detected names."""
        lower = token.lower()
        if lower in NAME_KEEP_WORDS:
            return token
        for attempt in range(40):
            rng = derive_rng(self.key, "v1", "NAME", patient, lower, str(attempt))
            if len(token) == 1:
                new = rng.choice("ABCDEFGHIJKLMNOPQRSTUVWXYZ")
            else:
                new = rng.choice(self._names.pool(lower, rng))
                if new.lower() in avoid:
                    continue
            if new.lower() != lower:
                return (
                    apply_case(token, new)
                    if len(token) > 1
                    else one_letter_case(token, new)
                )
        raise ValueError("Could not derive a different name token.")

    def _seeded_faker(self, rng: random.Random) -> Faker:
        faker = self.faker
        faker.seed_instance(rng.getrandbits(64))
        return faker

    def _shape(self, text: str, rng: random.Random) -> str:
        return shape_replace(text, rng)

    def _phone(self, text: str, rng: random.Random) -> str:
        return phone_surrogate(text, rng)

    def _initials(
        self,
        token: str,
        following: Optional[str],
        patient: str,
        names: Optional["NameContext"],
    ) -> str:
        """Initials: those of the surrogate full name when the doc has it,
        else derived capitals (never the same as the original)."""
        full: Optional[Sequence[str]] = None
        if names:
            if len(token) > 1:
                full = names.get(token)
            elif following is not None:
                single = names.get(f"{token} {following.lower()}")
                full = single[:1] if single else None
        if full:
            new = "".join(self._name_token(part, patient)[0] for part in full)
            if new.upper() != token:
                return new.upper()
        for attempt in range(20):
            rng = derive_rng(self.key, "v1", "NAME", patient, token, str(attempt))
            new = random_capitals(len(token), rng)
            if new != token:
                return new
        raise ValueError("Could not derive different initials.")

    def _room(self, text: str, rng: random.Random) -> str:
        return shape_replace(text, rng, keep_words=ROOM_KEEP_WORDS)

    def _profession(self, text: str, rng: random.Random) -> str:
        return apply_case(text, natural_job(self._seeded_faker(rng).job()))

    def _department(self, text: str, rng: random.Random) -> str:
        return apply_case(text, rng.choice(DEPARTMENTS))

    def _organization(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).company())

    def _city(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).city())

    def _country(self, text: str, rng: random.Random) -> str:
        return apply_case(text, self._seeded_faker(rng).country())

    def _state(self, text: str, rng: random.Random) -> str:
        abbr = state_abbr(text)
        if abbr is not None:
            # Seeded like `state_for`, so ZIP codes fall in the same state.
            new = rng.choice([other for other in STATE_LIST if other != abbr])
        else:
            new = rng.choice(STATE_LIST)
        stripped = text.strip().rstrip(".")
        if len(stripped) == 2 and stripped.isalpha():
            return new if stripped.isupper() else apply_case(stripped, new)
        return apply_case(text, STATES_BY_ABBR[new])

    def _street(self, text: str, rng: random.Random) -> str:
        box = PO_BOX_RE.match(text)
        if box is not None:
            return box.group(1) + house_number(box.group(2), rng) + box.group(3)
        match = STREET_NUMBER_RE.match(text)
        if match is None:
            return self._street_name(text, rng)
        number = house_number(match.group(1), rng)
        return number + match.group(2) + self._street_name(match.group(3), rng)

    def _street_name(self, text: str, rng: random.Random) -> str:
        """Replace the name words of a street, keeping its suffix ("St",
        "Avenue") and what follows ("Apt 4B": digits replaced)."""
        words = list(STREET_WORD_RE.finditer(text))
        suffix = next(
            (
                i
                for i, word in enumerate(words)
                if i > 0 and word.group().rstrip(".").lower() in STREET_SUFFIXES
            ),
            None,
        )
        faker = self._seeded_faker(rng)
        if suffix is None:
            return apply_case(text, faker.street_name())
        name_end, suffix_end = words[suffix - 1].end(), words[suffix].end()
        name = apply_case(text[:name_end], faker.last_name())
        return (
            name
            + text[name_end:suffix_end]
            + self._after_street(text[suffix_end:], rng)
        )

    def _after_street(self, rest: str, rng: random.Random) -> str:
        """What follows a street's suffix: a unit and its number stay ("Apt
        4B", digits replaced); other words become a town's name, since they
        are one that the tagger joined to the street ("St Reading")."""
        pieces = []
        last = 0
        for run in _WORD_RUN_RE.finditer(rest):
            if run.group().split()[0].rstrip(".").lower() in STREET_UNIT_WORDS:
                continue
            pieces.append(rest[last : run.start()])
            pieces.append(apply_case(run.group(), self._seeded_faker(rng).city()))
            last = run.end()
        pieces.append(rest[last:])
        return shape_replace("".join(pieces), rng, letters=False)

    def _hospital(self, text: str, rng: random.Random) -> str:
        stripped = text.strip()
        if stripped.isalpha() and stripped.isupper() and 2 <= len(stripped) <= 6:
            return random_capitals(len(stripped), rng)
        faker = self._seeded_faker(rng)
        base = faker.last_name() if rng.random() < 0.5 else faker.city()
        if self.locale.split("_")[0] == "es":
            return apply_case(text, es_hospital_prefix(text, rng) + " " + base)
        return apply_case(text, base + " " + hospital_suffix(text, rng))

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


__all__ = [
    "SurrogateGenerator",
    "is_age_over_89",
    "is_age_decade_over_89",
    "is_age_kept",
    "has_alnum",
    "name_context",
    "phone_surrogate",
    "FAMILIES",
]

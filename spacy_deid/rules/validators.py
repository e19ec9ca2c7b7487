"""Named validators for the PHI rule patterns.

Pattern data refers to a validator by name (`"validator": "calendar_date"`), so
patterns stay JSON-serializable. A validator receives the regex match and the
(start, end) character offsets of the PHI span inside `match.string`, and
returns None to reject the candidate, or a (possibly empty) list of flags to
accept it, e.g. `["AGE_OVER_89"]`.

Validators read named groups when the pattern defines them (`m`, `d`, `y`,
`mon` for dates) and fall back to the PHI text otherwise.
"""

import calendar
import ipaddress
import re
from typing import Callable, Dict, List, Optional, Tuple

from ..knowledge import lookup
from ..knowledge.occupations import is_occupation_word
from .lexicons.clinical import CLINICAL_WORDS
from .lexicons.facilities import (
    FACILITY_HEADS,
    GENERIC_FACILITY_WORDS,
    HOSPITAL_ABBRS,
    WEAK_FACILITY_HEADS,
)
from .lexicons.geo import AMBIGUOUS_COUNTRIES, AMBIGUOUS_STATE_NAMES
from .lexicons.geo import CREDENTIAL_STATE_ABBRS
from .lexicons.professions import PROFESSIONS

Flags = Optional[List[str]]
Validator = Callable[[re.Match, Tuple[int, int]], Flags]

AGE_OVER_89 = "AGE_OVER_89"
# A date-shaped string that is no calendar date ("02/30/2067", "Sept 31, 2067"):
# still someone's date with a typo, so it is tagged (fail closed) and flagged.
INVALID_DATE = "INVALID_DATE"
# Years accepted in dates. i2b2 2014 shifts dates far into the future (2060-2190),
# so the upper bound is generous.
MIN_YEAR = 1880
MAX_YEAR = 2199
# Bare years (`in 2067`) need a tighter lower bound: `in 1500 mL` is no date.
MIN_BARE_YEAR = 1900
MAX_AGE = 125

_MONTHS = {name[:3].lower(): i for i, name in enumerate(calendar.month_name) if name}
# Spanish month prefixes that differ from the English ones (dates_es family).
_MONTHS.update({"ene": 1, "abr": 4, "ago": 8, "set": 9, "dic": 12})
_ACCEPT: List[str] = []


def _accept(flags: Optional[List[str]] = None) -> List[str]:
    return list(flags) if flags else list(_ACCEPT)


def _group(match: re.Match, name: str) -> Optional[str]:
    """Return a named group's text, or None if the group is absent or unset."""
    if name not in match.re.groupindex:
        return None
    return match.group(name)


def _phi_text(match: re.Match, span: Tuple[int, int]) -> str:
    return match.string[span[0] : span[1]]


def _digits(text: str) -> List[int]:
    return [int(c) for c in text if c.isdigit()]


def _year(text: Optional[str]) -> Optional[int]:
    """Parse a 4-digit, 2-digit or apostrophe year; None if absent."""
    if text is None:
        return None
    text = text.lstrip("'\u2019")
    if not text.isdigit():
        return None
    year = int(text)
    if len(text) == 2:
        # The century is unknown; any two digits are a valid year.
        return 2000
    return year


def _month(match: re.Match) -> Optional[int]:
    """Month number from the `m` (numeric) or `mon` (name) group."""
    num = _group(match, "m")
    if num is not None:
        return int(num)
    name = _group(match, "mon")
    if name is not None:
        return _MONTHS.get(name[:3].lower())
    return None


def _valid_ymd(year: Optional[int], month: Optional[int], day: Optional[int]) -> bool:
    if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
        return False
    if month is not None and not 1 <= month <= 12:
        return False
    if day is not None:
        if month is None:
            return 1 <= day <= 31
        # Without a year, 29 February is allowed (use a leap year).
        last = calendar.monthrange(year if year is not None else 2000, month)[1]
        return 1 <= day <= last
    return True


def calendar_date(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a date whose groups `y`, `m`/`mon` and `d` form a real date."""
    day = _group(match, "d")
    ok = _valid_ymd(_year(_group(match, "y")), _month(match), int(day) if day else None)
    return _accept() if ok else None


def _plausible_part(value: Optional[int]) -> bool:
    """A month or day someone could have meant: 1-31 (a typo such as 13/13)."""
    return value is None or 1 <= value <= 31


def calendar_date_fail_closed(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Like `calendar_date`, but fail closed on unambiguous date shapes.

    A date with a 4-digit year or a month name whose month or day is impossible
    ("02/30/2067", "13/13/2067", "Sept 31, 2067") is accepted and flagged
    INVALID_DATE, as long as month and day are 1-31 and the year is in range.
    A numeric date that is a real date read day-first ("14/05/1996") is left to
    the day-first pattern. Short shapes ("2/31", "2/31/67") are validated.
    """
    day_text, num = _group(match, "d"), _group(match, "m")
    year_text = _group(match, "y")
    year = _year(year_text)
    month = _month(match)
    day = int(day_text) if day_text else None
    if _valid_ymd(year, month, day):
        return _accept()
    if num is not None and day is not None and _valid_ymd(year, day, int(num)):
        return None
    if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
        return None
    named = _group(match, "mon") is not None and month is not None
    long_year = year_text is not None and len(year_text) == 4
    if not (named or long_year) or day is None:
        return None
    if not (_plausible_part(day) and _plausible_part(month)):
        return None
    return _accept([INVALID_DATE])


def calendar_date_range(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a day range in one month ("September 14-16, 2067"): groups `d`
    and `d2` are days 1-31; flag INVALID_DATE if either is no calendar date."""
    year = _year(_group(match, "y"))
    month = _month(match)
    days = [int(match.group("d")), int(match.group("d2"))]
    if month is None or not all(1 <= day <= 31 for day in days):
        return None
    if year is not None and not MIN_YEAR <= year <= MAX_YEAR:
        return None
    if all(_valid_ymd(year, month, day) for day in days):
        return _accept()
    return _accept([INVALID_DATE])


def calendar_date_either(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept `a.b.y` if it is a real date read as month-day or day-month.

    Uses the groups `a`, `b` and `y`.
    """
    a, b = int(match.group("a")), int(match.group("b"))
    year = _year(match.group("y"))
    if _valid_ymd(year, a, b) or _valid_ymd(year, b, a):
        return _accept()
    return None


def bare_year(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a year without month or day in [MIN_BARE_YEAR, MAX_YEAR]."""
    text = re.sub(r"\D", "", _group(match, "y") or _phi_text(match, span))
    if len(text) == 4 and MIN_BARE_YEAR <= int(text) <= MAX_YEAR:
        return _accept()
    return None


def age(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept an age in [0, MAX_AGE]; flag ages over 89 (HIPAA)."""
    digits = re.sub(r"\D", "", _phi_text(match, span))
    if not digits:
        return None
    value = int(digits)
    if value > MAX_AGE:
        return None
    return _accept([AGE_OVER_89] if value > 89 else None)


def age_over_89(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a word that implies an age over 89 (e.g. "nonagenarian")."""
    return _accept([AGE_OVER_89])


# Words before a dotted number that make it a version, not an address.
_VERSION_CUE = re.compile(r"(?i:\b(?:version|ver|v|release|build|rev)\b\.?)[ \t]*$")
# Words before a short IPv6 form ("::1", "::") that make it an address.
_IP_CUE = re.compile(r"(?i:\b(?:ip(?:v6)?|address|addr|host|localhost|loopback)\b)")
# Words before a MAC-shaped run of digits that make it a hardware address.
_MAC_CUE = re.compile(
    r"(?i:\b(?:mac|hw|hardware|ethernet|ether|wi-?fi|bluetooth|bt)\b)"
)
_CUE_WINDOW = 30


def _before(match: re.Match, span: Tuple[int, int], size: int = _CUE_WINDOW) -> str:
    """The text of the same line up to `size` characters before the span."""
    start = span[0]
    text = match.string[max(0, start - size) : start]
    return text.rsplit("\n", 1)[-1]


def ipv4(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a dotted quad whose octets are all <= 255, unless a version cue
    comes right before it ("version 3.2.1.4")."""
    parts = _phi_text(match, span).split(".")
    if len(parts) != 4 or any(int(p) > 255 for p in parts):
        return None
    if _VERSION_CUE.search(_before(match, span)):
        return None
    return _accept()


def ipv6(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a valid IPv6 address (zone id and embedded IPv4 included) that
    is not just a time-like `12::30`: it has a hex letter, four groups or an
    embedded IPv4 address, or an IP cue comes before it ("IPv6 ::1")."""
    text = _phi_text(match, span)
    address = text.split("%", 1)[0]
    try:
        ipaddress.IPv6Address(address)
    except ValueError:
        return None
    groups = [g for g in address.split(":") if g]
    if re.search(r"[a-fA-F.]", address) or len(groups) >= 4:
        return _accept()
    if _IP_CUE.search(_before(match, span)):
        return _accept()
    return None


def mac(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a MAC address with a hex letter, or of digits alone after a
    hardware-address cue ("MAC 00:11:22:33:44:55"); never all zeros."""
    text = _phi_text(match, span)
    if not re.search(r"[1-9a-fA-F]", text):
        return None
    if re.search(r"[a-fA-F]", text) or _MAC_CUE.search(_before(match, span)):
        return _accept()
    return None


def ssn(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept an SSN with a valid area (not 000, 666, 900-999), group and serial."""
    digits = re.sub(r"\D", "", _phi_text(match, span))
    if len(digits) != 9:
        return None
    area, group, serial = digits[:3], digits[3:5], digits[5:]
    if area in ("000", "666") or area[0] == "9" or group == "00" or serial == "0000":
        return None
    return _accept()


def luhn_ok(digits: List[int]) -> bool:
    """Return whether a digit list passes the Luhn check."""
    total = 0
    for i, digit in enumerate(reversed(digits)):
        if i % 2 == 1:
            digit *= 2
            if digit > 9:
                digit -= 9
        total += digit
    return total % 10 == 0


def npi(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a 10-digit NPI: Luhn check over the prefix 80840 + NPI."""
    digits = _digits(_phi_text(match, span))
    if len(digits) != 10 or digits[0] not in (1, 2):
        return None
    return _accept() if luhn_ok([8, 0, 8, 4, 0] + digits) else None


def dea(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a DEA number: 2 letters + 7 digits with the DEA check digit.

    (d1 + d3 + d5) + 2 * (d2 + d4 + d6) must end in d7.
    """
    digits = _digits(_phi_text(match, span)[2:])
    if len(digits) != 7:
        return None
    total = digits[0] + digits[2] + digits[4] + 2 * (digits[1] + digits[3] + digits[5])
    return _accept() if total % 10 == digits[6] else None


_VIN_VALUES = dict(zip("ABCDEFGH", range(1, 9), strict=True))
_VIN_VALUES.update(zip("JKLMN", range(1, 6), strict=True))
_VIN_VALUES.update({"P": 7, "R": 9})
_VIN_VALUES.update(zip("STUVWXYZ", range(2, 10), strict=True))
_VIN_VALUES.update({str(i): i for i in range(10)})
_VIN_WEIGHTS = [8, 7, 6, 5, 4, 3, 2, 10, 0, 9, 8, 7, 6, 5, 4, 3, 2]


def vin(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a 17-character North American VIN with a correct check digit."""
    text = _phi_text(match, span).upper()
    if len(text) != 17 or any(c not in _VIN_VALUES for c in text):
        return None
    if not re.search(r"[A-Z]", text) or not re.search(r"\d", text):
        return None
    total = sum(_VIN_VALUES[c] * w for c, w in zip(text, _VIN_WEIGHTS, strict=True))
    check = "X" if total % 11 == 10 else str(total % 11)
    return _accept() if text[8] == check else None


def id_value(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept an identifier after a cue if it holds at least 3 digits, or 2
    digits among 5 or more letters and digits ("K7QX4M": serial numbers mix
    them). "A12" after a cue is a grade, a lead or a vitamin more often."""
    text = _phi_text(match, span)
    digits = len(_digits(text))
    if digits >= 3:
        return _accept()
    letters = sum(c.isalpha() for c in text)
    return _accept() if digits == 2 and letters >= 3 else None


def plate(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a licence plate of 2-8 characters with a letter and a digit."""
    text = re.sub(r"[\s-]", "", _phi_text(match, span))
    if 2 <= len(text) <= 8 and re.search(r"\d", text) and re.search("[A-Z]", text):
        return _accept()
    return None


_CLINICAL = frozenset(CLINICAL_WORDS)
_GENERIC = frozenset(GENERIC_FACILITY_WORDS) | _CLINICAL
_HOSPITAL_ABBRS = frozenset(HOSPITAL_ABBRS)
_CONNECTORS = frozenset(["of", "the", "and", "&", "de", "del", "la", "for"])
_WORD_SPLIT = re.compile(r"[ \t]+")


def _norm(word: str) -> str:
    return word.lower().replace("\u2019", "'")


def _words(text: str) -> List[str]:
    """Lower-cased words of a name, without connectors."""
    words = (_norm(w) for w in _WORD_SPLIT.split(text.strip()))
    return [w for w in words if w and w not in _CONNECTORS]


def _in_lexicon(word: str, lexicon: frozenset) -> bool:
    """Whether a lower-cased word, or the word without "'s", is listed."""
    return word in lexicon or (word.endswith("'s") and word[:-2] in lexicon)


def _has_specific_word(text: str) -> bool:
    """Whether a facility name has a word that is neither generic nor a short
    upper-case specialty abbreviation ("ENT", "CHF"); listed hospital
    abbreviations count as specific."""
    for token in _WORD_SPLIT.split(text.strip()):
        word = _norm(token)
        if not word or word in _CONNECTORS:
            continue
        if token in _HOSPITAL_ABBRS:
            return True
        if token.isupper() and len(token) <= 4:
            continue
        if not _in_lexicon(word, _GENERIC):
            return True
    return False


def facility_name(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a facility name unless all its name words are generic.

    Reads the groups `name` (words before the head) and `place` (after
    "Hospital of"): "Cardiology Clinic" and "General Hospital" are rejected,
    "Children's Hospital of Philadelphia" is accepted.
    """
    for group in ("place", "name"):
        text = _group(match, group)
        if text and _has_specific_word(text):
            return _accept()
    return None


# A word of a lower-case facility name more common than this (zipf) is an
# ordinary word ("grandma house"), unless a place or a name is called so.
_LOWER_FACILITY_ZIPF = 3.5


def lower_facility(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a lower-case facility name ("norbu manor", "deer park nursing
    home", "icu at brennerton") when its name words (group `name`) hold no
    clinical word and are not all generic, and one of them, or the whole
    name, is a place, a name or an uncommon word; without a head word (group
    `head`) the name words must all be uncommon words of four letters or
    more."""
    name = _group(match, "name") or ""
    words = name.split()
    if not words or any(_in_lexicon(w, _CLINICAL) for w in words):
        return None
    if not _has_specific_word(name):
        return None
    if not _group(match, "head"):
        if all(len(w) >= 4 and _uncommon(w) for w in words):
            return _accept()
        return None
    if lookup(name).place_population or any(_specific(w) for w in words):
        return _accept()
    return None


def _uncommon(word: str) -> bool:
    return lookup(word).word_zipf < _LOWER_FACILITY_ZIPF


def _specific(word: str) -> bool:
    """A place, a name more than a word, or an uncommon word."""
    k = lookup(word)
    return bool(
        k.place_population or not k.is_common_word or k.word_zipf < _LOWER_FACILITY_ZIPF
    )


# Cue words a pattern marks with the group `weak`, and the values they don't
# accept: "note from Smith, PA" is a clinician, "from Chad" may be a person.
_CREDENTIAL_STATES = frozenset(CREDENTIAL_STATE_ABBRS)
_AMBIGUOUS_PLACES = frozenset(AMBIGUOUS_COUNTRIES) | frozenset(AMBIGUOUS_STATE_NAMES)


def place_cue(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a place after a cue; after a weak cue (group `weak`), reject
    credential-like state codes (group `st`, else the PHI text) and
    ambiguous place names."""
    weak = _group(match, "weak")
    if not weak:
        return _accept()
    value = _group(match, "st") or _phi_text(match, span)
    value = value.rstrip(".")
    if value in _AMBIGUOUS_PLACES:
        return None
    if value in _CREDENTIAL_STATES:
        return None
    return _accept()


def place_name(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a place name unless a word is a generic facility or specialty
    word ("Mercy Hospital, Cardiology", "Lahey Clinic, Emergency")."""
    words = _words(_phi_text(match, span))
    if not words or any(_in_lexicon(w, _GENERIC) for w in words):
        return None
    return _accept()


# Lower-case tokens with digits that are clinical, not user names.
_NOT_USERNAME = re.compile(
    r"(?:q\d+h?|x\d+|[a-z]{1,3}o2|hco3|covid-?19|dm\d|t\d+dm|h\d+n\d+"
    r"|sars-?cov-?2|a1c|ha1c|hba1c|b12|d5w|d5ns|d5\w*|ns\d*)",
    re.IGNORECASE,
)
# Short letter-digit tokens ("c3", "t12", "l5s1") need a separator before them.
_SHORT_TOKEN = re.compile(r"[a-z]\d{1,2}[a-z]?\d?", re.IGNORECASE)
# "kayla.cooley": a lower-case dotted login needs no digit.
_DOTTED_LOGIN = re.compile(r"[a-z]{2,}[._][a-z]{2,}\d*")
_USERNAME_STOP = frozenset(
    "none unknown pending failed error name admin system not n/a na the and for "
    "with was friendly interface access account password id".split()
)


def username(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a user name: it has a letter and is not a clinical token. Without
    a separator or bracket (group `sep`) or a strong cue (group `strong`) it
    needs a digit or a dotted shape ("kayla.cooley"); title-case or upper-case
    words without digits are names or acronyms, not logins."""
    text = _phi_text(match, span)
    if not re.search(r"[A-Za-z]", text) or len(text) < 3:
        return None
    if _NOT_USERNAME.fullmatch(text) or text.lower() in _USERNAME_STOP:
        return None
    sep = _group(match, "sep")
    if sep is None:
        sep = _group(match, "strong")
    if sep is None and _SHORT_TOKEN.fullmatch(text):
        return None
    if _DOTTED_LOGIN.fullmatch(text):
        return _accept()
    if not any(c.isdigit() for c in text) and (sep is None or not text.islower()):
        return None
    if sep == "" and text.isalpha() and lookup(text).word_zipf >= 3.0:
        return None  # a word where only the layout says login ("seen  3/4")
    return _accept()


_PROFESSIONS = frozenset(PROFESSIONS)
_FACILITY_END = re.compile(
    r"(?:"
    + "|".join(re.escape(h) for h in FACILITY_HEADS + WEAK_FACILITY_HEADS)
    + r")$",
    re.IGNORECASE,
)
_NOT_ORGANIZATION = frozenset(
    "home self retired unemployed disabled none unknown various multiple n/a "
    "night nights days weekends school college work state city county town "
    "government family church".split()
)


def organization(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept an employer unless it is a facility (HOSPITAL), a hospital
    abbreviation, a profession or a placeholder such as "Self"."""
    text = _phi_text(match, span).rstrip(".")
    low = text.lower()
    if low in _NOT_ORGANIZATION or low in _PROFESSIONS or text in _HOSPITAL_ABBRS:
        return None
    if _FACILITY_END.search(text):
        return None
    return _accept()


def relative_name(match: re.Match, span: Tuple[int, int]) -> Flags:
    """Accept a relative's name unless a word is a clinical or kinship word
    ("Mother (Breast Cancer)", "Wife, Deceased,")."""
    words = _words(_phi_text(match, span))
    if not words or any(_in_lexicon(w, _CLINICAL) for w in words):
        return None
    return _accept()


# Agent nouns that describe a person, not a job ("a poor historian").
_NOT_JOBS = frozenset(
    ("woman", "man", "gentleman", "historian", "smoker", "drinker", "user",
     "member", "survivor", "partner", "patient", "nonsmoker")
)  # fmt: skip


def occupation(match: re.Match, span: Tuple[int, int]) -> Flags:
    """A job title in free phrasing: its last word heads a job title
    (`knowledge.occupations`: "welder", "crane operator") and describes
    no person ("woman", "historian"); no word is a clinical term."""
    words = _words(_phi_text(match, span))
    if not words or any(_in_lexicon(w, _CLINICAL) for w in words):
        return None
    head = words[-1].lower()
    if head in _NOT_JOBS or not is_occupation_word(head):
        return None
    return _accept()


VALIDATORS: Dict[str, Validator] = {
    "calendar_date": calendar_date,
    "calendar_date_either": calendar_date_either,
    "calendar_date_fail_closed": calendar_date_fail_closed,
    "calendar_date_range": calendar_date_range,
    "bare_year": bare_year,
    "age": age,
    "age_over_89": age_over_89,
    "ipv4": ipv4,
    "ipv6": ipv6,
    "mac": mac,
    "ssn": ssn,
    "npi": npi,
    "dea": dea,
    "vin": vin,
    "id_value": id_value,
    "plate": plate,
    "facility_name": facility_name,
    "lower_facility": lower_facility,
    "place_cue": place_cue,
    "place_name": place_name,
    "username": username,
    "organization": organization,
    "relative_name": relative_name,
    "occupation": occupation,
}


def get_validator(name: str) -> Validator:
    """Look up a validator by name.

    name (str): A key of `VALIDATORS`.
    RETURNS (Validator): The validator function.
    """
    if name not in VALIDATORS:
        known = ", ".join(sorted(VALIDATORS))
        raise ValueError(f"Unknown PHI pattern validator '{name}'. Known: {known}")
    return VALIDATORS[name]

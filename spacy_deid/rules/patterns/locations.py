"""Location patterns: ZIP (only with address context), the STATE, CITY and
STREET parts of a US address line ("12 Main St, Boston, MA 02114"), and
CITY, STATE and COUNTRY after a location cue ("lives in Reading, PA",
"born in Peru").

A bare 5-digit number is never a ZIP; a bare state code is never a STATE.
"""

import re
from typing import List

from ..lexicons.geo import COUNTRIES, STATE_ABBRS, STATE_NAMES
from ..lexicons.facilities import FACILITY_HEADS
from ._common import EOL, PRIO_LOCATION, alternation, make_pattern, title_and_upper

_STATE_ABBRS = [a for a in STATE_ABBRS if a not in ("GU", "VI", "MP")]
_STATE_NAMES = STATE_NAMES

_STREET_SUFFIXES = [
    "Street", "St", "Avenue", "Ave", "Av", "Road", "Rd", "Boulevard", "Blvd",
    "Drive", "Dr", "Lane", "Ln", "Court", "Ct", "Place", "Pl", "Way", "Terrace",
    "Ter", "Parkway", "Pkwy", "Circle", "Cir", "Highway", "Hwy", "Square", "Sq",
    "Trail", "Trl", "Pike", "Turnpike", "Plaza", "Row", "Alley",
]  # fmt: skip
_MORE_STREET_SUFFIXES = [
    # More USPS street suffixes (Publication 28, appendix C1) in common use,
    # leaving out those that end clinical phrases ("6 Minute Walk", "2 Mile Run",
    # "Power Port", "4 West Nursing Station", "3 Recent Falls", "Chamber View").
    "Ridge", "Hill", "Hills", "Heights", "Crossing", "Creek", "Valley", "Landing",
    "Commons", "Loop", "Path", "Trace", "Glen", "Grove", "Meadow", "Meadows",
    "Brook", "Lake", "Lakes", "Springs", "Manor", "Mill", "Mills", "Estates",
    "Gardens", "Harbor", "Crest", "Cove", "Knoll", "Ferry", "Forest", "Village",
    "Expressway", "Freeway", "Causeway", "Park",
]  # fmt: skip

_CORE_SUFFIX = alternation(_STREET_SUFFIXES + [s.upper() for s in _STREET_SUFFIXES])
# Any suffix, after a street name. The added ones also end city names ("Salt
# Lake City", "Beverly Hills", "Colorado Springs"), so only the core ones stop
# a city name.
_ALL_SUFFIXES = _STREET_SUFFIXES + _MORE_STREET_SUFFIXES
_SUFFIX = alternation(_ALL_SUFFIXES + [s.upper() for s in _ALL_SUFFIXES])
_ABBR = r"(?:" + "|".join(_STATE_ABBRS) + r")"
_STATE = r"(?:" + _ABBR + r"|" + alternation(_STATE_NAMES) + r")"
_ZIP = r"\d{5}(?:-\d{4})?(?![\d\-])"
# One capitalised word of a city name that is not a street suffix, so that
# "Main St Boston MA" gives the city "Boston".
_CITY_WORD = r"(?!" + _CORE_SUFFIX + r"\b)(?:[A-Z][a-z]+|[A-Z]{3,})(?:['\-][A-Za-z]+)?"
_CITY = _CITY_WORD + r"(?:[ \t]+" + _CITY_WORD + r"){0,2}"
# "Boston, MA 02114" / "Boston MA 02114-1234" / "Boston, Massachusetts 02114",
# with the groups `city`, `state` and `zip` (one regex for three patterns).
_CITY_STATE_ZIP = (
    r"\b(?P<city>"
    + _CITY
    + r")(?:,[ \t]*|[ \t]+)(?P<state>"
    + _STATE
    + r")\.?,?[ \t]+(?P<zip>"
    + _ZIP
    + r")"
)


def _loc(id: str, label: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_LOCATION)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # Boston, MA 02114 / Boston MA 02114-1234 / Boston, Massachusetts 02114
    _loc("zip.city_state", "ZIP", _CITY_STATE_ZIP, phi_group="zip"),
    # A full state name right before the ZIP: "Massachusetts 02114".
    _loc(
        "zip.state_name",
        "ZIP",
        r"\b" + alternation(_STATE_NAMES) + r",?[ \t]+(?P<phi>" + _ZIP + r")",
    ),
    # zip 02114 / Zip code: 02114 / postal code 02114
    _loc(
        "zip.cued",
        "ZIP",
        r"\b(?i:zip(?:[ \t]*code)?|postal[ \t]+code)[ \t]*[:#]?[ \t]*"
        r"(?P<phi>" + _ZIP + r")",
        score=0.95,
    ),
    _loc("state.before_zip", "STATE", _CITY_STATE_ZIP, phi_group="state", score=0.9),
    _loc(
        "city.before_state_zip", "CITY", _CITY_STATE_ZIP, phi_group="city", score=0.85
    ),
    # Room 412B / Rm. 7 / room #12-2 / Rm 634-P (the number only; "room air"
    # has none)
    _loc(
        "room.cued",
        "ROOM",
        r"\b(?:Room|ROOM|room|Rm|RM|rm)\b\.?[ \t]*#?[ \t]*"
        r"(?P<phi>\d{1,4}[A-Z]?(?:-(?:\d{1,3}[A-Z]?|[A-Za-z]))?)(?!\w|[.\-]\d)",
        score=0.85,
    ),
    # OR 6 / OR 8-787 / OR 26Q: an operating room's number (all 20 of train's
    # are gold rooms); not a time ("OR 09:30"), a date ("OR 4/17") or Oregon's
    # ZIP code ("Portland, OR 97201").
    _loc(
        "room.operating",
        "ROOM",
        r"\bOR[ \t]*#?[ \t]*(?P<phi>\d{1,2}[A-Z]?(?:-\d{1,3}[A-Z]?)?)(?!\w|[.\-/:,]\d)",
        score=0.8,
    ),
    # bed 296-J / Recovery bay 38 / hallway 6O / pod F bay 2: the number (and
    # its letters) after a bed, bay or hallway word, as the train split's
    # sign-out and bed lists write them; "bed rest" and "bay 10:30" have none.
    _loc(
        "room.bed_bay",
        "ROOM",
        r"\b(?i:bed|bay|hallway|cubicle)\b[ \t]*#?[ \t]*"
        r"(?P<phi>(?:[A-Z]{1,2}-?)?\d{1,4}(?:-?[A-Z])?(?:-\d{1,3}[A-Z]?)?)"
        r"(?!\w|[.\-/:,]\d)",
        score=0.8,
    ),
    # 12 Main Street / 1600 N. Beacon St. / 45B Elm Ave, Apt 3
    _loc(
        "street.number_suffix",
        "STREET",
        r"(?<![\w\-/.])(?P<phi>\d{1,6}[A-Z]?(?:[ \t]+(?:[NSEW]\.?|North|South|East"
        r"|West))?(?:[ \t]+(?:[A-Z][a-z]+|[A-Z]{2,}|\d+(?:st|nd|rd|th))){1,3}"
        r"[ \t]+" + _SUFFIX + r"\b\.?(?:,?[ \t]+(?:Apt|Apartment|Unit|Suite|Ste|#)"
        r"\.?[ \t]*#?[A-Za-z0-9\-]+)?)(?!\w)",
        score=0.85,
    ),
]

# Location cues before a city or country. A weak cue (group `weak`) does not
# accept credential-like state codes ("note from Smith, PA") or place names
# that are also given names ("from Chad"); see the `place_cue` validator.
_STRONG_CUES = [
    r"lives", r"lived", r"living", r"live", r"resides", r"resided", r"residing",
    r"reside", r"currently[ \t]+in", r"resident[ \t]+of", r"native[ \t]+of",
    r"citizen[ \t]+of", r"born", r"born[ \t]+and[ \t]+raised", r"raised",
    r"grew[ \t]+up", r"moved", r"moved[ \t]+here", r"relocated", r"originally",
    r"is[ \t]+from", r"was[ \t]+from", r"are[ \t]+from", r"comes[ \t]+from",
    r"came[ \t]+from", r"hails[ \t]+from", r"immigrated", r"emigrated",
    r"immigrant[ \t]+from", r"refugee[ \t]+from", r"hometown(?:[ \t]+is|:)?",
    r"home[ \t]+in", r"house[ \t]+in", r"based[ \t]+in", r"vacation(?:ing|ed)?",
    r"trip", r"travel(?:l?ed|l?ing|s)?", r"flew", r"drove", r"returned",
    r"returning", r"back", r"visiting", r"visited", r"visit[ \t]+to",
    r"transferred(?:[ \t]+here)?", r"transfer", r"deployed", r"deported",
    r"stationed", r"served", r"place[ \t]+of[ \t]+birth[ \t]*:",
    r"birthplace[ \t]*:", r"country[ \t]+of[ \t]+origin[ \t]*:",
]  # fmt: skip
# Each strong cue ends with its own preposition, if any: "lives in", "moved to".
_CUE_PREP = (
    r"(?:[ \t]+(?:alone|often|frequently|regularly|recently|back|annually|yearly"
    r"|here|there))?(?:[ \t]+(?:in|to|from|of|at|near)(?:[ \t]+from)?)?"
)
_CUE = (
    r"(?<![\w\-])(?:"
    + alternation(_STRONG_CUES, ignore_case=True)
    + r"(?i:"
    + _CUE_PREP
    + r")|(?P<weak>(?i:from|in)))[ \t]+(?:(?i:the)[ \t]+)?"
)
# Mercy Hospital, Reading, PA: a facility name before the city.
_FACILITY_CUE = r"\b" + alternation(title_and_upper(FACILITY_HEADS)) + r",[ \t]*"
# 12 Main St, Reading, PA (an address line without ZIP).
_STREET_CUE = (
    r"\b\d{1,6}[A-Z]?(?:[ \t]+(?:[A-Z][a-z]+|[A-Z]{2,}|\d+(?:st|nd|rd|th))){1,3}"
    r"[ \t]+" + _SUFFIX + r"\b\.?(?:,?[ \t]+(?:Apt|Apartment|Unit|Suite|Ste|#)"
    r"\.?[ \t]*#?[A-Za-z0-9\-]+)?,[ \t]*"
)
_PLACE_STOP = (
    r"(?!(?:The|A|An|His|Her|Their|My|Our|Your|This|That|Home|Bed|Fear|Pain"
    r"|General|Good|No|Not|Clinic|Hospital|Room)\b)"
)
_PLACE_WORD = (
    _PLACE_STOP + r"(?:St\.?|Ste\.?|Ft\.?|Mt\.?|(?:[A-Z]['\u2019])?[A-Z][a-z]+"
    r"(?:[A-Z][a-z]+)?(?:['\u2019\-][A-Za-z]+)*|[A-Z]{3,})(?![\w'\u2019])"
)
_PLACE = _PLACE_WORD + r"(?:[ \t]+" + _PLACE_WORD + r"){0,2}"
# What may follow a cued place: punctuation, the line end, a ZIP, or a
# function word. "in Triage, CT head" is no place.
_PLACE_END = (
    r"(?=[ \t]*(?:[.,;:!?)\]\"'/\-]|"
    + EOL
    + r"|\(|\d{5})|[ \t]+(?i:and|or|but|where|with"
    r"|for|on|in|at|to|from|until|since|who|which|that|was|is|are|were|has|had"
    r"|area|region|about|around|last|this|after|before|when|during|by|since"
    r"|as|alone|recently|years?|months?|weeks?)\b)"
)


def _city_state() -> str:
    """`<cue> City, ST` with the groups `city` and `st` (one regex for the
    city and the state patterns; `validators.place_cue` reads `st`)."""
    return (
        r"(?:"
        + _CUE
        + r"|"
        + _STREET_CUE
        + r"|"
        + _FACILITY_CUE
        + r")(?P<city>"
        + _PLACE
        + r"),[ \t]*(?P<st>"
        + _STATE
        + r")"
        + _PLACE_END
    )


_COUNTRY = alternation(re.escape(name) for name in title_and_upper(COUNTRIES))
# "Lahey Clinic, Trenton" at the end of a line: the city of a facility.
_FACILITY_CITY = (
    _FACILITY_CUE
    + r"(?P<phi>"
    + _PLACE
    + r")(?=[ \t]*(?:"
    + EOL
    + r"|\(|;|,[ \t]*(?:"
    + EOL
    + r"|\d)))"
)

PATTERNS += [
    # lives in Reading, PA / moved to Tulsa, Oklahoma / 12 Main St, Reading, PA
    _loc(
        "city.cued_state",
        "CITY",
        _city_state(),
        flags="m",
        phi_group="city",
        validator="place_cue",
        score=0.85,
    ),
    _loc(
        "state.cued_city",
        "STATE",
        _city_state(),
        flags="m",
        phi_group="st",
        validator="place_cue",
        score=0.85,
    ),
    # Transferred from Lahey Clinic, Trenton
    _loc(
        "city.after_facility",
        "CITY",
        _FACILITY_CITY,
        flags="m",
        validator="place_name",
        score=0.75,
    ),
    # moved to Florida / grew up in New Jersey (full names only)
    _loc(
        "state.cued_name",
        "STATE",
        _CUE + r"(?P<phi>" + alternation(_STATE_NAMES) + r")" + _PLACE_END,
        flags="m",
        validator="place_cue",
        score=0.8,
    ),
    # born in Peru / immigrated from the Philippines / returned from India
    _loc(
        "country.cued",
        "COUNTRY",
        _CUE + r"(?P<phi>" + _COUNTRY + r")(?![\w'\u2019\-])",
        validator="place_cue",
        score=0.8,
    ),
]

"""Location patterns: ZIP (only with address context), and the STATE, CITY and
STREET parts of a US address line ("12 Main St, Boston, MA 02114").

A bare 5-digit number is never a ZIP.
"""

from typing import List

from ._common import PRIO_LOCATION, alternation, make_pattern

_STATE_ABBRS = (
    "AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO "
    "MT NE NV NH NJ NM NY NC ND OH OK OR PA PR RI SC SD TN TX UT VT VA WA WV WI WY"
).split()
_STATE_NAMES = [
    "Alabama", "Alaska", "Arizona", "Arkansas", "California", "Colorado",
    "Connecticut", "Delaware", "Florida", "Georgia", "Hawaii", "Idaho", "Illinois",
    "Indiana", "Iowa", "Kansas", "Kentucky", "Louisiana", "Maine", "Maryland",
    "Massachusetts", "Michigan", "Minnesota", "Mississippi", "Missouri", "Montana",
    "Nebraska", "Nevada", "New Hampshire", "New Jersey", "New Mexico", "New York",
    "North Carolina", "North Dakota", "Ohio", "Oklahoma", "Oregon", "Pennsylvania",
    "Rhode Island", "South Carolina", "South Dakota", "Tennessee", "Texas", "Utah",
    "Vermont", "Virginia", "Washington", "West Virginia", "Wisconsin", "Wyoming",
    "Puerto Rico",
]  # fmt: skip
_STREET_SUFFIXES = [
    "Street", "St", "Avenue", "Ave", "Av", "Road", "Rd", "Boulevard", "Blvd",
    "Drive", "Dr", "Lane", "Ln", "Court", "Ct", "Place", "Pl", "Way", "Terrace",
    "Ter", "Parkway", "Pkwy", "Circle", "Cir", "Highway", "Hwy", "Square", "Sq",
    "Trail", "Trl", "Pike", "Turnpike", "Plaza", "Row", "Alley",
]  # fmt: skip

_SUFFIX = alternation(_STREET_SUFFIXES + [s.upper() for s in _STREET_SUFFIXES])
_ABBR = r"(?:" + "|".join(_STATE_ABBRS) + r")"
_STATE = r"(?:" + _ABBR + r"|" + alternation(_STATE_NAMES) + r")"
_ZIP = r"\d{5}(?:-\d{4})?(?![\d\-])"
# One capitalised word of a city name that is not a street suffix, so that
# "Main St Boston MA" gives the city "Boston".
_CITY_WORD = r"(?!" + _SUFFIX + r"\b)(?:[A-Z][a-z]+|[A-Z]{3,})(?:['\-][A-Za-z]+)?"
_CITY = _CITY_WORD + r"(?:[ \t]+" + _CITY_WORD + r"){0,2}"
# "Boston, MA" / "Boston MA" / "Boston, Massachusetts" before a ZIP.
_CITY_STATE = _CITY + r"(?:,[ \t]*|[ \t]+)" + _STATE + r"\.?,?[ \t]+"


def _loc(id: str, label: str, regex: str, **kwargs) -> dict:
    kwargs.setdefault("priority", PRIO_LOCATION)
    return make_pattern(id, label, regex, **kwargs)


PATTERNS: List[dict] = [
    # Boston, MA 02114 / Boston MA 02114-1234 / Boston, Massachusetts 02114
    _loc("zip.city_state", "ZIP", r"\b" + _CITY_STATE + r"(?P<phi>" + _ZIP + r")"),
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
    _loc(
        "state.before_zip",
        "STATE",
        r"\b" + _CITY + r"(?:,[ \t]*|[ \t]+)(?P<phi>" + _STATE + r")\.?,?[ \t]+" + _ZIP,
        score=0.9,
    ),
    _loc(
        "city.before_state_zip",
        "CITY",
        r"\b(?P<phi>" + _CITY + r")(?:,[ \t]*|[ \t]+)" + _STATE + r"\.?,?[ \t]+" + _ZIP,
        score=0.85,
    ),
    # Room 412B / Rm. 7 / room #12-2 (the number only; "room air" has none)
    _loc(
        "room.cued",
        "ROOM",
        r"\b(?:Room|ROOM|room|Rm|RM|rm)\b\.?[ \t]*#?[ \t]*"
        r"(?P<phi>\d{1,4}[A-Z]?(?:-\d{1,3}[A-Z]?)?)(?!\w|[.\-]\d)",
        score=0.85,
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

"""Ages: which AGE spans HIPAA makes "90+" and which are already aggregated
("90s", "nonagenarian"), and replacing the number in an age."""

import re
from typing import Iterable

AGE_OVER_89_FLAG = "AGE_OVER_89"
AGE_OVER_89_TEXT = "90+"

DIGITS_RE = re.compile(r"\d+(?:\.\d+)?")

_AGE_WORDS_OVER_89 = ("ninety", "hundred")
# "90s", "90's", "nineties": already an aggregate, kept as it is.
AGE_DECADE_RE = re.compile(r"(?i)(?<!\d)(\d*0)\s*['\u2019]?s\b|\bnineties\b")


def is_age_decade_over_89(text: str) -> bool:
    """Whether an AGE span is a decade over 89 ("90s", "90's", "nineties") or
    "nonagenarian"/"centenarian": kept as they are."""
    lower = text.lower()
    if "nonagenarian" in lower or "centenarian" in lower:
        return True
    match = AGE_DECADE_RE.search(text)
    if match is None:
        return False
    return match.group(1) is None or int(match.group(1)) >= 90


def is_age_kept(
    text: str, flags: Iterable[str] = (), keep_ages_under_90: bool = True
) -> bool:
    """Whether surrogate mode keeps an AGE span unchanged: HIPAA allows ages
    <= 89 (kept with `keep_ages_under_90`); "90s" and "nonagenarian" are
    already aggregated. `spacy-deid audit` judges kept ages by this rule.

    text (str): The AGE text.
    flags (Iterable[str]): The span's `phi_flags`.
    keep_ages_under_90 (bool): The component's setting.
    RETURNS (bool): True if the age is kept as it is.
    """
    if is_age_decade_over_89(text):
        return True
    return keep_ages_under_90 and not is_age_over_89(text, flags)


def is_age_over_89(text: str, flags: Iterable[str] = ()) -> bool:
    """Whether an AGE span is over 89 (flagged, a number > 89, or "ninety...").

    text (str): The AGE text.
    flags (Iterable[str]): The span's `phi_flags`.
    RETURNS (bool): True if the age must become "90+".
    """
    if flags and AGE_OVER_89_FLAG in flags:
        return True
    match = DIGITS_RE.search(text)
    if match is not None:
        return float(match.group()) > 89
    lower = text.lower()
    return any(word in lower for word in _AGE_WORDS_OVER_89)


def replace_number(text: str, new: str) -> str:
    match = DIGITS_RE.search(text)
    if match is None:
        return new
    return text[: match.start()] + new + text[match.end() :]

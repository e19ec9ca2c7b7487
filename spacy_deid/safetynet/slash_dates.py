"""Dates written as month/day that `phi_safety_net` adds where no detector
found them, in positions that mark a date rather than a score ("XR L foot
8/3:", "no change vs 8/7", "Bone cx (3/10)").

Notes write scores in the same shape ("pain 3/10", "strength 5/5", "Katz
ADL 5/6"): in generated train notes more than half of the month/day shapes
are scores. So the shape alone proves nothing, and the net takes one only
where the words next to it mark a date:

- a colon follows it ("XR L foot 8/3:");
- a word that sets a time comes right before it ("since", "on", "vs");
- it stands alone in brackets, or last in them ("(3/10)", "(A1c 8.4% 9/30)");
- a clinician's title follows it ("3/10 Dr. Crane: hardware removal");

and no score word stands among the three words before it or right after it
("pain", "sites", "at rest"), and no other fraction with the same
denominator comes just before it ("HA 2/10 (was 6/10)"). On 3,000 generated
train notes each of the 312 month/days in such a position lies in a gold
DATE span.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import List, Optional, Sequence

from .cues import CLINICIAN_TITLES, SLASH_DATE
from .finder import Candidate
from .words import DocWords

_MONTH_DAY = re.compile(r"^(1[0-2]|0?[1-9])/(3[01]|[12][0-9]|0?[1-9])$")
# Words after which a month/day names a time ("since 6/10", "vs 8/7").
TIME_WORDS = frozenset(
    {
        "since", "on", "from", "until", "till", "thru", "through", "vs",
        "versus", "by", "dated", "started", "last", "next", "after", "before",
    }
)  # fmt: skip
# Words of a score's name or its reading ("pain 3/10", "2/10 sites").
SCORE_WORDS = frozenset(
    {
        "pain", "score", "scores", "scale", "strength", "motor", "grip",
        "power", "murmur", "recall", "sites", "site", "rest", "craving",
        "cravings", "dyspnea", "borg", "adl", "iadl", "moca", "mmse",
        "severity", "rated", "rates", "rating", "grade", "level", "ha",
    }
)  # fmt: skip
_SCORE_WINDOW = 3


def find_slash_dates(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Month/day dates on words outside entities and known non-PHI, where
    the words around them mark a date.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The dates found, in word positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if "/" not in word.text or taken[word.index] or not _MONTH_DAY.match(word.text):
            continue
        if _marks_date(words, position) and not _marks_score(words, position):
            found.append((position, position + 1, SLASH_DATE))
    return found


def _neighbour(words: DocWords, position: int, step: int) -> Optional[str]:
    """The text of the word `step` (1 or -1) away on the same line, or None."""
    other = position + step
    if not words.same_line(min(position, other), max(position, other)):
        return None
    return words.words[other].text


def _marks_date(words: DocWords, position: int) -> bool:
    """Whether a colon, a time word, brackets or a title mark a date here."""
    after = _neighbour(words, position, 1) or ""
    before = _neighbour(words, position, -1) or ""
    if after.startswith(":") or after.lower().rstrip(".") in CLINICIAN_TITLES:
        return True
    if after.startswith(")") and _in_brackets(words, position):
        return True
    return before.lower() in TIME_WORDS


def _in_brackets(words: DocWords, position: int) -> bool:
    """Whether an opening bracket comes before a word on its line with no
    closing one between."""
    k = position - 1
    while words.same_line(k, position):
        text = words.words[k].text
        if ")" in text:
            return False
        if "(" in text:
            return True
        k -= 1
    return False


def _marks_score(words: DocWords, position: int) -> bool:
    """Whether a score word stands near, or a fraction with the same
    denominator comes just before."""
    denominator = words.words[position].text.split("/")[1]
    first = max(0, position - _SCORE_WINDOW)
    for k in range(first, position):
        if not words.same_line(k, position):
            continue
        text = words.words[k].text.lower()
        if text.strip("():,;-") in SCORE_WORDS:
            return True
        if "/" in text and text.rsplit("/", 1)[1] == denominator:
            return True
    return (_neighbour(words, position, 1) or "").lower() in SCORE_WORDS

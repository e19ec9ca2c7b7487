"""Wards that `phi_safety_net` adds where no detector found them: a floor
number and a compass direction ("admitted to 4 West"), a DEPARTMENT.

A number of one or two digits followed on its line by "North", "South",
"East" or "West" (title or upper case) names a ward, unless a title-case word
follows (an address: "40 South Saint Paul") or an address word comes before
("Apt 4 North"). On 8,000 generated train notes every such ward lies in a
gold span ("Kennedy 2 North").

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Sequence

from .cues import WARD
from .finder import Candidate
from .words import DocWords

DIRECTIONS = frozenset(
    word for word in ("North", "South", "East", "West") for word in (word, word.upper())
)
# Words before a number that make it part of an address.
_ADDRESS_WORDS = frozenset(("apt", "apartment", "suite", "ste", "unit", "#", "no"))


def find_wards(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Wards on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The wards found, in word positions.
    """
    found: List[Candidate] = []
    for position in range(len(words) - 1):
        number, direction = words.words[position], words.words[position + 1]
        if not (number.text.isdigit() and len(number.text) <= 2):
            continue
        if direction.text not in DIRECTIONS or direction.newline_before:
            continue
        if taken[number.index] or taken[direction.index]:
            continue
        if _address_before(words, position) or _title_after(words, position + 2):
            continue
        found.append((position, position + 2, WARD))
    return found


def _address_before(words: DocWords, position: int) -> bool:
    """Whether an address word ("Apt", "#") comes right before, on the line."""
    if position == 0 or words.words[position].newline_before:
        return False
    return words.words[position - 1].text.lower().rstrip(".") in _ADDRESS_WORDS


def _title_after(words: DocWords, position: int) -> bool:
    """Whether a title-case word follows on the same line."""
    if position >= len(words):
        return False
    word = words.words[position]
    return not word.newline_before and word.text[:1].isupper() and word.text.isalpha()

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

from ..text.wards import is_ward
from .cues import WARD
from .finder import Candidate
from .words import DocWords


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
        if direction.newline_before or taken[number.index] or taken[direction.index]:
            continue
        before = "" if number.newline_before else _text(words, position - 1)
        after = _text(words, position + 2)
        if after and words.words[position + 2].newline_before:
            after = ""
        if is_ward(number.text, direction.text, before, after):
            found.append((position, position + 2, WARD))
    return found


def _text(words: DocWords, position: int) -> str:
    """The text of the word at `position`, "" if there is none."""
    return words.words[position].text if 0 <= position < len(words) else ""

"""Months that `phi_safety_net` adds where no detector found them: a month's
full name in title case standing free ("before the October trip").

A month's name is a date wherever it stands in a note, except "May" (the
modal verb), and except where a title-case word or an initial follows it on
its line ("July Kim", "July B. Ross": a first name). The net runs after the
detectors, so a first name they found is never taken for a month; a name
that a cue class finds on the same words wins (`CUE_CLASSES` order). On
8,000 generated train notes, every capitalised month name lies in a gold
span.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Sequence

from ..text.datenames import MONTHS
from .cues import MONTH
from .finder import Candidate
from .words import DocWords

# "May" is also the modal verb.
MONTH_NAMES = frozenset(name for name in MONTHS if name != "May")


def find_months(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Month names on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The months found, in word positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if word.text in MONTH_NAMES and not taken[word.index]:
            if not _name_follows(words, position + 1):
                found.append((position, position + 1, MONTH))
    return found


def _name_follows(words: DocWords, position: int) -> bool:
    """Whether a title-case word or an initial comes next on the same line."""
    if position >= len(words):
        return False
    word = words.words[position]
    text = word.text.rstrip(".")
    return not word.newline_before and text[:1].isupper() and text.isalpha()

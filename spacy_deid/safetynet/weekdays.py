"""Weekdays that `phi_safety_net` adds where no detector found them: a
day's name or abbreviation right before a date a detector found ("Date:
Fri 13-Jan-2090", "Tue, 3/4") or in brackets right after one ("2088-02-19
(Saturday)"). i2b2 2014 marks a day's name as a date of its own; next to a
date it is nothing else, unless an initial or a title comes before it ("Dr.
A Sun 2077-10-02"). On 3,000 generated train notes and 96 notes by other
hands, each of the 63 weekdays so placed lies in a gold DATE span.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Sequence

from spacy.tokens import Doc

from ..text.datenames import WEEKDAY_ABBRS, WEEKDAYS
from .cues import WEEKDAY
from .finder import Candidate
from .words import DocWords

_TITLES = frozenset({"dr", "mr", "mrs", "ms", "miss", "prof"})
DAY_NAMES = frozenset(
    form
    for name in (*WEEKDAYS, *WEEKDAY_ABBRS)
    for form in (name, name.upper(), name + ".", name.upper() + ".")
)


def find_weekdays(
    words: DocWords, taken: Sequence[bool], doc: Doc, date: str
) -> List[Candidate]:
    """Weekdays next to a date entity, on free words.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    date (str): The label of dates.
    RETURNS (List[Candidate]): The weekdays found, in word positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if taken[word.index] or word.text not in DAY_NAMES:
            continue
        if _after_name_mark(words, position):
            continue
        if _before_date(words, doc, date, position) or _after_date(
            words, doc, date, position
        ):
            found.append((position, position + 1, WEEKDAY))
    return found


def _after_name_mark(words: DocWords, position: int) -> bool:
    """An initial or a title right before: a surname ("Dr. A Sun")."""
    if not _on_line(words, position):
        return False
    before = words.words[position - 1].text.rstrip(".").lower()
    return (len(before) == 1 and before.isalpha()) or before in _TITLES


def _label(words: DocWords, doc: Doc, position: int) -> str:
    return doc[words.words[position].index].ent_type_


def _on_line(words: DocWords, position: int) -> bool:
    """Whether the word at `position` shares a line with the one before it."""
    return words.same_line(position - 1, position)


def _before_date(words: DocWords, doc: Doc, date: str, position: int) -> bool:
    """"Fri 13-Jan-2090", "Tue, 3/4": a date right after, a comma between."""
    after = position + 1
    if _on_line(words, after) and words.words[after].text == ",":
        after += 1
    return _on_line(words, after) and _label(words, doc, after) == date


def _after_date(words: DocWords, doc: Doc, date: str, position: int) -> bool:
    """"2088-02-19 (Saturday)": alone in brackets right after a date."""
    opening, closing = position - 1, position + 1
    if not (_on_line(words, opening) and _on_line(words, closing)):
        return False
    if words.words[opening].text != "(" or words.words[closing].text != ")":
        return False
    return opening >= 1 and _label(words, doc, opening - 1) == date

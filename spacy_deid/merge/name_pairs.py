"""Two people's names in one span: "Braylyn Oquendo, A. Greever".

A tagger that has learnt "Last, First" as one name also joins two names
listed with a comma into one span ("Crew: Tove Haverty, Anselm Quillon"),
which costs both names their own surrogate and the strict match. A span
holding one comma is two names when one side is a whole name by itself: a
given name or an initial, then a surname. "Haverty, Tove" (a surname, then a
given name) and "Haverty, Tove A" stay one name, and so do "Quillon Smith,
Jr.", "Anselm Quillon, RN" and "Ó Reachtúire, Ashlie" (a suffix, a
credential, a particle that starts a surname).
"""

import re
from typing import List, Optional

from spacy.tokens import Span

from ..knowledge import lookup
from ..knowledge.credentials import is_credential
from ..knowledge.particles import NAME_PARTICLES

# Words that start or join a surname ("Ó Neill", "Mac an Bhaird", "van der
# Berg"): a side that holds one is a surname, not a given name and surname.
# The particles inside names (`edges.NAME_PARTICLES`), and those that start
# Irish, Scottish and Arabic surnames.
SURNAME_PARTICLES = NAME_PARTICLES | frozenset(
    {"ó", "ní", "nic", "ua", "mac", "mc", "an", "saint", "ben", "abu"}
)
# Written after a name and its comma: "Quillon Smith, Jr.".
NAME_SUFFIXES = frozenset({"jr", "sr", "ii", "iii", "iv", "v"})
_WORD = re.compile(r"[^\W\d_]+(?:['\u2019-][^\W\d_]+)*")


def name_pair(span: Span) -> Optional[int]:
    """The token index of the comma at which a span of one person's name
    splits into two names, or None.

    span (Span): The entity.
    RETURNS (Optional[int]): The comma's token index, or None.
    """
    commas = [token.i for token in span if token.text == ","]
    if len(commas) != 1 or commas[0] in (span.start, span.end - 1):
        return None
    doc = span.doc
    left = _WORD.findall(doc[span.start : commas[0]].text)
    right = _WORD.findall(doc[commas[0] + 1 : span.end].text)
    if not _names_someone(left) or not _names_someone(right):
        return None
    if is_whole_name(left) or is_whole_name(right):
        return commas[0]
    return None


def is_whole_name(words: List[str]) -> bool:
    """Whether words are a given name (or an initial) and then a surname:
    "Anselm Quillon", "A Greever-Owens", not "Tove A" or "Ó Neill".

    words (List[str]): The words, without marks.
    """
    if len(words) < 2 or len(words[-1]) < 2:
        return False
    if any(word.lower() in SURNAME_PARTICLES for word in words[:-1]):
        return False
    first, last = words[0], words[-1]
    if len(first) == 1 and first.isupper() and last.islower():
        return False  # "S tephen": a slipped space, not an initial
    first_known, last_known = lookup(first), lookup(last)
    is_given = len(first) == 1 or first_known.given_count > first_known.surname_count
    if last_known.given_count or last_known.surname_count:
        return is_given and last_known.surname_count > last_known.given_count
    return is_given and _written_as_name(last)


def _written_as_name(word: str) -> bool:
    """Whether a word no name table knows is written as a name is, not as
    a word glued to the next ("AMRN", "JEvaluator" of "Haverty, Tove
    AMRN: 123", "Tove JEvaluator: Dr X")."""
    if word.isupper():
        return False
    return not (word[:2].isupper() and word[2:3].islower())


def _names_someone(words: List[str]) -> bool:
    """Whether a side holds a word other than a generational suffix ("Jr.")
    or a credential ("RN")."""
    return any(
        word.lower() not in NAME_SUFFIXES and not is_credential(word) for word in words
    )

"""Initials that sign a note or an entry, which `phi_safety_net` adds where
no detector found them: a dash or a slash right before two or three letters
at the end of a sentence's line ("No concerns. -KD", "agrees w/ plan. /kn",
"Encounter closed. -KN 14:19"), as nurses and clerks sign their entries.

The mark follows the end of a sentence (or opens the line), the letters
follow the mark with no space, all in capitals or all in lower case, and
after them the line ends or, past a space, a time or date follows ("-KAA753"
is a login). Medical shorthand and words are none ("-ve", "/hr"). On 3,000
generated train notes and a dev draw each of the 3 initials so placed is a
gold clinician's name, and so are the 6 in 112 notes by other hands.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import List, Sequence

from ..knowledge import lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from .cues import INITIALS
from .finder import Candidate
from .words import DocWords

_MARKS = frozenset({"-", "/"})
_SENTENCE_ENDS = frozenset({".", "!", "?"})
_INITIALS = re.compile(r"[A-Z]{2,3}|[a-z]{2,3}")
_TIME = re.compile(r"\d{1,2}:\d{2}|\d{3,4}|\d{1,2}/\d{1,2}(?:/\d{2,4})?")
# Letters English uses this much are a word ("-me", "/us"), no initials.
_MAX_WORD_ZIPF = 4.0


def find_initials(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Initials after a dash or slash that signs a sentence or an entry.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The initials found, in word positions.
    """
    found: List[Candidate] = []
    for position in range(1, len(words)):
        mark, word = words.words[position - 1], words.words[position]
        if mark.text not in _MARKS or not word.joined:
            continue  # most words: no mark before them
        if taken[word.index] or not _INITIALS.fullmatch(word.text):
            continue
        if not (_opens(words, position - 1) and _ends(words, position)):
            continue
        if is_medical_abbreviation(word.text) or lookup(word.text).word_zipf >= _MAX_WORD_ZIPF:
            continue
        found.append((position, position + 1, INITIALS))
    return found


def _opens(words: DocWords, mark: int) -> bool:
    """Whether the mark opens its line or follows a sentence's end, apart
    by whitespace."""
    word = words.words[mark]
    if mark == 0 or word.newline_before:
        return True
    return not word.joined and words.words[mark - 1].text in _SENTENCE_ENDS


def _ends(words: DocWords, position: int) -> bool:
    """Whether the line ends after the initials, or a time or date follows."""
    after = position + 1
    if after >= len(words) or words.words[after].newline_before:
        return True
    following = words.words[after]  # "-KAA753" is a login
    return not following.joined and bool(_TIME.fullmatch(following.text))

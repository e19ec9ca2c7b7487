"""Hospitals' initials that `phi_safety_net` adds where no detector found
them: "transferred from QVH", "records from SJMC", a HOSPITAL.

A word of 3 to 5 capital letters ending in "H" (hospital), "MC" (medical
center) or "HC" (health center) right after "to", "from", "at" or "@" on its
line is a hospital's initials, unless it is clinical shorthand (the
`abbreviations` table: "due to BPH", "from OSH"), a word English uses
(zipf >= `MAX_ZIPF`: "BATH", "SOUTH"), a place, a state or a name people
bear, or "to" follows a word of cause ("secondary to IVH"). On 8,000
generated train notes every such word lies in a gold HOSPITAL span (160:
"LGH", "NSMC", "DHMC").

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import List, Sequence

from ..knowledge import lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from .cues import FACILITY
from .finder import Candidate
from .words import DocWords

_INITIALS = re.compile(r"^[A-Z]{1,4}(?:H|MC|HC)$")
_LENGTH = (3, 5)
PREPOSITIONS = frozenset({"to", "from", "at", "@"})
# "to" after these words gives a cause or a course, not a destination.
CAUSE_WORDS = frozenset(
    {
        "due", "secondary", "related", "attributed", "attributable",
        "consistent", "progressed", "progressing", "progression", "compared",
        "similar", "leading", "contributing", "prone",
    }
)  # fmt: skip
# English uses a word this often (zipf) as a word: "BATH", "SOUTH", "WITH".
MAX_ZIPF = 3.5
# People bearing a name this often make the word a name ("BETH").
MAX_BEARERS = 100


def find_facilities(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Hospitals' initials on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The initials found, in word positions.
    """
    found: List[Candidate] = []
    for position in range(1, len(words)):
        word = words.words[position]
        if taken[word.index] or word.newline_before or word.joined:
            continue
        if is_initials(word.text) and _after_preposition(words, position):
            found.append((position, position + 1, FACILITY))
    return found


def is_initials(text: str) -> bool:
    """Whether a word may be a hospital's initials ("QVH", "SJMC"), not
    shorthand, a word, a place or a name."""
    if not _LENGTH[0] <= len(text) <= _LENGTH[1] or not _INITIALS.match(text):
        return False
    if is_medical_abbreviation(text):
        return False
    known = lookup(text)
    if known.word_zipf >= MAX_ZIPF or known.place_population:
        return False
    if known.is_state or known.is_state_code or known.is_country:
        return False
    return known.surname_count + known.given_count < MAX_BEARERS


def _after_preposition(words: DocWords, position: int) -> bool:
    """Whether "to", "from", "at" or "@" comes right before, on the same
    line, and no word of cause before "to"."""
    before = words.words[position - 1].text.lower()
    if before not in PREPOSITIONS:
        return False
    if before != "to" or position < 2 or words.words[position - 1].newline_before:
        return True
    return words.words[position - 2].text.lower() not in CAUSE_WORDS

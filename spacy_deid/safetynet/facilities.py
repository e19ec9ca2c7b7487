"""Hospitals' initials that `phi_safety_net` adds where no detector found
them: "transferred from QVH", "records from SJMC", a HOSPITAL.

A word of 3 to 5 capital letters ending in "H" (hospital), "MC" (medical
center) or "HC" (health center) right after "to", "from", "at" or "@" on its
line is a hospital's initials, unless it is clinical shorthand (the
`abbreviations` table: "due to BPH", "from OSH"), a word English uses
(zipf >= `MAX_ZIPF`: "BATH", "SOUTH"), a place, a state or a name people
bear, or "to" follows a word of cause ("secondary to IVH"). On 8,000
generated train notes every such word lies in a gold HOSPITAL span (160:
"LGH", "NSMC", "DHMC"). So does every such word after a facility field's
colon ("Bed search: LGH", "Location: MSH": 111 of 111 in 16,000 train
notes), after a kind of facility and a dash ("rehab - LGH", "SNF - MSH":
27 of 27) and after "of" that follows a person's name or a credential
("Ana Ruiz, PA-C of PHH": 33 of 33); "history of IVH" is left alone.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import List, Sequence

from ..knowledge import lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from ..knowledge.credentials import is_credential
from .cues import FACILITY
from .finder import Candidate
from .words import DocWords

_INITIALS = re.compile(r"^[A-Z]{1,4}(?:H|MC|HC)$")
_LENGTH = (3, 5)
PREPOSITIONS = frozenset({"to", "from", "at", "@"})
# Kinds of facility before a dash and the facility's initials ("rehab - LGH").
FACILITY_KINDS = frozenset(
    {"rehab", "snf", "ltac", "ltach", "hospice", "home", "alf", "ltc", "facility"}
)
# Fields whose value is a facility, before a colon ("Bed search: LGH").
FACILITY_FIELDS = frozenset(
    {
        "search", "location", "destination", "from", "to", "at", "site", "lab",
        "facility", "hospital", "dispo", "disposition", "receiving", "referring",
    }
)  # fmt: skip
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
        if is_initials(word.text) and _facility_cued(words, position):
            found.append((position, position + 1, FACILITY))
    return found


def _facility_cued(words: DocWords, position: int) -> bool:
    """A preposition, a facility field's colon, a kind of facility and a
    dash, or a person's "of" right before the word, on its line."""
    return (
        _after_preposition(words, position)
        or _after_field(words, position)
        or _after_kind(words, position)
        or _after_persons_of(words, position)
    )


def _after_kind(words: DocWords, position: int) -> bool:
    """Whether a kind of facility and a dash come right before ("SNF - LGH")."""
    return _after_word_and_mark(words, position, FACILITY_KINDS, ("-", "\u2013"))


def _after_field(words: DocWords, position: int) -> bool:
    """Whether a facility field and its colon come right before ("Location:")."""
    return _after_word_and_mark(words, position, FACILITY_FIELDS, (":",))


def _after_word_and_mark(
    words: DocWords, position: int, heads: frozenset, marks: Sequence[str]
) -> bool:
    """Whether one of `heads` (any case) and one of `marks` come right
    before `position`, on one line."""
    if position < 2:
        return False
    mark, head = words.words[position - 1], words.words[position - 2]
    return (
        mark.text in marks
        and not mark.newline_before
        and head.text.lower() in heads
    )


def _after_persons_of(words: DocWords, position: int) -> bool:
    """Whether "of" comes right before, after a credential or a word that
    many bear as a name ("Ruiz, PA-C of PHH", "Dr. Ruiz of MSH"), not after
    an ordinary word ("history of IVH")."""
    if position < 2 or words.words[position - 1].text.lower() != "of":
        return False
    before = words.words[position - 2]
    if before.newline_before or words.words[position - 1].newline_before:
        return False
    if is_credential(_joined_word(words, position - 2)):
        return True  # "PA-C", however the tokenizer cut it
    known = lookup(before.text)
    return known.surname_count + known.given_count >= MAX_BEARERS and not (
        known.is_common_word
    )


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


def _joined_word(words: DocWords, last: int) -> str:
    """The text of the words joined without whitespace that end at `last`."""
    first = last
    while first > 0 and words.words[first].joined:
        first -= 1
    return "".join(word.text for word in words.words[first : last + 1])

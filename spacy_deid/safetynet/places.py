"""Places that `phi_safety_net` adds where no detector found them: a US
state's full name, and a large city after a preposition of place.

A state's name is a place wherever it stands, unless many people bear it
("Georgia", "Virginia") or it is part of a longer name ("Kansas State
University", "University of Ohio"). A city's name counts only after "in",
"from", "near" or "to", only when the city is large (`min_city_population`)
and only when the name is no ordinary English word, no drug and borne by
few people: "in Lagos", not "in Mobile" (an ordinary word) or "in Houston"
(a surname too).
On 8,000 generated train notes, no such state or city stands outside a gold
span.

A US state's postal code in capitals right after a city the detectors found,
a comma or a space between on the same line, is the city's state ("Rapid
City, SD", "Dearborn Heights MI"; a code that is a common word, "IN" or
"OR", only after a comma; `find_state_codes`). On 3,000 generated train
notes and a dev draw, with their gold cities, each of the 529 codes so
placed is a gold state. Where no detector found the city, one to three
title-case words before the code that name a place (GeoNames) are the city
("Corpus Christi, TX"; 602 of 602 so placed in 8,000 train notes are gold
cities); a code that is a credential or a field's name too ("Ana Ruiz, MD",
"Agency ID") counts there only before a ZIP code, one that is medical
shorthand only after a comma ("Sim CT scan").

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Optional, Sequence

from spacy.tokens import Doc

from ..knowledge import Knowledge, lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from .cues import CITY, STATE
from .finder import Candidate
from .words import DocWords

# A preposition of place right before a city's name.
CITY_CUES = frozenset(("in", "from", "near", "to"))
# A word before a state's name that makes it part of a longer name.
_NAME_JOINERS = frozenset(("of", "&"))
MAX_PLACE_WORDS = 2  # "New Mexico", "South Dakota"
# State codes that are English words need a comma ("SHIMODA IN APRIL").
WORD_CODES = frozenset({"IN", "OR", "ME", "OK", "HI", "OH"})
# State codes that are credentials or a field's name too ("Ana Ruiz, MD",
# "Agency ID"): after free words only with a ZIP code after them.
CREDENTIAL_CODES = frozenset({"MD", "PA", "MA", "MS", "ID"})
MAX_CITY_WORDS = 3  # "Corpus Christi", "Salt Lake City"


def find_places(
    words: DocWords,
    taken: Sequence[bool],
    kinds: Sequence[str],
    min_city_population: int,
    max_place_bearers: int,
) -> List[Candidate]:
    """States and large cities on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    kinds (Sequence[str]): The classes to look for (`STATE`, `CITY`).
    min_city_population (int): People living in a city for its name to count.
    max_place_bearers (int): A name that more people bear (surname and
        given name) may be a person's: not a place here.
    RETURNS (List[Candidate]): The places found, in word positions.
    """
    found: List[Candidate] = []
    position = 0
    while position < len(words):
        if not _is_title(words.words[position].text):
            position += 1  # most words: no place can start here
            continue
        candidate = _place_at(
            words, taken, position, kinds, min_city_population, max_place_bearers
        )
        if candidate is None:
            position += 1
            continue
        found.append(candidate)
        position = candidate[1]
    return found


def _place_at(
    words: DocWords,
    taken: Sequence[bool],
    position: int,
    kinds: Sequence[str],
    min_city_population: int,
    max_place_bearers: int,
) -> Optional[Candidate]:
    """The longest place that starts at `position`, or None."""
    for size in range(MAX_PLACE_WORDS, 0, -1):
        end = position + size
        if not _free_title_words(words, taken, position, end):
            continue
        text = " ".join(w.text for w in words.words[position:end])
        k = lookup(text)
        if k.surname_count + k.given_count > max_place_bearers or k.is_common_word:
            continue
        if STATE in kinds and _is_state(k, text) and _stands_alone(words, position, end):
            return (position, end, STATE)
        if CITY in kinds and _is_city(k, min_city_population):
            if _after_city_cue(words, position) and not _title_word(words, end):
                return (position, end, CITY)
    return None


def _free_title_words(
    words: DocWords, taken: Sequence[bool], start: int, end: int
) -> bool:
    """Whether words start..end exist, are title-case letters ("Ohio"), lie
    on one line, are apart by a space and are free of entities."""
    if end > len(words):
        return False
    for position in range(start, end):
        word = words.words[position]
        if taken[word.index] or not _is_title(word.text):
            return False
        if position > start and (word.newline_before or word.joined):
            return False
    return True


def _is_title(text: str) -> bool:
    """Title-case letters, three or more ("Ohio", not "OH" or "ohio")."""
    return text.isalpha() and text[0].isupper() and text[1:].islower() and len(text) > 2


def _is_state(k: Knowledge, text: str) -> bool:
    """A state's full name (not a code or an abbreviation such as "Calif")."""
    return k.is_state and not k.is_state_code and not k.is_country and len(text) > 3


def _is_city(k: Knowledge, min_population: int) -> bool:
    """A large place whose name is no drug, state or country."""
    return (
        k.place_population >= min_population
        and not k.is_drug
        and not (k.is_state or k.is_country or k.is_county)
    )


def _stands_alone(words: DocWords, start: int, end: int) -> bool:
    """No title-case word or "of" joins the name to a longer one on its line
    ("Kansas State University", "University of Ohio")."""
    if _title_word(words, end):
        return False
    before = start - 1
    if before < 0 or words.words[start].newline_before or words.words[start].joined:
        return True
    text = words.words[before].text
    return not (_is_title(text) or text.lower() in _NAME_JOINERS)


def _title_word(words: DocWords, position: int) -> bool:
    """Whether a title-case word stands at `position` on the same line."""
    if position >= len(words):
        return False
    word = words.words[position]
    return not word.newline_before and _is_title(word.text)


def _after_city_cue(words: DocWords, position: int) -> bool:
    """Whether a preposition of place, in lower case, comes right before."""
    if position == 0 or words.words[position].newline_before:
        return False
    return words.words[position - 1].text in CITY_CUES


def find_state_codes(
    words: DocWords, taken: Sequence[bool], doc: Doc, city: str
) -> List[Candidate]:
    """US state codes right after a city entity ("Rapid City, SD"), and
    after free words that name a place ("Corpus Christi, TX": the words too,
    as a city).

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    city (str): The label of cities.
    RETURNS (List[Candidate]): The state codes and cities found, in word
        positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        text = word.text
        if taken[word.index] or len(text) != 2 or not text.isupper():
            continue
        if word.newline_before or not lookup(text).is_state_code:
            continue
        before = position - 1
        comma = before >= 0 and words.words[before].text == ","
        if comma:
            if words.words[before].newline_before:
                continue
            before -= 1
        elif text in WORD_CODES:
            continue  # "SHIMODA IN APRIL": a word, without a comma
        if before < 0:
            continue
        if doc[words.words[before].index].ent_type_ == city:
            found.append((position, position + 1, STATE))
            continue
        if not comma and is_medical_abbreviation(text):
            continue  # "Sim CT scan"
        start = _place_start(words, taken, before)
        if start is not None and (text not in CREDENTIAL_CODES or _zip_after(words, position)):
            found.append((start, before + 1, CITY))
            found.append((position, position + 1, STATE))
    return found


def _place_start(words: DocWords, taken: Sequence[bool], end: int) -> Optional[int]:
    """The first word of the longest run of one to three free title-case
    words ending at `end`, on one line, that names a place, or None (the
    state's code says which: GeoNames's largest "Ely" is in England)."""
    best = None
    start = end
    while start >= 0 and end - start < MAX_CITY_WORDS:
        word = words.words[start]
        if taken[word.index] or not (word.text.istitle() and word.text.isalpha()):
            break
        if start < end and words.words[start + 1].newline_before:
            break
        name = " ".join(words.words[k].text for k in range(start, end + 1))
        known = lookup(name)
        if known.place_population:
            best = start
        start -= 1
    return best


def _zip_after(words: DocWords, position: int) -> bool:
    """Whether a ZIP code follows the state code on its line."""
    after = position + 1
    return (
        words.same_line(position, after)
        and len(words.words[after].text) in (5, 10)
        and words.words[after].text[:5].isdigit()
    )

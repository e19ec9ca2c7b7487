"""Variants of a known person name (PATIENT, DOCTOR, USERNAME).

"John Q. Smith" or "Smith, John Q." gives: the full string; "John Smith",
"John Q. Smith", "John Quincy Smith", "John Q Smith" (middle names optional,
an unknown middle initial allowed); "Smith, John [Q.]"; "Smith John";
"J. Smith", "J Smith", "J. Q. Smith", "JQ Smith"; "Smith J.", "Smith, J.";
nicknames of the first name in place of it ("Jack Smith"); and each name
word alone ("Smith", "John") when it has at least `min_part_length` letters
and is not a stop word (English or Spanish), a particle ("de", "van") or a
title. A name of three or more words without a comma is also read as given
name + compound family name ("Lucía Ferrer Soler": "Ferrer Soler, Lucía").
"""

import json
import re
from functools import lru_cache
from pathlib import Path
from typing import Dict, FrozenSet, List, Optional, Sequence, Tuple

from spacy.lang.en.stop_words import STOP_WORDS as EN_STOP_WORDS
from spacy.lang.es.stop_words import STOP_WORDS as ES_STOP_WORDS

from .common import (
    END_WORD,
    HYPHENS,
    Variant,
    alternatives,
    char_regex,
    fold,
    literal,
    word_regex,
)

# Name parts alone need this many letters (and must not be stop words).
MIN_PART_LENGTH = 3

_STOP_WORDS: FrozenSet[str] = frozenset(
    fold(word) for word in EN_STOP_WORDS | ES_STOP_WORDS
)
_TITLES = frozenset(
    "dr doctor mr mrs ms miss mx prof sr sra srta dra don dona rev fr".split()
)
_SUFFIXES = frozenset("jr sr ii iii iv md m.d phd rn np pa dds esq".split())
_PARTICLES = frozenset(
    "de del la las los da das do dos di du van von der den ter le el y e st"
    " mc mac bin ibn al".split()
)
_NICKNAMES = Path(__file__).parent.parent / "synth" / "data"
# Separator between a family name and what follows it in "Smith, J."
_COMMA_OR_SPACE = r"(?:\s*,\s*|\s+)"


@lru_cache(maxsize=1)
def nicknames() -> Dict[str, Tuple[str, ...]]:
    """Folded first name -> folded nicknames and formal names, both ways
    ("robert" -> ("bob", "bobby", "rob"); "bob" -> ("robert",)), from the
    list shipped with the synthetic note generator."""
    path = _NICKNAMES / "nicknames.json"
    data = json.loads(path.read_text(encoding="utf8"))
    table: Dict[str, List[str]] = {}
    for formal, nicks in data.items():
        for nick in nicks:
            table.setdefault(fold(formal), []).append(fold(nick))
            table.setdefault(fold(nick), []).append(fold(formal))
    return {name: tuple(dict.fromkeys(forms)) for name, forms in table.items()}


def _key(token: str) -> str:
    return fold(token).strip(".,")


def name_tokens(text: str) -> Tuple[List[str], Optional[List[str]]]:
    """Split a name into words, without titles ("Dr.") and suffixes ("Jr.").

    text (str): A name, "First [Middle] Last" or "Last, First [Middle]".
    RETURNS (Tuple[List[str], Optional[List[str]]]): The words before the
        first comma and, for "Last, First", the words after it (else None).
    """
    head, _, tail = text.partition(",")
    before = [t for t in head.split() if _key(t) not in _SUFFIXES]
    while before and _key(before[0]) in _TITLES:
        before = before[1:]
    after = [t.strip(",") for t in tail.split() if _key(t) not in _SUFFIXES]
    after = [t for t in after if t and _key(t) not in _TITLES]
    return before, (after or None)


def name_readings(text: str) -> List[Tuple[List[str], List[str]]]:
    """The plausible (given names, family names) readings of a name.

    text (str): The name.
    RETURNS (List[Tuple[List[str], List[str]]]): "Smith, John Q." has one
        reading; "John Q. Smith" two: (John Q.)(Smith) and (John)(Q. Smith),
        as "Lucía Ferrer Soler" is (Lucía)(Ferrer Soler). A compound family
        name is also read without its last word, as Spanish names are
        often written with the first surname only ("Lucía Ferrer").
    """
    before, after = name_tokens(text)
    if after is not None and before:
        readings = [(after, before)]
    elif len(before) < 2:
        return []
    else:
        n = len(before)
        splits = range(1, n) if n <= 4 else (1, n - 1)
        readings = [(before[:i], before[i:]) for i in splits]
    short = [(given, family[:-1]) for given, family in readings if len(family) > 1]
    found = readings + [r for r in short if r not in readings]
    # A family name needs a word of 2+ letters: "John Q" is not a reading.
    return [r for r in found if any(_letters(word) >= 2 for word in r[1])]


def _letters(word: str) -> int:
    return sum(char.isalpha() for char in word)


def _initial(word: str) -> str:
    """An initial with or without its period: "J", "J."."""
    return char_regex(word[0]) + r"\.?"


def _given_forms(word: str) -> List[str]:
    """A first name and its nicknames (or formal names)."""
    word = word.rstrip(".")
    return [word] + list(nicknames().get(fold(word), ()))


def _middle_regex(middles: Sequence[str]) -> str:
    """Optional middle names, each in full or as an initial; with no known
    middle name, an optional unknown initial ("John Q. Smith")."""
    if not middles:
        return r"(?:\s+[^\W\d_]\.?)?"
    parts = [rf"(?:\s+{word_regex(m.rstrip('.'))}|\s+{_initial(m)})" for m in middles]
    return "(?:" + "".join(parts) + ")?"


def reading_variants(given: List[str], family: List[str]) -> List[Variant]:
    """The variants of one (given names, family names) reading.

    given (List[str]): Given names, the first one first.
    family (List[str]): Family names.
    RETURNS (List[Variant]): The variants.
    """
    first, middles = given[0].rstrip("."), given[1:]
    fam_text = " ".join(family)
    fam = word_regex(fam_text)
    inits = "".join(rf"(?:\s*{_initial(m)})?" for m in middles)
    initials = _initial(first) + inits
    found = [
        Variant(first[0], rf"\.?{inits}\s*{fam}{END_WORD}"),  # J. [Q.] Smith
        Variant(fam_text, rf"{_COMMA_OR_SPACE}{initials}{END_WORD}"),  # Smith J.
    ]
    if len(first) < 2:  # only an initial is known
        return found
    given_re = alternatives(_given_forms(first))
    middle = _middle_regex(middles)
    for form in _given_forms(first):  # John [Q.] Smith, Jack Smith
        found.append(Variant(form, rf"{middle}\s+{fam}{END_WORD}"))
    found += [
        Variant(fam_text, rf"\s*,\s*{given_re}{middle}{END_WORD}"),  # Smith, John
        Variant(fam_text, rf"\s+{given_re}{END_WORD}"),  # Smith John
    ]
    return found


def name_parts(text: str, min_length: int = MIN_PART_LENGTH) -> List[str]:
    """The name words searched alone: at least `min_length` letters, not a
    stop word, particle, title or suffix; hyphenated names also by part.

    text (str): The name.
    min_length (int): Fewest letters of a part searched alone.
    RETURNS (List[str]): The words, in order, without duplicates.
    """
    before, after = name_tokens(text)
    words: List[str] = []
    for token in before + (after or []):
        token = token.strip('.,;:()"')
        words.append(token)
        pieces = re.split(f"[{HYPHENS}]", token)
        if len(pieces) > 1:
            words.extend(pieces)
    keep = []
    for word in words:
        key = _key(word)
        if _letters(word) < min_length:
            continue
        if key in _STOP_WORDS or key in _PARTICLES or key in _TITLES:
            continue
        keep.append(word)
    return list(dict.fromkeys(keep))


def name_variants(text: str, min_part_length: int = MIN_PART_LENGTH) -> List[Variant]:
    """All variants of a person's name (see the module docstring).

    text (str): The name as recorded, e.g. "Smith, John Q." or "Ann Lee".
    min_part_length (int): Fewest letters of a name word searched alone;
        0 searches no word alone.
    RETURNS (List[Variant]): The variants.
    """
    found = [literal(text)]
    for given, family in name_readings(text):
        found += reading_variants(given, family)
    if min_part_length > 0:
        found += [literal(part) for part in name_parts(text, min_part_length)]
    return [variant for variant in found if variant.head]

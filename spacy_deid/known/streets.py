"""Variants of a known street address (STREET).

Every street word is matched in any of its usual forms: Street/St/St./Str,
Avenue/Ave/Av, Road/Rd, Drive/Dr, Boulevard/Blvd, Lane/Ln, Court/Ct,
Place/Pl, Circle/Cir, Highway/Hwy, Parkway/Pkwy, Terrace/Ter, Square/Sq,
North/N, South/S, East/E, West/W, Apartment/Apt, Suite/Ste, and Spanish
Calle/C/, Avenida/Avda/Av., Plaza/Pza/Pl., Paseo/Pº, Carretera/Ctra,
número/nº, with or without a period. Commas between words are optional.
Shorter forms are matched too: without the unit ("12 Main St" for "12 Main
St, Apt 4"), without the house number ("Main St"), and the Spanish street
without its number ("Calle Mayor" for "Calle Mayor 5, 3º B"), as long as a
name word (3+ letters, not a street word) is left.
"""

import re
from functools import lru_cache
from typing import Dict, List, Sequence, Tuple

from .common import Variant, end_of, fold, literal, start_of, word_regex

_STREET_FORMS: Tuple[Tuple[str, ...], ...] = (
    ("street", "st", "str"),
    ("avenue", "ave", "av"),
    ("road", "rd"),
    ("drive", "dr"),
    ("boulevard", "blvd", "blv"),
    ("lane", "ln"),
    ("court", "ct"),
    ("place", "pl"),
    ("circle", "cir"),
    ("highway", "hwy"),
    ("parkway", "pkwy"),
    ("terrace", "ter", "terr"),
    ("square", "sq"),
    ("north", "n"),
    ("south", "s"),
    ("east", "e"),
    ("west", "w"),
    ("apartment", "apt"),
    ("suite", "ste"),
    ("calle", "c/", "c"),
    ("avenida", "avda", "av"),
    ("plaza", "pza", "pl"),
    ("paseo", "pº", "po"),
    ("carretera", "ctra"),
    ("número", "nº", "no", "num"),
)
_UNIT_WORDS = frozenset("apartment apt suite ste unit piso puerta planta".split())
_JOIN = r"(?:\s*,\s*|\s+|(?<=[/.]))"


@lru_cache(maxsize=1)
def street_forms() -> Dict[str, Tuple[str, ...]]:
    """Folded street word -> every form it may be written in."""
    table: Dict[str, List[str]] = {}
    for group in _STREET_FORMS:
        for form in group:
            table.setdefault(fold(form), []).extend(group)
    return {key: tuple(dict.fromkeys(forms)) for key, forms in table.items()}


def _forms_of(word: str) -> Tuple[str, ...]:
    """The forms of a street word ("St." -> street, st, str), or ()."""
    return street_forms().get(fold(word).rstrip("."), ())


def street_words(text: str) -> List[str]:
    """The words of an address: "C/Mayor" gives "C/", "Mayor"; commas go."""
    text = re.sub(r"(?i)(?<![^\W_])(c/)\s*", r"\1 ", text)
    words = [word.strip(",") for word in text.split()]
    return [word for word in words if word]


def _word(word: str) -> str:
    """One word of an address; a street word in any of its forms."""
    forms = _forms_of(word)
    if not forms:
        return word_regex(word)
    regexes = sorted({word_regex(form) for form in forms}, key=len, reverse=True)
    return "(?:" + "|".join(regexes) + r")\.?"


def _is_number(word: str) -> bool:
    return bool(re.match(r"^\d+[^\W\d_]?$", word))


def _has_name(words: Sequence[str]) -> bool:
    """Whether a word is a name: 3+ letters and not a street word."""
    return any(sum(c.isalpha() for c in w) >= 3 and not _forms_of(w) for w in words)


def street_subsets(words: List[str]) -> List[List[str]]:
    """The address and its shorter forms: without the unit ("Apt 4"),
    without a leading house number, before a later house number.

    words (List[str]): The words of the address.
    RETURNS (List[List[str]]): Word lists of 2+ words with a name word.
    """
    subsets = [words]
    for i, word in enumerate(words):
        if i > 0 and (fold(word).rstrip(".") in _UNIT_WORDS or word.startswith("#")):
            subsets.append(words[:i])
            break
    for base in list(subsets):
        if base and _is_number(base[0]):
            subsets.append(base[1:])
        later = [i for i, word in enumerate(base) if i > 0 and _is_number(word)]
        if later and not _is_number(base[0]):
            subsets.append(base[: later[0]])
    keep = [s for s in subsets if len(s) >= 2 and _has_name(s)]
    return [list(s) for s in dict.fromkeys(tuple(s) for s in keep)]


def _subset_variants(words: List[str]) -> List[Variant]:
    """The variants of one word list: one per form of its first word."""
    tail = _JOIN + _JOIN.join(_word(word) for word in words[1:])
    tail += end_of(words[-1].rstrip("."))
    heads = _forms_of(words[0]) or (words[0],)
    dot = r"\.?" if _forms_of(words[0]) else ""
    return [Variant(head, dot + tail, start_of(head)) for head in heads]


def street_variants(text: str) -> List[Variant]:
    """The address with street words in any form, and its shorter forms.

    text (str): The street address, e.g. "12 Main Street, Apt 4".
    RETURNS (List[Variant]): The variants.
    """
    found = [literal(text)]
    for subset in street_subsets(street_words(text)):
        found += _subset_variants(subset)
    return found

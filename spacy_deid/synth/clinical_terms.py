"""Non-PHI clinical vocabulary from the knowledge tables: ICD-10-CM diagnoses
and FDA drug names.

The curated lists of `data/clinical.json` hold about a hundred conditions and
drugs, so a tagger trained on them meets few capitalised clinical words that are
not names, and takes an unfamiliar diagnosis ("Scleral ectasia") or brand for a
person or a firm. These samplers draw from 11,000 diagnoses and thousands of
drug names instead. They are not PHI, so every split shares them.
"""

import re
from functools import lru_cache
from random import Random
from typing import Tuple

from ..knowledge.tables import load

# A drug name that is also a name, a place or an ordinary word (wordfreq zipf 3,
# in centibels) would teach the tagger that such words are never PHI.
_COMMON_WORD_CB = 300
_DRUG_LENGTHS = range(5, 15)


# Diagnoses only one sex or one age group can have: ICD-10-CM's blocks of the
# genital organs, their cancers, pregnancy (O) and the perinatal period (P),
# and the words that mark such a diagnosis elsewhere in the list.
_FEMALE_CODES = ("C50", "C51", "C52", "C53", "C54", "C55", "C56", "C57", "C58",
                 "D06", "D25", "D26", "D27", "D28", "D39", "E28", "N7", "N8", "N9",
                 "O")  # fmt: skip
_MALE_CODES = ("C60", "C61", "C62", "C63", "D29", "D40", "N4", "N50", "N51",
               "N52", "N53")  # fmt: skip
_CHILD_CODES = ("P",)
_ADULT_CODES = ("G30", "I71", "J43", "J44", "N18.6")
_FEMALE_WORDS = re.compile(
    r"\b(pregnan|ovar|uter|endometri|cervi|vagin|vulv|menstru|menopaus|female|"
    r"maternal|breast|puerper|placent)",
    re.I,
)
_MALE_WORDS = re.compile(r"\b(prostat|testi|scrot|penis|penile|male\b)", re.I)
_CHILD_WORDS = re.compile(r"\b(newborn|neonat|perinatal|infant|child|juvenile)", re.I)
_ADULT_WORDS = re.compile(r"\b(senile|alzheimer|age-related|postmenopaus)", re.I)


def _fits(code: str, description: str, sex: str, adult: bool) -> bool:
    if sex != "F" and (
        code.startswith(_FEMALE_CODES) or _FEMALE_WORDS.search(description)
    ):
        return False
    if sex != "M" and (code.startswith(_MALE_CODES) or _MALE_WORDS.search(description)):
        return False
    if adult:
        return not (code.startswith(_CHILD_CODES) or _CHILD_WORDS.search(description))
    return not (code.startswith(_ADULT_CODES) or _ADULT_WORDS.search(description))


@lru_cache(maxsize=None)
def _conditions(sex: str, adult: bool) -> Tuple[Tuple[str, str], ...]:
    return tuple(
        (code, description)
        for code, description in sorted(load("conditions").items())
        if _fits(code, description, sex, adult)
    )


@lru_cache(maxsize=None)
def _drug_names() -> Tuple[str, ...]:
    words, places = load("words"), load("places")
    surnames, given = load("surnames"), load("given")
    return tuple(
        sorted(
            key
            for key in load("drugs")
            if key.isalpha()
            and len(key) in _DRUG_LENGTHS
            and words.get(key, 0) < _COMMON_WORD_CB
            and key not in surnames
            and key not in given
            and key not in places
        )
    )


def diagnosis(rng: Random, sex: str = "", age: int = 50) -> Tuple[str, str]:
    """An ICD-10-CM diagnosis that a person of this sex and age can have,
    uniformly.

    sex (str): "F", "M", or "" (unknown: neither sex's own diagnoses).
    age (int): Years; under 18 excludes adults' diagnoses, 18 and over the
        perinatal and childhood ones.
    RETURNS (Tuple[str, str]): (code, description), e.g. ("H40.83", "Aqueous
        misdirection").
    """
    return rng.choice(_conditions(sex, age >= 18))


def drug_name(rng: Random) -> str:
    """A one-word drug name (brand or generic, lower case) that is no name,
    place or common word."""
    return rng.choice(_drug_names())


def written(rng: Random, text: str) -> str:
    """A term as notes write it: as listed, lower case, title case or upper
    case."""
    r = rng.random()
    if r < 0.55:
        return text
    if r < 0.8:
        return text.lower()
    if r < 0.95:
        return " ".join(w[:1].upper() + w[1:] for w in text.split(" "))
    return text.upper()

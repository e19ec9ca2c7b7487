"""Diagnosis words: does a word belong to the names of diseases?

The `conditions` table holds ICD-10-CM's short diagnosis descriptions. A
lower-case word of them that English seldom uses otherwise ("cardiomyopathy",
"thyroiditis", "macroglobulinemia") after a capitalised word makes that word
an eponym, not a person: "re: Takotsubo cardiomyopathy".
"""

import re
from functools import lru_cache
from typing import FrozenSet

from .lookup import lookup
from .tables import load

# Words at least this common in English ("left", "with", "acute") say
# nothing of a diagnosis.
MAX_CONDITION_ZIPF = 4.0
_WORD = re.compile(r"[a-z][a-z\-]*[a-z]")


@lru_cache(maxsize=1)
def condition_words() -> FrozenSet[str]:
    """The words of ICD-10-CM's descriptions, lower-cased (read on first
    use: about 40 ms)."""
    return frozenset(_WORD.findall(" ".join(load("conditions").values()).lower()))


def is_condition_word(word: str) -> bool:
    """Whether a word names part of a diagnosis and is no common English word.

    word (str): The word.
    RETURNS (bool): True for "cardiomyopathy", False for "left" or "Smith".
    """
    lower = word.lower()
    return lookup(lower).word_zipf < MAX_CONDITION_ZIPF and lower in condition_words()

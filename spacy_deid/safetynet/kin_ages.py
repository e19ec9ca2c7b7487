"""Ages of relatives that `phi_safety_net` adds where no detector found them:
a number in brackets right after a relative's name ("children Ishimwe (6)
and Uwase (3)", "dau Lanh (now 5)"), the numbers after "ages" ("two
children, ages 14 and 9") and an age at diagnosis in a family history
("breast ca dx 49", not "dx 10 yrs ago").

A number in brackets after a name is an age only in a family's context:
"sick list: Maury (19)" of a sign-out gives a bed. So the name must be a
person entity, and a relative's word (`cues.RELATIVE_CUES` or a plural:
"kids", "siblings") must come before it on its line, with no sentence end
between (`text.kin_ages`, which `phi_relabel` reads too). On 3,000 generated train notes and a dev draw, with their gold
names, each of the 83 numbers so placed or after "ages" is a gold age, and
so is each of the 25 numbers after "dx".

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Optional, Sequence

from spacy.tokens import Doc

from ..text.kin_ages import bracketed_kin_age

from .cues import KIN_AGE, RELATIVE_CUES
from .finder import Candidate
from .words import DocWords

KIN_WORDS = frozenset(RELATIVE_CUES) | {
    "kids", "siblings", "sons", "daughters", "brothers", "sisters",
    "grandchildren", "grandkids", "grandsons", "granddaughters", "dau", "child",
}  # fmt: skip
AGES_CUES = frozenset({"ages", "aged"})
# Words before an age at diagnosis ("dx 49"), and durations that make the
# number no age ("dx 10 yrs ago").
DIAGNOSIS_CUES = frozenset({"dx"})
DURATION_WORDS = frozenset(
    {"y", "yr", "yrs", "year", "years", "mo", "mos", "month", "months", "wk",
     "wks", "week", "weeks", "d", "day", "days", "ago", "/"}
)  # fmt: skip
_LIST_WORDS = frozenset({",", "and", "&"})
_MAX_AGE_DIGITS = 2


def find_kin_ages(
    words: DocWords, taken: Sequence[bool], doc: Doc, person: str
) -> List[Candidate]:
    """Relatives' ages in brackets after their names, and ages after "ages".

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    person (str): The label of relatives' names.
    RETURNS (List[Candidate]): The ages found, in word positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if taken[word.index] or not _is_age_number(word.text):
            continue
        if (
            bracketed_kin_age(doc, word.index, word.index + 1, {person}, KIN_WORDS)
            or _after_ages(words, position)
            or _at_diagnosis(words, position)
        ):
            found.append((position, position + 1, KIN_AGE))
    return found


def _is_age_number(text: str) -> bool:
    return text.isdigit() and len(text) <= _MAX_AGE_DIGITS


def _text(words: DocWords, position: int) -> Optional[str]:
    """A word's lower-case text, or None before the doc or across a line
    from the word after it."""
    if not words.same_line(position, position + 1):
        return None
    return words.words[position].text.lower()


def _at_diagnosis(words: DocWords, position: int) -> bool:
    """"dx 49" with no duration after it ("dx 10 yrs ago")."""
    if _text(words, position - 1) not in DIAGNOSIS_CUES:
        return False
    after = position + 1
    if after < len(words) and not words.words[after].newline_before:
        return words.words[after].text.lower() not in DURATION_WORDS
    return True


def _after_ages(words: DocWords, position: int) -> bool:
    """A number in a list of numbers right after "ages" ("ages 14 and 9")."""
    k = position - 1
    while k >= 0:
        text = _text(words, k)
        if text in AGES_CUES:
            return True
        if text is None or not (text in _LIST_WORDS or _is_age_number(text)):
            return False
        k -= 1
    return False

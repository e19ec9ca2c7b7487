"""Months that `phi_safety_net` adds where no detector found them: a month's
full name in title case standing free ("before the October trip").

A month's name is a date wherever it stands in a note, except "May" (the
modal verb), and except where a title-case word or an initial follows it on
its line ("July Kim", "July B. Ross": a first name). The net runs after the
detectors, so a first name they found is never taken for a month; a name
that a cue class finds on the same words wins (`CUE_CLASSES` order). On
8,000 generated train notes, every capitalised month name lies in a gold
span.

A month's abbreviation in title case ("Sept", "Nov") is a date after a word
that sets a time ("in", "since", "until", "early", ...): "seen last in Nov",
"was 19 in Sept"; elsewhere "Jan" and "Jun" are names too, "Dec" shorthand.
So is "May" after such a word or before the second month of a range ("in
May", "tried May through September"), where the modal verb never stands.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Sequence

from ..text.datenames import MONTH_ABBRS, MONTHS
from .cues import MONTH
from .finder import Candidate
from .words import DocWords

# "May" is also the modal verb.
MONTH_NAMES = frozenset(name for name in MONTHS if name != "May")
# Words after which a month's abbreviation names a time ("in Nov").
TIME_WORDS = frozenset(
    {
        "in", "since", "until", "till", "through", "thru", "from", "by", "of",
        "early", "late", "mid", "last", "next", "before", "after", "during",
    }
)  # fmt: skip


# Words between the two months of a range ("May through September").
RANGE_LINKS = frozenset({"through", "thru", "to", "until", "-", "\u2013"})


def find_months(words: DocWords, taken: Sequence[bool]) -> List[Candidate]:
    """Month names on words outside entities and known non-PHI.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    RETURNS (List[Candidate]): The months found, in word positions.
    """
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if taken[word.index]:
            continue
        if word.text in MONTH_NAMES and not _name_follows(words, position + 1):
            found.append((position, position + 1, MONTH))
        elif word.text == "May" and _may_is_month(words, position):
            found.append((position, position + 1, MONTH))
        elif word.text.rstrip(".") in MONTH_ABBRS and _after_time_word(words, position):
            found.append((position, position + 1, MONTH))
    return found


def _may_is_month(words: DocWords, position: int) -> bool:
    """"May" after a word that sets a time ("in May", "until May"), or
    before "through", "to" or a dash and a month ("May through September"):
    the modal verb stands in neither place."""
    if _after_time_word(words, position):
        return True
    link, month = position + 1, position + 2
    if month >= len(words) or words.words[link].newline_before:
        return False
    if words.words[link].text.lower() not in RANGE_LINKS:
        return False
    text = words.words[month].text.rstrip(".")
    return not words.words[month].newline_before and (text in MONTHS or text in MONTH_ABBRS)


def _after_time_word(words: DocWords, position: int) -> bool:
    """Whether a word that sets a time comes right before, on the same line."""
    if position == 0 or words.words[position].newline_before:
        return False
    return words.words[position - 1].text.lower() in TIME_WORDS


def _name_follows(words: DocWords, position: int) -> bool:
    """Whether a title-case word or an initial comes next on the same line."""
    if position >= len(words):
        return False
    word = words.words[position]
    text = word.text.rstrip(".")
    return not word.newline_before and text[:1].isupper() and text.isalpha()

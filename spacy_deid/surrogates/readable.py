"""Surrogates that read well in their sentence, also when a span's label is
wrong or odd: a single lower-case word stays one lower-case word ("fall"
tagged PROFESSION becomes "welder", not "Public Librarian"), an article
agrees with the surrogate after it ("a [engineer]" becomes "an ..."), and
job titles are in natural order ("public librarian", not Faker's "Librarian,
public").

The article is outside the PHI span: changing it adds a region of its own to
the offset map, so the check of the output (every region accounted for,
everything else unchanged) still holds.
"""

import re
from typing import List, Optional, Sequence, Tuple

# One lower-case word: letters, with inner hyphens or apostrophes.
_LOWER_WORD = re.compile(r"[a-z]+(?:['\-][a-z]+)*")
_WORD = re.compile(r"[A-Za-z]+(?:['\-][A-Za-z]+)*")
# Labels whose surrogates are free words (not numbers, dates or ages). Place
# names are left out: a lower-case "west virginia" must stay the state that
# the note's other mentions and ZIP codes agree with, whole.
WORD_LABELS = frozenset(
    {
        "PATIENT", "DOCTOR", "USERNAME", "PROFESSION", "DEPARTMENT", "HOSPITAL",
        "ORGANIZATION", "LOCATION_OTHER",
    }
)  # fmt: skip
# An article right before a replaced span: "a " or "an ", any case.
_ARTICLE = re.compile(r"(?<![\w'])(an?|AN?|An)([ \t]+)$")
# Words that start with a vowel letter but a consonant sound, and the
# reverse (a silent "h").
_CONSONANT_SOUND = re.compile(r"(?i)^(?:uni|use|usu|uro|eu|one|once|ew)")
_VOWEL_SOUND = re.compile(r"(?i)^(?:hour|honest|honou?r|heir)")
# Digits read with a vowel sound: 8, 11, 18, 80...
_VOWEL_DIGITS = re.compile(r"^(?:8|11|18)")


def is_one_lower_word(text: str) -> bool:
    """Whether `text` is a single lower-case word ("fall", "ago")."""
    return _LOWER_WORD.fullmatch(text) is not None


def one_lower_word(surrogate: str) -> Optional[str]:
    """A surrogate as one lower-case word: itself if it is one word, else its
    last word (the head of an English noun phrase: "public librarian" ->
    "librarian"); None if it has no word."""
    words = _WORD.findall(surrogate)
    if not words:
        return None
    return words[-1].lower()


def natural_job(title: str) -> str:
    """A job title in natural word order: Faker's "Librarian, public" ->
    "Public librarian", "Scientist, research (maths)" -> "Research scientist
    (maths)"; other titles unchanged."""
    if ", " not in title:
        return title
    head, modifier = title.split(", ", 1)
    note = ""
    if " (" in modifier:
        modifier, rest = modifier.split(" (", 1)
        note = " (" + rest
    return f"{modifier[:1].upper()}{modifier[1:]} {head[:1].lower()}{head[1:]}{note}"


def article_for(word: str) -> str:
    """ "a" or "an" before `word`, by its first sound (a spelling heuristic)."""
    if not word:
        return "a"
    if word[0].isdigit():
        return "an" if _VOWEL_DIGITS.match(word) else "a"
    if _VOWEL_SOUND.match(word):
        return "an"
    if word[0].lower() in "aeiou" and not _CONSONANT_SOUND.match(word):
        return "an"
    return "a"


def _recased(article: str, like: str) -> str:
    if like.isupper() and len(like) > 1:
        return article.upper()
    if like[:1].isupper():
        return article[:1].upper() + article[1:]
    return article


def article_fixes(
    text: str, replacements: Sequence[Tuple[int, int, str]]
) -> List[Tuple[int, int, str]]:
    """The article changes that make "a"/"an" before each replacement agree
    with its new text; an article inside another replacement is left alone.

    text (str): The input text.
    replacements (Sequence[Tuple[int, int, str]]): Sorted, non-overlapping
        (start, end, new_text).
    RETURNS (List[Tuple[int, int, str]]): (start, end, new_article) for the
        articles to change, sorted.
    """
    fixes = []
    previous_end = 0
    for start, end, new in replacements:
        # Not before the previous replacement's end: that text is replaced.
        match = _ARTICLE.search(text, max(previous_end, start - 8), start)
        previous_end = end
        if match is None:
            continue
        old = match.group(1)
        wanted = _recased(article_for(new.lstrip("\"'([")), old)
        if wanted != old:
            fixes.append((match.start(1), match.end(1), wanted))
    return fixes


def with_article_fixes(
    text: str, replacements: List[Tuple[int, int, str]]
) -> List[Tuple[int, int, str]]:
    """The replacements and the article changes they need, sorted."""
    return sorted(replacements + article_fixes(text, replacements))

"""Building blocks of known-PHI variants: folding, case- and accent-insensitive
character classes, word boundaries and the `Variant` type.

Variants are written without `re.IGNORECASE`: every letter becomes an
explicit class ("j" -> "[jJ]", "a" -> "[aAáÁàÀ...]"), so that the combined
regex (see `variants.KnownMatcher`) starts each branch with a plain character
class, which Python's regex engine checks inline, without backtracking into
the branch.
"""

import os
import re
import unicodedata
from dataclasses import dataclass
from typing import Dict, List, Tuple

# What may not stand before a variant (fixed-width classes): "word": a
# letter or digit; "digit": a digit ("MRN12345" holds the MRN "12345");
# "number": a digit, or a digit and "/" or "." (not the end of another
# date: "17/3/1950" does not hold "3/1950"); "": nothing is excluded.
WORD = "word"
DIGIT = "digit"
NUMBER = "number"
ANY = ""
BEFORE: Dict[str, Tuple[str, ...]] = {
    WORD: (r"[^\W_]",),
    DIGIT: (r"[0-9]",),
    NUMBER: (r"[0-9]", r"[0-9][/.]"),
    ANY: (),
}
# Word boundaries at the end of a variant.
END_WORD = r"(?![^\W_])"
END_DIGIT = r"(?![0-9])"
WS = r"\s+"
# Separators allowed between the characters of an ID or a phone number.
ID_SEP = r"[ \t.\-\u2010-\u2015()]{0,3}"

# Letters matched together, whatever the accent.
_ACCENTS: Dict[str, str] = {
    "a": "aáàâäãå",
    "e": "eéèêë",
    "i": "iíìîï",
    "o": "oóòôöõø",
    "u": "uúùûü",
    "n": "nñ",
    "c": "cç",
    "y": "yýÿ",
}
APOSTROPHES = "'\u2019\u2018`\u00b4"
HYPHENS = "-\u2010\u2011\u2012\u2013"


def fold(text: str) -> str:
    """Lower case without accents ("Lucía" -> "lucia").

    text (str): Any text.
    RETURNS (str): The folded text.
    """
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def _cases(chars: str) -> List[str]:
    """Each character in lower and upper case (single characters only)."""
    found: List[str] = []
    for char in chars:
        for form in (char, char.lower(), char.upper()):
            if len(form) == 1 and form not in found:
                found.append(form)
    return found


def char_regex(char: str) -> str:
    """The regex for one character of a known text, for use where case is
    ignored (see `Variant.regex`): a letter with any accent, any apostrophe
    (or none), any hyphen (or a space, or nothing), any whitespace run for
    whitespace, other characters as they are.

    char (str): One character.
    RETURNS (str): The regex.
    """
    if char in APOSTROPHES:
        return "['\u2019\u2018`\u00b4]?"
    if char in HYPHENS:
        return r"[-\u2010-\u2013\s]?"
    if char.isspace():
        return WS
    base = fold(char)
    if char.isalpha() and base in _ACCENTS:
        return "[" + _ACCENTS[base] + "]"
    return re.escape(char)


def char_class(char: str) -> str:
    """Like `char_regex` for a letter or digit, but matching both cases by
    itself ("j" -> "[jJ]"), so that no flag is needed: a branch led by it is
    checked inline by the regex engine.

    char (str): One character.
    RETURNS (str): The regex.
    """
    if not char.isalpha():
        return char_regex(char)
    base = fold(char)
    letters = _ACCENTS.get(base, base) if len(base) == 1 else ""
    forms = _cases(letters + char)
    if len(forms) == 1:
        return re.escape(forms[0])
    return "[" + "".join(re.escape(form) for form in forms) + "]"


def ignore_case(regex: str) -> str:
    """The regex with case ignored (a scoped flag)."""
    return f"(?i:{regex})" if regex else ""


def is_simple(char: str) -> bool:
    """Whether `char_regex(char)` always matches exactly one character."""
    return not (char in APOSTROPHES or char in HYPHENS or char.isspace())


def word_regex(word: str) -> str:
    """A case- and accent-insensitive regex for a word or phrase; whitespace
    runs match any whitespace run.

    word (str): The word, e.g. "O'Brien" or "Lucía Ferrer".
    RETURNS (str): The regex (no boundaries).
    """
    pieces: List[str] = []
    for char in re.sub(r"\s+", " ", word):
        piece = char_regex(char)
        if not (piece == WS and pieces and pieces[-1] == WS):
            pieces.append(piece)
    return "".join(pieces)


def alternatives(words: List[str]) -> str:
    """A group matching any of the words (longest first; "" allowed).

    words (List[str]): Literal words.
    RETURNS (str): The regex.
    """
    forms = sorted(dict.fromkeys(word_regex(word) for word in words), key=len)
    return "(?:" + "|".join(reversed(forms)) + ")"


def by_prefix(words: List[str]) -> List[Tuple[str, str]]:
    """Words grouped by their first letter, as (common prefix, regex for the
    rest) pairs: ["March", "Mar", "marzo"] -> [("mar", "(?:ch|zo|)")].

    words (List[str]): Literal words.
    RETURNS (List[Tuple[str, str]]): The pairs.
    """
    groups: Dict[str, List[str]] = {}
    for word in words:
        groups.setdefault(fold(word[:1]), []).append(word.lower())
    pairs = []
    for members in groups.values():
        prefix = os.path.commonprefix(members)
        rest = [member[len(prefix) :] for member in members]
        pairs.append((prefix, alternatives(rest) if any(rest) else ""))
    return pairs


def start_of(text: str) -> str:
    """The boundary a variant starting like `text` needs before it: WORD for
    a letter, DIGIT for a digit, ANY for punctuation."""
    first = text[:1]
    if first.isdigit():
        return DIGIT
    return WORD if first.isalnum() else ANY


def end_of(text: str) -> str:
    """The boundary after a variant ending like `text` (see `start_of`)."""
    last = text[-1:]
    if last.isdigit():
        return END_DIGIT
    return END_WORD if last.isalnum() else ""


def not_after(start: str, skip: int = 0) -> str:
    """Lookbehinds for a start boundary, checked `skip` characters into the
    variant.

    start (str): WORD, DIGIT, NUMBER or ANY.
    skip (int): Characters of the variant already consumed.
    RETURNS (str): The lookbehinds.
    """
    return "".join(f"(?<!{before}{'.' * skip})" for before in BEFORE[start])


@dataclass(frozen=True)
class Variant:
    """One surface variant of a known item: a literal start (`head`, matched
    case- and accent-insensitively) and a regex for the rest (`tail`, with
    its end boundary). `start` is the boundary before it (WORD, DIGIT,
    NUMBER, ANY).
    """

    head: str
    tail: str = ""
    start: str = WORD

    @property
    def regex(self) -> str:
        """The whole variant as one regex, start boundary included."""
        return not_after(self.start) + ignore_case(word_regex(self.head) + self.tail)

    def size(self) -> int:
        """A rough length, to try longer variants first."""
        return len(self.regex)


def literal(text: str) -> Variant:
    """The variant matching `text` itself (any case, accents, whitespace),
    as a whole word; leading punctuation is left out ("(617) 555-0142"
    starts at "617"), so that every variant starts at a letter or digit.

    text (str): The text, with at least one letter or digit.
    RETURNS (Variant): The variant.
    """
    text = re.sub(r"^[\W_]+", "", text.strip())
    return Variant(text, end_of(text), start_of(text))

"""Character-shape-preserving replacement (phone numbers, IDs, ZIP codes...).

Every digit becomes a derived digit and every letter a derived letter of the
same case; punctuation, spaces and length are kept.
"""

import random
import re
import string
from typing import Collection, Iterable

_WORD_RE = re.compile(r"[^\W\d_]+")


def normalize_alnum(text: str) -> str:
    """The letters and digits of a value, case-folded: "(617) 555-1234" and
    "617.555.1234" normalise to the same string, so they get the same digits.

    text (str): The value.
    RETURNS (str): Its case-folded letters and digits.
    """
    return "".join(char for char in text.casefold() if char.isalnum())


def normalize_text(text: str) -> str:
    """Case-folded text with runs of whitespace collapsed.

    text (str): The value.
    RETURNS (str): The normalised value.
    """
    return " ".join(text.casefold().split())


def replace_char(char: str, rng: random.Random, hex_letters: bool = False) -> str:
    """Replace one character by one of the same kind.

    char (str): The character.
    rng (random.Random): The seeded generator.
    hex_letters (bool): Draw letters from a-f (for hex strings, e.g. IPv6).
    RETURNS (str): The replacement (the character itself if not alphanumeric).
    """
    if char.isdigit():
        return rng.choice(string.digits)
    if char.isalpha():
        pool = "abcdef" if hex_letters else string.ascii_lowercase
        new = rng.choice(pool)
        return new.upper() if char.isupper() else new
    return char


def shape_replace(
    text: str,
    rng: random.Random,
    *,
    letters: bool = True,
    keep_words: Collection[str] = (),
    hex_letters: bool = False,
) -> str:
    """Replace digits (and letters) keeping punctuation, case and length.

    text (str): The value.
    rng (random.Random): The seeded generator.
    letters (bool): Whether to replace letters too.
    keep_words (Collection[str]): Lower-case words kept as they are, e.g. "ext".
    hex_letters (bool): Draw letters from a-f.
    RETURNS (str): The replacement.
    """
    keep = kept_positions(text, keep_words) if keep_words else set()
    chars = []
    for i, char in enumerate(text):
        if i in keep or (char.isalpha() and not letters):
            chars.append(char)
        else:
            chars.append(replace_char(char, rng, hex_letters=hex_letters))
    return "".join(chars)


def has_alnum(text: str) -> bool:
    """Whether the text has any letter or digit."""
    return any(char.isalnum() for char in text)


def random_capitals(length: int, rng: random.Random) -> str:
    """A string of random capital letters.

    length (int): The length.
    rng (random.Random): The seeded generator.
    RETURNS (str): The letters.
    """
    return "".join(rng.choice(string.ascii_uppercase) for _ in range(length))


def apply_case(template: str, value: str) -> str:
    """Give `value` the letter case pattern of `template` (upper, lower or
    as-is for title/mixed case).

    template (str): The original text.
    value (str): The new text.
    RETURNS (str): The re-cased value.
    """
    letters = [char for char in template if char.isalpha()]
    if not letters:
        return value
    if all(char.isupper() for char in letters) and len(letters) > 1:
        return value.upper()
    if all(char.islower() for char in letters):
        return value.lower()
    return value


def kept_positions(text: str, keep_words: Iterable[str]) -> set:
    """The positions of the characters of `text` in words of `keep_words`
    (compared in lower case)."""
    keep_set = {word.lower() for word in keep_words}
    positions = set()
    for match in _WORD_RE.finditer(text):
        if match.group().lower() in keep_set:
            positions.update(range(match.start(), match.end()))
    return positions

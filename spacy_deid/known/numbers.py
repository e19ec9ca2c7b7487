"""Variants of known IDs (SSN, MEDICALRECORD, HEALTHPLAN, ACCOUNT, LICENSE,
VEHICLE, DEVICE, BIOID, IDNUM) and phone/fax numbers.

Both match the same sequence of letters and digits whatever the separators
between them: up to 3 spaces, dashes, dots or parentheses ("123-45-6789",
"123 45 6789", "123456789"). MRN-like numeric IDs may also carry any number
of leading zeros ("0012345" = "12345"). A phone number may be written with
or without its country code ("+1", "1-", "+34", "0034") and with an opening
parenthesis ("(617) 555-0142"). Digits never match inside a longer number,
but letters may touch them ("MRN12345"). IDs with fewer than
`MIN_FLEXIBLE_ID` letters and digits are matched exactly only.
"""

import re
from typing import List, Sequence

from .common import DIGIT, ID_SEP, Variant, end_of, literal, start_of, word_regex

# IDs with fewer letters/digits than this are matched exactly: "12" with
# any separators would match far too much.
MIN_FLEXIBLE_ID = 5

_EXTENSION = re.compile(r"(?i)\s*(?:x|ext\.?|extension)\s*\d+\s*$")
_COUNTRY = re.compile(r"^\s*(?:\+|00)\s*(\d{1,3})(?=[\s.\-(])")


def alnum(text: str) -> List[str]:
    """The letters and digits of a text, in order."""
    return re.findall(r"[^\W_]", text)


def sequence_regex(chars: Sequence[str]) -> str:
    """Letters and digits in order, up to 3 separators between them.

    chars (Sequence[str]): Single letters or digits.
    RETURNS (str): The regex (no boundaries).
    """
    return ID_SEP.join(word_regex(char) for char in chars)


def sequence_variant(chars: Sequence[str]) -> Variant:
    """The variant for a letter/digit sequence, with its boundaries."""
    text = "".join(chars)
    tail = ID_SEP + sequence_regex(chars[1:]) if len(chars) > 1 else ""
    return Variant(chars[0], tail + end_of(text), start_of(text))


def id_variants(text: str, zero_padded: bool = False) -> List[Variant]:
    """The exact ID, and the same letters and digits whatever the separators;
    numeric `zero_padded` IDs also with any number of leading zeros.

    text (str): The ID as recorded, e.g. "000-123-456".
    zero_padded (bool): Whether leading zeros are optional.
    RETURNS (List[Variant]): The variants.
    """
    chars = alnum(text)
    found = [literal(text)]
    if len(chars) < MIN_FLEXIBLE_ID:
        return found
    core = "".join(chars)
    if zero_padded and core.isdigit() and core.strip("0"):
        digits = list(core.lstrip("0"))
        found.append(sequence_variant(digits))
        zeros = f"(?:{ID_SEP}0)*{ID_SEP}"
        rest = sequence_variant(digits)
        found.append(Variant("0", zeros + word_regex(rest.head) + rest.tail, DIGIT))
    else:
        found.append(sequence_variant(chars))
    return found


def phone_variants(text: str) -> List[Variant]:
    """The exact number, and its digits whatever the separators, with or
    without the country code and an opening parenthesis.

    text (str): The phone number as recorded.
    RETURNS (List[Variant]): The variants.
    """
    found = [literal(text)]
    number = _EXTENSION.sub("", text)
    if re.search(r"[^\W\d_]", number):  # letters, e.g. "1-800-FLOWERS"
        return found
    digits = re.sub(r"\D", "", number)
    country = _COUNTRY.match(number)
    code = country.group(1) if country else ""
    if not code and len(digits) == 11 and digits.startswith("1"):
        code = "1"
    national = list(digits[len(code) :])
    if len(national) < MIN_FLEXIBLE_ID:
        return found
    if not code and len(national) == 10:
        code = "1"
    plain = sequence_variant(national)
    rest = word_regex(plain.head) + plain.tail
    found += [plain, Variant("(", rest, DIGIT)]
    if code:
        after_code = rf"{ID_SEP}\(?{rest}"
        found += [
            Variant(code, after_code, DIGIT),
            Variant("+", rf"\s?{code}{after_code}", DIGIT),
            Variant("00", rf"\s?{code}{after_code}", DIGIT),
        ]
    return found

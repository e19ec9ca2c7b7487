"""The words of a name that `phi_consistency` spreads alone (`part_labels`).

A note names a person in full once and then by the surname or the given
name alone ("Found by: Jorge Mendes" ... "Mendes" in the code record's
column), and a detector that reads each mention alone misses some of the
short ones. So each word of a name of several words spreads too, where it
looks like a name and stands where a name does:

- the word: capitalised, three letters or more, not a short capitals word
  ("EEG", "DDS" of a wrong span), no medical abbreviation, credential
  ("PharmD") or specialty, no common English word used more as a word than
  as a name ("Will"), and borne by a hundred people or more, or unknown to
  every table;
- the occurrence: capitalised, and after it a mark, a line's end or a stop
  word only ("Kirchhoff to screen"; not "Graham Steell murmur", "Baker's
  cyst", "Wright stain", "Jordan curve").
"""

from typing import List

from spacy.tokens import Span, Token

from ..knowledge import lookup
from ..knowledge.abbreviations import is_medical_abbreviation
from ..knowledge.credentials import is_credential
from ..knowledge.specialties import is_specialty_word

# Capitals words this short are initials or abbreviations ("EEG", "ROSC").
_MAX_SHORT_CAPITALS = 4
_MIN_LETTERS = 3
# Bearers that make a word a name whatever else it is.
_MIN_BEARERS = 100
# Post-nominals: words that follow a name without making it a longer one
# ("Mendes RN").
_POST_NOMINALS = frozenset({"rn", "md", "np", "pa", "do", "lpn", "cna", "jr", "sr"})


def name_parts(ent: Span) -> List[Token]:
    """The words of a name of several words that may spread alone.

    ent (Span): The name.
    RETURNS (List[Token]): Its name-like words; none for a one-word name.
    """
    words = [t for t in ent if t.is_alpha]
    if len(words) < 2:
        return []
    return [word for word in words if is_name_part(word.text)]


def is_name_part(text: str) -> bool:
    """Whether a word of a name looks like a name on its own (see the module
    docstring)."""
    if len(text) < _MIN_LETTERS or not text[0].isupper():
        return False
    if text.isupper() and len(text) <= _MAX_SHORT_CAPITALS:
        return False
    if is_medical_abbreviation(text) or is_specialty_word(text) or is_credential(text):
        return False
    known = lookup(text)
    if known.is_common_word and known.word_zipf > known.name_zipf:
        return False
    if known.given_count + known.surname_count >= _MIN_BEARERS:
        return True
    return known.word_zipf == 0 and not known.place_population


def in_name_position(token: Token) -> bool:
    """Whether a capitalised word stands alone as a name: after it a mark,
    a line's end or a stop word ("Kirchhoff to screen"; not "Jordan curve",
    "Wright stain", "Graham Steell", "Baker's cyst")."""
    if not token.text[:1].isupper():
        return False
    doc = token.doc
    after = token.i + 1
    if after >= len(doc):
        return True
    following = doc[after]
    if following.lower_ in ("'s", "\u2019s", "'"):
        return False
    if following.is_alpha and following.text[0].isupper():
        return following.lower_ in _POST_NOMINALS  # "Mendes RN"; not "Graham Steell"
    return not following.is_alpha or following.is_stop

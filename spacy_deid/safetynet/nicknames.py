"""Nicknames that `phi_safety_net` adds where no detector found them: words
in quotes inside brackets right after a person's name ('Terrence Ames
("T.J.")', 'Wesley Begay (aka "Wes")'). The generator writes no such
nickname; in the first 144 notes by other hands 25 of the 28 so placed lie in
a gold name, one more is a gold name but for its last period ("T.J."), and
two are kinship words used as names that the writers left unmarked ("Tutu",
"Nana Seun"). Words English uses very often ("Mom", "the boss") are left.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import AbstractSet, List, Optional, Sequence, Tuple

from spacy.tokens import Doc

from ..knowledge import lookup
from .cues import NICKNAME
from .finder import Candidate
from .words import DocWords

QUOTES = {'"': '"', "\u201c": "\u201d", "'": "'"}
# Words between the bracket and the quote ("(aka "Wes")", "(goes by "Bo")").
AKA_WORDS = frozenset({"aka", "a.k.a.", "goes", "by", "called", "prefers", "nickname"})
_MAX_WORDS = 3
# English uses a nickname's word less than this (zipf): "Bo", not "Buddy"
# written in quotes as a role ("the "boss"").
_MAX_WORD_ZIPF = 5.0


def find_nicknames(
    words: DocWords, taken: Sequence[bool], doc: Doc, persons: AbstractSet[str]
) -> List[Candidate]:
    """Quoted words in brackets right after a person's name, on free words.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    persons (AbstractSet[str]): Labels of people's names.
    RETURNS (List[Candidate]): The nicknames found, in word positions.
    """
    found: List[Candidate] = []
    for ent in doc.ents:
        if ent.label_ not in persons:
            continue
        after = words.position(ent.end - 1)
        if after is None:
            continue
        nickname = _quoted_after(words, after + 1)
        if nickname is None:
            continue
        start, end = nickname
        if all(not taken[words.words[k].index] for k in range(start, end)):
            found.append((start, end, NICKNAME))
    return found


def _quoted_after(words: DocWords, position: int) -> Optional[Tuple[int, int]]:
    """The (start, end) word positions of the quoted words of '("X")' or
    '(aka "X")' starting at `position`, on one line, or None."""
    if not _is(words, position, "("):
        return None
    k = position + 1
    while k < len(words) and words.words[k].text.lower() in AKA_WORDS:
        k += 1
    if k >= len(words) or words.words[k].text not in QUOTES:
        return None
    closing = QUOTES[words.words[k].text]
    start = k + 1
    end = start
    while end < len(words) and words.words[end].text != closing:
        end += 1
    if not (start < end <= start + _MAX_WORDS) or not _is(words, end + 1, ")"):
        return None
    if not words.same_line(position, end + 1):
        return None
    names = [words.words[i].text for i in range(start, end)]
    if not any(c.isupper() for c in names[0][:1]):
        return None
    if all(lookup(name).word_zipf >= _MAX_WORD_ZIPF for name in names):
        return None
    return start, end


def _is(words: DocWords, position: int, text: str) -> bool:
    return position < len(words) and words.words[position].text == text

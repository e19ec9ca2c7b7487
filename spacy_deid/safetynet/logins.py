"""Logins that `phi_safety_net` adds where no detector found them: a word
made from the name of a person the note names ("rkaleikini" and "Ronan
Kaleikini", "mfolau" and "Mele Folau"), as audit trails and release logs
write their users.

A login is taken when it is one lower-case word of letters (digits may end
it), five letters or more, no common English word, that equals a given
name's initial and the first four letters or more of a surname, a given
name and a surname's initial, or a surname and a given name's initial, of a
person entity of the same doc. In 96 notes by other hands 60 of 67 gold
logins are so made (in `en_notes` 4 of 6). With their gold names, on 3,000
generated train notes and a dev draw each of the 139 words so made is a gold
login; in the notes by other hands 39 are and one is a login left unmarked.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

import re
from typing import FrozenSet, List, Sequence, Set

from spacy.tokens import Doc

from ..knowledge import lookup
from .cues import LOGIN
from .finder import Candidate
from .words import DocWords

_LOGIN = re.compile(r"([a-z]{5,})[0-9]*")
_LETTERS = re.compile(r"[^\W\d_]+")
_MIN_SURNAME_PART = 4
# A login is no word English uses this much ("status", "normal").
_MAX_WORD_ZIPF = 3.0


def find_logins(
    words: DocWords, taken: Sequence[bool], doc: Doc, persons: FrozenSet[str]
) -> List[Candidate]:
    """Logins made from the names of the doc's person entities.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    persons (FrozenSet[str]): The labels of person names.
    RETURNS (List[Candidate]): The logins found, in word positions.
    """
    made = _login_forms(doc, persons)
    if not made:
        return []
    found: List[Candidate] = []
    for position, word in enumerate(words.words):
        if len(word.text) < 5 or not word.text.islower() or taken[word.index]:
            continue
        match = _LOGIN.fullmatch(word.text)
        if match is None or match.group(1) not in made:
            continue
        if lookup(match.group(1)).word_zipf < _MAX_WORD_ZIPF:
            found.append((position, _end(words, position), LOGIN))
    return found


def _end(words: DocWords, position: int) -> int:
    """The end of a login: digits the tokenizer split off stay with it
    ("qvantr" "22")."""
    after = position + 1
    if after < len(words) and words.words[after].joined and words.words[after].text.isdigit():
        return after + 1
    return after


def _login_forms(doc: Doc, persons: FrozenSet[str]) -> Set[str]:
    """The logins the doc's names of two words or more make."""
    forms: Set[str] = set()
    for ent in doc.ents:
        if ent.label_ not in persons:
            continue
        parts = [p.lower() for p in _LETTERS.findall(ent.text)]
        if len(parts) < 2:
            continue
        if "," in ent.text:  # "Kaleikini, Ronan"
            parts = parts[1:] + parts[:1]
        given, surname = parts[0], parts[-1]
        for k in range(_MIN_SURNAME_PART, len(surname) + 1):
            forms.add(given[0] + surname[:k])
        forms.add(given + surname[0])
        forms.add(surname + given[0])
    return forms

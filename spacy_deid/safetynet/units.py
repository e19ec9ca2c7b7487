"""Departments that `phi_safety_net` adds where no detector found them: the
unit that a letterhead or a header names after its hospital and a separator
("Mercy Valley Hospital · Neurodiagnostic Laboratory", "St. Ann's Hospital -
Adult Acute Unit 3B"), a DEPARTMENT.

After a HOSPITAL entity, a separator ("·", "|", "-", "\u2013", "\u2014", "•")
on the same line, and then two to six words in title case or capitals up to
the line's end, a comma or another separator make a department: words of its
own ("Neurodiagnostic Laboratory", "Health Information Management"), not a
place ("New York", "Boston, MA"), a service that a specialty heads ("Internal
Medicine", "Cardiology"), a document's title ("Triage Record"; a header all
in capitals is one too) or a street (a digit first). The generator writes no
such headers: on 3,000 train notes and both dev draws it adds nothing.

Candidates are (first word, end word, cue class) in word positions of
`DocWords`, as in `finder.py`.
"""

from typing import List, Optional, Sequence

from spacy.tokens import Doc

from ..knowledge import lookup
from ..knowledge.specialties import is_specialty_word
from ..text.titles import DOCUMENT_WORDS
from .cues import UNIT
from .finder import Candidate
from .words import DocWords

SEPARATORS = frozenset({"\u00b7", "|", "-", "\u2013", "\u2014", "\u2022"})
# Words a unit's name may hold besides capitalised ones ("Health & Safety").
JOINERS = frozenset({"&", "/", "and", "of", "for"})
UNIT_WORDS = (2, 6)


def find_units(
    words: DocWords, taken: Sequence[bool], doc: Doc, hospital: str
) -> List[Candidate]:
    """Departments after a hospital and a separator, on free words.

    words (DocWords): The doc's words.
    taken (Sequence[bool]): Per doc token, whether an entity or known
        non-PHI covers it.
    doc (Doc): The doc, for its entities.
    hospital (str): The label of hospitals.
    RETURNS (List[Candidate]): The departments found, in word positions.
    """
    found: List[Candidate] = []
    for ent in doc.ents:
        if ent.label_ != hospital or ent.end >= len(doc):
            continue
        after = next((t.i for t in doc[ent.end :] if not t.is_space), None)
        mark = words.position(after) if after is not None else None
        if mark is None or mark + 1 >= len(words):
            continue
        if words.words[mark].text not in SEPARATORS or words.words[mark].newline_before:
            continue
        end = _unit_end(words, taken, mark + 1)
        if end is not None:
            found.append((mark + 1, end, UNIT))
    return found


def _unit_end(words: DocWords, taken: Sequence[bool], start: int) -> Optional[int]:
    """The end of a unit's name that starts at `start`, or None."""
    if words.words[start].newline_before:
        return None
    end = start
    while end < len(words):
        word = words.words[end]
        if taken[word.index] or (end > start and word.newline_before):
            break
        if word.text in SEPARATORS or word.text == ",":
            break
        end += 1
    names = [w.text for w in words.words[start:end]]
    while names and names[-1].lower() in JOINERS:
        names.pop()
    if not UNIT_WORDS[0] <= len(names) <= UNIT_WORDS[1]:
        return None
    if not all(_unit_word(text, k == 0) for k, text in enumerate(names)):
        return None
    head = next(t for t in reversed(names) if t[:1].isalpha() and t.lower() not in JOINERS)
    if is_specialty_word(head):
        return None  # a service, not a unit: "Internal Medicine", "Cardiology"
    if head.lower() in DOCUMENT_WORDS or all(t.isupper() for t in names if t[:1].isalpha()):
        return None  # a document's title: "EMERGENCY DEPARTMENT TRIAGE RECORD"
    place = lookup(" ".join(names))
    if place.place_population or place.is_state or place.is_country:
        return None
    return start + len(names)


def _unit_word(text: str, first: bool) -> bool:
    """A capitalised word, a joiner inside, or a ward's number at the end
    ("3B"); a unit's name opens with a letter."""
    if text.lower() in JOINERS:
        return not first
    if text[:1].isupper() and text.replace("/", "").replace("-", "").isalpha():
        return True
    return not first and text[:1].isdigit() and len(text) <= 4

"""The patient's name beside the record number: "Ana Ruiz  MRN 00412".

A telephone note or portal message names its caller first ("Call from: Ana
Ruiz") and then heads the chart with the patient's name and record number
("Ana Ruiz  MRN 00412"). A tagger that has not seen the first phrasing calls
the caller a clinician. A name followed on its line by a record cue ("MRN",
"DOB") is the patient's, and so is another mention made only of that name's
words, unless a clinician's title or credential marks it ("Dr. Ruiz", "Ana
Ruiz, RN"). No gold label of 10,000 generated train notes changes under
this rule.
"""

import re
from typing import AbstractSet, FrozenSet, Iterable, Set

from spacy.tokens import Span

from .cues import cue_word
from .not_phi import credential_after_space, credential_follows, word_at

_WORD = re.compile(r"[^\W\d_]{2,}(?:['\u2019-][^\W\d_]+)*")
# Marks allowed between a name and its record cue ("Ruiz, Ana (MRN ...").
_MARKS = frozenset({",", "(", ":", "-", "|"})


def name_words(text: str) -> FrozenSet[str]:
    """The lower-case words of two letters or more of a name."""
    return frozenset(word.lower() for word in _WORD.findall(text))


def record_cue_follows(span: Span, cues: AbstractSet[str]) -> bool:
    """Whether a record cue comes next on the span's line, after at most
    one mark ("Ana Ruiz  MRN", "Ruiz, Ana (DOB").

    span (Span): The entity.
    cues (AbstractSet[str]): The cue words, folded by `cue_word`.
    """
    doc = span.doc
    i = word_at(doc, span.end)
    if i is not None and doc[i].text in _MARKS:
        i = word_at(doc, i + 1)
    return i is not None and cue_word(doc[i].text) in cues


def record_name_words(
    ents: Iterable[Span], cues: AbstractSet[str], labels: AbstractSet[str]
) -> Set[str]:
    """The words of the names of `labels` that a record cue follows."""
    found: Set[str] = set()
    for ent in ents:
        if ent.label_ in labels and record_cue_follows(ent, cues):
            found |= name_words(ent.text)
    return found


def is_titled(span: Span, titles: AbstractSet[str]) -> bool:
    """Whether a title or cue of `titles` comes right before the span ("Dr.
    Ruiz", "Attending: Ruiz"), or a credential right after it ("Ruiz, RN",
    "Ruiz MD")."""
    doc = span.doc
    before = word_at(doc, span.start - 1, step=-1)
    if before is not None and before > 0 and doc[before].text in (".", ":"):
        before = word_at(doc, before - 1, step=-1)
    if before is not None and cue_word(doc[before].text) in titles:
        return True
    return credential_follows(span) or credential_after_space(span)

"""Cue words before a span, read back to the start of its clause.

A tagger reads a number's shape and a word or two around it, so "fax the
results to the clinic at 555-0101" comes out as a phone number and a call-back
number after "vendor contacted at" as a fax; and it tags jobs that the tables
do not know ("worked as a seamstress"). The words before the span in its
clause and line settle both: the nearest cue word ("fax", "faxed"; "tel",
"call") tells a fax from a phone (on the generator's train split it agrees
with the gold label for 98% of the phone and fax numbers that have one), and
a work cue ("worked", "occupation") a few words back makes the span a job.
"""

from itertools import islice
from typing import AbstractSet, Dict, Iterator, List, Optional, Tuple

from spacy.tokens import Span, Token


# How far back a phone or fax cue may be, and what ends its clause
# ("Tel ... · Fax ...").
_CONTACT_TOKENS = 12
_CONTACT_BREAKS = frozenset((".", ";", "·", "|", "•"))
# How many words back a work cue may be ("works nights as a"), and what ends
# its clause.
_JOB_WORDS = 4
_JOB_TOKENS = 6
_SENTENCE_ENDS = frozenset((".", ";", "!", "?"))
# Marks that may stand between a cue phrase and its span ("Sister: Zelma").
_PHRASE_MARKS = frozenset((":", "-", "\u2013", ",", "("))


def cue_word(text: str) -> str:
    """A token as a cue: lower case, without a trailing ":", "." or "#"."""
    return text.lower().rstrip(":.#")


def clause_before(
    span: Span, max_tokens: int, breaks: AbstractSet[str]
) -> Iterator[Token]:
    """The tokens before a span, nearest first, at most `max_tokens`, up to a
    line break or one of `breaks`."""
    doc = span.doc
    for i in range(span.start - 1, max(-1, span.start - 1 - max_tokens), -1):
        token = doc[i]
        if "\n" in token.text or token.text in breaks:
            return
        yield token


def cued_label(span: Span, cues: Dict[str, str]) -> Optional[str]:
    """The label of the nearest cue word (`cues`: word -> label) before the
    span in its clause and line, or None."""
    for token in clause_before(span, _CONTACT_TOKENS, _CONTACT_BREAKS):
        label = cues.get(cue_word(token.text))
        if label is not None:
            return label
    return None


def phrase_before(span: Span, phrases: AbstractSet[Tuple[str, ...]]) -> bool:
    """Whether one of `phrases` (cue words, each folded as `cue_word`) ends
    right before a span on its line, a colon, dash, comma or bracket between
    them aside ("known as", "Nickname:", "sister -")."""
    if not phrases:
        return False
    longest = max(len(phrase) for phrase in phrases)
    words: List[str] = []
    for token in clause_before(span, 2 * longest + 2, frozenset()):
        if token.is_space or token.text in _PHRASE_MARKS:
            continue
        words.insert(0, cue_word(token.text))
        if len(words) == longest:
            break
    return any(
        tuple(words[len(words) - len(phrase) :]) == phrase
        for phrase in phrases
        if len(phrase) <= len(words)
    )


def job_cued(span: Span, cues: AbstractSet[str]) -> bool:
    """Whether a cue (`cues`, folded as `cue_word`) is one of the four words
    before a span, in its clause and line: a work cue ("works nights as a"),
    a language cue ("Languages: Hindi, Urdu, ...")."""
    words = (
        token
        for token in clause_before(span, _JOB_TOKENS, _SENTENCE_ENDS)
        if not (token.is_punct or token.is_space)
    )
    return any(cue_word(token.text) in cues for token in islice(words, _JOB_WORDS))


def cue_after(span: Span, cues: AbstractSet[str]) -> bool:
    """Whether the word right after a span, past a hyphen, is a cue (`cues`,
    folded as `cue_word`): "interpreter" in "Tigrinya interpreter", "speaking"
    in "Tigrinya-speaking"."""
    doc = span.doc
    i = span.end
    if i < len(doc) and doc[i].text in ("-", "\u2013") and not doc[i - 1].whitespace_:
        i += 1
    if i >= len(doc):
        return False
    return cue_word(doc[i].text.lstrip("-")) in cues


__all__ = [
    "clause_before", "cue_after", "cue_word", "cued_label", "job_cued",
    "phrase_before",
]  # fmt: skip

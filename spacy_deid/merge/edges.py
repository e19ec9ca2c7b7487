"""Words at the edges of a span that belong to the text around it.

A tagger that reads across a sentence end takes the end of the previous
clause into a name ("slides. Ana Ruiz", "person, Acme Services") or joins
two names ("Ana Ruiz. Ben Okoro"), and takes a separator after an address
into the address ("90 Elm Drive ·"). Those words
are no PHI, and inside a span they are replaced, which garbles the note.
"""

from typing import List, Optional, Tuple

from spacy.tokens import Span, Token

from ..knowledge import lookup

# Clause ends the tokenizer splits off a word (an abbreviation's period stays
# on it: "Dr.", "St.").
_CLAUSE_ENDS = frozenset((".", ",", ";", ":"))
_MIN_WORD_ZIPF = 3.0
_CLOSING = {")": "(", "]": "["}


def _clause_word(token: Token, *, caps: bool) -> bool:
    """An ordinary word in lower case (or in capitals, before a period),
    more used as a word than as a name: "slides", not "mills"."""
    text = token.text
    if len(text) < 2 or not token.is_alpha:
        return False
    if not (token.is_lower or (caps and token.is_upper)):
        return False
    k = lookup(text)
    return k.is_common_word and k.word_zipf >= _MIN_WORD_ZIPF


def clause_end_start(span: Span) -> Optional[int]:
    """The token index after a leading clause end ("slides ." or "person ,")
    whose words are all ordinary words, or None."""
    doc = span.doc
    for i in range(span.start + 1, span.end - 1):
        mark = doc[i].text
        if mark not in _CLAUSE_ENDS:
            continue
        words = doc[span.start : i]
        caps = mark == "."
        if all(_clause_word(t, caps=caps) for t in words):
            return i + 1
        return None
    return None


def sentence_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the periods that end a
    sentence inside it ("Ana Ruiz. Ben Okoro"): a period split off a word of
    two or more letters, with a space after it. An initial's period ("Ana R.
    Okoro") cuts nothing."""
    doc = span.doc
    pieces = []
    start = span.start
    for i in range(span.start + 1, span.end - 1):
        before = doc[i - 1]
        if (
            doc[i].text == "."
            and doc[i].whitespace_
            and not before.whitespace_
            and before.is_alpha
            and len(before) > 1
        ):
            pieces.append((start, i))
            start = i + 1
    pieces.append((start, span.end))
    return pieces


# Arrows of sign-out lists and itineraries ("A -> B", "Lima → Cusco"): no
# PHI span of train holds one. The tokenizer splits "->" and "=>" in two.
ARROWS = frozenset(("\u2192", "\u21d2", "\u2794", "\u27f6"))
_SHAFTS = frozenset(("-", "--", "="))


def _arrow_length(span: Span, i: int) -> int:
    """How many tokens the arrow starting at token i has (0: none)."""
    doc = span.doc
    if doc[i].text in ARROWS:
        return 1
    if (
        doc[i].text in _SHAFTS
        and not doc[i].whitespace_
        and i + 1 < span.end
        and doc[i + 1].text == ">"
    ):
        return 2
    return 0


def arrow_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the arrows inside it
    ("Lima → Cusco": "Lima", "Cusco"); pieces with no token are left out."""
    pieces = []
    start = i = span.start
    while i < span.end:
        length = _arrow_length(span, i)
        if length:
            if i > start:
                pieces.append((start, i))
            start = i + length
        i += max(length, 1)
    if span.end > start:
        pieces.append((start, span.end))
    return pieces


def symbol_end(span: Span) -> int:
    """The end of a span without its trailing tokens of neither letters nor
    digits ("·", "→"); a closing bracket whose opening one is in the span
    and an initial's period ("Ana R.") stay."""
    doc = span.doc
    end = span.end
    while end > span.start + 1:
        text = doc[end - 1].text
        if any(c.isalnum() for c in text):
            break
        if text in _CLOSING and _CLOSING[text] in doc[span.start : end - 1].text:
            break
        if text == "." and _after_initial(doc[end - 2]):
            break
        end -= 1
    return end


def _after_initial(token: Token) -> bool:
    """A single letter with no space after it."""
    return len(token.text) == 1 and token.is_alpha and not token.whitespace_


__all__ = [
    "ARROWS",
    "arrow_pieces",
    "clause_end_start",
    "sentence_pieces",
    "symbol_end",
]

"""Words at the edges of a span that belong to the text around it.

A tagger that reads across a sentence end takes the end of the previous
clause into a name ("slides. Ana Ruiz", "person, Acme Services") or joins
two names ("Ana Ruiz. Ben Okoro"), and takes a separator after an address
into the address ("90 Elm Drive ·"). Those words
are no PHI, and inside a span they are replaced, which garbles the note.
"""

import re
from typing import AbstractSet, List, Optional, Tuple

from spacy.tokens import Doc, Span, Token

from ..knowledge import COMMON_WORD_ZIPF, lookup
from ..knowledge.occupations import LINK_WORDS, is_occupation_word
from ..knowledge.occupations import names_an_occupation
from ..knowledge.particles import NAME_PARTICLES

# Clause ends the tokenizer splits off a word (an abbreviation's period stays
# on it: "Dr.", "St.").
_CLAUSE_ENDS = frozenset((".", ",", ";", ":"))
_MIN_WORD_ZIPF = 3.0
_LETTER = re.compile(r"[A-Z]")
_CLOSING = {")": "(", "]": "["}
# Abbreviations whose period is no sentence end inside a name or a place:
# "Maria St. Pierre", "ST. JOHN, Ana", "St. Louis", "Mt. Sinai", "Ana Ruiz
# Jr.", "510 Elm Ave." ("Dr." aside: a street's or a title).
_NAME_ABBREVIATIONS = frozenset(
    ("st", "ste", "mt", "ft", "jr", "sr", "ave", "blvd", "rd", "ln", "ct", "pl",
     "hwy", "pkwy", "cir", "ter", "sq")
)  # fmt: skip
_OPENING = frozenset(_CLOSING.values())


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
    whose words are all ordinary words, or after a lone capital letter and a
    comma ("R, Hawkins-Kennedy" of a list of sides, "F, Ana" after an age:
    no surname is one letter), or None. The period of an initial or a name's
    abbreviation ("ST. PIERRE") ends no clause."""
    doc = span.doc
    for i in range(span.start + 1, span.end - 1):
        mark = doc[i].text
        if mark not in _CLAUSE_ENDS or (mark == "." and _keeps_period(doc[i - 1])):
            continue
        words = doc[span.start : i]
        if mark == "," and len(words) == 1 and _LETTER.fullmatch(words[0].text):
            return i + 1
        caps = mark == "."
        if all(_clause_word(t, caps=caps) for t in words):
            return i + 1
        return None
    return None


def sentence_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the periods that end a
    sentence inside it ("Ana Ruiz. Ben Okoro"): a period split off a word of
    two or more letters, with a space after it. An initial's period ("Ana R.
    Okoro") and a saint's ("Maria St. Pierre") cut nothing."""
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
            and not _keeps_period(before)
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
    return arrow_length(span.doc, i, span.end)


def arrow_length(doc: Doc, i: int, end: int) -> int:
    """How many tokens the arrow starting at token i has, none of them at or
    after `end` (0: none)."""
    if doc[i].text in ARROWS:
        return 1
    if (
        doc[i].text in _SHAFTS
        and not doc[i].whitespace_
        and i + 1 < end
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


def semicolon_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the semicolons inside it
    ("Harrowgate; rehab": no name or place holds one, a clause ends there);
    pieces with no token are left out."""
    cuts = [t.i for t in span if t.text == ";"]
    if not cuts:
        return [(span.start, span.end)]
    bounds = zip([span.start] + [i + 1 for i in cuts], cuts + [span.end], strict=True)
    return [(start, end) for start, end in bounds if end > start]


def gap_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at a table's column gap: a tab
    or three spaces or more, which no name, place or date holds ("Ana Ruiz
    OSI" across two columns); pieces with no word are left out.

    span (Span): The entity.
    RETURNS (List[Tuple[int, int]]): The pieces, or the whole span.
    """
    gaps = [
        t.i
        for t in span
        if t.is_space and "\n" not in t.text and (len(t.text) >= 2 or "\t" in t.text)
    ]
    if not gaps:
        return [(span.start, span.end)]
    pieces = []
    start = span.start
    for cut in gaps:
        pieces.append((start, cut))
        start = cut + 1
    pieces.append((start, span.end))
    doc = span.doc
    return [(a, b) for a, b in pieces if any(not t.is_space for t in doc[a:b])]


_YEAR = re.compile(r"(?:1[89]|2[01])\d\d")


def year_range_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a range of years: two dates, as i2b2 2014
    marks a range ("2079-2087", "2093-94"); a year and a month ("2093-04")
    is one date.

    span (Span): The entity.
    RETURNS (List[Tuple[int, int]]): The years' pieces, or the whole span.
    """
    whole = [(span.start, span.end)]
    if len(span) != 3 or span[1].text not in ("-", "\u2013"):
        return whole
    first, last = span[0].text, span[2].text
    if not _YEAR.fullmatch(first):
        return whole
    if _YEAR.fullmatch(last):
        later = int(last) > int(first)
    else:
        # "2093-94": the last two digits of a later year, never a month.
        later = len(last) == 2 and last.isdigit() and int(last) > max(12, int(first[2:]))
    return [(span.start, span.start + 1), (span.end - 1, span.end)] if later else whole


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
        if text == "." and _keeps_period(doc[end - 2]):
            break
        end -= 1
    return end


# Leading marks that belong to the line, not the name: a sign-off's dash
# ("-KT, LPN"), a bullet, the comma of a piece cut after a bracket.
_LEADING_MARKS = frozenset(
    ("-", "--", "\u2013", "\u2014", "*", "\u2022", "\u00b7", ",", ";", ":")
)


def symbol_start(span: Span) -> int:
    """The start of a span without its leading dashes, bullets and commas
    ("-KT")."""
    doc = span.doc
    start = span.start
    while start < span.end - 1 and doc[start].text in _LEADING_MARKS:
        start += 1
    return start


def bracket_pieces(span: Span) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the first opening bracket
    that the span does not close: "catering manager (self-employed" (a
    tagger that ran into the aside after a name) gives "catering manager"
    and "self-employed", each then checked alone. A leading bracket cuts
    nothing. A closing bracket that the span does not open cuts it too:
    "Peggy) Lund" (of "Margaret (Peggy) Lund") gives "Peggy" and "Lund"."""
    doc = span.doc
    opened: List[int] = []
    for i in range(span.start, span.end):
        text = doc[i].text
        if text in _OPENING:
            opened.append(i)
        elif text in _CLOSING and opened:
            opened.pop()
        elif text in _CLOSING and span.start < i:
            return _cut_at(span, i)
    if not opened or opened[0] == span.start:
        return [(span.start, span.end)]
    return _cut_at(span, opened[0])


def _cut_at(span: Span, cut: int) -> List[Tuple[int, int]]:
    """The pieces of a span on both sides of the token at `cut`."""
    return [(span.start, cut)] + ([(cut + 1, span.end)] if cut + 1 < span.end else [])


def _clause_marker(
    token: Token, kept: AbstractSet[str], joiners: AbstractSet[str]
) -> bool:
    """A lower-case stop word of the language that no gold span of the label
    holds (`kept` are those that do), unless it joins two capitalised words
    as "and" does in a hospital's name."""
    if not (token.is_stop and token.is_alpha and token.is_lower):
        return False
    text = token.text
    if text in kept:
        return False
    if text in joiners and 0 < token.i < len(token.doc) - 1:
        before, after = token.doc[token.i - 1], token.doc[token.i + 1]
        return not (before.text[:1].isupper() and after.text[:1].isupper())
    return True




def common_word_marker(token: Token, min_name_count: int) -> bool:
    """A lower-case word of three letters or more, not glued to the word
    before it ("woo" of "Hyun-woo"), that is more used as a word than as a
    name, at least once in a million words, and that fewer than
    `min_name_count` people bear: "requests" in "Marta requests" or
    "tonight" in "Ferrante tonight" ends a name that a tagger ran on. Name
    particles ("bin") and job words are not."""
    if not (token.is_alpha and token.is_lower and len(token) >= 3):
        return False
    if token.text in NAME_PARTICLES or names_an_occupation(token.text):
        return False  # a job word stays with its piece ("librarian with Adams")
    if token.i > 0 and not token.doc[token.i - 1].whitespace_:
        return False
    k = lookup(token.text)
    if not k.is_common_word or k.word_zipf < COMMON_WORD_ZIPF:
        return False
    return k.surname_count + k.given_count < min_name_count


def clause_pieces(
    span: Span,
    kept: AbstractSet[str],
    joiners: AbstractSet[str],
    min_name_count: Optional[int] = None,
) -> List[Tuple[int, int]]:
    """The (start, end) pieces of a span cut at the words that mark a clause
    (`_clause_marker`), without the markers and the marks next to them:
    "nurse who visits on weekends", a job, is cut at "who" and "on". With
    `min_name_count`, a span that holds a capitalised word is also cut at its
    lower-case common words (`common_word_marker`) that are not `kept`: the
    train split's gold names and places never mix the two, and its firms
    only with "school". Pieces of no letter or digit are left out; a span with
    no marker is one piece."""
    doc = span.doc
    words = min_name_count is not None and any(
        t.is_alpha and t.text[:1].isupper() for t in span
    )
    cuts = [
        t.i
        for t in span
        if _clause_marker(t, kept, joiners)
        or (words and t.text not in kept and common_word_marker(t, min_name_count))
    ]
    if not cuts:
        return [(span.start, span.end)]
    pieces = []
    start = span.start
    for cut in cuts + [span.end]:
        a, b = start, cut
        while a < b and a > span.start and not _has_alnum(doc[a]):
            a += 1
        while b > a and b < span.end and not _has_alnum(doc[b - 1]):
            b -= 1
        if any(_has_alnum(t) for t in doc[a:b]):
            pieces.append((a, b))
        start = cut + 1
    return pieces


def _has_alnum(token: Token) -> bool:
    """Whether a token holds a letter or a digit."""
    return any(c.isalnum() for c in token.text)


def _keeps_period(token: Token) -> bool:
    """A single letter or a name's abbreviation (`_abbreviation`) with no
    space after it: the period after it is its own ("Ana R.", "St.")."""
    if token.whitespace_ or not token.is_alpha:
        return False
    return len(token.text) == 1 or _abbreviation(token)


def _abbreviation(token: Token) -> bool:
    """An abbreviation (`_NAME_ABBREVIATIONS`, any case) before its period:
    part of a name ("St. Pierre", "Ruiz Jr.", "Elm Ave."), no sentence end."""
    return token.text.lower() in _NAME_ABBREVIATIONS


def job_tail_start(span: Span) -> Optional[int]:
    """Where the lower-case words after a job title's last job word start
    ("admitted" of "schoolteacher admitted", a tagger reading on into the
    clause), or None: the last word is a job word, or a link word or a mark
    follows the job word ("director of nursing", "driver, retired").

    span (Span): The entity.
    RETURNS (Optional[int]): The doc index of the tail's first token.
    """
    tokens = list(span)
    jobs = [i for i, t in enumerate(tokens) if t.is_alpha and _job_word(t.text)]
    if not jobs or jobs[-1] == len(tokens) - 1:
        return None
    tail = tokens[jobs[-1] + 1 :]
    if not all(t.is_alpha and t.is_lower for t in tail) or tail[0].lower_ in LINK_WORDS:
        return None
    if is_occupation_word(tail[-1].text):
        return None  # the phrase ends in a noun that names a person ("general")
    return tail[0].i


def _job_word(text: str) -> bool:
    """A job title's head word or an agent noun ("schoolteacher", "welder");
    not any noun that names a person ("mystic")."""
    return is_occupation_word(text, person_nouns=False)


__all__ = [
    "ARROWS",
    "arrow_length",
    "arrow_pieces",
    "clause_end_start",
    "clause_pieces",
    "gap_pieces",
    "job_tail_start",
    "common_word_marker",
    "sentence_pieces",
    "symbol_end",
    "symbol_start",
    "year_range_pieces",
]

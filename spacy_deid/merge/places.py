"""Which kind of place a span names, by the knowledge tables.

A tagger trained on generated notes knows the countries it saw and calls the
others cities or states ("Burundi" a city, "Mongolia" a state) and some cities
countries ("Kampala"). The list of countries is closed and the tables
hold all of it, so `phi_relabel` corrects the label from them.
"""

import re
from typing import Optional, Tuple

from faker.providers.address.en_US import Provider as _Addresses
from spacy.tokens import Span

from spacy.lang.en.stop_words import STOP_WORDS

from ..knowledge import lookup
from ..knowledge.specialties import is_specialty_word
from ..rules.lexicons.facilities import FACILITY_HEADS
from ..text.wards import is_ward

# A facility's head words, lower case, longest first ("nursing home").
_HEADS = sorted((head.lower() for head in FACILITY_HEADS), key=len, reverse=True)


def _place_text(span: Span) -> str:
    """The span's text without a leading "the" ("the Philippines")."""
    text = span.text
    return text[4:] if text[:4].lower() == "the " else text


def state_follows(span: Span) -> bool:
    """Whether a comma and a US state follow the span ("Lebanon, PA")."""
    doc = span.doc
    if span.end + 1 >= len(doc) or doc[span.end].text != ",":
        return False
    k = lookup(doc[span.end + 1].text)
    return k.is_state_code or k.is_state


def is_country_name(span: Span) -> bool:
    """A country's full name that is not also a US state ("Georgia") and is
    not a town with its state after it ("Lebanon, PA")."""
    k = lookup(_place_text(span))
    return k.is_country and not k.is_state and not state_follows(span)


def is_city_not_country(span: Span) -> bool:
    """A city's name that no country or country code bears ("Kampala")."""
    k = lookup(_place_text(span))
    return bool(
        k.place_population
        and not (k.is_country or k.is_country_code or k.is_state or k.is_state_code)
    )


# A post office box with its number: an address (i2b2 STREET), not an ID.
_PO_BOX = re.compile(
    r"(?:p\.?\s?o\.?\s?box|pob|post\s+office\s+box)\s*(?:no\.?|#)?\s*\d[\d-]*",
    re.IGNORECASE,
)


def is_po_box(span: Span) -> bool:
    """Whether a span is a post office box and its number ("P.O. Box 4410",
    "POB 88", "po box 12-3")."""
    return _PO_BOX.fullmatch(span.text) is not None


# Words that make "Route 9" a street, not a ward ("Bigelow 11").
STREET_WORDS = frozenset(
    [suffix.lower() for suffix in _Addresses.street_suffixes] + ["rte", "rt", "hwy"]
)


# A street's suffix as an abbreviation ("Delancey St", "Bandera Rd."); the full
# words also end firms' and courts' names ("State Street", "Morehead Court").
_STREET_ABBREVIATIONS = frozenset(
    ("st", "rd", "ave", "av", "blvd", "ln", "pkwy", "hwy", "terr", "ter", "pl", "cir")
)


def is_street_name(span: Span) -> bool:
    """Whether a span is a street's name: capitalised words (a house number
    first allowed) and an abbreviated suffix ("Delancey St", "12 Elm Ave.")."""
    words = [t for t in span if not t.is_space]
    if len(words) < 2 or "\n" in span.text:
        return False
    *name, suffix = words
    if suffix.text == "." and len(name) >= 2:
        *name, suffix = name
    if suffix.lower_.rstrip(".") not in _STREET_ABBREVIATIONS or not suffix.is_title:
        return False
    if name and name[0].like_num:
        name = name[1:]
    return bool(name) and all(t.is_alpha and t.is_title for t in name)


def is_named_ward(span: Span) -> bool:
    """Whether a span is a building's name and a floor ("Bigelow 11", "CW
    3"): a capitalised word that is no street word, a space, then one to
    three digits ("KAA753" is a login)."""
    words = [t for t in span if not t.is_space]
    if len(words) != 2 or "\n" in span.text:
        return False
    name, floor = words
    if not name.whitespace_ or not (floor.is_digit and len(floor.text) <= 3):
        return False
    written = name.is_title or (name.is_upper and len(name.text) > 1)
    return name.is_alpha and written and name.lower_ not in STREET_WORDS


def is_ward_span(span: Span) -> bool:
    """Whether a span is a ward's floor number and compass direction ("5
    East", `text.wards.is_ward`), judged with the words around it on its
    line."""
    words = [t for t in span if not t.is_space]
    if len(words) != 2 or "\n" in span.text:
        return False
    doc = span.doc
    before = doc[span.start - 1] if span.start > 0 else None
    after = doc[span.end] if span.end < len(doc) else None
    before_text = "" if before is None or "\n" in before.text_with_ws else before.text
    after_text = "" if after is None or "\n" in span[-1].text_with_ws else after.text
    return is_ward(words[0].text, words[1].text, before_text, after_text)


# Separators between a place and its region in one span ("Lagos, Nigeria",
# "Bamako - Mali").
PAIR_SEPARATORS = frozenset({",", "-", "\u2013", "\u2014"})
# A place of this many people or more may start a pair; a region whose name
# is used as a name at this zipf or more ("Chad", "Virginia") may not end one.
PAIR_PLACE_POPULATION = 10_000
PAIR_MAX_REGION_NAME_ZIPF = 3.0


def place_pair(span: Span) -> Optional[Tuple[int, str]]:
    """Where a span that names a place and then its country or US state
    splits ("Lagos, Nigeria", "Reno, Nevada"), and which the region is.

    The place before the separator must be a place of `PAIR_PLACE_POPULATION`
    people or more, more often a place's name than a person's ("Omaha",
    not "Anderson" in "Anderson, Virginia"); the region after it a country
    or a state that is rarely a given name ("Virginia" and "Chad" are:
    "Gyurko, Chad").

    span (Span): The entity.
    RETURNS (Optional[Tuple[int, str]]): The separator's token index and
        "country" or "state", or None.
    """
    seps = [t.i for t in span if t.text in PAIR_SEPARATORS]
    if len(seps) != 1 or seps[0] == span.start or seps[0] == span.end - 1:
        return None
    doc = span.doc
    place = lookup(doc[span.start : seps[0]].text)
    region_span = doc[seps[0] + 1 : span.end]
    region = lookup(region_span.text)
    if place.place_population < PAIR_PLACE_POPULATION:
        return None
    if (
        place.name_zipf >= place.place_zipf
        or region.name_zipf >= PAIR_MAX_REGION_NAME_ZIPF
    ):
        return None
    if region.is_country:
        return seps[0], "country"
    is_code = region.is_state_code and region_span.text.isupper()
    if region.is_state or is_code:
        return seps[0], "state"
    return None


# A place whose name makes a facility's name specific ("Cleveland Clinic").
FACILITY_PLACE_POPULATION = 10_000


def holds_place(span: Span) -> bool:
    """Whether a span's words before its last hold a place's name, one word
    or two: a US state or a place of `FACILITY_PLACE_POPULATION` people or
    more, and no common word ("Cleveland" in "Cleveland Clinic", "Ohio" in
    "Ohio Renal Associates"; not "Family" or "Heart")."""
    words = [t.text for t in span[:-1] if t.is_alpha]
    grams = words + [f"{a} {b}" for a, b in zip(words[:-1], words[1:], strict=True)]
    for gram in grams:
        k = lookup(gram)
        big = k.is_state or k.place_population >= FACILITY_PLACE_POPULATION
        if big and not k.is_common_word:
            return True
    return False


def holds_surname(span: Span, least: int) -> bool:
    """Whether a capitalised word before a span's last is a surname that at
    least `least` people bear and no common word ("Mayo" in "Mayo Clinic";
    not "Lipid" or "Sleep")."""
    for token in span[:-1]:
        if not (token.is_alpha and token.text[:1].isupper()):
            continue
        k = lookup(token.text)
        if k.surname_count >= least and not k.is_common_word:
            return True
    return False


def holds_own_word(span: Span) -> bool:
    """Whether a capitalised word before a span's last is a name of its own:
    no common English word and no branch of medicine ("Brackwater" in
    "Brackwater Recovery Clinic"; not "Heart", "Family" or "Gastroenterology").
    A word in capitals counts only where all the span's words are: among
    title-case words it is a hospital's initials ("SJCH Internal Medicine")."""
    capitals = all(t.is_upper for t in span if t.is_alpha)
    for token in span[:-1]:
        if not (token.is_alpha and (token.is_title or (capitals and token.is_upper))):
            continue
        if not lookup(token.text).is_common_word and not is_specialty_word(token.text):
            return True
    return False


def names_facility(text: str) -> bool:
    """Whether a phrase ends in a facility's head words ("nursing home",
    "medical center") after a word of its own that is no English stop word
    ("coconut creek nursing home", not "the nursing home")."""
    lower = text.lower()
    head = next((h for h in _HEADS if lower.endswith(" " + h)), None)
    if head is None:
        return False
    words = lower[: -len(head)].split()
    return any(w.isalpha() and w not in STOP_WORDS for w in words)


__all__ = [
    "holds_own_word",
    "holds_place",
    "holds_surname",
    "is_city_not_country",
    "is_country_name",
    "is_po_box",
    "place_pair",
    "state_follows",
    "names_facility",
]

"""Which kind of place a span names, by the knowledge tables.

A tagger trained on generated notes knows the countries it saw and calls the
others cities or states ("Burundi" a city, "Mongolia" a state) and some cities
countries ("Kampala"). The list of countries is closed and the tables
hold all of it, so `phi_relabel` corrects the label from them.
"""

from spacy.tokens import Span

from ..knowledge import lookup


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


__all__ = ["holds_place", "is_city_not_country", "is_country_name", "state_follows"]

"""`alternation`: grouped by first character, the same matches as the flat
alternation, case-sensitive and case-blind."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.rules.patterns import facilities, locations
from spacy_deid.rules.patterns._common import alternation, case_variants

# "k", "s" and "i" match characters outside ASCII case-blind (the Kelvin
# sign, the long s, the dotted and dotless i): the texts hold them.
FIRST = "aAbBkKsSiI1"
PIECES = ["a", "b", "k", "S", "i", "A", r"[ \t]+", r"(?:x|y)?", r"\.", "(?:ab)+"]
words = st.lists(
    st.builds(
        lambda first, quantifier, rest: first + quantifier + "".join(rest),
        st.sampled_from(FIRST),
        st.sampled_from(["", "", "", "?", "+"]),
        st.lists(st.sampled_from(PIECES), max_size=3),
    ),
    min_size=1,
    max_size=10,
)
texts = st.text("aAbBkKsSiIxy1 .\t\u212a\u017f\u0130\u0131", max_size=25)
TAILS = ("", r"\.", r"(?![\w])", r"[ \t]b")


def _flat(word_list, ignore_case):
    body = "|".join(sorted(set(word_list), key=lambda w: (-len(w), w)))
    return ("(?i:" if ignore_case else "(?:") + body + ")"


def _ends(pattern, text):
    regex = re.compile(pattern)
    return [
        (m.end() if m else None)
        for m in (regex.match(text, i) for i in range(len(text) + 1))
    ]


@settings(max_examples=400, deadline=None)
@given(words, texts, st.booleans())
def test_grouped_alternation_matches_like_the_flat_one(word_list, text, ignore_case):
    """At every position the same match, also where a tail forces the engine
    to backtrack to a shorter word."""
    grouped = alternation(word_list, ignore_case=ignore_case)
    flat = _flat(word_list, ignore_case)
    for tail in TAILS:
        assert _ends(grouped + tail, text) == _ends(flat + tail, text)


def test_groups_start_with_a_literal_or_a_set():
    """What makes it fast: each branch starts with a character `re` tests
    before entering the branch."""
    grouped = alternation(["March", "May", "Mar", "June"])
    assert grouped == "(?:M(?:arch|ar|ay)|J(?:une))"
    grouped = alternation(["lives", "Lived", "12"], ignore_case=True)
    assert grouped == "(?:[lL](?i:ived|ives)|1(?i:2))"
    assert alternation(["Cat", "cow"]) == "(?:(?:Cat|cow))"


def test_unsafe_words_stay_flat():
    """A word that starts with a metacharacter, a quantified character, or
    has a `|` outside groups is not grouped."""
    assert alternation([r"\d+", "ab"]) == r"(?:\d+|ab)"
    assert alternation(["a?b", "ac"]) == "(?:a?b|ac)"
    assert alternation(["ab|c", "ad"]) == "(?:ab|c|ad)"
    assert alternation(["ab", "cd"], ignore_case=True) == "(?:[aA](?i:b)|[cC](?i:d))"
    assert alternation(["ab", "\u00e9t"], ignore_case=True) == "(?i:ab|\u00e9t)"
    assert re.fullmatch(alternation([r"a[|]", "ab"]), "a|")


def test_case_variants_are_those_of_re():
    """The set of a character holds exactly what `(?i:c)` matches."""
    everything = "".join(chr(code) for code in range(0x3000))
    for char in "abkisz09":
        expected = set(re.findall("(?i:" + char + ")", everything))
        assert set(re.findall(case_variants(char), everything)) == expected


def test_lexicon_words_are_literal():
    """Country and hospital names with '.' or '+' match themselves only."""
    country = re.compile(locations._COUNTRY + "$")
    assert country.match("U.K.") and country.match("U.S.A.")
    assert not country.match("UxKx")
    abbr = re.compile(facilities._ABBR + "$")
    assert abbr.match("LAC+USC")
    assert not abbr.match("LACCUSC")

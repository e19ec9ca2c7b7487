"""Scouts (`rules/scout.py`): the same matches as `finditer`, found faster."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid import synth
from spacy_deid.rules.patterns import FAMILIES, family_patterns
from spacy_deid.rules.ruler import compile_pattern
from spacy_deid.rules.scout import _case_variants, finditer, make_scout

PATTERNS = [
    compile_pattern(pattern, index)
    for index, pattern in enumerate(
        pattern for family in FAMILIES for pattern in family_patterns(family)
    )
]
SPANISH = (
    "Varón de 45 años que acude el 12/03/2015 a Urgencias del Hospital "
    "Universitario La Paz. NHC: 1234567. Tel. 912 345 678, correo "
    "ana.lopez@salud.madrid.org. Domicilio: Calle Mayor 5, 28013 Madrid.\n"
    "Dra. María Pérez Gómez. Fecha de ingreso: 3 de marzo de 2015."
)
# Characters that case-blind matching pairs with "i", "k" and "s".
FOLDS = "\u0130\u0131\u212a\u017f"


def _notes():
    notes = synth.generate(25, seed=5, split="all")
    return [note.text for note in notes] + [SPANISH]


NOTES = _notes()
VOCABULARY = sorted({word for text in NOTES for word in re.split(r"\s+", text)})


def _matches(pattern, scout, text):
    return [(m.span(), m.groups()) for m in finditer(pattern.regex, scout, text)]


def test_most_default_patterns_have_a_scout():
    scouted = [pattern.id for pattern in PATTERNS if pattern.scout is not None]
    assert len(scouted) >= 0.85 * len(PATTERNS)


def test_scouted_matches_are_finditers_on_notes():
    for pattern in PATTERNS:
        for text in NOTES:
            assert _matches(pattern, pattern.scout, text) == _matches(
                pattern, None, text
            ), pattern.id


# Words of the notes in any order, with separators (line breaks of all
# kinds), digits and the characters that case-blind matching pairs with ASCII
# letters.
SHUFFLED_WORDS = st.lists(
    st.one_of(
        st.sampled_from(VOCABULARY),
        st.sampled_from([" ", "\n", "\r\n", "\r", "\t", ": ", ", ", "(", ")", "#"]),
        st.text(alphabet="0123456789-/." + FOLDS, min_size=1, max_size=6),
    ),
    max_size=40,
).map("".join)


@settings(max_examples=60, deadline=None)
@given(SHUFFLED_WORDS)
def test_scouted_matches_are_finditers_on_shuffled_words(text):
    for pattern in PATTERNS:
        assert _matches(pattern, pattern.scout, text) == _matches(
            pattern, None, text
        ), pattern.id


def test_case_variants_are_those_of_re():
    """Over all of Unicode, the characters that a case-blind ASCII literal
    matches are exactly `_case_variants`."""
    everything = "".join(chr(c) for c in range(0x110000) if not 0xD800 <= c < 0xE000)
    outside = set(re.findall(r"(?i)[\x00-\x7f]", everything)) - set(
        map(chr, range(128))
    )
    for code in range(128):
        literal = re.compile("(?i)" + re.escape(chr(code)))
        expected = {ord(c) for c in map(chr, range(128)) if literal.fullmatch(c)}
        expected |= {ord(c) for c in outside if literal.fullmatch(c)}
        assert _case_variants(code, re.IGNORECASE) == expected, chr(code)
        ascii_only = re.compile("(?ia)" + re.escape(chr(code)))
        expected = {c for c in range(128) if ascii_only.fullmatch(chr(c))}
        assert _case_variants(code, re.IGNORECASE | re.ASCII) == expected


@pytest.mark.parametrize(
    "pattern,flags",
    [
        (r"(?<!\d)\d*", 0),  # can match the empty string
        (r"\b.x", 0),  # any character first
        (r"[^a]b", 0),  # a negated set first
        (r"(?P<q>['\"])x(?P=q)", 0),  # a backreference inside the lookbehind
        (r"\b(?i:\u00e9t\u00e9)", 0),  # a case-blind letter outside ASCII
        (r"\d  # digits", re.VERBOSE),
        (r"(?<![\w.])\w+@", 0),  # every lower-case letter can start it
    ],
)
def test_no_scout_where_the_first_character_is_unbounded(pattern, flags):
    assert make_scout(re.compile(pattern, flags)) is None


def test_scout_of_a_cued_pattern_finds_every_case():
    regex = re.compile(r"(?<![\w\-])(?i:mrn|kin)[ :]+(?P<phi>\d+)")
    scout = make_scout(regex)
    assert scout is not None
    text = "MRN 12, mrn: 7, xmrn 9, \u212aIN 5, Mrn 3"
    found = [m.group("phi") for m in finditer(regex, scout, text)]
    assert (
        found == [m.group("phi") for m in regex.finditer(text)] == ["12", "7", "5", "3"]
    )


def test_a_scout_that_disagrees_is_an_error():
    regex = re.compile(r"ab")
    with pytest.raises(RuntimeError):
        list(finditer(regex, re.compile("a"), "ac"))

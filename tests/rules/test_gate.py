"""Gates (`rules/gate.py`): the same matches as `finditer`, on fewer lines."""

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.rules import gate as gate_module
from spacy_deid.rules.gate import finditer, gated_finditer, make_gate
from spacy_deid.rules.scout import make_scout

from .test_scout import FOLDS, NOTES, PATTERNS, SHUFFLED_WORDS


def _matches(regex, gate, text):
    """The matches through the gate (never on trial), if there is one."""
    scout = make_scout(regex)
    if gate is None:
        found = finditer(regex, scout, gate, text)
    else:
        found = gated_finditer(regex, scout, gate, text)
    return [(m.span(), m.groups()) for m in found]


def _plain(regex, text):
    return [(m.span(), m.groups()) for m in regex.finditer(text)]


def test_many_default_patterns_have_a_gate():
    gated = [pattern.id for pattern in PATTERNS if make_gate(pattern.regex)]
    assert len(gated) >= 0.3 * len(PATTERNS)
    assert "profession.by_trade" in gated and "name.credential" in gated


@pytest.mark.parametrize("max_lines", [1, gate_module.MAX_LINES])
def test_gated_matches_are_finditers_on_notes(monkeypatch, max_lines):
    """On the notes, also with line endings "\\r\\n" and "\\r", and when the
    gate gives up after the first line."""
    monkeypatch.setattr(gate_module, "MAX_LINES", max_lines)
    texts = NOTES + [text.replace("\n", "\r\n") for text in NOTES[:5]]
    texts += [text.replace("\n", "\r") for text in NOTES[5:10]]
    for pattern in PATTERNS:
        gate = make_gate(pattern.regex)
        for text in texts:
            assert _matches(pattern.regex, gate, text) == _plain(pattern.regex, text)


@settings(max_examples=60, deadline=None)
@given(SHUFFLED_WORDS)
def test_gated_matches_are_finditers_on_shuffled_words(text):
    for pattern in PATTERNS:
        gate = make_gate(pattern.regex)
        if gate is not None:
            assert _matches(pattern.regex, gate, text) == _plain(pattern.regex, text)


# Pieces of random patterns: literals (case-blind too), sets that do and do
# not match line breaks, anchors, lookarounds, groups, alternations, repeats.
PIECES = [
    "abc", "Abc", "xyz", "XYZ", "(?i:abc)", "(?i:sky)", "ki", "[ab]", "[ \\t]",
    "\\s", "\\S", "\\w+", "\\W", "\\d", "\\D", ".", "[^a]", "[^\\r\\n]", "[^\\n]",
    "\\n", "\\r", "(?=abc)", "(?!x)", "(?=\\s)", "(?<=a)", "(?<![^\\r\\n])",
    "(?<!\\w)", "(?<=\\n)", "(?<=abc\\n)", "(?<=xyz\\r)", "\\b", "\\B", "^", "$", "\\Z", "\\A", "(?m:^)",
    "(?m:$)", "(?:abc|xyz)", "(?:abc|)", "(?:ab)+", "a*", "(?:xyz)?", "c{2}",
    "(?P<g>abc)", "(?P=g)", "(?:(?i:sky)|abc)", "[a-c]{2,3}", "x?", "(?>ab|a)",
    "c++", "(?:abc)*?",
]  # fmt: skip
TEXT_CHARS = "abcxyzkisABCXYZKIS \t\n\r.-" + FOLDS


@settings(max_examples=500, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
    st.lists(st.text(TEXT_CHARS, max_size=12), min_size=1, max_size=8),
    st.sampled_from([1, 2, 8]),
)
def test_gated_matches_are_finditers_on_random_patterns(pieces, chunks, max_lines):
    """Random patterns over texts that hold their strings, line breaks and
    the characters that fold to ASCII letters case-blind."""
    pattern = "".join(pieces)
    try:
        regex = re.compile(pattern)
    except re.error:
        return
    gate = make_gate(regex)
    text = "".join(chunks)
    saved = gate_module.MAX_LINES
    gate_module.MAX_LINES = max_lines
    try:
        assert _matches(regex, gate, text) == _plain(regex, text)
        for piece in ("abc\n", "sky xyz\r\n", "ABC XYZ\r", "\u017fky", "abc\nxyz "):
            text = piece + text + piece
            assert _matches(regex, gate, text) == _plain(regex, text)
    finally:
        gate_module.MAX_LINES = saved


@pytest.mark.parametrize(
    "pattern",
    [
        r"abc\s+def",  # \s matches "\n"
        r"abc.def",  # "." matches "\r"
        r"abc[^x]",  # a negated set matches "\n"
        r"abc$",  # `$` depends on what follows the line
        r"abc\Z",
        r"(?m:abc$)",  # `$` with "m" is False before a lone "\r"
        r"abc(?=\n)",  # a lookahead reads the line break
        r"(?<=a(?=bc))bcd",  # a lookahead inside a lookbehind
        r"abc|",  # can match the empty string
        r"ab",  # too short
        r"(?i:ab)c?",
        r"\d+",  # no required string
    ],
)
def test_no_gate(pattern):
    assert make_gate(re.compile(pattern)) is None


@pytest.mark.parametrize(
    "pattern,needles",
    [
        (r"\bby[ \t]+trade\b", {("trade", False)}),
        (r"(?<![^\r\n])(?i:dob):[ \t]*\d+", {("dob:", True)}),
        (r"\d+(?=[ \t]*(?:MD|DDS))", {("MD", False), ("DDS", False)}),
        (r"(?:Mr|Mrs)\.[ \t]+[A-Z]\w+", {("Mr.", False), ("Mrs.", False)}),
        (r"[\w.]+@[\w.]+\.(?:com|org)", {(".com", False), (".org", False)}),
        # Not "abc\n": a lookbehind may lie on the line before.
        (r"(?<=abcd\n)xyz", {("xyz", False)}),
    ],
)
def test_required_strings(pattern, needles):
    gate = make_gate(re.compile(pattern))
    assert gate is not None
    assert gate_module._needles(pattern, 0) == tuple(sorted(needles))


@pytest.mark.parametrize(
    "pattern,text",
    [
        # "\u017f" (long s) matches "s" case-blind: the gate finds it too.
        (r"(?i:lives)[ \t]+in[ \t]+[A-Z]\w+", "x\nLIVE\u017f in Boston\n"),
        # "\u0130".lower() is two characters: the gate must not lower-case.
        (r"(?i:\u0130zmir)[ \t]+\w+", "from \u0130zmir city\n"),
        (r"(?i:\u0130zmir)[ \t]+\w+", "from \u0130ZMIR city\n"),
    ],
)
def test_case_blind_strings_match_what_the_pattern_matches(pattern, text):
    regex = re.compile(pattern)
    assert make_gate(regex) is not None and _plain(regex, text)
    assert _matches(regex, make_gate(regex), text) == _plain(regex, text)


def test_a_gate_on_trial_times_both_ways_then_keeps_the_faster():
    regex = re.compile(r"(?i:by)[ \t]+trade\b")
    text = "works by trade\nnothing here\n" * 3
    expected = _plain(regex, text)
    for faster in (True, False):
        gate = make_gate(regex)
        for i in range(2 * gate_module.TRIALS):
            assert gate.pays is None
            assert [
                (m.span(), m.groups()) for m in finditer(regex, None, gate, text)
            ] == expected
            # Replace the measured time by a made-up one.
            gated = i % 2 == 1
            gate._seconds[gated] = (1.0 if gated == faster else 2.0) * (i + 1)
        assert gate.pays is faster
        assert [
            (m.span(), m.groups()) for m in finditer(regex, None, gate, text)
        ] == expected

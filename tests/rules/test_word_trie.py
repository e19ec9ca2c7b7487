"""`word_trie`: the same matches as `alternation`, as a trie."""

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.rules.patterns import facilities, names
from spacy_deid.rules.patterns._common import alternation, title_and_upper, word_trie

ALPHABET = "abAB-' ."
words = st.lists(st.text(ALPHABET, min_size=1, max_size=5), min_size=1, max_size=12)
texts = st.text(ALPHABET + "c\n", max_size=30)


def _ends(pattern: str, text: str, flags: int = 0):
    regex = re.compile(pattern, flags)
    ends = []
    for i in range(len(text) + 1):
        match = regex.match(text, i)
        ends.append(match.end() if match else None)
    return ends


@settings(max_examples=300, deadline=None)
@given(words, texts)
def test_trie_matches_like_the_alternation(word_list, text):
    """Case-sensitive: at every position the same match (the longest word
    first), also when a longer continuation must backtrack ("ab" in "aba.")."""
    escaped = [re.escape(word) for word in word_list]
    for tail in ("", r"\.", r"(?!\w)"):
        assert _ends(word_trie(word_list) + tail, text) == _ends(
            alternation(escaped) + tail, text
        )


@settings(max_examples=300, deadline=None)
@given(words, texts)
def test_trie_lookahead_is_the_same_ignoring_case(word_list, text):
    """In a lookahead only whether some word matches counts, so case-blind
    tries (where "A" and "a" branches both match) are safe there."""
    escaped = [re.escape(word) for word in word_list]
    trie = r"(?!" + word_trie(word_list) + r"\b)"
    alt = r"(?!" + alternation(escaped) + r"\b)"
    assert _ends(trie, text, re.I) == _ends(alt, text, re.I)


def test_words_are_literal_text():
    assert re.fullmatch(word_trie(["a.b", "c+"]), "a.b")
    assert not re.fullmatch(word_trie(["a.b", "c+"]), "axb")
    assert not re.fullmatch(word_trie(["a.b", "c+"]), "cc")
    assert re.fullmatch(word_trie(["x", "xyz", "xy"]), "xy")
    assert word_trie(["only"]) == "(?:only)"


def test_stop_lists_block_the_same_words():
    """The shipped stop lookaheads (names, facilities) accept and reject the
    same words as the alternations they replace."""
    cases = [
        (names._NOT_NAMES + [w.upper() for w in names._NOT_NAMES], r"\b"),
        (title_and_upper(facilities.FACILITY_STOP_WORDS), r"(?![\w'\u2019])"),
    ]
    for stop_words, end in cases:
        trie = re.compile(r"(?!" + word_trie(stop_words) + end + ")")
        alt = re.compile(r"(?!" + alternation(stop_words) + end + ")")
        probes = [w + tail for w in stop_words for tail in ("", "s", " x", "-y", "'s")]
        probes += [w[:-1] for w in stop_words] + ["Smith", "Jones", "O'Brien"]
        for probe in probes:
            assert bool(trie.match(probe)) == bool(alt.match(probe)), probe

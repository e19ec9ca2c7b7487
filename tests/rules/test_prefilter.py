"""The prefilter (`rules/prefilter.py`): it never rules out a pattern that
matches, so the ruler finds the same candidates with it and without it."""

import os
import pickle
import re
import threading
import time
from functools import lru_cache

import pytest
import spacy
from hypothesis import given, settings
from hypothesis import strategies as st

from spacy_deid.rules import prefilter as prefilter_module
from spacy_deid.rules.patterns import default_patterns
from spacy_deid.rules.prefilter import (
    PLACEHOLDER,
    Prefilter,
    Source,
    char_set,
    prefilter_regex,
    scan_bytes,
    with_edges,
)
from spacy_deid.rules.ruler import PhiRuler
from spacy_deid.rules._sre import parse

from .test_gate import PIECES, TEXT_CHARS
from .test_scout import NOTES, PATTERNS, SHUFFLED_WORDS

needs_hyperscan = pytest.mark.skipif(
    not prefilter_module.available(), reason="Hyperscan is not installed"
)
# The notes, also with line endings "\r\n" and "\r", in upper case, and with
# characters outside ASCII (that fold to ASCII letters, accents, symbols)
# put in place of some ASCII ones.
TEXTS = (
    NOTES
    + [text.replace("\n", "\r\n") for text in NOTES[:4]]
    + [text.replace("\n", "\r") for text in NOTES[4:8]]
    + [text.upper() for text in NOTES[8:12]]
    + [text.replace("k", "\u212a").replace("s", "\u017f") for text in NOTES[12:16]]
    + [text.replace("e", "\u00e9").replace(" ", "\u00a0", 40) for text in NOTES[16:20]]
    + [text.replace("1", "\u0661").replace("-", "\u2013") for text in NOTES[20:24]]
)


@lru_cache(maxsize=None)
def _written(pattern, flags):
    """The prefilter regex of a pattern, compiled by `re` over bytes."""
    source = prefilter_regex(pattern, flags)
    return None if source is None else re.compile(source.encode("ascii"))


def _assert_superset(regex, text):
    """Around every match of the pattern its prefilter regex matches the
    scanned bytes (starting where a leading lookbehind starts, at the latest,
    and ending after the match, at the earliest)."""
    written = _written(regex.pattern, regex.flags)
    if written is None:
        return
    data = scan_bytes(text)
    behind = _leading_lookbehind_width(regex)
    for match in regex.finditer(text):
        start = match.start() - behind
        assert any(
            written.fullmatch(data, start, end)
            for end in range(match.end(), len(data) + 1)
        ), regex.pattern


@lru_cache(maxsize=None)
def _leading_lookbehind_width(regex):
    """The width of the lookbehind that `with_edges` reads as text, or 0."""
    tree = parse(regex.pattern, regex.flags)
    written = with_edges(list(tree.data))
    for (op, av), (new_op, _) in zip(tree.data, written, strict=True):
        if op != new_op and av[0] < 0:
            return av[1].getwidth()[0]
    return 0


def _candidates(ruler, doc):
    return [(c.start_char, c.end_char, c.pattern.id, c.flags) for c in ruler.match(doc)]


def test_scanned_bytes_keep_offsets():
    text = "Pt \u00c9lo\u00efse \u212aing \U0001f600 seen 3/4\r\n"
    data = scan_bytes(text)
    assert len(data) == len(text)
    assert data == b"Pt ?lo?se ?ing ? seen 3/4\r\n"


@pytest.mark.parametrize(
    "node,flags,inside,outside",
    [
        ("a", 0, "a", "A?"),
        ("a", re.I, "aA", "?"),
        ("k", re.I, "kK?", ""),  # the Kelvin sign matches case-blind
        ("k", re.I | re.A, "kK", "?"),
        ("\u00e9", 0, "?", "e"),
        ("[a-c]", re.I, "abcABC", "d?"),
        ("[^a]", 0, "b?\n", "a"),
        ("[^?!]", 0, "b?", "!"),  # "?" stands for the characters outside ASCII
        ("[^\u00e9]", 0, "e?", ""),
        ("\\d", 0, "09?", "a"),
        ("\\s", 0, " \t\n\x1c\x1f?", "a"),
        ("\\W", re.A, "-?", "a_"),
        (".", 0, "a?", "\n"),
        (".", re.S, "a?\n", ""),
    ],
)
def test_char_set(node, flags, inside, outside):
    ((op, av),) = parse(node, flags).data
    codes = char_set(op, av, flags)
    assert {ord(c) for c in inside} <= codes
    assert not {ord(c) for c in outside} & codes


def test_char_set_covers_all_of_unicode_case_blind():
    """Checked against `re` over every character: a case-blind ASCII letter
    or set matches outside ASCII only where its set holds the placeholder."""
    for node in ("i", "k", "s", "e", "[a-z]", "[0-9x]"):
        regex = re.compile(node, re.I)
        ((op, av),) = parse(node, re.I).data
        codes = char_set(op, av, re.I)
        matched_outside = any(
            regex.fullmatch(chr(c))
            for c in range(128, 0x110000)
            if c < 0xD800 or c > 0xDFFF
        )
        assert (PLACEHOLDER in codes) == matched_outside, node


@pytest.mark.parametrize(
    "pattern",
    [
        r"(?<![\w])Dr\.?\s+(?P<phi>[A-Z][a-z]+)\b",
        r"(?i)(?:mrn|record)\s*[:#]\s*(?P<phi>\d{5,10})(?!\d)",
        r"(?P<d>\d\d)/(?P=d)",
        r"(?P<g>ab)-(?i:(?P=g))",  # case-blind, a backreference may differ
        r"(?!x)(?<=a)(?<=\w)bc(?=d)(?<=c)(?=\w)",  # edges read as text
        r"ab(?<=b)c(?=d)d",  # not at the edges: dropped
        r"(a)?(?(1)b|c)d",
        r"(?>ab|a)c++x*?",
        r"x{2,40}y{3}",
        r"(?x) a b  # verbose\n c",
        r"(?i:\u00e9t\u00e9)|\u212a",
    ],
)
def test_written_regex_matches_every_match(pattern):
    regex = re.compile(pattern)
    assert prefilter_regex(regex.pattern, regex.flags) is not None
    for text in TEXTS + [
        "Dr. Smith",
        "MRN: 1234567",
        "12/12 x",
        "ab-AB",
        "abcd",
        "bd cd abc",
        "été \u212a",
    ]:
        _assert_superset(regex, text)


def test_patterns_that_can_match_nothing_are_not_written():
    assert prefilter_regex(r"(?=abc)") is None
    assert prefilter_regex(r"a*") is None
    assert prefilter_regex(r"(") is None


def test_long_branches_become_sets():
    words = "|".join("word%03d" % i for i in range(400))
    source = prefilter_regex(f"cue (?:{words})")
    assert source is not None and len(source) < 100
    _assert_superset(re.compile(f"cue (?:{words})"), "a cue word123 and cue word399.")


def test_every_default_pattern_is_written_as_a_superset():
    written = [
        p.id for p in PATTERNS if prefilter_regex(p.regex.pattern, p.regex.flags)
    ]
    assert len(written) == len(PATTERNS)
    for pattern in PATTERNS:
        for text in TEXTS:
            _assert_superset(pattern.regex, text)


@settings(max_examples=20, deadline=None)
@given(SHUFFLED_WORDS)
def test_default_patterns_superset_on_shuffled_words(text):
    for pattern in PATTERNS:
        _assert_superset(pattern.regex, text)


@settings(max_examples=400, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
    st.lists(st.text(TEXT_CHARS + "\u00e9?", max_size=12), min_size=1, max_size=8),
)
def test_random_patterns_superset(pieces, chunks):
    for flags in (0, re.I):
        try:
            regex = re.compile("".join(pieces), flags)
        except re.error:
            return
        _assert_superset(regex, "".join(chunks))


@needs_hyperscan
def test_hyperscan_rules_out_no_matching_pattern():
    regexes = [pattern.regex for pattern in PATTERNS]
    prefilter = Prefilter(regexes)
    assert len(prefilter.covered) == len(regexes)
    ruled_out = 0
    for text in TEXTS:
        may_match = prefilter.may_match(text)
        for index, regex in enumerate(regexes):
            if regex.search(text):
                assert index in may_match, PATTERNS[index].id
        ruled_out += len(regexes) - len(may_match)
    assert ruled_out > len(TEXTS) * len(regexes) / 2  # it does rule out


@needs_hyperscan
@settings(max_examples=150, deadline=None)
@given(
    st.lists(st.sampled_from(PIECES), min_size=1, max_size=6),
    st.lists(st.text(TEXT_CHARS + "\u00e9?", max_size=12), min_size=1, max_size=8),
)
def test_hyperscan_on_random_patterns(pieces, chunks):
    try:
        regex = re.compile("".join(pieces), re.I if len(pieces) % 2 else 0)
    except re.error:
        return
    text = "".join(chunks)
    prefilter = Prefilter([regex])
    prefilter.build()
    may_match = prefilter.may_match(text)
    if regex.search(text) and may_match is not None:
        assert 0 in may_match


@needs_hyperscan
def test_a_pattern_hyperscan_rejects_is_never_ruled_out(monkeypatch):
    real = prefilter_module.prefilter_regex
    rejected = re.compile(r"\d{3}-\d{4}")

    def write(pattern, flags=0):
        return "(?<=x)" if pattern == rejected.pattern else real(pattern, flags)

    monkeypatch.setattr(prefilter_module, "prefilter_regex", write)
    _clear_caches()
    try:
        prefilter = Prefilter([re.compile("abc"), rejected, re.compile("xyz")])
        assert prefilter.covered == {0, 2}
        assert prefilter.may_match("nothing here") == {1}
        assert prefilter.may_match("abc") == {0, 1}
    finally:
        _clear_caches()


def _clear_caches():
    prefilter_module._build.cache_clear()
    prefilter_module._written.cache_clear()


@needs_hyperscan
def test_a_failed_scan_rules_out_nothing(monkeypatch):
    prefilter = Prefilter([re.compile("abc")])
    prefilter.build()
    assert prefilter.may_match("xyz") == set()

    class Broken:
        def scan(self, *args, **kwargs):
            raise prefilter_module.hyperscan.error("scratch in use")

    prefilter._database = Broken()
    assert prefilter.may_match("xyz") is None


def _wait_until_built(prefilter, seconds=60.0):
    deadline = time.monotonic() + seconds
    while not prefilter._built and time.monotonic() < deadline:
        time.sleep(0.01)
    return prefilter._built


@needs_hyperscan
def test_built_in_the_background_once_enough_text_went_through(monkeypatch):
    monkeypatch.setattr(prefilter_module, "BUILD_AFTER_CHARS", 10)
    prefilter = Prefilter([re.compile("abc"), re.compile("xyz")])
    assert prefilter.may_match("abc xyz") is None  # 7 characters let through
    assert prefilter._builder_pid is None
    assert prefilter.may_match("abc abc") is None  # 14: the build starts
    assert prefilter._builder_pid == os.getpid()
    assert _wait_until_built(prefilter)
    assert prefilter.may_match("abc abc") == {0}
    assert prefilter.may_match("x") == set()


@needs_hyperscan
def test_a_forked_process_builds_its_own(monkeypatch):
    """A child forked while its parent was building (no builder thread in
    the child) starts its own build instead of waiting for the parent's."""
    monkeypatch.setattr(prefilter_module, "BUILD_AFTER_CHARS", 0)
    prefilter = Prefilter([re.compile("abc"), re.compile(r"\d{3}-\d{4}")])
    prefilter._builder_pid = os.getpid() + 1  # "the parent's" build, not ours
    prefilter._lock.acquire()  # as a fork inside the parent's build leaves it
    assert prefilter.may_match("555-1234") is None
    assert prefilter._builder_pid == os.getpid()
    assert _wait_until_built(prefilter)
    assert prefilter.may_match("555-1234") == {1}


@needs_hyperscan
def test_a_build_that_fails_leaves_every_pattern_running(monkeypatch):
    def broken(sources):
        raise RuntimeError("no database")

    monkeypatch.setattr(prefilter_module, "_build", broken)
    monkeypatch.setattr(prefilter_module, "BUILD_AFTER_CHARS", 0)
    prefilter = Prefilter([re.compile("abc")])
    assert prefilter.may_match("abc") is None
    assert _wait_until_built(prefilter)
    assert prefilter.may_match("abc") is None


def test_without_hyperscan_nothing_is_ruled_out(monkeypatch):
    monkeypatch.setattr(prefilter_module, "hyperscan", None)
    assert not prefilter_module.available()
    assert Prefilter([re.compile("abc")]).may_match("xyz") is None


@pytest.fixture(scope="module")
def rulers():
    patterns = default_patterns()
    fast = PhiRuler(patterns=patterns)
    fast._prefilter.build()  # not only after BUILD_AFTER_CHARS
    return fast, PhiRuler(patterns=patterns, prefilter=False)


def test_ruler_same_candidates_with_and_without(rulers):
    nlp = spacy.blank("en")
    fast, exact = rulers
    assert exact._prefilter is None and fast._prefilter is not None
    assert fast._prefilter._built == prefilter_module.available()
    for text in TEXTS:
        doc = nlp.make_doc(text)
        assert _candidates(fast, doc) == _candidates(exact, doc)


def test_ruler_without_hyperscan(rulers, monkeypatch):
    nlp = spacy.blank("en")
    fast, exact = rulers
    monkeypatch.setattr(prefilter_module, "hyperscan", None)
    doc = nlp.make_doc(NOTES[0])
    assert _candidates(fast, doc) == _candidates(exact, doc)


def test_ruler_pickles_with_the_database(rulers, monkeypatch):
    """A copy (as a "spawn" worker gets) loads the built database in the
    background instead of compiling one; one not yet built goes without."""
    nlp = spacy.blank("en")
    fast, _ = rulers
    monkeypatch.setattr(prefilter_module, "_build", _no_compiling)
    copy = pickle.loads(pickle.dumps(fast))
    copy._prefilter.may_match("the first note")
    assert _wait_until_built(copy._prefilter)
    assert copy._prefilter._database is not None
    for text in NOTES[:4]:
        doc = nlp.make_doc(text)
        assert _candidates(copy, doc) == _candidates(fast, doc)
    unbuilt = pickle.loads(pickle.dumps(PhiRuler(patterns=default_patterns()[:5])))
    assert not unbuilt._prefilter._built and unbuilt._prefilter._saved is None


def _no_compiling(sources):
    raise AssertionError("compiled a database instead of loading the saved one")


@needs_hyperscan
def test_a_saved_database_of_the_same_sources_is_used_from_the_first_text(
    monkeypatch,
):
    """Where its `sources_key` agrees, a saved database is loaded on the first
    text, in this thread, and rules patterns out of that text already."""
    regexes = [Source(r"\d{3}-\d{4}", 0), Source("mrn", re.I), Source("abc", 0)]
    built = Prefilter(regexes)
    data = built.to_bytes()
    monkeypatch.setattr(prefilter_module, "_build", _no_compiling)
    monkeypatch.setattr(prefilter_module, "database_key", _no_compiling)
    loaded = Prefilter(regexes)
    loaded.use_saved(data)
    assert not loaded._built  # not while the pipeline loads
    for text in ["555-1234", "MRN 5", "ab c", "xabcx 555-123"]:
        assert loaded.may_match(text) == built.may_match(text)
    assert loaded._builder_pid is None and loaded._saved is None
    assert loaded.to_bytes() == data


@needs_hyperscan
@pytest.mark.parametrize("change", ["other code", "no sources key"])
def test_a_saved_database_is_loaded_instead_of_compiled(monkeypatch, change):
    """Where its `sources_key` differs (another Python, other code) or is
    missing, a saved database is checked by its `database_key` in the
    background from the first text on, and used."""
    import srsly

    regexes = [re.compile(r"\d{3}-\d{4}"), re.compile("(?i)mrn"), re.compile("abc")]
    built = Prefilter(regexes)
    saved = srsly.msgpack_loads(built.to_bytes())
    if change == "other code":
        saved["sources_key"] = "0" * 64
    else:
        del saved["sources_key"]
    data = srsly.msgpack_dumps(saved)
    monkeypatch.setattr(prefilter_module, "_build", _no_compiling)
    loaded = Prefilter(regexes)
    loaded.use_saved(data)
    assert loaded._builder_pid is None  # not while the pipeline loads
    assert loaded.may_match("555-1234") is None  # the first text starts it
    assert loaded._builder_pid == os.getpid()
    assert _wait_until_built(loaded) and loaded._database is not None
    for text in ["555-1234", "MRN 5", "ab c", "xabcx 555-123"]:
        assert loaded.may_match(text) == built.may_match(text)
    assert loaded._saved is None  # not kept once used


@needs_hyperscan
@pytest.mark.parametrize(
    "damage",
    [
        "other patterns",
        "other hyperscan",
        "broken database",
        "not msgpack",
        "not a dict",
        "more covered",
    ],
)
def test_a_saved_database_that_does_not_match_is_compiled_again(damage, monkeypatch):
    """A database saved for other prefilter regexes or another Hyperscan, or
    damaged, is not used: the prefilter compiles its own, as without it."""
    import srsly

    regexes = [re.compile(r"\d{3}-\d{4}"), re.compile("abc")]
    data = Prefilter(regexes).to_bytes()
    saved = srsly.msgpack_loads(data)
    if damage == "other patterns":
        data = Prefilter([re.compile(r"\d{3}-\d{5}"), re.compile("abc")]).to_bytes()
    elif damage == "other hyperscan":
        monkeypatch.setattr(prefilter_module.hyperscan, "__version__", "0.0.1")
    elif damage == "broken database":
        saved["database"] = saved["database"][:100]
        data = srsly.msgpack_dumps(saved)
    elif damage == "not msgpack":
        data = b"\xc1 not msgpack"
    elif damage == "not a dict":
        data = srsly.msgpack_dumps([1, 2])
    elif damage == "more covered":
        saved["covered"] = [0, 1, 2]
        data = srsly.msgpack_dumps(saved)
    compiled = []
    real = prefilter_module._build

    def counted(sources):
        compiled.append(sources)
        return real(sources)

    monkeypatch.setattr(prefilter_module, "_build", counted)
    prefilter = Prefilter(regexes)
    prefilter.use_saved(data)
    prefilter.build()
    assert len(compiled) == 1
    assert prefilter.may_match("555-1234 abc") == {0, 1}
    assert prefilter.may_match("555-12345") == {0}
    assert prefilter.may_match("nothing") == set()


def test_no_saved_database_without_hyperscan(monkeypatch):
    monkeypatch.setattr(prefilter_module, "hyperscan", None)
    prefilter = Prefilter([re.compile("abc")])
    assert prefilter.to_bytes() is None
    prefilter.use_saved(b"anything")
    assert prefilter._saved is None and not prefilter._built


@needs_hyperscan
def test_the_ruler_saves_and_loads_its_database(tmp_path, monkeypatch):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules")
    nlp.to_disk(tmp_path / "p")
    assert (tmp_path / "p" / "phi_rules" / "prefilter.hs").exists()
    monkeypatch.setattr(prefilter_module, "_build", _no_compiling)
    loaded = spacy.load(tmp_path / "p")
    ruler = loaded.get_pipe("phi_rules")
    loaded("The first note.")
    assert _wait_until_built(ruler._prefilter) and ruler._prefilter._database
    exact = PhiRuler(patterns=default_patterns(), prefilter=False)
    for text in TEXTS[:6]:
        doc = nlp.make_doc(text)
        assert _candidates(ruler, doc) == _candidates(exact, doc)
    # Saved again without a prefilter: no database, and none left behind.
    off = spacy.load(
        tmp_path / "p", config={"components": {"phi_rules": {"prefilter": False}}}
    )
    off.to_disk(tmp_path / "p")
    assert not (tmp_path / "p" / "phi_rules" / "prefilter.hs").exists()


def test_ruler_threads_scan_with_their_own_scratch(rulers):
    nlp = spacy.blank("en")
    fast, exact = rulers
    docs = [nlp.make_doc(text) for text in NOTES[:8]]
    expected = [_candidates(exact, doc) for doc in docs]
    results, errors = {}, []

    def work(n):
        try:
            results[n] = [[_candidates(fast, doc) for doc in docs] for _ in range(3)]
        except Exception as e:  # pragma: no cover - reported below
            errors.append(e)

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not errors
    for runs in results.values():
        assert all(run == expected for run in runs)


def test_prefilter_setting_round_trips(tmp_path):
    nlp = spacy.blank("en")
    nlp.add_pipe("phi_rules", config={"prefilter": False})
    nlp.to_disk(tmp_path / "p")
    loaded = spacy.load(tmp_path / "p")
    assert loaded.get_pipe("phi_rules").cfg["prefilter"] is False
    assert loaded.get_pipe("phi_rules")._prefilter is None
    on = spacy.load(
        tmp_path / "p", config={"components": {"phi_rules": {"prefilter": True}}}
    )
    assert on.get_pipe("phi_rules")._prefilter is not None
    assert not on.get_pipe("phi_rules")._prefilter._built  # not while loading


"""The prefilter: one Hyperscan pass that rules out the patterns that cannot
match a text, so that `re` runs only the others.

With ~100 patterns the ruler runs ~100 scans of `re` over each note, though
most patterns match nothing in most notes. Hyperscan (Intel's multi-pattern
regex engine; `pip install spacy-deid[fast]`) scans a text once for all of
them. It is a prefilter only: every match still comes from `re`, so the
ruler's output is the same with and without it, and without Hyperscan (not
installed, another CPU architecture) every pattern runs as before.

Why a pattern that the prefilter rules out has no match:

- Its prefilter regex (`prefilter_regex`) matches in every text where the
  pattern matches. It is written from `re`'s own parse tree: every character
  the pattern reads becomes an explicit byte set (the exact ASCII characters
  `re` matches there, tested against `re` itself); a leading lookbehind and a
  trailing lookahead are read as text before and after the match, the other
  lookarounds, `\\b` and anchors are dropped; lazy, possessive and atomic
  parts become plain ones, a backreference its group, a conditional both its
  branches, and counted repeats with a large maximum become open-ended.
  Hyperscan compiles it in prefilter mode (`HS_FLAG_PREFILTER`), which may
  widen it further but never narrows it.
- The text is scanned as ASCII bytes, one per character, with "?" for each
  character outside ASCII; every byte set that can match a character outside
  ASCII also matches "?". Offsets therefore agree, and no match is lost to
  the encoding.
- A pattern that cannot be written so, or that Hyperscan rejects, is never
  ruled out. If a scan fails, no pattern is.

The Hyperscan database takes about 2 s to build for the English patterns,
about what `re` spends on 500 notes. A saved pipeline carries it
(phi_rules/prefilter.hs, `to_bytes`), with two digests: `sources_key`, of
what the prefilter regexes are written from (the patterns' sources and
flags, the code that writes them, the Python, Unicode and Hyperscan
versions), and `database_key`, of the prefilter regexes themselves and the
Hyperscan version. Where the first agrees, the saved database is loaded
(a few milliseconds) on the first text and rules patterns out from it on:
the ruler then never compiles the patterns that none of its texts can match.
Else, from the first text on, a background thread writes the prefilter
regexes again (about 0.2 s) and uses the saved database only if the second
digest agrees, so a stale or damaged file costs a build, never a match. Without a saved database, a prefilter starts
building one once `BUILD_AFTER_CHARS` characters have gone through (about 25
notes), in a background thread, since Hyperscan's compiler releases the GIL;
until it is ready every pattern runs. So a few notes at the command line, or
a test, never pay for a build, and a longer run does not wait for it. It is
built once per process and list of patterns; a pickled copy (a "spawn"
worker's) carries the built database serialized. Each thread scans with its
own scratch space.
"""

import hashlib
import os
import re
import sys
import threading
import unicodedata
from functools import lru_cache
from pathlib import Path
from typing import Any, Dict, FrozenSet, List, NamedTuple, Optional, Sequence, Set
from typing import Tuple

import srsly

from . import _sre
from ._sre import ATOMIC, CATEGORY_ESCAPES, REPEATS, combine_flags, parse, sre
from .patterns._common import FOLD_EXTRA

try:
    import hyperscan
except ImportError:  # the [fast] extra is not installed, or not on this CPU
    hyperscan = None

ASCII_CODES = range(128)
# The byte that stands for every character outside ASCII in a scanned text.
PLACEHOLDER = ord("?")
# A branch whose prefilter regex is longer than this is replaced by the set of
# characters it can read, repeated: Hyperscan compiles long alternations of
# words slowly, or not at all ("Pattern length exceeds limit").
MAX_BRANCH = 1500
# Counted repeats with a larger maximum become open-ended, which Hyperscan
# compiles faster.
MAX_COUNT = 6
# Characters a prefilter lets through unscanned before it starts building its
# database (about 25 notes; see the module docstring).
BUILD_AFTER_CHARS = 50_000
_ZERO_WIDTH = (sre.AT, sre.ASSERT, sre.ASSERT_NOT)
_ONE_CHARACTER = (sre.LITERAL, sre.NOT_LITERAL, sre.ANY, sre.IN)
# Plain ints: bit operations on `re.RegexFlag` go through `enum`, slowly.
_IGNORECASE, _ASCII = int(re.IGNORECASE), int(re.ASCII)
_SET_FLAGS = int(re.IGNORECASE | re.ASCII | re.DOTALL)
# The ASCII letters that case-blind `re` pairs with characters outside ASCII
# ("K" the Kelvin sign, "ſ", "İ", "ı": `patterns._common.FOLD_EXTRA`).
_FOLDED = frozenset(ord(c) for c in "".join(FOLD_EXTRA) + "".join(FOLD_EXTRA).upper())
_SAFE = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")


class Source(NamedTuple):
    """What the prefilter reads of a regex: its source and flags (a compiled
    `re.Pattern` has both too)."""

    pattern: str
    flags: int


class Untranslatable(Exception):
    """A pattern has a part the prefilter cannot write as a superset."""


def available() -> bool:
    """Whether Hyperscan is installed, so that prefilters can be built."""
    return hyperscan is not None


def prefilter_regex(pattern: str, flags: int = 0) -> Optional[str]:
    """A Hyperscan regex over ASCII bytes that matches in every text (as
    `scan_bytes` gives it) where the pattern matches, and maybe in others;
    None where the pattern has a part it cannot write so.

    pattern (str): The pattern's source, as given to `re.compile`.
    flags (int): Its `re` flags.
    RETURNS (Optional[str]): The prefilter regex.
    """
    try:
        tree = parse(pattern, flags)
        if tree.getwidth()[0] == 0:  # Hyperscan rejects empty matches
            return None
        top = int(tree.state.flags)
        return _Writer().sequence(with_edges(list(tree.data)), top)
    except (Untranslatable, re.error, RecursionError):
        return None


def with_edges(data: list) -> list:
    """A pattern's top-level nodes with its first lookbehind read as text
    before the match, if no node before it consumes any, and its last
    lookahead read as text after it, if none after it does. A match then
    still means that the text holds a match of the prefilter regex (around
    the match, not at its offsets), and the cues that patterns put in
    lookarounds ("at 14:00" after a date) narrow the prefilter."""
    data = list(data)
    for i, (op, av) in enumerate(data):
        if op not in _ZERO_WIDTH:
            break
        if op is sre.ASSERT and av[0] < 0:
            data[i] = (sre.SUBPATTERN, (None, 0, 0, av[1]))
            break
    for i in range(len(data) - 1, -1, -1):
        op, av = data[i]
        if op not in _ZERO_WIDTH:
            break
        if op is sre.ASSERT and av[0] > 0:
            data[i] = (sre.SUBPATTERN, (None, 0, 0, av[1]))
            break
    return data


class _Writer:
    """Writes a parse tree as a prefilter regex (one per pattern: it keeps
    the groups written so far, for backreferences)."""

    def __init__(self) -> None:
        self.groups: Dict[int, str] = {}

    def sequence(self, data: list, flags: int) -> str:
        return "".join(self.node(op, av, flags) for op, av in data)

    def node(self, op: Any, av: Any, flags: int) -> str:
        if op in _ZERO_WIDTH:
            return ""
        if op in _ONE_CHARACTER:
            return byte_class(char_set(op, av, flags))
        if op is sre.SUBPATTERN:
            group, add_flags, del_flags, sub = av
            scoped = combine_flags(flags, add_flags, del_flags)
            written = "(?:" + self.sequence(sub.data, scoped) + ")"
            if group is not None:
                self.groups[group] = written
            return written
        if op is sre.BRANCH:
            return self.branch(av[1], flags)
        if op in REPEATS:
            low, high, sub = av
            body = "(?:" + self.sequence(sub.data, flags) + ")"
            if high > MAX_COUNT:  # MAXREPEAT (open-ended) included
                return body + "{%d,}" % low
            return body + "{%d,%d}" % (low, high)
        if ATOMIC is not None and op is ATOMIC:
            return "(?:" + self.sequence(av.data, flags) + ")"
        if op is sre.GROUPREF:
            # The same string as the group, but case-blind it may differ.
            if av in self.groups and not flags & _IGNORECASE:
                return self.groups[av]
            return byte_class(set(ASCII_CODES)) + "*"
        if op is sre.GROUPREF_EXISTS:
            _, yes, no = av
            other = self.sequence(no.data, flags) if no is not None else ""
            return "(?:" + self.sequence(yes.data, flags) + "|" + other + ")"
        raise Untranslatable(str(op))

    def branch(self, alternatives: list, flags: int) -> str:
        written = (
            "(?:" + "|".join(self.sequence(a.data, flags) for a in alternatives) + ")"
        )
        if len(written) <= MAX_BRANCH:
            return written
        codes: Set[int] = set()
        for alternative in alternatives:
            codes |= read_set(alternative.data, flags)
        shortest = min(alternative.getwidth()[0] for alternative in alternatives)
        return byte_class(codes) + "{%d,}" % shortest


def read_set(data: list, flags: int) -> Set[int]:
    """Every byte a part of a pattern can read (see `char_set`)."""
    codes: Set[int] = set()
    for op, av in data:
        if op in _ZERO_WIDTH:
            continue
        if op in _ONE_CHARACTER:
            codes |= char_set(op, av, flags)
        elif op is sre.SUBPATTERN:
            _, add_flags, del_flags, sub = av
            codes |= read_set(sub.data, combine_flags(flags, add_flags, del_flags))
        elif op is sre.BRANCH:
            for alternative in av[1]:
                codes |= read_set(alternative.data, flags)
        elif op in REPEATS:
            codes |= read_set(av[2].data, flags)
        elif ATOMIC is not None and op is ATOMIC:
            codes |= read_set(av.data, flags)
        else:  # backreferences, conditionals: anything
            return set(ASCII_CODES)
    return codes


def char_set(op: Any, av: Any, flags: int) -> Set[int]:
    """The bytes a one-character node can match in a scanned text: the ASCII
    characters `re` matches there, and `PLACEHOLDER` if it may match a
    character outside ASCII."""
    if op is sre.LITERAL:
        source, outside = "\\U%08x" % av, av > 127
    elif op is sre.NOT_LITERAL:
        source, outside = "[^\\U%08x]" % av, True
    elif op is sre.ANY:
        source, outside = ".", True
    else:
        source, outside = _set_source(av)
    codes = set(_ascii_matches(source, flags & _SET_FLAGS))
    if outside or (flags & _IGNORECASE and not flags & _ASCII and codes & _FOLDED):
        codes.add(PLACEHOLDER)
    return codes


def _set_source(items: list) -> Tuple[str, bool]:
    """A set's source for `re`, and whether it may match outside ASCII."""
    parts, outside = [], False
    for op, av in items:
        if op is sre.NEGATE:
            parts.insert(0, "^")
            outside = True
        elif op is sre.LITERAL:
            parts.append("\\U%08x" % av)
            outside = outside or av > 127
        elif op is sre.RANGE:
            parts.append("\\U%08x-\\U%08x" % av)
            outside = outside or av[1] > 127
        elif op is sre.CATEGORY and av in CATEGORY_ESCAPES:
            parts.append(CATEGORY_ESCAPES[av])
            outside = True
        else:
            raise Untranslatable(str(op))
    return "[" + "".join(parts) + "]", outside


@lru_cache(maxsize=4096)
def _ascii_matches(source: str, flags: int) -> Tuple[int, ...]:
    """The ASCII characters a one-character regex matches, asked of `re`."""
    regex = re.compile(source, flags)
    return tuple(c for c in ASCII_CODES if regex.fullmatch(chr(c)))


def byte_class(codes: Set[int]) -> str:
    """A Hyperscan byte set (or a single byte) for a set of codes."""
    ordered = sorted(codes)
    if len(ordered) == 1:
        return _byte(ordered[0])
    parts, i = [], 0
    while i < len(ordered):
        j = i
        while j + 1 < len(ordered) and ordered[j + 1] == ordered[j] + 1:
            j += 1
        parts.append(_byte(ordered[i]) + ("-" + _byte(ordered[j]) if j > i else ""))
        i = j + 1
    return "[" + "".join(parts) + "]"


def _byte(code: int) -> str:
    return chr(code) if code in _SAFE else "\\x%02x" % code


def scan_bytes(text: str) -> bytes:
    """A text as the prefilter scans it: one ASCII byte per character."""
    return text.encode("ascii", "replace")


class Prefilter:
    """Which of a list of regexes may match a text, found in one scan."""

    def __init__(self, regexes: Sequence[Any]) -> None:
        """regexes (Sequence[Any]): The regexes (`Source`s or `re.Pattern`s),
        by index."""
        self._regexes = list(regexes)
        self._reset()

    def _reset(self) -> None:
        self._lock = threading.Lock()
        self._local = threading.local()
        self._built = False
        self._unscanned = 0  # characters let through before building
        self._builder_pid: Optional[int] = None  # the process building it
        self._database: Any = None
        self._saved: Optional[Dict[str, Any]] = None  # see `use_saved`
        self._key: Optional[str] = None  # the saved `database_key` used
        # Indices the database does not cover: they may always match.
        self._uncovered: FrozenSet[int] = frozenset(range(len(self._regexes)))

    def __getstate__(self) -> Dict[str, Any]:
        # A built database goes serialized (`to_bytes`): a copy, e.g. in a
        # "spawn" worker process, then loads it instead of compiling.
        saved = self.to_bytes() if self._built else None
        return {"regexes": self._regexes, "saved": saved}

    def __setstate__(self, state: Dict[str, Any]) -> None:
        self._regexes = state["regexes"]
        self._reset()
        if state.get("saved"):
            self.use_saved(state["saved"])

    @property
    def covered(self) -> FrozenSet[int]:
        """The indices the prefilter can rule out (builds it if needed)."""
        self.build()
        return frozenset(range(len(self._regexes))) - self._uncovered

    def may_match(self, text: str) -> Optional[Set[int]]:
        """The indices of the regexes that may match the text; None where
        any may (no Hyperscan, not built yet, nothing covered, or the scan
        failed). A saved database (`use_saved`) whose `sources_key` agrees
        is loaded now; with another saved database, or once
        `BUILD_AFTER_CHARS` characters have gone through unscanned, a
        background thread builds the database.

        text (str): The text.
        RETURNS (Optional[Set[int]]): The indices.
        """
        if hyperscan is None:
            return None
        if not self._built and self._saved is not None and self._saved_agrees():
            self.build()
        if not self._built:
            self._unscanned += len(text)
            if self._saved is not None or self._unscanned >= BUILD_AFTER_CHARS:
                self._start_building()
            return None
        if self._database is None:
            return None
        hits: Set[int] = set()
        try:
            self._database.scan(
                scan_bytes(text),
                match_event_handler=_record_hit,
                context=hits,
                scratch=self._scratch(),
            )
        except hyperscan.error:
            return None
        return hits | self._uncovered

    def _saved_agrees(self) -> bool:
        """Whether the saved database's `sources_key` is these regexes'."""
        saved = self._saved or {}
        key = sources_key(_sources(self._regexes))
        return key is not None and saved.get("sources_key") == key

    def _scratch(self) -> Any:
        scratch = getattr(self._local, "scratch", None)
        if scratch is None:
            scratch = self._local.scratch = hyperscan.Scratch(self._database)
        return scratch

    def _start_building(self) -> None:
        """Build the database in a background thread (Hyperscan's compiler
        releases the GIL), once per process: a process forked while its
        parent was building has no builder thread, and starts its own."""
        pid = os.getpid()
        if self._builder_pid == pid:
            return
        self._builder_pid = pid
        self._lock = threading.Lock()  # one copied by a fork may be held
        name = "spacy-deid-prefilter"
        threading.Thread(target=self._build_quietly, name=name, daemon=True).start()

    def _build_quietly(self) -> None:
        try:
            self.build()
        except Exception:  # no prefilter then: every pattern runs
            self._database, self._built = None, True

    def build(self) -> None:
        """Build the Hyperscan database now, if not yet built: from the saved
        one (`use_saved`) where it was built from the same prefilter regexes
        by the same Hyperscan, else by compiling them."""
        if self._built or hyperscan is None:
            return
        with self._lock:
            if not self._built:
                sources = _sources(self._regexes)
                built = _from_saved(sources, self._saved)
                if built is not None and self._saved is not None:
                    self._key = self._saved.get("key")
                self._database, covered = built or _build(sources)
                self._uncovered = frozenset(range(len(self._regexes))) - covered
                self._saved = None
                self._built = True

    def to_bytes(self) -> Optional[bytes]:
        """The database, built now if it is not yet, with what it was built
        from, for `use_saved`; None without Hyperscan or a database.

        RETURNS (Optional[bytes]): The serialized database.
        """
        self.build()
        if self._database is None:
            return None
        sources = _sources(self._regexes)
        covered = sorted(set(range(len(self._regexes))) - self._uncovered)
        data = {
            "key": self._key or database_key(sources),
            "covered": covered,
            "database": hyperscan.dumpb(self._database),
        }
        fast = sources_key(sources)
        if fast is not None:
            data["sources_key"] = fast
        return srsly.msgpack_dumps(data)

    def use_saved(self, data: bytes) -> None:
        """Take a database saved by `to_bytes`, to use from the first text
        on: loaded then if its `sources_key` agrees, else checked in the
        background (writing the prefilter regexes to check it takes about
        0.2 s, which a pipeline loaded but not run never pays) and used only
        if it was built from the same prefilter regexes by the same
        Hyperscan, else the database is compiled as without it. Unreadable
        data is ignored.

        data (bytes): From `to_bytes`.
        """
        if hyperscan is None or self._built:
            return
        try:
            saved = srsly.msgpack_loads(data)
        except Exception:  # a damaged file: compile as without it
            return
        if isinstance(saved, dict):
            self._saved = saved


def _record_hit(index: int, start: int, end: int, flags: int, hits: Set[int]) -> None:
    hits.add(index)


Sources = Tuple[Tuple[str, int], ...]
Built = Tuple[Any, FrozenSet[int]]


def _sources(regexes: Sequence[Any]) -> Sources:
    return tuple((regex.pattern, int(regex.flags)) for regex in regexes)


def sources_key(sources: Sources) -> Optional[str]:
    """What the prefilter regexes of a database are written from (a SHA-256
    digest): the sources and flags with their indices, the code that writes
    them (this module and `_sre.py`, `FOLD_EXTRA`), the Python minor version
    (`re`'s parser), the Unicode and Hyperscan versions. Equal keys give
    equal `database_key`s. None where the code cannot be read.

    sources (Sources): The (pattern, flags) pairs, by index.
    RETURNS (Optional[str]): The digest.
    """
    code = _code_digest()
    if code is None or hyperscan is None:
        return None
    digest = hashlib.sha256(f"{code} hyperscan {hyperscan.__version__}".encode())
    for index, (pattern, flags) in enumerate(sources):
        text = pattern.encode("utf8", "surrogatepass")
        digest.update(b"\0%d\0%d\0" % (index, flags) + text)
    return digest.hexdigest()


@lru_cache(maxsize=1)
def _code_digest() -> Optional[str]:
    """A digest of what, besides the sources, the prefilter regexes and the
    database depend on; None where the code cannot be read."""
    digest = hashlib.sha256()
    try:
        for module in (__file__, _sre.__file__):
            digest.update(Path(module).read_bytes())
    except (OSError, TypeError):
        return None
    versions = (sys.version_info[:2], unicodedata.unidata_version, FOLD_EXTRA)
    digest.update(repr(versions).encode())
    return digest.hexdigest()


@lru_cache(maxsize=8)
def _written(sources: Sources) -> Tuple[Tuple[int, bytes], ...]:
    """The prefilter regexes of the patterns that have one, by index."""
    written = []
    for index, (pattern, flags) in enumerate(sources):
        source = prefilter_regex(pattern, flags)
        if source:
            written.append((index, source.encode("ascii")))
    return tuple(written)


def database_key(sources: Sources) -> str:
    """What a database is built from: the Hyperscan version and the
    prefilter regexes with their indices (a SHA-256 digest)."""
    digest = hashlib.sha256(f"hyperscan {hyperscan.__version__}".encode())
    for index, source in _written(sources):
        digest.update(b"\0%d\0" % index + source)
    return digest.hexdigest()


def _from_saved(sources: Sources, saved: Optional[Dict[str, Any]]) -> Optional[Built]:
    """The saved database, if it was built from these sources' prefilter
    regexes by this Hyperscan (by `sources_key`, else by `database_key`)
    and loads; else None."""
    if not saved:
        return None
    fast = sources_key(sources)
    if fast is not None and saved.get("sources_key") == fast:
        written = set(range(len(sources)))  # checked when it was saved
    elif saved.get("key") == database_key(sources):
        written = {index for index, _ in _written(sources)}
    else:
        return None
    try:
        covered = frozenset(saved.get("covered", ()))
    except TypeError:
        return None
    if not covered <= written:
        return None
    try:
        database = hyperscan.loadb(saved["database"], hyperscan.HS_MODE_BLOCK)
    except Exception:  # another Hyperscan's or platform's database: compile
        return None
    return database, covered


@lru_cache(maxsize=8)
def _build(sources: Sources) -> Built:
    """A Hyperscan database for the patterns it can prefilter, and their
    indices. A pattern Hyperscan rejects is left out (found by compiling them
    one by one, only when compiling them together fails). Built once per
    process for a list of patterns (pipelines loaded twice share it)."""
    written = list(_written(sources))
    try:
        return _compile(written), frozenset(i for i, _ in written)
    except hyperscan.error:
        pass
    accepted = []
    for item in written:
        try:
            _compile([item])
        except hyperscan.error:
            continue
        accepted.append(item)
    if not accepted:
        return None, frozenset()
    return _compile(accepted), frozenset(i for i, _ in accepted)


def _compile(written: List[Tuple[int, bytes]]) -> Any:
    flags = hyperscan.HS_FLAG_PREFILTER | hyperscan.HS_FLAG_SINGLEMATCH
    database = hyperscan.Database(mode=hyperscan.HS_MODE_BLOCK)
    database.compile(
        expressions=[source for _, source in written],
        ids=[index for index, _ in written],
        elements=len(written),
        flags=[flags] * len(written),
    )
    return database

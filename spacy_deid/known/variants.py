"""Surface variants of known PHI, and one compiled matcher for a list of items.

A known item is `{"text": str, "label": str}`: an identifier taken from the
structured record (the patient's name, MRN, birth date, address, phone...).
It becomes a few variants, chosen by the family of its label:

- names (PATIENT, DOCTOR, USERNAME): see `names.py` ("Last, First",
  "First M. Last" <-> "First Last", "F. Last", "Last F.", nicknames, and
  the first and last names alone when at least 3 letters, not stop words);
- dates (DATE): see `dates.py` (parsed, then matched in every common
  numeric and month-name format, English and Spanish);
- IDs (SSN, MEDICALRECORD, HEALTHPLAN, ACCOUNT, LICENSE, VEHICLE, DEVICE,
  BIOID, IDNUM) and PHONE/FAX: see `numbers.py` (the same letters and
  digits whatever the separators; MRN leading zeros; country codes);
- addresses (STREET): see `streets.py` (street words in any form);
- other labels: the exact string.

All variants are case- and accent-insensitive, treat any whitespace run as a
space and match whole words only ("Ann" is not found in "Annual"). MEDDOCAN
labels use the family of their i2b2 equivalent.

`compile_known(items)` compiles the variants of all items into one regex,
searched once per doc (see `KnownMatcher`); compiled matchers are cached.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Dict, FrozenSet, Iterable, Iterator, List, Optional, Tuple

from ..labels.maps import MEDDOCAN_TO_I2B2
from ..labels import LABELS, labels_in_category, normalize_label
from .common import Variant, char_class, fold, ignore_case, is_simple, literal
from .common import not_after, word_regex
from .dates import date_variants
from .items import validate_known
from .names import MIN_PART_LENGTH, name_variants
from .numbers import id_variants, phone_variants
from .streets import street_variants

# (text, label) pairs: the hashable, validated form of known items.
KnownPairs = Tuple[Tuple[str, str], ...]

NAME_LABELS: FrozenSet[str] = frozenset(labels_in_category("NAME"))
DATE_LABELS: FrozenSet[str] = frozenset({"DATE"})
PHONE_LABELS: FrozenSet[str] = frozenset({"PHONE", "FAX"})
ID_LABELS: FrozenSet[str] = frozenset(labels_in_category("ID"))
STREET_LABELS: FrozenSet[str] = frozenset({"STREET"})
# Numeric IDs that systems often zero-pad ("0012345" = "12345").
ZERO_PADDED_LABELS: FrozenSet[str] = frozenset(
    {"MEDICALRECORD", "HEALTHPLAN", "ACCOUNT", "IDNUM"}
)
FAMILIES = ("name", "date", "phone", "id", "street", "exact")
# Compiled matchers kept (one per distinct list of known items).
CACHE_SIZE = 64

# The combined regexes only try positions where a variant may start, then
# each variant checks its own boundary: word boundaries, digits inside words
# ("MRN12345": digit variants only) and, when the text has any, positions
# after an underscore (consumed).
_AT_BOUNDARY = r"\b"
_IN_WORD = r"\B"
_AFTER_UNDERSCORE = "_"


def i2b2_label(label: str) -> str:
    """The i2b2 subcategory of a label (MEDDOCAN types are mapped), or the
    normalised label itself when it has none."""
    name = normalize_label(label)
    if name in LABELS:
        return name
    return MEDDOCAN_TO_I2B2.get(name) or name


def label_family(label: str) -> str:
    """The variant family of a label.

    label (str): A PHI label, e.g. "PATIENT" or "NOMBRE_SUJETO_ASISTENCIA".
    RETURNS (str): One of FAMILIES.
    """
    name = i2b2_label(label)
    if name in NAME_LABELS:
        return "name"
    if name in DATE_LABELS:
        return "date"
    if name in PHONE_LABELS:
        return "phone"
    if name in ID_LABELS:
        return "id"
    if name in STREET_LABELS:
        return "street"
    return "exact"


def variants(
    item: Dict[str, str], min_part_length: int = MIN_PART_LENGTH
) -> List[Variant]:
    """The variants of one known item, by the family of its label.

    item (Dict[str, str]): A validated {"text": ..., "label": ...} item.
    min_part_length (int): Fewest letters of a name word searched alone.
    RETURNS (List[Variant]): The variants, without duplicates.
    """
    text, label = item["text"], item["label"]
    family = label_family(label)
    if family == "name":
        found = name_variants(text, min_part_length)
    elif family == "date":
        found = date_variants(text)
    elif family == "phone":
        found = phone_variants(text)
    elif family == "id":
        zero_padded = i2b2_label(label) in ZERO_PADDED_LABELS
        found = id_variants(text, zero_padded=zero_padded)
    elif family == "street":
        found = street_variants(text)
    else:
        found = [literal(text)]
    return list(dict.fromkeys(variant for variant in found if variant.head))


@dataclass(frozen=True)
class KnownMatch:
    """One occurrence of a known item: [start, end) in the text."""

    start: int
    end: int
    label: str
    item: int  # index of the item in the matcher's items


class KnownMatcher:
    """The variants of a list of known items, compiled into one regex.

    The regex tries only positions where a variant may start (word
    boundaries; digits inside words and words right after an underscore are
    searched by two small extra regexes); there it picks the
    bucket of variants starting with that character (any case or accent),
    and in the bucket the longest variant first. `find` also reports matches
    starting inside an earlier match, so that overlapping occurrences ("Ann
    Lee" and "Lee Road") are all found. Which item a match belongs to is
    decided afterwards with the items' own regexes.
    """

    def __init__(
        self, items: KnownPairs, min_part_length: int = MIN_PART_LENGTH
    ) -> None:
        """Compile the items.

        items (KnownPairs): Validated (text, label) pairs.
        min_part_length (int): Fewest letters of a name word searched alone.
        """
        self.items = items
        self.variants: List[List[Variant]] = [
            variants({"text": text, "label": label}, min_part_length)
            for text, label in items
        ]
        # Compiled when first needed: the items' own regexes (to tell which
        # item a match belongs to) and the regex for words after "_".
        self._item_regexes: Dict[int, Optional["re.Pattern[str]"]] = {}
        self._underscore: Optional["re.Pattern[str]"] = None
        # Folded first character -> items that have a variant starting so.
        self._by_first: Dict[str, List[int]] = {}
        for index, found in enumerate(self.variants):
            for key in dict.fromkeys(fold(v.head[0]) for v in found):
                self._by_first.setdefault(key, []).append(index)
        self._every = [v for found in self.variants for v in found]
        digits = [v for v in self._every if v.head[0].isdigit()]
        # The extra regexes consume the character before the variant.
        self._main = _buckets(_AT_BOUNDARY, self._every)
        self._in_word = _buckets(_IN_WORD, digits)

    def __len__(self) -> int:
        return sum(len(found) for found in self.variants)

    @staticmethod
    def _compile(found: List[Variant]) -> Optional["re.Pattern[str]"]:
        ordered = sorted(found, key=Variant.size, reverse=True)
        body = "|".join(f"(?:{v.regex})" for v in ordered)
        return re.compile(body) if body else None

    def find(self, text: str) -> List[KnownMatch]:
        """Every occurrence of a known item, in text order; occurrences may
        overlap.

        text (str): The text to search, e.g. `doc.text`.
        RETURNS (List[KnownMatch]): The matches.
        """
        spans = set(_search_all(self._main, text, 0))
        spans.update(_search_all(self._in_word, text, 0))
        if "_" in text:
            if self._underscore is None:
                self._underscore = _buckets(_AFTER_UNDERSCORE, self._every)
            spans.update(_search_all(self._underscore, text, 1))
        found: List[KnownMatch] = []
        items: Dict[str, int] = {}
        for start, end in sorted(spans):
            surface = text[start:end]
            if surface not in items:
                items[surface] = self._item_at(text, start, end)
            index = items[surface]
            found.append(KnownMatch(start, end, self.items[index][1], index))
        return found

    def _item_at(self, text: str, start: int, end: int) -> int:
        """The item whose variant made a match: the first whose own regex
        ends there, else the one reaching furthest (the match is marked
        whatever its label)."""
        best, best_end = 0, -1
        for index in self._by_first.get(fold(text[start]), range(len(self.items))):
            if index not in self._item_regexes:
                self._item_regexes[index] = self._compile(self.variants[index])
            regex = self._item_regexes[index]
            match = regex.match(text, start) if regex is not None else None
            if match is None:
                continue
            if match.end() == end:
                return index
            if match.end() > best_end:
                best, best_end = index, match.end()
        return best


def _branch(variant: Variant) -> str:
    """A variant without its first character (matched by its bucket), led
    by its second character when that is a plain one, so that the regex
    engine rejects most branches without entering them."""
    head = variant.head
    if len(head) >= 2 and is_simple(head[1]):
        rest = ignore_case(word_regex(head[2:]) + variant.tail)
        return char_class(head[1]) + not_after(variant.start, 2) + rest
    rest = ignore_case(word_regex(head[1:]) + variant.tail)
    return not_after(variant.start, 1) + rest


def _buckets(prefix: str, found: List[Variant]) -> Optional["re.Pattern[str]"]:
    """One regex for the variants: `prefix`, then one branch per first
    character, led by that character's class; longest variants first."""
    buckets: Dict[str, List[Variant]] = {}
    for variant in found:
        buckets.setdefault(char_class(variant.head[0]), []).append(variant)
    if not buckets:
        return None
    branches = []
    for key, members in buckets.items():
        members = sorted(set(members), key=Variant.size, reverse=True)
        body = "|".join(dict.fromkeys(_branch(v) for v in members))
        branches.append(f"{key}(?:{body})")
    return re.compile(prefix + "(?:" + "|".join(branches) + ")", re.DOTALL)


def _search_all(
    regex: Optional["re.Pattern[str]"], text: str, offset: int
) -> Iterator[Tuple[int, int]]:
    """(start, end) of every match, also those starting inside an earlier
    one; `offset` characters of each match precede the variant."""
    if regex is None:
        return
    search = regex.search
    match = search(text, 0)
    while match is not None:
        start = match.start() + offset
        yield start, match.end()
        match = search(text, start + 1 - offset)


def to_pairs(items: Iterable[Dict[str, str]]) -> KnownPairs:
    """Validated known items as hashable (text, label) pairs, without
    duplicates (same folded text and label), in input order.

    items (Iterable[Dict[str, str]]): Items checked by `validate_known`.
    RETURNS (KnownPairs): The pairs.
    """
    seen: Dict[Tuple[str, str], Tuple[str, str]] = {}
    for item in items:
        key = (fold(item["text"]), item["label"])
        seen.setdefault(key, (item["text"], item["label"]))
    return tuple(seen.values())


@lru_cache(maxsize=CACHE_SIZE)
def _compile_pairs(items: KnownPairs, min_part_length: int) -> KnownMatcher:
    return KnownMatcher(items, min_part_length)


def compile_known(
    known: Iterable[Dict[str, str]], min_part_length: int = MIN_PART_LENGTH
) -> KnownMatcher:
    """Compile known items into one matcher, searched once per doc. The last
    CACHE_SIZE matchers are cached, so the notes of one patient compile
    their items once.

    known (Iterable[Dict[str, str]]): {"text", "label"} items (validated
        here, see `spacy_deid.known.items.validate_known`).
    min_part_length (int): Fewest letters of a name word searched alone;
        0 searches no name word alone.
    RETURNS (KnownMatcher): The matcher.
    """
    return _compile_pairs(to_pairs(validate_known(list(known))), min_part_length)

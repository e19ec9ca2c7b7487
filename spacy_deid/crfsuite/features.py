"""Token features for the `phi_crf` tagger.

Each token gets a list of feature strings. CRFsuite reads each string as one
attribute with value 1.0 (python-crfsuite's list-of-strings item format, where
"=" and ":" have no special meaning), and `phi_crf` scores a token by summing
the learned weights of the same strings, so training and prediction share
this module. No feature string contains a line break or another
non-printable character (see `escape`): pycrfsuite reads the weights back
through CRFsuite's line-based text dump.

Features (`FEATURES_VERSION` "v1"), in `doc_features` order:

- the token (`word_features`): "bias"; "w=" word, "lw=" lowercase, "sh="
  spaCy shape; "p1=".."p4=" and "s1=".."s4=" lowercase prefixes and
  suffixes (up to the word's length); the flags "title", "upper", "digit",
  "has_digit", "has_punct", "alpha" when true; "len=" a length bucket;
- "BOS" on the doc's first token and "EOS" on its last;
- each neighbour at offset -window..-1 and 1..window (`window_features`):
  "-1:w=", "-1:lw=", "-1:sh=" and so on, or "-2:BOS" / "+1:EOS" where the
  offset falls outside the doc;
- "pos=" and "tag=" when the doc has POS or TAG annotation;
- "dict=NAME" for each lexicon with an entry (a phrase of one or more
  tokens) that covers the token (`LexiconMatcher`).

The lexicons (`default_lexicons`) come from the rule lexicons
(`spacy_deid.rules.lexicons`) and the month and weekday names
(`spacy_deid.text.datenames`), never from the synthetic note generator's value
lists, which would teach the tagger the generator's own vocabulary.
"""

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Dict, Iterable, List, Optional, Sequence, Set, Tuple

from spacy.tokens import Doc

from ..text.datenames import MONTHS, WEEKDAYS
from ..rules.lexicons.clinical import CLINICAL_WORDS
from ..rules.lexicons.facilities import FACILITY_HEADS, GENERIC_FACILITY_WORDS
from ..rules.lexicons.facilities import HOSPITAL_ABBRS, WEAK_FACILITY_HEADS
from ..rules.lexicons.geo import COUNTRIES, STATE_ABBRS, STATE_NAMES
from ..rules.lexicons.professions import INDUSTRIES, PROFESSIONS

FEATURES_VERSION = "v1"
"""Changes whenever a feature string changes meaning (saved models record it)."""
BOS = "BOS"
EOS = "EOS"
AFFIX_LENGTHS = (1, 2, 3, 4)
# Upper bounds of the length buckets; longer words fall in the last bucket.
LENGTH_BUCKETS = (
    (1, "1"), (2, "2"), (3, "3"), (4, "4"), (6, "5-6"), (9, "7-9"), (14, "10-14"),
)  # fmt: skip
LONG_BUCKET = "15+"
_FIRST_WORD = re.compile(r"\w+|\S")


def escape(text: str) -> str:
    """Make a string safe inside a feature: non-printable characters (line
    breaks, tabs, control characters, lone surrogates) become backslash
    escapes; printable text is returned unchanged.

    text (str): Token text, shape or tag.
    RETURNS (str): The escaped text.
    """
    if text.isprintable():
        return text
    return text.encode("unicode_escape").decode("ascii")


def length_bucket(n: int) -> str:
    """Return the length bucket of a word of n characters.

    n (int): The length.
    RETURNS (str): "1" .. "4", "5-6", "7-9", "10-14" or "15+".
    """
    for bound, name in LENGTH_BUCKETS:
        if n <= bound:
            return name
    return LONG_BUCKET


def char_class_features(text: str) -> List[str]:
    """Character-class flags of a word (only those that are true) and its
    length bucket.

    text (str): The word.
    RETURNS (List[str]): E.g. ["title", "alpha", "len=5-6"].
    """
    feats = []
    if text.istitle():
        feats.append("title")
    if text.isupper():
        feats.append("upper")
    if text.isdigit():
        feats.append("digit")
    if any(c.isdigit() for c in text):
        feats.append("has_digit")
    if any(not c.isalnum() and not c.isspace() for c in text):
        feats.append("has_punct")
    if text.isalpha():
        feats.append("alpha")
    feats.append("len=" + length_bucket(len(text)))
    return feats


@lru_cache(maxsize=1 << 16)
def word_features(text: str, shape: str) -> Tuple[str, ...]:
    """The features of a token on its own. The first three are always its
    word, lowercase and shape ("w=", "lw=", "sh="), which the neighbours
    reuse (`window_features`). Cached per (text, shape).

    text (str): The token text.
    shape (str): The token's spaCy shape (`token.shape_`).
    RETURNS (Tuple[str, ...]): The feature strings.
    """
    lower = text.lower()
    feats = ["w=" + escape(text), "lw=" + escape(lower), "sh=" + escape(shape)]
    feats.append("bias")
    for n in AFFIX_LENGTHS:
        if len(lower) >= n:
            feats.append(f"p{n}=" + escape(lower[:n]))
            feats.append(f"s{n}=" + escape(lower[-n:]))
    feats.extend(char_class_features(text))
    return tuple(feats)


def window_features(
    lexical: Sequence[Tuple[str, ...]], i: int, window: int
) -> List[str]:
    """The word, lowercase and shape features of token i's neighbours, with
    BOS/EOS markers beyond the doc.

    lexical (Sequence[Tuple[str, ...]]): `word_features` of every token.
    i (int): The token index.
    window (int): Neighbours on each side.
    RETURNS (List[str]): E.g. ["-1:w=Dr.", "-1:lw=dr.", "-1:sh=Xx.", "+1:EOS"].
    """
    n = len(lexical)
    feats: List[str] = []
    for offset in range(-window, window + 1):
        if offset == 0:
            continue
        j = i + offset
        prefix = f"{offset:+d}:"
        if j < 0:
            feats.append(prefix + BOS)
        elif j >= n:
            feats.append(prefix + EOS)
        else:
            feats.extend(prefix + feat for feat in lexical[j][:3])
    return feats


def tag_features(doc: Doc) -> List[List[str]]:
    """ "pos=" and "tag=" per token, each only when the doc has that
    annotation.

    doc (Doc): The doc.
    RETURNS (List[List[str]]): Features per token (empty lists if none).
    """
    has_pos, has_tag = doc.has_annotation("POS"), doc.has_annotation("TAG")
    feats: List[List[str]] = [[] for _ in range(len(doc))]
    for token, token_feats in zip(doc, feats, strict=True):
        if has_pos:
            token_feats.append("pos=" + token.pos_)
        if has_tag:
            token_feats.append("tag=" + escape(token.tag_))
    return feats


@dataclass(frozen=True)
class Lexicon:
    """A named word or phrase list for the "dict=" features.

    cased: entries match only in their own case (abbreviations such as the
    state codes "IN", "OR", "ME"); otherwise the match ignores case.
    """

    name: str
    entries: Tuple[str, ...]
    cased: bool = False

    def to_dict(self) -> Dict[str, Any]:
        """RETURNS (Dict[str, Any]): JSON-serializable form."""
        return {"name": self.name, "entries": list(self.entries), "cased": self.cased}

    @classmethod
    def from_dict(cls, data: Dict[str, Any]) -> "Lexicon":
        """data (Dict[str, Any]): From `to_dict`.
        RETURNS (Lexicon): The lexicon.
        """
        return cls(str(data["name"]), tuple(data["entries"]), bool(data["cased"]))


def default_lexicons() -> Tuple[Lexicon, ...]:
    """The lexicons of the "dict=" features, from the rule lexicons and the
    month and weekday names. There is no person-name or city list among the
    rule lexicons, so there is no name or city feature.

    RETURNS (Tuple[Lexicon, ...]): The lexicons.
    """
    return (
        Lexicon("state", tuple(STATE_NAMES)),
        Lexicon("state_abbr", tuple(STATE_ABBRS), cased=True),
        Lexicon("country", tuple(COUNTRIES)),
        Lexicon("facility_head", tuple(FACILITY_HEADS + WEAK_FACILITY_HEADS)),
        Lexicon("facility_generic", tuple(GENERIC_FACILITY_WORDS)),
        Lexicon("hospital_abbr", tuple(HOSPITAL_ABBRS), cased=True),
        Lexicon("profession", tuple(PROFESSIONS)),
        Lexicon("industry", tuple(INDUSTRIES)),
        Lexicon("clinical", tuple(CLINICAL_WORDS)),
        Lexicon("month", tuple(MONTHS)),
        Lexicon("weekday", tuple(WEEKDAYS)),
    )


def _normalize(entry: str, cased: bool) -> str:
    """Collapse whitespace to single spaces, and lowercase unless cased."""
    text = " ".join(entry.split())
    return text if cased else text.lower()


def _first_word(text: str) -> str:
    """The leading run of word characters (or the first character)."""
    match = _FIRST_WORD.match(text)
    return match.group() if match else ""


class LexiconMatcher:
    """Find the tokens covered by lexicon entries. An entry matches a run of
    tokens whose texts, joined with a single space where the doc has
    whitespace, equal it; whitespace tokens (line breaks, runs of spaces)
    stop a match. Cost is proportional to the tokens whose first word starts
    some entry."""

    def __init__(self, lexicons: Iterable[Lexicon]) -> None:
        """lexicons (Iterable[Lexicon]): The lexicons."""
        self.lexicons = tuple(lexicons)
        # For lowercased and for cased matching: first word -> entries.
        self._index: Dict[bool, Dict[str, List[Tuple[str, str]]]] = {
            False: {},
            True: {},
        }
        for lexicon in self.lexicons:
            index = self._index[lexicon.cased]
            for entry in lexicon.entries:
                norm = _normalize(entry, lexicon.cased)
                if norm:
                    pairs = index.setdefault(_first_word(norm), [])
                    pairs.append((norm, lexicon.name))

    def __call__(self, doc: Doc) -> List[List[str]]:
        """The "dict=NAME" features of each token.

        doc (Doc): The doc.
        RETURNS (List[List[str]]): Sorted features per token.
        """
        words = [t.text for t in doc]
        spaces = [bool(t.whitespace_) for t in doc]
        is_space = [t.is_space for t in doc]
        found: List[Set[str]] = [set() for _ in words]
        for cased, index in self._index.items():
            if not index:
                continue
            texts = words if cased else [w.lower() for w in words]
            for i, text in enumerate(texts):
                if is_space[i]:
                    continue
                for entry, name in index.get(_first_word(text), ()):
                    n = _match_length(texts, spaces, is_space, i, entry)
                    for j in range(i, i + n):
                        found[j].add(name)
        return [sorted("dict=" + name for name in names) for names in found]


def _match_length(
    texts: List[str], spaces: List[bool], is_space: List[bool], i: int, entry: str
) -> int:
    """Number of tokens from i that spell `entry` exactly (0 if none)."""
    text = ""
    for j in range(i, len(texts)):
        if is_space[j]:
            return 0
        text += texts[j]
        if text == entry:
            return j - i + 1
        if not entry.startswith(text):
            return 0
        if spaces[j]:
            text += " "
    return 0


def doc_features(
    doc: Doc, *, window: int = 2, matcher: Optional[LexiconMatcher] = None
) -> List[List[str]]:
    """The feature strings of every token of a doc.

    doc (Doc): The doc.
    window (int): Neighbours on each side for the window features.
    matcher (Optional[LexiconMatcher]): Adds the "dict=" features; None: none.
    RETURNS (List[List[str]]): Features per token.
    """
    lexical = [word_features(t.text, t.shape_) for t in doc]
    feats = [list(lex) for lex in lexical]
    if feats:
        feats[0].append(BOS)
        feats[-1].append(EOS)
    for i, token_feats in enumerate(feats):
        token_feats.extend(window_features(lexical, i, window))
    extra = [tag_features(doc)]
    if matcher is not None:
        extra.append(matcher(doc))
    for more in extra:
        for token_feats, token_more in zip(feats, more, strict=True):
            token_feats.extend(token_more)
    return feats

"""A rule-based sentence segmenter for clinical notes.

`clinical_sentencizer` sets `token.is_sent_start` from punctuation, line
layout and a list of abbreviations:

- A sentence ends at a final punctuation token (".", "?", "!" by default;
  ";" is not, because clinical lists use it inside a sentence) followed by
  whitespace and a capital letter or a digit, or by a line break.
- Not after a title or abbreviation ("Dr.", "Mr.", "vs.", "approx.") or a
  single capital initial ("J."). A listed abbreviation holds even across a
  line break: "Dr.\\nSmith" is one sentence. "No." is an abbreviation only
  before a number ("No. 5"), and a list number ("1. ") never ends one.
- A blank line (two or more line breaks) always ends a sentence.
- A line that looks like a section header or field ("HISTORY OF PRESENT
  ILLNESS:", "Assessment:", "DOB: ..."), a list item ("1. ", "- ") or an
  ALLCAPS title line starts a sentence, and so does the line after a header
  line with nothing after its colon.
- Any other single line break (a wrapped line) does not end a sentence.

A line break is "\\n", "\\r\\n" or a lone "\\r" (old Mac files), or another
line boundary of `str.splitlines` ("\\x0c", "\\u2028", ...): "Dr.\\r\\nSmith"
and "Dr.\\rSmith" are read like "Dr.\\nSmith".

Whitespace tokens never start a sentence; they stay with the previous one.
"""

import re
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Dict, FrozenSet, Iterable, List, Optional, Tuple
from typing import Union

import numpy
import srsly
from spacy.attrs import IDX, IS_SPACE, LENGTH, SENT_START
from spacy.language import Language
from spacy.tokens import Doc, Token
from spacy.training import Example

from ..core.cfg_io import load_overrides
from ..core.extensions import SENTS

# Titles and abbreviations after which a period does not end a sentence.
# Compared case-insensitively, without the final period.
DEFAULT_ABBREVIATIONS = [
    # Titles and name suffixes.
    "Dr", "Drs", "Mr", "Mrs", "Ms", "Mx", "Prof", "Rev", "Hon", "Sr", "Jr",
    "St", "Sgt", "Capt", "Gen", "Lt", "Col", "Dra", "Sra", "Srta", "Gral",
    # Common abbreviations in running text.
    "vs", "approx", "appt", "dept", "e.g", "i.e", "etc", "cf", "al",
    "fig", "inc", "co", "corp", "ltd",
    # Address parts (also Spanish: "Av.", "Avda.", "Ctra.", "Pza.").
    "mt", "ft", "ave", "apt", "blvd", "rd", "ln", "ste", "bldg", "av", "avda",
    "ctra", "pza", "cra", "edf", "esc", "hnos", "km",
    # Months.
    "Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Sept", "Oct",
    "Nov", "Dec",
]  # fmt: skip
# Abbreviations only before a number ("No. 5", "ext. 9406"): "No." alone is
# also an answer ending a sentence.
DEFAULT_NUMBER_ABBREVIATIONS = ["No", "Nos", "Nr", "Ext", "Tel"]
DEFAULT_PUNCT_CHARS = [".", "?", "!", "...", "…"]

# A line starting with a capitalized header or field label and a colon:
# "Assessment:", "HISTORY OF PRESENT ILLNESS:", "DOB:01/02/1960", but not a
# time ("At 14:30 ...").
HEADER_RE = re.compile(r"[^\W\d_][\w ,/&()'#.-]{0,60}?(?:(?<!\d):|:(?!\d))")
# A line starting with a list marker: "1. ", "2) ", "- ", "* ", "• ".
LIST_ITEM_RE = re.compile(r"(?:\d{1,2}[.)]|[-*•·])(?:\s|$)")
# Line boundaries other than "\n" (those of `str.splitlines`), read as "\n".
# "\r\n" is read as " \n" first, so that it counts as one line break; both
# keep the text's length, so token offsets still index it.
_LINE_BREAKS = str.maketrans(
    dict.fromkeys("\r\x0b\x0c\x1c\x1d\x1e\x85\u2028\u2029", "\n")
)
# Closing punctuation that stays with the sentence before it.
CLOSING = {")", "]", "}", '"', "'", "”", "’", "»"}

DEFAULT_SENTENCIZER_CONFIG = {
    "punct_chars": None,
    "abbreviations": None,
    "number_abbreviations": None,
    "overwrite": False,
    "scorer": {"@scorers": "spacy.senter_scorer.v1"},
}


@Language.factory(
    "clinical_sentencizer",
    assigns=[SENTS],
    default_config=DEFAULT_SENTENCIZER_CONFIG,
    default_score_weights={"sents_f": 1.0, "sents_p": 0.0, "sents_r": 0.0},
)
def make_clinical_sentencizer(
    nlp: Language,
    name: str,
    punct_chars: Optional[List[str]],
    abbreviations: Optional[List[str]],
    number_abbreviations: Optional[List[str]],
    overwrite: bool,
    scorer: Optional[Callable],
) -> "ClinicalSentencizer":
    """Create a ClinicalSentencizer.

    nlp (Language): The pipeline.
    name (str): The component name.
    punct_chars (Optional[List[str]]): Sentence-final tokens; None: default.
    abbreviations (Optional[List[str]]): Words (without the final period)
        after which a period does not end a sentence; None: default.
    number_abbreviations (Optional[List[str]]): Like `abbreviations`, but
        only before a number ("No. 5"); None: default.
    overwrite (bool): Whether to overwrite sentence starts already set.
    scorer (Optional[Callable]): The scoring method.
    RETURNS (ClinicalSentencizer): The component.
    """
    return ClinicalSentencizer(
        name,
        punct_chars=punct_chars,
        abbreviations=abbreviations,
        number_abbreviations=number_abbreviations,
        overwrite=overwrite,
        scorer=scorer,
    )


class ClinicalSentencizer:
    """Segment clinical notes into sentences with rules. No model."""

    def __init__(
        self,
        name: str = "clinical_sentencizer",
        *,
        punct_chars: Optional[Iterable[str]] = None,
        abbreviations: Optional[Iterable[str]] = None,
        number_abbreviations: Optional[Iterable[str]] = None,
        overwrite: bool = False,
        scorer: Optional[Callable] = None,
    ) -> None:
        """Initialize the sentencizer.

        name (str): The component name.
        punct_chars (Optional[Iterable[str]]): Sentence-final tokens.
        abbreviations (Optional[Iterable[str]]): Words after which a period
            does not end a sentence.
        number_abbreviations (Optional[Iterable[str]]): Abbreviations only
            before a number.
        overwrite (bool): Whether to overwrite sentence starts already set.
        scorer (Optional[Callable]): The scoring method.
        """
        self.name = name
        self.overwrite = overwrite
        self.scorer = scorer
        # Docs with fewer tokens are left unsplit: set for a run in which
        # sentence starts are read only in longer docs (`skip_unread`), not
        # saved.
        self.min_tokens = 0
        self._set_config(punct_chars, abbreviations, number_abbreviations)

    def _set_config(
        self,
        punct_chars: Optional[Iterable[str]],
        abbreviations: Optional[Iterable[str]],
        number_abbreviations: Optional[Iterable[str]],
    ) -> None:
        if punct_chars is None:
            punct_chars = DEFAULT_PUNCT_CHARS
        if abbreviations is None:
            abbreviations = DEFAULT_ABBREVIATIONS
        if number_abbreviations is None:
            number_abbreviations = DEFAULT_NUMBER_ABBREVIATIONS
        self.punct_chars = set(punct_chars)
        self.abbreviations = {_norm_abbr(a) for a in abbreviations}
        self.number_abbreviations = {_norm_abbr(a) for a in number_abbreviations}

    def skip_unread(self, read_from: Dict[str, int]) -> Optional[Callable[[], None]]:
        """Split only the docs in which a later component reads sentence
        starts (see `spacy_deid.core.extensions`).

        read_from (Dict[str, int]): For each assigned attribute read later,
            the fewest doc tokens it is read from.
        RETURNS (Optional[Callable[[], None]]): Splits every doc again, or
            None if nothing changed.
        """
        n = read_from.get(SENTS, 0)
        if n <= 0:
            return None
        self.min_tokens = n
        return self._split_all

    def _split_all(self) -> None:
        self.min_tokens = 0

    def __call__(self, doc: Doc) -> Doc:
        """Set sentence starts on a Doc (of at least `min_tokens` tokens).

        doc (Doc): The document.
        RETURNS (Doc): The document, with `token.is_sent_start` set.
        """
        if len(doc) == 0 or len(doc) < self.min_tokens:
            return doc
        values = numpy.where(self.predict(doc), 1, -1).astype("int64")
        if not self.overwrite:
            # Keep sentence starts set before (0 means "not set").
            current = doc.to_array(SENT_START).astype("int64").reshape(-1)
            values = numpy.where(current != 0, current, values)
        values[0] = 1
        # One array write: setting `token.is_sent_start` token by token
        # checks the whole Doc each time, quadratic on long notes.
        doc.from_array([SENT_START], values.astype("uint64").reshape(-1, 1))
        return doc

    def pipe(self, stream: Iterable[Doc], batch_size: int = 128) -> Iterable[Doc]:
        """Apply the component to a stream of Docs.

        stream (Iterable[Doc]): The documents.
        batch_size (int): Unused; for API compatibility.
        YIELDS (Doc): The documents, in order.
        """
        for doc in stream:
            yield self(doc)

    def predict(self, doc: Doc) -> List[bool]:
        """Decide which tokens start a sentence.

        doc (Doc): The document.
        RETURNS (List[bool]): One flag per token; the first is True.
        """
        text = _normalize_line_breaks(doc.text)
        starts = [False] * len(doc)
        starts[0] = True
        words, candidates = self._candidates(doc, text)
        for k in candidates.tolist():
            token = doc[words[k + 1]]
            if self._is_break(text, doc[words[k]], token):
                starts[token.i] = True
        if len(words) and words[0] > 0:
            starts[words[0]] = False
        return starts

    def _candidates(self, doc: Doc, text: str) -> Tuple[List[int], numpy.ndarray]:
        """The indices of the non-space tokens, and the positions k in that
        list where `_is_break(text, words[k], words[k + 1])` can be True: a
        line break between the two, or a last character of `words[k]` that
        can end a final token (`_final_before`). Elsewhere it is False, so
        only these pairs need Token objects.

        text (str): The doc's text, line breaks normalized.
        RETURNS (Tuple[List[int], ndarray]): Token indices, and pair positions.
        """
        attrs = doc.to_array([IDX, LENGTH, IS_SPACE])
        words = numpy.flatnonzero(attrs[:, 2] == 0)
        if len(words) < 2:
            return words.tolist(), numpy.zeros((0,), dtype="i8")
        chars = numpy.frombuffer(text.encode("utf-32-le"), dtype="<u4")
        ends = (attrs[words, 0] + attrs[words, 1]).astype("i8")
        breaks = numpy.flatnonzero(chars == ord("\n"))
        gap_breaks = numpy.searchsorted(breaks, attrs[words[1:], 0].astype("i8"))
        gap_breaks -= numpy.searchsorted(breaks, ends[:-1])
        final_codes = _final_codes(frozenset(self.punct_chars))
        final = numpy.isin(chars[ends[:-1] - 1], final_codes)
        return words.tolist(), numpy.flatnonzero((gap_breaks > 0) | final)

    def _is_break(self, text: str, prev: Token, token: Token) -> bool:
        """Decide whether `token` starts a sentence, `prev` being the word
        before it and `text` the document's text."""
        gap = text[prev.idx + len(prev.text) : token.idx]
        newlines = gap.count("\n")
        if newlines >= 2:
            return True
        if newlines == 1 and self._starts_block(text, token):
            return not self._is_title(prev)
        final = self._final_before(prev)
        if final is None or not gap or self._is_abbreviation(text, final, token):
            return False
        if newlines == 1:
            return True
        return token.text[:1].isupper() or token.text[:1].isdigit()

    def _starts_block(self, text: str, token: Token) -> bool:
        """Whether the line at `token` is a header, list item or title line,
        or follows a header line that ends with its colon."""
        line = _line_at(text, token.idx)
        if line[:1].isupper() and HEADER_RE.match(line):
            return True
        if LIST_ITEM_RE.match(line) or _is_caps_line(line):
            return True
        before = _line_before(text, token.idx).strip()
        return before.endswith(":") or _is_caps_line(before)

    def _final_before(self, prev: Token) -> Optional[Token]:
        """Return the sentence-final token at or before `prev`, skipping
        closing quotes and brackets, or None."""
        token = prev
        while token.text in CLOSING and token.i > 0:
            token = token.nbor(-1)
        text = token.text
        if text in self.punct_chars or (len(text) > 1 and text.endswith(".")):
            return token
        return None

    def _is_title(self, prev: Token) -> bool:
        """Whether `prev` ends a listed abbreviation ("Dr." or "Dr" ".")."""
        text = prev.text
        if text == "." and prev.i > 0 and not prev.nbor(-1).whitespace_:
            text = prev.nbor(-1).text + text
        return text.endswith(".") and _norm_abbr(text) in self.abbreviations

    def _is_abbreviation(self, text: str, final: Token, following: Token) -> bool:
        """Whether the period `final` belongs to an abbreviation, a title, an
        initial or a list number, so that no sentence ends there."""
        orth = final.text
        if orth == "." and final.i > 0 and not final.nbor(-1).whitespace_:
            if _is_list_number(text, final.nbor(-1)):
                return True
            orth = final.nbor(-1).text + "."
        elif not orth.endswith(".") or orth in self.punct_chars:
            return False
        word = _norm_abbr(orth)
        if word in self.abbreviations:
            return True
        if word in self.number_abbreviations:
            return following.text[:1].isdigit() or following.text == "#"
        return len(word) == 1 and word.isalpha() and orth[0].isupper()

    def score(self, examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
        """Score a batch of examples.

        examples (Iterable[Example]): The examples to score.
        RETURNS (Dict[str, Any]): The scores, from the configured scorer.
        """
        if self.scorer is None:
            return {}
        return self.scorer(examples, **kwargs)

    def _config(self) -> Dict[str, Any]:
        return {
            "punct_chars": sorted(self.punct_chars),
            "abbreviations": sorted(self.abbreviations),
            "number_abbreviations": sorted(self.number_abbreviations),
            "overwrite": self.overwrite,
        }

    def _load_config(self, cfg: Dict[str, Any]) -> None:
        self._set_config(
            cfg.get("punct_chars"),
            cfg.get("abbreviations"),
            cfg.get("number_abbreviations"),
        )
        self.overwrite = cfg.get("overwrite", self.overwrite)

    def to_bytes(self, *, exclude: Iterable[str] = tuple()) -> bytes:
        """Serialize the settings to a bytestring.

        exclude (Iterable[str]): Unused; for API compatibility.
        RETURNS (bytes): The serialized settings.
        """
        return srsly.msgpack_dumps(self._config())

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()
    ) -> "ClinicalSentencizer":
        """Load the settings from a bytestring.

        bytes_data (bytes): The data.
        exclude (Iterable[str]): Unused; for API compatibility.
        RETURNS (ClinicalSentencizer): The loaded object.
        """
        self._load_config(srsly.msgpack_loads(bytes_data))
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> None:
        """Save the settings to a JSON file.

        path (Union[str, Path]): A file path.
        exclude (Iterable[str]): Unused; for API compatibility.
        """
        path = Path(path).with_suffix(".json")
        srsly.write_json(path, self._config())

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "ClinicalSentencizer":
        """Load the settings from a JSON file, except those given when the
        pipeline is loaded (`cfg_io.load_overrides`).

        path (Union[str, Path]): A file path.
        exclude (Iterable[str]): Unused; for API compatibility.
        RETURNS (ClinicalSentencizer): The loaded object.
        """
        current = self._config()
        overrides = load_overrides(path, current)
        stored = srsly.read_json(Path(path).with_suffix(".json"))
        self._load_config({**stored, **{key: current[key] for key in overrides}})
        return self


@lru_cache(maxsize=16)
def _final_codes(punct_chars: FrozenSet[str]) -> numpy.ndarray:
    """The code points a token that `_final_before` returns or skips can end
    with: a punctuation string's last character, ".", a closing character."""
    ends = {text[-1] for text in punct_chars | CLOSING if text} | {"."}
    return numpy.array(sorted(ord(char) for char in ends), dtype="<u4")


def _normalize_line_breaks(text: str) -> str:
    """Replace every line break by "\\n", keeping the length of the text.

    text (str): The text.
    RETURNS (str): The text with "\\r\\n" as " \\n" and other breaks as "\\n".
    """
    return text.replace("\r\n", " \n").translate(_LINE_BREAKS)


def _norm_abbr(text: str) -> str:
    """Lowercase an abbreviation and drop its final period."""
    return text.lower().rstrip(".")


def _line_at(text: str, start: int) -> str:
    """Return the rest of the line from `start`."""
    end = text.find("\n", start)
    return text[start:] if end == -1 else text[start:end]


def _line_before(text: str, start: int) -> str:
    """Return the line that ends at the last line break before `start`."""
    end = text.rfind("\n", 0, start)
    begin = text.rfind("\n", 0, end) + 1
    return text[begin:end]


def _is_caps_line(line: str) -> bool:
    """Whether a line is a title in capitals ("PHYSICAL EXAMINATION")."""
    return line.isupper() and sum(c.isalpha() for c in line) >= 2


def _is_list_number(text: str, token: Token) -> bool:
    """Whether a token is a list number at the start of a line ("1" in "1.")."""
    if not (token.is_digit and len(token.text) <= 2):
        return False
    line_start = text.rfind("\n", 0, token.idx) + 1
    return not text[line_start : token.idx].strip(" \t")

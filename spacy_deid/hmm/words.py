"""The words an HMM-DP sub-tag emits: a vocabulary plus out-of-vocabulary
word classes.

A token is emitted as itself when it is a frequent word of the training
notes, else as its word class (the paper's OOV feature functions):

- a token with a digit is always its shape ("<D:dd/dd/dddd>"), so dates,
  phone numbers and identifiers generalise instead of being memorised;
- a whitespace token is "<NL>" (it holds a line break) or "<SP>";
- a rare word is its capitalisation and lowercase 3-letter suffix
  ("<W:Xx:nez>" for "Martínez");
- any other rare token (punctuation, symbols) is its shape ("<P:-->").

A class seen fewer than `min_count` times in training is "<UNK>", which is
how an unseen class is read at prediction time.

Those are the v1 classes (`spacy_deid.hmm_word_classes.v1`). The v2 classes
(`word_class_v2`, used by `spacy_deid.HMMDP.v2`) add what the paper's
knowledge tables add: a rare word that the name or place tables know is its
capitalisation and a frequency bucket instead of its suffix
("<W:Xx:N4>": a name used about 10^4 times in 10^9 words of text;
"<W:Xx:L5>": a place with a population of that weight), and digit runs keep
their length up to 10 ("<D:ddddd>" for a postcode, "<D:ddddddd>" for a
record number), which v1 cut to 4.
"""

from collections import Counter
from typing import Callable, Dict, Iterable, List, Optional, Sequence

import numpy as np

from ..knowledge.lookup import lookup

WORD_CLASSES_VERSION = "spacy_deid.hmm_word_classes.v1"
WORD_CLASSES_V2 = "spacy_deid.hmm_word_classes.v2"
UNK = "<UNK>"
# Longest digit run a v2 shape keeps: longer identifiers are rare enough.
DIGIT_RUN_V2 = 10


def shape(text: str, limit: int = 4, digit_limit: Optional[int] = None) -> str:
    """The token's shape: X/x for letters, d for digits, other characters
    as they are, runs longer than `limit` cut to `limit`.

    text (str): The token text.
    limit (int): Longest run of one shape character kept.
    digit_limit (Optional[int]): Longest run of digits kept (default `limit`).
    RETURNS (str): The shape.
    """
    digit_limit = limit if digit_limit is None else digit_limit
    out: List[str] = []
    run = 0
    for char in text:
        if char.isdigit():
            code = "d"
        elif char.isalpha():
            code = "X" if char.isupper() else "x"
        else:
            code = char
        run = run + 1 if out and out[-1] == code else 1
        if run <= (digit_limit if code == "d" else limit):
            out.append(code)
    return "".join(out)


def capitalisation(text: str) -> str:
    """RETURNS (str): "Xx" (title), "X" (upper), "x" (lower) or "Xm" (mixed)."""
    if text.istitle():
        return "Xx"
    if text.isupper():
        return "X"
    if text.islower():
        return "x"
    return "Xm"


def word_class(text: str) -> str:
    """The OOV class of a token text (see the module docstring).

    text (str): The token text.
    RETURNS (str): The class, e.g. "<D:dd/dd/dddd>".
    """
    if any(char.isdigit() for char in text):
        return f"<D:{shape(text)}>"
    if text.isspace() or not text:
        return "<NL>" if "\n" in text else "<SP>"
    if text.isalpha():
        return f"<W:{capitalisation(text)}:{text[-3:].lower()}>"
    return f"<P:{shape(text)}>"


def knowledge_bucket(text: str) -> Optional[str]:
    """What the name and place tables say about a word, as a bucket: "N" (a
    name) or "L" (a place), whichever use is more frequent, and the whole
    part of that use's zipf frequency in text (`knowledge.lookup`).

    text (str): An alphabetic token.
    RETURNS (Optional[str]): E.g. "N4", or None when neither table knows it.
    """
    known = lookup(text)
    name, place = known.name_zipf, known.place_zipf
    if max(name, place) <= 0:
        return None
    return f"{'N' if name >= place else 'L'}{int(max(name, place))}"


def word_class_v2(text: str) -> str:
    """The v2 OOV class of a token text (see the module docstring).

    text (str): The token text.
    RETURNS (str): The class, e.g. "<D:ddddd>" or "<W:Xx:N4>".
    """
    if any(char.isdigit() for char in text):
        return f"<D:{shape(text, digit_limit=DIGIT_RUN_V2)}>"
    if text.isspace() or not text:
        return "<NL>" if "\n" in text else "<SP>"
    if text.isalpha():
        bucket = knowledge_bucket(text) or text[-3:].lower()
        return f"<W:{capitalisation(text)}:{bucket}>"
    return f"<P:{shape(text, digit_limit=DIGIT_RUN_V2)}>"


# The class function of each word-class version.
CLASSES: Dict[str, Callable[[str], str]] = {
    WORD_CLASSES_VERSION: word_class,
    WORD_CLASSES_V2: word_class_v2,
}


def is_literal(text: str) -> bool:
    """RETURNS (bool): Whether a token may be emitted as itself (it has no
    digit and is not whitespace)."""
    return bool(text) and not text.isspace() and not any(c.isdigit() for c in text)


class WordVocab:
    """Maps token texts to emission ids: frequent words, then classes."""

    def __init__(
        self, entries: Sequence[str], classes: str = WORD_CLASSES_VERSION
    ) -> None:
        """entries (Sequence[str]): Words and classes, in id order; must
        hold UNK.
        classes (str): The word-class version (a key of `CLASSES`).
        """
        if classes not in CLASSES:
            raise ValueError(f"unknown word classes {classes!r}")
        self.classes = classes
        self.word_class = CLASSES[classes]
        self.entries = list(entries)
        self.index: Dict[str, int] = {e: i for i, e in enumerate(self.entries)}
        if UNK not in self.index:
            raise ValueError("a word vocabulary must hold <UNK>")
        self.unk = self.index[UNK]

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def build(
        cls, texts: Iterable[str], min_count: int, classes: str = WORD_CLASSES_VERSION
    ) -> "WordVocab":
        """The vocabulary of the training tokens: words seen at least
        `min_count` times, and the classes of the others seen at least
        `min_count` times.

        texts (Iterable[str]): Every training token's text.
        min_count (int): Fewest occurrences of a kept word or class.
        classes (str): The word-class version (a key of `CLASSES`).
        RETURNS (WordVocab): The vocabulary.
        """
        word_class_of = CLASSES[classes]
        counts = Counter(texts)
        words = sorted(t for t, n in counts.items() if is_literal(t) and n >= min_count)
        kept = set(words)
        found_classes: Counter = Counter()
        for text, n in counts.items():
            if text not in kept:
                found_classes[word_class_of(text)] += n
        found = sorted(c for c, n in found_classes.items() if n >= min_count)
        return cls([UNK] + found + words, classes)

    def ids(self, texts: Sequence[str]) -> np.ndarray:
        """The emission ids of token texts.

        texts (Sequence[str]): The token texts.
        RETURNS (ndarray): Ids (int64), UNK for an unseen class.
        """
        index, unk, word_class_of = self.index, self.unk, self.word_class
        out = np.empty(len(texts), dtype="i8")
        for i, text in enumerate(texts):
            found = index.get(text) if is_literal(text) else None
            out[i] = found if found is not None else index.get(word_class_of(text), unk)
        return out

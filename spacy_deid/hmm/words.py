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
how an unseen class is read at prediction time. List membership with
frequency (the paper's knowledge tables) is not a class here.
"""

from collections import Counter
from typing import Dict, Iterable, List, Sequence

import numpy as np

WORD_CLASSES_VERSION = "spacy_deid.hmm_word_classes.v1"
UNK = "<UNK>"


def shape(text: str, limit: int = 4) -> str:
    """The token's shape: X/x for letters, d for digits, other characters
    as they are, runs longer than `limit` cut to `limit`.

    text (str): The token text.
    limit (int): Longest run of one shape character kept.
    RETURNS (str): The shape.
    """
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
        if run <= limit:
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


def is_literal(text: str) -> bool:
    """RETURNS (bool): Whether a token may be emitted as itself (it has no
    digit and is not whitespace)."""
    return bool(text) and not text.isspace() and not any(c.isdigit() for c in text)


class WordVocab:
    """Maps token texts to emission ids: frequent words, then classes."""

    def __init__(self, entries: Sequence[str]) -> None:
        """entries (Sequence[str]): Words and classes, in id order; must
        hold UNK."""
        self.entries = list(entries)
        self.index: Dict[str, int] = {e: i for i, e in enumerate(self.entries)}
        if UNK not in self.index:
            raise ValueError("a word vocabulary must hold <UNK>")
        self.unk = self.index[UNK]

    def __len__(self) -> int:
        return len(self.entries)

    @classmethod
    def build(cls, texts: Iterable[str], min_count: int) -> "WordVocab":
        """The vocabulary of the training tokens: words seen at least
        `min_count` times, and the classes of the others seen at least
        `min_count` times.

        texts (Iterable[str]): Every training token's text.
        min_count (int): Fewest occurrences of a kept word or class.
        RETURNS (WordVocab): The vocabulary.
        """
        counts = Counter(texts)
        words = sorted(t for t, n in counts.items() if is_literal(t) and n >= min_count)
        kept = set(words)
        classes: Counter = Counter()
        for text, n in counts.items():
            if text not in kept:
                classes[word_class(text)] += n
        found = sorted(c for c, n in classes.items() if n >= min_count)
        return cls([UNK] + found + words)

    def ids(self, texts: Sequence[str]) -> np.ndarray:
        """The emission ids of token texts.

        texts (Sequence[str]): The token texts.
        RETURNS (ndarray): Ids (int64), UNK for an unseen class.
        """
        index, unk = self.index, self.unk
        out = np.empty(len(texts), dtype="i8")
        for i, text in enumerate(texts):
            found = index.get(text) if is_literal(text) else None
            out[i] = found if found is not None else index.get(word_class(text), unk)
        return out

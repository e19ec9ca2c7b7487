"""The words of a doc as `phi_safety_net` reads them: non-space tokens, with
whether a line break or any whitespace lies before each, and their pieces
for cue matching. Built from token offsets and text; nothing is logged."""

from typing import Dict, List, NamedTuple, Optional, Tuple

from spacy.tokens import Doc

from .cues import pieces


class Word(NamedTuple):
    """A non-space token: doc index, text, a line break before it, and no
    whitespace at all before it (joined to the previous word)."""

    index: int
    text: str
    newline_before: bool
    joined: bool


class DocWords:
    """The non-space tokens of a doc and their cue pieces.

    `stream[k]` is the k-th piece, `owner[k]` its word's position and
    `first[k]` / `last[k]` whether it begins / ends its word.
    """

    def __init__(self, doc: Doc) -> None:
        self.words: List[Word] = []
        self._positions: Optional[Dict[int, int]] = None
        newline = False
        joined = False
        for token in doc:
            if token.is_space:
                newline = newline or "\n" in token.text
                joined = False
                continue
            self.words.append(Word(token.i, token.text, newline, joined))
            newline = False
            joined = not token.whitespace_
        self.stream: List[str] = []
        self.owner: List[int] = []
        self.first: List[bool] = []
        self.last: List[bool] = []
        for position, word in enumerate(self.words):
            parts = pieces(word.text) or [word.text]
            for k, part in enumerate(parts):
                self.stream.append(part)
                self.owner.append(position)
                self.first.append(k == 0)
                self.last.append(k == len(parts) - 1)

    def __len__(self) -> int:
        return len(self.words)

    def position(self, index: int) -> Optional[int]:
        """The word position of doc token `index`, or None for a space or
        the doc's end; the index is built on first use."""
        if self._positions is None:
            self._positions = {word.index: p for p, word in enumerate(self.words)}
        return self._positions.get(index)

    def same_line(self, first: int, last: int) -> bool:
        """Whether words first..last (positions, inclusive) exist and lie on
        one line of the doc."""
        if first < 0 or last >= len(self.words):
            return False
        return not any(self.words[k].newline_before for k in range(first + 1, last + 1))

    def rest(self, k: int) -> Tuple[str, ...]:
        """The pieces after piece k in the same word."""
        end = k + 1
        while end < len(self.stream) and not self.first[end]:
            end += 1
        return tuple(self.stream[k + 1 : end])

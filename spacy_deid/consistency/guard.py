"""The guard of `phi_consistency`: which detected PHI strings may spread.

Spreading a string marks every other occurrence of it, so a string that is
also an ordinary word ("Hope", "will"), a small number ("12") or an age would
cost more precision than the recall it brings. The guard looks at the whole
normalised string: a multi-token name such as "cole brown" spreads even when
one of its words is common.
"""

import unicodedata
from typing import Iterable, Optional, Sequence

from ..labels import normalize_label

# Why a string may not spread (see `ConsistencyGuard.reject_reason`).
TOO_SHORT = "short"
SMALL_NUMBER = "small_number"
COMMON_WORD = "common_word"


def fold(text: str) -> str:
    """Lower-case a string, drop its accents and collapse whitespace runs.

    text (str): The string.
    RETURNS (str): The folded string, e.g. "rocío  Pérez" -> "rocio perez".
    """
    decomposed = unicodedata.normalize("NFKD", text.lower())
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return " ".join(plain.split())


class ConsistencyGuard:
    """Decide which labels and which normalised strings may spread."""

    def __init__(
        self,
        common_words: Iterable[str],
        *,
        min_chars: int = 3,
        min_digits: int = 4,
        labels: Optional[Sequence[str]] = None,
        exclude_labels: Sequence[str] = ("AGE",),
        min_score: float = 0.0,
    ) -> None:
        """Initialize the guard.

        common_words (Iterable[str]): Words (or phrases) that never spread as
            a whole string: stop words plus a list of common words.
        min_chars (int): Strings with fewer alphanumeric characters never
            spread.
        min_digits (int): Strings without letters and with fewer digits never
            spread (ages, counts, scores).
        labels (Optional[Sequence[str]]): Only entities with these labels are
            sources; None: all labels.
        exclude_labels (Sequence[str]): Entities with these labels are never
            sources.
        min_score (float): Entities with a lower `phi_score` are never
            sources; entities without a score always may be.
        """
        self.common_words = frozenset(fold(word) for word in common_words)
        self.min_chars = int(min_chars)
        self.min_digits = int(min_digits)
        self.labels = None if labels is None else frozenset(labels)
        self.exclude_labels = frozenset(exclude_labels)
        self.min_score = float(min_score)

    def allows_score(self, score: Optional[float]) -> bool:
        """Whether an entity with this `phi_score` is a source.

        score (Optional[float]): The detector's confidence, or None.
        RETURNS (bool): True if None or at least `min_score`.
        """
        return score is None or score >= self.min_score

    def allows_label(self, label: str) -> bool:
        """Whether an entity with this label is a source.

        label (str): The entity label.
        RETURNS (bool): True if the label may spread.
        """
        label = normalize_label(label)
        if label in self.exclude_labels:
            return False
        return self.labels is None or label in self.labels

    def reject_reason(self, text: str) -> Optional[str]:
        """Why a normalised string may not spread, or None if it may.

        text (str): The string, lower case with single spaces.
        RETURNS (Optional[str]): TOO_SHORT, SMALL_NUMBER, COMMON_WORD or None.
        """
        alnum = sum(1 for c in text if c.isalnum())
        if alnum < self.min_chars:
            return TOO_SHORT
        if not any(c.isalpha() for c in text):
            if sum(1 for c in text if c.isdigit()) < self.min_digits:
                return SMALL_NUMBER
        if fold(text) in self.common_words:
            return COMMON_WORD
        return None

    def allows_text(self, text: str) -> bool:
        """Whether a normalised string may spread.

        text (str): The string, lower case with single spaces.
        RETURNS (bool): True if no guard rejects it.
        """
        return self.reject_reason(text) is None

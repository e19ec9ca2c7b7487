"""Node features of the skip-chain cliques: a 2-token window on each side.

A node is one occurrence of a repeated word type. Its features are the lower
forms and shapes of the two non-space tokens on each side ("<s>" / "</s>"
past the doc's ends), its own shape, and the label the detector gave it. The
word itself is left out: it is the same for every node of the clique, so it
cannot tell them apart, and a saved model would memorise the training
notes' names. Features are hashed (CRC32, stable across processes) into a
fixed number of rows, so the model stores weights, never feature strings.
"""

import zlib
from typing import List, Sequence

import numpy as np

WINDOW = 2
N_FEATURES = 2 * WINDOW * 2 + 4


def shape(text: str) -> str:
    """A short word shape: "Xxxx" -> "Xx", "12/03" -> "d/d".

    text (str): A token text.
    RETURNS (str): Letters as X or x, digits as d, other characters kept,
        runs of one class collapsed, at most 6 characters.
    """
    out: List[str] = []
    for char in text:
        if char.isdigit():
            cls = "d"
        elif char.isalpha():
            cls = "X" if char.isupper() else "x"
        else:
            cls = char
        if not out or out[-1] != cls:
            out.append(cls)
    return "".join(out)[:6]


def node_features(texts: Sequence[str], i: int, detector: str) -> List[str]:
    """The feature strings of the occurrence at position i.

    texts (Sequence[str]): The doc's non-space token texts.
    i (int): The occurrence's position in `texts`.
    detector (str): The detector's label of the token ("O" if none).
    RETURNS (List[str]): N_FEATURES feature strings.
    """
    feats = ["bias", f"shape={shape(texts[i])}", f"det={detector}"]
    for d in range(1, WINDOW + 1):
        for side, j in (("-", i - d), ("+", i + d)):
            if j < 0:
                word = "<s>"
            elif j >= len(texts):
                word = "</s>"
            else:
                word = texts[j]
            feats.append(f"w{side}{d}={word.lower()}")
            feats.append(f"s{side}{d}={shape(word)}")
    prev = texts[i - 1].lower() if i > 0 else "<s>"
    nxt = texts[i + 1].lower() if i + 1 < len(texts) else "</s>"
    feats.append(f"w-1|w+1={prev}|{nxt}")
    return feats


def hash_features(feats: Sequence[str], n_rows: int) -> np.ndarray:
    """Feature strings to rows of the weight table.

    feats (Sequence[str]): Feature strings.
    n_rows (int): The number of rows.
    RETURNS (ndarray): int64 row indices, one per feature.
    """
    return np.array([zlib.crc32(f.encode("utf8")) % n_rows for f in feats], dtype="i8")

"""Warm the tokenizer's cache with a pipeline's frequent chunks.

spaCy's tokenizer caches the tokens of each whitespace-delimited chunk that it
has split, but not inside `nlp.memory_zone()`, where the runner processes every
batch (so that no note's strings stay in the vocab). There every chunk, "the"
included, goes through the special cases and the prefix, suffix and infix
searches again, which made tokenizing a batch about 2.5x as slow.

A pipeline's meta.json can list frequent chunks that are not PHI
(`frequent_chunks`, taken from its training corpus outside the gold PHI spans
by `frequent_chunks`). `warm_up` tokenizes them outside any memory zone, so
they stay cached, with their lexemes, for the life of the pipeline. The cache
is exact: a chunk gives the same tokens with or without it.
"""

import re
import weakref
from collections import Counter
from typing import Iterable, List, Sequence, Tuple

from spacy.language import Language

META_KEY = "frequent_chunks"
"""The meta.json key of the chunk list."""
MAX_CHUNKS = 5000
"""How many chunks a list holds at most, by default."""
MIN_DOCS = 5
"""How many documents a chunk must occur in, by default."""
_CHUNK = re.compile(r"\S+")
# The pipelines warmed, with the tokenizer each was warmed with: warming again
# is cheap but not free (about 25 ms for 5,000 chunks), and the runner warms
# at every call.
_WARMED: "weakref.WeakKeyDictionary[Language, int]" = weakref.WeakKeyDictionary()


def warm_up(nlp: Language) -> int:
    """Tokenize the pipeline's frequent chunks (meta "frequent_chunks") so
    that its tokenizer caches them. Does nothing inside a memory zone, where
    spaCy caches nothing, nor for a pipeline already warmed with its current
    tokenizer (changing the tokenizer's rules empties its cache: only the
    speed suffers).

    nlp (Language): The pipeline.
    RETURNS (int): The number of chunks tokenized.
    RAISES (ValueError): The meta value is not a list of strings.
    """
    tokenizer = nlp.tokenizer
    if _WARMED.get(nlp) == id(tokenizer):
        return 0
    chunks = nlp.meta.get(META_KEY) or []
    if not isinstance(chunks, list) or not all(isinstance(c, str) for c in chunks):
        raise ValueError(f"meta.json '{META_KEY}' must be a list of strings")
    if not chunks or nlp.vocab.in_memory_zone:
        return 0
    for chunk in chunks:
        tokenizer(chunk)
    _WARMED[nlp] = id(tokenizer)
    return len(chunks)


def frequent_chunks(
    texts: Iterable[Tuple[str, Sequence[Tuple[int, int]]]],
    n: int = MAX_CHUNKS,
    min_docs: int = MIN_DOCS,
) -> List[str]:
    """The most frequent whitespace-delimited chunks of a corpus that touch
    no PHI span and occur in at least `min_docs` documents (so that no
    document's own strings are kept), most frequent first (ties in string
    order).

    texts (Iterable[Tuple[str, Sequence[Tuple[int, int]]]]): Each document's
        text and its PHI (start, end) character offsets.
    n (int): At most this many chunks.
    min_docs (int): The fewest documents a chunk must occur in.
    RETURNS (List[str]): The chunks.
    """
    counts: Counter = Counter()
    docs: Counter = Counter()
    for text, spans in texts:
        phi = bytearray(len(text) + 1)
        for start, end in spans:
            phi[start:end] = b"\x01" * (end - start)
        seen = set()
        for match in _CHUNK.finditer(text):
            if 1 in phi[match.start() : match.end()]:
                continue
            chunk = match.group()
            counts[chunk] += 1
            seen.add(chunk)
        docs.update(seen)
    kept = [chunk for chunk in counts if docs[chunk] >= min_docs]
    kept.sort(key=lambda chunk: (-counts[chunk], chunk))
    return kept[:n]

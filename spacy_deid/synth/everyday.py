"""Everyday English without PHI: negatives for text that is not clinical.

A tagger trained only on notes in which nearly every sentence holds PHI reads
ordinary words as names and firms wherever the text leaves clinical language
("Rain is expected later" as a patient, "basil and garlic" as a firm). With
`generate(..., everyday_rate=p)` a share `p` of notes gains a short paragraph
of WordNet's usage examples (`knowledge` table "sentences": no proper name
among them), unannotated, between two of its lines. The split's pool holds
only its own sentences (`pools.in_pool`), so dev and test sentences are
unseen in train.

Each note draws from its own generator, seeded by the note's id: the notes
themselves, and the notes after them, are the same with or without it.
"""

import re
from functools import lru_cache
from random import Random
from typing import List, Sequence, Tuple

from ..core.types import PhiSpan
from ..knowledge.tables import load
from .pools import pooled

SENTENCES_PER_PARAGRAPH = (1, 3)


@lru_cache(maxsize=None)
def everyday_pool(split: str) -> Tuple[str, ...]:
    """The split's everyday sentences, in a stable order."""
    return tuple(pooled(sorted(load("sentences")), split))


def paragraph(rng: Random, split: str) -> str:
    """One to three sentences of the split's pool, capitalised and ended."""
    lo, hi = SENTENCES_PER_PARAGRAPH
    pool = everyday_pool(split)
    sentences = [rng.choice(pool) for _ in range(rng.randint(lo, hi))]
    return " ".join(_as_sentence(s) for s in sentences)


def _as_sentence(text: str) -> str:
    text = text[:1].upper() + text[1:]
    return text if text[-1] in ".!?" else text + "."


def with_everyday(
    nid: str, text: str, spans: Sequence[PhiSpan], split: str, rate: float
) -> Tuple[str, List[PhiSpan]]:
    """The note with an everyday paragraph between two of its lines (with
    probability `rate`), its spans moved past it.

    nid (str): The note's id; seeds the draws.
    text (str): The note's text.
    spans (Sequence[PhiSpan]): Its gold spans.
    split (str): The generator's split.
    rate (float): Share of notes that gain a paragraph.
    RETURNS (Tuple[str, List[PhiSpan]]): The text and spans, unchanged when
        no paragraph is drawn.
    """
    rng = Random(f"spacy-deid-everyday/{nid}")
    if rate <= 0 or rng.random() >= rate:
        return text, list(spans)
    newline = "\r\n" if "\r\n" in text else "\n"
    # Line starts outside every span (a span never holds a line end here, but
    # be sure).
    ends = [
        m.end()
        for m in re.finditer(newline, text)
        if not any(s.start < m.end() < s.end for s in spans)
    ]
    at = rng.choice(ends) if ends else len(text)
    inserted = paragraph(rng, split)
    inserted = newline + inserted if at == len(text) else inserted + newline
    moved = [
        PhiSpan(s.start + len(inserted), s.end + len(inserted), s.label)
        if s.start >= at
        else s
        for s in spans
    ]
    return text[:at] + inserted + text[at:], moved


__all__ = ["everyday_pool", "paragraph", "with_everyday"]

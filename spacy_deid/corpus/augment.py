"""`spacy_deid.context_swap.v1`: training notes with other words around the PHI.

    [corpora.train.augmenter]
    @augmenters = "spacy_deid.context_swap.v1"
    level = 0.5
    rate = 0.15

A tagger trained on generated notes learns their phrasings: "Crew:" or "Call
from:" before a name it has never seen tells it nothing, and it misses the
name. Swapping a share of the words outside the gold spans for other common
English words makes it read the PHI itself (its characters, what the knowledge
tables say of it) as well as the words around it. The words swapped in are
frequent English words that nobody bears as a name and no place is called, so
no unlabelled name is added. Registered through the `spacy_augmenters` entry
point.
"""

import random
from functools import lru_cache
from typing import Iterator, List, Optional, Tuple

from spacy.language import Language
from spacy.tokens import Doc, Token
from spacy.training import Example

from ..knowledge import lookup
from ..knowledge.tables import load

# Words used at least once in 100,000 (zipf >= 4, centibels in the table).
SWAP_MIN_CENTIBELS = 400


class ContextSwap:
    """Replace a share of the examples by swapped copies (`swapped_example`).

    A class (not a closure) so that a corpus holding it pickles.
    """

    def __init__(self, level: float, rate: float, seed: int = 0) -> None:
        """Initialize the augmenter.

        level (float): Share of the examples replaced by a swapped copy.
        rate (float): Share of the plain words outside the gold spans swapped.
        seed (int): Seed of the augmenter's own random generator.
        """
        if not (0.0 <= level <= 1.0 and 0.0 <= rate <= 1.0):
            raise ValueError("context_swap: level and rate must lie in [0, 1]")
        self.level = level
        self.rate = rate
        self.rng = random.Random(seed)

    def __call__(self, nlp: Language, example: Example) -> Iterator[Example]:
        """Yield the example, or a swapped copy of it."""
        if self.level and self.rng.random() < self.level:
            yield swapped_example(nlp, example, self.rate, self.rng)
        else:
            yield example


def create_context_swap(level: float, rate: float, seed: int = 0) -> ContextSwap:
    """Registered augmenter `spacy_deid.context_swap.v1` (see `ContextSwap`).

    RETURNS (ContextSwap): A callable `(nlp, example) -> Iterator[Example]`.
    """
    return ContextSwap(level, rate, seed=seed)


def swapped_example(
    nlp: Language, example: Example, rate: float, rng: random.Random
) -> Example:
    """A copy of an example whose reference has a share (`rate`) of its
    lower- or title-case words outside the gold spans, and outside any token
    whose annotation is missing, swapped for swap words (`swap_words`) in the
    same case; the gold spans keep their tokens."""
    reference = example.reference
    words: List[str] = []
    tags: List[Optional[str]] = []
    for token in reference:
        tag = _iob_tag(token)
        swap = tag == "O" and rng.random() < rate
        words.append(_swapped(token.text, rng) if swap else token.text)
        tags.append(tag)
    spaces = [bool(token.whitespace_) for token in reference]
    doc = Doc(nlp.vocab, words=words, spaces=spaces, ents=tags)
    doc.user_data.update(reference.user_data)
    predicted = nlp.make_doc(doc.text)
    predicted.user_data.update(reference.user_data)
    return Example(predicted, doc)


def _iob_tag(token: Token) -> Optional[str]:
    """The token's gold tag as `Doc(ents=...)` takes it; None where missing."""
    if token.ent_iob_ == "":
        return None
    if token.ent_iob_ == "O":
        return "O"
    return f"{token.ent_iob_}-{token.ent_type_}"


def _swapped(text: str, rng: random.Random) -> str:
    """A swap word in the case of `text`, or `text` itself when it is no
    plain lower- or title-case word."""
    if not text.isalpha() or not (text.islower() or text.istitle()):
        return text
    word = rng.choice(swap_words())
    return word.title() if text.istitle() else word


@lru_cache(maxsize=1)
def swap_words() -> Tuple[str, ...]:
    """Frequent lower-case English words of three letters or more that nobody
    bears as a name and no place is called, sorted."""
    return tuple(
        sorted(
            word
            for word, centibels in load("words").items()
            if centibels >= SWAP_MIN_CENTIBELS
            and len(word) >= 3
            and word.isalpha()
            and word.islower()
            and _nameless(word)
        )
    )


def _nameless(word: str) -> bool:
    k = lookup(word)
    return not (
        k.surname_count
        or k.given_count
        or k.place_population
        or k.is_country
        or k.is_state
        or k.is_county
    )

"""`spacy_deid.PhiCorpus.v1`: a training corpus read straight from our formats.

    [corpora.train]
    @readers = "spacy_deid.PhiCorpus.v1"
    path = ${paths.train}
    format = "auto"
    label_map = null
    misaligned = "missing"
    limit = 0
    augmenter = null

Registered through the `spacy_readers` entry point, so no import is needed.
"""

from pathlib import Path
from typing import Callable, Iterator, Optional, Union

from spacy.language import Language
from spacy.training import Example

from .docbin import ConversionStats, note_to_doc, warn_stats
from .formats import read_notes
from ..labels.maps import LabelMap, get_label_map, map_note

Augmenter = Callable[[Language, Example], Iterator[Example]]


class PhiCorpus:
    """Iterate over `Example`s built from a JSONL file, i2b2 or BRAT directory
    or `.spacy` file, tokenized with the nlp passed at call time.

    A class (not a closure) so that the corpus pickles.
    """

    def __init__(
        self,
        path: Optional[Union[str, Path]],
        format: str = "auto",
        label_map: Optional[Union[str, LabelMap]] = None,
        misaligned: str = "expand",
        limit: int = 0,
        augmenter: Optional[Augmenter] = None,
    ) -> None:
        """Initialize the corpus.

        path (Optional[Union[str, Path]]): The corpus file or directory.
        format (str): "auto", "jsonl", "i2b2", "brat" or "spacy".
        label_map: Named label map ("category", "meddocan2i2b2", ...) or None.
        misaligned (str): "expand", "contract", "drop" or "missing".
        limit (int): Read at most this many notes (0: all).
        augmenter (Optional[Augmenter]): Yields the examples used for each one
            read (`spacy_deid.context_swap.v1`); None: each as read.
        """
        # Like spaCy's Corpus, a missing path only fails when the corpus is
        # read, so `spacy debug config` works on a config with null paths.
        self.path = None if path is None else Path(path)
        self.format = format
        self.label_map = label_map
        self.misaligned = misaligned
        self.limit = limit
        self.augmenter = augmenter
        self.last_stats: Optional[ConversionStats] = None

    def __call__(self, nlp: Language) -> Iterator[Example]:
        """Yield one Example per note.

        nlp (Language): Its `make_doc` tokenizes both sides of the Example.
        YIELDS (Example): predicted = plain doc, reference = doc with gold ents.
        """
        if self.path is None:
            raise ValueError("PhiCorpus needs a path (set [paths] in the config)")
        mapping = get_label_map(self.label_map)
        stats = ConversionStats(policy=self.misaligned)
        for i, note in enumerate(read_notes(self.path, self.format)):
            if self.limit and i >= self.limit:
                break
            note = map_note(note, mapping)
            reference = note_to_doc(note, nlp, self.misaligned, stats)
            predicted = nlp.make_doc(note.text)
            predicted.user_data.update(reference.user_data)
            example = Example(predicted, reference)
            if self.augmenter is None:
                yield example
            else:
                yield from self.augmenter(nlp, example)
        self.last_stats = stats
        warn_stats(stats)


def create_phi_corpus(
    path: Optional[Union[str, Path]],
    format: str = "auto",
    label_map: Optional[str] = None,
    misaligned: str = "expand",
    limit: int = 0,
    augmenter: Optional[Augmenter] = None,
) -> PhiCorpus:
    """Registered reader `spacy_deid.PhiCorpus.v1` (see `PhiCorpus`).

    RETURNS (PhiCorpus): A callable `(nlp) -> Iterator[Example]`.
    """
    return PhiCorpus(
        path,
        format=format,
        label_map=label_map,
        misaligned=misaligned,
        limit=limit,
        augmenter=augmenter,
    )

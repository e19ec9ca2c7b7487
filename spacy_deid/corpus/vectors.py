"""Static token vectors trained on unlabelled notes (floret subword vectors).

The papers' word2vec + LSTM systems use embeddings trained on unlabelled clinical
text. We train floret vectors (fastText with hashed subwords, so every token,
even a misspelt one, gets a vector from a small table), tokenized exactly as the
pipeline tokenizes, and load them with spaCy's own `spacy init vectors --mode
floret` conversion. The `phi_ner` model uses them with
`[components.phi_ner.model.features] include_static_vectors = true` and
`[initialize] vectors = <the vectors directory>`.

floret is a training-time tool only (the extra `[vectors]`): the vectors end up
in the pipeline's vocab, and loading a pipeline never needs it.
"""

import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import IO, Iterable, Optional, Union

from spacy.language import Language
from spacy.training.initialize import convert_vectors

from .convert import make_converter_nlp
from .formats import read_notes

EXTRA_HINT = 'floret is needed to train vectors: pip install "spacy-deid[vectors]"'


@dataclass(frozen=True)
class FloretSettings:
    """floret training settings (fastText names). One thread by default, so
    that the same corpus always gives the same vectors."""

    dim: int = 100
    bucket: int = 20000
    minn: int = 3
    maxn: int = 6
    hash_count: int = 2
    epoch: int = 10
    min_count: int = 1
    model: str = "cbow"
    thread: int = 1


def write_token_lines(texts: Iterable[str], nlp: Language, out: IO[str]) -> int:
    """Write each non-empty line of each text as its space-separated tokens.

    texts (Iterable[str]): Note texts.
    nlp (Language): Provides the tokenizer (the pipeline's own).
    out (IO[str]): Where to write.
    RETURNS (int): The number of tokens written.
    """
    n_tokens = 0
    for text in texts:
        for line in text.splitlines():
            tokens = [t.text for t in nlp.make_doc(line) if not t.is_space]
            if tokens:
                out.write(" ".join(tokens) + "\n")
                n_tokens += len(tokens)
    return n_tokens


def train_floret(
    tokens_path: Union[str, Path], output: Union[str, Path], settings: FloretSettings
) -> None:
    """Train floret vectors on a tokenized text file and save them in floret's
    text format (`.floret`), which `spacy init vectors --mode floret` reads."""
    try:
        import floret
    except ImportError as err:  # pragma: no cover - depends on the environment
        raise ImportError(EXTRA_HINT) from err
    model = floret.train_unsupervised(
        str(tokens_path),
        model=settings.model,
        mode="floret",
        dim=settings.dim,
        bucket=settings.bucket,
        minn=settings.minn,
        maxn=settings.maxn,
        hashCount=settings.hash_count,
        epoch=settings.epoch,
        minCount=settings.min_count,
        thread=settings.thread,
        verbose=0,
    )
    model.save_floret_vectors(str(output))


def train_vectors(
    corpus: Union[str, Path],
    output: Union[str, Path],
    lang: str = "en",
    settings: Optional[FloretSettings] = None,
    format: Optional[str] = None,
) -> int:
    """Train floret vectors on the texts of a corpus (its annotations are not
    used) and save a blank pipeline with them, ready for `[initialize]
    vectors`.

    corpus (Union[str, Path]): A corpus in any supported format.
    output (Union[str, Path]): Output directory (a blank spaCy pipeline).
    lang (str): Language code; the clinical tokenizer of that language is used.
    settings (Optional[FloretSettings]): floret settings; default FloretSettings().
    format (Optional[str]): The corpus format, or None to detect it.
    RETURNS (int): The number of training tokens.
    """
    settings = settings or FloretSettings()
    nlp = make_converter_nlp(lang)
    texts = (note.text for note in read_notes(corpus, format=format, validate=False))
    with tempfile.TemporaryDirectory() as tmp:
        tokens_path = Path(tmp) / "tokens.txt"
        with tokens_path.open("w", encoding="utf8") as out:
            n_tokens = write_token_lines(texts, nlp, out)
        if not n_tokens:
            raise ValueError("The corpus has no tokens to train vectors on")
        vectors_path = Path(tmp) / "vectors.floret"
        train_floret(tokens_path, vectors_path, settings)
        convert_vectors(nlp, vectors_path, truncate=0, prune=-1, mode="floret")
    nlp.to_disk(output)
    return n_tokens

"""spacy-deid: find and replace protected health information in clinical notes."""

from pathlib import Path
from typing import Any, Dict, Union

from spacy.language import Language
from spacy.util import get_lang_class, load_config, load_model_from_path
from spacy.vocab import create_vocab

from .text.tokenizer import load_saved
from .text.tokenizer_cache import warm_up

__version__ = "0.1.0"

PRETRAINED_DIR = Path(__file__).parent / "pretrained"

# Pipelines shipped inside the package (package data), by short name:
# "en" (the default: rules + trained tagger), "en_rules" (rules only) and
# "es_meddocan" (Spanish tagger trained on MEDDOCAN, MEDDOCAN labels).
PIPELINES: Dict[str, str] = {
    "en": "en",
    "en_rules": "en_rules",
    "es_meddocan": "es_meddocan",
}
DEFAULT_PIPELINE = "en"


def pipeline_path(name: str) -> Path:
    """Return the directory of a shipped pipeline.

    name (str): A short name from `PIPELINES`, e.g. "en" or "es_meddocan".
    RETURNS (Path): The pipeline directory inside the installed package.
    """
    if name not in PIPELINES:
        known = ", ".join(sorted(PIPELINES))
        raise ValueError(f"Unknown spacy-deid pipeline '{name}'. Known: {known}")
    path = PRETRAINED_DIR / PIPELINES[name]
    if not (path / "config.cfg").exists():
        raise OSError(f"The shipped pipeline '{name}' is missing from {path}")
    return path


def load(
    name: Union[str, Path] = DEFAULT_PIPELINE, *, warm: bool = True, **overrides: Any
) -> Language:
    """Load a shipped pipeline (offline), or a pipeline directory.

    `spacy.load("spacy_deid")` calls this with no name and gives the default
    English pipeline ("en": clinical tokenizer, sentencizer, phi_rules,
    phi_ner, phi_surrogates).

    name (Union[str, Path]): Shipped pipeline name ("en", "en_rules",
        "es_meddocan") or a directory.
    warm (bool): Warm the tokenizer's cache with the pipeline's frequent
        chunks (`tokenizer_cache.warm_up`, about 0.2 s), for `nlp.pipe` in
        memory zones. `spacy-deid run` warms it after its first batch.
    overrides: Passed to `spacy.util.load_model_from_path` (exclude, config...).
    RETURNS (Language): The loaded pipeline.
    """
    if isinstance(name, str) and name in PIPELINES:
        path = pipeline_path(name)
    else:
        path = Path(name)
    nlp = _load_from_path(path, **overrides)
    if warm:
        warm_up(nlp)
    return nlp


def _load_from_path(path: Path, **overrides: Any) -> Language:
    """`spacy.util.load_model_from_path`, reading the saved tokenizer only
    where it differs from the one the config builds.

    spaCy builds the tokenizer from the config, then reads the vocab and the
    saved tokenizer, which compiles its regexes and adds its special cases
    again (about 0.15 s). Here the vocab is read first, so the tokenizer is
    built against it exactly as reading the saved one would, and the saved
    tokenizer is read only if it holds anything else
    (`text.tokenizer.load_saved`).
    """
    exclude = list(overrides.get("exclude", []))
    if (
        "vocab" in overrides
        or {"vocab", "tokenizer"} & set(exclude)
        or not (path / "tokenizer").exists()
        or not (path / "vocab").is_dir()
    ):
        return load_model_from_path(path, **overrides)
    lang = load_config(path / "config.cfg")["nlp"]["lang"]
    vocab = create_vocab(lang, get_lang_class(lang).Defaults)
    vocab.from_disk(path / "vocab")
    overrides["exclude"] = exclude + ["vocab", "tokenizer"]
    nlp = load_model_from_path(path, vocab=vocab, **overrides)
    load_saved(nlp, path / "tokenizer")
    return nlp

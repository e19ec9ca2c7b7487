"""Build the pipelines shipped inside the package.

    python -m spacy_deid.pretrained.build en_rules [--output DIR]
    python -m spacy_deid.pretrained.build en --ner NER_DIR [--output DIR]
        [--scores SCORES_JSON] [--log TRAIN_LOG] [--corpus TEXT]
        [--chunks TRAIN_JSONL]
    python -m spacy_deid.pretrained.build es_meddocan --ner NER_DIR [...]
    python -m spacy_deid.pretrained.build NAME --prefilter-only [--output DIR]
    python -m spacy_deid.pretrained.build NAME --scores-only --scores SCORES_JSON
        [--output DIR]

Each pipeline is assembled from its config, configs/pipeline_<name>.cfg, and
saved to DIR (default: spacy_deid/pretrained/<name>, the shipped location).

NER_DIR is a `spacy train` output (e.g. training/ner_en/model-best) with one
`phi_ner` component. From it come the trained weights and labels, and the two
settings the weights depend on (`model`, `loss`); every other phi_ner setting
is the pipeline config's. Only the label strings (and vectors, if the tagger
used any) are carried over: the training corpus's strings are not shipped,
except, with --chunks, its most frequent chunks that touch no gold PHI and occur
in at least 5 documents (meta.json "frequent_chunks", which warm the
tokenizer's cache: see `spacy_deid.text.tokenizer_cache`).

With Hyperscan installed (the [fast] extra), the rule component saves its
prefilter database (phi_rules/prefilter.hs), so that the pipeline loads with
no 2-s build; it is used only where it matches the patterns and Hyperscan
that load it. The rule component also saves the engine code of its regexes
(phi_rules/regex_code.xz, `spacy_deid.rules.precompiled`), so that the first
note compiles none, on the Python version that built it. After a rule change,
--prefilter-only rewrites these two files alone (`tests/test_package.py` fails
until they match the rules again). A build into the shipped location, or
--prefilter-only, also rewrites the engine code of the clinical tokenizer's
regexes for the shipped languages (spacy_deid/text/regex_code.xz), so that
building a tokenizer compiles none.

meta.json gets a "training" record: the corpus (file names only), the NER's
training config (paths reduced to file names) and its hash, seed, steps (from
--log: the `spacy train` console output or the JSONL file of
spacy.ConsoleLogger's `output_file`), the NER's dev scores and, with
--scores (a JSON from `spacy-deid evaluate --json`), the headline dev scores
of the assembled pipeline. After a change to the rules or settings,
--scores-only --scores SCORES_JSON rewrites those headline scores alone.
"""

import argparse
import shutil
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Dict, List, Optional, Tuple

import numpy as np
import spacy
import srsly
from spacy.language import Language
from spacy.tokens import Doc
from spacy.util import load_config, load_model_from_config, load_model_from_path
from thinc.api import Config

from .. import PRETRAINED_DIR, PIPELINES, __version__, pipeline_path
from ..rules import prefilter
from ..rules.ruler import PhiRuler
from ..tagging.segments import listens_upstream
from ..text import tokenizer
from .chunks import set_chunks
from .provenance import file_record, headline_scores, training_record

CONFIG_DIR = Path(__file__).resolve().parents[2] / "configs"
NER_FACTORY = "phi_ner"
# phi_ner settings that the trained weights depend on: always the NER's.
TRAINED_SETTINGS = ("model", "loss")
MAX_SIZE_MB = 30.0
# Invented text (no real patient) to check that the weights were carried over.
CHECK_TEXTS = {
    "en": (
        "Patient John Smith (MRN 4455667) was seen by Dr. Ann Lee at Mercy "
        "Hospital in Boston on 03/14/2019. Call 617-555-0199."
    ),
    "es": (
        "Nombre: María García López. Fecha de ingreso: 12/03/2018. Médico: "
        "Dr. Juan Pérez, Hospital Universitario La Paz, Madrid."
    ),
}
MEDDOCAN_SOURCE = {
    "name": "MEDDOCAN (SPACCC_MEDDOCAN), train and dev splits",
    "url": "https://github.com/PlanTL-GOB-ES/SPACCC_MEDDOCAN",
    "license": "CC BY 4.0",
    "author": "Secretaría de Estado para el Avance Digital (SEAD)",
    "citation": (
        "Marimon M, Gonzalez-Agirre A, Intxaurrondo A, et al. Automatic "
        "De-identification of Medical Texts in Spanish: the MEDDOCAN Track, "
        "Corpus, Guidelines, Methods and Evaluation of Results. IberLEF 2019, "
        "CEUR-WS Vol-2421, pp. 618-638."
    ),
}


@dataclass(frozen=True)
class Recipe:
    """How one shipped pipeline is built."""

    config: str
    needs_ner: bool
    meta: Dict[str, Any]
    corpus: str = ""
    sources: List[Dict[str, str]] = field(default_factory=list)


RECIPES: Dict[str, Recipe] = {
    "en_rules": Recipe(
        config="pipeline_en_rules.cfg",
        needs_ner=False,
        meta={
            "name": "deid_rules",
            "description": (
                "Rules-only English de-identification pipeline: clinical "
                "tokenizer, clinical sentencizer, regex PHI ruler (phi_rules) "
                "and surrogate replacer (phi_surrogates). No trained model."
            ),
        },
    ),
    "en": Recipe(
        config="pipeline_en.cfg",
        needs_ner=True,
        meta={
            "name": "deid",
            "description": (
                "Default English de-identification pipeline: clinical "
                "tokenizer, clinical sentencizer, regex PHI ruler (phi_rules), "
                "character-aware BiLSTM-CRF tagger (phi_ner) and surrogate "
                "replacer (phi_surrogates). Rules win on formulaic labels "
                "(phi_ner protected_labels), the tagger elsewhere."
            ),
        },
        corpus=(
            "Synthetic English clinical notes from `spacy-deid synth` "
            "(spacy-deid JSONL; no real patient data)"
        ),
    ),
    "es_meddocan": Recipe(
        config="pipeline_es_meddocan.cfg",
        needs_ner=True,
        meta={
            "name": "deid_meddocan",
            "description": (
                "Spanish de-identification pipeline: clinical tokenizer, "
                "Spanish regex PHI ruler (phi_rules: dates, ages, phones, "
                "IDs; labels mapped to MEDDOCAN types), character-aware "
                "BiLSTM-CRF tagger (phi_ner) trained on MEDDOCAN (MEDDOCAN "
                "labels), MEDDOCAN span conventions (phi_boundaries) and "
                "surrogate replacer (phi_surrogates, labels mapped to i2b2 "
                "for surrogates). Rules win on formulaic labels."
            ),
        },
        corpus=(
            "MEDDOCAN: Spanish clinical case reports with synthetic PHI "
            "(train split for training, dev split for model selection)"
        ),
        sources=[MEDDOCAN_SOURCE],
    ),
}


def build(
    name: str,
    output: Optional[Path] = None,
    *,
    ner_dir: Optional[Path] = None,
    scores: Optional[Path] = None,
    log: Optional[Path] = None,
    corpus: Optional[str] = None,
    config_path: Optional[Path] = None,
    chunks: Optional[Path] = None,
) -> Path:
    """Assemble a shipped pipeline and save it.

    name (str): A name from RECIPES ("en_rules", "en", "es_meddocan").
    output (Optional[Path]): Target directory (replaced); default: the
        shipped location.
    ner_dir (Optional[Path]): The trained NER (`spacy train` output).
    scores (Optional[Path]): `spacy-deid evaluate --json` of the pipeline.
    log (Optional[Path]): The NER's training log (console or JSONL).
    corpus (Optional[str]): Describes the training corpus.
    config_path (Optional[Path]): Another pipeline config.
    chunks (Optional[Path]): JSONL training corpus whose frequent non-PHI
        chunks warm the tokenizer's cache (`pretrained.chunks`).
    RETURNS (Path): The output directory.
    """
    recipe = RECIPES[name]
    output = output or PRETRAINED_DIR / PIPELINES[name]
    config_path = config_path or CONFIG_DIR / recipe.config
    if recipe.needs_ner and ner_dir is None:
        raise ValueError(f"The '{name}' pipeline needs a trained tagger: --ner DIR")
    if not recipe.needs_ner and ner_dir is not None:
        raise ValueError(f"The '{name}' pipeline has no trained component")
    config = load_config(config_path)
    training: Optional[Dict[str, Any]] = None
    if ner_dir is None:
        nlp = assemble(config)
    else:
        nlp, training = assemble_with_ner(config, ner_dir, log, corpus or recipe.corpus)
        training["pipeline_config"] = file_record(config_path)
        training["pipeline_dev_scores"] = headline_scores(scores) if scores else None
    set_meta(nlp, recipe, config_path, training)
    if chunks is not None:
        set_chunks(nlp.meta, chunks)
    save(nlp, output)
    if output == PRETRAINED_DIR / PIPELINES[name]:
        write_tokenizer_table()
    if ner_dir is not None:
        check_built(output, ner_dir)
    return output


def shipped_languages() -> List[str]:
    """The languages of the shipped pipelines, from their configs."""
    langs = {
        load_config(CONFIG_DIR / r.config)["nlp"]["lang"] for r in RECIPES.values()
    }
    return sorted(langs)


def write_tokenizer_table() -> bool:
    """Rewrite the saved code of the tokenizer regexes of the shipped
    languages (`text.tokenizer.REGEX_TABLE`).

    RETURNS (bool): Whether the file changed.
    """
    return tokenizer.write_regex_table(shipped_languages())


def assemble(config: Config, skip: Tuple[str, ...] = ()) -> Language:
    """Create a pipeline from its config and initialize its components,
    except those in `skip` (their weights are loaded afterwards).

    config (Config): The pipeline config.
    skip (Tuple[str, ...]): Component names not to initialize.
    RETURNS (Language): The pipeline.
    """
    nlp = load_model_from_config(config, auto_fill=True, validate=True)
    with nlp.select_pipes(disable=list(skip)):
        nlp.initialize()
    return nlp


def assemble_with_ner(
    config: Config, ner_dir: Path, log: Optional[Path], corpus: str
) -> Tuple[Language, Dict[str, Any]]:
    """Assemble a pipeline whose phi_ner is the trained one in `ner_dir`.

    config (Config): The pipeline config (not modified).
    ner_dir (Path): The `spacy train` output.
    log (Optional[Path]): The training log, for the number of steps.
    corpus (str): Describes the training corpus.
    RETURNS (Tuple[Language, Dict[str, Any]]): The pipeline and its
        "training" meta record.
    """
    ner_nlp, source_name = load_ner(ner_dir)
    name = ner_component_name(config)
    check_compatible(config, ner_nlp.config)
    config = config.copy()
    block = ner_nlp.config["components"][source_name]
    config["components"][name] = merge_ner_settings(config["components"][name], block)
    nlp = assemble(config, skip=(name,))
    load_trained_ner(nlp, name, ner_nlp, ner_dir / source_name)
    record = training_record(ner_dir, ner_nlp, source_name, log, corpus)
    record["ner"]["settings_from_ner"] = list(TRAINED_SETTINGS)
    record["ner"]["settings_from_pipeline_config"] = sorted(
        key for key in config["components"][name] if key not in TRAINED_SETTINGS
    )
    return nlp, record


def load_ner(ner_dir: Path) -> Tuple[Language, str]:
    """Load a trained NER pipeline and find its one phi_ner component.

    ner_dir (Path): The `spacy train` output.
    RETURNS (Tuple[Language, str]): The pipeline and the component's name.
    """
    if not (ner_dir / "config.cfg").exists():
        raise ValueError(f"No trained pipeline (config.cfg) in {ner_dir}")
    ner_nlp = load_model_from_path(ner_dir)
    names = [
        name
        for name in ner_nlp.component_names
        if ner_nlp.config["components"][name].get("factory") == NER_FACTORY
    ]
    if len(names) != 1:
        raise ValueError(
            f"{ner_dir} must have exactly one '{NER_FACTORY}' component, "
            f"found {len(names)}"
        )
    check_no_listener(ner_nlp, names[0], ner_dir)
    return ner_nlp, names[0]


def check_no_listener(ner_nlp: Language, name: str, ner_dir: Path) -> None:
    """Refuse a tagger that listens to an upstream component (tok2vec or
    transformer): only the tagger is copied into the assembled pipeline, so
    its listener would get no input there and predict from empty features."""
    if listens_upstream(ner_nlp.get_pipe(name).model):
        raise ValueError(
            f"The '{name}' component in {ner_dir} listens to an upstream "
            "component (a tok2vec or transformer listener); assemble it with "
            "that component (e.g. use the trained pipeline itself) instead"
        )


def ner_component_name(config: Config) -> str:
    """The name of the pipeline config's one phi_ner component."""
    names = [
        name
        for name in config["nlp"]["pipeline"]
        if config["components"][name].get("factory") == NER_FACTORY
    ]
    if len(names) != 1:
        raise ValueError(f"The pipeline config needs exactly one '{NER_FACTORY}'")
    return names[0]


def check_compatible(config: Config, ner_config: Config) -> None:
    """Raise if the pipeline's language or tokenizer differs from the NER's."""
    for key in ("lang", "tokenizer"):
        if config["nlp"][key] != ner_config["nlp"][key]:
            raise ValueError(
                f"nlp.{key} of the pipeline config differs from the trained "
                f"tagger's: {config['nlp'][key]!r} != {ner_config['nlp'][key]!r}"
            )


def merge_ner_settings(
    pipeline_block: Dict[str, Any], ner_block: Dict[str, Any]
) -> Dict[str, Any]:
    """The phi_ner block of the built pipeline: the pipeline config's settings,
    plus the trained settings (`model`, `loss`) from the NER's config.

    pipeline_block (Dict[str, Any]): [components.phi_ner] of the pipeline.
    ner_block (Dict[str, Any]): The NER's phi_ner block (as trained).
    RETURNS (Dict[str, Any]): The merged block.
    """
    merged = dict(pipeline_block)
    for key in TRAINED_SETTINGS:
        if key not in ner_block:
            continue
        if key in pipeline_block and pipeline_block[key] != ner_block[key]:
            raise ValueError(
                f"phi_ner '{key}' differs from the trained tagger's; leave it "
                "out of the pipeline config (it is taken from the tagger)"
            )
        merged[key] = ner_block[key]
    return merged


def load_trained_ner(
    nlp: Language, name: str, ner_nlp: Language, weights_dir: Path
) -> None:
    """Load the trained weights and labels into the pipeline's phi_ner, keep
    its configured settings, and carry over the label strings and vectors.

    nlp (Language): The assembled pipeline.
    name (str): Its phi_ner component.
    ner_nlp (Language): The trained NER pipeline.
    weights_dir (Path): The trained component's directory.
    """
    ner = nlp.get_pipe(name)
    settings = {key: value for key, value in ner.cfg.items() if key != "labels"}
    ner.from_disk(weights_dir, exclude=["vocab"])
    ner.cfg.update(settings)
    if not ner.labels:
        raise ValueError(f"The trained tagger in {weights_dir} has no labels")
    for label in ner.labels:
        nlp.vocab.strings.add(label)
    vectors = ner_nlp.vocab.vectors
    if vectors.shape[0] or vectors.shape[1]:
        nlp.vocab.vectors = vectors


def set_meta(
    nlp: Language,
    recipe: Recipe,
    config_path: Path,
    training: Optional[Dict[str, Any]],
) -> None:
    """Fill meta.json: name, description, version, sources, training."""
    nlp.meta.update(recipe.meta)
    nlp.meta["version"] = __version__
    nlp.meta["spacy_version"] = f">={spacy.__version__},<3.9.0"
    nlp.meta["license"] = "MIT"
    nlp.meta["sources"] = list(recipe.sources)
    nlp.meta["built_from"] = config_path.name
    if training is not None:
        nlp.meta["training"] = training
        nlp.meta["merge_policy"] = merge_policy(nlp)


def merge_policy(nlp: Language) -> Dict[str, Any]:
    """How rule and model entities are combined, from the phi_ner settings."""
    ner_name = next(
        name
        for name in nlp.pipe_names
        if nlp.get_pipe_meta(name).factory == NER_FACTORY
    )
    cfg = nlp.get_pipe(ner_name).cfg
    before = nlp.pipe_names[: nlp.pipe_names.index(ner_name)]
    return {
        "components_before_ner": before,
        "overwrite_ents": cfg["overwrite_ents"],
        "protected_labels": list(cfg.get("protected_labels", [])),
        "recall_bias": cfg.get("recall_bias", 0.0),
        "thresholds": dict(cfg.get("thresholds", {})),
        "summary": (
            "Earlier entities with a protected label always win; other earlier "
            "entities are removed where a model span overlaps them; spans of "
            "either that overlap nothing are kept."
            if cfg["overwrite_ents"]
            else "Earlier entities win; model spans overlapping them are dropped."
        ),
    }


def save(nlp: Language, output: Path) -> None:
    """Write the pipeline to `output`, replacing what was there."""
    if output.exists():
        shutil.rmtree(output)
    output.parent.mkdir(parents=True, exist_ok=True)
    nlp.to_disk(output)
    for name, pipe in nlp.pipeline:
        if isinstance(pipe, PhiRuler):
            pipe.write_regex_table(output / name)


def check_built(output: Path, ner_dir: Path) -> None:
    """Reload the built pipeline and check that its phi_ner settings are the
    configured ones and that it predicts exactly as the trained tagger.

    output (Path): The built pipeline.
    ner_dir (Path): The trained tagger.
    """
    built = load_model_from_path(output)
    name = ner_component_name(built.config)
    ner = built.get_pipe(name)
    for key, value in built.config["components"][name].items():
        if key in ner.cfg and ner.cfg[key] != value:
            raise ValueError(f"phi_ner '{key}' does not match the built config")
    ner_nlp, source_name = load_ner(ner_dir)
    text = CHECK_TEXTS.get(built.lang, CHECK_TEXTS["en"])
    words = ner_nlp.make_doc(text)
    doc = Doc(
        built.vocab,
        words=[t.text for t in words],
        spaces=[bool(t.whitespace_) for t in words],
    )
    reference = ner_nlp.get_pipe(source_name)
    # The pipeline's decoding bias is a setting, not a weight: the same for both.
    reference.cfg["recall_bias"] = ner.cfg.get("recall_bias", 0.0)
    ((tags, probs),) = ner.predict([doc])
    ((ref_tags, ref_probs),) = reference.predict([words])
    if not (
        np.array_equal(tags, ref_tags) and np.allclose(probs, ref_probs, atol=1e-5)
    ):
        raise ValueError("The built phi_ner does not predict as the trained tagger")
    if [t.text for t in built.make_doc(text)] != [t.text for t in words]:
        print("Warning: the tokenizer now splits text differently from training")


def refresh_prefilters(output: Path) -> List[str]:
    """Rewrite the prefilter databases and regex tables of a saved pipeline's
    rule components (nothing else of the pipeline changes).

    output (Path): The pipeline directory.
    RETURNS (List[str]): The names of the components whose database was
        written.
    """
    if not prefilter.available():
        raise ValueError("Hyperscan is not installed: pip install spacy-deid[fast]")
    nlp = spacy.load(output)
    written = []
    for name, pipe in nlp.pipeline:
        if isinstance(pipe, PhiRuler):
            pipe.to_disk(output / name, exclude=["cfg", "patterns", "regex_code"])
            pipe.write_regex_table(output / name)
            written.append(name)
    write_tokenizer_table()
    return written


def refresh_scores(output: Path, scores: Path) -> Dict[str, Any]:
    """Replace the dev scores in a saved pipeline's meta.json (after a change
    to its rules or settings; nothing else of the pipeline changes).

    output (Path): The pipeline directory (with a trained component).
    scores (Path): `spacy-deid evaluate --json` of that pipeline on its dev set.
    RETURNS (Dict[str, Any]): The scores written.
    """
    meta_path = output / "meta.json"
    meta = srsly.read_json(meta_path)
    if not isinstance(meta.get("training"), dict):
        raise ValueError(f"{meta_path} records no training: no dev scores to update")
    record = headline_scores(scores)
    meta["training"]["pipeline_dev_scores"] = record
    srsly.write_json(meta_path, meta)
    return record


def dir_size(path: Path) -> int:
    """Total size in bytes of the files under a directory."""
    return sum(item.stat().st_size for item in path.rglob("*") if item.is_file())


def main(argv: Optional[List[str]] = None) -> None:
    parser = argparse.ArgumentParser(
        description="Build a shipped spacy-deid pipeline (see the module docstring)."
    )
    parser.add_argument("name", nargs="?", default="en_rules", choices=sorted(RECIPES))
    parser.add_argument("--ner", type=Path, default=None, help="spacy train output")
    parser.add_argument("--output", type=Path, default=None)
    parser.add_argument("--scores", type=Path, default=None, help="evaluate --json")
    parser.add_argument("--log", type=Path, default=None, help="training log")
    parser.add_argument("--corpus", default=None, help="corpus description")
    parser.add_argument("--config", type=Path, default=None, help="pipeline config")
    parser.add_argument(
        "--chunks", type=Path, default=None, help="JSONL corpus: frequent chunks"
    )
    parser.add_argument(
        "--prefilter-only",
        action="store_true",
        help="rewrite only the rules' prefilter database of a built pipeline",
    )
    parser.add_argument(
        "--scores-only",
        action="store_true",
        help="rewrite only the dev scores (--scores) in a built pipeline's meta.json",
    )
    args = parser.parse_args(argv)
    if args.scores_only:
        try:
            output = args.output or pipeline_path(args.name)
            if args.scores is None:
                raise ValueError("--scores-only needs --scores FILE")
            record = refresh_scores(output, args.scores)
        except (OSError, ValueError) as error:
            sys.exit(f"Could not update the scores of '{args.name}': {error}")
        strict = record["strict"]["f1"]
        print(f"Wrote the dev scores (strict F1 {strict:.4f}) in {output}/meta.json")
        return
    if args.prefilter_only:
        try:
            output = args.output or pipeline_path(args.name)
            names = refresh_prefilters(output)
        except (OSError, ValueError) as error:
            sys.exit(f"Could not write the prefilter of '{args.name}': {error}")
        print(
            f"Wrote the prefilter database and regex table of {', '.join(names)}"
            f" in {output}"
        )
        return
    try:
        path = build(
            args.name,
            args.output,
            ner_dir=args.ner,
            scores=args.scores,
            log=args.log,
            corpus=args.corpus,
            config_path=args.config,
            chunks=args.chunks,
        )
    except (OSError, ValueError) as error:
        sys.exit(f"Could not build '{args.name}': {error}")
    size = dir_size(path) / 1e6
    print(f"Saved the '{args.name}' pipeline to {path} ({size:.1f} MB)")
    if size > MAX_SIZE_MB:
        sys.exit(f"The pipeline is larger than {MAX_SIZE_MB:.0f} MB")


if __name__ == "__main__":
    main()

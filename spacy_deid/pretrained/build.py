"""Build the shipped pipelines from their configs.

    python -m spacy_deid.pretrained.build [--config configs/pipeline_en_rules.cfg]

The rules-only English pipeline has no trained weights, so it is assembled from
its config (like `spacy assemble`) and its meta records how it was built.
"""

import argparse
import shutil
from pathlib import Path
from typing import Any, Dict

import spacy
from spacy.util import load_config

from .. import PRETRAINED_DIR, __version__

EN_RULES_META: Dict[str, Any] = {
    "lang": "en",
    "name": "deid_rules",
    "description": (
        "Rules-only English de-identification pipeline: clinical tokenizer, "
        "clinical sentencizer, regex PHI ruler (phi_rules) and surrogate "
        "replacer (phi_surrogates). No trained model."
    ),
    "license": "MIT",
    "sources": [],
}


def build(config_path: Path, output: Path, meta: Dict[str, Any]) -> Path:
    """Assemble a pipeline from a config file and save it.

    config_path (Path): The pipeline config.
    output (Path): Target directory (replaced).
    meta (Dict[str, Any]): Extra meta.json fields.
    RETURNS (Path): The output directory.
    """
    config = load_config(config_path)
    nlp = spacy.util.load_model_from_config(config, auto_fill=True, validate=True)
    nlp.initialize()
    nlp.meta.update(meta)
    nlp.meta["version"] = __version__
    nlp.meta["spacy_version"] = f">={spacy.__version__},<3.9.0"
    nlp.meta["built_from"] = config_path.name
    if output.exists():
        shutil.rmtree(output)
    nlp.to_disk(output)
    return output


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument(
        "--config", type=Path, default=Path("configs/pipeline_en_rules.cfg")
    )
    parser.add_argument("--output", type=Path, default=PRETRAINED_DIR / "en")
    args = parser.parse_args()
    path = build(args.config, args.output, EN_RULES_META)
    print(f"Saved the pipeline to {path}")


if __name__ == "__main__":
    main()

"""`spacy_deid.phi_scorer.v1`: entity scores plus the binary PHI token measure.

Used by `spacy train` / `spacy evaluate` through a component's `scorer`
setting. The scorer is a module-level function so that pipelines pickle.
"""

from typing import Any, Callable, Dict, Iterable, Optional

from spacy.scorer import PRFScore, get_ner_prf
from spacy.training import Example


# The score weights of the components scored by `spacy_deid.phi_scorer.v1`
# (model selection by entity F1; the other figures are reported).
PHI_SCORE_WEIGHTS: Dict[str, Optional[float]] = {
    "ents_f": 1.0,
    "ents_p": 0.0,
    "ents_r": 0.0,
    "ents_per_type": None,
    "phi_token_f": 0.0,
    "phi_token_p": None,
    "phi_token_r": None,
}


def _is_phi_tag(tag: Optional[str]) -> Optional[bool]:
    if tag is None or tag == "-" or tag == "":
        return None
    return tag != "O"


def binary_token_prf(examples: Iterable[Example]) -> Optional[PRFScore]:
    """Binary (PHI vs not) token counts on the predicted docs' tokens.

    Gold token tags come from `Example.get_aligned_ner()`; tokens whose gold
    tag is missing or misaligned are skipped.
    RETURNS (Optional[PRFScore]): None if no example has gold entities.
    """
    score = PRFScore()
    seen = False
    for eg in examples:
        if not eg.reference.has_annotation("ENT_IOB"):
            continue
        seen = True
        gold_tags = eg.get_aligned_ner()
        for token, tag in zip(eg.predicted, gold_tags, strict=True):
            gold = _is_phi_tag(tag)
            if gold is None:
                continue
            pred = token.ent_iob_ in ("B", "I")
            if gold and pred:
                score.tp += 1
            elif pred:
                score.fp += 1
            elif gold:
                score.fn += 1
    return score if seen else None


def score_phi(examples: Iterable[Example], **kwargs: Any) -> Dict[str, Any]:
    """Strict entity P/R/F (overall and per type) and binary token P/R/F.

    examples (Iterable[Example]): Predicted and reference docs.
    RETURNS (Dict[str, Any]): `ents_p`, `ents_r`, `ents_f`, `ents_per_type`,
        `phi_token_p`, `phi_token_r`, `phi_token_f`.
    """
    examples = list(examples)
    scores = dict(get_ner_prf(examples, **kwargs))
    binary = binary_token_prf(examples)
    scores["phi_token_p"] = binary.precision if binary else None
    scores["phi_token_r"] = binary.recall if binary else None
    scores["phi_token_f"] = binary.fscore if binary else None
    return scores


def make_phi_scorer() -> Callable[..., Dict[str, Any]]:
    """Registered as `spacy_deid.phi_scorer.v1` (entry point `spacy_scorers`).

    RETURNS (Callable): The module-level `score_phi`.
    """
    return score_phi

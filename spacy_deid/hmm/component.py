"""The `phi_hmm` component: an HMM with Dirichlet-process sub-tags (HMM-DP).

A generative tagger after Chen, Cullen and Godwin (J Biomed Inform 2015):
each BILUO tag has latent sub-tags that emit the words and carry the tag
transitions, learnt by mean-field variational EM (`variational.py`); the
model is decoded through the tag HMM closest to it in KL (`decoding.py`),
with the same constrained BILUO Viterbi, span scores, thresholds and
`spans_key` as `phi_ner` and `phi_crf` (the shared `tagging.tagger` base:
the emissions are log p^(w | s), the transitions log p^(s' | s)).

Training happens in `initialize`, as for `phi_crf`, because batch
variational EM runs on the whole data set: it reads every example of
`get_examples()`, splits each doc at the tokens whose gold tag is missing or
misaligned (so a missing tag is never taught as "O") and runs EM on the
segments. `update` trains nothing; a `spacy train` config sets `max_steps`
to 1 and keeps `max_epochs` >= 0 (see `configs/hmm_meddocan.cfg`).

The saved model holds the frequent words of the training notes: a model
trained on real notes is itself PHI (raise `min_count` to keep rarer words
out).
"""

import logging
import math
import time
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Set
from typing import Union

import numpy as np
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab

from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, SCORES, SENTS, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..core.cfg_io import CfgModelSerializable
from ..core.scorers import PHI_SCORE_WEIGHTS, score_phi
from ..tagging.crf import CRFParams, biluo_tag_names, legal_transitions
from ..tagging.spans import check_thresholds
from ..tagging.gold import MISSING_TAGS, known_tag, label_list
from ..tagging.tagger import BiluoTagger
from .decoding import ApproxHMM, SubtagHMM
from .model import MODEL_VERSION_V2, HMMDPSettings, TaggedSequence, train_hmm
from .words import WordVocab

install_extensions()

SOURCE = "phi_hmm"
# cfg keys that describe the trained model, restored by from_bytes /
# from_disk; the prediction settings keep the component's config.
MODEL_KEYS = ("labels", "model_version", "word_classes", "hmm")

DEFAULT_MODEL = {"@architectures": MODEL_VERSION_V2}

logger = logging.getLogger(__name__)


@Language.factory(
    "phi_hmm",
    # doc.ents: merged with (no spans_key); doc.spans: known non-PHI.
    requires=[SENTS, ENTS, SPAN_GROUPS],
    assigns=[ENTS, SPAN_GROUPS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES],
    default_config={
        "model": DEFAULT_MODEL,
        "overwrite_ents": False,
        "protected_labels": [],
        "spans_key": None,
        "recall_bias": 0.0,
        "thresholds": {},
        "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
    },
    default_score_weights=dict(PHI_SCORE_WEIGHTS),
)
def make_phi_hmm(
    nlp: Language,
    name: str,
    model: HMMDPSettings,
    overwrite_ents: bool,
    protected_labels: List[str],
    spans_key: Optional[str],
    recall_bias: float,
    thresholds: Dict[str, float],
    scorer: Optional[Callable],
) -> "PhiHMM":
    """Create a PhiHMM (factory "phi_hmm"). Training happens in
    `initialize`; see the module docstring.

    model (HMMDPSettings): The model settings (`spacy_deid.HMMDP.v2` by
        default; v1 still loads and trains).
    overwrite_ents (bool): As in `phi_ner`: False keeps entities set by
        earlier components and adds model spans only where they overlap none.
    protected_labels (List[str]): As in `phi_ner` (with overwrite_ents).
    spans_key (Optional[str]): None: write `doc.ents`; a key: write the
        spans to `doc.spans[spans_key]` and leave `doc.ents` alone.
    recall_bias (float): Added to every non-"O" tag's log-emission before
        decoding and marginals: > 0 flags more tokens, < 0 fewer.
    thresholds (Dict[str, float]): Minimum `phi_score` per label, "*" for
        all other labels. Default: none.
    scorer (Optional[Callable]): The scoring method.
    """
    return PhiHMM(
        nlp.vocab,
        name,
        model=model,
        overwrite_ents=overwrite_ents,
        protected_labels=protected_labels,
        spans_key=spans_key,
        recall_bias=recall_bias,
        thresholds=thresholds,
        scorer=scorer,
    )


class PhiHMM(CfgModelSerializable, BiluoTagger, Pipe):
    """An HMM-DP tagger for PHI with BILUO-constrained decoding: the shared
    BILUO tagger (`tagging.tagger`) with the log-probabilities of the
    approximating tag HMM as emission and transition scores.

    Not trainable by `nlp.update` (`is_trainable` is False): `initialize`
    trains the model.
    """

    source = SOURCE
    clip_probs = True
    owned_span_group = False

    def __init__(
        self,
        vocab: Vocab,
        name: str = "phi_hmm",
        *,
        model: Optional[HMMDPSettings] = None,
        overwrite_ents: bool = False,
        protected_labels: Sequence[str] = (),
        spans_key: Optional[str] = None,
        recall_bias: float = 0.0,
        thresholds: Optional[Dict[str, float]] = None,
        scorer: Optional[Callable] = score_phi,
    ) -> None:
        """Initialize the component (settings as in `make_phi_hmm`).

        vocab (Vocab): The shared vocabulary.
        name (str): The component instance name.
        """
        self.vocab = vocab
        self.name = name
        self.scorer = scorer
        settings = model if model is not None else HMMDPSettings()
        self.cfg: Dict[str, Any] = {
            "labels": [],
            "model_version": settings.architecture,
            "word_classes": settings.word_classes,
            "hmm": settings.to_dict(),
            "overwrite_ents": overwrite_ents,
            "protected_labels": protected_labels,
            "spans_key": spans_key,
            "recall_bias": recall_bias,
            "thresholds": {} if thresholds is None else thresholds,
        }
        self.cfg = _checked_cfg(self.cfg)
        self.words: Optional[WordVocab] = None
        self.hmm: Optional[Union[ApproxHMM, SubtagHMM]] = None
        # Whether prediction computes the marginals behind `phi_score`; not
        # saved (`skip_unread` turns it off in a run nobody reads them).
        self.with_scores = True

    @property
    def is_trainable(self) -> bool:
        """RETURNS (bool): False: `initialize` trains, not `nlp.update`."""
        return False

    @property
    def is_initialized(self) -> bool:
        """RETURNS (bool): Whether the component has a trained model."""
        return self.hmm is not None

    @property
    def settings(self) -> HMMDPSettings:
        """RETURNS (HMMDPSettings): The model settings."""
        return HMMDPSettings.from_dict(self.cfg["hmm"])

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Sequence[str]] = None,
    ) -> None:
        """Train the HMM-DP on all examples (see the module docstring).

        get_examples (Callable[[], Iterable[Example]]): The training examples.
        nlp (Optional[Language]): The pipeline (unused).
        labels (Optional[Sequence[str]]): Labels, e.g. from `spacy init
            labels`; gold tags with other labels are treated as missing. By
            default, the labels of the examples' gold entities.
        """
        validate_get_examples(get_examples, "PhiHMM.initialize")
        started = time.perf_counter()
        keep = None if labels is None else set(label_list(labels, "labels"))
        found: Set[str] = set()
        segments: List[TaggedSequence] = []
        for eg in get_examples():
            found.update(ent.label_ for ent in eg.reference.ents)
            segments.extend(_gold_segments(eg, keep))
        new_labels = sorted(found) if labels is None else list(labels)
        if not new_labels:
            raise ValueError(
                f"'{self.name}' has no labels: give labels to initialize() or "
                "examples with entities"
            )
        seqs = _tag_ids(segments, new_labels)
        if not seqs:
            raise ValueError(
                f"'{self.name}' found no tokens with gold tags to train on"
            )
        trained = train_hmm(seqs, len(new_labels), self.settings)
        self._set_model(trained.vocab, trained.hmm, label_list(new_labels, "labels"))
        logger.info(
            "'%s': trained on %d sequences (%d tokens), %d labels, %d words and "
            "classes, %d EM iterations, ELBO %.4f per token, in %.1fs",
            self.name,
            len(seqs),
            trained.n_tokens,
            len(new_labels),
            len(trained.vocab),
            len(trained.history),
            trained.history[-1] / max(1, trained.n_tokens),
            time.perf_counter() - started,
        )

    def _set_model(
        self, words: WordVocab, hmm: Union[ApproxHMM, SubtagHMM], labels: List[str]
    ) -> None:
        """Set the model and the labels."""
        n_tags = len(biluo_tag_names(labels))
        found = hmm.n_tags if isinstance(hmm, SubtagHMM) else hmm.emit.shape[1]
        if hmm.emit.shape[0] != len(words) or found != n_tags:
            raise ValueError(f"'{self.name}': the model does not match its labels")
        self.cfg["labels"] = list(labels)
        self.words, self.hmm = words, hmm
        for label in labels:
            self.vocab.strings.add(label)

    def _require_model(self) -> Union[ApproxHMM, SubtagHMM]:
        """The decoding HMM; a ValueError if the component has no model."""
        if self.hmm is None or self.words is None:
            raise ValueError(
                f"'{self.name}' has no trained model: train it with "
                "nlp.initialize() (or spacy train), or load a trained pipeline"
            )
        return self.hmm

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Any = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Train nothing: the HMM is trained in `initialize`, by batch
        variational EM on all the data. Examples are validated and the
        losses returned unchanged.

        examples (Iterable[Example]): The batch (unused).
        drop (float): Unused.
        sgd (Any): Unused.
        losses (Optional[Dict[str, float]]): Returned unchanged.
        RETURNS (Dict[str, float]): The losses.
        """
        validate_examples(list(examples), "PhiHMM.update")
        return {} if losses is None else losses

    def emission_scores(self, docs: Iterable[Doc]) -> List[np.ndarray]:
        """The emission scores of each token, before any recall bias: log
        p^(w | s) (v1), or the log posterior tag marginals of the doc (v2:
        the transitions then only constrain).

        docs (Iterable[Doc]): The docs.
        RETURNS (List[ndarray]): (n_tokens, n_tags) scores per doc.
        """
        hmm = self._require_model()
        assert self.words is not None
        ids = [self.words.ids([t.text for t in doc]) for doc in docs]
        if isinstance(hmm, SubtagHMM):
            return hmm.log_marginals(ids)
        return [hmm.emissions(seq) for seq in ids]

    def crf_params(self) -> CRFParams:
        """RETURNS (CRFParams): log p^(s' | s), start and end, constrained
        (v1), or the BILUO constraints alone (v2)."""
        return self._require_model().params()

    def _model_data(self) -> Dict[str, Any]:
        """The model as msgpack-able data (empty if untrained)."""
        if self.hmm is None or self.words is None:
            return {}
        return {"words": self.words.entries, "hmm": self.hmm.to_dict()}

    def _restore(self, loaded: Dict[str, Any]) -> None:
        """Check and apply loaded data: the model settings from the stored
        cfg and the model (none if the data has none)."""
        stored = loaded.get("cfg", {})
        cfg = dict(self.cfg)
        cfg.update({key: stored[key] for key in MODEL_KEYS if key in stored})
        cfg = _checked_cfg(cfg)
        settings = HMMDPSettings.from_dict(cfg["hmm"])
        for key, current in (
            ("model_version", settings.architecture),
            ("word_classes", settings.word_classes),
        ):
            if cfg[key] != current:
                raise ValueError(
                    f"'{self.name}' was saved with {key} {cfg[key]!r}; this "
                    f"version of spacy-deid has {current!r}: retrain the model"
                )  # fmt: skip
        data = loaded.get("model") or {}
        words = WordVocab(data["words"], cfg["word_classes"]) if data else None
        kind = SubtagHMM if settings.version == 2 else ApproxHMM
        hmm = kind.from_dict(data["hmm"]) if data else None
        self.cfg = cfg
        if words is not None and hmm is not None:
            self._set_model(words, hmm, cfg["labels"])
        else:
            self.words, self.hmm = None, None


def _gold_segments(eg: Example, keep: Optional[Set[str]]) -> List[TaggedSequence]:
    """(token texts, gold tag strings) of each run of tokens whose gold tag is
    known, with whether it starts and ends the doc (tags still strings)."""
    n = len(eg.predicted)
    if not n:
        return []
    tags = [known_tag(tag, keep) for tag in eg.get_aligned_ner()]
    texts = [token.text for token in eg.predicted]
    out = []
    start: Optional[int] = None
    for i, tag in enumerate(tags + [None]):
        if tag not in MISSING_TAGS and start is None:
            start = i
        elif tag in MISSING_TAGS and start is not None:
            out.append((texts[start:i], tags[start:i], start == 0, i == n))
            start = None
    return out  # type: ignore[return-value]


def _tag_ids(segments: Sequence[Any], labels: Sequence[str]) -> List[TaggedSequence]:
    """Tag strings to ids, each segment cut where its transition is illegal
    (a gold entity whose end tag went missing); a piece starts (ends) the
    doc only if its first (last) tag may."""
    names = {name: i for i, name in enumerate(biluo_tag_names(labels))}
    legal, first, last = legal_transitions(len(names))
    seqs: List[TaggedSequence] = []
    for texts, tags, starts, ends in segments:
        ids = np.array([names[tag] for tag in tags], dtype="i8")
        cuts = [0] + [i for i in range(1, len(ids)) if not legal[ids[i - 1], ids[i]]]
        for a, b in zip(cuts, cuts[1:] + [len(ids)], strict=True):
            piece = ids[a:b]
            seqs.append(
                (
                    texts[a:b],
                    piece,
                    bool(starts and a == 0 and first[piece[0]]),
                    bool(ends and b == len(ids) and last[piece[-1]]),
                )
            )
    return seqs


def _checked_cfg(cfg: Dict[str, Any]) -> Dict[str, Any]:
    """Validate the cfg and normalise its types; a ValueError names the bad
    setting."""
    cfg = dict(cfg)
    cfg["hmm"] = HMMDPSettings.from_dict(cfg["hmm"]).to_dict()
    cfg["overwrite_ents"] = bool(cfg["overwrite_ents"])
    cfg["recall_bias"] = float(cfg["recall_bias"])
    if not math.isfinite(cfg["recall_bias"]):
        raise ValueError("recall_bias must be a finite number")
    key = cfg["spans_key"]
    if key is not None and (not isinstance(key, str) or not key):
        raise ValueError("spans_key must be None or a non-empty string")
    cfg["labels"] = label_list(cfg["labels"], "labels")
    cfg["protected_labels"] = label_list(cfg["protected_labels"], "protected_labels")
    cfg["thresholds"] = check_thresholds(cfg["thresholds"])
    return cfg

"""The `phi_crf` component: a feature-based linear-chain CRF tagger (CRFsuite).

The classic de-identification baseline, built to compare with `phi_ner` in
the same harness. Tokens are described by hand-written features
(`features.py`); python-crfsuite (the optional extra `spacy-deid[crf]`)
learns a weight per (feature, BILUO tag) pair and per tag transition.

Training happens in `initialize`, because CRFsuite trains on the whole data
set at once: it reads every example of `get_examples()` (in `spacy train`,
the training corpus), splits each doc at the tokens whose gold tag is
missing or misaligned (None or "-" from `Example.get_aligned_ner()`) and
trains on the segments, so a missing tag is never taught as "O". `update`
trains nothing; a `spacy train` config sets `max_steps` to a small number,
and the first evaluation already scores the final model. It must keep
`[training] max_epochs` >= 0: with -1 spaCy initializes on the first 100
examples only.

Prediction never uses CRFsuite's own tagger, whose output may be illegal
BILUO. The weights are read into arrays (`CRFWeights`); a token's emission
scores are the sum of its features' rows, plus `recall_bias` on every tag
but "O"; the tags come from Viterbi under the BILUO constraints and the
spans get `span._.phi_score`, the mean CRF marginal of their tokens' tags,
and `span._.phi_source = "phi_crf"`.

The saved model holds the feature strings, i.e. the words of the training
notes: a model trained on real notes is itself PHI.
"""

import logging
import math
import time
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional
from typing import Sequence, Set, Tuple, Union

import numpy as np
import srsly
from spacy import util
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.util import SimpleFrozenList
from spacy.vocab import Vocab

from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, SCORES, SENTS, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..core.scorers import PHI_SCORE_WEIGHTS, score_phi
from ..tagging.crf import CRFParams, biluo_tag_names
from ..tagging.segments import MAX_DOC_TOKENS
from ..tagging.spans import check_thresholds
from ..tagging.gold import MISSING_TAGS, known_tag, label_list
from ..tagging.tagger import BiluoTagger
from ._crfsuite import ALGORITHMS, CRFWeights, new_trainer, require_crfsuite
from ._crfsuite import train_to_bytes
from .features import FEATURES_VERSION, Lexicon, LexiconMatcher, default_lexicons
from .features import doc_features

install_extensions()

SOURCE = "phi_crf"
# cfg keys that describe the trained model. from_bytes / from_disk restore
# them; the prediction settings keep the values the component was created
# with (its config), so `spacy.load(path, config=...)` can change them.
MODEL_KEYS = (
    "labels",
    "features_version",
    "window",
    "dictionaries",
    "algorithm",
    "c1",
    "c2",
    "max_iterations",
    "all_possible_transitions",
    "min_freq",
)

logger = logging.getLogger(__name__)


@Language.factory(
    "phi_crf",
    # doc.ents: merged with (no spans_key); doc.spans: known non-PHI.
    requires=[SENTS, ENTS, SPAN_GROUPS],
    assigns=[ENTS, SPAN_GROUPS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES],
    default_config={
        "window": 2,
        "dictionaries": True,
        "algorithm": "lbfgs",
        "c1": 0.1,
        "c2": 0.01,
        "max_iterations": 100,
        "all_possible_transitions": True,
        "min_freq": 0.0,
        "overwrite_ents": False,
        "protected_labels": [],
        "spans_key": None,
        "recall_bias": 0.0,
        "thresholds": {},
        "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
    },
    default_score_weights=dict(PHI_SCORE_WEIGHTS),
)
def make_phi_crf(
    nlp: Language,
    name: str,
    window: int,
    dictionaries: bool,
    algorithm: str,
    c1: float,
    c2: float,
    max_iterations: int,
    all_possible_transitions: bool,
    min_freq: float,
    overwrite_ents: bool,
    protected_labels: List[str],
    spans_key: Optional[str],
    recall_bias: float,
    thresholds: Dict[str, float],
    scorer: Optional[Callable],
) -> "PhiCRF":
    """Create a PhiCRF (factory "phi_crf"). Training happens in
    `initialize`; see the module docstring.

    window (int): Neighbours on each side whose word, lowercase and shape
        are features of a token.
    dictionaries (bool): Add the lexicon-membership features ("dict=").
    algorithm (str): CRFsuite training algorithm: "lbfgs" (default),
        "l2sgd", "ap", "pa" or "arow".
    c1 (float): L1 regularisation ("lbfgs" only).
    c2 (float): L2 regularisation ("lbfgs" and "l2sgd").
    max_iterations (int): Maximum training iterations.
    all_possible_transitions (bool): Learn weights for transitions that the
        training data never shows (CRFsuite's feature.possible_transitions).
    min_freq (float): Drop (feature, tag) pairs seen fewer times than this
        (CRFsuite's feature.minfreq; 0: keep all). Raising it also keeps
        rare words of the training notes out of the saved model.
    overwrite_ents (bool): As in `phi_ner`: False keeps entities set by
        earlier components and adds model spans only where they overlap none.
    protected_labels (List[str]): As in `phi_ner` (with overwrite_ents).
    spans_key (Optional[str]): None: write `doc.ents`; a key: write the
        spans to `doc.spans[spans_key]` and leave `doc.ents` alone.
    recall_bias (float): Added to every non-"O" tag's emission score before
        decoding and marginals: > 0 flags more tokens, < 0 fewer.
    thresholds (Dict[str, float]): Minimum `phi_score` per label, "*" for
        all other labels; spans scoring lower are dropped. Default: none.
    scorer (Optional[Callable]): The scoring method.
    """
    return PhiCRF(
        nlp.vocab,
        name,
        window=window,
        dictionaries=dictionaries,
        algorithm=algorithm,
        c1=c1,
        c2=c2,
        max_iterations=max_iterations,
        all_possible_transitions=all_possible_transitions,
        min_freq=min_freq,
        overwrite_ents=overwrite_ents,
        protected_labels=protected_labels,
        spans_key=spans_key,
        recall_bias=recall_bias,
        thresholds=thresholds,
        scorer=scorer,
    )


class PhiCRF(BiluoTagger, Pipe):
    """A CRFsuite feature CRF tagger for PHI with BILUO-constrained decoding:
    the shared BILUO tagger (`tagging.tagger`) with emission scores from
    hand-written features.

    Not trainable by `nlp.update` (`is_trainable` is False): `initialize`
    trains the model.
    """

    source = SOURCE
    clip_probs = True
    owned_span_group = False

    def __init__(
        self,
        vocab: Vocab,
        name: str = "phi_crf",
        *,
        window: int = 2,
        dictionaries: bool = True,
        algorithm: str = "lbfgs",
        c1: float = 0.1,
        c2: float = 0.01,
        max_iterations: int = 100,
        all_possible_transitions: bool = True,
        min_freq: float = 0.0,
        overwrite_ents: bool = False,
        protected_labels: Sequence[str] = (),
        spans_key: Optional[str] = None,
        recall_bias: float = 0.0,
        thresholds: Optional[Dict[str, float]] = None,
        scorer: Optional[Callable] = score_phi,
    ) -> None:
        """Initialize the component (settings as in `make_phi_crf`).

        vocab (Vocab): The shared vocabulary.
        name (str): The component instance name.
        """
        require_crfsuite()
        self.vocab = vocab
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": [],
            "features_version": FEATURES_VERSION,
            "window": window,
            "dictionaries": dictionaries,
            "algorithm": algorithm,
            "c1": c1,
            "c2": c2,
            "max_iterations": max_iterations,
            "all_possible_transitions": all_possible_transitions,
            "min_freq": min_freq,
            "overwrite_ents": overwrite_ents,
            "protected_labels": protected_labels,
            "spans_key": spans_key,
            "recall_bias": recall_bias,
            "thresholds": {} if thresholds is None else thresholds,
        }
        self.cfg = _checked_cfg(self.cfg)
        self.lexicons: Tuple[Lexicon, ...] = default_lexicons() if dictionaries else ()
        self._matcher = self._make_matcher()
        self.model_bytes: Optional[bytes] = None
        self._weights: Optional[CRFWeights] = None
        # Whether prediction computes the marginals behind `phi_score` (always
        # with `thresholds`). Not saved: a run in which nothing reads the
        # scores turns it off (`skip_unread`).
        self.with_scores = True

    @property
    def is_initialized(self) -> bool:
        """RETURNS (bool): Whether the component has a trained model."""
        return self._weights is not None

    def _make_matcher(self) -> Optional[LexiconMatcher]:
        """The lexicon matcher for the "dict=" features (None if disabled)."""
        if not self.cfg["dictionaries"]:
            return None
        return LexiconMatcher(self.lexicons)

    def featurize(self, doc: Doc) -> List[List[str]]:
        """The feature strings of a doc's tokens, per the component's window
        and dictionary settings.

        doc (Doc): The doc.
        RETURNS (List[List[str]]): Features per token.
        """
        return doc_features(doc, window=self.cfg["window"], matcher=self._matcher)

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Sequence[str]] = None,
    ) -> None:
        """Train the CRF on all examples (see the module docstring).

        get_examples (Callable[[], Iterable[Example]]): The training examples.
        nlp (Optional[Language]): The pipeline (unused).
        labels (Optional[Sequence[str]]): Labels, e.g. from `spacy init
            labels`; gold tags with other labels are treated as missing. By
            default, the labels of the examples' gold entities.
        """
        validate_get_examples(get_examples, "PhiCRF.initialize")
        started = time.perf_counter()
        keep = None if labels is None else set(label_list(labels, "labels"))
        trainer = new_trainer(self.cfg)
        found: Set[str] = set()
        n_seqs = n_tokens = 0
        for eg in get_examples():
            found.update(ent.label_ for ent in eg.reference.ents)
            for xseq, yseq in self._training_sequences(eg, keep):
                trainer.append(xseq, yseq)
                n_seqs += 1
                n_tokens += len(yseq)
        new_labels = sorted(found) if labels is None else list(labels)
        if not new_labels:
            raise ValueError(
                f"'{self.name}' has no labels: give labels to initialize() or "
                "examples with entities"
            )
        if not n_seqs:
            raise ValueError(
                f"'{self.name}' found no tokens with gold tags to train on"
            )
        label_list(new_labels, "labels")
        self._set_model(train_to_bytes(trainer), new_labels)
        logger.info(
            "'%s': trained on %d sequences (%d tokens), %d labels, %d features "
            "in %.1fs",
            self.name,
            n_seqs,
            n_tokens,
            len(new_labels),
            len(self._require_weights().rows),
            time.perf_counter() - started,
        )

    def _training_sequences(
        self, eg: Example, keep: Optional[Set[str]]
    ) -> Iterator[Tuple[List[List[str]], List[str]]]:
        """(features, gold tags) of each run of tokens with known gold tags.
        Features are computed on the whole doc, so that the window sees
        across a missing token."""
        if not len(eg.predicted):
            return
        tags = [known_tag(tag, keep) for tag in eg.get_aligned_ner()]
        feats = self.featurize(eg.predicted)
        for start, end in gold_segments(tags):
            yield feats[start:end], tags[start:end]

    def _set_model(self, data: bytes, labels: List[str]) -> None:
        """Read the model's weights, then set the model and labels."""
        weights = CRFWeights.from_model(data, biluo_tag_names(labels))
        self.cfg["labels"] = list(labels)
        self.model_bytes = data
        self._weights = weights
        for label in labels:
            self.vocab.strings.add(label)

    def _require_weights(self) -> CRFWeights:
        """The weights; a ValueError if the component has no model."""
        if self._weights is None:
            raise ValueError(
                f"'{self.name}' has no trained model: train it with "
                "nlp.initialize() (or spacy train), or load a trained pipeline"
            )
        return self._weights

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Any = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Train nothing: the CRF is trained in `initialize`, on all the data
        at once. Examples are validated and the losses returned unchanged.

        examples (Iterable[Example]): The batch (unused).
        drop (float): Unused.
        sgd (Any): Unused.
        losses (Optional[Dict[str, float]]): Returned unchanged.
        RETURNS (Dict[str, float]): The losses.
        """
        validate_examples(list(examples), "PhiCRF.update")
        return {} if losses is None else losses

    def emission_scores(self, docs: Iterable[Doc]) -> List[np.ndarray]:
        """The emission scores of the docs' features, before any recall bias.

        docs (Iterable[Doc]): The docs.
        RETURNS (List[ndarray]): (n_tokens, n_tags) scores per doc.
        """
        weights = self._require_weights()
        return [weights.emissions(self.featurize(doc)) for doc in docs]

    def crf_params(self) -> CRFParams:
        """RETURNS (CRFParams): The trained transition scores, constrained."""
        return self._require_weights().params()

    @property
    def max_doc_tokens(self) -> int:
        """RETURNS (int): Docs longer than this are predicted in pieces."""
        return MAX_DOC_TOKENS

    def to_bytes(self, *, exclude: Iterable[str] = SimpleFrozenList()) -> bytes:
        """Serialize the cfg, the lexicons and the CRFsuite model.

        exclude (Iterable[str]): Serialization fields to leave out.
        RETURNS (bytes): The serialized component.
        """
        serializers = {
            "cfg": lambda: srsly.json_dumps(self.cfg),
            "lexicons": lambda: srsly.json_dumps(self._lexicon_data()),
            "model": lambda: self.model_bytes or b"",
        }
        return util.to_bytes(serializers, exclude)

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "PhiCRF":
        """Load the component from bytes (see `MODEL_KEYS` for which settings
        are restored). Nothing changes if the data is invalid.

        bytes_data (bytes): Data from `to_bytes`.
        exclude (Iterable[str]): Serialization fields to leave out.
        RETURNS (PhiCRF): The component.
        """
        loaded: Dict[str, Any] = {}
        deserializers = {
            "cfg": lambda b: loaded.update(cfg=srsly.json_loads(b)),
            "lexicons": lambda b: loaded.update(lexicons=srsly.json_loads(b)),
            "model": lambda b: loaded.update(model=b),
        }
        util.from_bytes(bytes_data, deserializers, exclude)
        self._restore(loaded)
        return self

    def to_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> None:
        """Save the cfg, the lexicons and the CRFsuite model file ("model",
        not written for an untrained component) to a directory.

        path (Union[str, Path]): The directory.
        exclude (Iterable[str]): Serialization fields to leave out.
        """
        serializers = {
            "cfg": lambda p: srsly.write_json(p, self.cfg),
            "lexicons": lambda p: srsly.write_json(p, self._lexicon_data()),
            "model": self._write_model,
        }
        util.to_disk(util.ensure_path(path), serializers, exclude)

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = SimpleFrozenList()
    ) -> "PhiCRF":
        """Load the component from a directory written by `to_disk` (as
        `from_bytes`).

        path (Union[str, Path]): The directory.
        exclude (Iterable[str]): Serialization fields to leave out.
        RETURNS (PhiCRF): The component.
        """
        loaded: Dict[str, Any] = {}

        def read(key: str, reader: Callable[[Path], Any]) -> Callable[[Path], None]:
            def load(p: Path) -> None:
                if p.exists():
                    loaded[key] = reader(p)

            return load

        deserializers = {
            "cfg": read("cfg", srsly.read_json),
            "lexicons": read("lexicons", srsly.read_json),
            "model": read("model", Path.read_bytes),
        }
        util.from_disk(util.ensure_path(path), deserializers, exclude)
        self._restore(loaded)
        return self

    def _write_model(self, path: Path) -> None:
        """Write the model file, or remove a stale one if untrained."""
        if self.model_bytes:
            path.write_bytes(self.model_bytes)
        else:
            path.unlink(missing_ok=True)

    def _lexicon_data(self) -> List[Dict[str, Any]]:
        return [lexicon.to_dict() for lexicon in self.lexicons]

    def _restore(self, loaded: Dict[str, Any]) -> None:
        """Check and apply loaded data: the model settings from the stored
        cfg, the lexicons and the model (none if the data has none)."""
        stored = loaded.get("cfg", {})
        cfg = dict(self.cfg)
        cfg.update({key: stored[key] for key in MODEL_KEYS if key in stored})
        if cfg["features_version"] != FEATURES_VERSION:
            raise ValueError(
                f"'{self.name}' was saved with features "
                f"{cfg['features_version']!r}; this version of spacy-deid "
                f"computes {FEATURES_VERSION!r}: retrain the model"
            )
        cfg = _checked_cfg(cfg)
        lexicons = self.lexicons
        if "lexicons" in loaded:
            lexicons = tuple(Lexicon.from_dict(d) for d in loaded["lexicons"])
        if cfg["dictionaries"] and not lexicons:
            lexicons = default_lexicons()
        model = loaded.get("model") or None
        weights = None
        if model is not None:
            weights = CRFWeights.from_model(model, biluo_tag_names(cfg["labels"]))
        self.cfg, self.lexicons = cfg, lexicons
        self._matcher = self._make_matcher()
        self.model_bytes, self._weights = model, weights
        for label in cfg["labels"]:
            self.vocab.strings.add(label)


def gold_segments(tags: Sequence[Optional[str]]) -> List[Tuple[int, int]]:
    """The runs of tokens whose gold tag is known.

    tags (Sequence[Optional[str]]): Gold tags; None, "" or "-" is missing.
    RETURNS (List[Tuple[int, int]]): (start, end) of each non-empty run.
    """
    segments = []
    start = None
    for i, tag in enumerate(list(tags) + [None]):
        known = tag not in MISSING_TAGS
        if known and start is None:
            start = i
        elif not known and start is not None:
            segments.append((start, i))
            start = None
    return segments


def _checked_cfg(cfg: Dict[str, Any]) -> Dict[str, Any]:
    """Validate the cfg and normalise its types; a ValueError names the bad
    setting."""
    cfg = dict(cfg)
    if cfg["algorithm"] not in ALGORITHMS:
        raise ValueError(f"algorithm must be one of {ALGORITHMS}")
    for key in ("window", "max_iterations"):
        if isinstance(cfg[key], bool) or int(cfg[key]) != cfg[key]:
            raise ValueError(f"{key} must be an integer")
        cfg[key] = int(cfg[key])
    if cfg["window"] < 0 or cfg["max_iterations"] < 1:
        raise ValueError("window must be >= 0 and max_iterations >= 1")
    for key in ("c1", "c2", "min_freq"):
        cfg[key] = float(cfg[key])
        if not cfg[key] >= 0:
            raise ValueError(f"{key} must be >= 0")
    for key in ("dictionaries", "all_possible_transitions", "overwrite_ents"):
        cfg[key] = bool(cfg[key])
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

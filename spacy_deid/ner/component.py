"""The `phi_ner` component: a character-aware BiLSTM-CRF entity tagger.

The model (`spacy_deid.CharBiLSTMCRF.v1`) gives BILUO emission scores per
token; a linear-chain CRF with learned transitions and the BILUO constraints
(see `crf.py`) turns them into a loss for training and, by constrained Viterbi
decoding, into a legal tag sequence, so every prediction is a valid span set.
Gold tags that are missing or misaligned (None or "-" from
`Example.get_aligned_ner()`) are trained as unknown with a partial CRF, never
as "O".

With `loss = "softmax"` (the "no CRF" ablation) the emission scores are
trained with per-token cross-entropy instead and the CRF scores are unused:
decoding is Viterbi over the log-softmax emissions with the BILUO constraints
alone, so predictions are still valid span sets.

Each predicted span gets `span._.phi_source = "phi_ner"` and
`span._.phi_score`, the mean (`score_reduce = "mean"`, default) or minimum
(`"min"`) over its tokens of the probability of the token's decoded tag: its
CRF marginal, or its softmax probability with `loss = "softmax"`.

Recall control, read from `self.cfg` at prediction time (so that it can be
changed on a loaded pipeline, e.g. `nlp.get_pipe("phi_ner").cfg["recall_bias"]
= 2.0`):

- `recall_bias` is added to the emission score of every non-"O" tag before
  decoding and before the probabilities are computed: > 0 flags more tokens
  (higher recall), < 0 fewer. The number of non-"O" tokens of the decoded
  path never decreases as the bias grows (the bias adds `bias * n_non_O` to
  every path's score).
- `thresholds` drops spans whose `phi_score` is below their label's minimum
  ("*": labels without their own key) before they are merged.
- `spans_key` writes the spans to `doc.spans[spans_key]` instead of merging
  them into `doc.ents`, for a later component that combines several sources.
"""

from itertools import islice
from pathlib import Path
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple
from typing import Union

import numpy as np
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate
from thinc.types import Floats2d

from ..core.cfg_io import load_overrides
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, SCORES, SENTS, SOURCE_ATTR
from ..core.extensions import SPAN_GROUPS, install_extensions
from ..core.scorers import PHI_SCORE_WEIGHTS, score_phi
from ..labels import NOT_PHI_KEY
from ..tagging.crf import CRFGrads, CRFParams, constraint_params, crf_loss
from ..tagging.crf import length_groups, log_softmax, pad_batch, softmax_loss
from ..tagging.segments import MAX_DOC_TOKENS, listens_upstream
from ..tagging.spans import check_recall_bias, check_thresholds
from ..tagging.tagger import BiluoTagger
from ._crf_layer import get_crf_params
from ._word_cache import clear_word_cache

install_extensions()

SOURCE = "phi_ner"
SCORE_REDUCERS = ("mean", "min")
LOSSES = ("crf", "softmax")
MISSING = -1
# Run the model on at most this many tokens at once. The token BiLSTM runs
# packed (see `tagging.packing`), so its memory grows with the number of
# tokens, not with n_docs * longest; a runner batch of 64 notes is one group,
# so each time step runs on every note still running. Grouping changes the
# emission scores only by float rounding (~1e-5). Decoding is grouped in
# `tagging.tagger` (MAX_CRF_TOKENS).
MAX_PREDICT_TOKENS = 32768
# Recall settings, read at prediction time. A model saved before they existed
# loads with the constructor's values (these defaults unless configured).
RECALL_DEFAULTS: Dict[str, Any] = {
    "recall_bias": 0.0,
    "thresholds": {},
    "spans_key": None,
}

DEFAULT_MODEL_CONFIG = """
[model]
@architectures = "spacy_deid.CharBiLSTMCRF.v1"
hidden_width = 100
depth = 1
dropout = 0.5
nO = null

[model.char_embed]
@architectures = "spacy_deid.CharBiLSTMEmbed.v1"
width = 25
hidden_width = 25
max_chars = 25

[model.features]
@architectures = "spacy_deid.TokenFeatures.v1"
width = 100
attrs = ["NORM", "PREFIX", "SUFFIX", "SHAPE"]
rows = [5000, 2500, 2500, 2500]
include_static_vectors = false
"""
DEFAULT_MODEL = Config().from_str(DEFAULT_MODEL_CONFIG)["model"]


@Language.factory(
    "phi_ner",
    # doc.ents: merged with (no spans_key); doc.spans: known non-PHI.
    requires=[SENTS, ENTS, SPAN_GROUPS],
    assigns=[ENTS, SPAN_GROUPS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES],
    default_config={
        "model": DEFAULT_MODEL,
        "overwrite_ents": False,
        "protected_labels": [],
        "grow_protected": False,
        "score_reduce": "mean",
        "loss": "crf",
        "recall_bias": 0.0,
        "thresholds": {},
        "spans_key": None,
        "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
    },
    default_score_weights=dict(PHI_SCORE_WEIGHTS),
)
def make_phi_ner(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    overwrite_ents: bool,
    protected_labels: List[str],
    grow_protected: bool,
    score_reduce: str,
    loss: str,
    recall_bias: float,
    thresholds: Dict[str, float],
    spans_key: Optional[str],
    scorer: Optional[Callable],
) -> "PhiEntityRecognizer":
    """Create a PhiEntityRecognizer (factory "phi_ner").

    model (Model[List[Doc], List[Floats2d]]): BILUO emission scores per token,
        with a "crf" ref (spacy_deid.CharBiLSTMCRF.v1).
    overwrite_ents (bool): False: keep entities set by earlier components and
        add model spans only where they overlap none; True: model spans win
        and overlapping earlier entities are removed, except those with a
        protected label.
    protected_labels (List[str]): With overwrite_ents = True, earlier
        entities with one of these labels always win: model spans overlapping
        them are dropped. Other earlier entities are removed (whole) only if
        a model span that is written overlaps them. Non-overlapping spans of
        both are kept. Unused with overwrite_ents = False. Default: none.
    grow_protected (bool): With overwrite_ents = True, a protected entity
        and the model spans of its own label that overlap it and reach past
        it become one span (a rule's "May" in the model's "May. 8th 2100"),
        so the model's extra tokens are not lost. Default: False.
    score_reduce (str): "mean" or "min" of the token probabilities for
        `span._.phi_score`.
    loss (str): "crf" (default): partial-CRF training and CRF decoding;
        "softmax": per-token cross-entropy and Viterbi over log-softmax
        emissions with the BILUO constraints only (the "no CRF" ablation).
    recall_bias (float): Added to the emission score of every non-"O" tag
        before decoding and before the tag probabilities (`phi_score`) are
        computed: > 0 flags more tokens (higher recall), < 0 fewer. Default 0.
    thresholds (Dict[str, float]): Minimum `phi_score` in [0, 1] per label;
        "*" for the labels without their own key. Spans scoring below are
        dropped before merging. Default: none. In a config file write it
        inline: `thresholds = {"*": 0.3, "DATE": 0.5}`.
    spans_key (Optional[str]): None (default): merge the spans into
        `doc.ents` per overwrite_ents and protected_labels. A key: write the
        spans to `doc.spans[spans_key]` and leave `doc.ents` unchanged (for a
        later component that combines several sources; overwrite_ents and
        protected_labels are then unused). A non-empty group of another
        component under that key is an error, never overwritten.
    scorer (Optional[Callable]): The scoring method.
    """
    return PhiEntityRecognizer(
        nlp.vocab,
        model,
        name,
        overwrite_ents=overwrite_ents,
        protected_labels=protected_labels,
        grow_protected=grow_protected,
        score_reduce=score_reduce,
        loss=loss,
        recall_bias=recall_bias,
        thresholds=thresholds,
        spans_key=spans_key,
        scorer=scorer,
    )


class PhiEntityRecognizer(BiluoTagger, TrainablePipe):
    """A BiLSTM-CRF named entity tagger for PHI: the shared BILUO tagger
    (`tagging.tagger`) with emission scores from a thinc model."""

    source = SOURCE

    def __init__(
        self,
        vocab: Vocab,
        model: Model[List[Doc], List[Floats2d]],
        name: str = "phi_ner",
        *,
        overwrite_ents: bool = False,
        protected_labels: Sequence[str] = (),
        grow_protected: bool = False,
        score_reduce: str = "mean",
        loss: str = "crf",
        recall_bias: float = 0.0,
        thresholds: Optional[Dict[str, float]] = None,
        spans_key: Optional[str] = None,
        scorer: Optional[Callable] = score_phi,
    ) -> None:
        """Initialize the component.

        vocab (Vocab): The shared vocabulary.
        model (Model): The emission model with a "crf" ref.
        name (str): The component instance name.
        overwrite_ents (bool): Whether model spans replace earlier entities.
        protected_labels (Sequence[str]): Labels of earlier entities that
            model spans never replace (see `make_phi_ner`).
        grow_protected (bool): Whether a protected entity grows over the
            model spans of its label (see `make_phi_ner`).
        score_reduce (str): "mean" or "min" (see `make_phi_ner`).
        loss (str): "crf" or "softmax" (see `make_phi_ner`).
        recall_bias (float): Added to the non-"O" emission scores.
        thresholds (Optional[Dict[str, float]]): Minimum `phi_score` per label
            ("*": the others).
        spans_key (Optional[str]): Write to `doc.spans[spans_key]` instead of
            `doc.ents` (see `make_phi_ner`).
        scorer (Optional[Callable]): The scoring method.
        """
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": [],
            "overwrite_ents": bool(overwrite_ents),
            "protected_labels": _label_list(protected_labels),
            "grow_protected": bool(grow_protected),
            "score_reduce": score_reduce,
            "loss": loss,
            "recall_bias": recall_bias,
            "thresholds": {} if thresholds is None else thresholds,
            "spans_key": spans_key,
        }
        _check_cfg(self.cfg)
        # Whether prediction computes the probabilities behind `phi_score`
        # (always with `thresholds`). Not saved: a run in which nothing reads
        # the scores turns it off (`skip_unread`).
        self.with_scores = True

    def add_label(self, label: str) -> int:
        """Add an entity label before the model is initialized.

        label (str): The label.
        RETURNS (int): 0 if the label was already present, else 1.
        """
        if not isinstance(label, str):
            raise ValueError("phi_ner labels must be strings")
        if label in self.labels:
            return 0
        if self.model.get_ref("output").has_dim("nO"):
            raise ValueError(
                f"Cannot add a label to '{self.name}' after its model was "
                "initialized; re-initialize the pipeline instead"
            )
        self.cfg["labels"].append(label)
        self.vocab.strings.add(label)
        return 1

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
        labels: Optional[Sequence[str]] = None,
    ) -> None:
        """Set the labels and initialize the model.

        get_examples (Callable[[], Iterable[Example]]): Training examples.
        nlp (Optional[Language]): The pipeline (unused).
        labels (Optional[Sequence[str]]): Labels, e.g. from `spacy init
            labels`; by default collected from the examples' gold entities.
        """
        validate_get_examples(get_examples, "PhiEntityRecognizer.initialize")
        if labels is None:
            found = {ent.label_ for eg in get_examples() for ent in eg.reference.ents}
            labels = sorted(found)
        for label in labels:
            self.add_label(label)
        if not self.labels:
            raise ValueError(
                f"'{self.name}' has no labels: give labels to initialize() or "
                "examples with entities"
            )
        _check_cfg(self.cfg)
        n_tags = len(self.tag_names)
        self.model.get_ref("output").set_dim("nO", n_tags)
        self.model.get_ref("crf").set_dim("nO", n_tags)
        sample = [eg.predicted for eg in islice(get_examples(), 10)]
        self.model.initialize(X=sample)

    def emission_scores(self, docs: Iterable[Doc]) -> List[Floats2d]:
        """The model's emission scores, before any recall bias. With `decode`,
        a sweep over settings read at decoding time (e.g. recall_bias) runs
        the model once.

        docs (Iterable[Doc]): The docs.
        RETURNS (List[Floats2d]): (n_tokens, n_tags) scores per doc.
        """
        docs = list(docs)
        n_tags = len(self.tag_names)
        scores = [self.model.ops.alloc2f(0, n_tags) for _ in docs]
        lengths = [len(doc) for doc in docs]
        for group in length_groups(lengths, MAX_PREDICT_TOKENS, packed=True):
            group_scores = self.model.predict([docs[i] for i in group])
            for i, doc_scores in zip(group, group_scores, strict=True):
                scores[i] = doc_scores
        return scores

    def whole_docs(self) -> bool:
        """RETURNS (bool): True for a model that listens to an upstream
        component (whose output pieces of a doc lack)."""
        return listens_upstream(self.model)

    @property
    def max_doc_tokens(self) -> int:
        """RETURNS (int): Docs longer than this are predicted in pieces."""
        return MAX_DOC_TOKENS

    def to_numpy(self, scores: Floats2d) -> np.ndarray:
        """RETURNS (ndarray): Emission scores as a numpy array."""
        return self.model.ops.to_numpy(scores)

    def crf_params(self) -> CRFParams:
        """The learned CRF scores, or the BILUO constraints alone for the
        softmax loss.

        RETURNS (CRFParams): The constrained scores to decode with.
        """
        if self.cfg["loss"] == "softmax":
            return constraint_params(len(self.tag_names))
        return get_crf_params(self.model.get_ref("crf"))

    def decoding_scores(self, scores: Floats2d) -> np.ndarray:
        """The biased emission scores (see `BiluoTagger.decoding_scores`), as
        log-softmax probabilities for the softmax loss.

        scores (Floats2d): (n_tokens, n_tags) emission scores.
        RETURNS (ndarray): The scores decoded.
        """
        biased = super().decoding_scores(scores)
        if self.cfg["loss"] == "softmax":
            # Renormalised: log_softmax(E + b) differs from log_softmax(E) + b
            # by a constant per token, so the best path is the same.
            return log_softmax(biased)
        return biased

    def tag_probs(self, seqs: List[np.ndarray], params: CRFParams) -> List[np.ndarray]:
        """CRF marginals, or softmax probabilities (cfg "loss").

        seqs (List[ndarray]): Decoding scores (n_tokens, K) per doc.
        params (CRFParams): The CRF scores.
        RETURNS (List[ndarray]): (n_tokens, K) probabilities per doc.
        """
        if self.cfg["loss"] == "softmax":
            return [np.exp(seq) for seq in seqs]
        return super().tag_probs(seqs, params)

    def annotation_settings(self) -> Tuple[Dict[str, float], Optional[str]]:
        """RETURNS (Tuple[Dict[str, float], Optional[str]]): The thresholds
        and spans key, checked again (the cfg may have changed since)."""
        thresholds = check_thresholds(self.cfg["thresholds"], self.labels)
        return thresholds, _check_spans_key(self.cfg["spans_key"])

    def gold_tag_ids(self, example: Example) -> np.ndarray:
        """Gold tag ids aligned to the predicted tokens; MISSING (-1) where the
        gold tag is None, "-" or has a label the component does not know.

        example (Example): The example.
        RETURNS (ndarray): Tag ids (n_tokens,).
        """
        index = {tag: i for i, tag in enumerate(self.tag_names)}
        tags = example.get_aligned_ner()
        return np.array([index.get(tag, MISSING) for tag in tags], dtype="i8")

    def _loss_and_grads(
        self, examples: List[Example], scores: List[Floats2d]
    ) -> Tuple[CRFGrads, List[Floats2d]]:
        """Run the partial CRF, or the softmax loss (cfg "loss"), on a batch
        (empty docs get zero gradients)."""
        keep = [i for i, eg in enumerate(examples) if len(eg.predicted)]
        emissions, lengths = pad_batch(
            [self.model.ops.to_numpy(scores[i]) for i in keep], len(self.tag_names)
        )
        gold = np.full(emissions.shape[:2], MISSING, dtype="i8")
        for row, i in enumerate(keep):
            gold[row, : lengths[row]] = self.gold_tag_ids(examples[i])
        if self.cfg["loss"] == "softmax":
            grads = softmax_loss(emissions, lengths, gold)
        else:
            crf = get_crf_params(self.model.get_ref("crf"))
            grads = crf_loss(emissions, lengths, gold, crf)
        d_scores = [self.model.ops.alloc2f(*s.shape) for s in scores]
        for row, i in enumerate(keep):
            d_scores[i] = self.model.ops.asarray2f(
                grads.d_emissions[row, : lengths[row]]
            )
        return grads, d_scores

    def get_loss(
        self, examples: Iterable[Example], scores: List[Floats2d]
    ) -> Tuple[float, List[Floats2d]]:
        """The partial-CRF (or softmax) loss and its gradient for the emission
        scores. Has no side effects; `update` also applies the transition
        gradients.

        examples (Iterable[Example]): The batch.
        scores (List[Floats2d]): Emission scores from the model.
        RETURNS (Tuple[float, List[Floats2d]]): Summed loss and d_scores.
        """
        examples = list(examples)
        validate_examples(examples, "PhiEntityRecognizer.get_loss")
        grads, d_scores = self._loss_and_grads(examples, scores)
        return float(grads.loss.sum()), d_scores

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Optional[Optimizer] = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Learn from a batch: backprop the emission gradients and add the
        transition, start and end gradients to the CRF layer (not with
        loss = "softmax", where the CRF scores are unused).

        examples (Iterable[Example]): The batch.
        drop (float): Dropout rate (sets every Dropout layer of the model).
        sgd (Optional[Optimizer]): The optimizer.
        losses (Optional[Dict[str, float]]): Updated with the loss.
        RETURNS (Dict[str, float]): The losses.
        """
        losses = {} if losses is None else losses
        losses.setdefault(self.name, 0.0)
        examples = list(examples)
        validate_examples(examples, "PhiEntityRecognizer.update")
        if not any(len(eg.predicted) for eg in examples):
            return losses
        set_dropout_rate(self.model, drop)
        docs = [eg.predicted for eg in examples]
        scores, backprop = self.model.begin_update(docs)
        grads, d_scores = self._loss_and_grads(examples, scores)
        backprop(d_scores)
        if self.cfg["loss"] == "crf":
            self._inc_crf_grads(grads)
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += float(grads.loss.sum())
        return losses

    def finish_update(self, sgd: Optimizer) -> None:
        """Update the weights and forget the token rows that the word cache
        computed with the old ones (`_word_cache`).

        sgd (Optimizer): The optimizer.
        """
        super().finish_update(sgd)
        clear_word_cache(self.model)

    def _inc_crf_grads(self, grads: CRFGrads) -> None:
        """Add the transition, start and end gradients to the CRF layer."""
        crf = self.model.get_ref("crf")
        crf.inc_grad("transitions", crf.ops.asarray2f(grads.d_transitions))
        crf.inc_grad("start", crf.ops.asarray1f(grads.d_start))
        crf.inc_grad("end", crf.ops.asarray1f(grads.d_end))

    def from_bytes(
        self, bytes_data: bytes, *, exclude: Iterable[str] = tuple()
    ) -> "PhiEntityRecognizer":
        """Load the component from bytes. Settings missing from the stored cfg
        (models saved before they existed) keep the constructor's values.

        bytes_data (bytes): The data.
        exclude (Iterable[str]): Serialization fields to leave out.
        RETURNS (PhiEntityRecognizer): The loaded component.
        """
        super().from_bytes(bytes_data, exclude=exclude)
        _fill_defaults(self.cfg)
        _check_cfg(self.cfg)
        return self

    def from_disk(
        self, path: Union[str, Path], *, exclude: Iterable[str] = tuple()
    ) -> "PhiEntityRecognizer":
        """Load the component from a directory (missing settings as in
        `from_bytes`; settings given when the pipeline is loaded win over the
        stored ones: `cfg_io.load_overrides`).

        path (Union[str, Path]): The directory.
        exclude (Iterable[str]): Serialization fields to leave out.
        RETURNS (PhiEntityRecognizer): The loaded component.
        """
        before = dict(self.cfg)
        overrides = load_overrides(path, before)
        super().from_disk(path, exclude=exclude)
        self.cfg.update({key: before[key] for key in overrides})
        _fill_defaults(self.cfg)
        _check_cfg(self.cfg)
        return self


def _label_list(labels: Sequence[str]) -> List[str]:
    """Validate protected labels (a list of strings, not a string)."""
    if isinstance(labels, str) or not all(isinstance(x, str) for x in labels):
        raise ValueError("protected_labels must be a list of label strings")
    return list(labels)


def _check_spans_key(key: Any) -> Optional[str]:
    """None or a non-empty string other than the non-PHI key."""
    if key is None:
        return None
    if not isinstance(key, str) or not key:
        raise ValueError("spans_key must be None or a non-empty string")
    if key == NOT_PHI_KEY:
        raise ValueError(f"spans_key must not be '{NOT_PHI_KEY}' (known non-PHI)")
    return key


# Settings added after the first saved models, with the value they had then.
LATER_DEFAULTS: Dict[str, Any] = {**RECALL_DEFAULTS, "grow_protected": False}


def _fill_defaults(cfg: Dict[str, Any]) -> None:
    """Add the settings missing from a saved cfg with their defaults."""
    for key, value in LATER_DEFAULTS.items():
        if key not in cfg:
            cfg[key] = dict(value) if isinstance(value, dict) else value


def _check_cfg(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for an unknown loss or score_reduce, bad protected
    labels or a bad recall setting; store the recall settings normalized."""
    if cfg["loss"] not in LOSSES:
        raise ValueError(f"loss must be one of {LOSSES}, not {cfg['loss']!r}")
    if cfg["score_reduce"] not in SCORE_REDUCERS:
        raise ValueError(f"score_reduce must be one of {SCORE_REDUCERS}")
    _label_list(cfg["protected_labels"])
    if not isinstance(cfg["grow_protected"], bool):
        raise ValueError("grow_protected must be true or false")
    cfg["recall_bias"] = check_recall_bias(cfg["recall_bias"])
    cfg["thresholds"] = check_thresholds(cfg["thresholds"], cfg["labels"])
    cfg["spans_key"] = _check_spans_key(cfg["spans_key"])

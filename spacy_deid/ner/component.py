"""The `phi_ner` component: a character-aware BiLSTM-CRF entity tagger.

The model (`spacy_deid.CharBiLSTMCRF.v1`) gives BILUO emission scores per
token; a linear-chain CRF with learned transitions and the BILUO constraints
(see `crf.py`) turns them into a loss for training and, by constrained Viterbi
decoding, into a legal tag sequence, so every prediction is a valid span set.
Gold tags that are missing or misaligned (None or "-" from
`Example.get_aligned_ner()`) are trained as unknown with a partial CRF, never
as "O".

Each predicted span gets `span._.phi_source = "phi_ner"` and
`span._.phi_score`, the mean (`score_reduce = "mean"`, default) or minimum
(`"min"`) over its tokens of the CRF marginal probability of the token's
decoded tag.
"""

from itertools import islice
from typing import Any, Callable, Dict, Iterable, List, Optional, Sequence, Tuple

import numpy as np
from spacy.language import Language
from spacy.pipeline import TrainablePipe
from spacy.tokens import Doc, Span
from spacy.training import Example, validate_examples, validate_get_examples
from spacy.vocab import Vocab
from thinc.api import Config, Model, Optimizer, set_dropout_rate
from thinc.types import Floats2d

from ..extensions import install_extensions
from ..scorers import score_phi
from ._crf_layer import get_crf_params
from .crf import CRFGrads, CRFParams, biluo_tag_names, crf_loss, crf_marginals
from .crf import pad_batch, viterbi

install_extensions()

SOURCE = "phi_ner"
SCORE_REDUCERS = ("mean", "min")
MISSING = -1
# Decode at most this many (doc, token) slots of a padded batch at once.
MAX_CRF_SLOTS = 65536

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

# Predictions per doc: decoded tag ids (n_tokens,) and their marginals.
Prediction = Tuple[np.ndarray, np.ndarray]


@Language.factory(
    "phi_ner",
    assigns=["doc.ents", "token.ent_iob", "token.ent_type"],
    default_config={
        "model": DEFAULT_MODEL,
        "overwrite_ents": False,
        "score_reduce": "mean",
        "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
    },
    default_score_weights={
        "ents_f": 1.0,
        "ents_p": 0.0,
        "ents_r": 0.0,
        "ents_per_type": None,
        "phi_token_f": 0.0,
        "phi_token_p": None,
        "phi_token_r": None,
    },
)
def make_phi_ner(
    nlp: Language,
    name: str,
    model: Model[List[Doc], List[Floats2d]],
    overwrite_ents: bool,
    score_reduce: str,
    scorer: Optional[Callable],
) -> "PhiEntityRecognizer":
    """Create a PhiEntityRecognizer (factory "phi_ner").

    model (Model[List[Doc], List[Floats2d]]): BILUO emission scores per token,
        with a "crf" ref (spacy_deid.CharBiLSTMCRF.v1).
    overwrite_ents (bool): False: keep entities set by earlier components and
        add model spans only where they overlap none; True: model spans win
        and overlapping earlier entities are removed.
    score_reduce (str): "mean" or "min" of the token marginals for
        `span._.phi_score`.
    scorer (Optional[Callable]): The scoring method.
    """
    return PhiEntityRecognizer(
        nlp.vocab,
        model,
        name,
        overwrite_ents=overwrite_ents,
        score_reduce=score_reduce,
        scorer=scorer,
    )


class PhiEntityRecognizer(TrainablePipe):
    """A BiLSTM-CRF named entity tagger for PHI."""

    def __init__(
        self,
        vocab: Vocab,
        model: Model[List[Doc], List[Floats2d]],
        name: str = "phi_ner",
        *,
        overwrite_ents: bool = False,
        score_reduce: str = "mean",
        scorer: Optional[Callable] = score_phi,
    ) -> None:
        """Initialize the component.

        vocab (Vocab): The shared vocabulary.
        model (Model): The emission model with a "crf" ref.
        name (str): The component instance name.
        overwrite_ents (bool): Whether model spans replace earlier entities.
        score_reduce (str): "mean" or "min" (see `make_phi_ner`).
        scorer (Optional[Callable]): The scoring method.
        """
        if score_reduce not in SCORE_REDUCERS:
            raise ValueError(f"score_reduce must be one of {SCORE_REDUCERS}")
        self.vocab = vocab
        self.model = model
        self.name = name
        self.scorer = scorer
        self.cfg: Dict[str, Any] = {
            "labels": [],
            "overwrite_ents": bool(overwrite_ents),
            "score_reduce": score_reduce,
        }

    @property
    def labels(self) -> Tuple[str, ...]:
        """RETURNS (Tuple[str, ...]): The entity labels."""
        return tuple(self.cfg["labels"])

    @property
    def label_data(self) -> List[str]:
        """RETURNS (List[str]): The labels, for `spacy init labels`."""
        return list(self.labels)

    @property
    def tag_names(self) -> List[str]:
        """RETURNS (List[str]): The BILUO tags in model order ("O" first)."""
        return biluo_tag_names(self.labels)

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
        n_tags = len(self.tag_names)
        self.model.get_ref("output").set_dim("nO", n_tags)
        self.model.get_ref("crf").set_dim("nO", n_tags)
        sample = [eg.predicted for eg in islice(get_examples(), 10)]
        self.model.initialize(X=sample)

    def predict(self, docs: Iterable[Doc]) -> List[Prediction]:
        """Decode the best legal BILUO tags and their marginals. Docs are not
        modified.

        docs (Iterable[Doc]): The docs.
        RETURNS (List[Prediction]): (tag ids, marginals) per doc.
        """
        docs = list(docs)
        empty = np.zeros((0,), dtype="i8"), np.zeros((0,), dtype="f4")
        if not any(len(doc) for doc in docs):
            return [empty for _ in docs]
        scores = self.model.predict(docs)
        keep = [i for i, doc in enumerate(docs) if len(doc)]
        tags, probs = self._decode([scores[i] for i in keep])
        preds = [empty for _ in docs]
        for i, tag_ids, tag_probs in zip(keep, tags, probs, strict=True):
            preds[i] = tag_ids, tag_probs
        return preds

    def _decode(
        self, scores: List[Floats2d]
    ) -> Tuple[List[np.ndarray], List[np.ndarray]]:
        """Viterbi tags and their marginals, in groups of docs of similar
        length so that the padded CRF arrays stay small."""
        params = self._crf_params()
        n_tags = len(self.tag_names)
        tags: List[np.ndarray] = [np.zeros(0, dtype="i8")] * len(scores)
        probs: List[np.ndarray] = [np.zeros(0, dtype="f4")] * len(scores)
        for group in _length_groups([len(s) for s in scores], MAX_CRF_SLOTS):
            seqs = [self.model.ops.to_numpy(scores[i]) for i in group]
            emissions, lengths = pad_batch(seqs, n_tags)
            paths, _ = viterbi(emissions, lengths, params)
            marginals = crf_marginals(emissions, lengths, params)
            for row, i in enumerate(group):
                path = paths[row, : lengths[row]]
                tags[i] = path
                probs[i] = marginals[row, np.arange(len(path)), path].astype("f4")
        return tags, probs

    def _crf_params(self) -> CRFParams:
        return get_crf_params(self.model.get_ref("crf"))

    def set_annotations(self, docs: Iterable[Doc], preds: List[Prediction]) -> None:
        """Write the predicted spans to `doc.ents` per `overwrite_ents`.

        docs (Iterable[Doc]): The docs.
        preds (List[Prediction]): From `predict`.
        """
        tag_names = self.tag_names
        for doc, (tag_ids, probs) in zip(docs, preds, strict=True):
            spans = self._spans(doc, tag_ids, probs, tag_names)
            existing = list(doc.ents)
            if self.cfg["overwrite_ents"]:
                kept = [e for e in existing if not _overlaps_any(e, spans)]
                new = spans
            else:
                kept = existing
                new = [s for s in spans if not _overlaps_any(s, existing)]
            # Extension values are keyed by offsets and label: set them only
            # on the spans written, never on a discarded one.
            for span in new:
                span._.phi_source = SOURCE
                span._.phi_score = self._score(span, probs)
            ents = sorted(kept + new, key=lambda span: span.start)
            doc.set_ents(ents, default="outside")

    def _score(self, span: Span, probs: np.ndarray) -> float:
        """Mean or min of the span's token marginals (cfg "score_reduce")."""
        reduce = np.mean if self.cfg["score_reduce"] == "mean" else np.min
        return float(reduce(probs[span.start : span.end]))

    def _spans(
        self,
        doc: Doc,
        tag_ids: np.ndarray,
        probs: np.ndarray,
        tag_names: List[str],
    ) -> List[Span]:
        """Turn legal BILUO tag ids into spans."""
        prefixes = np.array([tag[0] for tag in tag_names])[tag_ids]
        starts = np.flatnonzero((prefixes == "B") | (prefixes == "U")).tolist()
        ends = (np.flatnonzero((prefixes == "L") | (prefixes == "U")) + 1).tolist()
        return [
            Span(doc, start, end, label=tag_names[tag_ids[start]][2:])
            for start, end in zip(starts, ends, strict=True)
        ]

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
        """Run the partial CRF on a batch (empty docs get zero gradients)."""
        keep = [i for i, eg in enumerate(examples) if len(eg.predicted)]
        emissions, lengths = pad_batch(
            [self.model.ops.to_numpy(scores[i]) for i in keep], len(self.tag_names)
        )
        gold = np.full(emissions.shape[:2], MISSING, dtype="i8")
        for row, i in enumerate(keep):
            gold[row, : lengths[row]] = self.gold_tag_ids(examples[i])
        grads = crf_loss(emissions, lengths, gold, self._crf_params())
        d_scores = [self.model.ops.alloc2f(*s.shape) for s in scores]
        for row, i in enumerate(keep):
            d_scores[i] = self.model.ops.asarray2f(
                grads.d_emissions[row, : lengths[row]]
            )
        return grads, d_scores

    def get_loss(
        self, examples: Iterable[Example], scores: List[Floats2d]
    ) -> Tuple[float, List[Floats2d]]:
        """The partial-CRF loss and its gradient for the emission scores. Has
        no side effects; `update` also applies the transition gradients.

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
        transition, start and end gradients to the CRF layer.

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
        crf = self.model.get_ref("crf")
        crf.inc_grad("transitions", crf.ops.asarray2f(grads.d_transitions))
        crf.inc_grad("start", crf.ops.asarray1f(grads.d_start))
        crf.inc_grad("end", crf.ops.asarray1f(grads.d_end))
        if sgd not in (None, False):
            self.finish_update(sgd)
        losses[self.name] += float(grads.loss.sum())
        return losses


def _length_groups(lengths: List[int], max_slots: int) -> List[List[int]]:
    """Group indices by decreasing length so that each group's
    `len(group) * longest` stays within max_slots (a longer item is alone).

    lengths (List[int]): Sequence lengths.
    max_slots (int): Padded size limit per group.
    RETURNS (List[List[int]]): Index groups.
    """
    groups: List[List[int]] = []
    for i in sorted(range(len(lengths)), key=lambda i: -lengths[i]):
        group = groups[-1] if groups else None
        if group and (len(group) + 1) * lengths[group[0]] <= max_slots:
            group.append(i)
        else:
            groups.append([i])
    return groups


def _overlaps_any(span: Span, others: List[Span]) -> bool:
    return any(span.start < o.end and o.start < span.end for o in others)

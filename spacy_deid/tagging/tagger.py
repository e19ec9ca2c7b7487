"""The BILUO tagger base shared by `phi_ner` and `phi_crf`.

A subclass gives the emission scores of its docs (`emission_scores`) and the
CRF scores to decode them with (`crf_params`); the base does the rest the
same way for both: long docs in pieces (`segments.py`), `recall_bias`,
constrained Viterbi decoding, the tag probabilities behind `phi_score` (CRF
marginals) unless nothing reads them, per-label `thresholds`, and writing the
spans to `doc.ents` (`ents.merge_ents`) or to `doc.spans[spans_key]`.

Run hooks (see `spacy_deid.core.extensions`): `read_from` says that sentence
starts are read only in docs longer than `MAX_DOC_TOKENS` tokens (to cut
them), and `skip_unread` turns the span scores off when nothing reads them.
"""

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional, Tuple

import numpy as np
from spacy.tokens import Doc, Span, SpanGroup
from spacy.util import minibatch

from ..core.extensions import SCORES, SENTS
from .crf import BiluoLabels, CRFParams, crf_marginals_seqs, length_groups
from .crf import viterbi_seqs
from .ents import merge_ents, write_ents
from .segments import MAX_DOC_TOKENS, Prediction, join_predictions, split_docs
from .spans import bias_emissions, biluo_spans, drop_not_phi, threshold_of

# Decoding and the CRF marginals run packed (memory in proportion to the
# tokens, every step on every doc still running), on at most MAX_CRF_TOKENS
# tokens at once: a runner batch of 64 notes is one group. This bounds the
# memory of decoding, whatever the batch size; grouping does not change the
# tags.
MAX_CRF_TOKENS = 32768


class BiluoTagger(BiluoLabels):
    """Prediction and annotation of a BILUO tagger with CRF decoding.

    Subclasses set `source` (the `span._.phi_source` of their spans) and
    `self.with_scores = True` in `__init__`, keep their settings in
    `self.cfg` ("labels", "recall_bias", "thresholds", "spans_key",
    "overwrite_ents", "protected_labels", optionally "score_reduce") and
    implement `emission_scores` and `crf_params`.
    """

    source: str = ""
    name: str
    cfg: Dict[str, Any]
    with_scores: bool
    get_error_handler: Callable[[], Callable[..., Any]]
    # Clip the probabilities to [0, 1] (float rounding can leave a CRF
    # marginal a hair above 1).
    clip_probs = False
    # Write `doc.spans[spans_key]` as a SpanGroup with this component's scores
    # in its attrs, refusing a group of another component and keeping the
    # `phi_source` another component gave a span at the same offsets; False:
    # a plain list, every span's extensions set.
    owned_span_group = True

    @property
    def max_doc_tokens(self) -> int:
        """RETURNS (int): Docs longer than this are predicted in pieces."""
        return MAX_DOC_TOKENS

    @property
    def writes_ents(self) -> bool:
        """RETURNS (bool): False when the spans go to `doc.spans[spans_key]`
        only (a later component must merge them)."""
        return self.cfg["spans_key"] is None

    @property
    def read_from(self) -> Dict[str, int]:
        """Sentence starts are read only to cut a doc into pieces.

        RETURNS (Dict[str, int]): attribute -> fewest doc tokens read from.
        """
        return {SENTS: self.max_doc_tokens + 1}

    def skip_unread(self, read_from: Dict[str, int]) -> Optional[Callable[[], None]]:
        """Compute no span scores in a run where nothing reads them.

        read_from (Dict[str, int]): For each assigned attribute read later,
            the fewest doc tokens it is read from; absent: read by nobody.
        RETURNS (Optional[Callable[[], None]]): Turns the scores back on, or
            None if nothing changed.
        """
        if SCORES in read_from or not self.with_scores:
            return None
        self.with_scores = False
        return self._scores_on

    def _scores_on(self) -> None:
        self.with_scores = True

    def whole_docs(self) -> bool:
        """RETURNS (bool): Whether docs are predicted whole, however long."""
        return False

    def emission_scores(self, docs: Iterable[Doc]) -> List[Any]:
        """The (n_tokens, n_tags) emission scores per doc, before any recall
        bias.

        docs (Iterable[Doc]): The docs.
        RETURNS (List[Any]): Scores per doc (arrays of the model's ops).
        """
        raise NotImplementedError

    def crf_params(self) -> CRFParams:
        """RETURNS (CRFParams): The constrained CRF scores to decode with."""
        raise NotImplementedError

    def to_numpy(self, scores: Any) -> np.ndarray:
        """RETURNS (ndarray): Emission scores as a numpy array."""
        return np.asarray(scores)

    def __call__(self, doc: Doc) -> Doc:
        """Tag one doc.

        doc (Doc): The doc.
        RETURNS (Doc): The doc, annotated.
        """
        error_handler = self.get_error_handler()
        try:
            self.set_annotations([doc], self.predict([doc]))
            return doc
        except Exception as e:
            # Never return the doc untagged, even if the handler ignores
            # the error.
            error_handler(self.name, self, [doc], e)
            raise

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Tag a stream of docs in batches, as spaCy's `TrainablePipe.pipe`:
        a batch that fails goes to the error handler and is not yielded.

        stream (Iterable[Doc]): The docs.
        batch_size (int): Docs per batch.
        YIELDS (Doc): The annotated docs, in order.
        """
        error_handler = self.get_error_handler()
        for docs in minibatch(stream, size=batch_size):
            try:
                self.set_annotations(docs, self.predict(docs))
            except Exception as e:
                error_handler(self.name, self, docs, e)
                continue
            yield from docs

    def predict(self, docs: Iterable[Doc]) -> List[Prediction]:
        """Decode the best legal BILUO tags and their probabilities (None
        unless `with_scores` or `thresholds`). Docs are not modified. A doc
        longer than `max_doc_tokens` tokens is predicted in pieces (cut at
        line breaks where possible), so that memory stays bounded however
        long a note is (not when `whole_docs`).

        docs (Iterable[Doc]): The docs.
        RETURNS (List[Prediction]): (tag ids, probabilities) per doc.
        """
        docs = list(docs)
        if self.whole_docs():
            return self.decode(self.emission_scores(docs))
        pieces, owners = split_docs(docs, self.max_doc_tokens)
        preds = self.decode(self.emission_scores(pieces))
        return join_predictions(preds, owners, len(docs))

    def decode(self, scores: List[Any]) -> List[Prediction]:
        """Decode emission scores (from `emission_scores`) with the current
        cfg: `predict(docs) == decode(emission_scores(docs))` for docs of at
        most `max_doc_tokens` tokens, so a sweep over settings read at
        decoding time (e.g. recall_bias) computes the emissions once.

        scores (List[Any]): (n_tokens, n_tags) scores per doc.
        RETURNS (List[Prediction]): (tag ids, probabilities) per doc.
        """
        empty: Prediction = np.zeros((0,), dtype="i8"), np.zeros((0,), dtype="f4")
        preds = [empty for _ in scores]
        lengths = [len(s) for s in scores]
        if not any(lengths):
            return preds
        params = self.crf_params()
        with_probs = self.with_scores or bool(self.cfg["thresholds"])
        for group in length_groups(lengths, MAX_CRF_TOKENS, packed=True):
            seqs = [self.decoding_scores(scores[i]) for i in group]
            paths, _ = viterbi_seqs(seqs, params)
            if not with_probs:
                for i, path in zip(group, paths, strict=True):
                    preds[i] = path, None
                continue
            probs = self.tag_probs(seqs, params)
            for i, path, seq_probs in zip(group, paths, probs, strict=True):
                path_probs = seq_probs[np.arange(len(path)), path]
                if self.clip_probs:
                    path_probs = np.clip(path_probs, 0.0, 1.0)
                preds[i] = path, path_probs.astype("f4")
        return preds

    def decoding_scores(self, scores: Any) -> np.ndarray:
        """What Viterbi decodes for one doc: its emission scores with cfg
        "recall_bias" added to every non-"O" tag. Viterbi and the marginals
        compute in float64 whatever they get.

        scores (Any): (n_tokens, n_tags) emission scores.
        RETURNS (ndarray): The scores decoded.
        """
        return bias_emissions(self.to_numpy(scores), self.cfg["recall_bias"])

    def tag_probs(self, seqs: List[np.ndarray], params: CRFParams) -> List[np.ndarray]:
        """The probability of every tag at every token of each doc.

        seqs (List[ndarray]): Decoding scores (n_tokens, K) per doc.
        params (CRFParams): The CRF scores.
        RETURNS (List[ndarray]): (n_tokens, K) probabilities (CRF marginals)
            per doc.
        """
        # float32, as the scores are kept: twice as fast as float64.
        return crf_marginals_seqs(seqs, params, dtype="f4")

    def annotation_settings(self) -> Tuple[Dict[str, float], Optional[str]]:
        """RETURNS (Tuple[Dict[str, float], Optional[str]]): The thresholds
        and the spans key that `set_annotations` applies."""
        return self.cfg["thresholds"], self.cfg["spans_key"]

    def set_annotations(self, docs: Iterable[Doc], preds: List[Prediction]) -> None:
        """Write the predicted spans, less those inside known non-PHI and
        those below their label's threshold (cfg "thresholds"), to
        `doc.spans[spans_key]` (cfg "spans_key"), or else to `doc.ents` per
        `overwrite_ents` and `protected_labels` (see `ents.merge_ents`).

        docs (Iterable[Doc]): The docs.
        preds (List[Prediction]): From `predict`.
        """
        tag_names = self.tag_names
        thresholds, spans_key = self.annotation_settings()
        for doc, (tag_ids, probs) in zip(docs, preds, strict=True):
            spans = drop_not_phi(doc, biluo_spans(doc, tag_ids, tag_names))
            spans = self._above_threshold(spans, probs, thresholds)
            if spans_key is None:
                self._merge_into_ents(doc, spans, probs)
            else:
                self._write_group(doc, spans, probs, spans_key)

    def threshold(self, label: str) -> float:
        """The minimum `phi_score` of a label's spans.

        label (str): The label.
        RETURNS (float): thresholds[label], else thresholds["*"], else 0.
        """
        return threshold_of(self.cfg["thresholds"], label)

    def _above_threshold(
        self,
        spans: List[Span],
        probs: Optional[np.ndarray],
        thresholds: Dict[str, float],
    ) -> List[Span]:
        """The spans whose score reaches their label's threshold ("*" for
        labels without one; no threshold: all)."""
        if not thresholds:
            return spans
        if probs is None:
            raise ValueError(
                f"'{self.name}': thresholds were set after prediction, which "
                "computed no scores; predict again"
            )
        return [
            span
            for span in spans
            if self.span_score(span, probs) >= threshold_of(thresholds, span.label_)
        ]

    def _merge_into_ents(
        self, doc: Doc, spans: List[Span], probs: Optional[np.ndarray]
    ) -> None:
        """Merge the spans into `doc.ents` (see `ents.merge_ents`)."""
        kept, new = merge_ents(
            list(doc.ents),
            spans,
            overwrite=self.cfg["overwrite_ents"],
            protected=self.cfg["protected_labels"],
            grow=self.cfg.get("grow_protected", False),
        )
        # Extension values are keyed by character offsets: set them only on
        # the spans written, never on a discarded one. A span joined with an
        # earlier entity gets the score of the tokens it covers.
        for span in new:
            span._.phi_source = self.source
            span._.phi_score = self.span_score(span, probs)
        write_ents(doc, kept + new, default="outside")

    def _write_group(
        self, doc: Doc, spans: List[Span], probs: Optional[np.ndarray], key: str
    ) -> None:
        """Write the spans to `doc.spans[key]`, leaving `doc.ents` unchanged
        (see `owned_span_group`).

        With `owned_span_group`, the group's attrs hold "phi_source" and
        "phi_scores" (one per span, in group order). Extension values are
        keyed by character offsets, so a span at the offsets of a span
        annotated by another component (an entity, a rule candidate) keeps
        that component's `phi_source` and `phi_score` rather than changing
        it; the group attrs always hold this component's scores.

        RAISES (ValueError): `doc.spans[key]` holds spans of another component.
        """
        scores = [self.span_score(span, probs) for span in spans]
        if not self.owned_span_group:
            for span, score in zip(spans, scores, strict=True):
                span._.phi_source = self.source
                span._.phi_score = score
            doc.spans[key] = spans
            return
        if key in doc.spans and len(doc.spans[key]):
            if doc.spans[key].attrs.get("phi_source") != self.source:
                raise ValueError(
                    f"'{self.name}': doc.spans['{key}'] already holds spans of "
                    f"another component; give {self.source} another spans_key"
                )
        for span, score in zip(spans, scores, strict=True):
            if span._.phi_source in (None, self.source):
                span._.phi_source = self.source
                span._.phi_score = score
        attrs = {"phi_source": self.source, "phi_scores": scores}
        doc.spans[key] = SpanGroup(doc, name=key, attrs=attrs, spans=spans)

    def span_score(self, span: Span, probs: Optional[np.ndarray]) -> Optional[float]:
        """Mean (or with cfg "score_reduce" = "min", min) of the span's token
        probabilities; None without probabilities.

        span (Span): The span.
        probs (Optional[ndarray]): The doc's token probabilities.
        RETURNS (Optional[float]): The span's `phi_score`.
        """
        if probs is None:
            return None
        reduce = np.min if self.cfg.get("score_reduce") == "min" else np.mean
        return float(reduce(probs[span.start : span.end]))

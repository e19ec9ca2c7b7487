"""The `phi_skipchain` component: skip-chain alignment of repeated PHI words.

After Chen, Cullen and Godwin (J Biomed Inform 2015), the step that followed
their HMM-DP tagger. It runs after any detector (it reads `doc.ents`) and
before `phi_surrogates`. In a scope (a doc, or in `nlp.pipe` a patient's
contiguous run of docs, as `phi_consistency` scopes them), each word type
(token text lower-cased without accents) that passes `phi_consistency`'s
guard (not a common word, long enough), occurs at least twice and has at
least one occurrence inside an entity becomes a clique of a fully connected
pairwise CRF (`model.py`): node potentials from the occurrence's 2-token
window on each side and the detector's label and score, an agreement weight
on every pair. Its labels ("O" and the PHI labels the detector gave the
word, at most `max_labels` of them, most frequent first) are decided jointly
by exact MAP (`decoding.py`).

An occurrence outside any entity that is decided PHI becomes an entity
(`span._.phi_source = "skipchain"`): the same multi-token span as a PHI
occurrence of the word when the tokens around it repeat that entity's text
("Quillon Xavier"), else the token alone; it never overlaps an entity and
never lies inside known non-PHI (`doc.spans["phi_not"]`). Entities decided
"O" stay unless `remove = true` (recall first: a missed name is a breach, a
spare one costs a word); then single-token entities decided "O" go. Labels of
existing entities never change.

Training (`initialize`) runs the components before this one on each
example's doc to get the detector's labels, builds the cliques of each doc
(a word type counts when the detector or the gold marks an occurrence),
and fits the node weights and the agreement weight by pseudo-likelihood.
`update` trains nothing. Without examples the model keeps its prior: each
node prefers the detector's label, the clique prefers agreement.
"""

from typing import Any, Callable, Dict, Iterable, Iterator, List, Optional
from typing import Sequence, Tuple

from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span
from spacy.training import Example, validate_get_examples

from ..consistency.guard import ConsistencyGuard, fold
from ..consistency.words import common_words
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, PATIENT, SCORES
from ..core.extensions import SOURCE_ATTR, SPAN_GROUPS, get_patient
from ..core.extensions import install_extensions
from ..core.cfg_io import CfgModelSerializable
from ..core.scorers import score_phi
from ..labels import NOT_PHI_KEY
from ..tagging.ents import first_free, token_mask, write_ents
from .decoding import decode_clique
from .model import OUTSIDE as O, Clique, SkipChainModel, make_clique, train_model

install_extensions()

SOURCE = "skipchain"
SCOPES = ("doc", "patient")

DEFAULT_CONFIG: Dict[str, Any] = {
    "scope": "patient",
    "max_run_docs": 500,
    "remove": False,
    "min_chars": 3,
    "min_digits": 4,
    "exclude_labels": ["AGE"],
    "max_labels": 2,
    "max_candidates": 20000,
    "n_rows": 65536,
    "n_iter": 100,
    "l2": 0.0001,
    "extra_common_words": [],
    "scorer": {"@scorers": "spacy_deid.phi_scorer.v1"},
}

# A node of a scope: (doc index, non-space position).
Node = Tuple[int, int]


@Language.factory(
    "phi_skipchain",
    requires=[ENTS, SPAN_GROUPS, SOURCE_ATTR, SCORES, PATIENT],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES],
    default_config=DEFAULT_CONFIG,
)
def make_phi_skipchain(
    nlp: Language,
    name: str,
    scope: str,
    max_run_docs: int,
    remove: bool,
    min_chars: int,
    min_digits: int,
    exclude_labels: List[str],
    max_labels: int,
    max_candidates: int,
    n_rows: int,
    n_iter: int,
    l2: float,
    extra_common_words: List[str],
    scorer: Optional[Callable],
) -> "PhiSkipChain":
    """Create a PhiSkipChain component (factory "phi_skipchain").

    scope (str): "patient": contiguous runs of a patient's docs in `pipe`;
        "doc": each doc alone.
    max_run_docs (int): Most docs of one run decided together.
    remove (bool): Also remove single-token entities decided "O".
    min_chars (int): Word types with fewer alphanumeric characters are skipped.
    min_digits (int): Word types without letters and fewer digits are skipped.
    exclude_labels (List[str]): Entities with these labels start no clique.
    max_labels (int): Most PHI labels per clique (with "O").
    max_candidates (int): Most count vectors of the exact decoder; larger
        cliques are decoded approximately (`decoding.py`).
    n_rows (int): Rows of the hashed feature weights.
    n_iter (int): Training steps (pseudo-likelihood, AdaGrad).
    l2 (float): L2 penalty of training.
    extra_common_words (List[str]): More words that never start a clique.
    scorer (Optional[Callable]): The scoring method.
    """
    cfg = {
        "scope": scope,
        "max_run_docs": max_run_docs,
        "remove": remove,
        "min_chars": min_chars,
        "min_digits": min_digits,
        "exclude_labels": list(exclude_labels),
        "max_labels": max_labels,
        "max_candidates": max_candidates,
        "n_rows": n_rows,
        "n_iter": n_iter,
        "l2": l2,
        "extra_common_words": list(extra_common_words),
    }
    return PhiSkipChain(
        name, lang=nlp.lang, stop_words=nlp.Defaults.stop_words, scorer=scorer, **cfg
    )


class ScopeDoc:
    """A doc's non-space tokens: texts, folded forms, detector labels."""

    def __init__(self, doc: Doc) -> None:
        self.doc = doc
        self.starts = [t.i for t in doc if not t.is_space]
        self.texts = [doc[i].text for i in self.starts]
        self.folded = [fold(text) for text in self.texts]
        self.ent_of: Dict[int, Span] = {}
        position = {i: p for p, i in enumerate(self.starts)}
        for ent in doc.ents:
            for i in range(ent.start, ent.end):
                if i in position:
                    self.ent_of[position[i]] = ent

    def label(self, p: int) -> str:
        """RETURNS (str): The entity label at position p, "O" if none."""
        ent = self.ent_of.get(p)
        return O if ent is None else ent.label_


class PhiSkipChain(CfgModelSerializable, Pipe):
    """Re-decide the labels of repeated PHI words jointly (see the module
    docstring)."""

    def __init__(
        self,
        name: str = "phi_skipchain",
        *,
        lang: str = "en",
        stop_words: Iterable[str] = (),
        scorer: Optional[Callable] = score_phi,
        **cfg: Any,
    ) -> None:
        """Initialize the component (settings as in `make_phi_skipchain`).

        name (str): The component name.
        lang (str): Language code; picks the common words.
        stop_words (Iterable[str]): The language's stop words.
        scorer (Optional[Callable]): The scoring method.
        """
        install_extensions()
        self.name = name
        self.lang = lang
        self.scorer = scorer
        self._stop_words = frozenset(stop_words)
        self.cfg: Dict[str, Any] = {**_defaults(), **cfg}
        self._configure()
        self.model = SkipChainModel(n_rows=self.cfg["n_rows"])

    def _configure(self) -> None:
        """Check the cfg and build the guard."""
        _check_cfg(self.cfg)
        words = common_words(self.lang, self._stop_words)
        self.guard = ConsistencyGuard(
            words | frozenset(w.lower() for w in self.cfg["extra_common_words"]),
            min_chars=self.cfg["min_chars"],
            min_digits=self.cfg["min_digits"],
            exclude_labels=self.cfg["exclude_labels"],
        )

    @property
    def is_trainable(self) -> bool:
        """RETURNS (bool): False: `initialize` trains, not `nlp.update`."""
        return False

    def __call__(self, doc: Doc) -> Doc:
        """Align the repeated PHI words of one doc.

        doc (Doc): The doc, with a detector's `doc.ents`.
        RETURNS (Doc): The same doc.
        """
        error_handler = self.get_error_handler()
        try:
            self.apply([doc])
        except Exception as e:
            error_handler(self.name, self, [doc], e)
        return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Align a stream of docs by patient run (scope "patient") or doc by
        doc; docs come out in input order. A run the component fails on goes
        to the error handler and is not yielded.

        stream (Iterable[Doc]): The docs.
        batch_size (int): Unused.
        YIELDS (Doc): The docs.
        """
        error_handler = self.get_error_handler()
        for run in _runs(stream, self.cfg["scope"], self.cfg["max_run_docs"]):
            try:
                self.apply(run)
            except Exception as e:
                error_handler(self.name, self, run, e)
                continue
            yield from run

    def apply(self, docs: Sequence[Doc]) -> List[Doc]:
        """Align the docs as one scope (e.g. all notes of one patient).

        docs (Sequence[Doc]): The docs, with a detector's `doc.ents`.
        RETURNS (List[Doc]): The same docs.
        """
        docs = list(docs)
        for doc in docs:
            if doc._.deidentified is not None:
                raise ValueError(
                    "phi_skipchain: a doc is already de-identified; run it "
                    "before phi_surrogates"
                )
        scoped = [ScopeDoc(doc) for doc in docs]
        new: Dict[int, List[Tuple[int, int, str, Optional[float]]]] = {}
        drop: Dict[int, List[Span]] = {}
        for nodes in self.cliques(scoped, gold=None).values():
            labels, decided = self._decide(scoped, nodes)
            for (d, p), k in zip(nodes, decided, strict=True):
                current = scoped[d].ent_of.get(p)
                label = labels[k]
                if current is None and label != O:
                    span = _span_for(scoped, nodes, d, p, label)
                    new.setdefault(d, []).append(
                        (*span, label, _score(scoped, nodes, label))
                    )
                elif current is not None and label == O and self.cfg["remove"]:
                    if len(current) == 1 and current._.phi_source != SOURCE:
                        drop.setdefault(d, []).append(current)
        for d, sd in enumerate(scoped):
            if d in new or d in drop:
                _write(sd.doc, new.get(d, []), drop.get(d, []))
        return docs

    def cliques(
        self, scoped: Sequence[ScopeDoc], gold: Optional[List[List[str]]]
    ) -> Dict[str, List[Node]]:
        """The nodes of each candidate word type of a scope.

        scoped (Sequence[ScopeDoc]): The docs.
        gold (Optional[List[List[str]]]): Gold labels per non-space position
            (training: a word type also counts when the gold marks it).
        RETURNS (Dict[str, List[Node]]): Word type -> nodes, in first-seen order.
        """
        by_word: Dict[str, List[Node]] = {}
        marked = set()
        for d, sd in enumerate(scoped):
            for p, word in enumerate(sd.folded):
                by_word.setdefault(word, []).append((d, p))
                ent = sd.ent_of.get(p)
                if ent is not None and self.guard.allows_label(ent.label_):
                    marked.add(word)
                if gold is not None and gold[d][p] not in (O, None):
                    marked.add(word)
        return {
            word: nodes
            for word, nodes in by_word.items()
            if len(nodes) > 1 and word in marked and self.guard.allows_text(word)
        }

    def _clique(
        self, scoped: Sequence[ScopeDoc], nodes: List[Node], gold=None
    ) -> Clique:
        items = []
        for d, p in nodes:
            ent = scoped[d].ent_of.get(p)
            score = None if ent is None else ent._.phi_score
            items.append((scoped[d].texts, p, scoped[d].label(p), score))
        return make_clique(items, self.model.n_rows, gold)

    def _decide(
        self, scoped: Sequence[ScopeDoc], nodes: List[Node]
    ) -> Tuple[List[str], List[int]]:
        """The clique's labels and the label index decided for each node."""
        counts: Dict[str, int] = {}
        for d, p in nodes:
            label = scoped[d].label(p)
            if label != O and self.guard.allows_label(label):
                counts[label] = counts.get(label, 0) + 1
        ranked = sorted(counts, key=lambda lab: (-counts[lab], lab))
        labels = [O] + ranked[: self.cfg["max_labels"]]
        clique = self._clique(scoped, nodes)
        unary = self.model.unary(clique, labels)
        weight = self.model.pair_weight(len(nodes))
        decided, _ = decode_clique(
            unary, weight, max_candidates=self.cfg["max_candidates"]
        )
        return labels, decided.tolist()

    def initialize(
        self,
        get_examples: Callable[[], Iterable[Example]],
        *,
        nlp: Optional[Language] = None,
    ) -> None:
        """Train the model on the examples (see the module docstring).

        get_examples (Callable[[], Iterable[Example]]): The training examples.
        nlp (Optional[Language]): The pipeline: its components before this
            one label the examples' docs as the detector.
        """
        validate_get_examples(get_examples, "PhiSkipChain.initialize")
        before = _before(nlp, self)
        cliques: List[Clique] = []
        labels = set()
        for eg in get_examples():
            doc = eg.predicted.copy()
            for proc in before:
                doc = proc(doc)
            sd = ScopeDoc(doc)
            tags = eg.get_aligned_ner()
            gold = [_tag_label(tags[i]) for i in sd.starts]
            labels.update(g for g in gold if g not in (O, None))
            for nodes in self.cliques([sd], [gold]).values():
                node_gold = [gold[p] for _, p in nodes]
                cliques.append(self._clique([sd], nodes, node_gold))
        self.model = train_model(
            cliques,
            sorted(labels),
            n_rows=self.cfg["n_rows"],
            n_iter=self.cfg["n_iter"],
            l2=self.cfg["l2"],
        )

    def update(
        self,
        examples: Iterable[Example],
        *,
        drop: float = 0.0,
        sgd: Any = None,
        losses: Optional[Dict[str, float]] = None,
    ) -> Dict[str, float]:
        """Train nothing (training happens in `initialize`).

        RETURNS (Dict[str, float]): The losses, unchanged.
        """
        return {} if losses is None else losses

    def _model_data(self) -> Dict[str, Any]:
        """The model as msgpack-able data."""
        return self.model.to_dict()

    def _restore(self, loaded: Dict[str, Any]) -> None:
        """Apply the loaded settings, then the loaded model."""
        if "cfg" in loaded:
            self._load_cfg(loaded["cfg"])
        if "model" in loaded:
            self._load_model(loaded["model"])

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        self.cfg.update(cfg)
        self._configure()

    def _load_model(self, data: Dict[str, Any]) -> None:
        self.model = SkipChainModel.from_dict(data)


def _defaults() -> Dict[str, Any]:
    """The default settings (without the scorer)."""
    cfg = {k: v for k, v in DEFAULT_CONFIG.items() if k != "scorer"}
    return {k: list(v) if isinstance(v, list) else v for k, v in cfg.items()}


def _check_cfg(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError naming a bad setting."""
    if cfg["scope"] not in SCOPES:
        raise ValueError(f"phi_skipchain: scope must be one of {SCOPES}")
    for key, least in (
        ("max_run_docs", 1), ("min_chars", 0), ("min_digits", 0),
        ("max_labels", 1), ("max_candidates", 1), ("n_rows", 1), ("n_iter", 0),
    ):  # fmt: skip
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"phi_skipchain: {key} must be an integer >= {least}")
    if not isinstance(cfg["remove"], bool):
        raise ValueError("phi_skipchain: remove must be true or false")


def _runs(stream: Iterable[Doc], scope: str, max_docs: int) -> Iterator[List[Doc]]:
    """Scopes of a stream: single docs, or contiguous runs of one patient's
    docs (docs without a patient id alone), at most `max_docs` each."""
    run: List[Doc] = []
    patient = ""
    for doc in stream:
        doc_patient = get_patient(doc) if scope == "patient" else ""
        if run and (doc_patient != patient or not patient or len(run) >= max_docs):
            yield run
            run = []
        run.append(doc)
        patient = doc_patient
    if run:
        yield run


def _span_for(
    scoped: Sequence[ScopeDoc], nodes: List[Node], d: int, p: int, label: str
) -> Tuple[int, int]:
    """Doc token offsets of a new entity at node (d, p): the longest entity
    (of `label`) around another node of the clique whose folded token texts
    repeat around (d, p), else the token alone."""
    sd = scoped[d]
    best = (sd.starts[p], sd.starts[p] + 1)
    best_len = 1
    for d2, p2 in nodes:
        ent = scoped[d2].ent_of.get(p2)
        if ent is None or ent.label_ != label:
            continue
        other = scoped[d2]
        inside = [q for q in range(len(other.starts)) if other.ent_of.get(q) is ent]
        if len(inside) <= best_len:
            continue
        a = p - (p2 - inside[0])
        b = a + len(inside)
        if a < 0 or b > len(sd.starts):
            continue
        if sd.folded[a:b] == [other.folded[q] for q in inside]:
            best, best_len = (sd.starts[a], sd.starts[b - 1] + 1), len(inside)
    return best


def _score(
    scoped: Sequence[ScopeDoc], nodes: List[Node], label: str
) -> Optional[float]:
    """The highest `phi_score` of the clique's entities with the label."""
    scores = []
    for d, p in nodes:
        ent = scoped[d].ent_of.get(p)
        if ent is not None and ent.label_ == label and ent._.phi_score is not None:
            scores.append(float(ent._.phi_score))
    return max(scores) if scores else None


def _write(
    doc: Doc, new: List[Tuple[int, int, str, Optional[float]]], drop: List[Span]
) -> None:
    """Remove the dropped entities and add the new ones that overlap no
    entity, no earlier new one and lie not wholly inside known non-PHI
    (longest first, then earliest)."""
    kept = [
        e
        for e in doc.ents
        if all(e is not x and (e.start, e.end) != (x.start, x.end) for x in drop)
    ]
    not_phi = token_mask(len(doc), doc.spans.get(NOT_PHI_KEY, ()))
    unique = sorted(set(new), key=lambda s: (s[0] - s[1], s[0]))
    ranked = [s for s in unique if not not_phi[s[0] : s[1]].all()]
    chosen = [
        ranked[i] for i in first_free([(s[0], s[1]) for s in ranked], kept, len(doc))
    ]
    spans = [Span(doc, s, e, label=label) for s, e, label, _ in chosen]
    if drop:
        write_ents(doc, kept + spans, default="unmodified", outside=drop)
    elif spans:
        write_ents(doc, spans, default="unmodified")
    for span, (*_, score) in zip(spans, chosen, strict=True):
        span._.phi_source = SOURCE
        span._.phi_score = score


def _before(nlp: Optional[Language], component: Pipe) -> List[Callable[[Doc], Doc]]:
    """The enabled components before `component` in `nlp` (none without it)."""
    if nlp is None:
        return []
    out = []
    for _, proc in nlp.pipeline:
        if proc is component:
            break
        out.append(proc)
    return out


def _tag_label(tag: Optional[str]) -> Optional[str]:
    """A BILUO tag's label, "O", or None when missing."""
    if tag in (None, "", "-"):
        return None
    return O if tag == "O" else tag[2:]

"""The `phi_consistency` component: a PHI string found once is found everywhere.

It runs after the detectors (`phi_rules`, `phi_ner`), which write `doc.ents`,
and before `phi_surrogates`. Every entity string (lower case, whitespace runs
collapsed) that passes the guard (see `guard.py`) is looked up at every token
boundary of the doc: an occurrence that starts at a token start and ends at a
token end, overlaps no entity and does not lie inside known non-PHI
(`doc.spans["phi_not"]`) becomes an entity with the string's label (the most
frequent one; ties by the scheme's label order), `span._.phi_source =
"consistency"`, `span._.phi_score` = the highest score of its sources and
their `phi_flags` for that label. Existing entities are never changed or
removed; longer strings win over shorter ones where occurrences overlap.
Sources are the entities whose label is allowed (`labels`, `exclude_labels`)
and whose `phi_score` is at least `min_score` (spreading multiplies a
detector's errors); entities added by this component are never sources.

A string that is an ordinary word never spreads, except a one-word name of
`cased_labels` written capitalised ("Dawn", "Joy"): it spreads, with its
case, to the same capitalised word inside a sentence only ("called Dawn's
phone", not "Dawn broke" at a sentence start, where it may be the word), and
not before an eponym's head ("Foley catheter"). With `part_labels`, the
words of a name of several words spread alone too, where they stand as a
name ("Mendes" after "Jorge Mendes"; `parts.py`).

Scope "patient" (default): in `nlp.pipe`, each contiguous run of docs with the
same patient id (`extensions.get_patient`) is one scope, so a name found in the
third note of a patient also marks the first. A run longer than
`max_run_docs` is flushed in parts; each part keeps the strings of the earlier
parts. Only the current patient's strings are kept. Docs without a patient id,
and a doc passed to `__call__`, are scopes of their own. For docs of one
patient that do not come in a row, use `apply_consistency` (or `apply`).

Under `nlp.pipe(n_process=N)` spaCy hands each worker batches of
`batch_size` docs and runs the pipeline on each batch alone, so there a run of
a patient's docs is also cut at batch boundaries.
"""

from collections import Counter
from typing import Any, Dict, Iterable, Iterator, List, Optional, Sequence, Set
from typing import Tuple

import numpy
from spacy.attrs import IS_SPACE, LOWER, SPACY
from spacy.language import Language
from spacy.pipeline import Pipe
from spacy.tokens import Doc, Span, Token
from spacy.util import get_lang_class

from ..core.cfg_io import CfgSerializable
from ..core.extensions import ENTS, ENT_IOB, ENT_TYPE, FLAGS, PATIENT, SCORES
from ..core.extensions import SOURCE_ATTR, SPAN_GROUPS, get_patient
from ..core.extensions import install_extensions
from ..labels import LABEL_NAMES, NOT_PHI_KEY, normalize_label
from ..rules.lexicons.clinical import before_eponym_head
from ..tagging.ents import first_free, token_mask, write_ents
from .guard import COMMON_WORD, ConsistencyGuard
from .parts import in_name_position, name_parts
from .words import common_words

install_extensions()

SOURCE = "consistency"
SCOPES = ("doc", "patient")
_LABEL_RANK = {label: i for i, label in enumerate(LABEL_NAMES)}

DEFAULT_CONFIG: Dict[str, Any] = {
    "scope": "patient",
    "max_run_docs": 500,
    "min_chars": 3,
    "min_digits": 4,
    "labels": None,
    "exclude_labels": ["AGE"],
    "min_score": 0.7,
    "extra_common_words": [],
    "cased_labels": [],
    "part_labels": [],
    "part_min_score": 0.75,
}


@Language.factory(
    "phi_consistency",
    requires=[ENTS, SPAN_GROUPS, SOURCE_ATTR, SCORES, FLAGS, PATIENT],
    assigns=[ENTS, ENT_IOB, ENT_TYPE, SOURCE_ATTR, SCORES, FLAGS],
    default_config=DEFAULT_CONFIG,
)
def make_phi_consistency(
    nlp: Language,
    name: str,
    scope: str,
    max_run_docs: int,
    min_chars: int,
    min_digits: int,
    labels: Optional[List[str]],
    exclude_labels: List[str],
    min_score: float,
    extra_common_words: List[str],
    cased_labels: List[str],
    part_labels: List[str],
    part_min_score: float,
) -> "PhiConsistency":
    """Create a PhiConsistency component (factory "phi_consistency").

    scope (str): "patient": contiguous runs of a patient's docs in `pipe`;
        "doc": each doc alone.
    max_run_docs (int): Most docs buffered per run; a longer run is flushed
        in parts that keep the strings of earlier parts.
    min_chars (int): Strings with fewer alphanumeric characters never spread.
    min_digits (int): Strings without letters and with fewer digits never
        spread.
    labels (Optional[List[str]]): Only these labels spread; None: all.
    exclude_labels (List[str]): These labels never spread.
    min_score (float): Entities whose `phi_score` is lower never spread
        (spreading multiplies a detector's errors); entities without a score
        may. The default 0.7 keeps every shipped rule pattern (scores 0.7 to
        1.0) and drops the least confident `phi_ner` spans.
    extra_common_words (List[str]): Words or phrases that never spread, on
        top of the language's stop words and the bundled common words.
    cased_labels (List[str]): Labels whose capitalised one-word names that are
        ordinary words spread to the same capitalised word inside a sentence.
    part_labels (List[str]): Labels whose names of several words also spread
        each capitalised word of three letters or more ("Mendes" of "Jorge
        Mendes"), under the same guard.
    part_min_score (float): Names whose `phi_score` is lower spread no words
        (a name's words must look like names besides, `parts.py`, so the
        bar may sit below `min_score`).
    """
    return PhiConsistency(
        name,
        lang=nlp.lang,
        stop_words=nlp.Defaults.stop_words,
        scope=scope,
        max_run_docs=max_run_docs,
        min_chars=min_chars,
        min_digits=min_digits,
        labels=labels,
        exclude_labels=exclude_labels,
        min_score=min_score,
        extra_common_words=extra_common_words,
        cased_labels=cased_labels,
        part_labels=part_labels,
        part_min_score=part_min_score,
    )


class DocTokens:
    """The non-space tokens of a doc: lower forms and the whitespace gaps.

    `text(i, j)` is the normalised string of non-space tokens i..j-1: their
    lower forms joined by one space where the doc has whitespace between them.
    Built from `doc.to_array`, without a Token object per token.
    """

    def __init__(self, doc: Doc) -> None:
        array = doc.to_array([LOWER, IS_SPACE, SPACY]).reshape(-1, 3)
        keep = numpy.flatnonzero(array[:, 1] == 0)
        position = numpy.full(len(doc), -1, dtype="int64")
        position[keep] = numpy.arange(len(keep))
        gaps = array[keep, 2] != 0
        # A whitespace token between two kept tokens is a gap too.
        gaps[:-1] |= numpy.diff(keep) > 1
        strings = doc.vocab.strings
        self.starts: List[int] = keep.tolist()
        self.lowers: List[str] = [strings[key] for key in array[keep, 0].tolist()]
        self.gaps: List[bool] = gaps.tolist()
        self.position: List[int] = position.tolist()

    def __len__(self) -> int:
        return len(self.starts)

    def text(self, i: int, j: int) -> str:
        """The normalised string of non-space tokens i..j-1 (i < j)."""
        parts = [self.lowers[i]]
        for k in range(i + 1, j):
            if self.gaps[k - 1]:
                parts.append(" ")
            parts.append(self.lowers[k])
        return "".join(parts)

    def span_range(self, start: int, end: int) -> Optional[Tuple[int, int]]:
        """Non-space token range of doc tokens start..end-1; None if all space."""
        inside = [p for p in self.position[start:end] if p >= 0]
        return (inside[0], inside[-1] + 1) if inside else None


class PhiString:
    """What the sources of one string say: label counts, best score, flags."""

    def __init__(self) -> None:
        self.counts: Counter = Counter()
        self.score: Optional[float] = None
        self.flags: Dict[str, Set[str]] = {}

    def add(self, label: str, score: Optional[float], flags: Iterable[str]) -> None:
        self.counts[label] += 1
        if score is not None:
            self.score = score if self.score is None else max(self.score, score)
        self.flags.setdefault(label, set()).update(flags)

    @property
    def label(self) -> str:
        """The most frequent label; ties go to the earlier label of the scheme
        (`labels.LABEL_NAMES`), then to labels outside it in name order."""
        return min(self.counts, key=lambda lab: (-self.counts[lab], _rank(lab)))


class PhiStrings:
    """The PHI strings of one scope, by normalised text."""

    def __init__(self) -> None:
        self.strings: Dict[str, PhiString] = {}
        # Lower form of the first token -> token lengths of strings starting so.
        self.lengths: Dict[str, Set[int]] = {}
        # Capitalised one-word names that are ordinary words, by exact text.
        self.cased: Dict[str, PhiString] = {}
        # Words of names of several words (`part_labels`), by lower form.
        self.parts: Dict[str, PhiString] = {}

    def __len__(self) -> int:
        return len(self.strings)

    def __contains__(self, text: str) -> bool:
        return text in self.strings

    def __getitem__(self, text: str) -> PhiString:
        return self.strings[text]

    def add(
        self,
        text: str,
        first: str,
        n_tokens: int,
        label: str,
        score: Optional[float],
        flags: Iterable[str],
    ) -> None:
        """Record one source occurrence of a string."""
        if text not in self.strings:
            self.strings[text] = PhiString()
        self.strings[text].add(label, score, flags)
        self.lengths.setdefault(first, set()).add(n_tokens)

    def add_cased(
        self, word: str, label: str, score: Optional[float], flags: Iterable[str]
    ) -> None:
        """Record one source of a capitalised name that is an ordinary word."""
        self.cased.setdefault(word, PhiString()).add(label, score, flags)

    def add_part(
        self, lower: str, label: str, score: Optional[float], flags: Iterable[str]
    ) -> None:
        """Record one source of a word of a name of several words."""
        self.parts.setdefault(lower, PhiString()).add(label, score, flags)


class PhiConsistency(CfgSerializable, Pipe):
    """Mark every other occurrence of a detected PHI string (see the module
    docstring)."""

    def __init__(
        self,
        name: str = "phi_consistency",
        *,
        lang: str = "en",
        stop_words: Iterable[str] = (),
        scope: str = "patient",
        max_run_docs: int = 500,
        min_chars: int = 3,
        min_digits: int = 4,
        labels: Optional[Iterable[str]] = None,
        exclude_labels: Iterable[str] = ("AGE",),
        min_score: float = 0.7,
        extra_common_words: Iterable[str] = (),
        cased_labels: Iterable[str] = (),
        part_labels: Iterable[str] = (),
        part_min_score: float = 0.75,
    ) -> None:
        """Initialize the component.

        name (str): The component name.
        lang (str): Language code; picks the bundled common words.
        stop_words (Iterable[str]): The language's stop words (never spread).
        scope (str): "patient" or "doc" (see `make_phi_consistency`).
        max_run_docs (int): Most docs buffered per patient run.
        min_chars (int): Minimum alphanumeric characters of a string.
        min_digits (int): Minimum digits of a string without letters.
        labels (Optional[Iterable[str]]): Labels that spread; None: all.
        exclude_labels (Iterable[str]): Labels that never spread.
        min_score (float): Lowest `phi_score` of a source (None passes).
        extra_common_words (Iterable[str]): More words that never spread.
        cased_labels (Iterable[str]): Labels of capitalised one-word names
            that spread inside sentences although they are ordinary words.
        part_labels (Iterable[str]): Labels of names whose words spread too.
        part_min_score (float): Lowest `phi_score` of such a name.
        """
        install_extensions()
        self.name = name
        self.lang = lang
        self._stop_words = frozenset(stop_words)
        self.cfg: Dict[str, Any] = {
            "scope": scope,
            "max_run_docs": max_run_docs,
            "min_chars": min_chars,
            "min_digits": min_digits,
            "labels": None if labels is None else _label_list(labels, "labels"),
            "exclude_labels": _label_list(exclude_labels, "exclude_labels"),
            "min_score": min_score,
            "extra_common_words": _word_list(extra_common_words),
            "cased_labels": _label_list(cased_labels, "cased_labels"),
            "part_labels": _label_list(part_labels, "part_labels"),
            "part_min_score": part_min_score,
        }
        self._configure()

    def _configure(self) -> None:
        """Check the cfg and build the guard from it."""
        _check_cfg(self.cfg)
        words = common_words(self.lang, self._stop_words)
        self.guard = ConsistencyGuard(
            words | frozenset(self.cfg["extra_common_words"]),
            min_chars=self.cfg["min_chars"],
            min_digits=self.cfg["min_digits"],
            labels=self.cfg["labels"],
            exclude_labels=self.cfg["exclude_labels"],
            min_score=self.cfg["min_score"],
        )

    def __call__(self, doc: Doc) -> Doc:
        """Mark the repeated PHI strings of one doc (doc scope).

        doc (Doc): The doc, with the detectors' `doc.ents`.
        RETURNS (Doc): The same doc.
        """
        error_handler = self.get_error_handler()
        try:
            self.apply([doc])
            return doc
        except Exception as e:
            error_handler(self.name, self, [doc], e)
            return doc

    def pipe(self, stream: Iterable[Doc], *, batch_size: int = 128) -> Iterator[Doc]:
        """Mark a stream of docs, by patient run (scope "patient") or doc by
        doc; docs come out in input order. A doc the component fails on goes
        to the error handler and is not yielded (as in spaCy's `Pipe.pipe`).

        stream (Iterable[Doc]): The docs.
        batch_size (int): Unused; runs are cut by patient and `max_run_docs`.
        YIELDS (Doc): The docs.
        """
        if self.cfg["scope"] == "doc":
            for doc in stream:
                yield from self._process([doc], PhiStrings())
            return
        run: List[Doc] = []
        patient = ""
        strings = PhiStrings()
        for doc in stream:
            doc_patient = get_patient(doc)
            if run and (doc_patient != patient or not patient):
                yield from self._process(run, strings)
                run, strings = [], PhiStrings()
            elif len(run) >= self.cfg["max_run_docs"]:
                # Same patient: the next part keeps the strings found so far.
                yield from self._process(run, strings)
                run = []
            run.append(doc)
            patient = doc_patient
        if run:
            yield from self._process(run, strings)

    def _process(self, docs: List[Doc], strings: PhiStrings) -> Iterator[Doc]:
        """Collect the strings of all docs into `strings`, then mark every doc;
        errors go to the error handler, one doc at a time."""
        error_handler = self.get_error_handler()
        ready = []
        for doc in docs:
            try:
                ready.append((doc, self.collect(doc, strings)))
            except Exception as e:
                error_handler(self.name, self, [doc], e)
        for doc, tokens in ready:
            try:
                self.mark(doc, strings, tokens)
            except Exception as e:
                error_handler(self.name, self, [doc], e)
                continue
            yield doc

    def apply(self, docs: Iterable[Doc], *, by_patient: bool = False) -> List[Doc]:
        """Mark docs as one scope, e.g. all the notes of one patient, in any
        order. Errors are raised.

        docs (Iterable[Doc]): The docs, with the detectors' `doc.ents`.
        by_patient (bool): Group the docs by patient id instead (docs without
            one are scopes of their own).
        RETURNS (List[Doc]): The same docs, in the same order.
        """
        docs = list(docs)
        for group in _groups(docs, by_patient):
            strings = PhiStrings()
            tokens = [self.collect(docs[i], strings, index=i) for i in group]
            for i, doc_tokens in zip(group, tokens, strict=True):
                self.mark(docs[i], strings, doc_tokens)
        return docs

    def collect(
        self, doc: Doc, strings: PhiStrings, *, index: Optional[int] = None
    ) -> DocTokens:
        """Add the doc's entity strings that pass the guard to `strings`.

        doc (Doc): The doc.
        strings (PhiStrings): The strings of the scope (updated).
        index (Optional[int]): The doc's position, for error messages.
        RETURNS (DocTokens): The doc's token index, for `mark`.
        """
        _check_not_deidentified(doc, index)
        tokens = DocTokens(doc)
        for ent in doc.ents:
            if self._is_part_source(ent):
                self._collect_parts(ent, strings)
            if not self._is_source(ent):
                continue
            span = tokens.span_range(ent.start, ent.end)
            if span is None:
                continue
            text = tokens.text(*span)
            if self._is_cased_name(ent, text):
                strings.add_cased(
                    ent.text, ent.label_, ent._.phi_score, ent._.phi_flags or ()
                )
            elif text in strings or self.guard.allows_text(text):
                strings.add(
                    text,
                    tokens.lowers[span[0]],
                    span[1] - span[0],
                    ent.label_,
                    ent._.phi_score,
                    ent._.phi_flags or (),
                )
        return tokens

    def _is_part_source(self, ent: Span) -> bool:
        """Whether a name's words may spread: a name of `part_labels`, not
        added by this component, scoring `part_min_score` or more."""
        if ent.label_ not in self.cfg["part_labels"] or ent._.phi_source == SOURCE:
            return False
        score = ent._.phi_score
        return score is None or score >= self.cfg["part_min_score"]

    def _collect_parts(self, ent: Span, strings: PhiStrings) -> None:
        """Add the name-like words of a name of several words (`parts.py`):
        a surname or a given name alone names the same person ("Mendes"
        after "Jorge Mendes")."""
        score, flags = ent._.phi_score, ent._.phi_flags or ()
        for word in name_parts(ent):
            if self.guard.allows_text(word.lower_):
                strings.add_part(word.lower_, ent.label_, score, flags)

    def _is_cased_name(self, ent: Span, text: str) -> bool:
        """A capitalised one-word name of `cased_labels` that the guard keeps
        from spreading as an ordinary word."""
        if ent.label_ not in self.cfg["cased_labels"] or len(ent) != 1:
            return False
        word = ent.text
        if not (word.isalpha() and word.istitle()):
            return False
        return self.guard.reject_reason(text) == COMMON_WORD

    def _is_source(self, ent: Span) -> bool:
        """Whether an entity may spread: not added by this component, and its
        label and score pass the guard."""
        if ent._.phi_source == SOURCE or not self.guard.allows_label(ent.label_):
            return False
        return self.guard.allows_score(ent._.phi_score)

    def mark(
        self, doc: Doc, strings: PhiStrings, tokens: Optional[DocTokens] = None
    ) -> List[Span]:
        """Add the free occurrences of the scope's strings to `doc.ents`.

        doc (Doc): The doc.
        strings (PhiStrings): The strings of the scope.
        tokens (Optional[DocTokens]): The doc's token index from `collect`.
        RETURNS (List[Span]): The added entities.
        """
        _check_not_deidentified(doc, None)
        if not len(strings) and not strings.cased and not strings.parts:
            return []
        tokens = DocTokens(doc) if tokens is None else tokens
        found = _occurrences(tokens, strings) + _cased_occurrences(doc, strings)
        found += _part_occurrences(doc, tokens, strings)
        chosen = _select(doc, found)
        sources = {text: _source(strings, text) for text in {c[2] for c in chosen}}
        spans = [Span(doc, s, e, label=sources[text].label) for s, e, text in chosen]
        if not spans:
            return []
        write_ents(doc, spans, default="unmodified")
        for span, (_, _, text) in zip(spans, chosen, strict=True):
            found = sources[text]
            span._.phi_source = SOURCE
            span._.phi_score = found.score
            span._.phi_flags = sorted(found.flags.get(span.label_, ())) or None
        return spans

    def _load_cfg(self, cfg: Dict[str, Any]) -> None:
        self.cfg.update(cfg)
        self._configure()


def apply_consistency(
    docs: Iterable[Doc],
    *,
    by_patient: bool = False,
    lang: Optional[str] = None,
    min_chars: int = 3,
    min_digits: int = 4,
    labels: Optional[Sequence[str]] = None,
    exclude_labels: Sequence[str] = ("AGE",),
    min_score: float = 0.7,
    extra_common_words: Sequence[str] = (),
    cased_labels: Sequence[str] = (),
    part_labels: Sequence[str] = (),
    part_min_score: float = 0.75,
) -> List[Doc]:
    """Mark repeated PHI strings across docs that belong together, e.g. all the
    notes of one patient gathered from anywhere in a stream. Run it on docs
    processed without `phi_surrogates`, then run `phi_surrogates` on them.
    With a pipeline that has a `phi_consistency` component, its
    `apply(docs)` does the same with that component's settings.

    docs (Iterable[Doc]): The docs, with the detectors' `doc.ents`.
    by_patient (bool): One scope per patient id (`extensions.get_patient`);
        False: all docs are one scope.
    lang (Optional[str]): Language of the stop and common words; None: the
        docs' vocab language.
    min_chars, min_digits, labels, exclude_labels, min_score,
        extra_common_words, cased_labels, part_labels, part_min_score: As in
        the `phi_consistency` config.
    RETURNS (List[Doc]): The same docs, in the same order.
    """
    docs = list(docs)
    if lang is None:
        langs = {doc.lang_ for doc in docs}
        if len(langs) > 1:
            raise ValueError("apply_consistency: the docs have different languages")
        lang = langs.pop() if langs else "en"
    component = PhiConsistency(
        lang=lang,
        stop_words=get_lang_class(lang).Defaults.stop_words,
        min_chars=min_chars,
        min_digits=min_digits,
        labels=labels,
        exclude_labels=exclude_labels,
        min_score=min_score,
        extra_common_words=extra_common_words,
        cased_labels=cased_labels,
        part_labels=part_labels,
        part_min_score=part_min_score,
    )
    return component.apply(docs, by_patient=by_patient)


def _occurrences(tokens: DocTokens, strings: PhiStrings) -> List[Tuple[int, int, str]]:
    """Every token-aligned occurrence (doc token start, end, string) of the
    strings, found from the first token's lower form: linear in the doc."""
    found = []
    n = len(tokens)
    for i, lower in enumerate(tokens.lowers):
        for length in strings.lengths.get(lower, ()):
            j = i + length
            if j > n:
                continue
            text = tokens.text(i, j)
            if text in strings:
                found.append((tokens.starts[i], tokens.starts[j - 1] + 1, text))
    return found


# Marks after which a capitalised word starts a sentence, a line or an item.
_STARTERS = frozenset((".", "!", "?", ":", ";", "-", "–", "—", "•", "*", "#", ">"))


def _cased_occurrences(doc: Doc, strings: PhiStrings) -> List[Tuple[int, int, str]]:
    """The occurrences (token start, end, key) of the capitalised names that
    are ordinary words, with their case, inside a sentence; the key is the
    word with a leading "=" (never a normalised string)."""
    if not strings.cased:
        return []
    found = []
    for token in doc:
        if (
            token.text in strings.cased
            and _mid_sentence(token)
            and not before_eponym_head(token)
        ):
            found.append((token.i, token.i + 1, "=" + token.text))
    return found


def _part_occurrences(
    doc: Doc, tokens: DocTokens, strings: PhiStrings
) -> List[Tuple[int, int, str]]:
    """The occurrences (token start, end, key) of the words of names where
    they stand as a name (`parts.in_name_position`); the key is the lower
    form with a leading "~"."""
    parts = strings.parts
    if not parts:
        return []
    found = []
    for start, lower in zip(tokens.starts, tokens.lowers, strict=True):
        if lower in parts and in_name_position(doc[start]):
            found.append((start, start + 1, "~" + lower))
    return found


def _mid_sentence(token: Token) -> bool:
    """Whether a token is inside a sentence: not its first token, and not
    after a line break or a mark that starts one."""
    if token.is_sent_start:
        return False
    i = token.i - 1
    while i >= 0 and token.doc[i].is_space:
        if "\n" in token.doc[i].text:
            return False
        i -= 1
    return i >= 0 and token.doc[i].text not in _STARTERS


def _source(strings: PhiStrings, key: str) -> PhiString:
    """The sources of a normalised string, of a cased name ("=" key) or of a
    name's word ("~" key)."""
    if key.startswith("="):
        return strings.cased[key[1:]]
    if key.startswith("~"):
        return strings.parts[key[1:]]
    return strings[key]


def _select(doc: Doc, found: List[Tuple[int, int, str]]) -> List[Tuple[int, int, str]]:
    """Keep the occurrences that overlap no entity and no longer occurrence
    and are not inside known non-PHI; longest first, then earliest."""
    if not found:
        return []
    not_phi = token_mask(len(doc), doc.spans.get(NOT_PHI_KEY, ()))
    ranked = [
        f
        for f in sorted(found, key=lambda f: (f[0] - f[1], f[0]))
        if not not_phi[f[0] : f[1]].all()
    ]
    chosen = first_free([(f[0], f[1]) for f in ranked], doc.ents, len(doc))
    return sorted(ranked[i] for i in chosen)


def _groups(docs: List[Doc], by_patient: bool) -> List[List[int]]:
    """Indices of the docs of each scope: all docs, or one group per patient
    id (docs without one alone)."""
    if not by_patient:
        return [list(range(len(docs)))] if docs else []
    groups: Dict[str, List[int]] = {}
    alone = []
    for i, doc in enumerate(docs):
        patient = get_patient(doc)
        if patient:
            groups.setdefault(patient, []).append(i)
        else:
            alone.append([i])
    return list(groups.values()) + alone


def _check_not_deidentified(doc: Doc, index: Optional[int]) -> None:
    """Fail closed when run after `phi_surrogates`: new entities would be
    missing from the de-identified text already written."""
    if doc._.deidentified is not None:
        which = "a doc" if index is None else f"doc {index}"
        raise ValueError(
            f"phi_consistency: {which} is already de-identified "
            "(doc._.deidentified is set); run it before phi_surrogates"
        )


def _rank(label: str) -> Tuple[int, str]:
    return (_LABEL_RANK.get(normalize_label(label), len(_LABEL_RANK)), label)


def _label_list(labels: Iterable[str], setting: str) -> List[str]:
    """Validate a list of labels and normalise them ("age" -> "AGE")."""
    if isinstance(labels, str):
        raise ValueError(f"phi_consistency: {setting} must be a list of labels")
    labels = list(labels)
    if not all(isinstance(x, str) for x in labels):
        raise ValueError(f"phi_consistency: {setting} must be a list of labels")
    return [normalize_label(label) for label in labels]


def _word_list(words: Iterable[str]) -> List[str]:
    """Validate the extra common words (a list of strings, not a string)."""
    items = None if isinstance(words, str) else list(words)
    if items is None or not all(isinstance(x, str) for x in items):
        raise ValueError("phi_consistency: extra_common_words must be a list")
    return items


def _check_cfg(cfg: Dict[str, Any]) -> None:
    """Raise a ValueError for a bad scope or a bad number."""
    if cfg["scope"] not in SCOPES:
        raise ValueError(f"phi_consistency: scope must be one of {SCOPES}")
    for key, least in (("max_run_docs", 1), ("min_chars", 0), ("min_digits", 0)):
        value = cfg[key]
        if isinstance(value, bool) or not isinstance(value, int) or value < least:
            raise ValueError(f"phi_consistency: {key} must be an integer >= {least}")
    for key in ("min_score", "part_min_score"):
        score = cfg[key]
        if isinstance(score, bool) or not isinstance(score, (int, float)):
            raise ValueError(f"phi_consistency: {key} must be a number")

"""What a run changes on a pipeline before it starts, and undoes after it.

Components declare what they read and write through their factory's
`requires` and `assigns` (`nlp.get_pipe_meta(name)`). From that the runner
works out, for each active component, which of the attributes it assigns a
later component (or the runner itself) reads, and from which doc length on:

- a component that assigns attributes and none of them is read is disabled
  for the run (a sentence splitter before sentence-blind components);
- any other component may switch off the part of its work nobody reads
  through the hook `skip_unread(read_from) -> Optional[undo]`, where
  `read_from` maps each of its assigned attributes that is read to the
  length in tokens of the shortest doc in which it is read (a tagger's span
  scores, a splitter that only long docs need);
- a component reads an attribute in docs of at least N tokens only when it
  says so in `read_from` (an attribute of the component, e.g. the taggers
  read sentence starts only to cut docs longer than `MAX_DOC_TOKENS`).

A component whose factory declares neither `requires` nor `assigns` (a
third-party one) may read anything, so nothing before it is switched off.
The output of a run is the same with and without these changes.
"""

from dataclasses import dataclass, field
from typing import Callable, Dict, List, Optional

from spacy.language import Language

from ..core.extensions import DEIDENTIFIED, ENTS, OFFSET_MAP
from ..labels import inverse
from .check import SURROGATES, MarkFailed

KNOWN = "phi_known"
# What the runner reads from every doc (`runner.doc_to_result`).
RUN_READS = frozenset({ENTS, DEIDENTIFIED, OFFSET_MAP})

Undo = Callable[[], None]


@dataclass
class RunChanges:
    """What `prepare_run` changed on a pipeline, for `undo_run`."""

    added: Optional[str] = None
    error_handler: Optional[Callable] = None
    disabled: List[str] = field(default_factory=list)
    undo: List[Undo] = field(default_factory=list)
    skipped: List[str] = field(default_factory=list)


def declares(nlp: Language, name: str) -> bool:
    """Whether the component's factory declares what it reads or writes."""
    meta = nlp.get_pipe_meta(name)
    return bool(meta.requires or meta.assigns)


def reads(nlp: Language, name: str, attrs: List[str]) -> Dict[str, int]:
    """For each of `attrs` that the component `name` reads, the length in
    tokens of the shortest doc in which it reads it (0: every doc).

    nlp (Language): The pipeline.
    name (str): An active component.
    attrs (List[str]): Attributes, e.g. "token.is_sent_start".
    RETURNS (Dict[str, int]): Attribute -> shortest doc length read.
    """
    if not declares(nlp, name):
        return {attr: 0 for attr in attrs}
    required = set(nlp.get_pipe_meta(name).requires)
    start = getattr(nlp.get_pipe(name), "read_from", None) or {}
    return {attr: start.get(attr, 0) for attr in attrs if attr in required}


def read_from(nlp: Language, index: int) -> Dict[str, int]:
    """For the attributes the `index`-th active component assigns, the
    shortest doc length from which a later active component or the runner
    reads each; an attribute nobody reads is absent.

    nlp (Language): The pipeline.
    index (int): Position in `nlp.pipe_names`.
    RETURNS (Dict[str, int]): Attribute -> shortest doc length read.
    """
    assigns = list(nlp.get_pipe_meta(nlp.pipe_names[index]).assigns)
    read: Dict[str, int] = {attr: 0 for attr in assigns if attr in RUN_READS}
    for later in nlp.pipe_names[index + 1 :]:
        for attr, length in reads(nlp, later, assigns).items():
            read[attr] = min(length, read.get(attr, length))
    return read


def skip_unread_work(nlp: Language, changes: RunChanges) -> None:
    """Disable the components nobody reads anything of, and let the others
    switch off what nobody reads (`skip_unread`), from the last component
    to the first, so that a disabled reader counts as reading nothing.

    nlp (Language): The pipeline.
    changes (RunChanges): Records what was done, for `undo_run`.
    """
    for index in reversed(range(len(nlp.pipe_names))):
        name = nlp.pipe_names[index]
        assigns = nlp.get_pipe_meta(name).assigns
        read = read_from(nlp, index)
        if assigns and not read:
            nlp.disable_pipe(name)
            changes.disabled.append(name)
            continue
        hook = getattr(nlp.get_pipe(name), "skip_unread", None)
        undo = hook(read) if callable(hook) else None
        if undo is not None:
            changes.undo.append(undo)
            changes.skipped.append(name)


def ensure_known_pipe(nlp: Language) -> Optional[str]:
    """Add a `phi_known` component before `phi_surrogates` unless the
    pipeline has one (made by the "phi_known" factory, whatever its name).
    Known items with i2b2 labels get the pipeline's labels: the inverse of
    the label map through which `phi_surrogates` reads labels (e.g. MEDDOCAN
    types for es_meddocan).

    nlp (Language): A pipeline ending with `phi_surrogates`.
    RETURNS (Optional[str]): The name of the component added, or None.
    """
    if any(nlp.get_pipe_meta(name).factory == KNOWN for name in nlp.pipe_names):
        return None
    name, n = KNOWN, 1
    while name in nlp.pipe_names:
        name, n = f"{KNOWN}_{n}", n + 1
    surrogate_map = nlp.get_pipe(SURROGATES).cfg.get("label_map")
    config = {"label_map": inverse(surrogate_map)}
    nlp.add_pipe(KNOWN, name=name, before=SURROGATES, config=config)
    return name


def prepare_run(nlp: Language) -> RunChanges:
    """Prepare a pipeline for a run: a `phi_known` component
    (`ensure_known_pipe`), no work whose output nobody reads
    (`skip_unread_work`) and the `MarkFailed` error handler, so that a doc a
    component failed on is rejected, never emitted.

    nlp (Language): A pipeline ending with `phi_surrogates`.
    RETURNS (RunChanges): The changes, for `undo_run`.
    """
    changes = RunChanges(added=ensure_known_pipe(nlp))
    try:
        skip_unread_work(nlp, changes)
    except BaseException:
        undo_run(nlp, changes)
        raise
    changes.error_handler = nlp.default_error_handler
    nlp.set_error_handler(MarkFailed())
    return changes


def undo_run(nlp: Language, changes: RunChanges) -> None:
    """Undo `prepare_run`."""
    if changes.error_handler is not None:
        nlp.set_error_handler(changes.error_handler)
    for undo in reversed(changes.undo):
        undo()
    for name in reversed(changes.disabled):
        if name in nlp.disabled:
            nlp.enable_pipe(name)
    if changes.added is not None and changes.added in nlp.pipe_names:
        nlp.remove_pipe(changes.added)

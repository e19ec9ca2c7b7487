"""The synthetic note generator: patients, note sets, splits and noise."""

from random import Random
from typing import Iterable, Iterator, List, Optional

import srsly

from ..core import types
from . import prose, slots  # noqa: F401  (register slot fillers)
from .builder import Segment
from .context import NoteContext
from .everyday import with_everyday
from .kinds import DEV_KINDS, KINDS, TRAIN_KINDS
from .noise import apply_noise, sample_profile
from .patients import StaffPool, make_profile, note_dates
from .values import Values

SPLITS = ("train", "dev", "test", "all")
CRLF_RATE = 0.15


def _kinds_for(split: str) -> List[str]:
    if split in ("train", "test"):
        return list(TRAIN_KINDS)
    if split == "dev":
        return list(DEV_KINDS) + list(TRAIN_KINDS)
    return list(KINDS)


def _pick_kind(rng: Random, split: str, kinds: List[str]) -> str:
    dev_kinds = [k for k in kinds if k in DEV_KINDS]
    if split == "dev" and dev_kinds and rng.random() < 0.5:
        kinds = dev_kinds
    weights = [KINDS[k].weight for k in kinds]
    return rng.choices(kinds, weights)[0]


def generate(
    n: int,
    seed: int = 0,
    split: str = "all",
    kinds: Optional[Iterable[str]] = None,
    noise: bool = True,
    max_notes_per_patient: int = 5,
    crlf_rate: float = CRLF_RATE,
    everyday_rate: float = 0.0,
) -> Iterator[types.Note]:
    """Yield `n` synthetic annotated notes.

    n (int): Number of notes.
    seed (int): Random seed; the same arguments give identical notes.
    split (str): "train" (no withheld kinds/families), "dev" (withheld kinds
        and dev families where a choice exists), "test" (the train kinds with
        test families where a choice exists) or "all". train, dev and test
        draw PHI values from disjoint pools (`pools.py`); "all" from all.
    kinds (Iterable[str]): Restrict to these note kinds (default: the split's).
    noise (bool): Apply typos, wraps, glued tokens, case changes.
    max_notes_per_patient (int): Upper bound of a patient's note set size.
    crlf_rate (float): Share of notes exported with `\\r\\n` line endings (a
        fifth of those mix `\\r\\n` and `\\n`, as pasted exports do); 0 for none.
    everyday_rate (float): Share of notes that gain a paragraph of everyday,
        PHI-free English (`everyday.py`); the notes are otherwise the same.
    """
    if split not in SPLITS:
        raise ValueError(f"split must be one of {SPLITS}, got {split!r}")
    rng = Random(f"spacy-deid-synth/{seed}/{split}")
    values = Values(Random(rng.randrange(2**63)), split)
    staff = StaffPool(values)
    allowed = _kinds_for(split)
    if kinds is not None:
        wanted = list(kinds)
        unknown = [k for k in wanted if k not in KINDS]
        if unknown:
            raise ValueError(f"unknown note kinds: {unknown}")
        allowed = [k for k in allowed if k in wanted] or wanted
    count, pnum = 0, 0
    while count < n:
        pnum += 1
        pid = f"{split}-{seed}-p{pnum:06d}"
        profile = make_profile(pid, values, staff)
        k = rng.randint(1, max_notes_per_patient)
        for date in note_dates(profile, k, rng):
            if count >= n:
                return
            kind = _pick_kind(rng, split, allowed)
            count += 1
            yield _make_note(
                f"{split}-{seed}-{count:07d}",
                kind,
                rng,
                values,
                staff,
                profile,
                date,
                split,
                noise,
                crlf_rate,
                everyday_rate,
            )


def _make_note(
    nid: str,
    kind: str,
    rng: Random,
    values: Values,
    staff: StaffPool,
    profile,
    date,
    split: str,
    noise: bool,
    crlf_rate: float = 0.0,
    everyday_rate: float = 0.0,
) -> types.Note:  # noqa: ANN001
    spec = KINDS[kind]
    ctx = NoteContext(kind, rng, values, staff, profile, date, split, spec.dev)
    spec.build(ctx)
    segs = ctx.b.segments
    features: List[str] = []
    if noise:
        prof = sample_profile(rng, spec.informal)
        segs = apply_noise(segs, prof, rng)
        features = prof.features()
    if ctx.star_rate:
        features.append("stars")
    eol = rng.random()
    if eol < crlf_rate:
        mixed = eol < crlf_rate / 5
        segs = crlf(segs, rng if mixed else None)
        features.append("crlf_mixed" if mixed else "crlf")
    ctx.b.segments = segs
    text, spans = ctx.b.build()
    stripped = text.rstrip()
    spans = [s for s in spans if s.end <= len(stripped)]
    if everyday_rate > 0:
        before = stripped
        stripped, spans = with_everyday(nid, stripped, spans, split, everyday_rate)
        if stripped != before:
            ctx.families.append("everyday")
    meta = {
        "kind": kind,
        "family": list(ctx.families),
        "split": split,
        "date": date.isoformat(),
        "noise": features,
        "source": "synth",
    }
    return types.Note(id=nid, text=stripped, spans=spans, patient=profile.id, meta=meta)


def crlf(segs: List[Segment], rng: Optional[Random] = None) -> List[Segment]:
    """Line endings as `\\r\\n` (with `rng`: each line ending by a coin flip).

    Only non-PHI segments hold line breaks, so spans stay exact.
    """
    out = []
    for seg in segs:
        text = seg.text
        if seg.label is None and "\n" in text:
            if rng is None:
                text = text.replace("\n", "\r\n")
            else:
                text = "".join(
                    "\r\n" if ch == "\n" and rng.random() < 0.5 else ch for ch in text
                )
        out.append(Segment(text, seg.label))
    return out


def write_jsonl(notes: Iterable[types.Note], path: str) -> int:
    """Write notes as JSONL (`Note.to_dict()`); return the count."""
    records = [note.to_dict() for note in notes]
    srsly.write_jsonl(path, records)
    return len(records)

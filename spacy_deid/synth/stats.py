"""Corpus statistics and template-variety counts."""

from collections import Counter
from typing import Any, Dict, Iterable

from ..core.types import Note
from . import generator  # noqa: F401  (loads kinds and their families)
from .families import REGISTRY
from .grammar import count_phrasings
from .kinds import DEV_KINDS, KINDS


def corpus_stats(notes: Iterable[Note]) -> Dict[str, Any]:
    """Notes, whitespace tokens, PHI per label, notes per kind, patients."""
    n_notes = n_tokens = n_phi = 0
    labels: Counter = Counter()
    kinds: Counter = Counter()
    patients = set()
    for note in notes:
        n_notes += 1
        n_tokens += len(note.text.split())
        n_phi += len(note.spans)
        labels.update(s.label for s in note.spans)
        kinds[note.meta.get("kind", "?")] += 1
        patients.add(note.patient)
    return {
        "notes": n_notes,
        "tokens": n_tokens,
        "phi": n_phi,
        "patients": len(patients),
        "phi_per_label": dict(sorted(labels.items())),
        "notes_per_kind": dict(sorted(kinds.items())),
    }


def template_stats() -> Dict[str, Dict[str, Any]]:
    """Per note kind: families, withheld families, frames and phrasings."""
    out: Dict[str, Dict[str, Any]] = {}
    for fid in sorted(REGISTRY):
        fam = REGISTRY[fid]
        kind = fid.split(".")[0]
        row = out.setdefault(
            kind,
            {
                "families": 0,
                "dev_families": 0,
                "frames": 0,
                "phrasings": 0,
                "dev_kind": kind in DEV_KINDS,
            },
        )
        row["families"] += 1
        row["dev_families"] += int(fam.dev)
        row["frames"] += len(fam.frames)
        row["phrasings"] += count_phrasings(list(fam.frames))
    for kind in KINDS:
        out.setdefault(
            kind,
            {
                "families": 0,
                "dev_families": 0,
                "frames": 0,
                "phrasings": 0,
                "dev_kind": kind in DEV_KINDS,
            },
        )
    return out

"""Synthetic clinical notes with exact PHI spans (i2b2 2014 labels).

No real notes are used: text is composed from template families (see
`grammar.py` for the `<a|b>`, `[optional]`, `{slot}` syntax) filled with
seeded Faker values and the curated lists in `data/`. Offsets are recorded at
insertion time (`builder.py`), then segment-level noise is applied
(`noise.py`) before the final string and spans are assembled.

Note kinds (one module each in `kinds/`): discharge, psych, icu_nursing,
radiology, referral, ed_triage, clinic_comment, lab_header, audit_log,
progress, operative, consult, patient_letter, and two kinds withheld from the
train split: pathology and telephone.

Splits: `generate(n, seed, split="train")` never uses the withheld kinds or any
family defined with `dev=True` (about 20% of the families of every other kind,
listed by `families.withheld_ids()`). `split="dev"` draws half of its notes
from the withheld kinds and, for the other kinds, uses a withheld family at
every choice point that has one, so each dev note contains structures never
seen in train. `split="all"` mixes everything.
"""

from .generator import SPLITS, generate, write_jsonl
from .stats import corpus_stats, template_stats

__all__ = ["SPLITS", "corpus_stats", "generate", "template_stats", "write_jsonl"]

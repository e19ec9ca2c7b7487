"""Synthetic clinical notes with exact PHI spans (i2b2 2014 labels).

No real notes are used: text is composed from template families (see
`grammar.py` for the `<a|b>`, `[optional]`, `{slot}` syntax) filled with
seeded Faker values and the curated lists in `data/`. Offsets are recorded at
insertion time (`builder.py`), then segment-level noise is applied
(`noise.py`) before the final string and spans are assembled.

Note kinds (one module each in `kinds/`): discharge, psych, icu_nursing,
radiology, referral, ed_triage, clinic_comment, lab_header, audit_log,
progress, operative, consult, patient_letter, transfer_form, prescription, and
three kinds withheld from the train split: ems_run, pathology and telephone.
Long narrative kinds (discharge, progress, consult) dominate, as in real
corpora, for about 5-6 PHI per 100 whitespace tokens.

Coherence: each patient profile (`patients.py`) fixes sex, age, marital status
(from the relatives: a wife/husband means married), employment (employed,
retired, laid off, ...), school and age-plausible relatives; slots such as
`{job}`, `{marital}`, `{partner}`, `{stressor}` and `{cond}` render from it.
Conditions and some vocabulary carry sex/age limits (`clinical.json`
`condition_limits`, `vocab_limits`); medications are records with doses,
routes and frequencies (`medications`), drips are IV with rate units;
ventilated ICU patients get vent-only vocabulary (`ctx.vented()`); date ranges
(`{drange}`) are ordered and in one format. All relative slots within one
frame refer to the same relative.

Splits: `generate(n, seed, split="train")` never uses the withheld kinds or any
family defined with `dev=True` (about 20% of the families of every other kind,
PHI-free `prose.*` and shared `common.*` ones too, listed by
`families.withheld_ids()`) or `test=True` (`families.test_ids()`).
`split="dev"` draws half of its notes from the withheld kinds and, for the
other kinds, uses a dev family at every choice point that has one, so each dev
note contains structures never seen in train. `split="test"` uses the train
kinds with a test family at every choice point that has one (one or more in
every kind), so each test note holds structures that neither train nor dev
use. train, dev and test draw PHI values from disjoint pools (`pools.py`: a
stable hash of each value; dates, ages and states are shared). `split="all"`
mixes everything, values included.

Line endings: a share of the notes (`crlf_rate`, default 0.15, in every split)
is exported with `\\r\\n` line endings, a fifth of those mixing `\\r\\n`
and `\\n`; spans stay exact because breaks only occur in non-PHI segments.
"""

from .generator import CRLF_RATE, SPLITS, generate, write_jsonl
from .stats import corpus_stats, template_stats

__all__ = [
    "CRLF_RATE",
    "SPLITS",
    "corpus_stats",
    "generate",
    "template_stats",
    "write_jsonl",
]

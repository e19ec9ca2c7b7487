"""Real-world knowledge: names, places, word commonness and drug names.

Compact tables derived from public data (US Census surnames, SSA given names,
GeoNames places, wordfreq's English frequencies, FDA UNII drug names; see
`data/SOURCES.md` and docs/knowledge.md for their origin and licences), built by
`scripts/build_knowledge.py` and read with the standard library only, lazily,
once per process. Case- and accent-folded: `lookup("Zürich") == lookup("zurich")`.
This layer sits above `labels/` and below `text/`: it imports neither.
"""

from .fold import fold, name_key
from .lookup import (
    COMMON_WORD_ZIPF,
    Knowledge,
    bucket,
    features,
    lookup,
    name_zipf,
    place_zipf,
    region_codes,
    zipf_bucket,
)
from .tables import TABLES, clear_cache, load, preload

__all__ = [
    "COMMON_WORD_ZIPF", "Knowledge", "TABLES", "bucket", "clear_cache", "features",
    "fold", "load", "lookup", "name_key", "name_zipf", "place_zipf", "preload", "region_codes",
    "zipf_bucket",
]  # fmt: skip

"""Known PHI: identifiers from the structured record (name, MRN, birth date,
address, phone), marked wherever they occur in a note, variants included.

- `variants.compile_known(items)`: one compiled matcher for a list of items;
- `component`: the `phi_known` factory and `mark_known_phi(doc, items)`;
- `items.validate_known`: the shape of `[{"text": str, "label": str}, ...]`;
- `store.KnownPhiStore`: per-patient inheritance and preset lists for runs.
"""

from .component import KnownPhiMarker, make_phi_known, mark_known_phi
from .items import KnownItem, KnownPhiError, validate_known
from .store import KnownFileError, KnownPhiStore, merge_known, read_known_file
from .variants import KnownMatch, KnownMatcher, compile_known, label_family, variants

__all__ = [
    "KnownFileError",
    "KnownItem",
    "KnownMatch",
    "KnownMatcher",
    "KnownPhiError",
    "KnownPhiMarker",
    "KnownPhiStore",
    "compile_known",
    "label_family",
    "make_phi_known",
    "mark_known_phi",
    "merge_known",
    "read_known_file",
    "validate_known",
    "variants",
]

"""Known PHI across the records of a run: preset lists and inheritance.

A record may carry its own `known_phi` list. The first record of a patient
that carries one gives it to every later record of that patient in the same
run; a later record with its own list uses the union of both (and passes the
union on). Preset lists (e.g. from `spacy-deid run --known-phi FILE`) apply
to every record of a patient or to one record id. Records without a
"patient" inherit nothing (their patient scope is their own id).

Memory: preset lists are held in full (their size is the file's). Inherited
lists are kept in an LRU of at most `max_patients` patients. With records
grouped by patient (the usual export order) only the current patient's list
is ever needed, so any size works; with interleaved patients, a patient
evicted from the LRU no longer passes its list on to its later records.
Evictions are counted (`evicted`) and logged once (counts only, no ids),
so that a run that needs a larger cache says so; pass the list on every
record or use a preset file to be independent of the order.
"""

import json
import logging
from collections import OrderedDict
from pathlib import Path
from typing import Dict, Iterable, Iterator, List, Optional, Sequence, Tuple
from typing import Union

from .common import fold
from .items import KnownItem, KnownPhiError, as_id, validate_known

logger = logging.getLogger(__name__)

# Patients whose inherited known PHI is kept (see the module docstring).
DEFAULT_MAX_PATIENTS = 10_000


class KnownFileError(ValueError):
    """A bad line in a known-PHI file. Messages name the line, never text."""


def merge_known(*lists: Optional[Sequence[KnownItem]]) -> List[KnownItem]:
    """The union of known lists, without duplicates (same folded text and
    label), in order.

    lists (Optional[Sequence[KnownItem]]): Validated lists, or None.
    RETURNS (List[KnownItem]): The union.
    """
    seen: Dict[Tuple[str, str], KnownItem] = {}
    for items in lists:
        for item in items or ():
            seen.setdefault((fold(item["text"]), item["label"]), item)
    return list(seen.values())


class KnownPhiStore:
    """Known PHI for the records of a run (see the module docstring)."""

    def __init__(
        self,
        by_patient: Optional[Dict[str, List[KnownItem]]] = None,
        by_id: Optional[Dict[str, List[KnownItem]]] = None,
        max_patients: int = DEFAULT_MAX_PATIENTS,
    ) -> None:
        """Create a store.

        by_patient (Optional[Dict[str, List[KnownItem]]]): Preset lists for
            every record of a patient.
        by_id (Optional[Dict[str, List[KnownItem]]]): Preset lists for one
            record id.
        max_patients (int): Patients whose inherited lists are kept (>= 1).
        """
        if max_patients < 1:
            raise ValueError("max_patients must be at least 1")
        self.by_patient: Dict[str, List[KnownItem]] = dict(by_patient or {})
        self.by_id: Dict[str, List[KnownItem]] = dict(by_id or {})
        self.max_patients = max_patients
        self.evicted = 0
        self._inherited: "OrderedDict[str, List[KnownItem]]" = OrderedDict()

    def __len__(self) -> int:
        """The number of patients with an inherited list kept now."""
        return len(self._inherited)

    def add(
        self,
        known: Sequence[KnownItem],
        *,
        patient: Optional[str] = None,
        record_id: Optional[str] = None,
    ) -> None:
        """Add a preset list for a patient or for a record id (union with
        what is there).

        known (Sequence[KnownItem]): Validated items.
        patient (Optional[str]): The patient id.
        record_id (Optional[str]): The record id.
        """
        if (patient is None) == (record_id is None):
            raise ValueError("give a patient or a record id")
        if patient is not None:
            self.by_patient[patient] = merge_known(self.by_patient.get(patient), known)
        elif record_id is not None:
            self.by_id[record_id] = merge_known(self.by_id.get(record_id), known)

    def resolve(
        self,
        record_id: str,
        patient: Optional[str],
        own: Optional[Sequence[KnownItem]] = None,
    ) -> Optional[List[KnownItem]]:
        """The known PHI of a record, and remember its own list for the later
        records of its patient. Call it once per record, in input order.

        record_id (str): The record id.
        patient (Optional[str]): The record's patient, if any.
        own (Optional[Sequence[KnownItem]]): The record's own validated list.
        RETURNS (Optional[List[KnownItem]]): Preset, inherited and own items
            together, or None if there are none.
        """
        preset = inherited = None
        if patient is not None:
            preset = self.by_patient.get(patient)
            inherited = self._inherited.get(patient)
            if inherited is not None:
                self._inherited.move_to_end(patient)
            if own:
                self._remember(patient, merge_known(inherited, own))
        merged = merge_known(preset, inherited, self.by_id.get(record_id), own)
        return merged or None

    def _remember(self, patient: str, known: List[KnownItem]) -> None:
        self._inherited[patient] = known
        self._inherited.move_to_end(patient)
        while len(self._inherited) > self.max_patients:
            self._inherited.popitem(last=False)
            self.evicted += 1
            if self.evicted == 1:
                logger.warning(
                    "known_phi: more than %d patients with known PHI are "
                    "interleaved; the oldest no longer pass it on to their "
                    "later records (group records by patient, or raise the "
                    "cache size)",
                    self.max_patients,
                )

    @classmethod
    def from_file(
        cls, path: Union[str, Path], max_patients: int = DEFAULT_MAX_PATIENTS
    ) -> "KnownPhiStore":
        """A store with the preset lists of a known-PHI JSONL file.

        path (Union[str, Path]): See `read_known_file`.
        max_patients (int): Patients whose inherited lists are kept.
        RETURNS (KnownPhiStore): The store.
        """
        store = cls(max_patients=max_patients)
        for kind, key, known in read_known_file(path):
            if kind == "patient":
                store.add(known, patient=key)
            else:
                store.add(known, record_id=key)
        return store


def parse_known_line(line: str, line_no: int) -> Tuple[str, str, List[KnownItem]]:
    """Parse one line of a known-PHI file.

    line (str): {"patient": ..., "known_phi": [...]} or {"id": ...,
        "known_phi": [...]}.
    line_no (int): The 1-based line number, for errors.
    RETURNS (Tuple[str, str, List[KnownItem]]): ("patient" or "id", the key,
        the validated items).
    """
    where = f"line {line_no}"
    try:
        data = json.loads(line)
    except ValueError as error:
        raise KnownFileError(
            f"{where}: invalid JSON ({error.msg} at column {error.colno})"
        ) from None
    if not isinstance(data, dict):
        raise KnownFileError(f"{where}: not a JSON object")
    kinds = [kind for kind in ("patient", "id") if data.get(kind) is not None]
    if len(kinds) != 1:
        raise KnownFileError(f"{where}: give either 'patient' or 'id'")
    key = as_id(data[kinds[0]])
    if key is None:
        raise KnownFileError(f"{where}: '{kinds[0]}' is not a string or integer")
    if "known_phi" not in data:
        raise KnownFileError(f"{where}: no 'known_phi' field")
    try:
        known = validate_known(data["known_phi"])
    except KnownPhiError as error:
        raise KnownFileError(f"{where}: {error}") from None
    return kinds[0], key, known


def read_known_file(
    path: Union[str, Path],
) -> Iterator[Tuple[str, str, List[KnownItem]]]:
    """Read a known-PHI JSONL file; blank lines are skipped.

    path (Union[str, Path]): The file.
    YIELDS (Tuple[str, str, List[KnownItem]]): See `parse_known_line`.
    """
    with Path(path).open("rb") as stream:
        yield from _read_lines(stream)


def _read_lines(stream: Iterable[bytes]) -> Iterator[Tuple[str, str, List[KnownItem]]]:
    for line_no, raw in enumerate(stream, 1):
        try:
            line = raw.decode("utf-8-sig" if line_no == 1 else "utf-8")
        except UnicodeDecodeError as error:
            raise KnownFileError(
                f"line {line_no}: invalid UTF-8 at byte {error.start}"
            ) from None
        if line.strip():
            yield parse_known_line(line, line_no)

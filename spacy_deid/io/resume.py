"""Resuming an interrupted run (`spacy-deid run --resume`): reading back
what the earlier run wrote and rejected (`read_done`), and skipping those
records in the new run's input (`Feed`).

The records already written are skipped by id, as a multiset (an id written
k times skips its first k occurrences); `scan_output` first cuts off a
record that `kill -9` left half-written (JSONL, CSV) and removes unfinished
Parquet parts. Messages name files and lines, never text.
"""

import hashlib
import json
from collections import Counter, deque
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Deque, Dict, Iterable, Iterator, Optional, Set, Tuple

import numpy as np

from ..known.items import KnownPhiError, as_id, validate_known
from ..known.store import KnownPhiStore
from .records import Item, Output, Record, Row
from .tables import csv_rows, import_parquet
from .writers import NO_META, PART_PATTERN, REDACTED_ALL, SPANS_FILE, Layout, Meta

# Skipped records of one patient sent again on --resume, at most.
MAX_REPLAY = 1000


class ResumeError(ValueError):
    """An existing output cannot be resumed (messages never hold text)."""




ResumeKey = Tuple[str, Any]


class KeyMultiset:
    """A multiset of resume keys, held compactly: each key is a 16-byte
    BLAKE2b digest, kept in a sorted numpy array with a count per distinct
    digest: about 20 bytes per record written (a `Counter` of the keys and
    their id strings would take about 200), so that resuming a run of 100
    million notes fits in about 2 GB. Two keys share a digest with
    probability 2**-128.
    """

    def __init__(self) -> None:
        self._added = bytearray()
        self._digests = np.empty(0, dtype="V16")
        self._counts = np.empty(0, dtype="u4")
        self.total = 0
        self.left = 0

    def __bool__(self) -> bool:
        """Whether any occurrence is left to take."""
        return self.left > 0

    def add(self, key: ResumeKey, count: int = 1) -> None:
        """Add `count` occurrences of a key."""
        self._added += _digest(key) * count
        self.total += count
        self.left += count

    def take(self, key: ResumeKey) -> bool:
        """Remove one occurrence of a key; whether there was one."""
        if self._added:
            self._merge()
        digest = np.frombuffer(_digest(key), dtype="V16")[0]
        i = int(np.searchsorted(self._digests, digest))
        if i == len(self._digests) or self._digests[i] != digest:
            return False
        if not self._counts[i]:
            return False
        self._counts[i] -= 1
        self.left -= 1
        return True

    def _merge(self) -> None:
        """Sort the digests added since the last take into the arrays (in
        place: about 50 bytes per record at the peak, once)."""
        added = np.frombuffer(self._added, dtype="V16")  # a view, writable
        self._added = bytearray()
        if len(self._digests):
            kept = np.repeat(self._digests, self._counts)
            added = np.concatenate([kept, added])
        added.sort()
        new = np.concatenate([[True], added[1:] != added[:-1]])
        starts = np.flatnonzero(new)
        self._counts = np.diff(np.append(starts, len(added))).astype("u4")
        self._digests = added[starts]


def _digest(key: ResumeKey) -> bytes:
    return hashlib.blake2b(repr(key).encode("utf8"), digest_size=16).digest()


@dataclass
class Done:
    """What an earlier run wrote: the ids written (a multiset), the ids
    written redacted whole, the keys of the rejections, and counts."""

    written: KeyMultiset = field(default_factory=KeyMultiset)
    redacted: Counter = field(default_factory=Counter)
    rejected: Counter = field(default_factory=Counter)
    rejected_redacted: Counter = field(default_factory=Counter)
    next_part: int = 0

    @property
    def n_written(self) -> int:
        return self.written.total

    @property
    def n_rejected(self) -> int:
        return sum(self.rejected.values()) + sum(self.rejected_redacted.values())


def item_key(record_id: Optional[str], position: Optional[int]) -> ResumeKey:
    """The resume key of an input item: its id, or its line/row without one."""
    if record_id is not None:
        return ("id", record_id)
    return ("position", position)


def _truncate(path: Path, size: int) -> None:
    if path.stat().st_size != size:
        with path.open("r+b") as handle:
            handle.truncate(size)


def scan_jsonl(path: Path, done: Done, what: str = "output") -> None:
    """Read the ids of a JSONL output (or reject file) into `done`, cutting
    off a last line that was not written whole.

    path (Path): The file.
    done (Done): Filled in place.
    what (str): "output" or "rejects".
    """
    good = 0
    with path.open("rb") as stream:
        for line_no, raw in enumerate(stream, 1):
            if not raw.endswith(b"\n"):
                break
            if raw.strip():
                _add_jsonl(raw, line_no, path, done, what)
            good += len(raw)
    _truncate(path, good)


def _add_jsonl(raw: bytes, line_no: int, path: Path, done: Done, what: str) -> None:
    try:
        data = json.loads(raw)
        if not isinstance(data, dict):
            raise ValueError
    except ValueError:
        raise ResumeError(
            f"'{path}' line {line_no} is not a record of spacy-deid run: cannot resume"
        ) from None
    if what == "output":
        if as_id(data.get("id"), table=True) is None:
            raise ResumeError(f"'{path}' line {line_no} has no id: cannot resume")
        _add_written(done, str(data["id"]), data.get(REDACTED_ALL) is True)
        return
    position = data.get("line", data.get("row"))
    key = item_key(as_id(data.get("id"), table=True), position)
    if data.get(REDACTED_ALL) is True:
        done.rejected_redacted[key] += 1
    else:
        done.rejected[key] += 1


def _add_written(done: Done, record_id: str, redacted: bool) -> None:
    done.written.add(("id", record_id))
    if redacted:
        done.redacted[("id", record_id)] += 1


def scan_csv(path: Path, layout: Layout, done: Done) -> None:
    """Read the ids of a CSV output into `done`, cutting off a last row that
    was not written whole; the header must be this run's."""
    good = 0
    columns = layout.columns
    with path.open("rb") as stream:
        rows = csv_rows(stream)
        for n, (fields, _, lines) in enumerate(rows):
            whole = fields is not None and not lines.eof
            if n == 0:
                if not whole:
                    break
                if fields != columns:
                    raise ResumeError(
                        f"'{path}' has other columns than this run writes: "
                        "cannot resume (same options as the first run?)"
                    )
            elif not whole or len(fields or []) != len(columns):
                break
            else:
                row = dict(zip(columns, fields or [], strict=True))
                redacted = row.get(REDACTED_ALL) == "true"
                _add_written(done, row[layout.id], redacted)
            good = lines.offset
    _truncate(path, good)


def scan_dataset(folder: Path, layout: Layout, done: Done) -> None:
    """Read the ids of the complete parts of a Parquet dataset folder into
    `done` and remove the unfinished parts (`_part-*.parquet.tmp`)."""
    for tmp in folder.glob("_part-*.parquet.tmp"):
        tmp.unlink()
    pq = import_parquet()
    last = -1
    for path in sorted(folder.iterdir()):
        match = PART_PATTERN.match(path.name)
        if match is None:
            continue
        last = max(last, int(match.group(1)))
        try:
            parquet = pq.ParquetFile(path)
        except Exception as error:  # noqa: BLE001
            msg = f"'{path}' is not readable ({type(error).__name__}): cannot resume"
            raise ResumeError(msg) from None
        if parquet.schema_arrow.names != layout.columns:
            raise ResumeError(
                f"'{path}' has other columns than this run writes: cannot "
                "resume (same options as the first run?)"
            )
        wanted = [layout.id] + ([REDACTED_ALL] if layout.redacted_all else [])
        for batch in parquet.iter_batches(columns=wanted):
            ids = batch.column(layout.id).to_pylist()
            flags = (
                batch.column(REDACTED_ALL).to_pylist()
                if layout.redacted_all
                else [False] * len(ids)
            )
            for record_id, flag in zip(ids, flags, strict=True):
                _add_written(done, str(record_id), flag is True)
    done.next_part = last + 1


def scan_output(layout: Layout, done: Done) -> None:
    """Read what an earlier run wrote to this output into `done` (nothing if
    it does not exist), cutting off a record written in part."""
    path = Path(layout.path)
    if layout.fmt == "parquet":
        if not layout.dataset:
            raise ResumeError("a single Parquet file cannot be resumed")
        if path.exists() and not path.is_dir():
            raise ResumeError(f"'{path}' is a file, not a Parquet dataset folder")
        if path.is_dir():
            scan_dataset(path, layout, done)
        return
    if layout.fmt == "txt":
        path = path / SPANS_FILE
    if not path.exists():
        return
    if layout.fmt == "csv":
        scan_csv(path, layout, done)
    else:
        scan_jsonl(path, done)


def existing_output(layout: Layout) -> bool:
    """Whether an output holds anything a resumed run would keep."""
    path = Path(layout.path)
    if layout.fmt == "txt":
        return (path / SPANS_FILE).exists()
    if layout.fmt == "parquet" and path.is_dir():
        return any(PART_PATTERN.match(p.name) for p in path.iterdir())
    return path.exists()


class Feed:
    """Turns input rows into the items for the runner. It keeps each record's
    patient and kept values by index until its output is written (only the
    records in flight), and on `--resume` skips the records already written
    or rejected (a multiset of ids: an id written k times skips its first k
    occurrences).

    A resumed run must give what one run would: so the skipped records of
    the patient whose run of notes the resumed part continues are sent
    again, their outputs dropped (`replayed`), so that cross-note
    components (`phi_consistency`) see the whole run; and the skipped
    records' own known PHI is passed on to their patient's later records.
    """

    def __init__(self, store: KnownPhiStore, done: Optional[Done] = None) -> None:
        self.store = store
        # What the earlier run wrote (large) and rejected (few), to skip.
        self.skip_written = done.written if done is not None else KeyMultiset()
        self.skip_rejected: Counter = Counter()
        if done is not None:
            self.skip_rejected = done.rejected.copy()
        self.meta: Dict[int, Meta] = {}
        self.replayed: Set[int] = set()
        self.held: Deque[Record] = deque()
        self.skipped = 0

    def items(self, rows: Iterable[Row]) -> Iterator[Item]:
        for row in rows:
            item = row.item
            if (self.skip_written or self.skip_rejected) and self._skipped(item):
                continue
            if isinstance(item, Record):
                if self.held and _scope(self.held[-1]) == _scope(item):
                    for record in self.held:
                        self.replayed.add(record.index)
                        yield record
                    self.held.clear()
                self.meta[item.index] = (item.patient, row.kept)
            self._pass_on_held()
            yield item
        self._pass_on_held()

    def _skipped(self, item: Item) -> bool:
        key = item_key(item.id, item.line)
        if not self.skip_written.take(key):
            if not self.skip_rejected.get(key):
                return False
            self.skip_rejected[key] -= 1
            if not self.skip_rejected[key]:
                del self.skip_rejected[key]
        self.skipped += 1
        if isinstance(item, Record):
            if self.held and _scope(self.held[-1]) != _scope(item):
                self._pass_on_held()
            if len(self.held) >= MAX_REPLAY:
                self._pass_on(self.held.popleft())
            self.held.append(item)
        return True

    def _pass_on_held(self) -> None:
        while self.held:
            self._pass_on(self.held.popleft())

    def _pass_on(self, record: Record) -> None:
        """Let a skipped record pass its known PHI on, as if processed."""
        try:
            own = validate_known(record.known_phi) or None
            self.store.resolve(record.id, record.patient, own)
        except KnownPhiError:
            pass

    def take(self, output: Output) -> Tuple[bool, Meta]:
        """(whether the output is to be written, the record's patient and
        kept values)."""
        meta = self.meta.pop(output.index, NO_META)
        if output.index in self.replayed:
            self.replayed.discard(output.index)
            return False, meta
        return True, meta


def _scope(record: Record) -> str:
    return record.patient or record.id


def read_done(layout: Layout, reject_file: Optional[Path] = None) -> Optional[Done]:
    """What an interrupted run wrote to this output and its reject file (None
    when there is no output yet: a fresh run). Raises ResumeError (or
    tables.MissingDependency) when it cannot be resumed.

    layout (Layout): The output.
    reject_file (Optional[Path]): The reject file of the run, if any.
    RETURNS (Optional[Done]): What to skip.
    """
    if not existing_output(layout):
        if layout.fmt == "parquet":
            scan_output(layout, Done())  # removes unfinished parts
        return None
    done = Done()
    scan_output(layout, done)
    if reject_file is not None and reject_file.exists():
        scan_jsonl(reject_file, done, "rejects")
    return done

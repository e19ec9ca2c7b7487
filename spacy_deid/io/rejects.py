"""Reporting rejected records: on stderr and in the reject file, by id and
line or row, never with text."""

from collections import Counter
from typing import Callable, Optional

from .records import Rejected
from .resume import Done, item_key
from .writers import Writer

# Rejections listed one by one on stderr; the rest are counted (all of them
# go to the reject file).
MAX_SHOWN = 10


class Rejects:
    """Reports rejections on stderr (id and line/row, never text) and to the
    writer; on `--resume`, a record written redacted whole whose rejection
    is already in the reject file is not listed twice."""

    def __init__(
        self,
        writer: Writer,
        unit: str,
        done: Optional[Done],
        echo: Callable[[str], None],
    ) -> None:
        """Create the reporter.

        writer (Writer): Takes the rejections for the reject file.
        unit (str): "line" or "row", how positions are named.
        done (Optional[Done]): What the earlier run wrote (`--resume`).
        echo (Callable[[str], None]): Prints a status line on stderr.
        """
        self.writer = writer
        self.echo = echo
        self.unit = unit
        self.listed: Counter = Counter()
        self.shown = 0
        self.hidden = 0
        if done is not None:
            # Rejections listed with no redacted output (cut by kill -9).
            self.listed = done.rejected_redacted - done.redacted

    def __call__(self, item: Rejected, redacted: bool = False) -> None:
        where = f"{self.unit} {item.line}" if item.line is not None else "input"
        name = f"record {item.id!r}" if item.id is not None else "a record"
        if self.shown < MAX_SHOWN:
            self.shown += 1
            self.echo(f"Rejected {name} ({where}): {item.error}")
        else:
            self.hidden += 1
        key = item_key(item.id, item.line)
        if redacted and self.listed.get(key):
            self.listed[key] -= 1
            return
        self.writer.reject(item, redacted)

    def close(self, reject_file: Optional[str] = None) -> None:
        """Say how many rejections were not listed on stderr."""
        if self.hidden:
            where = f"in {reject_file}" if reject_file else "with --reject-file"
            self.echo(
                f"... and {self.hidden:,} more rejected records (listed {where})"
            )

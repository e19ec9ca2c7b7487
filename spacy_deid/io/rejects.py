"""Reporting rejected records: on stderr and in the reject file, by id and
line or row, never with text."""

from collections import Counter
from typing import Callable, Optional

from .records import Rejected
from .resume import Done, item_key
from .writers import Writer


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
        if done is not None:
            # Rejections listed with no redacted output (cut by kill -9).
            self.listed = done.rejected_redacted - done.redacted

    def __call__(self, item: Rejected, redacted: bool = False) -> None:
        where = f"{self.unit} {item.line}" if item.line is not None else "input"
        name = f"record {item.id!r}" if item.id is not None else "a record"
        self.echo(f"Rejected {name} ({where}): {item.error}")
        key = item_key(item.id, item.line)
        if redacted and self.listed.get(key):
            self.listed[key] -= 1
            return
        self.writer.reject(item, redacted)

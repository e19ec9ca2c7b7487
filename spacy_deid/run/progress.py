"""Progress of a run on stderr: records done, notes/s, rejected and, when the
number of input records is known (counted in a background thread; Parquet
from its metadata; not for stdin), the share done and the ETA. Counts only,
never note text."""

import sys
import threading
import time
from collections import deque
from typing import IO, Callable, Deque, Optional, Tuple

from ..io.records import Output, Rejected, Result
from ..io.tables import count_rows


class Progress:
    """Counts on stderr, never note text: records done, notes/s (moving
    average over the last `window` seconds), rejected, and with a known
    total the share done and the ETA. On a terminal the line is redrawn
    every `interval` seconds (default 1); elsewhere (a forced `--progress`
    into a log) one line is written every 10 seconds."""

    def __init__(
        self,
        enabled: bool,
        stream: Optional[IO[str]] = None,
        clock: Callable[[], float] = time.monotonic,
        interval: Optional[float] = None,
        window: float = 30.0,
    ) -> None:
        self.enabled = enabled
        self.stream = stream if stream is not None else sys.stderr
        self.tty = bool(getattr(self.stream, "isatty", lambda: False)())
        self.interval = (
            interval if interval is not None else (1.0 if self.tty else 10.0)
        )
        self.clock = clock
        self.window = window
        self.start = clock()
        self.last = self.start
        # (time, records done) since the first record finished: the time
        # before it (loading the pipeline) is no processing speed.
        self.samples: Deque[Tuple[float, int]] = deque()
        self.done = 0
        self.rejected = 0
        self.redacted_all = 0
        # Records in the input (None: unknown) and records skipped (resume).
        self.total: Optional[int] = None
        self.skipped = 0
        self.width = 0

    def update(self, output: Output) -> None:
        self.done += 1
        # A record redacted whole ("redact-all") was rejected all the same.
        redacted_all = isinstance(output, Result) and output.rejected is not None
        self.redacted_all += redacted_all
        self.rejected += isinstance(output, Rejected) or redacted_all
        now = self.clock()
        if not self.samples:
            self.samples.append((now, self.done))
        if self.enabled and now - self.last >= self.interval:
            self.last = now
            self._print(end="\r" if self.tty else "\n")

    def rate(self) -> Optional[float]:
        """Notes per second over the last `window` seconds (at least the
        last two samples), counted from the first record done; None until
        some time has passed since then."""
        if not self.samples:
            return None
        now = self.clock()
        self.samples.append((now, self.done))
        while len(self.samples) > 2 and now - self.samples[1][0] >= self.window:
            self.samples.popleft()
        then, done_then = self.samples[0]
        if now - then <= 0:
            return None
        return (self.done - done_then) / (now - then)

    def line(self) -> str:
        """The progress line (no rate or ETA until the rate is measured)."""
        rate = self.rate()
        speed = "" if rate is None else f"{rate:,.1f} notes/s, "
        msg = f"{self.done:,} notes, {speed}{self.rejected:,} rejected"
        if self.total is not None:
            total = max(self.total - self.skipped, self.done)
            share = 100.0 * self.done / total if total else 100.0
            msg += f", {share:.1f}% of {total:,}"
            if rate:
                msg += f", ETA {format_duration((total - self.done) / rate)}"
        return msg

    def _print(self, end: str) -> None:
        msg = self.line()
        if end == "\r":
            msg, self.width = msg.ljust(self.width), max(self.width, len(msg))
        self.stream.write(msg + end)
        self.stream.flush()

    def close(self) -> None:
        if self.enabled:
            self._print(end="\n")


def format_duration(seconds: float) -> str:
    """H:MM:SS."""
    seconds = int(round(max(seconds, 0.0)))
    return f"{seconds // 3600}:{seconds // 60 % 60:02d}:{seconds % 60:02d}"


def count_in_background(tracker: Progress, source: str, fmt: str) -> None:
    """Count the input's records in a daemon thread (for the ETA): the run
    starts at once, the ETA shows once the count is known."""

    def count() -> None:
        try:
            tracker.total = count_rows(source, fmt)
        except Exception:  # noqa: BLE001 - no count, no ETA
            tracker.total = None

    if tracker.enabled and source != "-":
        threading.Thread(target=count, name="spacy-deid-count", daemon=True).start()

"""Stopping a run cleanly on SIGINT or SIGTERM: never half-way through a
write, and with worker processes terminated first."""

import multiprocessing
import os
import signal
import threading
from contextlib import contextmanager
from types import FrameType
from typing import Any, Dict, Iterator, Optional

EXIT_INTERRUPTED = 130
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)


class StopOnSignal:
    """While entered, SIGINT and SIGTERM raise KeyboardInterrupt, except inside
    `hold()` (a write in progress): then as soon as the write is over. Worker
    processes (`--n-process`) are terminated first: `nlp.pipe` would otherwise
    wait for them forever when it is stopped half-way."""

    def __init__(self) -> None:
        self.holding = 0
        self.pending = False
        # Set once the run is stopping: later signals are ignored.
        self.stopped = False
        self.previous: Dict[int, Any] = {}
        self.pid = os.getpid()

    def __enter__(self) -> "StopOnSignal":
        if threading.current_thread() is threading.main_thread():
            for signum in STOP_SIGNALS:
                self.previous[signum] = signal.signal(signum, self._handle)
        return self

    def __exit__(self, *args: object) -> None:
        for signum, handler in self.previous.items():
            signal.signal(signum, handler)
        self.previous = {}

    def _handle(self, signum: int, frame: Optional[FrameType]) -> None:
        if self.stopped:
            return
        if self.holding:
            self.pending = True
            return
        self._stop()

    def _stop(self) -> None:
        if os.getpid() != self.pid:
            # A forked worker: its work is lost anyway; leave without a trace.
            os._exit(EXIT_INTERRUPTED)
        for child in multiprocessing.active_children():
            child.terminate()
        raise KeyboardInterrupt

    @contextmanager
    def hold(self) -> Iterator[None]:
        """Defer signals until the block ends."""
        self.holding += 1
        try:
            yield
        finally:
            self.holding -= 1
        if not self.holding and self.pending and not self.stopped:
            self.pending = False
            self._stop()

"""A test-only pipeline component that misbehaves in worker processes, for
the fail-closed tests of the process pool (`test_runner_pool.py`) and of
`spacy_deid.spark` (`test_spark.py`). Registered once, here, as
"test_pool_hazard"."""

import multiprocessing
import os
import signal
import time

from spacy.language import Language

EXIT_MARK = "EXITWORKER"
KILL_MARK = "KILLWORKER"
SWALLOW_MARK = "SWALLOWED"
HANG_MARK = "HANGWORKER"


class Hazard:
    """Test-only component: in a worker process, a note with EXIT_MARK ends the
    process with os._exit(3) and one with KILL_MARK sends it SIGKILL; a note
    with SWALLOW_MARK is reported to the error handler and passed on (as
    `phi_rules` does with its errors); one with HANG_MARK never finishes."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.error_handler = None

    def set_error_handler(self, handler) -> None:
        self.error_handler = handler

    def get_error_handler(self):
        return self.error_handler

    def __call__(self, doc):
        in_worker = multiprocessing.parent_process() is not None
        if in_worker and EXIT_MARK in doc.text:
            os._exit(3)
        if in_worker and KILL_MARK in doc.text:
            os.kill(os.getpid(), signal.SIGKILL)
        while in_worker and HANG_MARK in doc.text:
            time.sleep(1.0)
        if SWALLOW_MARK in doc.text and self.error_handler is not None:
            self.error_handler(self.name, self, [doc], ValueError("swallowed"))
        return doc


@Language.factory("test_pool_hazard")
def make_test_pool_hazard(nlp: Language, name: str) -> Hazard:
    return Hazard(name)

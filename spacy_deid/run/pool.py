"""An ordered pool of worker processes, each holding one copy of a pipeline.

`WorkerPool.map` sends batches of `Record`s to N processes and yields one
output per record (anything with the record's `index`), in input order. It is
what `runner.deidentify_items(..., n_process=N)` runs on:

- The pipeline reaches each worker once, when the worker starts (inherited
  with "fork", pickled with "spawn"/"forkserver"); after that only records go
  out and small picklable outputs come back.
- The batches are the caller's: a batch is processed whole by one worker.
- At most `depth * n_process` batches are read ahead of the consumer.
- Fail closed: if a worker dies (killed, segfault, out of memory), the batches
  it held are redone in a fresh worker. The batch it was working on is redone
  whole once, then record by record; a record that kills a worker on its own
  comes out as `Rejected` ("WorkerDied: ..."). No record is lost, none is
  emitted unprocessed.
- With `task_timeout`, a worker that gives no result for a batch within that
  many seconds (e.g. a note that sends a regex into endless backtracking) is
  killed; its batch is redone record by record at once, and a record that
  times out on its own comes out as `Rejected` ("WorkerTimeout: ...").
- Closing the generator (or an exception in the consumer's thread, e.g.
  KeyboardInterrupt) terminates and joins the workers.

Nothing that crosses processes names note text: workers send outputs, and for
their own failures the exception class only.
"""

import heapq
import itertools
import multiprocessing
import os
import queue
import signal
import sys
import threading
import time
from collections import deque
from contextlib import contextmanager
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from typing import (
    Any,
    Callable,
    Deque,
    Dict,
    Iterable,
    Iterator,
    List,
    Optional,
    Tuple,
)

from spacy.language import Language
from spacy.tokens.underscore import Underscore

from ..io.records import Record, Rejected

# Work function run in the workers: (nlp, batch) -> one output per record, in
# order. Must be picklable (a module-level function or a functools.partial of
# one) for the "spawn" and "forkserver" start methods.
Work = Callable[[Language, List[Record]], List[Any]]
# Called once in each worker with its pipeline, before any batch.
Setup = Callable[[Language], None]

WORKER_DIED = "WorkerDied"
WORKER_TIMEOUT = "WorkerTimeout"
# The start method of pools created without one: None is the platform's
# default ("fork" on Linux, "spawn" on macOS and Windows), as for spaCy's
# `nlp.pipe(n_process=...)`. Set "spawn" or "forkserver" where forking is
# unsafe (a parent process with threads of its own).
START_METHOD: Optional[str] = None
# Batches queued per worker: the one it works on and the next one.
DEPTH = 2
# Workers that die holding no task (e.g. before they are ready), with no batch
# done in between, before the run gives up.
MAX_FUTILE_DEATHS = 3
# Seconds a worker may take to get ready (load its pipeline) before it is
# killed (and counted as a death before doing any work).
START_TIMEOUT_S = 300.0
# Seconds between a worker's checks that its parent is still alive.
PARENT_CHECK_S = 1.0
# Seconds to wait for a worker to exit before it is terminated, then killed.
JOIN_TIMEOUT_S = 5.0
# Environment variables that cap the threads of numpy's BLAS and OpenMP.
THREAD_ENV = (
    "OMP_NUM_THREADS",
    "OPENBLAS_NUM_THREADS",
    "MKL_NUM_THREADS",
    "BLIS_NUM_THREADS",
    "VECLIB_MAXIMUM_THREADS",
    "NUMEXPR_NUM_THREADS",
)
# The message that stops a worker.
_STOP = None


class WorkerStartError(RuntimeError):
    """Worker processes keep dying before they do any work (e.g. the pipeline
    cannot be loaded in them): the run cannot go on."""


@dataclass
class _Task:
    """Records of one batch (all of them, or a part being redone) for one worker."""

    id: int
    seq: int
    offset: int
    records: List[Record]
    deaths: int = 0

    def key(self) -> Tuple[int, int, int]:
        return (self.seq, self.offset, self.id)


@dataclass
class _Slot:
    """A batch read from the input and not yet yielded."""

    records: List[Record]
    outputs: List[Any]
    missing: int


@dataclass
class WorkerStats:
    """What a worker reported: `len(nlp.vocab.strings)` when it became ready
    and after its latest batch (memory zones keep it flat), and its batches."""

    pid: int
    strings_at_start: int
    strings: int
    batches: int = 0


@dataclass
class _Worker:
    process: Any
    tasks_out: Connection
    results_in: Connection
    ready: bool = False
    started: float = field(default_factory=time.monotonic)
    # Tasks sent and not answered, oldest (the one in progress) first.
    tasks: Deque[_Task] = field(default_factory=deque)
    # The exception class the worker reported before it exited, if any.
    failure: Optional[str] = None
    # When the task in progress (the first of `tasks`) started, about.
    busy_since: Optional[float] = None
    # Killed for taking longer than the pool's task_timeout.
    timed_out: bool = False


def check_timeout(seconds: Optional[float], name: str = "timeout") -> None:
    """Raise a ValueError unless `seconds` is None or a positive, finite
    number (not a bool).

    seconds (Optional[float]): The timeout.
    name (str): The setting's name, for the message.
    """
    if seconds is None:
        return
    if (
        isinstance(seconds, bool)
        or not isinstance(seconds, (int, float))
        or not 0 < seconds < float("inf")
    ):
        raise ValueError(f"{name} must be a positive number of seconds")


def limit_threads() -> Any:
    """Make this process use one thread for BLAS/OpenMP (and torch, if it is
    loaded), so that N workers do not each start a thread per core.

    RETURNS (Any): The threadpoolctl limiter (keep a reference), or None.
    """
    for name in THREAD_ENV:
        os.environ[name] = "1"
    limiter = None
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        pass
    else:
        limiter = threadpool_limits(limits=1)
    torch = sys.modules.get("torch")
    if torch is not None:
        torch.set_num_threads(1)
    return limiter


@contextmanager
def _one_thread_env(start_method: str) -> Iterator[None]:
    """While a "spawn"/"forkserver" worker starts, set THREAD_ENV to 1 so that
    its BLAS starts single-threaded ("fork" workers call `limit_threads`)."""
    if start_method == "fork":
        yield
        return
    saved = {name: os.environ.get(name) for name in THREAD_ENV}
    os.environ.update({name: "1" for name in THREAD_ENV})
    try:
        yield
    finally:
        for name, value in saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value


def _parent_alive(parent_pid: int) -> bool:
    """Whether the process that started this worker still runs."""
    if os.getppid() != parent_pid:
        return False
    parent = multiprocessing.parent_process()
    return parent is None or parent.is_alive()


def _read_tasks(conn: Connection, inbox: "queue.SimpleQueue[Any]") -> None:
    """Worker thread: move tasks from the parent into `inbox` as they come,
    so that the parent never waits to send while this worker sends results.
    Ends the process when the parent is gone."""
    parent_pid = os.getppid()
    while True:
        try:
            if conn.poll(PARENT_CHECK_S):
                inbox.put(conn.recv())
                continue
        except (EOFError, OSError):
            os._exit(1)
        if not _parent_alive(parent_pid):
            os._exit(1)


def _worker_main(
    nlp: Language,
    work: Work,
    setup: Optional[Setup],
    underscore_state: Any,
    tasks_in: Connection,
    results_out: Connection,
) -> None:
    """The body of a worker process: run `work` on each task, send the outputs."""
    try:
        # The parent decides when workers stop: Ctrl-C (sent to the whole
        # process group) is for it, and terminate() must end a worker at once.
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        limiter = limit_threads()  # noqa: F841 - keep the limits in force
        Underscore.load_state(underscore_state)
        if setup is not None:
            setup(nlp)
        inbox: "queue.SimpleQueue[Any]" = queue.SimpleQueue()
        reader = threading.Thread(target=_read_tasks, args=(tasks_in, inbox))
        reader.daemon = True
        reader.start()
        results_out.send(("ready", os.getpid(), len(nlp.vocab.strings)))
        while True:
            task = inbox.get()
            if task is _STOP:
                break
            task_id, records = task
            outputs = work(nlp, records)
            results_out.send(("done", task_id, outputs, len(nlp.vocab.strings)))
    except BaseException as err:  # noqa: BLE001 - report the class, then die
        try:
            results_out.send(("failed", type(err).__name__))
        except BaseException:  # noqa: BLE001
            pass
        os._exit(1)
    results_out.close()


def _exit_reason(exitcode: Optional[int]) -> str:
    """How a worker ended, e.g. "killed by SIGKILL" or "exit code 1"."""
    if exitcode is None:
        return "did not exit"
    if exitcode < 0:
        try:
            return f"killed by {signal.Signals(-exitcode).name}"
        except ValueError:
            return f"killed by signal {-exitcode}"
    return f"exit code {exitcode}"


class WorkerPool:
    """N worker processes that each hold `nlp` and run `work` on batches of
    records; `map` yields the outputs in input order.

    nlp (Language): The pipeline, in the state the workers must have.
    work (Work): (nlp, batch) -> one output per record of the batch, in order,
        each with the record's `index`. It should turn a record's errors into
        outputs itself: an exception that escapes it ends the worker, and the
        batch is then treated as if the worker had died.
    n_process (int): Worker processes (at least 1).
    setup (Optional[Setup]): Called once in each worker, with its pipeline.
    start_method (Optional[str]): "fork", "spawn" or "forkserver"; None:
        `START_METHOD`.
    depth (int): Batches queued per worker; at most `depth * n_process`
        batches are read ahead of the consumer.
    task_timeout (Optional[float]): Seconds a worker may work on one batch
        (or, once a batch timed out, on one of its records); None: no limit.
    """

    def __init__(
        self,
        nlp: Language,
        work: Work,
        n_process: int,
        *,
        setup: Optional[Setup] = None,
        start_method: Optional[str] = None,
        depth: int = DEPTH,
        task_timeout: Optional[float] = None,
    ) -> None:
        if n_process < 1:
            raise ValueError("n_process must be at least 1")
        if depth < 1:
            raise ValueError("depth must be at least 1")
        check_timeout(task_timeout, "task_timeout")
        self.task_timeout = task_timeout
        self.nlp = nlp
        self.work = work
        self.setup = setup
        self.n_process = n_process
        self.depth = depth
        method = start_method if start_method is not None else START_METHOD
        self.context = multiprocessing.get_context(method)
        self.start_method = self.context.get_start_method()
        self.workers: List[_Worker] = []
        # Every process started, until it is joined (for `close`).
        self.processes: List[Any] = []
        self.stats: Dict[int, WorkerStats] = {}
        self.deaths = 0
        self._futile_deaths = 0
        self._todo: List[Tuple[Tuple[int, int, int], _Task]] = []
        self._task_ids = itertools.count()
        self._closed = False

    def __enter__(self) -> "WorkerPool":
        return self

    def __exit__(self, *args: object) -> None:
        self.close()

    def map(self, batches: Iterable[List[Record]]) -> Iterator[Any]:
        """Process the batches in the workers; yield one output per record,
        in input order. The workers start with the first batch and are
        stopped when the generator ends or is closed.

        batches (Iterable[List[Record]]): Non-empty batches, read lazily.
        YIELDS (Any): The outputs of `work`, or `Rejected` for a record whose
            worker died on it.
        """
        if self._closed:
            raise RuntimeError("this WorkerPool is closed")
        source = iter(batches)
        slots: Dict[int, _Slot] = {}
        next_seq = read_seq = 0
        exhausted = finished = False
        try:
            while True:
                while not exhausted and len(slots) < self.depth * self.n_process:
                    batch = next(source, None)
                    if batch is None:
                        exhausted = True
                    elif batch:
                        slots[read_seq] = _Slot(batch, [None] * len(batch), len(batch))
                        self._queue(_Task(next(self._task_ids), read_seq, 0, batch))
                        read_seq += 1
                if self._todo and not self.workers:
                    self._start()
                self._dispatch()
                while next_seq in slots and not slots[next_seq].missing:
                    yield from slots.pop(next_seq).outputs
                    next_seq += 1
                if not slots:
                    if exhausted:
                        finished = True
                        return
                    # All done so far: read on before waiting for anything.
                    continue
                self._wait(slots)
        finally:
            self.close(graceful=finished)

    def close(self, graceful: bool = False) -> None:
        """Stop the workers and join them: at once (terminate) unless
        `graceful`, in which case idle workers are asked to exit first."""
        self._closed = True
        for worker in self.workers:
            if graceful and not worker.tasks and worker.process.is_alive():
                try:
                    worker.tasks_out.send(_STOP)
                except OSError:
                    worker.process.terminate()
            else:
                worker.process.terminate()
        for process in self.processes:
            _join(process, JOIN_TIMEOUT_S if graceful else 1.0)
        for worker in self.workers:
            worker.tasks_out.close()
            worker.results_in.close()
        self.workers = []
        self.processes = []

    def _start(self) -> None:
        for _ in range(self.n_process):
            self.workers.append(self._new_worker())

    def _new_worker(self) -> _Worker:
        tasks_in, tasks_out = self.context.Pipe(duplex=False)
        results_in, results_out = self.context.Pipe(duplex=False)
        args = (
            self.nlp,
            self.work,
            self.setup,
            Underscore.get_state(),
            tasks_in,
            results_out,
        )
        process = self.context.Process(
            target=_worker_main, args=args, name="spacy-deid-worker", daemon=True
        )
        with _one_thread_env(self.start_method):
            process.start()
        self.processes.append(process)
        # The worker holds the other ends: EOF on ours means it is gone.
        tasks_in.close()
        results_out.close()
        return _Worker(process, tasks_out, results_in)

    def _queue(self, task: _Task) -> None:
        heapq.heappush(self._todo, (task.key(), task))

    def _dispatch(self) -> None:
        """Send queued tasks, earliest batch first, to ready workers with room."""
        while self._todo:
            free = [w for w in self.workers if w.ready and len(w.tasks) < self.depth]
            if not free:
                return
            worker = min(free, key=lambda w: len(w.tasks))
            _, task = heapq.heappop(self._todo)
            if not worker.tasks:
                worker.busy_since = time.monotonic()
            worker.tasks.append(task)
            try:
                worker.tasks_out.send((task.id, task.records))
            except OSError:
                # The worker is gone; `_wait` sees it and requeues the task.
                worker.ready = False

    def _wait(self, slots: Dict[int, _Slot]) -> None:
        """Wait for a result or a worker's death and handle it."""
        by_handle: Dict[Any, _Worker] = {}
        for worker in self.workers:
            by_handle[worker.results_in] = worker
            by_handle[worker.process.sentinel] = worker
        if not by_handle:
            raise RuntimeError("no worker process to wait for")
        deadlines = [self._deadline(w) for w in self.workers]
        due = [deadline for deadline in deadlines if deadline is not None]
        timeout = max(0.0, min(due) - time.monotonic()) if due else None
        ready = wait(list(by_handle), timeout)
        if not ready:
            self._kill_stuck()
        dead = []
        for handle in ready:
            worker = by_handle[handle]
            if handle is worker.process.sentinel or not self._receive(worker, slots):
                if worker not in dead:
                    dead.append(worker)
        for worker in dead:
            # Outputs sent before the worker died are still in the pipe.
            while self._receive(worker, slots, block=False):
                pass
            self._replace(worker, slots)

    def _deadline(self, worker: _Worker) -> Optional[float]:
        """When the worker must be ready, or done with its current task."""
        if not worker.ready:
            return worker.started + START_TIMEOUT_S
        if self.task_timeout is not None and worker.busy_since is not None:
            return worker.busy_since + self.task_timeout
        return None

    def _kill_stuck(self) -> None:
        """Kill the workers that took too long to get ready or to finish a
        task (`_wait` then sees them die)."""
        now = time.monotonic()
        for worker in self.workers:
            deadline = self._deadline(worker)
            if deadline is None or now < deadline or not worker.process.is_alive():
                continue
            if worker.ready:
                worker.timed_out = True
                worker.failure = f"no result after {self.task_timeout:g} s"
            else:
                worker.failure = f"not ready after {START_TIMEOUT_S:.0f} s"
            worker.process.kill()

    def _receive(self, worker: _Worker, slots: Dict[int, _Slot], block=True) -> bool:
        """Handle one message of the worker; False if there is none to come
        (the worker is gone) or, with `block=False`, none waiting."""
        try:
            if not block and not worker.results_in.poll(0):
                return False
            message = worker.results_in.recv()
        except (EOFError, OSError):
            return False
        kind = message[0]
        if kind == "ready":
            _, pid, strings = message
            worker.ready = True
            self.stats[pid] = WorkerStats(pid, strings, strings)
        elif kind == "done":
            _, task_id, outputs, strings = message
            self._done(worker, task_id, outputs, slots)
            self._futile_deaths = 0
            stats = self.stats[worker.process.pid]
            stats.strings = strings
            stats.batches += 1
        elif kind == "failed":
            worker.failure = str(message[1])
        return True

    def _done(
        self, worker: _Worker, task_id: int, outputs: List[Any], slots: Dict[int, _Slot]
    ) -> None:
        """Store the outputs of a task (checked against its records)."""
        if not worker.tasks or worker.tasks[0].id != task_id:
            raise RuntimeError("a worker answered a task it was not given")
        task = worker.tasks.popleft()
        worker.busy_since = time.monotonic() if worker.tasks else None
        indices = [getattr(output, "index", None) for output in outputs]
        if indices != [record.index for record in task.records]:
            raise RuntimeError(
                f"a worker returned {len(outputs)} outputs for a batch of "
                f"{len(task.records)} records, or in another order"
            )
        self._fill(slots[task.seq], task.offset, outputs)

    @staticmethod
    def _fill(slot: _Slot, offset: int, outputs: List[Any]) -> None:
        slot.outputs[offset : offset + len(outputs)] = outputs
        slot.missing -= len(outputs)

    def _replace(self, worker: _Worker, slots: Dict[int, _Slot]) -> None:
        """A worker died: requeue or reject its tasks, start another one."""
        _join(worker.process, JOIN_TIMEOUT_S)
        worker.tasks_out.close()
        worker.results_in.close()
        self.workers.remove(worker)
        if worker.process in self.processes:
            self.processes.remove(worker.process)
        self.deaths += 1
        reason = worker.failure or _exit_reason(worker.process.exitcode)
        tasks = list(worker.tasks)
        if not tasks:
            self._futile_deaths += 1
            if self._futile_deaths >= MAX_FUTILE_DEATHS:
                raise WorkerStartError(
                    f"{self._futile_deaths} worker processes died before doing "
                    f"any work (the last one: {reason})"
                )
        else:
            # Tasks are done in order: only the first one was in progress.
            self._retry(tasks[0], reason, slots, worker.timed_out)
            for task in tasks[1:]:
                self._queue(task)
        self.workers.append(self._new_worker())

    def _retry(
        self, task: _Task, reason: str, slots: Dict[int, _Slot], timed_out: bool
    ) -> None:
        """The task a worker died on: redo it whole once (not after a
        timeout), then record by record; a record that a worker died on, or
        timed out on, alone is rejected."""
        task.deaths += 1
        if task.deaths < 2 and not timed_out:
            self._queue(task)
        elif len(task.records) > 1:
            for i, record in enumerate(task.records):
                single = _Task(
                    next(self._task_ids), task.seq, task.offset + i, [record], 1
                )
                self._queue(single)
        else:
            record = task.records[0]
            error = f"{WORKER_TIMEOUT if timed_out else WORKER_DIED}: {reason}"
            rejected = Rejected(record.index, record.id, error, record.line)
            self._fill(slots[task.seq], task.offset, [rejected])


def _join(process: Any, timeout: float) -> None:
    """Join a process; terminate, then kill it, if it does not exit in time."""
    process.join(timeout)
    if process.exitcode is None:
        process.terminate()
        process.join(1.0)
    if process.exitcode is None:
        process.kill()
        process.join(JOIN_TIMEOUT_S)

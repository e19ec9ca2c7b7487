"""The multi-process runner (`spacy_deid.run.pool.WorkerPool` behind
`deidentify_items(..., n_process=N)`): same output as one process, patient runs
kept whole, fail closed when a worker dies, clean shutdown, flat memory in the
workers, bounded read-ahead."""

import json
import multiprocessing
import os
import signal
import time
from functools import partial
from typing import Iterator, List

import pytest

import spacy_deid
from spacy_deid.run import pool as pool_module
from spacy_deid.run import runner
from spacy_deid.synth import generate
from spacy_deid.run.pool import WorkerPool, WorkerStartError
from spacy_deid.io.records import Record, Rejected
from spacy_deid.rules.prefilter import available as prefilter_available
from spacy_deid.run.runner import (
    Result,
    deidentify_items,
    patient_batches,
    run_batch,
    setup_worker,
)

from .hazard import EXIT_MARK, HANG_MARK, KILL_MARK, SWALLOW_MARK


@pytest.fixture(scope="module")
def nlp_hazard():
    """en_rules + phi_consistency (cross-note, per patient run) + Hazard."""
    nlp = spacy_deid.load("en_rules")
    nlp.add_pipe("test_pool_hazard", first=True)
    nlp.add_pipe("phi_consistency", before="phi_surrogates")
    return nlp


def _records(texts, patients=None) -> List[Record]:
    patients = patients or [None] * len(texts)
    return [
        Record(i, f"r{i}", text, patient, line=i + 1)
        for i, (text, patient) in enumerate(zip(texts, patients, strict=True))
    ]


def _synth_items(n: int, seed: int) -> list:
    """Synthetic notes grouped by patient, with already-rejected items,
    duplicate ids and empty notes between them."""
    items: list = []
    for i, note in enumerate(generate(n, seed=seed)):
        index = len(items)
        if i % 5 == 2:
            items.append(Rejected(index, None, "InvalidJSON: test", index + 1))
            index += 1
        if i % 7 == 3:
            items.append(Record(index, "dup", "", note.patient, line=index + 1))
            index += 1
        record_id = "dup" if i % 4 == 0 else f"n{i}"
        items.append(Record(index, record_id, note.text, note.patient, index + 1))
    return items


def _lines(outputs) -> List[bytes]:
    return [
        json.dumps(
            o.to_dict() if isinstance(o, Result) else ["rejected", o.to_dict()],
            ensure_ascii=False,
        ).encode("utf8")
        for o in outputs
    ]


def test_same_output_as_one_process(nlp_hazard):
    """Byte-identical output, in input order, with phi_consistency (patient
    runs), rejects in the input, duplicate ids, empty notes and a record whose
    component failed."""
    items = _synth_items(14, seed=5)
    swallow = Record(len(items), "s", f"Seen by Dr. Whalen. {SWALLOW_MARK}", "p-s")
    items.append(swallow)
    run = partial(deidentify_items, nlp_hazard, items, batch_size=3, with_offsets=True)
    single = list(run(n_process=1))
    double = list(run(n_process=2))
    assert _lines(double) == _lines(single)
    assert [o.index for o in double] == [item.index for item in items]
    failed = double[-1]
    assert isinstance(failed, Rejected) and failed.id == "s"
    # Marked by MarkFailed in the worker, then rejected by the check.
    assert failed.error.startswith("NotDeidentified: a component failed")
    assert "Whalen" not in failed.error
    assert sum(isinstance(o, Result) for o in double) >= 14
    assert not multiprocessing.active_children()


def test_same_output_as_one_process_en(nlp_en):
    """The default pipeline (rules + tagger) gives the same output too."""
    notes = list(generate(6, seed=9))
    records = _records([n.text for n in notes], [n.patient for n in notes])
    single = list(deidentify_items(nlp_en, records, batch_size=2))
    double = list(deidentify_items(nlp_en, records, n_process=2, batch_size=2))
    assert all(isinstance(o, Result) for o in single)
    assert _lines(double) == _lines(single)


@pytest.mark.skipif(not prefilter_available(), reason="Hyperscan is not installed")
def test_forked_workers_share_the_parents_prefilter():
    """With "fork", the parent builds the rules' prefilter before the workers
    start (they inherit it instead of each building one); same output."""
    from spacy_deid.rules.prefilter import Prefilter

    nlp = spacy_deid.load("en_rules")
    ruler = nlp.get_pipe("phi_rules")
    # One without the shipped database, which loads by itself.
    prefilter = ruler._prefilter = Prefilter(ruler._prefilter._regexes)
    notes = list(generate(6, seed=3))
    records = _records([n.text for n in notes], [n.patient for n in notes])
    single = list(deidentify_items(nlp, records, batch_size=2))
    assert not prefilter._built  # six notes are too few to build it for
    run = partial(deidentify_items, nlp, records, batch_size=2, start_method="fork")
    assert _lines(list(run(n_process=2))) == _lines(single)
    assert prefilter._built


def _batch_signature(nlp, batch, with_offsets=False):
    """A `run_batch` stand-in: each output names its batch and process."""
    first, size, pid = batch[0].index, len(batch), os.getpid()
    return [Result(r.index, r.id, f"{first}:{size}:{pid}") for r in batch]


def test_patient_runs_are_never_split(nlp_rules, monkeypatch):
    """The workers get exactly the batches of `patient_batches`, so a
    patient's contiguous run is processed by one worker in one batch."""
    monkeypatch.setattr(runner, "run_batch", _batch_signature)
    sizes = [1, 5, 2, 1, 1, 7, 3, 1, 4, 2]
    patients = [f"p{i}" for i, size in enumerate(sizes) for _ in range(size)]
    records = _records(["x"] * len(patients), patients)
    outputs = list(deidentify_items(nlp_rules, records, n_process=2, batch_size=3))
    assert [o.index for o in outputs] == list(range(len(records)))
    expected = [
        f"{batch[0].index}:{len(batch)}"
        for batch in patient_batches(records, 3, runner.MAX_PATIENT_BATCH)
        for _ in batch
    ]
    assert [o.text.rsplit(":", 1)[0] for o in outputs] == expected
    by_patient = {}
    for record, output in zip(records, outputs, strict=True):
        by_patient.setdefault(record.patient, set()).add(output.text)
    assert all(len(batches) == 1 for batches in by_patient.values())


def test_worker_death_rejects_only_its_record(nlp_hazard):
    """A record that ends its worker (os._exit, SIGKILL) is rejected with
    WorkerDied and no text; every other record comes out as with one
    process, in order, and the run goes on."""
    texts = [
        f"Seen by Dr. Whalen on 09/{10 + i}/2067, MRN 71943{i:02d}." for i in range(12)
    ]
    texts[4] = f"Dr. Whalen {EXIT_MARK} 09/14/2067"
    texts[9] = f"MRN 7194334 {KILL_MARK}"
    records = _records(texts)
    outputs = list(deidentify_items(nlp_hazard, records, n_process=2, batch_size=3))
    assert [o.index for o in outputs] == list(range(12))
    assert isinstance(outputs[4], Rejected) and isinstance(outputs[9], Rejected)
    assert outputs[4].error == "WorkerDied: exit code 3"
    assert outputs[9].error == "WorkerDied: killed by SIGKILL"
    assert outputs[4].id == "r4" and outputs[4].line == 5
    for output in (outputs[4], outputs[9]):
        assert "Whalen" not in output.error and "7194334" not in output.error
    safe = [r for r in records if r.index not in (4, 9)]
    expected = {o.index: o for o in deidentify_items(nlp_hazard, safe, batch_size=3)}
    for output in outputs:
        if output.index not in (4, 9):
            assert output == expected[output.index]
    # "redact-all" redacts the records whose worker died.
    redacted = list(
        deidentify_items(
            nlp_hazard, records, n_process=2, batch_size=3, on_error="redact-all"
        )
    )
    assert redacted[4].redacted_all and "Whalen" not in redacted[4].text
    assert redacted[4].rejected.error == "WorkerDied: exit code 3"
    assert not multiprocessing.active_children()


@pytest.mark.parametrize("n_process", [1, 2])
def test_a_record_that_hangs_times_out(nlp_hazard, n_process):
    """With a timeout, a batch that gives no result in time has its worker
    killed and is redone record by record; the record that hangs alone is
    rejected with WorkerTimeout, the others come out as without it, in
    order. A timeout runs in a worker process also with n_process=1."""
    texts = [f"Dr. Whalen saw her on 09/{10 + i}/2067." for i in range(8)]
    texts[5] = f"MRN 7194334 {HANG_MARK} Whalen"
    records = _records(texts)
    started = time.monotonic()
    outputs = list(
        deidentify_items(
            nlp_hazard, records, n_process=n_process, batch_size=3, timeout=4.0
        )
    )
    assert time.monotonic() - started < 60
    assert [o.index for o in outputs] == list(range(8))
    assert isinstance(outputs[5], Rejected)
    assert outputs[5].error == "WorkerTimeout: no result after 4 s"
    assert "Whalen" not in outputs[5].error and "7194334" not in outputs[5].error
    safe = [r for r in records if r.index != 5]
    expected = {o.index: o for o in deidentify_items(nlp_hazard, safe, batch_size=3)}
    assert all(o == expected[o.index] for o in outputs if o.index != 5)
    assert not multiprocessing.active_children()


def test_timeout_must_be_positive(nlp_rules):
    with pytest.raises(ValueError, match="timeout"):
        list(deidentify_items(nlp_rules, _records(["a"]), timeout=0))
    with pytest.raises(ValueError, match="task_timeout"):
        WorkerPool(nlp_rules, _echo, 1, task_timeout=-1.0)
    # Infinity is no timeout (and overflowed the wait): refused up front.
    with pytest.raises(ValueError, match="timeout"):
        list(deidentify_items(nlp_rules, _records(["a"]), timeout=float("inf")))


def test_slow_batches_within_the_timeout_are_kept(nlp_rules):
    """A timeout longer than every batch changes nothing."""
    records = list(_many_records(20))
    expected = list(deidentify_items(nlp_rules, records, batch_size=4))
    timed = list(deidentify_items(nlp_rules, records, batch_size=4, timeout=120.0))
    assert timed == expected


def _exit_in_setup(nlp):
    os._exit(5)


def test_workers_that_cannot_start_stop_the_run(nlp_rules):
    """Workers that die before they are ready: the run fails (no output)."""
    pool = WorkerPool(nlp_rules, run_batch, 2, setup=_exit_in_setup)
    records = _records(["Dr. Whalen"] * 4)
    with pytest.raises(WorkerStartError, match="exit code 5"):
        list(pool.map([records[:2], records[2:]]))
    assert not multiprocessing.active_children()


def _echo(nlp, batch, with_offsets=False):
    return [Result(r.index, r.id, r.text) for r in batch]


def test_pool_reads_on_when_every_batch_is_done(nlp_rules):
    """One worker, one batch in flight: each batch is done and yielded before
    the next one is read, and the pool must then read on, not wait."""

    def too_long(signum, frame):
        raise TimeoutError("the pool waited for nothing")

    previous = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(120)
    try:
        pool = WorkerPool(nlp_rules, _echo, 1, depth=1)
        outputs = list(pool.map([[r] for r in _records(["a", "b", "c"])]))
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)
    assert [o.text for o in outputs] == ["a", "b", "c"]
    assert not multiprocessing.active_children()


def _many_records(count: int) -> Iterator[Record]:
    for i in range(count):
        yield Record(i, f"r{i}", f"Dr. Whalen saw her on 09/14/2067 (note {i}).")


def test_closing_the_iterator_stops_the_workers(nlp_rules):
    outputs = deidentify_items(nlp_rules, _many_records(500), n_process=2, batch_size=2)
    first = [next(outputs) for _ in range(3)]
    assert [o.index for o in first] == [0, 1, 2]
    assert len(multiprocessing.active_children()) == 2
    started = time.monotonic()
    outputs.close()
    assert time.monotonic() - started < 10
    assert not multiprocessing.active_children()
    # The parent's pipeline is as it was.
    assert nlp_rules.pipe_names == spacy_deid.load("en_rules").pipe_names


def test_read_ahead_is_bounded(nlp_rules):
    """At most 2 batches per worker (and the record that ends a batch) are
    read ahead of the consumer."""
    read = 0

    def counted() -> Iterator[Record]:
        nonlocal read
        for record in _many_records(60):
            read += 1
            yield record

    n_process, batch_size = 2, 2
    ahead = []
    outputs = deidentify_items(
        nlp_rules, counted(), n_process=n_process, batch_size=batch_size
    )
    for consumed, _ in enumerate(outputs, 1):
        ahead.append(read - consumed)
    assert consumed == 60
    assert max(ahead) <= 2 * n_process * batch_size + 1
    assert max(ahead) >= batch_size  # the workers did work ahead


def _unique_notes(start: int, count: int) -> List[Record]:
    return [
        Record(
            i,
            f"u{i}",
            f"Qwzxv{i}ant Plorbek{i} seen on 09/14/2067, MRN 9{i:06d}, "
            f"call 617-555-{i:04d}, room Zq{i}x.",
        )
        for i in range(start, start + count)
    ]


def _pipe_without_zone(nlp, batch, with_offsets=False):
    """A `run_batch` without `nlp.memory_zone()`: the vocab grows."""
    docs = nlp.pipe([r.text for r in batch])
    return [
        Result(r.index, r.id, str(len(d))) for r, d in zip(batch, docs, strict=True)
    ]


def test_memory_zones_keep_the_workers_vocab_flat(nlp_rules):
    records = _unique_notes(0, 48)
    batches = [records[i : i + 4] for i in range(0, len(records), 4)]
    work = partial(run_batch, with_offsets=False)
    flat = WorkerPool(nlp_rules, work, 2, setup=setup_worker)
    outputs = list(flat.map(batches))
    assert all(isinstance(o, Result) for o in outputs)
    assert sum(s.batches for s in flat.stats.values()) == len(batches)
    for stats in flat.stats.values():
        assert stats.batches > 0
        assert stats.strings == stats.strings_at_start
    # Without memory zones the same notes make the vocab grow: the check above
    # can fail.
    growing = WorkerPool(nlp_rules, _pipe_without_zone, 2, setup=setup_worker)
    list(growing.map(batches))
    assert any(s.strings > s.strings_at_start + 48 for s in growing.stats.values())


@pytest.mark.parametrize("method,given", [("spawn", True), ("forkserver", False)])
def test_spawn_workers(nlp_hazard, monkeypatch, method, given):
    """With "spawn" (macOS, Windows) or "forkserver" (Linux's default from
    Python 3.14), given to `deidentify_items` or as the module default, the
    pipeline, its phi_known and the MarkFailed error handler reach the
    workers by pickling."""
    options = {"start_method": method} if given else {}
    if not given:
        monkeypatch.setattr(pool_module, "START_METHOD", method)
    started = []
    real_get_context = multiprocessing.get_context

    def get_context(name=None):
        started.append(name)
        return real_get_context(name)

    monkeypatch.setattr(pool_module.multiprocessing, "get_context", get_context)
    texts = ["Seen by Dr. Whalen on 09/14/2067.", f"MRN 7194334 {SWALLOW_MARK}"]
    texts += ["Call 617-555-0199.", "Harold Bixby lives at 12 Elm St."]
    known = [{"text": "Harold Bixby", "label": "PATIENT"}]
    records = [
        Record(i, str(i), text, "p1", known_phi=known) for i, text in enumerate(texts)
    ]
    single = list(deidentify_items(nlp_hazard, records, batch_size=1))
    double = list(
        deidentify_items(nlp_hazard, records, n_process=2, batch_size=1, **options)
    )
    assert started == [method]
    assert _lines(double) == _lines(single)
    assert double[1].error.startswith("NotDeidentified: a component failed")
    assert "Bixby" not in double[3].text  # known PHI, marked by phi_known
    assert not multiprocessing.active_children()

"""The stoppable worker pool (casino/web/workers.py) and the move helper that uses it.

A job past its deadline must be stopped for real (its worker process gone, a
fresh one for the next job), a job past the memory ceiling must fail in words
and leave the pool working, and a full pool must refuse at once rather than
queue. Through the app, the crowded table that once held the engine for minutes
is answered with a short list (the engine no longer lists every move), and the
pool stays the safety net: a helper job that thinks past the deadline is
answered "too crowded" and its worker stopped, while an ordinary request is
still answered.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from casino.web.helper_job import judged_helper_json
from casino.web.limits import Limits
from casino.web.tools import MAX_HELPER_ANSWER
from casino.web.workers import (
    WorkerBusy,
    WorkerDied,
    WorkerError,
    WorkerMemory,
    WorkerPool,
    WorkerTimeout,
    _Slot,
    report,
)
from casino.words.shortlist import MAX_SHOWN
from tests.web_helpers import FAST, gone, web

pytestmark = pytest.mark.timeout(120)  # a safety net only: every bound below is a deadline


# Jobs: top-level functions, so the spawned workers can unpickle them.


def pid() -> int:
    return os.getpid()


def double(x: int) -> int:
    return 2 * x


def refuse(words: str) -> None:
    raise ValueError(words)


def spin() -> None:
    """Runs until stopped: the engine on a crowded table, in small."""
    while True:
        pass


def counting(to: int) -> int:
    """Reports each step of its way, then answers how many it made."""
    for k in range(1, to + 1):
        report((k, to))
    return to


def counting_then_spinning(to: int) -> None:
    """Reports, then runs until its deadline stops it."""
    counting(to)
    spin()


def allocate(megabytes: int) -> int:
    return len(bytearray(megabytes * 1024 * 1024))


def die() -> None:
    os._exit(3)


def wait_for(event_name: str) -> None:
    """Blocks a thread-mode job until the test lets it go (see ``EVENTS``)."""
    EVENTS[event_name].wait(60)


EVENTS: dict[str, threading.Event] = {}


@pytest.fixture
def pool() -> Iterator[WorkerPool]:
    p = WorkerPool(1, waiting=1, memory_mb=256, preload=("casino.tools.helper",))
    try:
        yield p
    finally:
        p.close()


def test_results_and_exceptions_come_back(pool: WorkerPool) -> None:
    async def go() -> None:
        assert await pool.run(double, 21, deadline=30) == 42
        with pytest.raises(ValueError, match="not a card"):
            await pool.run(refuse, "not a card", deadline=30)
        assert await pool.run(double, 5, deadline=30) == 10

    asyncio.run(go())
    assert pool.admitted == 0


def test_a_job_past_its_deadline_has_its_worker_killed_and_the_next_gets_a_fresh_one(
        pool: WorkerPool) -> None:
    async def go() -> None:
        first = await pool.run(pid, deadline=30)
        assert pool.pids == [first]
        with pytest.raises(WorkerTimeout, match=r"did not finish in 0\.5 seconds"):
            await pool.run(spin, deadline=0.5)
        assert gone(first)  # killed and reaped: no process keeps spinning
        assert pool.pids == []
        second = await pool.run(pid, deadline=30)
        assert second != first and pool.pids == [second]

    asyncio.run(go())


def test_a_job_past_the_memory_ceiling_fails_in_words_and_the_pool_goes_on(
        pool: WorkerPool) -> None:
    first = pool.call(pid, deadline=30)
    with pytest.raises(WorkerMemory, match="more than 256 MB"):
        pool.call(allocate, 400, deadline=30)
    assert pool.call(allocate, 16, deadline=30) == 16 * 1024 * 1024
    assert pool.call(pid, deadline=30) != first  # the worker that ran out was replaced


def test_a_worker_that_dies_is_replaced(pool: WorkerPool) -> None:
    first = pool.call(pid, deadline=30)
    with pytest.raises(WorkerDied, match="died"):
        pool.call(die, deadline=30)
    assert gone(first)
    assert pool.call(double, 4, deadline=30) == 8


def test_a_full_pool_refuses_at_once_with_busy(pool: WorkerPool) -> None:
    async def go() -> None:
        pool.call(pid, deadline=30)  # started, so the jobs below run at once
        running = asyncio.ensure_future(pool.run(spin, deadline=1))
        waiting = asyncio.ensure_future(pool.run(double, 1, deadline=30))
        await asyncio.sleep(0)
        assert pool.admitted == 2  # one running, one in the line of 1
        with pytest.raises(WorkerBusy, match="busy"):
            await pool.run(double, 2, deadline=30)
        assert pool.admitted == 2  # the refusal took nothing
        with pytest.raises(WorkerTimeout):
            await running
        assert await waiting == 2  # the waiting job ran on the fresh worker
        assert await pool.run(double, 3, deadline=30) == 6

    asyncio.run(go())


def test_the_thread_fallback_keeps_the_line_and_passes_exceptions() -> None:
    pool = WorkerPool(0, waiting=0, memory_mb=64)
    EVENTS["hold"] = threading.Event()
    try:
        async def go() -> None:
            assert await pool.run(double, 4, deadline=5) == 8
            with pytest.raises(ValueError, match="words"):
                await pool.run(refuse, "words", deadline=5)
            held = asyncio.ensure_future(pool.run(wait_for, "hold", deadline=30))
            await asyncio.sleep(0)
            with pytest.raises(WorkerBusy):
                await pool.run(double, 1, deadline=5)
            EVENTS["hold"].set()
            await held
            assert await pool.run(double, 1, deadline=5) == 2

        asyncio.run(go())
    finally:
        EVENTS["hold"].set()
        pool.close()


def test_bad_pool_sizes_are_refused_in_words() -> None:
    with pytest.raises(ValueError, match="workers must be"):
        WorkerPool(-1, waiting=0, memory_mb=64)
    with pytest.raises(ValueError, match="waiting must be"):
        WorkerPool(1, waiting=-1, memory_mb=64)


# ----------------------------------------------------------------------
# Through the app: POST /api/helper


def crowded_table() -> dict[str, Any]:
    """Kasino, 24 loose cards (every A to 6) and the 10♦ (16) in hand: the engine's
    capture search on this ran for minutes and grew the server by 814 MB."""
    return {"rules": "kasino", "table": [r + s for r in "A23456" for s in "cdhs"],
            "hand": ["Td"], "level": None}


def think_forever(req: dict[str, Any]) -> dict[str, Any]:
    """A helper job that never ends: what a crowded table once cost, for the deadline."""
    while True:
        pass


def test_a_crowded_table_is_answered_by_a_worker(tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "helper_seconds": 30.0})
    with web(tmp_path, limits=limits) as client:
        r = client.post("/api/helper", json=crowded_table())
        assert r.status_code == 200, r.text
        body = r.json()
        assert 0 < len(body["moves"]) <= MAX_SHOWN and body["complete"] is False
        assert len(r.content) <= MAX_HELPER_ANSWER


def test_a_helper_job_past_the_deadline_is_answered_too_crowded(tmp_path: Path) -> None:
    limits = Limits(**{**FAST.__dict__, "helper_seconds": 1.0})
    with web(tmp_path, limits=limits) as client:
        # Unjudged, so that the ordinary answer comes well within this short deadline.
        ordinary = {"rules": "casino", "level": "beginner", "hand": ["9d", "2s"],
                    "table": ["9c", "4c", "5h"], "judge": False}
        r = client.post("/api/helper", json=ordinary)
        assert r.status_code == 200, r.text
        helpers = client.app.state.helpers  # type: ignore[attr-defined]
        workers = helpers.pool
        first = workers.pids
        helpers.job = think_forever
        r = client.post("/api/helper", json=crowded_table())
        assert r.status_code == 422, r.text
        assert r.json() == {"error": "that table is too crowded for the helper to finish in "
                                     "1 seconds", "field": "table"}
        assert len(first) == 1 and gone(first[0])  # the job's worker was stopped
        helpers.job = judged_helper_json  # the page's own job again
        r = client.post("/api/helper", json=ordinary)  # and the helper still works
        assert r.status_code == 200, r.text
        assert any(m["best"] for m in r.json()["moves"])
        assert workers.admitted == 0


def test_a_busy_helper_refuses_at_once(tmp_path: Path) -> None:
    # One asker may hold three places here, so that the server's bound is the one met.
    limits = Limits(**{**FAST.__dict__, "helper_seconds": 20.0, "helper_waiting": 1,
                       "helper_per_player": 3})
    with web(tmp_path, limits=limits) as client:
        helpers = client.app.state.helpers  # type: ignore[attr-defined]
        helpers.job = think_forever
        answers: list[int] = []

        def ask() -> None:
            answers.append(client.post("/api/helper", json=crowded_table()).status_code)

        askers = [threading.Thread(target=ask) for _ in range(2)]
        for t in askers:
            t.start()
        for _ in range(2000):  # both admitted: one running, one waiting (in the fair line)
            if helpers.line.running + helpers.line.queue.size == 2:
                break
            threading.Event().wait(0.01)
        assert (helpers.line.running, helpers.line.queue.size) == (1, 1)
        r = client.post("/api/helper", json=crowded_table())
        assert r.status_code == 503
        assert r.json() == {"error": "the helper is busy: try again in a moment"}
        helpers.close()  # kills the running worker: the askers are answered now
        for t in askers:
            t.join(30)
        assert sorted(answers) == [503, 503]


#: Held by the test below: a worker that starts only when the gate opens, as the first
#: worker of a process waits for its fork server to start.
STARTING, GATE = threading.Event(), threading.Event()


class HeldProcess(multiprocessing.context.ForkServerProcess):
    def start(self) -> None:
        STARTING.set()
        assert GATE.wait(30), "the gate was never opened"
        super().start()


class HeldContext:
    """The fork server's context, with workers started through :class:`HeldProcess`."""

    def __init__(self) -> None:
        self.real = multiprocessing.get_context("forkserver")

    def Pipe(self, duplex: bool) -> Any:
        return self.real.Pipe(duplex=duplex)

    def Process(self, **kwargs: Any) -> HeldProcess:
        return HeldProcess(**kwargs)


def test_a_worker_still_starting_when_the_pool_closes_runs_no_job() -> None:
    """A close that comes while the worker is being started (nothing to kill yet) used
    to let the worker start and run its job to the deadline; now it runs none."""
    STARTING.clear()
    GATE.clear()
    slot = _Slot(HeldContext(), 512, ())
    outcome: list[object] = []

    def job() -> None:
        try:
            outcome.append(slot.call(spin, (), 60.0))
        except WorkerError as e:
            outcome.append(e)

    asker = threading.Thread(target=job)
    asker.start()
    assert STARTING.wait(30)
    slot.close()
    GATE.set()
    asker.join(30)
    assert not asker.is_alive()
    assert isinstance(outcome[0], WorkerBusy), outcome
    assert slot.process is None  # stopped, not left running


@pytest.mark.parametrize("workers", [1, 0])
def test_a_job_reports_its_progress_on_the_way(workers: int) -> None:
    """What a job reports (a review: decisions judged of those to judge) reaches the
    caller's callback while the job runs, in order, in a worker process or in the
    thread of a pool without processes; the answer comes after."""
    p = WorkerPool(workers, waiting=1, memory_mb=256)
    seen: list[tuple[int, int]] = []
    try:
        async def go() -> None:
            assert await p.run(counting, 5, deadline=30, progress=seen.append) == 5
            assert await p.run(double, 4, deadline=30) == 8  # no callback: nothing kept
            if workers:  # a job that reports and then runs on is still stopped in time
                with pytest.raises(WorkerTimeout):
                    await p.run(counting_then_spinning, 3, deadline=1, progress=seen.append)

        asyncio.run(go())
    finally:
        p.close()
    assert seen[:5] == [(k, 5) for k in range(1, 6)]
    assert seen[5:] == ([(1, 3), (2, 3), (3, 3)] if workers else [])
    report(("outside", "a pool"))  # outside a pool's job: nothing happens


"""The thinking pool's scheduler (casino/web/thinking.py), job by job, with a fake ``run``.

The server's pool once was one FIFO queue: a client asking for hints without pause
put every other game's computer behind its flood. These tests drive a
:class:`Thinker` with one worker thread (``workers=0``) and a ``run`` that records
which job ran and waits at a gate, so each test decides what is running while the
others queue, and then reads the order in which the jobs ran. Nothing here depends
on how long anything takes: the gate, not a clock, orders the events.
"""

from __future__ import annotations

import asyncio
import os
import signal
import threading
from collections.abc import Awaitable, Callable
from typing import TypeVar

import pytest

from casino.play.session import BotJob
from casino.web.thinking import Busy, Thinker
from casino.web.workers import WorkerDied, WorkerTimeout
from tests.web_helpers import gone

T = TypeVar("T")

#: The longest any test waits for a thread to reach a point: a safety net, never a measure.
SAFETY = 30.0
#: The same net for scenarios that start worker processes (each start imports the bots,
#: which on a loaded 2-core machine can take many seconds): generous, never a measure.
PROCESS_SAFETY = 180.0


def job(label: int) -> BotJob:
    """A job the fake worker tells apart by its seed; the worker never looks inside."""
    return BotJob("beginner", label, {})


class Worker:
    """A fake ``run``: notes each job's label as it starts and, for gated labels, waits.

    ``started`` is the order the jobs reached the worker; a gated job holds the one
    worker thread until :meth:`release`, so everything submitted meanwhile queues.
    """

    def __init__(self, gated: set[int] | None = None) -> None:
        self.started: list[int] = []
        self.gated = set(gated or ())
        self.gate = threading.Event()
        self.reached = threading.Event()  # a gated job is running and holds the worker

    def __call__(self, j: BotJob) -> str:
        self.started.append(j.seed)
        if j.seed in self.gated:
            self.reached.set()
            if not self.gate.wait(SAFETY):
                raise AssertionError("the gate was never opened")
        return f"move {j.seed}"

    def release(self) -> None:
        self.gate.set()


def thinker(run: Callable[[BotJob], str], *, hint_queue: int = 32, hint_wait: float = 60.0,
            job_timeout: float = SAFETY, workers: int = 0) -> Thinker:
    return Thinker(workers, hint_queue=hint_queue, hint_wait=hint_wait,
                   job_timeout=job_timeout, run=run)


async def until_running(worker: Worker) -> None:
    """Wait (off the event loop) until a gated job holds the worker thread."""
    reached = await asyncio.to_thread(worker.reached.wait, SAFETY)
    assert reached, "the gated job never started"


async def settle() -> None:
    """Let every task that can run, run (their submissions reach the queues)."""
    for _ in range(20):
        await asyncio.sleep(0)


async def refusal(asked: Awaitable[str]) -> str:
    """The words of a refusal that must come at once: the request may not even queue."""
    task = asyncio.ensure_future(asked)
    await settle()
    if not task.done():
        task.cancel()
        raise AssertionError("the request was queued, not refused")
    error = task.exception()
    assert isinstance(error, Busy), error
    return str(error)


def run_async(scenario: Callable[[], Awaitable[T]], safety: float = SAFETY) -> T:
    async def main() -> T:
        return await asyncio.wait_for(scenario(), safety)

    return asyncio.run(main())


# ----------------------------------------------------------------------
# Order: computers first, then owners in turn


def test_a_waiting_computer_goes_before_every_waiting_hint() -> None:
    # The worker is busy with a hint (label 0); five hints of five games queue, then a
    # computer's move (label 100). A FIFO would run the five hints first.
    worker = Worker(gated={0})
    t = thinker(worker)

    async def scenario() -> list[str]:
        first = asyncio.ensure_future(t.hint(job(0), game="g0"))
        await until_running(worker)
        hints = [asyncio.ensure_future(t.hint(job(k), game=f"g{k}")) for k in range(1, 6)]
        await settle()
        computer = asyncio.ensure_future(t.computer(job(100), owner="victim", game="v"))
        await settle()
        assert t.waiting == (1, 5)
        worker.release()
        return await asyncio.gather(first, *hints, computer)

    try:
        answers = run_async(scenario)
    finally:
        t.close()
    assert answers[-1] == "move 100" and answers[0] == "move 0"
    assert worker.started == [0, 100, 1, 2, 3, 4, 5]
    assert t.stats.computers == 1 and t.stats.hints == 6
    # Only the job already running when the computer's move was queued went before it.
    assert t.stats.most_overtaken == 0


def test_an_owner_with_many_jobs_delays_another_owners_job_by_one_turn_at_most() -> None:
    # One address drives ten computer moves (say, ten games it plays at once); another
    # address's single computer move queues after all of them, and still runs next
    # but one: the owners take turns, so ten jobs earn one turn, like one job.
    worker = Worker(gated={0})
    t = thinker(worker)

    async def scenario() -> None:
        running = asyncio.ensure_future(t.computer(job(0), owner="flood", game="f0"))
        await until_running(worker)
        flood = [asyncio.ensure_future(t.computer(job(k), owner="flood", game=f"f{k}"))
                 for k in range(1, 11)]
        await settle()
        mine = asyncio.ensure_future(t.computer(job(500), owner="victim", game="v"))
        await settle()
        assert t.waiting == (11, 0)
        worker.release()
        await asyncio.gather(running, *flood, mine)

    try:
        run_async(scenario)
    finally:
        t.close()
    after_queued = worker.started[1:]  # what ran once the victim's job was waiting
    assert after_queued.index(500) <= 1, worker.started
    assert sorted(worker.started) == [*range(11), 500]
    # The flood's own jobs keep their order among themselves.
    assert [k for k in worker.started if k != 500] == list(range(11))


def test_hint_owners_take_turns_and_the_flood_of_one_game_is_refused() -> None:
    # Hints are owned by their game, one at a time: a game that asks again while its
    # hint waits is refused at once, in words, and does not queue a second one.
    worker = Worker(gated={0})
    t = thinker(worker)

    async def scenario() -> list[str]:
        running = asyncio.ensure_future(t.computer(job(0), owner="a", game="x"))
        await until_running(worker)
        first = asyncio.ensure_future(t.hint(job(1), game="g"))
        await settle()
        refusals = [await refusal(t.hint(job(k), game="g")) for k in range(2, 6)]
        other = asyncio.ensure_future(t.hint(job(9), game="h"))
        await settle()
        assert t.waiting == (0, 2)
        worker.release()
        await asyncio.gather(running, first, other)
        # Its hint answered, the game may ask again.
        again = await t.hint(job(7), game="g")
        assert again == "move 7"
        return refusals

    try:
        refusals = run_async(scenario)
    finally:
        t.close()
    assert all("already being thought of" in words for words in refusals), refusals
    assert worker.started == [0, 1, 9, 7]
    assert t.stats.refused == 4 and t.stats.hints == 3


# ----------------------------------------------------------------------
# Refusals: a full queue, a hint that waited too long


def test_past_the_hint_queue_a_hint_is_refused_as_busy_and_computers_still_queue() -> None:
    worker = Worker(gated={0})
    t = thinker(worker, hint_queue=3)

    async def scenario() -> str:
        running = asyncio.ensure_future(t.computer(job(0), owner="a", game="x"))
        await until_running(worker)
        waiting = [asyncio.ensure_future(t.hint(job(k), game=f"g{k}")) for k in (1, 2, 3)]
        await settle()
        words = await refusal(t.hint(job(4), game="g4"))
        # The cap is on hints: a computer's move is never refused for it.
        computer = asyncio.ensure_future(t.computer(job(5), owner="b", game="y"))
        await settle()
        assert t.waiting == (1, 3)
        worker.release()
        await asyncio.gather(running, *waiting, computer)
        return words

    try:
        words = run_async(scenario)
    finally:
        t.close()
    assert "busy" in words and "ask again" in words
    assert 4 not in worker.started
    assert worker.started == [0, 5, 1, 2, 3]
    assert t.stats.refused == 1


def test_a_hint_that_waited_past_hint_wait_is_dropped_as_busy_and_never_run() -> None:
    # hint_wait 0: any hint that had to wait for the worker has waited too long. The
    # asker is told to ask again; the worker never spends time on an answer nobody
    # would still be waiting for; the computer queued behind it runs.
    worker = Worker(gated={0})
    t = thinker(worker, hint_wait=0.0)

    async def scenario() -> str:
        running = asyncio.ensure_future(t.computer(job(0), owner="a", game="x"))
        await until_running(worker)
        late = asyncio.ensure_future(t.hint(job(1), game="g"))
        await settle()
        worker.release()
        await running
        with pytest.raises(Busy) as dropped:
            await late
        assert await t.computer(job(2), owner="a", game="x") == "move 2"
        return str(dropped.value)

    try:
        words = run_async(scenario)
    finally:
        t.close()
    assert "too busy" in words and "ask again" in words
    assert worker.started == [0, 2]
    assert t.stats.expired == 1 and t.stats.hints == 0


# ----------------------------------------------------------------------
# Jobs nobody waits for any more


def test_a_job_whose_waiter_timed_out_is_not_run() -> None:
    # job_timeout is what is under test here: the waiters of the running job and of
    # the queued one give up; the queued one must then leave the queue, not run later.
    worker = Worker(gated={0})
    t = thinker(worker, job_timeout=0.05)

    async def scenario() -> None:
        running = asyncio.ensure_future(t.computer(job(0), owner="a", game="x"))
        await until_running(worker)
        with pytest.raises(TimeoutError):
            await t.computer(job(1), owner="a", game="x")
        with pytest.raises(TimeoutError):
            await running
        assert t.waiting == (0, 0)
        t.job_timeout = SAFETY
        worker.release()
        # The same owner's next job: had job 1 stayed in the queue, it would run first.
        assert await t.computer(job(2), owner="a", game="x") == "move 2"

    try:
        run_async(scenario)
    finally:
        t.close()
    assert worker.started == [0, 2]


def test_a_job_whose_waiter_went_away_is_not_run_and_frees_its_games_hint() -> None:
    # A client that disconnects cancels its waiting task: its hint leaves the queue
    # and the game may ask for a hint again at once.
    worker = Worker(gated={0})
    t = thinker(worker)

    async def scenario() -> None:
        running = asyncio.ensure_future(t.computer(job(0), owner="a", game="x"))
        await until_running(worker)
        gone = asyncio.ensure_future(t.hint(job(1), game="g"))
        await settle()
        assert t.waiting == (0, 1)
        gone.cancel()
        await settle()
        assert t.waiting == (0, 0)
        again = asyncio.ensure_future(t.hint(job(2), game="g"))
        await settle()
        worker.release()
        await asyncio.gather(running, again)

    try:
        run_async(scenario)
    finally:
        t.close()
    assert worker.started == [0, 2]
    assert t.stats.refused == 0


# ----------------------------------------------------------------------
# A worker process that dies


def die_on_seed_zero(j: BotJob) -> str:
    """Run in a worker process: seed 0 kills the process outright, as a crash would."""
    if j.seed == 0:
        os._exit(3)
    return f"move {j.seed}"


def test_a_worker_that_dies_in_a_job_is_replaced_for_the_next_job() -> None:
    # A real worker process: the first job kills it, as a crash would. Its asker hears
    # of it; the next jobs run on a new worker.
    t = thinker(die_on_seed_zero, workers=1)

    async def scenario() -> tuple[BaseException | None, str, str]:
        try:
            await t.computer(job(0), owner="a", game="x")
        except WorkerDied as e:
            died: BaseException | None = e
        else:
            died = None
        after = await t.computer(job(1), owner="a", game="x")
        hint = await t.hint(job(2), game="g")
        return died, after, hint

    try:
        died, after, hint = run_async(scenario, PROCESS_SAFETY)
    finally:
        t.close()
    assert isinstance(died, WorkerDied) and "died" in str(died)
    assert (after, hint) == ("move 1", "move 2")
    assert t.stats.computers == 2 and t.stats.hints == 1


def worker_pid(j: BotJob) -> str:
    """Run in a worker process: which process it is."""
    return str(os.getpid())


def think_for_ever(j: BotJob) -> str:
    """Run in a worker process: a think that never ends (a crowded table, say)."""
    if j.seed == 0:
        while True:
            pass
    return str(os.getpid())


def test_a_worker_killed_while_idle_is_replaced_for_the_next_job() -> None:
    # The worker process dies between jobs (the kernel's out-of-memory killer, an
    # operator). Before, the pool was then unusable for good and every later computer
    # move and hint failed until the server restarted.
    t = thinker(worker_pid, workers=1)

    async def scenario() -> tuple[int, int, int]:
        first = int(await t.computer(job(0), owner="a", game="x"))
        os.kill(first, signal.SIGKILL)
        after = -1
        for _ in range(100):  # it may be asked before the pool sees the death: once
            try:
                after = int(await t.computer(job(1), owner="a", game="x"))
                break
            except WorkerDied:
                continue
        hint = int(await t.hint(job(2), game="g"))
        return first, after, hint

    try:
        first, after, hint = run_async(scenario, PROCESS_SAFETY)
    finally:
        t.close()
    assert after not in (first, -1) and hint == after  # a new worker, which goes on serving


def test_a_job_still_thinking_at_the_time_limit_is_stopped_and_its_worker_replaced() -> None:
    # Before, a job past the limit was only abandoned: its worker went on thinking for
    # as long as the job ran, and every later job waited behind it.
    # The limit counts from the job's submission, so starting a worker counts too (the
    # first start of a process's fork server can take seconds under load): the limit is
    # short only for the job that never ends.
    t = thinker(think_for_ever, workers=1, job_timeout=PROCESS_SAFETY)

    async def scenario() -> tuple[int, BaseException | None, int]:
        first = int(await t.computer(job(1), owner="a", game="x"))
        t.job_timeout = 3.0
        try:
            await t.computer(job(0), owner="a", game="x")
        except (WorkerTimeout, TimeoutError) as e:
            stopped: BaseException | None = e
        else:
            stopped = None
        t.job_timeout = PROCESS_SAFETY
        after = int(await t.hint(job(2), game="g"))
        return first, stopped, after

    try:
        first, stopped, after = run_async(scenario, PROCESS_SAFETY)
    finally:
        t.close()
    assert stopped is not None
    assert gone(first) and after != first  # the thinking process was killed, not left

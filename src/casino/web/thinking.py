"""The thinking pool's scheduler: computers before hints, and fair shares within each.

Every computer move and every hint is a :class:`~casino.play.session.BotJob` run in
a pool of worker processes. Handing them straight to the pool made one queue
for everybody: a client asking for hints without pause filled it, and every
other game's computer waited behind the flood (15 sockets took another
player's computer from 0.6 s to 13 s a move). So jobs wait here instead, and
the pool is given only as many as it has workers:

- a computer's move always goes before any hint (a person waits for the
  computer; a hint is a favour);
- within each kind the waiting jobs are served in turn by *owner*
  (:class:`~casino.web.fairqueue.FairQueue`, shared with the reviews and the move
  helper): the address that drove a computer's game, the game that asked for a
  hint; so one owner with many jobs gets one turn in each round, like everybody
  else, and a newcomer goes before the second job of an owner already served;
- a game has at most one hint waiting or running, the hints waiting across the
  server are capped, and a hint that waited too long is dropped: the asker is
  told the server is busy rather than queued without end.

The workers are stoppable processes (:class:`~casino.web.workers.WorkerPool`):
a job still thinking at ``job_timeout`` has its worker killed and replaced,
rather than holding it for as long as the job runs, and each worker thinks
under a memory ceiling.

The counters (:attr:`Thinker.stats`) say how many jobs of each kind ran and
how many hints were refused, for anyone inspecting a running server, and its tests.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import logging
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from casino.i18n import pN_
from casino.play.session import BotJob, run_bot_job
from casino.teach.hint import run_hint_job
from casino.web.fairqueue import FairQueue
from casino.web.workers import WorkerPool

log = logging.getLogger("casino.web")

COMPUTER, HINT = "computer", "hint"


#: The answer to a second hint asked while one for the game is being thought of (by this
#: process, or by another serving the same game: ``casino.web.service``'s hint lease).
HINT_BUSY = pN_("hint", "a hint for this game is already being thought of; it comes shortly")
#: The refusals of a hint when the server has too much to think of (raised in English as
#: :class:`Busy`, translated where they are shown: ``pgettext("hint", ...)``).
HINTS_BUSY = pN_("hint", "the server is busy thinking for other players; ask again in a "
                         "moment")
HINT_TOO_LATE = pN_("hint", "the server was too busy to think of a hint in time; ask again")


class Busy(Exception):
    """A job the scheduler will not take now; the message says why, for the player."""


@dataclass(eq=False)
class _Ticket:
    kind: str
    owner: str
    game: str
    job: BotJob
    future: asyncio.Future[str]
    queued_at: float


@dataclass
class ThinkStats:
    """What the pool did: jobs run by kind, hints refused, hints dropped for waiting."""

    computers: int = 0
    hints: int = 0
    refused: int = 0
    expired: int = 0
    #: The most jobs ever started while one computer's move was waiting.
    most_overtaken: int = 0
    started: int = field(default=0, repr=False)


def think(job: BotJob) -> str:
    """Any job of the pool: a hint's explained advice as JSON text
    (:func:`casino.teach.hint.run_hint_job`), a computer's move as its text."""
    return run_hint_job(job) if job.hint else run_bot_job(job)


class Thinker:
    """Runs bot jobs in ``workers`` processes (0: one thread, for tests), computers first.

    ``hint_queue`` caps the hints waiting across the server, ``hint_wait`` is
    the longest a hint waits for a worker before the asker is told to try
    again, and ``job_timeout`` the longest a job may think: then its worker is
    killed (and replaced for the next job). Each worker process thinks within
    ``memory_mb`` of address space.
    """

    def __init__(self, workers: int, *, hint_queue: int, hint_wait: float, job_timeout: float,
                 memory_mb: int = 1024, run: Callable[[BotJob], str] = think) -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (a thread, for tests) or more")
        self.workers = workers
        self.slots = max(1, workers)
        self.hint_queue = hint_queue
        self.hint_wait = hint_wait
        self.job_timeout = job_timeout
        self.memory_mb = memory_mb
        self.run = run
        self.stats = ThinkStats()
        self._pool: WorkerPool | None = None
        self._thread: concurrent.futures.ThreadPoolExecutor | None = None
        self._tasks: set[asyncio.Task[str]] = set()
        self._computers: FairQueue[_Ticket] = FairQueue()
        self._hints: FairQueue[_Ticket] = FairQueue()
        self._hinting: set[str] = set()  # games with a hint waiting or running
        self._running = 0
        self._waiting_since: dict[_Ticket, int] = {}  # computer tickets: `started` when queued

    # ------------------------------------------------------------------
    @property
    def pool(self) -> WorkerPool:
        """Made on first use; its workers (forked from a clean fork server) hold no copy
        of the server's state.

        The scheduler hands it at most one job per worker, so it needs no line.
        """
        if self._pool is None:
            self._pool = WorkerPool(self.workers, waiting=0, memory_mb=self.memory_mb,
                                    preload=("casino.bots.levels", "casino.web.thinking"),
                                    name="casino-think")
        return self._pool

    @property
    def thread(self) -> concurrent.futures.ThreadPoolExecutor:
        """The one thread that thinks when ``workers`` is 0 (tests that patch ``run``).

        A thread cannot be stopped: a job past ``job_timeout`` keeps it until it ends,
        and the next job waits for it, as a stuck process once did.
        """
        if self._thread is None:
            self._thread = concurrent.futures.ThreadPoolExecutor(1, "casino-think")
        return self._thread

    def close(self) -> None:
        """Cancel every job still waiting and stop the worker processes and the thread (at
        the server's shutdown)."""
        for queue in (self._computers, self._hints):
            while (popped := queue.pop()) is not None:
                ticket = popped[1]
                if not ticket.future.done():
                    ticket.future.cancel()
        if self._pool is not None:
            self._pool.close()
            self._pool = None
        if self._thread is not None:
            self._thread.shutdown(wait=False, cancel_futures=True)
            self._thread = None

    @property
    def waiting(self) -> tuple[int, int]:
        """(computer moves, hints) waiting for a worker."""
        return self._computers.size, self._hints.size

    # ------------------------------------------------------------------
    async def computer(self, job: BotJob, *, owner: str, game: str) -> str:
        """A computer's move: served before every hint, round-robin by ``owner``."""
        return await self._submit(COMPUTER, job, owner, game)

    @contextlib.contextmanager
    def hint_slot(self, game: str) -> Iterator[None]:
        """The one hint ``game`` may have in this process, held while the body runs;
        Busy, saying why, when one is being thought of for it already or too many wait."""
        if game in self._hinting:
            self.stats.refused += 1
            raise Busy(HINT_BUSY)
        if self._hints.size >= self.hint_queue:
            self.stats.refused += 1
            raise Busy(HINTS_BUSY)
        self._hinting.add(game)
        try:
            yield
        finally:
            self._hinting.discard(game)

    async def hint(self, job: BotJob, *, game: str, slot: bool = False) -> str:
        """A hint for ``game``: one at a time per game, round-robin by game; Busy if full.
        ``slot``: the caller holds the game's :meth:`hint_slot` already."""
        if slot:
            return await self._submit(HINT, job, game, game)
        with self.hint_slot(game):
            return await self._submit(HINT, job, game, game)

    async def _submit(self, kind: str, job: BotJob, owner: str, game: str) -> str:
        loop = asyncio.get_running_loop()
        ticket = _Ticket(kind, owner, game, job, loop.create_future(), loop.time())
        if kind == COMPUTER:
            self._computers.push(owner, ticket)
            self._waiting_since[ticket] = self.stats.started
        else:
            self._hints.push(owner, ticket)
        self._dispatch()
        try:
            return await asyncio.wait_for(asyncio.shield(ticket.future), self.job_timeout)
        finally:
            if not ticket.future.done():  # the waiter gave up: do not run it for nobody
                self._computers.remove(ticket)
                self._hints.remove(ticket)
                self._waiting_since.pop(ticket, None)
                ticket.future.cancel()

    def _queue(self, ticket: _Ticket) -> FairQueue[_Ticket]:
        return self._computers if ticket.kind == COMPUTER else self._hints

    def _next(self, now: float) -> _Ticket | None:
        popped = self._computers.pop()
        if popped is not None:
            ticket = popped[1]
            overtaken = self.stats.started - self._waiting_since.pop(ticket, self.stats.started)
            self.stats.most_overtaken = max(self.stats.most_overtaken, overtaken)
            return ticket
        while (popped := self._hints.pop()) is not None:
            ticket = popped[1]
            if now - ticket.queued_at <= self.hint_wait:
                return ticket
            self._hints.done(ticket.owner)  # never run: its owner's turn is over
            self.stats.expired += 1
            ticket.future.set_exception(Busy(HINT_TOO_LATE))
        return None

    def _dispatch(self) -> None:
        loop = asyncio.get_running_loop()
        while self._running < self.slots:
            ticket = self._next(loop.time())
            if ticket is None:
                return
            self._start(loop, ticket)

    def _start(self, loop: asyncio.AbstractEventLoop, ticket: _Ticket) -> None:
        self._running += 1
        self.stats.started += 1
        if ticket.kind == COMPUTER:
            self.stats.computers += 1
        else:
            self.stats.hints += 1
        running: asyncio.Future[str]
        if self.workers == 0:
            running = loop.run_in_executor(self.thread, self.run, ticket.job)
        else:
            running = loop.create_task(self.pool.run(self.run, ticket.job,
                                                     deadline=self.job_timeout))
            self._tasks.add(running)  # the loop keeps only a weak reference to a task
            running.add_done_callback(self._tasks.discard)

        def done(task: asyncio.Future[str]) -> None:
            # A worker that died or was stopped is replaced by the pool itself.
            self._running -= 1
            self._queue(ticket).done(ticket.owner)
            if not ticket.future.done():
                if task.cancelled():
                    ticket.future.cancel()
                elif (exc := task.exception()) is not None:
                    ticket.future.set_exception(exc)
                else:
                    ticket.future.set_result(task.result())
            if self._computers.size or self._hints.size:
                self._dispatch()

        running.add_done_callback(done)

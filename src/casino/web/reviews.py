"""Post-game reviews on the web: computed aside, once per game and seat, and kept.

The replay page of a finished game asks for the review of one seat
(:func:`casino.teach.review.review`, at the documented default setting). A review
judges every decision of the seat with a search on sampled deals: seconds a round,
minutes for a long game. So it is never computed in a request, nor in the thinking
pool (one review would hold a computer's move for minutes), but in stoppable worker
processes of its own (:class:`~casino.web.workers.WorkerPool`):

- ``POST`` starts it and answers at once, "computing"; the page asks again (``GET``)
  until it is done. Two askers of the same game and seat share one job.
- The review is kept in the database (:meth:`casino.web.store.Store.save_review`), so
  it is computed once per game, seat and setting, across restarts too.
- What waits is bounded, and shared out fairly (:class:`~casino.web.fairqueue.FairLine`):
  ``review_workers`` computing and ``review_waiting`` waiting across the server,
  ``reviews_per_player`` computing or waiting for one player (an account, or a guest's
  network: :mod:`casino.web.requester`). The waiting reviews are computed by player in
  turn, so a newcomer's goes before the second review of a player already served. When
  every place is taken, a newcomer's review takes the place of the newest one waiting
  for the player holding the most (at least two more than the newcomer), and that
  review's asker is told so at their next look; otherwise the newcomer is told the
  server is busy, and nothing is queued. A review still running at ``review_seconds``
  has its worker killed and its asker told why.

Only a finished game is reviewed (the service refuses others): a review shows every
decision against the cards the other seats held, which no seat may learn while the
game is live.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from casino.bots.judge import DEFAULT_BUDGET, DEFAULT_SAMPLES, Budget
from casino.engine.record import read_record
from casino.i18n import _, ngettext, pgettext, pN_
from casino.teach.retell import retold
from casino.teach.review import FORMAT, MIN_SAMPLES, ReviewError, review
from casino.web.fairqueue import FairLine, LineFull, TooMany
from casino.web.limits import Limits
from casino.web.requester import holder_words
from casino.web.store import Store
from casino.web.workers import (
    WorkerBusy,
    WorkerError,
    WorkerPool,
    WorkerTimeout,
    report,
    worker_words,
)

log = logging.getLogger("casino.web")

#: The states of a seat's review, as the API says them.
DONE, COMPUTING, NONE = "done", "computing", "none"
#: Failures remembered until their asker hears of them (the oldest forgotten beyond).
MAX_FAILURES_KEPT = 1000
#: The refusals and the failures, each worded once (English, translated where told).
BUSY = pN_("review", "the server is busy reviewing other games: ask again in a few minutes")
SET_ASIDE = pN_("review", "this review was set aside to let another player's wait its turn "
                          "(the server's line of reviews was full, and %(holder)s the most in "
                          "it): ask again in a few minutes")
#: A failure's words, made when its asker is told, in the language in force then (a
#: review fails in a background task, which has no asker's language).
Words = Callable[[], str]


def too_many(holder: str, count: int) -> str:
    """The refusal of one more review to ``holder`` (:func:`holder_words`), who has
    ``count`` being computed or waiting, in the language in force."""
    return ngettext("%(holder)s %(n)s review being computed or waiting already: wait for it "
                    "to finish before asking for another",
                    "%(holder)s %(n)s reviews being computed or waiting already: wait for it "
                    "to finish before asking for another", count) % {"holder": holder,
                                                                      "n": count}


def _busy() -> str:
    return pgettext("review", BUSY)


@dataclass(frozen=True)
class ReviewSetting:
    """What a review is computed with: the review's own defaults, for every player.

    Tests give smaller ones so that they stay quick; the setting is kept with each
    review, so a review of another setting is not taken for this one's."""

    samples: int = DEFAULT_SAMPLES
    seed: int = 0
    depth: int = DEFAULT_BUDGET.depth
    nodes: int = DEFAULT_BUDGET.nodes

    def __post_init__(self) -> None:
        if self.samples < MIN_SAMPLES:
            raise ValueError(f"a review judges {MIN_SAMPLES} sampled deals or more, "
                             f"not {self.samples}")
        Budget(self.depth, self.nodes)  # its own checks

    @property
    def key(self) -> str:
        """The setting as stored beside each review, with the version of the review's
        format: a review kept in an older one (judged and graded by older rules, and
        drawn by older pages) is computed again. At most 64 characters (the column)."""
        version = FORMAT.rsplit("/", 1)[-1]
        return (f"samples={self.samples} seed={self.seed} depth={self.depth} "
                f"nodes={self.nodes} review={version}")


def review_job(record_text: str, seat: int, setting: ReviewSetting) -> str:
    """The review of ``seat`` in the finished game ``record_text``, as JSON text.

    Runs in a review worker (a top-level function of picklable arguments); after each
    decision judged it reports ``(done, total)`` to the server (:func:`report`)."""
    r = review(read_record(record_text), seat, samples=setting.samples, seed=setting.seed,
               limit=Budget(depth=setting.depth, nodes=setting.nodes),
               progress=lambda done, total: report((done, total)))
    return json.dumps(r.to_json(), ensure_ascii=False, separators=(",", ":"))


class ReviewRefused(Exception):
    """A review that will not be computed now: the words and the HTTP status for the asker."""

    def __init__(self, message: str, status: int) -> None:
        super().__init__(message)
        self.message = message
        self.status = status


@dataclass
class ReviewStats:
    """What the reviewer did: reviews computed, answered from the database, refused
    (busy), failed (stopped at the deadline, or an error) and set aside for another
    player's."""

    computed: int = 0
    kept: int = 0
    refused: int = 0
    failed: int = 0
    #: Reviews waiting whose place was given to another player's (their askers told).
    set_aside: int = 0


@dataclass(eq=False)
class _Job:
    game: str
    seat: int
    owner: str
    started: float
    record_text: str
    task: asyncio.Task[None] | None = None
    #: The decisions judged so far and how many there are, as the worker last said.
    done: int = 0
    total: int | None = None

    def progress(self, value: Any) -> None:
        """The worker's ``(done, total)`` (called in a thread of the pool)."""
        done, total = value
        self.done, self.total = int(done), int(total)


class Reviewer:
    """The reviews of finished games: kept in ``store``, computed in worker processes.

    ``processes`` False runs reviews in one thread of the server instead (tests; the
    bounds hold, but a thread past its deadline is only abandoned). ``run`` is the job
    (tests put a slow one in its place to fill the line)."""

    def __init__(self, store: Store, limits: Limits, *, processes: bool = True,
                 setting: ReviewSetting | None = None,
                 run: Callable[[str, int, ReviewSetting], str] = review_job) -> None:
        self.store = store
        self.limits = limits
        self.processes = processes
        self.setting = setting or ReviewSetting()
        self.run = run
        self.stats = ReviewStats()
        self._pool: WorkerPool | None = None
        self._jobs: dict[tuple[str, int], _Job] = {}  # computing or waiting
        self._failed: OrderedDict[tuple[str, int], Words] = OrderedDict()
        workers = limits.review_workers if processes else 0
        self._line: FairLine[_Job] = FairLine(max(1, workers), waiting=limits.review_waiting,
                                              each=limits.reviews_per_player)

    @property
    def pool(self) -> WorkerPool:
        """Made on first use; its workers hold no copy of the server's state. It is given
        a review only when a worker is free (the line waits here), so it needs no line."""
        if self._pool is None:
            self._pool = WorkerPool(self.limits.review_workers if self.processes else 0,
                                    waiting=0,
                                    memory_mb=self.limits.review_memory_mb,
                                    preload=("casino.teach.review",), name="casino-review")
        return self._pool

    @property
    def running(self) -> int:
        """Reviews computing or waiting now."""
        return len(self._jobs)

    def close(self) -> None:
        """Cancel the reviews being computed, forget those waiting, and stop the worker
        processes (at the server's shutdown)."""
        for job in list(self._jobs.values()):
            if job.task is not None:
                job.task.cancel()
            else:
                self._line.withdraw(job)
                del self._jobs[(job.game, job.seat)]
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    # ------------------------------------------------------------------
    async def answer(self, game: str, seat: int) -> dict[str, Any]:
        """Where the review of ``seat`` in ``game`` is: done (with it), computing, or none.

        A review whose computing failed is told once, as :class:`ReviewRefused`
        (asking again starts it again)."""
        key = (game, seat)
        # Looked at before the database is read: a job can store its review and end
        # while the read is under way, and must not then look as if it never ran.
        running = self._jobs.get(key)
        # The database is asked in a thread: no query holds up the event loop.
        kept = await asyncio.to_thread(self.store.load_review, game, seat, self.setting.key)
        if kept is not None:
            self.stats.kept += 1
            # Kept in English; told in the asker's language (casino.teach.retell).
            return {"status": DONE, "seat": seat, "review": retold(json.loads(kept))}
        job = self._jobs.get(key)
        if job is not None:
            return self._computing(job)
        failure = self._failed.pop(key, None)
        if failure is not None:
            raise ReviewRefused(failure(), 503)
        if running is not None:
            # It ended during the read, after it: its review is kept now, for the next ask.
            return self._computing(running)
        return {"status": NONE, "seat": seat}

    async def start(self, game: str, seat: int, record_text: str,
                    owner: str) -> dict[str, Any]:
        """Start computing the review of ``seat`` in ``game`` (a finished game's record)
        for ``owner`` (the asker's identity: :func:`casino.web.requester.requester`), or
        put it in line, unless it is kept or being computed: the answer as
        :meth:`answer` gives it.

        :class:`ReviewRefused` when ``owner`` has as many reviews computing or waiting
        as it may, or every place is taken and none may be given to it (nothing is
        queued then)."""
        key = (game, seat)
        self._failed.pop(key, None)  # asking again after a failure tries again
        answer = await self.answer(game, seat)
        if answer["status"] != NONE:
            return answer
        started = self._jobs.get(key)  # by another request while the database answered
        if started is not None:
            return self._computing(started)
        job = _Job(game, seat, owner, time.monotonic(), record_text)
        try:
            displaced = self._line.admit(owner, job)
        except TooMany as e:
            self.stats.refused += 1
            raise ReviewRefused(too_many(holder_words(owner), e.held), 429) from None
        except LineFull:
            self.stats.refused += 1
            raise ReviewRefused(_busy(), 503) from None
        self._jobs[key] = job
        if displaced is not None:
            self.stats.set_aside += 1
            owner_set_aside, job_set_aside = displaced
            gone = (job_set_aside.game, job_set_aside.seat)
            del self._jobs[gone]
            self._fail(gone, lambda: pgettext("review", SET_ASIDE) % {
                "holder": holder_words(owner_set_aside)})
        self._dispatch()
        return self._computing(job)

    def _dispatch(self) -> None:
        """Start the reviews next in line while a worker is free."""
        loop = asyncio.get_running_loop()
        while (popped := self._line.next()) is not None:
            job = popped[1]
            job.task = loop.create_task(self._compute(job))

    def _computing(self, job: _Job) -> dict[str, Any]:
        return {"status": COMPUTING, "seat": job.seat,
                "seconds": int(time.monotonic() - job.started),
                "deadline": self.limits.review_seconds,
                "done": job.done, "total": job.total,
                "place": self._line.queue.position(job) or 0}

    def _fail(self, key: tuple[str, int], failure: Words) -> None:
        """Remember ``failure`` for the review's asker, who hears of it once."""
        self._failed[key] = failure
        while len(self._failed) > MAX_FAILURES_KEPT:
            self._failed.popitem(last=False)

    async def _compute(self, job: _Job) -> None:
        key = (job.game, job.seat)
        failure: Words | None = None
        try:
            text = await self.pool.run(self.run, job.record_text, job.seat, self.setting,
                                       deadline=self.limits.review_seconds,
                                       progress=job.progress)
            await asyncio.to_thread(self.store.save_review, job.game, job.seat,
                                    self.setting.key, text)
            self.stats.computed += 1
        except asyncio.CancelledError:
            raise
        except WorkerTimeout:
            seconds = f"{self.limits.review_seconds:g}"
            failure = lambda: _("the review took longer than %(seconds)s seconds and was "  # noqa: E731
                                "stopped; the server may be busy: ask again later") % {
                "seconds": seconds}
        except WorkerBusy:
            failure = _busy
        except WorkerError as exc:
            error = exc
            failure = lambda: _("the review could not be computed: %(why)s") % {  # noqa: E731
                "why": worker_words(error)}
        except ReviewError as exc:
            why = str(exc)
            failure = lambda: _("this game cannot be reviewed: %(why)s") % {"why": why}  # noqa: E731
        except Exception:
            log.exception("the review of seat %s in game %s failed", job.seat, job.game)
            failure = lambda: _("the review could not be computed; ask again")  # noqa: E731
        finally:
            self._jobs.pop(key, None)
            self._line.done(job.owner)
            self._dispatch()  # nothing waits once the reviewer is closed
        if failure is not None:
            self.stats.failed += 1
            self._fail(key, failure)


__all__ = ["COMPUTING", "DONE", "NONE", "ReviewRefused", "ReviewSetting", "ReviewStats",
           "Reviewer", "review_job"]

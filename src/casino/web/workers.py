"""A pool of worker processes that can be stopped: a deadline and a memory ceiling per job.

Heavy work (a bot thinking, the move helper on a crowded table) used to run in
a ``concurrent.futures`` pool or a thread of the server. Neither can be
stopped: a job past its timeout was abandoned by its waiter but went on using
a core, and memory, for as long as it liked (one 200-byte helper request ran
for minutes and grew the server by 814 MB). So each job here runs in a worker
process of its own slot:

- a job still running at its ``deadline`` has its worker killed (SIGKILL); the
  caller gets :class:`WorkerTimeout` and the slot starts a fresh worker for the
  next job;
- each worker limits its own address space (``RLIMIT_AS``) to ``memory_mb``
  when it starts: a job that reaches the ceiling gets ``MemoryError`` inside the
  worker, which answers :class:`WorkerMemory` and exits (its heap may be in
  pieces), and any worker that dies (killed from outside, say) is replaced and
  its caller told :class:`WorkerDied`;
- a job that finds every worker busy and ``waiting`` jobs already in line is
  refused at once with :class:`WorkerBusy`, so the line never grows without end.

Jobs are top-level functions and picklable arguments (the workers are forked
from a clean fork server, and hold no copy of the server). ``workers=0`` runs
jobs in one thread of the server instead, for tests that monkeypatch the
functions: the line and its refusals hold, but a job past its deadline is only
abandoned, not stopped.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import multiprocessing
import queue
import resource
import threading
import time
import traceback
from collections.abc import Callable
from multiprocessing.connection import Connection, wait
from multiprocessing.process import BaseProcess
from typing import Any, TypeVar

from casino.i18n import pgettext, pN_

T = TypeVar("T")

#: Seconds a new worker may take to start (import its modules) before it counts as dead.
START_SECONDS = 60.0


#: Why the pool did not finish a job, in words for a person: English, marked for the
#: catalog, translated where a person is told (:func:`worker_words`).
SHUTTING_DOWN = pN_("worker", "the server is shutting down")
NOT_STARTED = pN_("worker", "a worker process did not start; try again in a moment")
DIED = pN_("worker", "the worker process died; try again")
DIED_IN_JOB = pN_("worker", "the worker process died during the job; try again")
TIMED_OUT = pN_("worker", "the job did not finish in %(seconds)s seconds and was stopped")
ABANDONED = pN_("worker", "the job did not finish in %(seconds)s seconds (abandoned: a "
                          "thread cannot be stopped)")
TOO_MUCH_MEMORY = pN_("worker", "the job needed more than %(mb)s MB and was stopped")
LINE_FULL = pN_("worker", "every worker is busy and the line is full; try again in a moment")


class WorkerError(Exception):
    """A job the pool did not finish; the message says why, in words for a person (its
    English ``words`` with ``values`` put in; :func:`worker_words` in another language)."""

    def __init__(self, words: str = "", **values: object) -> None:
        super().__init__(words % values if values else words)
        self.words = words
        self.values = values


def worker_words(error: WorkerError) -> str:
    """Why the pool did not finish a job, in the language in force (the job's own
    exception, not one of the pool's words, as it is)."""
    if not error.words:
        return str(error)
    said = pgettext("worker", error.words)
    return said % error.values if error.values else said


class WorkerBusy(WorkerError):
    """Every worker is busy and the waiting line is full: try again in a moment."""


class WorkerTimeout(WorkerError):
    """The job ran past its deadline; its worker was killed and replaced."""


class WorkerMemory(WorkerError):
    """The job needed more memory than a worker may have."""


class WorkerDied(WorkerError):
    """The worker died during the job (killed from outside, or crashed); it is replaced."""


# ----------------------------------------------------------------------
# The worker process's side


def _limit_memory(memory_mb: int) -> None:
    """Cap this process's address space; the soft limit only, never above the hard one."""
    ceiling = memory_mb * 1024 * 1024
    _soft, hard = resource.getrlimit(resource.RLIMIT_AS)
    if hard != resource.RLIM_INFINITY:
        ceiling = min(ceiling, hard)
    resource.setrlimit(resource.RLIMIT_AS, (ceiling, hard))


#: The pipe of this worker process while it runs jobs (None outside a worker), through
#: which a job may say how far it has got (:func:`report`).
_JOB_CONN: Connection | None = None
#: For a pool without processes (``workers=0``, tests): the callback of the job running
#: in this thread, which :func:`report` calls instead.
_INLINE = threading.local()


def report(value: Any) -> None:
    """Say how far the job running here has got (``value`` must pickle): the pool hands
    it to the caller's ``progress`` callback while the job goes on. Nothing happens
    outside a pool's job."""
    if _JOB_CONN is not None:
        _JOB_CONN.send(("progress", value))
        return
    callback = getattr(_INLINE, "progress", None)
    if callback is not None:
        callback(value)


def _worker_main(conn: Connection, memory_mb: int, preload: tuple[str, ...]) -> None:
    """A worker: imports ``preload``, caps its memory, says "ready", then runs jobs.

    Each job is ``(fn, args)``; the answer is ``("ok", result)``, ``("raised",
    exception)`` or ``("memory", words)``, after which the worker exits, since a
    process that ran out of memory may be left half-built. Before it, the job may send
    any number of ``("progress", value)`` (:func:`report`).
    """
    global _JOB_CONN
    for name in preload:
        importlib.import_module(name)
    _limit_memory(memory_mb)
    _JOB_CONN = conn
    conn.send(("ready", None))
    while True:
        try:
            fn, args = conn.recv()
        except (EOFError, OSError):
            return  # the pool closed our pipe: nothing more to do
        try:
            answer: tuple[str, Any] = ("ok", fn(*args))
        except MemoryError:
            answer = ("memory", None)
        except Exception as exc:  # the caller gets the job's own exception back
            answer = ("raised", exc)
        try:
            conn.send(answer)
        except MemoryError:
            return
        except Exception:  # an answer that cannot be pickled: say so in words
            words = "".join(traceback.format_exception_only(type(answer[1]), answer[1]))
            conn.send(("raised", RuntimeError(f"the job's answer could not be sent: {words}")))
        if answer[0] == "memory":
            return


# ----------------------------------------------------------------------
# The server's side


class _Slot:
    """One worker process and its pipe, started on first use and after each death."""

    def __init__(self, context: Any, memory_mb: int, preload: tuple[str, ...]) -> None:
        self.context = context
        self.memory_mb = memory_mb
        self.preload = preload
        self.process: BaseProcess | None = None
        self.conn: Connection | None = None
        # Set when the pool closes. Starting a worker can take a while (the first one
        # waits for the fork server), so a close may come before the worker exists; the
        # lock makes "the worker exists" and "the pool closed" seen in one order.
        self._lock = threading.Lock()
        self._closing = False

    @property
    def pid(self) -> int | None:
        return self.process.pid if self.process is not None else None

    def _start(self) -> tuple[BaseProcess, Connection]:
        ours, theirs = self.context.Pipe(duplex=True)
        process = self.context.Process(target=_worker_main, name="casino-worker", daemon=True,
                                       args=(theirs, self.memory_mb, self.preload))
        process.start()
        theirs.close()
        with self._lock:
            self.process, self.conn = process, ours
            closing = self._closing
        if closing:  # the pool closed while this worker started: it runs no job
            self.stop()
            raise WorkerBusy(SHUTTING_DOWN)
        if not wait([ours, process.sentinel], START_SECONDS) or not ours.poll():
            self.stop()
            raise WorkerDied(NOT_STARTED)
        try:
            ours.recv()  # "ready"
        except (EOFError, OSError):
            self.stop()
            raise WorkerDied(NOT_STARTED) from None
        return process, ours

    def call(self, fn: Callable[..., Any], args: tuple[Any, ...], deadline: float,
             progress: Callable[[Any], None] | None = None) -> Any:
        """``fn(*args)`` in this slot's worker, stopping the worker at ``deadline`` seconds;
        what the job reports on the way goes to ``progress``."""
        if self.process is None or self.conn is None or not self.process.is_alive():
            self.stop()
            process, conn = self._start()
        else:
            process, conn = self.process, self.conn
        try:
            conn.send((fn, args))
        except (OSError, EOFError):
            self.stop()
            raise WorkerDied(DIED) from None
        end = time.monotonic() + deadline
        while True:
            ready = wait([conn, process.sentinel], max(0.0, end - time.monotonic()))
            if not ready or not conn.poll():
                self.stop()
                if not ready:  # the deadline passed (a dead worker's sentinel is ready)
                    raise WorkerTimeout(TIMED_OUT, seconds=f"{deadline:g}")
                raise WorkerDied(DIED_IN_JOB)
            try:
                kind, value = conn.recv()
            except (EOFError, OSError):
                self.stop()
                raise WorkerDied(DIED_IN_JOB) from None
            if kind != "progress":
                break
            if progress is not None:
                progress(value)
        if kind == "ok":
            return value
        if kind == "memory":
            self.stop()
            raise WorkerMemory(TOO_MUCH_MEMORY, mb=self.memory_mb)
        raise value

    def stop(self) -> None:
        """Kill the worker (if any) and forget it: the next call starts a fresh one."""
        process, conn = self.process, self.conn
        self.process = self.conn = None
        if conn is not None:
            conn.close()
        if process is not None:
            if process.is_alive():
                process.kill()
            process.join(5.0)

    def close(self) -> None:
        """Kill the worker from another thread, and any worker still starting as soon as
        it exists; the thread running the job cleans up."""
        with self._lock:
            self._closing = True
            process = self.process
        if process is not None and process.is_alive():
            process.kill()


def _reporting(progress: Callable[[Any], None] | None, fn: Callable[..., T],
               args: tuple[Any, ...]) -> T:
    """``fn(*args)`` in this thread, its :func:`report` s going to ``progress``."""
    _INLINE.progress = progress
    try:
        return fn(*args)
    finally:
        _INLINE.progress = None


class WorkerPool:
    """``workers`` stoppable processes (0: one thread, for tests) and a line of ``waiting``.

    :meth:`run` is for the event loop; :meth:`call` is the same for a thread.
    Workers start on first use; :meth:`close` kills them all.
    """

    def __init__(self, workers: int, *, waiting: int, memory_mb: int,
                 preload: tuple[str, ...] = (), name: str = "casino-worker") -> None:
        if workers < 0:
            raise ValueError("workers must be 0 (a thread, for tests) or more")
        if waiting < 0:
            raise ValueError("waiting must be 0 or more")
        if memory_mb < 1:
            raise ValueError("memory_mb must be at least 1")
        self.workers = workers
        self.waiting = waiting
        self.memory_mb = memory_mb
        self.capacity = max(1, workers) + waiting
        self._lock = threading.Lock()
        self._admitted = 0
        self._closed = False
        context = multiprocessing.get_context("forkserver")
        # Workers are forked from one clean server process that has imported the
        # modules jobs need: a fresh worker (after a death or a deadline) is ready in
        # milliseconds instead of the seconds a spawned interpreter takes to import
        # them, and it holds no copy of this server's state (the fork server started
        # before any of it existed).
        context.set_forkserver_preload(list(preload))
        self._slots = [_Slot(context, memory_mb, preload) for _ in range(workers)]
        self._idle: queue.SimpleQueue[_Slot] = queue.SimpleQueue()
        for slot in self._slots:
            self._idle.put(slot)
        # One thread per admitted job, never more: a job never waits for a thread.
        self._threads = concurrent.futures.ThreadPoolExecutor(self.capacity, name)
        self._inline = concurrent.futures.ThreadPoolExecutor(1, f"{name}-inline")

    @property
    def pids(self) -> list[int]:
        """The process ids of the workers now running (for the server's log and tests)."""
        return [pid for slot in self._slots if (pid := slot.pid) is not None]

    @property
    def admitted(self) -> int:
        """Jobs running or waiting now."""
        return self._admitted

    @property
    def closed(self) -> bool:
        """Whether the pool was closed: it takes no more jobs."""
        return self._closed

    def _admit(self) -> None:
        with self._lock:
            if self._closed:
                raise WorkerBusy(SHUTTING_DOWN)
            if self._admitted >= self.capacity:
                raise WorkerBusy(LINE_FULL)
            self._admitted += 1

    def _leave(self) -> None:
        with self._lock:
            self._admitted -= 1

    async def run(self, fn: Callable[..., T], *args: Any, deadline: float,
                  progress: Callable[[Any], None] | None = None) -> T:
        """``fn(*args)`` in a worker, done within ``deadline`` seconds of starting; what
        the job :func:`report` s goes to ``progress`` (called in a thread of the pool).

        Raises :class:`WorkerBusy` at once when the pool is full, the job's own
        exception if it raised one, or another :class:`WorkerError` saying why it
        was stopped.
        """
        self._admit()
        try:
            future = self._threads.submit(self._job, fn, args, deadline, progress)
        except RuntimeError:
            self._leave()
            raise WorkerBusy(SHUTTING_DOWN) from None
        return await asyncio.wrap_future(future)

    def call(self, fn: Callable[..., T], *args: Any, deadline: float) -> T:
        """:meth:`run` for a caller in a thread (it blocks that thread)."""
        self._admit()
        return self._job(fn, args, deadline)

    def _job(self, fn: Callable[..., T], args: tuple[Any, ...], deadline: float,
             progress: Callable[[Any], None] | None = None) -> T:
        try:
            if self.workers == 0:
                inline = self._inline.submit(_reporting, progress, fn, args)
                try:
                    return inline.result(timeout=deadline)
                except concurrent.futures.TimeoutError:
                    raise WorkerTimeout(ABANDONED, seconds=f"{deadline:g}") from None
            slot = self._idle.get()
            if self._closed:
                self._idle.put(slot)
                raise WorkerBusy(SHUTTING_DOWN)
            try:
                result: T = slot.call(fn, args, deadline, progress)
                return result
            finally:
                if self.closed:  # closed while the job ran: no worker outlives the pool
                    slot.stop()
                self._idle.put(slot)
        finally:
            self._leave()

    def close(self) -> None:
        """Kill every worker and refuse new jobs; jobs waiting for a worker are refused too."""
        with self._lock:
            self._closed = True
        for slot in self._slots:
            slot.close()  # a job running on it ends at once; its thread stops the slot
        while True:
            try:
                self._idle.get_nowait().stop()
            except queue.Empty:
                break
        self._threads.shutdown(wait=False, cancel_futures=True)
        self._inline.shutdown(wait=False, cancel_futures=True)

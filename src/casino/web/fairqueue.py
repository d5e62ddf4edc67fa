"""Fair shares of a few workers: every owner in turn, however many jobs each one sends.

A line served first come, first served belongs to whoever sends the most: one network
with five addresses once held every place of the review line, and one address asking
the move helper six questions at once kept everybody else out. Two pieces share the
cure:

- :class:`FairQueue`, the order: waiting jobs are served by *owner* in turn (start-time
  fair queuing). Each job is tagged with the turn it may start at: its owner's previous
  job's turn plus one, but never before the turn being served now. The job with the
  lowest tag goes first (the earlier one on a tie). So a newcomer's job goes before the
  second job of an owner whose first is running, and an owner with ten jobs waiting
  gets one turn a round, like an owner with one. An owner's place is remembered while it
  has a job waiting or running, so finishing a job and asking again at once does not buy
  an early turn.
- :class:`FairLine`, the admission in front of ``slots`` workers: an owner may have
  ``each`` jobs running or waiting; the line holds ``waiting`` jobs across the server;
  and when it is full a newcomer takes the place of the newest waiting job of the owner
  holding the most, if that owner holds at least two more than the newcomer (fewer would
  only trade places). Its caller tells the displaced job's asker why.

- :class:`RankedLine`, fair lines of several ranks in front of the same workers: a
  waiting job of a first rank always starts before any of a later one, and each rank
  has its own places and its own share per owner, so a flood of a later rank never
  takes a first rank's place. The selection workers' line (:mod:`casino.web.turns`)
  puts a player's turn (the choices of the seat to move) before every ``options``
  answer, and counts both per seat of a game.

An *owner* is a key: the thinking pool's (:mod:`casino.web.thinking`) are games and
addresses, the reviews' and the move helper's are the askers' identities
(:mod:`casino.web.requester`: the account when signed in, else the guest's network).
Nothing here awaits or counts time: the callers run the jobs and say when each ends.
"""

from __future__ import annotations

import itertools
from collections import Counter, deque
from collections.abc import Hashable
from dataclasses import dataclass
from typing import Generic, TypeVar

T = TypeVar("T", bound=Hashable)


@dataclass(eq=False)
class _Entry(Generic[T]):
    owner: str
    item: T
    start: int
    order: int


class FairQueue(Generic[T]):
    """Waiting items by owner; :meth:`pop` serves the owners in turn (see the module).

    Items are told apart by identity (a ticket, a job): the same item is never waiting
    twice."""

    def __init__(self) -> None:
        self._waiting: dict[str, deque[_Entry[T]]] = {}
        self._entries: dict[T, _Entry[T]] = {}
        #: Each owner's next turn, kept while it has a job waiting or running.
        self._finish: dict[str, int] = {}
        self._running: Counter[str] = Counter()
        self._turn = 0
        self._order = itertools.count()

    @property
    def size(self) -> int:
        """Items waiting."""
        return len(self._entries)

    def push(self, owner: str, item: T) -> None:
        """``item`` waits its owner's next turn."""
        start = max(self._turn, self._finish.get(owner, self._turn))
        entry = _Entry(owner, item, start, next(self._order))
        self._finish[owner] = start + 1
        self._waiting.setdefault(owner, deque()).append(entry)
        self._entries[item] = entry

    def pop(self) -> tuple[str, T] | None:
        """The next item to run and its owner, counted as running until :meth:`done`;
        None when nothing waits."""
        if not self._waiting:
            return None
        queue = min(self._waiting.values(), key=lambda q: (q[0].start, q[0].order))
        entry = queue.popleft()
        if not queue:
            del self._waiting[entry.owner]
        del self._entries[entry.item]
        self._turn = max(self._turn, entry.start)
        self._running[entry.owner] += 1
        return entry.owner, entry.item

    def done(self, owner: str) -> None:
        """One of ``owner``'s popped items ended (ran, failed, or was never run)."""
        self._running[owner] -= 1
        if self._running[owner] <= 0:
            del self._running[owner]
        self._forget_if_idle(owner)

    def remove(self, item: T) -> bool:
        """Take a waiting ``item`` out of the line (its asker went away, or it was
        displaced); False when it is not waiting."""
        entry = self._entries.pop(item, None)
        if entry is None:
            return False
        queue = self._waiting[entry.owner]
        if queue[-1] is entry:  # the owner's last: its next job takes this one's turn
            self._finish[entry.owner] = entry.start
        queue.remove(entry)
        if not queue:
            del self._waiting[entry.owner]
        self._forget_if_idle(entry.owner)
        return True

    def _forget_if_idle(self, owner: str) -> None:
        if owner not in self._waiting and owner not in self._running:
            self._finish.pop(owner, None)

    def waiting_of(self, owner: str) -> int:
        """``owner``'s items waiting."""
        return len(self._waiting.get(owner, ()))

    def running_of(self, owner: str) -> int:
        """``owner``'s items popped and not yet done."""
        return self._running[owner]

    def busiest(self) -> tuple[str, int] | None:
        """The owner with the most items waiting (the one that came last on a tie: the
        one that has waited least) and how many; None when nothing waits."""
        if not self._waiting:
            return None
        owner, queue = max(self._waiting.items(), key=lambda kv: (len(kv[1]), kv[1][-1].order))
        return owner, len(queue)

    def newest(self, owner: str) -> T | None:
        """``owner``'s item that came last, of those waiting."""
        queue = self._waiting.get(owner)
        return queue[-1].item if queue else None

    def position(self, item: T) -> int | None:
        """Where ``item`` stands in the line as it is now (1: next to run); None when it
        is not waiting. A newcomer may still go before it, once."""
        entry = self._entries.get(item)
        if entry is None:
            return None
        key = (entry.start, entry.order)
        return 1 + sum(1 for e in self._entries.values() if (e.start, e.order) < key)


class TooMany(Exception):
    """The owner has as many jobs running or waiting as it may (``held``)."""

    def __init__(self, held: int) -> None:
        super().__init__(f"{held} running or waiting")
        self.held = held


class LineFull(Exception):
    """The line is full and no owner holds enough places for the newcomer to take one."""


class FairLine(Generic[T]):
    """Who may wait for ``slots`` workers, and who runs next (see the module).

    :meth:`admit` a job (it may displace another), :meth:`next` the jobs to start while a
    slot is free, :meth:`done` each one that ends, :meth:`withdraw` one whose asker left."""

    def __init__(self, slots: int, *, waiting: int, each: int) -> None:
        if slots < 1 or waiting < 0 or each < 1:
            raise ValueError("a line needs a slot, 0 or more places and 1 or more a head")
        self.slots = slots
        self.waiting = waiting
        self.each = each
        self.queue: FairQueue[T] = FairQueue()
        self.running = 0

    def held(self, owner: str) -> int:
        """``owner``'s jobs running or waiting."""
        return self.queue.running_of(owner) + self.queue.waiting_of(owner)

    def admit(self, owner: str, item: T) -> tuple[str, T] | None:
        """Put ``item`` in line: the job it displaced and its owner (its asker to be
        told), if any.

        :class:`TooMany` when ``owner`` holds ``each`` already, :class:`LineFull` when
        every place is taken and no owner holds two more than ``owner`` waiting."""
        held = self.held(owner)
        if held >= self.each:
            raise TooMany(held)
        displaced: tuple[str, T] | None = None
        if self.running >= self.slots and self.queue.size >= self.waiting:
            busiest = self.queue.busiest()
            if busiest is None or busiest[1] < self.queue.waiting_of(owner) + 2:
                raise LineFull
            newest = self.queue.newest(busiest[0])
            assert newest is not None
            self.queue.remove(newest)
            displaced = busiest[0], newest
        self.queue.push(owner, item)
        return displaced

    def next(self) -> tuple[str, T] | None:
        """The next job to start now and its owner (counted running until :meth:`done`),
        or None: no slot free or nothing waiting."""
        if self.running >= self.slots:
            return None
        popped = self.queue.pop()
        if popped is not None:
            self.running += 1
        return popped

    def done(self, owner: str) -> None:
        """A job of ``owner`` that :meth:`next` gave ended: its slot is free."""
        self.running -= 1
        self.queue.done(owner)

    def withdraw(self, item: T) -> bool:
        """Take a waiting job out of line (its asker went away); False if not waiting."""
        return self.queue.remove(item)


class RankedLine(Generic[T]):
    """Fair lines of ``ranks`` ranks in front of the same ``slots`` workers (see the
    module): :meth:`next` starts a job of rank 0 before any waiting job of rank 1, and
    so on; within a rank owners are served in turn (:class:`FairQueue`).

    Each rank holds ``waiting`` jobs and ``each`` per owner, running or waiting, and
    :meth:`admit` refuses or displaces within the job's own rank only, as
    :meth:`FairLine.admit` does: so a flood of a later rank never costs a job of an
    earlier one its place, nor its turn."""

    def __init__(self, slots: int, *, ranks: int, waiting: int, each: int) -> None:
        if slots < 1 or ranks < 1 or waiting < 0 or each < 1:
            raise ValueError("a line needs a slot, a rank, 0 or more places and 1 or more "
                             "a head")
        self.slots = slots
        self.waiting = waiting
        self.each = each
        self.queues: tuple[FairQueue[T], ...] = tuple(FairQueue() for _ in range(ranks))
        self.running = 0

    def held(self, rank: int, owner: str) -> int:
        """``owner``'s jobs of ``rank`` running or waiting."""
        queue = self.queues[rank]
        return queue.running_of(owner) + queue.waiting_of(owner)

    def admit(self, rank: int, owner: str, item: T) -> tuple[str, T] | None:
        """Put ``item`` in line at ``rank``: the job of that rank it displaced and its
        owner (its asker to be told), if any.

        :class:`TooMany` when ``owner`` holds ``each`` of the rank already,
        :class:`LineFull` when every place of the rank is taken and no owner holds two
        more of them than ``owner`` waiting."""
        queue = self.queues[rank]
        held = self.held(rank, owner)
        if held >= self.each:
            raise TooMany(held)
        displaced: tuple[str, T] | None = None
        if self.running >= self.slots and queue.size >= self.waiting:
            busiest = queue.busiest()
            if busiest is None or busiest[1] < queue.waiting_of(owner) + 2:
                raise LineFull
            newest = queue.newest(busiest[0])
            assert newest is not None
            queue.remove(newest)
            displaced = busiest[0], newest
        queue.push(owner, item)
        return displaced

    def next(self) -> tuple[int, str, T] | None:
        """The next job to start now, its rank and owner (counted running until
        :meth:`done`): the first rank's that has one waiting; None when no slot is free
        or nothing waits."""
        if self.running >= self.slots:
            return None
        for rank, queue in enumerate(self.queues):
            popped = queue.pop()
            if popped is not None:
                self.running += 1
                return rank, popped[0], popped[1]
        return None

    def done(self, rank: int, owner: str) -> None:
        """A job of ``owner`` at ``rank`` that :meth:`next` gave ended: its slot is free."""
        self.running -= 1
        self.queues[rank].done(owner)

    def withdraw(self, item: T) -> bool:
        """Take a waiting job out of line (its asker went away); False if not waiting."""
        return any(queue.remove(item) for queue in self.queues)


__all__ = ["FairLine", "FairQueue", "LineFull", "RankedLine", "TooMany"]

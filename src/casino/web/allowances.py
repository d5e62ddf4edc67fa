"""Allowances that hold across the server's processes: rates and waiting rooms, counted
in the database (docs/server.md, "Limits across processes").

``casino serve --workers N`` (or several ``casino serve`` on one PostgreSQL database)
spreads one player's requests over processes: a count kept in one process's memory
would let each player N times their share. So what a player may *ask for over time*
(new games, hints, pairing asks, stored score pads) and *keep waiting* (rooms for
friends) is counted here, in the one database every process shares; SQLite, with its
one process, counts the same way.

* **Rates** are token buckets, one row per (kind, key), taken with one statement: an
  insert that, when the row is there, refills it for the time gone by and takes a
  token if one is left (``ON CONFLICT DO UPDATE ... RETURNING``). Two processes taking
  from one bucket at once are ordered by the row's lock, so neither takes a token the
  other took. The clock is the processes' wall clock (they share a machine, or keep
  time); a clock that goes back refills nothing.
* **Waiting rooms** are counted per address and per network from a row per room and
  maker key, written in the room's own transaction after its makers' counts were read
  under a lock on each key (PostgreSQL's transaction-scoped advisory locks; SQLite
  writes one transaction at a time), so two processes cannot both make the last room
  a network may have.

Keys are stored as hashes (:func:`hashed`), not as addresses, and a row lives only as
long as it counts: a full bucket, or a room that started, lapsed or was withdrawn, is
deleted. What stays per process, and why, is docs/server.md's to say: a process's own
sockets and worker processes are its own to share out (connections per seat and per
address, the thinking, selection, helper and review queues).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import itertools
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from sqlalchemy import Boolean, DateTime, Float, String, case, delete, func, select, text
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, Session, mapped_column

from casino.web.store import WAITING, Base, GameRow, Store

#: A process deletes the full buckets (those that count nothing any more) every this
#: many takes, so that the table holds only the keys that asked lately.
SWEEP_EVERY = 512
#: When a bucket that never refills is full again: never (its row is kept).
NEVER = 1e18


class RateRow(Base):
    """One token bucket: the tokens left at ``updated`` (seconds since the epoch), when
    it is full again if untouched (then it is forgotten), and whether the last take
    found a token."""

    __tablename__ = "rate_buckets"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    tokens: Mapped[float] = mapped_column(Float)
    updated: Mapped[float] = mapped_column(Float)
    full_at: Mapped[float] = mapped_column(Float, index=True)
    taken: Mapped[bool] = mapped_column(Boolean)


class RoomMakerRow(Base):
    """A waiting room counted against one of its maker's keys (an address, a network)."""

    __tablename__ = "room_makers"

    game: Mapped[str] = mapped_column(String(32), primary_key=True)
    key: Mapped[str] = mapped_column(String(64), primary_key=True, index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)


@dataclass(frozen=True)
class Rate:
    """How often one key may do one kind of thing: ``per_minute`` on average, and
    ``burst`` at once (a key not seen lately starts with a full bucket)."""

    kind: str
    per_minute: float
    burst: int


def hashed(kind: str, key: str) -> str:
    """The stored form of ``key`` counted for ``kind``: a SHA-256, so that the table
    holds no address, and kinds never share a row."""
    return hashlib.sha256(f"{kind}\0{key}".encode()).hexdigest()


def _lock_number(key: str) -> int:
    """The signed 64-bit number of ``key``'s PostgreSQL advisory lock."""
    return int.from_bytes(hashlib.sha256(key.encode()).digest()[:8], "big", signed=True)


class Allowances:
    """The rates and waiting rooms of one database, for every process that serves it."""

    def __init__(self, store: Store, clock: Callable[[], float] = time.time) -> None:
        self.store = store
        #: The wall clock (seconds since the epoch); tests give their own.
        self.clock = clock
        self._takes = itertools.count(1)

    # ------------------------------------------------------------------
    # Rates

    def take(self, rate: Rate, key: str) -> bool:
        """Take one of ``key``'s tokens for ``rate``: False when none is left (the asker
        is refused, and nothing else changes). One statement, in a database thread."""
        t = self.clock()
        per_second = rate.per_minute / 60.0
        row = RateRow.__table__.c
        elapsed = case((row.updated < t, t - row.updated), else_=0.0)
        refilled = case((row.tokens + elapsed * per_second > rate.burst, float(rate.burst)),
                        else_=row.tokens + elapsed * per_second)
        left = case((refilled >= 1.0, refilled - 1.0), else_=refilled)
        first_left = max(rate.burst - 1.0, 0.0)
        insert_into = pg_insert if self.store.postgres else sqlite_insert
        first = insert_into(RateRow).values(
            key=hashed(rate.kind, key), tokens=first_left, updated=t,
            full_at=_full_at(t, rate.burst - first_left, per_second), taken=rate.burst >= 1)
        statement = first.on_conflict_do_update(
            index_elements=[RateRow.key],
            set_={"tokens": left, "updated": t, "taken": refilled >= 1.0,
                  "full_at": (t + (rate.burst - left) / per_second) if per_second > 0
                  else NEVER}).returning(RateRow.taken)
        with Session(self.store.engine) as s, s.begin():
            taken = bool(s.scalar(statement))
            if next(self._takes) % SWEEP_EVERY == 0:
                s.execute(delete(RateRow).where(RateRow.full_at < t))
        return taken

    # ------------------------------------------------------------------
    # Waiting rooms

    def lock(self, s: Session, keys: Iterable[str]) -> None:
        """Hold ``keys`` (in their sorted order, so that two transactions cannot wait
        for each other) until ``s``'s transaction ends, on PostgreSQL; SQLite writes one
        transaction at a time, and the room's own row is written before its counts are
        read (:meth:`waiting_rooms`)."""
        if not self.store.postgres:
            return
        for key in sorted(set(keys)):
            s.execute(text("SELECT pg_advisory_xact_lock(:n)"), {"n": _lock_number(key)})

    @staticmethod
    def waiting_rooms(s: Session, key: str, since: dt.datetime) -> int:
        """How many rooms made under ``key`` still wait (made after ``since``); the rows
        of those that started, lapsed or were withdrawn are deleted on the way."""
        stored = hashed("room", key)
        still = select(GameRow.id).where(GameRow.status == WAITING, GameRow.created >= since)
        s.execute(delete(RoomMakerRow).where(RoomMakerRow.key == stored,
                                             RoomMakerRow.game.not_in(still)))
        s.execute(delete(RoomMakerRow).where(RoomMakerRow.created < since))
        n = s.scalar(select(func.count()).select_from(RoomMakerRow)
                     .where(RoomMakerRow.key == stored))
        return int(n or 0)

    @staticmethod
    def count_room(s: Session, game_id: str, keys: Iterable[str],
                   created: dt.datetime) -> None:
        """Count the new room ``game_id`` against each of ``keys``."""
        for key in keys:
            s.add(RoomMakerRow(game=game_id, key=hashed("room", key), created=created))



def _full_at(t: float, missing: float, per_second: float) -> float:
    """When a bucket ``missing`` tokens short at ``t`` is full again."""
    if missing <= 0:
        return t
    return t + missing / per_second if per_second > 0 else NEVER

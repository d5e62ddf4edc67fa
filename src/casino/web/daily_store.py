"""The daily deal's tables: each day's deck per preset, and who played it (docs/server.md,
"The daily deal").

A day's deal is made by the first request that asks for it, in whichever process:
its row is inserted with the day and preset as its key, and a process that loses the
race to insert it reads the winner's row, so there is one deal a day per preset. Its
deck comes from the system's random source and is stored, never derived from the date:
nobody can work out a day's cards before it is dealt, or another day's from this one.

A player's entry (one per day, preset and player) is inserted in the same transaction
as its game, so two starts at once make one game; the second reads the first's entry.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Boolean, DateTime, Float, Integer, String, Text, select, update
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.orm import Mapped, Session, mapped_column

from casino.web.store import Base, SeatRow, Store, utc


class DailyDealRow(Base):
    """One day's deal of one preset (two players): the deck, top first, and the dealer."""

    __tablename__ = "daily_deals"

    #: The UTC date, as YYYY-MM-DD.
    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: The card numbers of the deck, top first, separated by commas.
    deck: Mapped[str] = mapped_column(Text)
    dealer: Mapped[int] = mapped_column(Integer)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class DailyEntryRow(Base):
    """One player's play of a day's deal: who (an account, or a guest's browser), the name
    shown, the game, and once it is over, the margin and the seconds it took."""

    __tablename__ = "daily_entries"

    day: Mapped[str] = mapped_column(String(10), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32), primary_key=True)
    #: ``account <id>``, or ``guest <the digest of the browser's token>``.
    player: Mapped[str] = mapped_column(String(80), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    guest: Mapped[bool] = mapped_column(Boolean)
    game: Mapped[str] = mapped_column(String(32), unique=True)
    started: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    finished: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True)
    margin: Mapped[int | None] = mapped_column(Integer, nullable=True)
    seconds: Mapped[float | None] = mapped_column(Float, nullable=True)


@dataclass(frozen=True)
class Deal:
    """A day's deal as stored."""

    day: str
    rules: str
    deck: tuple[int, ...]
    dealer: int


@dataclass(frozen=True)
class Entry:
    """A player's entry as stored (``margin`` and ``seconds`` None until it is over)."""

    day: str
    rules: str
    player: str
    name: str
    guest: bool
    game: str
    started: dt.datetime
    finished: dt.datetime | None
    margin: int | None
    seconds: float | None

    @property
    def done(self) -> bool:
        """Whether the player has played the deal to its end."""
        return self.finished is not None


def deck_text(deck: Sequence[int]) -> str:
    """The stored form of a deck."""
    return ",".join(str(c) for c in deck)


def _deal(row: DailyDealRow) -> Deal:
    return Deal(row.day, row.rules, tuple(int(c) for c in row.deck.split(",")), row.dealer)


def _entry(row: DailyEntryRow) -> Entry:
    return Entry(row.day, row.rules, row.player, row.name, row.guest, row.game,
                 utc(row.started), utc(row.finished) if row.finished else None,
                 row.margin, row.seconds)


class DailyStore:
    """The daily deal's rows in the games' database; every method is one transaction."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def _insert(self, table: Any) -> Any:
        """An INSERT of the database's dialect, which can do nothing on a taken key."""
        return (pg_insert if self.store.postgres else sqlite_insert)(table)

    def deal(self, day: str, rules: str) -> Deal | None:
        """The deal of ``day`` and ``rules``, if it was made."""
        with self.store.sessions() as s:
            row = s.get(DailyDealRow, (day, rules))
            return None if row is None else _deal(row)

    def make_deal(self, day: str, rules: str, deck: Sequence[int], dealer: int,
                  created: dt.datetime) -> Deal:
        """The deal of ``day`` and ``rules``: this one, inserted, unless another request
        inserted one first, whose deal it then is (the insert does nothing on the key)."""
        with self.store.transaction() as s:
            s.execute(self._insert(DailyDealRow).values(
                day=day, rules=rules, deck=deck_text(deck), dealer=dealer, created=created)
                .on_conflict_do_nothing(index_elements=["day", "rules"]))
        made = self.deal(day, rules)
        assert made is not None
        return made

    def add_entry(self, s: Session, entry: Entry) -> bool:
        """Insert ``entry`` in the transaction ``s`` (its game's); False, inserting
        nothing, when the player has an entry for that day and preset already."""
        done = s.execute(self._insert(DailyEntryRow).values(
            day=entry.day, rules=entry.rules, player=entry.player, name=entry.name,
            guest=entry.guest, game=entry.game, started=entry.started)
            .on_conflict_do_nothing(index_elements=["day", "rules", "player"])
            .returning(DailyEntryRow.game)).first()
        return done is not None

    def entry(self, day: str, rules: str, player: str) -> Entry | None:
        """The player's entry of the day's deal, if they started it."""
        with self.store.sessions() as s:
            row = s.get(DailyEntryRow, (day, rules, player))
            return None if row is None else _entry(row)

    def entries_of(self, day: str, players: Sequence[str]) -> list[Entry]:
        """The entries of ``players`` (any of their keys) on ``day``, every preset."""
        if not players:
            return []
        with self.store.sessions() as s:
            return [_entry(r) for r in s.scalars(select(DailyEntryRow).where(
                DailyEntryRow.day == day, DailyEntryRow.player.in_(list(players))))]

    def held_by(self, day: str, rules: str, token_hash: str) -> Entry | None:
        """The day's entry of ``rules`` whose game's seat this browser holds (the digest
        of its token): an account's play of the deal, found again when the browser asks
        for it signed out, so that nobody plays it signed in and then again as a guest."""
        with self.store.sessions() as s:
            row = s.scalar(select(DailyEntryRow).join(
                SeatRow, SeatRow.game == DailyEntryRow.game).where(
                DailyEntryRow.day == day, DailyEntryRow.rules == rules,
                SeatRow.token_hash == token_hash).limit(1))
            return None if row is None else _entry(row)

    def last_name(self, player: str) -> str | None:
        """The name ``player`` took part under last (a guest's browser's name)."""
        with self.store.sessions() as s:
            return s.scalar(select(DailyEntryRow.name).where(DailyEntryRow.player == player)
                            .order_by(DailyEntryRow.started.desc()).limit(1))

    def by_game(self, game: str) -> Entry | None:
        """The entry whose game is ``game`` (None for any other game)."""
        with self.store.sessions() as s:
            row = s.scalar(select(DailyEntryRow).where(DailyEntryRow.game == game))
            return None if row is None else _entry(row)

    def finished(self, day: str, rules: str, before: dt.datetime, *, guests: bool,
                 most: int) -> list[Entry]:
        """The day's entries of ``rules`` finished before ``before`` (the day's end), the
        guests' or the accounts', the best ``most`` of them, best first: the higher
        margin, then the shorter time, then the earlier finish."""
        with self.store.sessions() as s:
            rows = s.scalars(select(DailyEntryRow).where(
                DailyEntryRow.day == day, DailyEntryRow.rules == rules,
                DailyEntryRow.guest.is_(guests), DailyEntryRow.finished.is_not(None),
                DailyEntryRow.finished < before).order_by(
                DailyEntryRow.margin.desc(), DailyEntryRow.seconds,
                DailyEntryRow.finished).limit(most))
            return [_entry(r) for r in rows]

    def finish(self, game: str, margin: int, at: dt.datetime) -> Entry | None:
        """Note the game's entry finished at ``at`` with ``margin`` (once: an entry
        finished already keeps its result); the entry, or None for no entry."""
        with self.store.transaction() as s:
            row = s.scalar(select(DailyEntryRow).where(DailyEntryRow.game == game)
                           .with_for_update())
            if row is None:
                return None
            if row.finished is None:
                seconds = max(0.0, (at - utc(row.started)).total_seconds())
                s.execute(update(DailyEntryRow).where(
                    DailyEntryRow.game == game, DailyEntryRow.finished.is_(None)).values(
                    finished=at, margin=margin, seconds=seconds))
        return self.by_game(game)

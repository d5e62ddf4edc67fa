"""Storage of web games through SQLAlchemy 2: a SQLite file by default, PostgreSQL by URL.

The database, not memory, is where a game lives: every change is committed before
anyone is told about it, so a server that stops (or is restarted) loses no move. A
game is kept as the ``casino-record/1`` text of its match (the format every other
front end reads), with what a record does not hold: who holds each seat (a hash of
its secret token, never the token), the invite code of a room, the game's status and
version counter, and the numbered public events that a reconnecting client asks for.

Only portable column types are used (strings, text, integers, booleans, timezone-aware
timestamps), so the same schema works on SQLite and PostgreSQL. The schema is
versioned (``casino/web/migrations``): opening a database brings it to the newest
revision, so a database made by an older release keeps its games.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import json
import secrets
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    Interval,
    String,
    Table,
    Text,
    bindparam,
    create_engine,
    delete,
    event,
    func,
    insert,
    or_,
    select,
    text,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.orm import DeclarativeBase, Mapped, Session, mapped_column, sessionmaker
from sqlalchemy.pool import ConnectionPoolEntry

from casino.i18n import pN_
from casino.web.fanout import CHANGES_CHANNEL, change_notice
from casino.web.table_events import Event

DEFAULT_DATABASE_URL = "sqlite:///casino.db"

#: Game statuses, in the order a game goes through them.
WAITING, PLAYING, OVER = "waiting", "playing", "over"
#: A room withdrawn before its game began (a seek paired elsewhere, a challenge declined),
#: and what its invite and its own page say (translated where shown,
#: ``pgettext("room", WITHDRAWN_WORDS)``).
WITHDRAWN = "withdrawn"
WITHDRAWN_WORDS = pN_("room", "this room was withdrawn (a seek paired elsewhere, or a "
                      "challenge declined or withdrawn): nobody waits in it any more")


def now() -> dt.datetime:
    """The time now in UTC: the database keeps aware times, never the server's local time."""
    return dt.datetime.now(dt.UTC)


def token_hash(token: str) -> str:
    """The stored form of a seat token: a hash, so a leaked database holds no seat."""
    return hashlib.sha256(token.encode("utf-8", "replace")).hexdigest()


class Base(DeclarativeBase):
    """The tables' declarative base: its metadata is the schema the migrations build."""


class GameRow(Base):
    """One game: its record and what the record does not say."""

    __tablename__ = "games"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    rules: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    #: The seat names as a JSON list, for the lobby (the record has them too).
    names: Mapped[str] = mapped_column(Text, default="[]")
    #: ``computer`` (one person against computers) or ``friends`` (a room).
    mode: Mapped[str] = mapped_column(String(16))
    level: Mapped[str] = mapped_column(String(16))
    status: Mapped[str] = mapped_column(String(16), index=True)
    #: Only rooms listed in the lobby may be joined by anyone; others need the invite.
    public: Mapped[bool] = mapped_column(Boolean, default=False)
    #: A rated game (a room of signed-in people) moves their ratings when it ends.
    rated: Mapped[bool] = mapped_column(Boolean, default=False)
    #: Whether anyone may watch the game live, and how many moves behind (docs/server.md,
    #: "Spectators"): chosen when it is made.
    spectators: Mapped[bool] = mapped_column(Boolean, default=False)
    spectator_delay: Mapped[int] = mapped_column(Integer, default=0)
    invite: Mapped[str | None] = mapped_column(String(64), nullable=True)
    creator_seat: Mapped[int] = mapped_column(Integer, default=0)
    version: Mapped[int] = mapped_column(Integer, default=0)
    record: Mapped[str] = mapped_column(Text)
    winner: Mapped[int | None] = mapped_column(Integer, nullable=True)
    rematch: Mapped[str | None] = mapped_column(String(32), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True), index=True)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SeatRow(Base):
    """A person's seat: the hash of the browser token that holds it, and the name shown.

    One browser holds all its seats with one token (its cookie), so the seats of
    a browser are found by that hash (indexed: the lobby lists them).
    """

    __tablename__ = "seats"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    token_hash: Mapped[str | None] = mapped_column(String(64), nullable=True)


class EventRow(Base):
    """A numbered public event; ``words_you`` is the same sentence told to its actor."""

    __tablename__ = "events"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    n: Mapped[int] = mapped_column(Integer, primary_key=True)
    kind: Mapped[str] = mapped_column(String(16))
    seat: Mapped[int | None] = mapped_column(Integer, nullable=True)
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    words: Mapped[str] = mapped_column(Text)
    words_you: Mapped[str | None] = mapped_column(Text, nullable=True)


class LeaseRow(Base):
    """Which server process works for a game's computer (or on its hint), for which
    version of the game, and until when: several processes may serve one game, and a
    computer's move is thought of once. The holder pushes ``until`` forward while it
    works; when it stops (it died), another process takes the lease over."""

    __tablename__ = "leases"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    kind: Mapped[str] = mapped_column(String(16), primary_key=True)
    version: Mapped[int] = mapped_column(Integer)
    holder: Mapped[str] = mapped_column(String(64))
    until: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ReviewRow(Base):
    """A finished game's post-game review of one seat (``casino-review`` JSON text),
    computed once and kept: a review costs seconds to minutes of a worker, and a finished
    game never changes. ``setting`` says what it was computed with (samples, seed, depth,
    nodes, the format's version): a review asked for with another setting is computed
    again and replaces it."""

    __tablename__ = "reviews"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    setting: Mapped[str] = mapped_column(String(64))
    review: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


@dataclass(frozen=True)
class StoredGame:
    """A game as loaded from the database."""

    id: str
    rules: str
    players: int
    mode: str
    level: str
    status: str
    public: bool
    invite: str | None
    creator_seat: int
    version: int
    record: str
    winner: int | None
    rematch: str | None
    created: dt.datetime
    updated: dt.datetime
    seats: dict[int, tuple[str, str | None]]  # seat -> (name, token hash)
    events: tuple[Event, ...]
    rated: bool = False
    spectators: bool = False
    spectator_delay: int = 0


@dataclass(frozen=True)
class Listed:
    """A game row for the lobby's lists (no hidden information, no secrets)."""

    id: str
    rules: str
    players: int
    mode: str
    status: str
    public: bool
    invite: str | None
    names: tuple[str, ...]
    winner: int | None
    created: dt.datetime
    updated: dt.datetime
    spectators: bool = False


def _sqlite_pragmas(dbapi_connection: Any, _record: ConnectionPoolEntry) -> None:
    """WAL lets readers go on while a move is written; NORMAL sync is safe with WAL."""
    cur = dbapi_connection.cursor()
    for pragma in ("journal_mode=WAL", "synchronous=NORMAL", "foreign_keys=ON"):
        cur.execute(f"PRAGMA {pragma}")
    cur.close()


def utc(t: dt.datetime) -> dt.datetime:
    """A stored time as an aware UTC time (SQLite gives them back naive; written in UTC)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


def database_url(url: str) -> str:
    """``url`` with the PostgreSQL driver this project ships (psycopg 3) made explicit.

    Hosting services hand out ``postgres://`` or ``postgresql://`` URLs, which
    SQLAlchemy would read as the older psycopg2 driver; pointing CASINO_DATABASE_URL at
    PostgreSQL must need no other change, so those mean psycopg 3 here.
    """
    for prefix in ("postgres://", "postgresql://"):
        if url.startswith(prefix):
            return "postgresql+psycopg://" + url[len(prefix):]
    return url


class MovedOn(Exception):
    """A change made against a version of a game that is no longer the stored one:
    another change was stored first (by this process or another), so this one was not."""

    def __init__(self, game_id: str, version: int) -> None:
        super().__init__(f"game {game_id} is no longer at version {version}")
        self.game_id = game_id
        self.version = version


@dataclass(frozen=True)
class Lease:
    """The answer to :meth:`Store.take_lease`."""

    #: The lease is the caller's now.
    held: bool
    #: When not held: the seconds left of the holder's lease, or None when the game is
    #: no longer at the version asked for (the caller is behind: nothing to take).
    wait: float | None = None


class Store:
    """The games table and its seats and events; every method is one transaction.

    On PostgreSQL every stored change is announced on :data:`CHANGES_CHANNEL` (a
    ``NOTIFY`` in the change's own transaction, so it is sent if and only if the
    change is committed), for the other processes serving the same games.
    ``origin`` names this process in those notices.
    """

    def __init__(self, url: str = DEFAULT_DATABASE_URL, *, origin: str = "") -> None:
        url = database_url(url)
        self.url = url
        self.origin = origin or secrets.token_hex(8)
        kwargs: dict[str, Any] = {}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False}
        self.engine: Engine = create_engine(url, **kwargs)
        if self.engine.dialect.name == "sqlite":
            event.listen(self.engine, "connect", _sqlite_pragmas)
        # The schema is versioned: a database made by an older release is upgraded
        # (its games kept) before anything is served from it.
        from casino.web.migrations import upgrade

        upgrade(self.engine)
        #: Sessions on the database, for every part's queries (``transaction``: one).
        self.sessions = sessionmaker(self.engine, expire_on_commit=False)
        self.postgres = self.engine.dialect.name == "postgresql"
        self._leases: tuple[Any, Any] | None = None
        self._save: Any = None

    def close(self) -> None:
        """Close the database's connections (at the server's shutdown)."""
        self.engine.dispose()

    @contextmanager
    def transaction(self) -> Iterator[Session]:
        """A session in one transaction, committed on leaving (rolled back on an error)."""
        with self.sessions() as s, s.begin():
            yield s

    # ------------------------------------------------------------------
    # Writing

    def create(self, *, game_id: str, rules: str, players: int, names: Sequence[str],
               mode: str, level: str,
               status: str, public: bool, invite: str | None, creator_seat: int,
               record: str, seats: dict[int, tuple[str, str | None]],
               events: Sequence[Event] = (), rated: bool = False,
               spectators: bool = False, spectator_delay: int = 0,
               within: Callable[[Session, dt.datetime], None] | None = None) -> None:
        """A new game with its person seats (``seat -> (name, token hash or None)``).

        ``within(session, created)`` runs in the same transaction once the game's row is
        written (so that, on SQLite, the transaction already writes and no other can
        slip in): what must hold for the game to be made, checked and counted at once;
        its exception makes nothing."""
        t = now()
        with self.transaction() as s:
            s.add(GameRow(id=game_id, rules=rules, players=players,
                          names=json.dumps(list(names), ensure_ascii=False), mode=mode,
                          level=level,
                          status=status, public=public, invite=invite, rated=rated,
                          spectators=spectators, spectator_delay=spectator_delay,
                          creator_seat=creator_seat, version=len(events), record=record,
                          winner=None, rematch=None, created=t, updated=t))
            s.flush()
            for seat, (name, digest) in seats.items():
                s.add(SeatRow(game=game_id, seat=seat, name=name, token_hash=digest))
            for e in events:
                s.add(_event_row(game_id, e))
            if within is not None:
                within(s, t)

    def save(self, game_id: str, *, record: str, status: str, version: int,
             events: Sequence[Event], winner: int | None = None,
             within: Callable[[Connection], None] | None = None) -> None:
        """Commit a change: the new record, status and version with its new events (and
        what ``within`` writes on the same connection: the game's clocks).

        The change was made against the version before its events (``version`` less
        their number): the UPDATE applies only while the stored game is still at that
        version (a compare-and-set), so of two changes made against one version, by
        whatever process, exactly one is stored; the other raises :class:`MovedOn`
        and stores nothing. This runs after every move, so it uses SQLAlchemy Core (no
        ORM unit of work): one UPDATE and one INSERT in one transaction.
        """
        made_at = version - len(events)
        values = {"game": game_id, "made_at": made_at, "record": record, "status": status,
                  "version": version, "winner": winner, "updated": now(),
                  "notice": change_notice(game_id, version, self.origin)}
        with self.engine.begin() as conn:
            if conn.execute(self._save_statement(), values).first() is None:
                raise MovedOn(game_id, made_at)
            if events:
                conn.execute(insert(EVENTS), [_event_values(game_id, e) for e in events])
            if within is not None:
                within(conn)

    def _save_statement(self) -> Any:
        """The UPDATE of :meth:`save`, made once. On PostgreSQL the change's notice
        rides on it (one round trip fewer a move): queued only if the row changed, and
        sent only if the whole transaction is committed."""
        if self._save is None:
            told: Any = (func.pg_notify(CHANGES_CHANNEL, bindparam("notice", type_=String))
                         if self.postgres else GAMES.c.version)
            self._save = update(GAMES).where(
                GAMES.c.id == bindparam("game"),
                GAMES.c.version == bindparam("made_at")).values(
                record=bindparam("record"), status=bindparam("status"),
                version=bindparam("version"), winner=bindparam("winner"),
                updated=bindparam("updated")).returning(told)
        return self._save

    def _announce(self, conn: Connection | Session, game_id: str, version: int) -> None:
        """Tell the other processes (PostgreSQL) that the game changed, on commit."""
        if self.postgres:
            conn.execute(text("SELECT pg_notify(:channel, :payload)"), {
                "channel": CHANGES_CHANNEL,
                "payload": change_notice(game_id, version, self.origin)})

    def take_seat(self, game_id: str, seat: int, name: str, digest: str, *, record: str,
                  names: Sequence[str], status: str, version: int,
                  events: Sequence[Event]) -> bool:
        """Give a free seat to a person; False when someone took it first."""
        with self.transaction() as s:
            taken = s.execute(update(SeatRow).where(
                SeatRow.game == game_id, SeatRow.seat == seat,
                SeatRow.token_hash.is_(None)).values(name=name, token_hash=digest))
            if getattr(taken, "rowcount", 1) != 1:
                return False
            moved = s.execute(update(GameRow).where(
                GameRow.id == game_id, GameRow.version == version - len(events)).values(
                record=record, status=status, version=version, updated=now(),
                names=json.dumps(list(names), ensure_ascii=False)))
            if getattr(moved, "rowcount", 1) != 1:
                raise MovedOn(game_id, version - len(events))  # rolls the seat back too
            for e in events:
                s.add(_event_row(game_id, e))
            self._announce(s, game_id, version)
        return True

    def rebind(self, game_id: str, old: str, new: str) -> int | None:
        """Move the seat held by the hash ``old`` to the hash ``new``: the seat, or None."""
        with self.transaction() as s:
            seat = s.scalar(select(SeatRow.seat).where(SeatRow.game == game_id,
                                                       SeatRow.token_hash == old))
            if seat is None:
                return None
            s.execute(update(SeatRow).where(SeatRow.game == game_id, SeatRow.seat == seat)
                      .values(token_hash=new))
            version = s.scalar(select(GameRow.version).where(GameRow.id == game_id))
            # The version stays; the processes with the game live reload its seats.
            self._announce(s, game_id, int(version or 0))
            return int(seat)

    def take_lease(self, game_id: str, kind: str, version: int, holder: str,
                   seconds: float) -> Lease:
        """Take (or keep) the game's lease of ``kind`` for ``version`` for ``seconds``.

        It is the caller's when nobody holds it, when the caller already does, when it
        was held for an older version, or when its holder let it run out (that process
        died, or hung). The game's stored version must be ``version``: a process that
        is behind takes nothing (``wait`` None) and learns of the change by its notice.
        The clock is the database's on PostgreSQL, so machines' clocks need not agree.
        """
        # One statement in the usual case (a computer's every move takes the lease),
        # built once (:meth:`_lease_statements`).
        take, look = self._lease_statements()
        t = now()
        values = {"game": game_id, "kind": kind, "version": version, "holder": holder,
                  "seconds": dt.timedelta(seconds=seconds), "at": t,
                  "until": t + dt.timedelta(seconds=seconds)}
        with self.engine.begin() as conn:
            if conn.execute(take, values).first() is not None:
                return Lease(True)
            row = conn.execute(look, values).first()
            if row is None or row.version is None or int(row.version) != version:
                return Lease(False)
            return Lease(False, max(0.0, (utc(row.until) - utc(row.at)).total_seconds()))

    def _lease_statements(self) -> tuple[Any, Any]:
        """The statements of :meth:`take_lease`, made once: (take, look).

        ``take`` writes the lease only while the game is at the version asked for and
        the lease is free, the taker's, of an older version, or run out; ``look`` says
        what stopped it (the game's version, the holder's end, and the time now). The
        time is the database's on PostgreSQL (machines' clocks need not agree); SQLite
        is served by one process, whose clock it is."""
        if self._leases is None:
            stamp = DateTime(timezone=True)
            at: Any = func.now() if self.postgres else bindparam("at", type_=stamp)
            until: Any = (at + bindparam("seconds", type_=Interval()) if self.postgres
                          else bindparam("until", type_=stamp))
            insert_into = pg_insert if self.postgres else sqlite_insert
            take = insert_into(LEASES).from_select(
                ["game", "kind", "version", "holder", "until"],
                select(bindparam("game", type_=String), bindparam("kind", type_=String),
                       bindparam("version", type_=Integer),
                       bindparam("holder", type_=String), until).where(
                    GAMES.c.id == bindparam("game"), GAMES.c.version == bindparam("version")))
            take = take.on_conflict_do_update(
                index_elements=[LEASES.c.game, LEASES.c.kind],
                set_={"version": take.excluded.version, "holder": take.excluded.holder,
                      "until": take.excluded.until},
                where=or_(LEASES.c.holder == take.excluded.holder,
                          LEASES.c.version < take.excluded.version, LEASES.c.until <= at))
            look = select(
                select(GAMES.c.version).where(GAMES.c.id == bindparam("game"))
                .scalar_subquery().label("version"),
                LEASES.c.until, at.label("at")).where(
                LEASES.c.game == bindparam("game"), LEASES.c.kind == bindparam("kind"))
            self._leases = (take.returning(LEASES.c.game), look)
        return self._leases

    def games_of(self, digest: str, limit: int = 200) -> list[str]:
        """The games in which the browser token with hash ``digest`` holds a seat."""
        with self.sessions() as s:
            return list(s.scalars(select(SeatRow.game).where(SeatRow.token_hash == digest)
                                  .limit(limit)))

    def set_rematch(self, game_id: str, rematch: str) -> None:
        """Note ``rematch`` as the game that follows ``game_id``, so that the other players
        of a finished game find it."""
        with self.transaction() as s:
            s.execute(update(GameRow).where(GameRow.id == game_id).values(rematch=rematch))

    def save_review(self, game_id: str, seat: int, setting: str, review: str) -> None:
        """Keep a seat's review of a finished game (replacing one of another setting)."""
        with self.transaction() as s:
            s.execute(delete(ReviewRow).where(ReviewRow.game == game_id,
                                              ReviewRow.seat == seat))
            s.add(ReviewRow(game=game_id, seat=seat, setting=setting, review=review,
                            created=now()))

    # ------------------------------------------------------------------
    # Reading

    def load_review(self, game_id: str, seat: int, setting: str) -> str | None:
        """The review kept for a game's seat at ``setting`` (its JSON text), or None."""
        with self.sessions() as s:
            kept = s.scalar(select(ReviewRow.review).where(
                ReviewRow.game == game_id, ReviewRow.seat == seat,
                ReviewRow.setting == setting))
            return None if kept is None else str(kept)

    def load(self, game_id: str, *, after: int = 0) -> StoredGame | None:
        """The stored game, with its events numbered above ``after`` (a process that has
        the first ``after`` already reads only the new ones)."""
        with self.sessions() as s:
            row = s.get(GameRow, game_id)
            if row is None:
                return None
            seats = {r.seat: (r.name, r.token_hash) for r in s.scalars(
                select(SeatRow).where(SeatRow.game == game_id))}
            events = tuple(_event(r) for r in s.scalars(
                select(EventRow).where(EventRow.game == game_id, EventRow.n > after)
                .order_by(EventRow.n)))
            return StoredGame(
                id=row.id, rules=row.rules, players=row.players, mode=row.mode,
                level=row.level, status=row.status, public=row.public, invite=row.invite,
                creator_seat=row.creator_seat, version=row.version, record=row.record,
                winner=row.winner, rematch=row.rematch, created=utc(row.created),
                updated=utc(row.updated), seats=seats, events=events, rated=row.rated,
                spectators=row.spectators, spectator_delay=row.spectator_delay)

    def listing(self, *, status: str, limit: int, since: dt.datetime | None = None,
                ids: Sequence[str] | None = None, public: bool | None = None,
                spectators: bool | None = None) -> list[Listed]:
        """Games of a status, newest first, optionally only ``ids``, only public ones or
        only those that may (or may not) be watched."""
        with self.sessions() as s:
            q = select(GameRow).where(GameRow.status == status)
            if since is not None:
                q = q.where(GameRow.created >= since)
            if ids is not None:
                if not ids:
                    return []
                q = q.where(GameRow.id.in_(list(ids)))
            if public is not None:
                q = q.where(GameRow.public.is_(public))
            if spectators is not None:
                q = q.where(GameRow.spectators.is_(spectators))
            rows = list(s.scalars(q.order_by(GameRow.updated.desc()).limit(limit)))
            return [Listed(id=r.id, rules=r.rules, players=r.players, mode=r.mode,
                           status=r.status, public=r.public, invite=r.invite,
                           names=tuple(stored_names(r.names)), winner=r.winner,
                           created=utc(r.created), updated=utc(r.updated),
                           spectators=r.spectators)
                    for r in rows]


def stored_names(raw: str) -> list[str]:
    """A stored game's seat names from their JSON column: none for a damaged value, so a
    listing never fails on one game."""
    try:
        names = json.loads(raw)
    except ValueError:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


GAMES: Table = Base.metadata.tables["games"]
SEATS_BY_TOKEN = Index("ix_seats_token_hash", SeatRow.token_hash)
EVENTS: Table = Base.metadata.tables["events"]
LEASES: Table = Base.metadata.tables["leases"]


def _event_values(game_id: str, e: Event) -> dict[str, Any]:
    return {"game": game_id, "n": e.n, "kind": e.kind, "seat": e.seat, "text": e.text,
            "words": e.words, "words_you": e.words_you}


def _event_row(game_id: str, e: Event) -> EventRow:
    return EventRow(**_event_values(game_id, e))


def _event(r: EventRow) -> Event:
    return Event(r.n, r.kind, r.seat, r.text, r.words, r.words_you)

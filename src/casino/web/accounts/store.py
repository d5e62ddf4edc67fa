"""The accounts' tables and their queries: accounts, their sessions, their recovery codes,
the games they claimed, their ratings (queried by :mod:`casino.web.accounts.ratings`)
and how each rated game moved them,
and the failed sign-ins counted per account and per network.

Every method is one transaction on the games' own database (the tables share
:class:`casino.web.store.Base`, so the migrations make them with the rest), and is called
in one of the database threads, never on the event loop. Secrets are kept as hashes
only: a password as its Argon2id hash, a session token and a recovery code as their
SHA-256. The failed sign-ins are rows of the database rather than counters in memory,
so that the limits hold across every process serving one PostgreSQL database.
"""

from __future__ import annotations

import datetime as dt
import json
import secrets
from dataclasses import dataclass, field

from sqlalchemy import (
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
    case,
    delete,
    select,
    update,
)
from sqlalchemy.dialects.postgresql import insert as pg_insert
from sqlalchemy.dialects.sqlite import insert as sqlite_insert
from sqlalchemy.exc import IntegrityError
from sqlalchemy.orm import Mapped, Session, mapped_column

from casino.engine.record import read_record, write_record
from casino.web.store import Base, GameRow, SeatRow, Store, now, utc


class AccountRow(Base):
    """An account: its name as shown, the name's skeleton (unique: no two accounts whose
    names look alike), its password's Argon2id hash, and the language its owner chose
    with the pages' switch (None until they do: the browser's language then)."""

    __tablename__ = "accounts"

    id: Mapped[str] = mapped_column(String(32), primary_key=True)
    name: Mapped[str] = mapped_column(String(64))
    skeleton: Mapped[str] = mapped_column(String(128), unique=True, index=True)
    password: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    language: Mapped[str | None] = mapped_column(String(8), nullable=True)


class AccountSessionRow(Base):
    """A signed-in browser: the SHA-256 of its session cookie's token, whose account, and
    when it was made and last used. Signing out deletes the row, which revokes the
    cookie wherever a copy of it is."""

    __tablename__ = "account_sessions"

    token_hash: Mapped[str] = mapped_column(String(64), primary_key=True)
    account: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"), index=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    seen: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RecoveryCodeRow(Base):
    """One unused recovery code of an account, as its SHA-256 (deleted when used)."""

    __tablename__ = "recovery_codes"

    account: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                         primary_key=True)
    code_hash: Mapped[str] = mapped_column(String(64), primary_key=True)


class AccountGameRow(Base):
    """A seat of a game that an account claimed (from the browser that played it)."""

    __tablename__ = "account_games"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    seat: Mapped[int] = mapped_column(Integer, primary_key=True)
    account: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"), index=True)


class RatingRow(Base):
    """An account's Glicko-2 rating in one pool: a preset at a player count (the rating
    scale's numbers, :class:`casino.measure.glicko2.Rating`), and how many rated games
    moved it (:mod:`casino.web.accounts.ratings`)."""

    __tablename__ = "ratings"
    __table_args__ = (Index("ix_ratings_pool", "preset", "players"),)

    account: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                         primary_key=True)
    preset: Mapped[str] = mapped_column(String(32), primary_key=True)
    players: Mapped[int] = mapped_column(Integer, primary_key=True)
    rating: Mapped[float] = mapped_column(Float)
    deviation: Mapped[float] = mapped_column(Float)
    volatility: Mapped[float] = mapped_column(Float)
    games: Mapped[int] = mapped_column(Integer)
    updated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatedGameRow(Base):
    """A rated game whose result has moved its players' ratings: inserted in the same
    transaction as the new ratings, its primary key lets a game be rated only once,
    however many processes see it end."""

    __tablename__ = "rated_games"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    rated: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class RatingChangeRow(Base):
    """How one rated game moved one account's rating: the pool, the rating and
    deviation before and after, and when. Written in the rating step's own transaction
    (:meth:`casino.web.accounts.ratings.Ratings.rate_game`), so a game's changes are
    there exactly when its ``rated_games`` row is; the player page draws its graph from
    them (:mod:`casino.web.accounts.profiles`). A game is rated once and an account
    holds one seat of a rated game, hence the key."""

    __tablename__ = "rating_changes"
    __table_args__ = (Index("ix_rating_changes_pool", "account", "preset", "players",
                            "changed"),)

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    account: Mapped[str] = mapped_column(String(32), ForeignKey("accounts.id"),
                                         primary_key=True)
    preset: Mapped[str] = mapped_column(String(32))
    players: Mapped[int] = mapped_column(Integer)
    rating_before: Mapped[float] = mapped_column(Float)
    deviation_before: Mapped[float] = mapped_column(Float)
    rating_after: Mapped[float] = mapped_column(Float)
    deviation_after: Mapped[float] = mapped_column(Float)
    changed: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class SignInFailureRow(Base):
    """Failed sign-ins counted under one key (an account, or a network) since ``since``;
    and, under a key of their own, the sign-ups from a network."""

    __tablename__ = "signin_failures"

    key: Mapped[str] = mapped_column(String(128), primary_key=True)
    since: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    failures: Mapped[int] = mapped_column(Integer)


@dataclass(frozen=True)
class Account:
    """An account as the pages use it: never its password's hash. ``language`` is the
    one its owner chose (None for none, or not looked up: only a session's lookup reads
    it), and plays no part in comparing two accounts."""

    id: str
    name: str
    language: str | None = field(default=None, compare=False)


class NameTaken(Exception):
    """The name, or one that looks like it, is another account's."""


#: The name a deleted account's seats get in the games it played.
FORMER = "Former player"


class AccountStore:
    """The accounts' queries, each one transaction on the store's database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # -- accounts ------------------------------------------------------------

    def create(self, name: str, skeleton: str, password_hash: str, codes: list[str],
               session: str) -> Account:
        """A new account with its recovery codes' and first session's hashes;
        :class:`NameTaken` when its skeleton is another account's."""
        account = Account(secrets.token_hex(16), name)
        t = now()
        try:
            with self.store.transaction() as s:
                s.add(AccountRow(id=account.id, name=name, skeleton=skeleton,
                                 password=password_hash, created=t))
                s.flush()
                s.add_all(RecoveryCodeRow(account=account.id, code_hash=c) for c in codes)
                s.add(AccountSessionRow(token_hash=session, account=account.id, created=t,
                                        seen=t))
        except IntegrityError:
            raise NameTaken(name) from None
        return account

    def find(self, skeleton: str) -> tuple[Account, str] | None:
        """The account whose name has ``skeleton``, with its password's hash."""
        with self.store.sessions() as s:
            row = s.scalar(select(AccountRow).where(AccountRow.skeleton == skeleton))
            return None if row is None else (Account(row.id, row.name), row.password)

    def password_of(self, account: str) -> str | None:
        """The password hash of ``account``, None when it is gone."""
        with self.store.sessions() as s:
            return s.scalar(select(AccountRow.password).where(AccountRow.id == account))

    def delete(self, account: str) -> list[str]:
        """Delete ``account``: its sessions, codes and row go, and its name leaves the
        games it claimed (their seats, lists and records say :data:`FORMER`). Returns
        those games, for the live copies to be read again."""
        with self.store.transaction() as s:
            claimed = list(s.execute(select(AccountGameRow.game, AccountGameRow.seat)
                                     .where(AccountGameRow.account == account)))
            for game, seat in claimed:
                version = _anonymise(s, game, seat)
                if version is not None:  # the processes with it live read it again
                    self.store._announce(s, game, version)  # the store's one NOTIFY
            s.execute(delete(AccountGameRow).where(AccountGameRow.account == account))
            s.execute(delete(RatingRow).where(RatingRow.account == account))
            s.execute(delete(RatingChangeRow).where(RatingChangeRow.account == account))
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account == account))
            s.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.account == account))
            s.execute(delete(AccountRow).where(AccountRow.id == account))
        return sorted({game for game, _ in claimed})

    # -- sessions ------------------------------------------------------------

    def add_session(self, account: str, session: str) -> None:
        """A new signed-in session of ``account`` (by its token's hash)."""
        t = now()
        with self.store.transaction() as s:
            s.add(AccountSessionRow(token_hash=session, account=account, created=t, seen=t))

    def session(self, session: str, lapse: dt.timedelta) -> Account | None:
        """The account signed in by the session with hash ``session``, if it is neither
        revoked nor unused for ``lapse``; its last use is noted (at most once a minute)."""
        t = now()
        with self.store.transaction() as s:
            row = s.execute(select(AccountSessionRow.seen, AccountRow.id, AccountRow.name,
                                   AccountRow.language)
                            .join(AccountRow, AccountRow.id == AccountSessionRow.account)
                            .where(AccountSessionRow.token_hash == session)).first()
            if row is None:
                return None
            if t - utc(row.seen) > lapse:
                s.execute(delete(AccountSessionRow)
                          .where(AccountSessionRow.token_hash == session))
                return None
            if t - utc(row.seen) > dt.timedelta(minutes=1):
                s.execute(update(AccountSessionRow)
                          .where(AccountSessionRow.token_hash == session).values(seen=t))
            return Account(row.id, row.name, row.language)

    def set_language(self, account: str, language: str) -> None:
        """Keep ``language`` as the choice of ``account`` (the switch, signed in)."""
        with self.store.transaction() as s:
            s.execute(update(AccountRow).where(AccountRow.id == account)
                      .values(language=language))

    def end_session(self, session: str) -> None:
        """Revoke one session (signing out)."""
        with self.store.transaction() as s:
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.token_hash == session))

    def end_sessions(self, account: str) -> int:
        """Revoke every session of ``account`` (signing out everywhere); how many there were."""
        with self.store.transaction() as s:
            gone = s.execute(delete(AccountSessionRow)
                             .where(AccountSessionRow.account == account))
            return int(getattr(gone, "rowcount", 0) or 0)

    # -- recovery codes ------------------------------------------------------

    def replace_codes(self, account: str, codes: list[str]) -> None:
        """New recovery codes for ``account`` (the old ones no longer work)."""
        with self.store.transaction() as s:
            s.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.account == account))
            s.add_all(RecoveryCodeRow(account=account, code_hash=c) for c in codes)

    def use_code(self, account: str, code: str, password_hash: str) -> bool:
        """Spend one recovery code of ``account`` (by its hash) and set its new password,
        revoking its sessions; False, changing nothing, when it holds no such code. The
        code's row is deleted in the same transaction, so a code works once, even when
        two processes are handed it at once."""
        with self.store.transaction() as s:
            used = s.execute(delete(RecoveryCodeRow).where(RecoveryCodeRow.account == account,
                                                           RecoveryCodeRow.code_hash == code))
            if getattr(used, "rowcount", 0) != 1:
                return False
            s.execute(update(AccountRow).where(AccountRow.id == account)
                      .values(password=password_hash))
            s.execute(delete(AccountSessionRow).where(AccountSessionRow.account == account))
        return True

    def has_code(self, account: str, code: str) -> bool:
        """Whether ``account`` holds the unused recovery code with hash ``code`` (looked at
        before the new password is hashed, so a wrong code costs no Argon2 work)."""
        with self.store.sessions() as s:
            return s.scalar(select(RecoveryCodeRow.code_hash).where(
                RecoveryCodeRow.account == account, RecoveryCodeRow.code_hash == code)) \
                is not None

    def codes_left(self, account: str) -> int:
        """How many unused recovery codes ``account`` has."""
        with self.store.sessions() as s:
            return len(list(s.scalars(select(RecoveryCodeRow.code_hash)
                                      .where(RecoveryCodeRow.account == account))))

    # -- games ---------------------------------------------------------------

    def claim(self, account: str, digest: str) -> int:
        """Make the seats held by the browser token with hash ``digest`` the account's
        (those not claimed already); how many were claimed."""
        with self.store.transaction() as s:
            held = list(s.execute(select(SeatRow.game, SeatRow.seat)
                                  .where(SeatRow.token_hash == digest)))
            taken = set(s.execute(select(AccountGameRow.game, AccountGameRow.seat).where(
                AccountGameRow.game.in_([g for g, _ in held]))))
            new = [(g, seat) for g, seat in held if (g, seat) not in taken]
            s.add_all(AccountGameRow(game=g, seat=seat, account=account) for g, seat in new)
            return len(new)

    def hold(self, account: str, game: str, seat: int) -> bool:
        """Record that ``account`` holds ``seat`` of ``game`` (a seat it has just taken,
        starting or joining a game signed in), unless the seat is recorded already;
        whether it is now the account's."""
        with self.store.transaction() as s:
            holder = s.scalar(select(AccountGameRow.account).where(
                AccountGameRow.game == game, AccountGameRow.seat == seat))
            if holder is None:
                s.add(AccountGameRow(game=game, seat=seat, account=account))
                return True
            return bool(holder == account)

    def follow(self, game: str, rematch: str) -> None:
        """Give each account holding a seat of ``game`` the same seat of its ``rematch``
        (as the browsers' tokens hold the same seats there)."""
        with self.store.transaction() as s:
            held = list(s.execute(select(AccountGameRow.seat, AccountGameRow.account)
                                  .where(AccountGameRow.game == game)))
            taken = set(s.scalars(select(AccountGameRow.seat)
                                  .where(AccountGameRow.game == rematch)))
            s.add_all(AccountGameRow(game=rematch, seat=seat, account=account)
                      for seat, account in held if seat not in taken)

    def holders(self, game: str) -> dict[int, str]:
        """The accounts holding seats of ``game``: account id by seat."""
        with self.store.sessions() as s:
            return {int(seat): str(account) for seat, account in s.execute(
                select(AccountGameRow.seat, AccountGameRow.account)
                .where(AccountGameRow.game == game))}

    def is_taken(self, skeleton: str) -> bool:
        """Whether an account's name has ``skeleton`` (a guest may not pass for it)."""
        with self.store.sessions() as s:
            return s.scalar(select(AccountRow.id).where(AccountRow.skeleton == skeleton)) \
                is not None

    def games(self, account: str) -> list[str]:
        """The games whose seats ``account`` claimed."""
        with self.store.sessions() as s:
            return sorted(set(s.scalars(select(AccountGameRow.game)
                                        .where(AccountGameRow.account == account))))

    # -- failed sign-ins -----------------------------------------------------

    def failures(self, keys: list[str], window: dt.timedelta) -> dict[str, int]:
        """The failed sign-ins counted under each of ``keys`` in the current window."""
        t = now()
        with self.store.sessions() as s:
            rows = s.execute(select(SignInFailureRow).where(SignInFailureRow.key.in_(keys)))
            return {r.key: r.failures for (r,) in rows if t - utc(r.since) <= window}

    def fail(self, keys: list[str], window: dt.timedelta) -> None:
        """Count one failed sign-in under each of ``keys`` (a lapsed window starts again).

        One statement per key, an insert that adds one to the row already there
        (``ON CONFLICT DO UPDATE``), so that two processes counting the same key at once
        both count, and neither fails on the other's new row."""
        t = now()
        cutoff = t - window
        insert_into = pg_insert if self.store.postgres else sqlite_insert
        with self.store.transaction() as s:
            for key in keys:
                count = insert_into(SignInFailureRow).values(key=key, since=t, failures=1)
                lapsed = SignInFailureRow.since < cutoff
                s.execute(count.on_conflict_do_update(
                    index_elements=[SignInFailureRow.key],
                    set_={"failures": case((lapsed, 1),
                                           else_=SignInFailureRow.failures + 1),
                          "since": case((lapsed, t), else_=SignInFailureRow.since)}))

    def forgive(self, key: str) -> None:
        """Forget the failures counted under ``key`` (the account's, once signed in)."""
        with self.store.transaction() as s:
            s.execute(delete(SignInFailureRow).where(SignInFailureRow.key == key))


def _anonymise(s: Session, game: str, seat: int) -> int | None:
    """Put :data:`FORMER` in place of a seat's name: the seat, the game's list of names
    and its record; the game's version (None: no such game)."""
    s.execute(update(SeatRow).where(SeatRow.game == game, SeatRow.seat == seat)
              .values(name=FORMER))
    row = s.get(GameRow, game)
    if row is None:
        return None
    names = json.loads(row.names or "[]")
    if 0 <= seat < len(names):
        names[seat] = FORMER
        row.names = json.dumps(names, ensure_ascii=False)
    record = read_record(row.record)
    if record.names is not None and 0 <= seat < len(record.names):
        renamed = list(record.names)
        renamed[seat] = FORMER
        row.record = write_record(record, names=renamed)
    return row.version

"""The chat's tables and their queries (docs/server.md, "Chat").

Chat lines live in a table of their own, numbered by their own sequence: a line said at
the table never changes the game's version, so it can never make a player's pending
move stale, and it survives a restart. On PostgreSQL each stored line is announced on
the games' channel (:data:`~casino.web.fanout.CHANGES_CHANNEL`, with a payload of its
own kind, :func:`~casino.web.fanout.chat_notice`), in the line's own transaction, so
the clients another process serves hear it too.

Who says or reads a line is a *person key*: ``account <id>`` for a signed-in person,
else the digest of the guest browser's token, else (a browser without one) its
network. Only their SHA-256 is stored (:func:`~casino.web.allowances.hashed`). Each
person's mutes and their "chat off" are stored by that key, so they last across
reloads; a game whose maker turned its chat off has a row of its own.

Every method is one transaction, run in a database thread.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    Boolean,
    DateTime,
    Integer,
    String,
    Text,
    UniqueConstraint,
    delete,
    select,
    text,
    update,
)
from sqlalchemy.orm import Mapped, mapped_column

from casino.web.allowances import hashed
from casino.web.fanout import CHANGES_CHANNEL, chat_notice
from casino.web.store import Base, Store, now


class ChatRow(Base):
    """One chat line: the game and room it was said in, who said it (their person key,
    hashed, and the name shown), its text or its quick phrase's code, and when."""

    __tablename__ = "chat_lines"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    game: Mapped[str] = mapped_column(String(32), index=True)
    room: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    text: Mapped[str | None] = mapped_column(Text, nullable=True)
    phrase: Mapped[str | None] = mapped_column(String(16), nullable=True)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))


class ChatReportRow(Base):
    """A reported line for an operator: the line, who reported it, the lines of its
    room before it (JSON), and whether an operator resolved it."""

    __tablename__ = "chat_reports"

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    line: Mapped[int] = mapped_column(Integer, index=True)
    game: Mapped[str] = mapped_column(String(32))
    room: Mapped[str] = mapped_column(String(16))
    sender: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))
    said: Mapped[str] = mapped_column(Text)
    reporter: Mapped[str] = mapped_column(String(64))
    reporter_name: Mapped[str] = mapped_column(String(64))
    context: Mapped[str] = mapped_column(Text)
    created: Mapped[dt.datetime] = mapped_column(DateTime(timezone=True))
    resolved: Mapped[bool] = mapped_column(Boolean, default=False, index=True)


class ChatMuteRow(Base):
    """A person (``viewer``) mutes another (``sender``): shown by the name they had."""

    __tablename__ = "chat_mutes"
    __table_args__ = (UniqueConstraint("viewer", "sender", name="uq_chat_mutes"),)

    id: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=True)
    viewer: Mapped[str] = mapped_column(String(64), index=True)
    sender: Mapped[str] = mapped_column(String(64))
    name: Mapped[str] = mapped_column(String(64))


class ChatOffRow(Base):
    """Chat turned off: for a person (``key`` their hashed person key) or a game (its id,
    as its maker chose)."""

    __tablename__ = "chat_off"

    key: Mapped[str] = mapped_column(String(64), primary_key=True)


@dataclass(frozen=True)
class Line:
    """A stored chat line, as the service delivers it (``sender`` hashed)."""

    id: int
    game: str
    room: str
    sender: str
    name: str
    text: str | None
    phrase: str | None
    created: dt.datetime


@dataclass(frozen=True)
class Report:
    """A stored report, as the admin page lists it."""

    id: int
    line: int
    game: str
    room: str
    name: str
    said: str
    reporter_name: str
    context: list[dict[str, Any]]
    created: dt.datetime


def _line(row: ChatRow) -> Line:
    created = row.created if row.created.tzinfo else row.created.replace(tzinfo=dt.UTC)
    return Line(row.id, row.game, row.room, row.sender, row.name, row.text, row.phrase,
                created)


def game_key(game_id: str) -> str:
    """The :class:`ChatOffRow` key of a game whose chat is off."""
    return hashed("chat game", game_id)


def person_key(key: str) -> str:
    """The stored form of a person key."""
    return hashed("chat", key)


class ChatStore:
    """The chat's tables in the games' database."""

    def __init__(self, store: Store) -> None:
        self.store = store

    # Lines

    def add(self, game: str, room: str, sender: str, name: str, said: str | None,
            phrase: str | None) -> Line:
        """Store a line (``sender`` a person key) and, on PostgreSQL, announce it."""
        row = ChatRow(game=game, room=room, sender=person_key(sender), name=name, text=said,
                      phrase=phrase, created=now())
        with self.store.transaction() as s:
            s.add(row)
            s.flush()
            if self.store.postgres:
                s.execute(text("SELECT pg_notify(:channel, :payload)"), {
                    "channel": CHANGES_CHANNEL,
                    "payload": chat_notice(game, row.id, self.store.origin)})
        return _line(row)

    def line(self, line_id: int) -> Line | None:
        """The stored line ``line_id``, or None."""
        with self.store.sessions() as s:
            row = s.get(ChatRow, line_id)
            return _line(row) if row is not None else None

    def recent(self, game: str, rooms: tuple[str, ...], most: int,
               before: int | None = None) -> list[Line]:
        """The last ``most`` lines of ``game`` in ``rooms`` (before line ``before``),
        oldest first."""
        query = select(ChatRow).where(ChatRow.game == game, ChatRow.room.in_(rooms))
        if before is not None:
            query = query.where(ChatRow.id < before)
        with self.store.sessions() as s:
            rows = s.scalars(query.order_by(ChatRow.id.desc()).limit(most)).all()
            return [_line(r) for r in reversed(rows)]

    # Who reads what

    def is_off(self, key: str) -> bool:
        """Whether chat is off for the person key or game key ``key`` (stored form)."""
        with self.store.sessions() as s:
            return s.get(ChatOffRow, key) is not None

    def set_off(self, key: str, off: bool) -> None:
        """Turn chat off (or on again) for ``key`` (stored form)."""
        with self.store.transaction() as s:
            s.execute(delete(ChatOffRow).where(ChatOffRow.key == key))
            if off:
                s.add(ChatOffRow(key=key))

    def mutes(self, viewer: str) -> list[tuple[int, str, str]]:
        """The mutes of the person key ``viewer``: (id, muted sender hashed, name shown)."""
        with self.store.sessions() as s:
            rows = s.scalars(select(ChatMuteRow).where(
                ChatMuteRow.viewer == person_key(viewer)).order_by(ChatMuteRow.id)).all()
            return [(r.id, r.sender, r.name) for r in rows]

    def mute(self, viewer: str, line: Line) -> None:
        """``viewer`` mutes the sender of ``line`` (once: muting again changes nothing)."""
        with self.store.transaction() as s:
            found = s.scalar(select(ChatMuteRow.id).where(
                ChatMuteRow.viewer == person_key(viewer), ChatMuteRow.sender == line.sender))
            if found is None:
                s.add(ChatMuteRow(viewer=person_key(viewer), sender=line.sender,
                                  name=line.name))

    def unmute(self, viewer: str, mute_id: int) -> bool:
        """``viewer`` lifts their mute ``mute_id``; False when they have no such mute."""
        with self.store.transaction() as s:
            gone = s.execute(delete(ChatMuteRow).where(
                ChatMuteRow.id == mute_id, ChatMuteRow.viewer == person_key(viewer)))
            return bool(getattr(gone, "rowcount", 0))

    # Reports

    def report(self, line: Line, said: str, reporter: str, reporter_name: str,
               context: list[dict[str, Any]]) -> int:
        """Store a report of ``line`` (its words ``said``) with its ``context``."""
        row = ChatReportRow(line=line.id, game=line.game, room=line.room, sender=line.sender,
                            name=line.name, said=said, reporter=person_key(reporter),
                            reporter_name=reporter_name,
                            context=json.dumps(context, ensure_ascii=False),
                            created=now(), resolved=False)
        with self.store.transaction() as s:
            s.add(row)
            s.flush()
            return row.id

    def open_reports(self, most: int) -> list[Report]:
        """The ``most`` oldest reports no operator resolved yet."""
        with self.store.sessions() as s:
            rows = s.scalars(select(ChatReportRow).where(ChatReportRow.resolved.is_(False))
                             .order_by(ChatReportRow.id).limit(most)).all()
            return [Report(r.id, r.line, r.game, r.room, r.name, r.said, r.reporter_name,
                           json.loads(r.context), r.created) for r in rows]

    def resolve(self, report_id: int) -> bool:
        """Mark a report resolved; False when there is no such open report."""
        with self.store.transaction() as s:
            done = s.execute(update(ChatReportRow).where(
                ChatReportRow.id == report_id, ChatReportRow.resolved.is_(False))
                .values(resolved=True))
            return bool(getattr(done, "rowcount", 0))

"""The clocks' table: each timed game's control and clock state, with the running
clock's deadline indexed, so that any process finds the clocks that ran out (the
games of a process that stopped included) with one query (docs/server.md, "Clocks").

A game without a clock has no row. The row is made in the game's own transaction
(:func:`made_within`) and changed in the transaction that stores the change of the
game that moves its clock on (:func:`saved_within`), so the clock is always as stored
as the game.
"""

from __future__ import annotations

import datetime as dt
import json
from collections.abc import Callable, Sequence
from typing import Any

from sqlalchemy import DateTime, ForeignKey, String, Table, Text, select, update
from sqlalchemy.engine import Connection
from sqlalchemy.orm import Mapped, Session, mapped_column

from casino.i18n import _
from casino.web.accounts.store import AccountGameRow
from casino.web.store import GAMES, PLAYING, Base, SeatRow, Store
from casino.web.timecontrol import (
    ClockState,
    TimeControl,
    control_from_json,
    left_words,
    state_from_json,
)


class ClockRow(Base):
    """A timed game's control, its clocks, and when the running one runs out."""

    __tablename__ = "clocks"

    game: Mapped[str] = mapped_column(String(32), ForeignKey("games.id"), primary_key=True)
    #: The :class:`~casino.web.timecontrol.TimeControl` as JSON (fixed when made).
    control: Mapped[str] = mapped_column(String(200))
    #: The :class:`~casino.web.timecontrol.ClockState` as JSON.
    state: Mapped[str] = mapped_column(Text)
    #: When the running clock runs out (null: none runs), for the sweep's query.
    deadline: Mapped[dt.datetime | None] = mapped_column(DateTime(timezone=True),
                                                         nullable=True, index=True)


CLOCKS: Table = Base.metadata.tables["clocks"]

#: Writes in a game's own transaction: given its connection (or session).
Within = Callable[[Connection | Session], None]


def made_within(game_id: str, control: TimeControl, state: ClockState) -> Within:
    """The clock's row of a new game, written in the game's own transaction (nothing
    for a game without a clock)."""

    def write(conn: Connection | Session) -> None:
        """Insert the row."""
        if control.runs:
            conn.execute(CLOCKS.insert().values(
                game=game_id, control=_json(control), state=state.to_json(),
                deadline=state.deadline))

    return write


def saved_within(game_id: str, state: ClockState) -> Within:
    """The new state of a game's clock, written in the transaction of the change."""

    def write(conn: Connection | Session) -> None:
        """Update the row."""
        conn.execute(update(CLOCKS).where(CLOCKS.c.game == game_id).values(
            state=state.to_json(), deadline=state.deadline))

    return write


def _json(control: TimeControl) -> str:
    return json.dumps(control.to_json())


def same_clock(control: TimeControl | None) -> Any:
    """The condition, on a query joined to the clocks outward, that a game's control is
    ``control`` (None, or no clock: the game has no row)."""
    if control is None or not control.runs:
        return CLOCKS.c.game.is_(None)
    return CLOCKS.c.control == _json(control)


def load(store: Store, game_id: str) -> tuple[TimeControl, ClockState] | None:
    """A game's control and clocks as stored (None: the game has no clock)."""
    with store.engine.connect() as conn:
        row = conn.execute(select(CLOCKS.c.control, CLOCKS.c.state).where(
            CLOCKS.c.game == game_id)).first()
    if row is None:
        return None
    return control_from_json(row.control), state_from_json(row.state)


def controls(store: Store, ids: list[str]) -> dict[str, tuple[TimeControl, ClockState]]:
    """The controls and clocks of the games ``ids`` that have one (the lobby's lists)."""
    if not ids:
        return {}
    with store.engine.connect() as conn:
        rows = conn.execute(select(CLOCKS.c.game, CLOCKS.c.control, CLOCKS.c.state).where(
            CLOCKS.c.game.in_(ids))).all()
    return {r.game: (control_from_json(r.control), state_from_json(r.state)) for r in rows}


def save(store: Store, game_id: str, state: ClockState, version: int) -> bool:
    """Store a game's clocks on their own (a change not stored by a move: the last
    seat of a room taken, and its first turn begun), worked out for the game at
    ``version``: only while the stored game is at that version (False otherwise: another
    process changed it since, and its clock with it)."""
    stored_version = select(GAMES.c.version).where(GAMES.c.id == game_id).scalar_subquery()
    with store.engine.begin() as conn:
        done = conn.execute(update(CLOCKS).where(
            CLOCKS.c.game == game_id, stored_version == version).values(
            state=state.to_json(), deadline=state.deadline))
        return bool(done.rowcount == 1)


def due(store: Store, t: dt.datetime, limit: int) -> list[str]:
    """The games whose running clock ran out by ``t``, the longest run out first, at
    most ``limit`` (one query on the deadline's index)."""
    with store.engine.connect() as conn:
        return list(conn.scalars(select(CLOCKS.c.game).where(CLOCKS.c.deadline <= t)
                                 .order_by(CLOCKS.c.deadline).limit(limit)))


def put_off(store: Store, game_id: str, t: dt.datetime, until: dt.datetime) -> None:
    """Move a clock that ran out by ``t`` to ``until`` in the sweep's line (its game could
    not be timed out): only the indexed deadline, and only while it is still the one that
    ran out (a change stored since keeps its own)."""
    with store.engine.begin() as conn:
        conn.execute(update(CLOCKS).where(CLOCKS.c.game == game_id, CLOCKS.c.deadline <= t)
                     .values(deadline=until))


def your_turn(left: str) -> str:
    """What the lobby tells a player of a timed game in progress whose turn it is."""
    return _("your turn: %(left)s left") % {"left": left}


def listed(store: Store, entries: Sequence[dict[str, Any]], digest: str | None,
           account: str | None, t: dt.datetime) -> None:
    """Fill in the lobby's entries of timed games (:class:`~casino.web.bodies.Listed`):
    the ``clock``'s words, and for a game in progress where the caller (the browser's
    token hash ``digest``, the ``account``) holds the seat whose clock runs, ``turn``:
    that it is their turn and how long is left at ``t``. A few queries for the list."""
    ids = sorted({e["game"] for e in entries})
    found = controls(store, ids)
    if not found:
        return
    timed = sorted(found)
    held: set[tuple[str, int]] = set()
    with store.sessions() as s:
        if digest is not None:
            held.update((g, int(n)) for g, n in s.execute(select(SeatRow.game, SeatRow.seat)
                        .where(SeatRow.token_hash == digest, SeatRow.game.in_(timed))))
        if account is not None:
            held.update((g, int(n)) for g, n in s.execute(
                select(AccountGameRow.game, AccountGameRow.seat).where(
                    AccountGameRow.account == account, AccountGameRow.game.in_(timed))))
    for e in entries:
        if e["game"] not in found:
            continue
        control, state = found[e["game"]]
        e["clock"] = control.words()
        if e["status"] == PLAYING and (e["game"], state.running) in held:
            assert state.running is not None
            e["turn"] = your_turn(left_words(state.left_at(state.running, t)))

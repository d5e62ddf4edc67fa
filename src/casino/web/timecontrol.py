"""Time controls and the arithmetic of the clocks (docs/server.md, "Clocks"): what a
game's control is (:class:`TimeControl`, chosen when it is made), and each seat's time
as stored with the game (:class:`ClockState`), moved on at each change by
:func:`advance`; and the control as a request names it (:class:`ClockBody`). Pure
values and functions of a given time: the server's clock is passed in, so tests need no
waiting.

Only a person's turn runs a clock: a computer's thinking, a round's end waiting for
the next deal, and a room waiting for its players run none.
"""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass, replace
from typing import Any, ClassVar, Literal

from pydantic import Field, model_validator

from casino.i18n import _, ngettext
from casino.web.body import Body

#: The kinds of control: no clock; a time for each move; a bank for the whole game
#: with an increment after each move; correspondence (days for each move).
NONE, MOVE, BANK, CORRESPONDENCE = "none", "move", "bank", "correspondence"
KINDS = (NONE, MOVE, BANK, CORRESPONDENCE)

#: The bounds of each value, inclusive: seconds a move, a bank's seconds, its
#: increment's seconds, days a move.
MOVE_SECONDS = (5, 3600)
BANK_SECONDS = (30, 3 * 3600)
INCREMENT_SECONDS = (0, 60)
DAYS = (1, 14)

#: What a seat whose time ran out in a casual game has for its next turn on a bank
#: control (the computer played its move): the increment, but at least this much, so
#: that it is not timed out again at once.
GRACE_MS = 15_000
#: How long before its end a clock is shown as running out (the page warns).
WARN_MS = 10_000

DAY_SECONDS = 86_400


def _span(seconds: int) -> str:
    """``30 s``, ``5 min``, ``1 h 30 min``, ``2 min 30 s``: a length of time, short."""
    hours, rest = divmod(seconds, 3600)
    minutes, secs = divmod(rest, 60)
    parts = [f"{hours} h"] if hours else []
    if minutes:
        parts.append(f"{minutes} min")
    if secs or not parts:
        parts.append(f"{secs} s")
    return " ".join(parts)


def left_words(ms: int) -> str:
    """``2 days 3 h``, ``4 min 20 s``: a clock's time left, as the lobby tells it."""
    seconds = max(0, ms) // 1000
    days, rest = divmod(seconds, DAY_SECONDS)
    if days:
        return ngettext("%(n)s day %(h)s h", "%(n)s days %(h)s h", days) % {
            "n": days, "h": rest // 3600}
    return _span(rest)


@dataclass(frozen=True)
class TimeControl:
    """A game's time control: its kind and the values it uses (the others are 0)."""

    kind: str = NONE
    #: Seconds for each move (``move``).
    seconds: int = 0
    #: Seconds of the bank each seat starts with, and added after each of its moves
    #: (``bank``).
    bank: int = 0
    increment: int = 0
    #: Days for each move (``correspondence``).
    days: int = 0

    @property
    def runs(self) -> bool:
        """Whether the game has a clock at all."""
        return self.kind != NONE

    @property
    def turn_ms(self) -> int:
        """What a seat has at the start: a move's time, or the whole bank."""
        if self.kind == MOVE:
            return self.seconds * 1000
        if self.kind == BANK:
            return self.bank * 1000
        return self.days * DAY_SECONDS * 1000

    def words(self) -> str:
        """The control as the invite, the lobby and the table show it, in the language in
        force."""
        if self.kind == MOVE:
            return _("%(time)s a move") % {"time": _span(self.seconds)}
        if self.kind == BANK:
            return _("%(bank)s + %(increment)s a move") % {"bank": _span(self.bank),
                                                            "increment": _span(self.increment)}
        if self.kind == CORRESPONDENCE:
            return ngettext("%(n)s day a move", "%(n)s days a move", self.days) % {
                "n": self.days}
        return _("no clock")

    def to_json(self) -> dict[str, Any]:
        """The control as stored and sent: its kind and every value."""
        return {"kind": self.kind, "seconds": self.seconds, "bank": self.bank,
                "increment": self.increment, "days": self.days}


def time_control(kind: str = NONE, *, seconds: int | None = None, bank: int | None = None,
                 increment: int | None = None, days: int | None = None) -> TimeControl:
    """The control of ``kind`` with its values, checked: ValueError naming what is wrong
    (a value missing, out of its bounds, or given to a kind that does not use it)."""
    given = {"seconds": seconds, "bank": bank, "increment": increment, "days": days}
    uses = {NONE: (), MOVE: ("seconds",), BANK: ("bank", "increment"),
            CORRESPONDENCE: ("days",)}
    if kind not in uses:
        raise ValueError(f"a clock's kind is one of {', '.join(KINDS)}, not {kind[:20]!r}")
    for name, value in given.items():
        if value is not None and name not in uses[kind]:
            raise ValueError(f"a clock of kind {kind} takes no {name!r}")
    bounds = {"seconds": MOVE_SECONDS, "bank": BANK_SECONDS, "increment": INCREMENT_SECONDS,
              "days": DAYS}
    values: dict[str, int] = {}
    for name in uses[kind]:
        value = given[name]
        if value is None and name == "increment":
            value = 0
        low, high = bounds[name]
        if value is None:
            raise ValueError(f"a clock of kind {kind} needs {name!r} ({low} to {high})")
        if not low <= value <= high:
            raise ValueError(f"a clock's {name!r} is {low} to {high}, not {value}")
        values[name] = value
    return TimeControl(kind, **values)


#: The controls the lobby's form offers (any other is one request away: POST /api/games).
OFFERED = (
    TimeControl(MOVE, seconds=30), TimeControl(MOVE, seconds=60),
    TimeControl(BANK, bank=300, increment=3), TimeControl(BANK, bank=900, increment=10),
    TimeControl(CORRESPONDENCE, days=1), TimeControl(CORRESPONDENCE, days=3),
)


def control_from_json(raw: str | None) -> TimeControl:
    """The control stored as JSON text (none for nothing stored)."""
    if not raw:
        return TimeControl()
    data = json.loads(raw)
    return TimeControl(str(data["kind"]), int(data["seconds"]), int(data["bank"]),
                       int(data["increment"]), int(data["days"]))


@dataclass(frozen=True)
class ClockState:
    """Each seat's time and whose clock runs, as stored with the game.

    ``left`` is each seat's time in milliseconds as of the start of its turn (a bank:
    what is left of it; a move's time: the whole of it). ``running`` is the seat whose
    clock runs since ``since`` (None: none runs). ``timed_out`` is the seat whose time
    ran out and lost the game (rated), for the words of its end.
    """

    left: tuple[int, ...]
    running: int | None = None
    since: dt.datetime | None = None
    timed_out: int | None = None

    @property
    def deadline(self) -> dt.datetime | None:
        """When the running clock runs out (None when none runs)."""
        if self.running is None or self.since is None:
            return None
        return self.since + dt.timedelta(milliseconds=self.left[self.running])

    def left_at(self, seat: int, t: dt.datetime) -> int:
        """``seat``'s milliseconds left at ``t`` (never below 0)."""
        left = self.left[seat]
        if seat == self.running and self.since is not None:
            left -= _ms(t - self.since)
        return max(0, left)

    def expired(self, t: dt.datetime) -> bool:
        """Whether the running clock has run out at ``t``."""
        deadline = self.deadline
        return deadline is not None and deadline <= t

    def to_json(self) -> str:
        """The state as stored (JSON text)."""
        return json.dumps({"left": list(self.left), "running": self.running,
                           "since": None if self.since is None else self.since.isoformat(),
                           "timed_out": self.timed_out})


def state_from_json(raw: str) -> ClockState:
    """The state stored as JSON text by :meth:`ClockState.to_json`."""
    data = json.loads(raw)
    since = data.get("since")
    return ClockState(tuple(int(x) for x in data["left"]), data.get("running"),
                      None if since is None else dt.datetime.fromisoformat(since),
                      data.get("timed_out"))


def start_state(control: TimeControl, players: int) -> ClockState:
    """Every seat's time before the game begins: nobody's clock runs."""
    return ClockState((control.turn_ms,) * players)


def _ms(delta: dt.timedelta) -> int:
    return int(delta.total_seconds() * 1000)


def taken_back(control: TimeControl, state: ClockState, seat: int) -> ClockState:
    """The clocks after ``seat`` took back its last move: on a bank, the increment that
    move earned is given back (never below nothing), so that a move and its take-back
    earn no time. (Its clock runs again from :func:`advance`, ``moved`` False.)"""
    if control.kind != BANK or not control.increment:
        return state
    left = list(state.left)
    left[seat] = max(0, left[seat] - control.increment * 1000)
    return replace(state, left=tuple(left))


def advance(control: TimeControl, state: ClockState, running: int | None,
            t: dt.datetime, *, timed_out: bool = False, moved: bool = True,
            played: bool = False) -> ClockState:
    """The clocks after a change at ``t``, when ``running`` is the seat whose clock should
    run now (a person to move; None: nobody's).

    While the same seat is to move without having played (a hint was noted), nothing
    changes; ``played``: a move was played, so a turn ended even if the same seat is to
    move again (a rule whose hands run out unevenly). Otherwise the
    seat whose clock ran is charged: a bank loses the time taken and gains the
    increment; a move's time (or a correspondence's days) is whole again for its next
    turn. ``timed_out``: its time ran out and the computer played for it (a casual
    game): a bank then holds the increment, but at least :data:`GRACE_MS`. ``moved``
    False: the change was no move of that seat's (a take-back), which earns no
    increment. Then the clock of ``running`` starts at ``t``.
    """
    if state.running == running and (running is None or state.since is not None) \
            and not (played and running is not None):
        return state
    left = list(state.left)
    was = state.running
    if was is not None and state.since is not None:
        if control.kind == BANK:
            rest = max(0, left[was] - _ms(t - state.since))
            left[was] = rest + (control.increment * 1000 if moved else 0)
            if timed_out:
                left[was] = max(control.increment * 1000, GRACE_MS)
        else:
            left[was] = control.turn_ms
    return replace(state, left=tuple(left), running=running,
                   since=t if running is not None else None)


class ClockBody(Body):
    """A game's time control (docs/server.md, "Clocks"): its kind and the values that kind
    uses, each within its bounds (:func:`~casino.web.timecontrol.time_control`)."""

    WHAT: ClassVar[str] = "the clock"
    kind: Literal["none", "move", "bank", "correspondence"] = Field(description=(
        "\"kind\" is none, move (seconds a move), bank (a bank with an increment a move) "
        "or correspondence (days a move)"))
    seconds: int | None = Field(None, ge=MOVE_SECONDS[0], le=MOVE_SECONDS[1], description=(
        f"\"seconds\" a move: {MOVE_SECONDS[0]} to {MOVE_SECONDS[1]} (kind move)"))
    bank: int | None = Field(None, ge=BANK_SECONDS[0], le=BANK_SECONDS[1], description=(
        f"\"bank\" is each seat's seconds for the game: {BANK_SECONDS[0]} to "
        f"{BANK_SECONDS[1]} (kind bank)"))
    increment: int | None = Field(None, ge=INCREMENT_SECONDS[0], le=INCREMENT_SECONDS[1],
                                  description=(
        f"\"increment\" is the seconds added after each move: {INCREMENT_SECONDS[0]} to "
        f"{INCREMENT_SECONDS[1]} (kind bank; default 0)"))
    days: int | None = Field(None, ge=DAYS[0], le=DAYS[1], description=(
        f"\"days\" a move: {DAYS[0]} to {DAYS[1]} (kind correspondence)"))

    @model_validator(mode="after")
    def _the_kind_s_values(self) -> ClockBody:
        time_control(self.kind, seconds=self.seconds, bank=self.bank,
                     increment=self.increment, days=self.days)
        return self

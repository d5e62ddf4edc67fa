"""The clocks of timed games: :class:`Clocks` keeps each live game's clock as stored,
arms a timer at its deadline, sweeps the database for the clocks that ran out (those of
a process that stopped too), and applies a timeout (docs/server.md, "Clocks").

The server's clock is the only one: each change of a game moves its clock on
(:func:`~casino.web.timecontrol.advance`) in the transaction that stores the change
(:meth:`~casino.web.sync.LiveGames.flush`), and the pages are sent the milliseconds
left, never a time to compare with their own. A timeout is one process's work: it
takes the game's ``clock`` lease at the game's version (as a computer's move does), and
checks again, under the game's lock, that the clock ran out at that version.

When a clock runs out in a casual game the computer plays that one move for the seat,
from its observation only, in the thinking pool; in a rated game the seat loses as a
resignation would have it lose (its side, in partnerships), rated once, as one.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
import logging
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from casino.engine.record import UNDO, two_sided
from casino.i18n import _, ngettext, pN_
from casino.play.session import BotJob, GameSession, run_bot_job
from casino.web import clockstore
from casino.web.clockstore import Within
from casino.web.errors import GameError
from casino.web.live import FRIENDS
from casino.web.messages import ClockControl, ClockView
from casino.web.store import PLAYING, now
from casino.web.table_events import Event, retold, told_event
from casino.web.table_words import names_and
from casino.web.timecontrol import (
    WARN_MS,
    ClockState,
    TimeControl,
    advance,
    left_words,
    start_state,
    taken_back,
    time_control,
)
from casino.words.narrate import move_phrase

if TYPE_CHECKING:
    from casino.web.live import LiveGame
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: The lease a timeout is applied under (:meth:`Store.take_lease`).
CLOCK_LEASE = "clock"
#: How often every process looks for clocks that ran out (the fallback of the timers
#: of the process holding a game), and how many it takes at a time.
SWEEP_SECONDS = 0.5
SWEEP_BATCH = 50
#: How long the sweep puts off a clock whose game it could not load (its record spoilt,
#: say), so that the clocks behind it in the deadline's line are not held up by it.
RETRY_SECONDS = 60

#: What a clock running out does, as the invite page tells it: casual, rated
#: (translated where shown, ``pgettext("clock", ...)``).
WHEN_OUT = (pN_("clock", "when a clock runs out, the computer plays that move"),
            pN_("clock", "when a clock runs out, its player loses the game (in partnerships, "
                "their side)"))


@dataclass(frozen=True)
class GameClock:
    """A live game's control and clocks, as stored."""

    control: TimeControl
    state: ClockState


# The table's words of a timeout, each worded in one place, in the language in force.

def ran_out(name: str) -> str:
    """"Ann's time ran out"."""
    return _("%(name)s's time ran out") % {"name": name}


def played_for(name: str, move: str) -> str:
    """A casual game's timeout: the computer played ``move`` (in words) for ``name``."""
    return (_("%(name)s's time ran out: the computer played for them this once: %(move)s")
            % {"name": name, "move": move})


def too_late() -> str:
    """Why a casual game's move came too late."""
    return _("your time ran out: the computer plays this move for you")


def timed_out_seat(name: str) -> str:
    """A rated game of three or four: the seat whose time ran out is the computer's now."""
    return (_("%(name)s's time ran out: the computer plays for them from now on, and they "
              "lose") % {"name": name})


def on_the_clock(name: str, left: str) -> str:
    """Why a person away on their turn in a timed game is not handed to the computer: the
    clock says how long they may be away (a claim would lose them a rated game)."""
    return (_("%(name)s has %(left)s left on their clock: the computer plays for them only "
              "if it runs out") % {"name": name, "left": left})


def side_words(session: GameSession, seat: int) -> str:
    """"Ann's time ran out: Ann loses, Bob wins" (partners named together: "Ann and Cy
    lose, Bob and Dee win"): the end of a rated game lost on time."""
    names, rules = session.names, session.rules
    mine = [names[s] for s in rules.seats if rules.team_of(s) == rules.team_of(seat)]
    others = [names[s] for s in rules.seats if rules.team_of(s) != rules.team_of(seat)]
    lose = ngettext("%(names)s loses", "%(names)s lose", len(mine)) % {
        "names": names_and(mine)}
    win = ngettext("%(names)s wins", "%(names)s win", len(others)) % {
        "names": names_and(others)}
    return _("%(ran_out)s: %(losers)s, %(winners)s") % {
        "ran_out": ran_out(names[seat]), "losers": lose, "winners": win}


def timed(mode: str, clock: Mapping[str, Any] | None) -> TimeControl:
    """A new game's time control: ``clock``'s (a room's only: a game against the computer
    and a lesson have none), checked (GameError saying what is wrong)."""
    try:
        control = TimeControl() if clock is None else time_control(**clock)
    except (TypeError, ValueError) as e:
        raise GameError(str(e)) from None
    if control.runs and mode != FRIENDS:
        raise GameError(_("a clock is for a room of people: a game against the computer "
                          "or a lesson has none"))
    return control


def runner(game: LiveGame) -> int | None:
    """The seat whose clock should run now: a person to move in a game being played."""
    s = game.session
    return s.to_move if game.status == PLAYING and s.human_to_move else None


class Clocks:
    """The timed games' clocks: kept as stored, armed, swept and fired."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        #: The server's time (tests put a clock of their own here).
        self.now: Callable[[], dt.datetime] = now
        self.sweep_seconds = SWEEP_SECONDS
        self._firing: set[str] = set()
        #: The seat timing out in each game being stored now (:meth:`after_change`).
        self._timing_out: dict[str, tuple[int, bool]] = {}
        self._sweeper: asyncio.Task[None] | None = None
        #: The timeouts applied by this process (for the tests and the logs).
        self.fired = 0

    # ------------------------------------------------------------------
    # Kept as stored

    @staticmethod
    def made(game_id: str, control: TimeControl, players: int) -> Within:
        """The clock's row of a new game (nothing for no clock), for its transaction."""
        return clockstore.made_within(game_id, control, start_state(control, players))

    async def loaded(self, game: LiveGame) -> None:
        """Read the game's clock as stored (a game just loaded, or read again), start it
        if its turn runs one, and arm its timer."""
        read = await self.service.live.db(clockstore.load, self.store, game.id)
        game.clock = None if read is None else GameClock(*read)
        await self.settle(game)

    async def settle(self, game: LiveGame) -> None:
        """Start or stop the game's clock where a change stored without one left it (a
        room's last seat taken, a game loaded), stored on its own; then arm it."""
        clock = game.clock
        if clock is not None and clock.state.running != runner(game):
            state = advance(clock.control, clock.state, runner(game), self.now())
            if await self.service.live.db(clockstore.save, self.store, game.id, state,
                                          game.version):
                game.clock = replace(clock, state=state)
            # else another process changed the game since: its notice reloads it here.
        self.arm(game)

    def after_change(self, game: LiveGame, events: Sequence[Event] = ()
                     ) -> tuple[Within | None, GameClock | None]:
        """The game's clock after its change being stored now (``events``), and what
        writes it in the change's transaction; (None, None) for a game without a clock.
        A take-back is no move: it earns no increment, and gives back its move's."""
        clock = game.clock
        if clock is None:
            return None, None
        seat, lost = self._timing_out.get(game.id, (None, False))
        state, moved = clock.state, True
        for e in events:
            if e.kind == UNDO and e.seat is not None:
                state, moved = taken_back(clock.control, state, e.seat), False
        state = advance(clock.control, state, runner(game), self.now(),
                        timed_out=seat is not None and not lost, moved=moved,
                        played=any(e.kind == "move" for e in events))
        if lost:
            state = replace(state, timed_out=seat)
        return clockstore.saved_within(game.id, state), replace(clock, state=state)

    def stored(self, game: LiveGame, clock: GameClock | None) -> None:
        """The change is stored: its clock is the game's now, armed."""
        if clock is not None:
            game.clock = clock
            self.arm(game)

    def of(self, game: LiveGame) -> ClockView | None:
        """The game's clocks as a seat's state carries them now (None: no clock)."""
        clock = game.clock
        if clock is None:
            return None
        t, state = self.now(), clock.state
        return ClockView(control=ClockControl(**clock.control.to_json()),
                         words=clock.control.words(),
                         left_ms=[state.left_at(s, t) for s in range(len(state.left))],
                         running=state.running, warn_ms=WARN_MS, server_time=t.isoformat())

    @staticmethod
    def dress(game: LiveGame, view: dict[str, Any]) -> None:
        """Put a timeout's words into the result of a game lost on time: one whose end
        was that seat's timeout, and two-sided (in a game of three or four the seat's
        loss ends nothing: the rounds after it, and the game's end, have their own
        words)."""
        clock = game.clock
        lost = None if clock is None else clock.state.timed_out
        if lost is not None and view.get("result") is not None \
                and _lost_on_time(game.session, lost):
            view["result"] = {**view["result"], "summary": side_words(game.session, lost)}

    def check_time(self, game: LiveGame, seat: int) -> None:
        """Refuse a move of ``seat`` whose time ran out (GameError), and apply the timeout."""
        clock = game.clock
        if clock is not None and clock.state.running == seat \
                and clock.state.expired(self.now()):
            self._spawn(game.id)
            raise GameError(too_late() if not game.rated else
                            ran_out(game.session.names[seat]))

    def why_no_claim(self, game: LiveGame, seat: int) -> str | None:
        """Why ``seat``'s player, away on their turn, may not be handed to the computer
        for the clock's sake (None: the clock does not stand in the way): their clock
        runs and has time left."""
        clock = game.clock
        t = self.now()
        if clock is None or clock.state.running != seat or clock.state.expired(t):
            return None
        return on_the_clock(game.session.names[seat],
                            left_words(clock.state.left_at(seat, t)))

    # ------------------------------------------------------------------
    # Timers and the sweep

    def arm(self, game: LiveGame) -> None:
        """Wake at the game's deadline (the timer of the process holding it)."""
        if game.clock_timer is not None:
            game.clock_timer.cancel()
            game.clock_timer = None
        deadline = None if game.clock is None else game.clock.state.deadline
        if deadline is None or self.service.closed:
            return
        wait = max(0.0, (deadline - self.now()).total_seconds())
        game.clock_timer = asyncio.get_running_loop().call_later(
            wait + 0.01, self._spawn, game.id)

    def start(self) -> None:
        """Begin sweeping for clocks that ran out (at the server's start)."""
        if self._sweeper is None:
            self._sweeper = asyncio.get_running_loop().create_task(self._sweep_forever())
            self.service.live.tasks.add(self._sweeper)
            self._sweeper.add_done_callback(self.service.live.tasks.discard)

    async def _sweep_forever(self) -> None:
        while not self.service.closed:
            try:
                await self.sweep()
            except Exception:
                log.exception("the clocks' sweep failed; it runs again")
            await asyncio.sleep(self.sweep_seconds)

    async def sweep(self) -> int:
        """Apply the timeouts of the clocks that ran out, a batch at a time: how many
        this process applied."""
        t = self.now()
        due = await self.service.live.db(clockstore.due, self.store, t, SWEEP_BATCH)
        done = await asyncio.gather(*(self._fire_or_put_off(g, t) for g in due
                                      if g not in self._firing))
        return sum(done)

    async def _fire_or_put_off(self, game_id: str, t: dt.datetime) -> bool:
        """:meth:`fire`; if the game could not be loaded or timed out, its clock is put off
        :data:`RETRY_SECONDS` in the sweep's line (the stored state, and the timer of a
        process that loads the game, keep the true deadline)."""
        try:
            return await self.fire(game_id)
        except Exception:
            log.exception("could not apply the timeout of game %s; tried again in %d s",
                          game_id, RETRY_SECONDS)
            await self.service.live.db(clockstore.put_off, self.store, game_id, t,
                                       t + dt.timedelta(seconds=RETRY_SECONDS))
            return False

    def _spawn(self, game_id: str) -> None:
        if self.service.closed or game_id in self._firing:
            return
        task = asyncio.get_running_loop().create_task(self._fire_quietly(game_id))
        self.service.live.tasks.add(task)
        task.add_done_callback(self.service.live.tasks.discard)

    async def _fire_quietly(self, game_id: str) -> None:
        try:
            await self.fire(game_id)
        except Exception:
            log.exception("could not apply the timeout of game %s", game_id)

    # ------------------------------------------------------------------
    # A timeout

    async def fire(self, game_id: str) -> bool:
        """Apply the timeout of ``game_id``'s clock if it ran out (loading the game if it
        is not live here): True when this process applied it."""
        if game_id in self._firing:
            return False
        self._firing.add(game_id)
        try:
            game = await self.service.live.get(game_id)
            return game is not None and await self._time_out(game)
        except GameError:
            return False  # the game could not be stored, and reloads when asked for
        finally:
            self._firing.discard(game_id)

    def _ran_out(self, game: LiveGame) -> int | None:
        """The seat whose clock ran out now, if one did (the caller holds the lock)."""
        clock = game.clock
        seat = runner(game)
        if clock is None or seat is None or clock.state.running != seat:
            return None
        return seat if clock.state.expired(self.now()) else None

    async def _time_out(self, game: LiveGame) -> bool:
        async with game.lock:
            await self.settle(game)  # a clock the stored game left running is stopped
            seat = self._ran_out(game)
            if seat is None:
                return False
            version = game.version
            job = None if game.rated else self._job(game, seat)
        async with self.service.computers._leased(game, CLOCK_LEASE, version) as lease:
            if not lease.held:  # another process applies it (or this one is behind)
                if lease.wait is None:
                    self.service.live.refresh(game)
                return False
            text = None if job is None else await self._think(game, job)
            async with game.lock:
                if game.version != version or self._ran_out(game) != seat \
                        or self.service.live.games.get(game.id) is not game:
                    return False
                self._apply(game, seat, text)
                self._timing_out[game.id] = (seat, text is None)
                try:
                    await self.service.live.flush(game)
                finally:
                    self._timing_out.pop(game.id, None)
        self.fired += 1
        game.notify()
        self.service.computers.kick(game)
        return True

    @staticmethod
    def _job(game: LiveGame, seat: int) -> BotJob:
        """The computer's think for ``seat``'s move, from its observation only, at the
        level a computer taking a seat plays."""
        s = game.session
        level = game.service.turns._computer_level(game)
        return BotJob(level, len(s.log) * 7919 + seat,
                      s.match.position.observation(seat))

    async def _think(self, game: LiveGame, job: BotJob) -> str:
        try:
            return await self.service.computers.thinker.computer(job, owner=game.id,
                                                                 game=game.id)
        except Exception:  # a timeout too
            log.exception("a computer failed to move for a timed-out seat in game %s",
                          game.id)
            return run_bot_job(replace(job, level="beginner"))

    def _apply(self, game: LiveGame, seat: int, text: str | None) -> None:
        """The timeout in the session: the computer's move (casual), or the seat's loss
        (rated: recorded as a resignation, told as a timeout)."""
        s = game.session
        name = s.names[seat]
        if text is not None:
            move, rules = s.view_of(seat).parse_move(text), s.rules
            _tell(game, "timeout", seat, lambda: played_for(name, move_phrase(move, rules)))
            s.play(move, seat=seat)
            return
        ends = s.resign(seat, game.service.turns._computer_level(game))
        _retell(game, "resign", "timeout", functools.partial(
            ran_out if ends else timed_out_seat, name))
        if _lost_on_time(s, seat):  # else the session's words of the end stand
            _retell(game, "game_over", "game_over", functools.partial(side_words, s, seat))


def _lost_on_time(session: GameSession, seat: int) -> bool:
    """Whether ``seat``'s timeout ended the game and one side won by it (a two-sided
    game): what :func:`side_words` tells. A game of three or four ended by it has nobody
    left to win."""
    return session.resigned == seat and two_sided(session.rules)


def _tell(game: LiveGame, kind: str, seat: int | None, say: Callable[[], str]) -> None:
    """Add a table event of the clocks' own, worded by ``say`` in each reader's language,
    to the game's pending events (numbered after them, before what the session tells
    next)."""
    pending = game._pending
    pending.append(told_event(game.version + len(pending) + 1, kind, seat, None, say))


def _retell(game: LiveGame, kind: str, as_kind: str, say: Callable[[], str]) -> None:
    """Tell the game's pending events of ``kind`` as ``as_kind``, worded by ``say``: the
    resignation a rated timeout is recorded as, told as the timeout it is."""
    game._pending[:] = [retold(e, as_kind, say) if e.kind == kind else e
                        for e in game._pending]

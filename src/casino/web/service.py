"""Live games: the sessions in memory, their clients, the thinking pool and the events.

The server is the only authority. Each game in memory is a
:class:`~casino.play.session.GameSession` (which holds the rules, the turn and the
log; nothing here repeats game logic) guarded by its own :class:`asyncio.Lock`.
The session's ``on_change`` hook turns every change into numbered public
events and commits the record, the version and those events to the database
before any client hears of it; if the commit fails the game is dropped from
memory, so it reloads exactly as stored.

Computer moves and hints are thought about in a process pool: the session
gives a :class:`~casino.play.session.BotJob` (the computer seat's observation only)
that a worker process runs while the event loop serves everybody else; the
answer is played only if the game has not changed meanwhile (an undo, say).

Games are loaded lazily: a client that asks for a game not in memory (after a
restart, or after an idle game was evicted) gets it replayed from its record.

Fair play: each game has its settings (hints, take-backs) in its record, and
the session enforces them; the service adds what only a server knows: who is
connected. A person away on their turn past ``Limits.abandon_after`` may have
their seat handed to a computer by another player (a claim).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import re
import time
from dataclasses import dataclass
from typing import Any, TypeVar

from casino.bots.levels import LEVELS
from casino.engine.builds import Build
from casino.engine.position import Position
from casino.engine.record import (
    read_record,
)
from casino.engine.rules import PRESET_NAMES
from casino.play.session import (
    HINT_LEVEL,
    HUMAN,
)
from casino.teach.review import default_seat
from casino.web.computers import Computers
from casino.web.errors import MOVED_ON, GameError, clean_name
from casino.web.fanout import Listener
from casino.web.limits import Limits, address_key
from casino.web.live import (
    COMPUTER,
    FRIENDS,
    LESSON,
    LiveGame,
    _round_word,
    duration_words,
    resignation_words,
    unstoppable,
)
from casino.web.reviews import Reviewer, ReviewRefused, ReviewSetting
from casino.web.rooms import Created, Rooms
from casino.web.store import (
    OVER,
    WAITING,
    Store,
)
from casino.web.sync import LiveGames, valid_id
from casino.web.views import (
    SelectionError,
    card_choices,
    options_json,
    read_selection,
    unknown_choices,
    unknown_options,
)
from casino.web.workers import WorkerBusy, WorkerError, WorkerPool, WorkerTimeout

log = logging.getLogger("casino.web")


T = TypeVar("T")


# ----------------------------------------------------------------------
# The service


@dataclass(frozen=True)
class OptionsJob:
    """An ``options`` request checked against the seat's view at ``version``: the card,
    the table item ids as sent, and the loose cards and builds they name."""

    version: int
    view: Position
    card: int
    uses: tuple[str, ...]
    loose: tuple[int, ...]
    builds: tuple[Build, ...]


class GameService:
    """Every live game, the database behind them and the pool that thinks for computers."""

    def __init__(self, store: Store, *, pool_workers: int = 1, limits: Limits | None = None,
                 hint_level: str = HINT_LEVEL, bot_pause: float = 0.0,
                 review_setting: ReviewSetting | None = None) -> None:
        if pool_workers < 0:
            raise ValueError("pool_workers must be 0 (threads, for tests) or more")
        if hint_level not in LEVELS:
            raise ValueError(f"unknown hint level {hint_level!r}")
        self.store = store
        self.limits = limits or Limits()
        self.pool_workers = pool_workers
        self.hint_level = hint_level
        self.bot_pause = bot_pause
        self._selector: WorkerPool | None = None
        #: The post-game reviews of finished games (computed in workers of their own).
        self.reviewer = Reviewer(store, self.limits, processes=pool_workers > 0,
                                 setting=review_setting)
        self.closed = False
        #: The games in memory, kept as stored (sync.py), and its entries the other parts,
        #: the routes and the tests use.
        self.live = LiveGames(self)
        self.games = self.live.games
        self.start = self.live.start
        self.db = self.live.db
        self.get = self.live.get
        self.flush = self.live.flush
        self.drop = self.live.drop
        #: Rooms and seats (rooms.py): making games, invites, rematches, the lobby's lists.
        self.rooms = Rooms(self)
        self.create = self.rooms.create
        self.invited = self.rooms.invited
        self.join = self.rooms.join
        self.rematch = self.rooms.rematch
        self.lists = self.rooms.lists
        self.adopt = self.rooms.adopt
        #: Computers and hints (computers.py): the thinking pool, its leases, the hints.
        self.computers = Computers(self)
        self.thinker = self.computers.thinker
        self.kick = self.computers.kick
        self.hint = self.computers.hint

    @property
    def listener(self) -> Listener | None:
        """What hears of other processes' changes (PostgreSQL, once started), or None."""
        return self.live.listener

    @property
    def refreshed(self) -> int:
        """How many changes heard of this process had live, and read again."""
        return self.live.refreshed

    @property
    def selector(self) -> WorkerPool:
        """The workers that work out players' choices (made on first use; with
        ``pool_workers`` 0, one thread, for tests)."""
        if self._selector is None:
            self._selector = WorkerPool(
                self.limits.select_workers if self.pool_workers else 0,
                waiting=self.limits.select_waiting, memory_mb=self.limits.select_memory_mb,
                preload=("casino.web.views",), name="casino-select")
        return self._selector

    async def close(self) -> None:
        """At the server's shutdown: stop the timers and tasks, tell each connection that
        its game is saved, then stop listening and thinking."""
        self.closed = True
        for game in self.games.values():
            game.forget_timer()
        for task in list(self.live.tasks):
            task.cancel()
        for task in list(self.live.tasks):
            with contextlib.suppress(BaseException):
                await task
        for game in self.games.values():
            for c in game.clients:
                c.send({"type": "error", "message": "the server is shutting down; your game "
                        "is saved: reload the page in a moment"})
        if self.live.listener is not None:
            await self.live.listener.close()
        self.thinker.close()
        self.reviewer.close()
        if self._selector is not None:
            self._selector.close()
        self.live.shutdown()

    # ------------------------------------------------------------------
    # Playing

    @unstoppable
    async def play(self, game: LiveGame, seat: int, text: str,
                   version: int | None = None) -> None:
        """Play ``seat``'s move in notation, at ``version`` when given (else the latest):
        refused in words if the game moved on or is not being played, else stored, told, and
        the computers set going."""
        async with game.lock:
            self._current(game, version)
            self._playing(game)
            game.session.play(text, seat=seat)
            await self.flush(game)
        game.notify()
        self.kick(game)

    # ------------------------------------------------------------------
    # A player's choices: bounded lists, and the moves using picked table items

    async def choices_of(self, view: Position) -> dict[str, Any]:
        """:func:`~casino.web.views.card_choices` of the mover's observation ``view``, in
        a selection worker; when it cannot be done in time, choices saying so (the page
        then asks ``options`` for what the player picks)."""
        seconds = self.limits.select_seconds
        try:
            return await self.selector.run(card_choices, view, deadline=seconds)
        except WorkerTimeout:
            why = (f"the table is too crowded to list your moves in {seconds:g} seconds: "
                   "pick a card and table items to see what they can do")
        except WorkerError:
            why = "the server is busy: pick a card and table items to see what they can do"
        except Exception:
            log.exception("could not work out the moves of a view")
            why = "your moves could not be listed: pick a card and table items"
        return unknown_choices(view, why)

    def read_options(self, game: LiveGame, seat: int, card: object, uses: object,
                     version: int | None) -> OptionsJob:
        """An ``options`` request checked against ``seat``'s view now: GameError saying
        what is wrong (nothing changes), else the job that answers it."""
        self._current(game, version)
        self._playing(game)
        s = game.session
        if s.match.position.result is not None:
            raise GameError(f"the {_round_word(s.rules)} is over: there is nothing to play")
        if not game.offers_moves(seat):
            raise GameError(f"it is {s.names[s.to_move]}'s turn, not yours")
        view = s.view_of(seat)
        try:
            c, ids, loose, builds = read_selection(view, seat, card, uses)
        except SelectionError as e:
            raise GameError(str(e)) from None
        return OptionsJob(game.version, view, c, ids, tuple(loose), tuple(builds))

    async def options(self, job: OptionsJob) -> dict[str, Any]:
        """The answer to an ``options`` request (:func:`~casino.web.views.options_json`),
        worked out in a selection worker within ``select_seconds``; when it cannot be,
        an answer whose ``unknown`` says why (the page shows it for that selection)."""
        seconds = self.limits.select_seconds
        try:
            answer = await self.selector.run(options_json, job.view, job.card, job.uses,
                                             job.loose, job.builds, deadline=seconds)
        except WorkerBusy:
            answer = unknown_options(job.card, job.uses, "the server is busy working out "
                                     "other players' moves: pick again in a moment")
        except WorkerTimeout:
            answer = unknown_options(job.card, job.uses, f"the table is too crowded to work "
                                     f"that out in {seconds:g} seconds: pick other table items")
        except WorkerError:
            answer = unknown_options(job.card, job.uses, "that could not be worked out just "
                                     "now: pick again")
        return {**answer, "version": job.version}

    @unstoppable
    async def undo(self, game: LiveGame, seat: int, version: int | None = None) -> None:
        """Take back ``seat``'s last move, if the table allows it (the session's rule)."""
        async with game.lock:
            self._current(game, version)
            self._playing(game)
            game.session.undo(seat)
            await self.flush(game)
        game.notify()
        self.kick(game)

    @unstoppable
    async def resign(self, game: LiveGame, seat: int) -> None:
        """``seat`` resigns: the other side wins, or a computer takes the seat over."""
        async with game.lock:
            self._playing(game)
            game.session.resign(seat, self._computer_level(game))
            await self.flush(game)
        game.notify()
        self.kick(game)

    @unstoppable
    async def claim(self, game: LiveGame, seat: int, target: int,
                    version: int | None = None) -> None:
        """Let a computer play for ``target``, away on their turn past ``abandon_after``."""
        async with game.lock:
            self._current(game, version)
            self._playing(game)
            s = game.session
            if s.players[seat] != HUMAN:
                raise GameError("only a player at the table can hand a seat to the computer")
            if target == seat:
                raise GameError("that is your own seat: resign instead, if you want to leave")
            refusal = s.why_no_takeover(target)
            if refusal is not None:
                raise GameError(refusal)
            name = s.names[target]
            away = game.away()
            if away is None:
                raise GameError(f"{name} is here: their game page is open")
            limit = self.limits.abandon_after
            if away[1] < limit:
                raise GameError(f"{name} has been away for {duration_words(away[1])}; the "
                                f"computer may play for them after {duration_words(limit)}")
            s.take_over(target, self._computer_level(game))
            await self.flush(game)
        game.notify()
        self.kick(game)

    @staticmethod
    def _computer_level(game: LiveGame) -> str:
        """The level of a computer that takes a person's seat: the room's, or medium."""
        return game.level if game.level in LEVELS else "medium"

    @unstoppable
    async def next_round(self, game: LiveGame, seat: int, version: int | None = None) -> None:
        """Deal the next round (any seat may, once the round is scored), stored and told;
        refused when the game is over or the round is still being played."""
        async with game.lock:
            self._current(game, version)
            s = game.session
            if game.status == OVER or s.game_over:
                raise GameError("the game is over: start a rematch for another one")
            self._playing(game)
            if not s.round_over:
                raise GameError(f"the {_round_word(s.rules)} is still being played")
            s.next_round()
            await self.flush(game)
        game.notify()
        self.kick(game)

    # ------------------------------------------------------------------
    # Post-game reviews

    async def review(self, game_id: str, seat: str | None, *, client: str = "",
                     start: bool = False) -> dict[str, Any]:
        """The review of a finished game's ``seat`` (its number as text; None: the one
        person at the table, else seat 0): kept, computing, or none yet; ``start``
        starts computing it (:class:`~casino.web.reviews.Reviewer`).

        GameError, and nothing changes, for no such game, a game not finished (a
        review tells what every hand held, which nobody may learn during the game), a
        seat the game does not have, and a server or address with as many reviews
        computing as it may have."""
        game = await self.get(game_id)
        if game is None:
            raise GameError("there is no such game", 404)
        if game.status != OVER:
            raise GameError("the game is not finished: only a finished game is reviewed "
                            "(a review tells what every hand held)", 403)
        players = game.rules.players
        if seat is None:
            number = default_seat(read_record(game.session.record_text()))
        elif not re.fullmatch(r"[0-9]{1,3}", seat) or int(seat) >= players:
            raise GameError(f"seat {seat[:20]!r} is not a seat of this {players}-player game: "
                            f"the seats are 0 to {players - 1}")
        else:
            number = int(seat)
        try:
            if start:
                return await self.reviewer.start(game.id, number,
                                                 game.session.record_text(),
                                                 address_key(client))
            return await self.reviewer.answer(game.id, number)
        except ReviewRefused as e:
            raise GameError(e.message, e.status) from None

    @staticmethod
    def _current(game: LiveGame, version: int | None) -> None:
        """A request made on an older version of the game is refused: it moved on since."""
        if version is not None and version != game.version:
            raise GameError(f"the game has moved on (you sent that at version {version}, it "
                            f"is at {game.version}); look again", 409)

    def _playing(self, game: LiveGame) -> None:
        if game.status == WAITING:
            raise GameError("wait for everyone to join before playing")
        if game.status == OVER:
            raise GameError("the game is over")

    # ------------------------------------------------------------------
    # Who is away

    def watch(self, game: LiveGame) -> None:
        """Keep the table's "away" notice true: after a change or a connection came or went.

        A person seat's absence is counted from when its last connection closed;
        a timer wakes the table when the person on turn passes ``abandon_after``
        and then at each new minute of their absence, and every view is sent
        again when the notice appears, changes or goes.
        """
        now_t = time.monotonic()
        connected = {c.seat for c in game.clients}
        for seat in game.seats:
            if seat in connected:
                game.left_at.pop(seat, None)
            else:
                game.left_at.setdefault(seat, now_t)
        game.forget_timer()
        away = game.away()
        limit = self.limits.abandon_after
        shown = None
        if away is not None and away[1] >= limit:
            shown = away[0], duration_words(away[1])
        if shown != game.away_shown:
            game.away_shown = shown
            for c in game.clients:
                c.refresh()
        if away is not None and not self.closed:
            wake = limit - away[1] if shown is None else 60 - away[1] % 60
            game.away_timer = asyncio.get_running_loop().call_later(wake + 0.01, self.watch,
                                                                    game)


__all__ = ["COMPUTER", "FRIENDS", "LESSON", "MOVED_ON", "PRESET_NAMES", "Created", "GameError",
           "GameService", "LiveGame", "OptionsJob", "clean_name", "duration_words",
           "resignation_words", "valid_id"]

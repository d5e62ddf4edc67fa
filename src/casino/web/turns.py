"""The players' turns at the table: :class:`Turns` plays their moves, take-backs,
resignations, claims of an absent player's seat and the next round, works out the
choices each player is offered, and keeps the table's "away" notice true.

Each change is made on the game's session under the game's lock, stored
(:meth:`~casino.web.sync.LiveGames.flush`) before anyone is told, and followed by
the computers (:meth:`~casino.web.computers.Computers.kick`). A player's choices are
worked out in selection workers, under ``select_seconds``: a crowded table can cost
the engine real time, which must not stall the event loop.
"""

from __future__ import annotations

import asyncio
import logging
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from casino.bots.levels import LEVELS
from casino.engine.builds import Build
from casino.engine.position import Position
from casino.play.session import HUMAN
from casino.web.errors import GameError
from casino.web.live import LiveGame, duration_words, unstoppable
from casino.web.messages import OptionsAnswer
from casino.web.store import OVER, WAITING
from casino.web.views import (
    SelectionError,
    card_choices,
    options_json,
    read_selection,
    unknown_choices,
    unknown_options,
)
from casino.web.workers import WorkerBusy, WorkerError, WorkerPool, WorkerTimeout

if TYPE_CHECKING:
    from collections.abc import Sequence

    from casino.web.service import GameService

log = logging.getLogger("casino.web")


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


class Turns:
    """What the players do at the table, checked against the game's version and status:
    moves, options, take-backs, resignations, claims and the next round; and who is away
    on their turn."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.limits = service.limits
        self.pool_workers = service.pool_workers
        self._selector: WorkerPool | None = None

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

    def close(self) -> None:
        """At the server's shutdown: the selection workers stop, if any were made."""
        if self._selector is not None:
            self._selector.close()

    # ------------------------------------------------------------------
    # Playing

    @unstoppable
    async def play(self, game: LiveGame, seat: int, text: str,
                   version: int | None = None) -> None:
        """Play ``seat``'s move in notation, at ``version`` when given (else the latest):
        refused in words if the game moved on or is not being played, else stored, told, and
        the computers set going."""
        async with game.lock:
            self.current(game, version)
            self.playing(game)
            game.session.play(text, seat=seat)
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

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

    def read_options(self, game: LiveGame, seat: int, card: str, uses: Sequence[str],
                     version: int | None) -> OptionsJob:
        """An ``options`` request checked against ``seat``'s view now: GameError saying
        what is wrong (nothing changes), else the job that answers it."""
        self.current(game, version)
        self.playing(game)
        s = game.session
        refusal = s.why_no_play(seat)
        if refusal is not None:
            raise GameError(refusal)
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
        return OptionsAnswer.model_validate({**answer, "version": job.version}).wire()

    @unstoppable
    async def undo(self, game: LiveGame, seat: int, version: int | None = None) -> None:
        """Take back ``seat``'s last move, if the table allows it (the session's rule)."""
        async with game.lock:
            self.current(game, version)
            self.playing(game)
            game.session.undo(seat)
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    @unstoppable
    async def resign(self, game: LiveGame, seat: int) -> None:
        """``seat`` resigns: the other side wins, or a computer takes the seat over."""
        async with game.lock:
            self.playing(game)
            game.session.resign(seat, self._computer_level(game))
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    @unstoppable
    async def claim(self, game: LiveGame, seat: int, target: int,
                    version: int | None = None) -> None:
        """Let a computer play for ``target``, away on their turn past ``abandon_after``;
        a person still trying to connect (refused for a limit) counts as away only from
        their last try (:meth:`~casino.web.live.LiveGame.refused_lately`)."""
        async with game.lock:
            self.current(game, version)
            self.playing(game)
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
            tried = game.refused_lately(target)
            if away[1] < limit and tried is not None:
                raise GameError(f"{name} tried to connect {duration_words(tried)} ago and "
                                "the server had no room for them (too many connections): "
                                f"the computer may play for them after "
                                f"{duration_words(limit)} away")
            if away[1] < limit:
                raise GameError(f"{name} has been away for {duration_words(away[1])}; the "
                                f"computer may play for them after {duration_words(limit)}")
            s.take_over(target, self._computer_level(game))
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    @staticmethod
    def _computer_level(game: LiveGame) -> str:
        """The level of a computer that takes a person's seat: the room's, or medium."""
        return game.level if game.level in LEVELS else "medium"

    @unstoppable
    async def next_round(self, game: LiveGame, seat: int, version: int | None = None) -> None:
        """Deal the next round (any seat may, once the round is scored), stored and told;
        refused when the game is over or the round is still being played."""
        async with game.lock:
            self.current(game, version)
            s = game.session
            if game.status == OVER or s.game_over:
                raise GameError("the game is over: start a rematch for another one")
            self.playing(game)
            if not s.round_over:
                raise GameError(f"the {s.rules.round_word} is still being played")
            s.next_round()
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    @staticmethod
    def current(game: LiveGame, version: int | None) -> None:
        """A request made on an older version of the game is refused: it moved on since."""
        if version is not None and version != game.version:
            raise GameError(f"the game has moved on (you sent that at version {version}, it "
                            f"is at {game.version}); look again", 409)

    def playing(self, game: LiveGame) -> None:
        """A game not being played (waiting for its players, or over) refuses moves."""
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
        if away is not None and not self.service.closed:
            wake = limit - away[1] if shown is None else 60 - away[1] % 60
            game.away_timer = asyncio.get_running_loop().call_later(wake + 0.01, self.watch,
                                                                    game)

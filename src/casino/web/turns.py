"""The players' turns at the table: :class:`Turns` plays their moves, take-backs,
resignations, claims of an absent player's seat and the next round, works out the
choices each player is offered, and keeps the table's "away" notice true.

Each change is made on the game's session under the game's lock, stored
(:meth:`~casino.web.sync.LiveGames.flush`) before anyone is told, and followed by
the computers (:meth:`~casino.web.computers.Computers.kick`).

A player's choices (the mover's lists in the view, the answers to ``options``) are
worked out at once when the engine lists every move of the position within
:data:`INLINE_STEPS` steps (a small table: most positions, a millisecond or two at
most), and otherwise in selection workers, under ``select_seconds``: a crowded table
can cost the engine real time, which must not stall the event loop. The jobs wait for
a worker in a :class:`~casino.web.fairqueue.RankedLine` whose owners are the seats of
the games (:func:`seat_owner`): the turn's choices of a seat to move start before
every ``options`` answer, and each kind is served seat by seat in turn, so that one
seat's flood of ``options`` (many tabs, many games) can delay another seat's turn by
the job running at most. One seat may have ``select_per_seat`` of each kind worked out
or waiting; an ``options`` beyond that is answered ``unknown`` at once, in words
(:func:`too_many_selections`): the newer request is refused, not an older one, as each
connection already keeps only its latest request waiting (:mod:`casino.web.routes.socket`).
"""

from __future__ import annotations

import asyncio
import functools
import itertools
import logging
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from casino import i18n
from casino.bots.levels import LEVELS
from casino.engine.builds import Build
from casino.engine.position import Position
from casino.i18n import _, ngettext, pgettext, pN_
from casino.play.session import HUMAN
from casino.web.daily import DAILY, NO_RESIGNING
from casino.web.errors import GameError
from casino.web.fairqueue import LineFull, RankedLine, TooMany
from casino.web.live import LiveGame, unstoppable
from casino.web.messages import OptionsAnswer
from casino.web.store import OVER, WAITING
from casino.web.table_events import in_language
from casino.web.table_words import away_words, duration_words
from casino.web.views import (
    SelectionError,
    card_choices,
    options_json,
    read_selection,
    unknown_choices,
    unknown_options,
)
from casino.web.workers import SHUTTING_DOWN, WorkerBusy, WorkerError, WorkerPool, WorkerTimeout

if TYPE_CHECKING:
    from collections.abc import Sequence

    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: A position whose every legal move the engine lists within this many steps
#: (:meth:`~casino.engine.position.Position.moves_within`, :class:`casino.engine.movegen.Budget`)
#: has its choices and ``options`` answers worked out at once, on the event loop, with
#: no worker's round trip: counted in steps, never time, so the same positions go
#: inline on every machine. Measured over 3,885 positions of trail-heavy random games
#: of six presets (docs/server.md): 90% list within it, and listing then choosing took
#: 0.1 ms at the median, 1.9 ms at the 99th percentile and 6.4 ms at most; a try that
#: runs out of steps costs 0.5 ms at most before the job goes to a worker. It is below
#: the engine's :data:`~casino.engine.legality.LISTING_STEPS`, so a listing found here
#: is the one the worker would find: the answer is the worker's, exactly.
INLINE_STEPS = 2_000

#: The ranks of the selection line: a seat's turn, then ``options`` answers.
TURN, OPTIONS = 0, 1

#: The selection's refusals, each worded once (translated where shown,
#: ``pgettext("selection", ...)``; :func:`too_many_selections`).
SELECT_BUSY = pN_("selection", "the server is busy: pick a card and table items to see what "
                  "they can do")
OPTIONS_BUSY = pN_("selection", "the server is busy working out other players' moves: pick "
                   "again in a moment")
OPTIONS_SET_ASIDE = pN_("selection", "the server set this selection aside for another "
                        "player's (a seat with the most waiting): pick again in a moment")


def too_many_selections(count: int) -> str:
    """Why a seat's newest selection is refused: ``count`` of its own wait already."""
    return ngettext("your seat has %(n)s selection being worked out already: pick again "
                    "once they are answered",
                    "your seat has %(n)s selections being worked out already: pick again "
                    "once they are answered", count) % {"n": count}


#: Owners of turn choices asked without their game (a caller of older days): each its own.
_ANONYMOUS = itertools.count()


def seat_owner(game: str, seat: int) -> str:
    """The owner of a seat's selection jobs in the line (:class:`RankedLine`): one seat
    of one game, however many connections it holds."""
    return f"{game}:{seat}"


def inline_cheap(view: Position, steps: int = INLINE_STEPS) -> bool:
    """Whether ``view``'s choices may be worked out on the event loop: the engine lists
    its every legal move within ``steps`` (the listing is kept in ``view``, and what
    follows reads it). At most about twice ``steps`` is spent finding out."""
    return view.moves_within(steps) is not None


@dataclass(eq=False)
class _Selecting:
    """A selection job in line: the function and arguments a worker runs, and the
    answer its asker awaits."""

    fn: Callable[..., dict[str, Any]]
    args: tuple[Any, ...]
    answer: asyncio.Future[dict[str, Any]]


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
    #: Whose job it is in the selection line (:func:`seat_owner`).
    owner: str = ""


class SetAside(Exception):
    """A selection job waiting in line gave its place to a newcomer's (see the module)."""


class Turns:
    """What the players do at the table, checked against the game's version and status:
    moves, options, take-backs, resignations, claims and the next round; and who is away
    on their turn."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.limits = service.limits
        self.pool_workers = service.pool_workers
        self._selector: WorkerPool | None = None
        #: Steps within which a position's choices are worked out inline (tests set 0 to
        #: send every one to the workers).
        self.inline_steps = INLINE_STEPS
        workers = self.limits.select_workers if self.pool_workers else 0
        #: The selection jobs waiting for a worker, by seat (see the module).
        self.line: RankedLine[_Selecting] = RankedLine(
            max(1, workers), ranks=2, waiting=self.limits.select_waiting,
            each=self.limits.select_per_seat)
        self._tasks: set[asyncio.Task[None]] = set()

    @property
    def selector(self) -> WorkerPool:
        """The workers that work out players' choices (made on first use; with
        ``pool_workers`` 0, one thread, for tests). The line waits in front of them
        (:attr:`line`), so the pool is handed a job only when a worker is free."""
        if self._selector is None:
            self._selector = WorkerPool(
                self.limits.select_workers if self.pool_workers else 0,
                waiting=0, memory_mb=self.limits.select_memory_mb,
                preload=("casino.web.views",), name="casino-select")
        return self._selector

    def close(self) -> None:
        """At the server's shutdown (on the event loop): the selection workers stop, if
        any were made, and the jobs waiting for them are told the server is busy."""
        if self._selector is not None:
            self._selector.close()
        for queue in self.line.queues:
            while (popped := queue.pop()) is not None:
                queue.done(popped[0])
                if not popped[1].answer.done():
                    popped[1].answer.set_exception(WorkerBusy(SHUTTING_DOWN))

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
            self.service.clocks.check_time(game, seat)  # a move after the deadline is late
            game.session.play(text, seat=seat)
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    # ------------------------------------------------------------------
    # A player's choices: bounded lists, and the moves using picked table items

    async def choices_of(self, view: Position, game: str | None = None) -> dict[str, Any]:
        """:func:`~casino.web.views.card_choices` of the mover's observation ``view`` (in
        ``game``): at once when the position is small (:func:`inline_cheap`), else in a
        selection worker when the seat's turn comes, before any ``options`` answer; when
        it cannot be done in time, choices saying so (the page then asks ``options`` for
        what the player picks)."""
        if inline_cheap(view, self.inline_steps):
            return card_choices(view)
        seconds = self.limits.select_seconds
        owner = (seat_owner(game, view.to_move) if game is not None
                 else f"turn {next(_ANONYMOUS)}")
        try:
            return await self._selected(TURN, owner, card_choices, view)
        except WorkerTimeout:
            why = (_("the table is too crowded to list your moves in %(n)s seconds: pick a "
                     "card and table items to see what they can do") % {"n": f"{seconds:g}"})
        except (WorkerError, TooMany, LineFull):
            why = pgettext("selection", SELECT_BUSY)
        except Exception:
            log.exception("could not work out the moves of a view")
            why = _("your moves could not be listed: pick a card and table items")
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
        return OptionsJob(game.version, view, c, ids, tuple(loose), tuple(builds),
                          seat_owner(game.id, seat))

    async def options(self, job: OptionsJob) -> dict[str, Any]:
        """The answer to an ``options`` request (:func:`~casino.web.views.options_json`):
        at once on a small table (:func:`inline_cheap`), else worked out in a selection
        worker within ``select_seconds`` when the seat's turn comes, after every turn's
        choices waiting; when it cannot be, an answer whose ``unknown`` says why (the
        page shows it for that selection)."""
        args = (job.view, job.card, job.uses, job.loose, job.builds)
        seconds = self.limits.select_seconds
        try:
            if inline_cheap(job.view, self.inline_steps):
                answer = options_json(*args)
            else:
                answer = await self._selected(OPTIONS, job.owner or "options", options_json,
                                              *args)
        except TooMany as e:
            answer = unknown_options(job.card, job.uses, too_many_selections(e.held))
        except (WorkerBusy, LineFull):
            answer = unknown_options(job.card, job.uses, pgettext("selection", OPTIONS_BUSY))
        except SetAside:
            answer = unknown_options(job.card, job.uses,
                                     pgettext("selection", OPTIONS_SET_ASIDE))
        except WorkerTimeout:
            answer = unknown_options(job.card, job.uses, _(
                "the table is too crowded to work that out in %(n)s seconds: pick other "
                "table items") % {"n": f"{seconds:g}"})
        except WorkerError:
            answer = unknown_options(job.card, job.uses, _(
                "that could not be worked out just now: pick again"))
        return OptionsAnswer.model_validate({**answer, "version": job.version}).wire()

    # ------------------------------------------------------------------
    # The selection line in front of the workers

    async def _selected(self, rank: int, owner: str, fn: Callable[..., dict[str, Any]],
                        *args: Any) -> dict[str, Any]:
        """``fn(*args)`` in a selection worker when ``owner``'s turn of ``rank`` comes:
        :class:`TooMany` or :class:`LineFull` at once when the line refuses it,
        :class:`SetAside` when a newcomer took its place, else what the worker
        answered or raised."""
        loop = asyncio.get_running_loop()
        # Worded in the asker's language (the moves' words, the reasons), not the worker's.
        job = _Selecting(functools.partial(in_language, i18n.current(), fn), args,
                         loop.create_future())
        displaced = self.line.admit(rank, owner, job)
        if displaced is not None and not displaced[1].answer.done():
            displaced[1].answer.set_exception(SetAside())
        self._dispatch()
        try:
            return await asyncio.shield(job.answer)
        finally:
            if not job.answer.done():  # the asker went away: not worked out for nobody
                self.line.withdraw(job)
                job.answer.cancel()

    def _dispatch(self) -> None:
        """Start the jobs next in line while a worker is free."""
        loop = asyncio.get_running_loop()
        while (popped := self.line.next()) is not None:
            task = loop.create_task(self._work(*popped))
            self._tasks.add(task)  # the loop keeps only a weak reference to a task
            task.add_done_callback(self._tasks.discard)

    async def _work(self, rank: int, owner: str, job: _Selecting) -> None:
        try:
            result = await self.selector.run(job.fn, *job.args,
                                             deadline=self.limits.select_seconds)
        except asyncio.CancelledError:
            job.answer.cancel()
            raise
        except Exception as e:
            if not job.answer.done():
                job.answer.set_exception(e)
        else:
            if not job.answer.done():
                job.answer.set_result(result)
        finally:
            self.line.done(rank, owner)
            if not self.selector.closed:
                self._dispatch()

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
            if game.mode == DAILY:
                raise GameError(pgettext("daily", NO_RESIGNING))
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
                raise GameError(_("only a player at the table can hand a seat to the computer"))
            if target == seat:
                raise GameError(_("that is your own seat: resign instead, if you want to leave"))
            refusal = s.why_no_takeover(target) or self.service.clocks.why_no_claim(game,
                                                                                   target)
            if refusal is not None:
                raise GameError(refusal)
            name = s.names[target]
            away = game.away()
            if away is None:
                raise GameError(_("%(name)s is here: their game page is open") % {"name": name})
            limit = self.limits.abandon_after
            tried = game.refused_lately(target)
            if away[1] < limit and tried is not None:
                raise GameError(_("%(name)s tried to connect %(ago)s ago and the server had "
                                  "no room for them (too many connections): the computer may "
                                  "play for them after %(limit)s away")
                                % {"name": name, "ago": duration_words(tried),
                                   "limit": duration_words(limit)})
            if away[1] < limit:
                raise GameError(_("%(away)s; the computer may play for them after %(limit)s")
                                % {"away": away_words(name, away[1]),
                                   "limit": duration_words(limit)})
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
                raise GameError(_("the game is over: start a rematch for another one"))
            self.playing(game)
            if not s.round_over:
                raise GameError(_("the game is still being played") if s.rules.round_word
                                == "game" else _("the round is still being played"))
            s.next_round()
            await self.service.live.flush(game)
        game.notify()
        self.service.computers.kick(game)

    @staticmethod
    def current(game: LiveGame, version: int | None) -> None:
        """A request made on an older version of the game is refused: it moved on since."""
        if version is not None and version != game.version:
            raise GameError(_("the game has moved on (you sent that at version %(sent)s, it "
                              "is at %(now)s); look again")
                            % {"sent": version, "now": game.version}, 409)

    def playing(self, game: LiveGame) -> None:
        """A game not being played (waiting for its players, or over) refuses moves."""
        if game.status == WAITING:
            raise GameError(_("wait for everyone to join before playing"))
        if game.status == OVER:
            raise GameError(_("the game is over"))

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
        if game.away_timer is not None:  # the away notice's own (a clock's timer runs on)
            game.away_timer.cancel()
            game.away_timer = None
        away = game.away()
        limit = self.limits.abandon_after
        shown = None
        if away is not None and away[1] >= limit:
            shown = away[0], int(away[1] // 60)  # its words change once a minute
        if shown != game.away_shown:
            game.away_shown = shown
            for c in game.clients:
                c.refresh()
        if away is not None and not self.service.closed:
            wake = limit - away[1] if shown is None else 60 - away[1] % 60
            game.away_timer = asyncio.get_running_loop().call_later(wake + 0.01, self.watch,
                                                                    game)

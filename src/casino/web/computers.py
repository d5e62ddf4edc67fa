"""Computers and hints: :class:`Computers` plays the computers' turns and thinks of
players' hints, in the thinking pool (:mod:`casino.web.thinking`).

The session gives a :class:`~casino.play.session.BotJob` (the computer seat's
observation only) that a worker process runs while the event loop serves everybody
else; the answer is played only if the game has not changed meanwhile (an undo, say).
Where several processes serve one database, a lease in the database makes each
computer's move, and each game's hint, one process's work.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
from collections.abc import AsyncIterator
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from casino.engine.errors import CasinoError, IllegalMove
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.i18n import _, pgettext
from casino.play.session import BotJob, run_bot_job
from casino.teach.hint import Advice
from casino.web.allowances import Rate
from casino.web.errors import GameError
from casino.web.live import LiveGame, to_the_end
from casino.web.messages import HintAnswer, MoveOption
from casino.web.requester import ACCOUNT, NETWORK
from casino.web.store import PLAYING, Lease
from casino.web.thinking import HINT_BUSY, Busy, Thinker
from casino.web.views import legal_json
from casino.words.narrate import move_phrase

if TYPE_CHECKING:
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: The kinds of lease (:meth:`Computers._leased`): a computer's move, a hint.
COMPUTER_LEASE, HINT_LEASE = "computer", "hint"
def too_many_hints(asker: str, rate: float) -> str:
    """The refusal of a hint past the asker's rate (their account's, their network's, an
    address's), in the language in force."""
    words = {"rate": f"{rate:g}"}
    if asker.startswith(ACCOUNT):
        return _("your account has asked for too many hints: at most %(rate)s a minute") % words
    if asker.startswith(NETWORK):
        return _("your network has asked for too many hints: at most %(rate)s a minute") % words
    return _("you have asked for too many hints: at most %(rate)s a minute") % words


def hint_asker(client: str) -> str:
    """Whose hints ``client``'s count against: a player's identity as
    :func:`casino.web.requester.requester` gives it (the account when signed in, else
    the guest's network) is taken as it is; a bare address (or an IPv6 /64, as
    :func:`~casino.web.limits.address_key` writes it) is made its guest's network, an
    IPv4 /24 or an IPv6 /64, so that one network's several addresses share one count."""
    # Imported here: the accounts import the game service, which imports this module.
    from casino.web.accounts.service import signin_network

    if client.startswith((ACCOUNT, NETWORK)):
        return client
    return NETWORK + signin_network(client.split("/", 1)[0])


class Computers:
    """The computers' turns and the players' hints: the thinking pool that works them out,
    the leases that make each one process's work, and the hints each player may ask
    for."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.limits = service.limits
        self.bot_pause = service.bot_pause
        self.thinker = Thinker(service.pool_workers, hint_queue=self.limits.hint_queue,
                               hint_wait=self.limits.hint_wait,
                               job_timeout=self.limits.think_seconds,
                               memory_mb=self.limits.think_memory_mb)
        #: Hints per player, counted across the processes (allowances.py).
        self.hints = Rate("hints", self.limits.hints_per_minute, self.limits.hint_burst)

    # ------------------------------------------------------------------
    # Computer players

    def kick(self, game: LiveGame) -> None:
        """Start the computers thinking if it is one's turn and none is already."""
        if (self.service.closed or game.bot_task is not None or game.status != PLAYING
                or not game.session.computer_to_move):
            return
        task = asyncio.get_running_loop().create_task(self._computers(game))
        game.bot_task = task
        self.service.live.keep(task)

    async def _computers(self, game: LiveGame) -> None:
        loop = asyncio.get_running_loop()
        try:
            while not self.service.closed:
                async with game.lock:
                    s = game.session
                    if game.status != PLAYING or not s.computer_to_move \
                            or self.service.live.games.get(game.id) is not game:
                        return
                    job = s.bot_job()
                    version = game.version
                async with self._leased(game, COMPUTER_LEASE, version) as lease:
                    if not lease.held:
                        # Another process thinks for it: look again when its lease runs
                        # out (it died?). Or this one is behind: read the game again.
                        if lease.wait is None:
                            self.service.live.refresh(game)
                        else:
                            self._look_again(game, lease.wait)
                        return
                    started = loop.time()
                    try:
                        text = await self.thinker.computer(job, owner=game.driver or game.id,
                                                           game=game.id)
                    except Exception:  # a timeout too
                        log.exception("a computer failed to move in game %s; playing a "
                                      "quick move", game.id)
                        text = run_bot_job(replace(job, level="beginner"))
                    wait = self.bot_pause - (loop.time() - started)
                    if wait > 0:
                        await asyncio.sleep(wait)
                    async with game.lock:
                        current = self.service.live.games.get(game.id)
                        if game.version != version or current is not game \
                                or not game.session.computer_to_move:
                            continue  # the game changed meanwhile (an undo): think again
                        try:
                            game.session.play_computer(text)
                        except IllegalMove:
                            log.exception("a computer chose an illegal move in game %s",
                                          game.id)
                            game.session.play_computer(
                                run_bot_job(replace(job, level="beginner")))
                        await self.service.live.flush(game)
                game.notify()
        except GameError:
            pass  # the game could not be saved and was dropped; it reloads when asked for
        finally:
            game.bot_task = None

    def _look_again(self, game: LiveGame, wait: float) -> None:
        """Try the computer's turn again once another process's lease has run out."""
        if game.lease_timer is not None:
            game.lease_timer.cancel()

        def again() -> None:
            game.lease_timer = None
            if self.service.live.games.get(game.id) is game:
                self.kick(game)

        game.lease_timer = asyncio.get_running_loop().call_later(wait + 0.05, again)

    @contextlib.asynccontextmanager
    async def _leased(self, game: LiveGame, kind: str, version: int) -> AsyncIterator[Lease]:
        """The game's lease of ``kind`` at ``version`` (:meth:`Store.take_lease`), kept
        while the body runs: pushed forward every third of ``lease_seconds``, so a
        process that dies lets it run out and another takes over. A SQLite database is
        served by one process (:mod:`casino.web.single`), whose own game lock and
        ``bot_task`` already make the work its one: no lease is written there."""
        if not self.store.postgres:
            yield Lease(True)
            return
        seconds = self.limits.lease_seconds

        async def take() -> Lease:
            try:
                return await self.service.live.db(self.store.take_lease, game.id, kind, version,
                                     self.service.live.origin, seconds)
            except Exception:
                log.exception("could not take the %s lease of game %s", kind, game.id)
                return Lease(False, 1.0)

        lease = await take()
        if not lease.held:
            yield lease
            return

        async def keep() -> None:
            while True:
                await asyncio.sleep(seconds / 3)
                again = await take()
                if not again.held:
                    if again.wait is not None:
                        log.warning("game %s: another process took the %s lease over",
                                    game.id, kind)
                    return

        keeper = asyncio.get_running_loop().create_task(keep())
        try:
            yield lease
        finally:
            keeper.cancel()

    # ------------------------------------------------------------------
    # Hints

    async def hint(self, game: LiveGame, seat: int, client: str = "") -> dict[str, Any]:
        """The explained hint for ``seat``, thought of after every computer that waits:
        the play the advice ranks first (:mod:`casino.teach.hint`, from the seat's
        observation, as hard as the hint level says) and its reason.

        ``hints_per_minute`` are counted per player (:func:`hint_asker` of ``client``:
        the asker's identity, :func:`casino.web.requester.requester`, or their address).
        A hint the table does not allow is refused before it counts.
        """
        async with game.lock:
            self.service.turns.playing(game)
            s = game.session
            refusal = s.why_no_hint(seat)
            if refusal is not None:
                raise GameError(refusal)
            asker = hint_asker(client)
            if not await self.service.live.db(self.service.allowances.take, self.hints,
                                              asker):
                raise GameError(too_many_hints(asker, self.limits.hints_per_minute), 429)
            job = s.hint_job(seat)
            version = game.version
        # The game's one hint in this process, or a refusal at once (nothing is awaited
        # between the player's count above and this; _hint turns its own Busy to words).
        try:
            with self.thinker.hint_slot(game.id):
                return await self._hint(game, seat, job, version)
        except Busy as e:
            raise GameError(pgettext("hint", str(e)), 503) from None

    async def _hint(self, game: LiveGame, seat: int, job: BotJob,
                    version: int) -> dict[str, Any]:
        """Think of the hint ``job`` (its slot in this process held) and tell it."""
        # One hint at a time for a game across every process serving it (a player with
        # windows open on two), as the thinker allows one per game within a process.
        async with self._leased(game, HINT_LEASE, version) as lease:
            if not lease.held:
                raise GameError(pgettext("hint", HINT_BUSY) if lease.wait is not None else
                                _("the game moved on while the hint was asked for; ask again"),
                                503)
            try:
                text = await self.thinker.hint(job, game=game.id, slot=True)
            except Busy as e:
                raise GameError(pgettext("hint", str(e)), 503) from None
            except Exception:
                log.exception("hint failed in game %s", game.id)
                raise GameError(_("no hint could be found just now; try again"),
                                503) from None
            view, advice, move = await to_the_end(self._hint_given(game, seat, text, version))
        words = move_phrase(move, view.rules)
        # The move as an option of the page (its card and table items, picked for the
        # player), for the page to offer even when its lists do not hold it; the reason
        # is the advice's for that move (casino.teach.hint).
        return HintAnswer(move=str(move), words=_("Hint: %(move)s") % {"move": words},
                          reason=advice.best.reason,
                          option=MoveOption(**legal_json(view, [move])[0])).wire()

    async def _hint_given(self, game: LiveGame, seat: int, text: str,
                          version: int) -> tuple[Position, Advice, Move]:
        """Read the hint's answer ``text`` and note it (in the record, for the table)."""
        async with game.lock:
            if game.version != version or self.service.live.games.get(game.id) is not game:
                raise GameError(_("the game moved on while the hint was thought of; ask "
                                  "again"))
            view = game.session.view_of(seat)
            try:
                advice = Advice.from_json(json.loads(text))
                move = view.parse_move(advice.best.move)
            except (ValueError, CasinoError):
                log.exception("a hint's answer could not be read in game %s", game.id)
                raise GameError(_("no hint could be found just now; try again"),
                                503) from None
            game.session.hint_given(seat)  # the record and the table are told of it
            await self.service.live.flush(game)
        game.notify()
        return view, advice, move

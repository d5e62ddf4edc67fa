"""How many spectators watch each game on the other processes: :class:`Audience`.

Each process counts the spectators connected to it (``LiveGame.clients`` without a
seat). With several processes on one PostgreSQL database a game's spectators may be
spread over them, and the players (and the ``spectators_per_game`` cap) must see them
all. So each process tells the others its count of a game whenever it changes, on the
games' channel (:func:`casino.web.fanout.watch_notice`: the game, the count, the
process), and keeps what it hears: the game's count is its own plus the others'.

A process killed dead never says its spectators left. So each process says its
counts again every :data:`REPEAT` seconds while they are not nought, and a count not
heard again within :data:`FORGET_AFTER` seconds is forgotten: a dead process's
spectators stop counting within that. A process just started knows the others' counts
once they repeat them. On SQLite (one process) nothing is announced or heard.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING

from sqlalchemy import text

from casino.web.fanout import CHANGES_CHANNEL, watch_notice

if TYPE_CHECKING:
    from casino.web.live import LiveGame
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: How often (seconds) a process says again how many watch its games.
REPEAT = 20.0
#: After how long (seconds) a count not heard again is forgotten (its process may be
#: dead): more than two repeats, so one lost notice forgets nothing.
FORGET_AFTER = 2.5 * REPEAT


class Audience:
    """The spectators of each game on the other processes, as they last told this one.

    ``clock`` is :func:`time.monotonic` (a test gives its own)."""

    def __init__(self, service: GameService,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.service = service
        self.clock = clock
        #: game -> process -> (its count, when it was heard); only counts above nought.
        self.heard_of: dict[str, dict[str, tuple[int, float]]] = {}

    def elsewhere(self, game_id: str) -> int:
        """How many watch the game on the other processes (counts heard lately)."""
        counts = self.heard_of.get(game_id)
        if not counts:
            return 0
        fresh = self.clock() - FORGET_AFTER
        return sum(n for n, at in counts.values() if at >= fresh)

    def heard(self, game_id: str, count: int, origin: str) -> None:
        """Another process says ``count`` watch the game there: kept, and the players of
        the game here shown the new total."""
        store = self.service.store
        if origin == store.origin:
            return
        counts = self.heard_of.setdefault(game_id, {})
        before = self.elsewhere(game_id)
        if count > 0:
            counts[origin] = (count, self.clock())
        else:
            counts.pop(origin, None)
            if not counts:
                del self.heard_of[game_id]
        game = self.service.live.games.get(game_id)
        if game is not None and self.elsewhere(game_id) != before:
            game.show_watchers()

    def tell(self, game: LiveGame) -> None:
        """This process's count of the game changed: the others are told (PostgreSQL),
        in a database thread; a notice that cannot be sent is only logged (the next
        repeat says it again)."""
        if self.service.store.postgres and not self.service.closed:
            self._send([(game.id, game.watching_here)])

    def forget_stale(self) -> None:
        """Forget the counts not heard again lately; the games live here whose total
        changed show it."""
        fresh = self.clock() - FORGET_AFTER
        for game_id in list(self.heard_of):
            counts = self.heard_of[game_id]
            stale = [origin for origin, (_, at) in counts.items() if at < fresh]
            for origin in stale:
                del counts[origin]
            if not counts:
                del self.heard_of[game_id]
            game = self.service.live.games.get(game_id)
            if stale and game is not None:
                game.show_watchers()

    async def repeat(self) -> None:
        """Every :data:`REPEAT` seconds, say again this process's counts that are not
        nought, and forget the others' that went quiet (run as one of the live games'
        tasks, PostgreSQL only)."""
        while True:
            await asyncio.sleep(REPEAT)
            self.forget_stale()
            watched = [(g.id, g.watching_here) for g in self.service.live.games.values()
                       if g.watching_here]
            if watched:
                self._send(watched)

    def _send(self, counts: list[tuple[str, int]]) -> None:
        """Announce ``(game, count)`` pairs in one transaction, off the event loop."""
        store = self.service.store

        def send() -> None:
            with store.engine.begin() as conn:
                for game_id, count in counts:
                    conn.execute(text("SELECT pg_notify(:channel, :payload)"), {
                        "channel": CHANGES_CHANNEL,
                        "payload": watch_notice(game_id, count, store.origin)})

        task = asyncio.get_running_loop().create_task(self.service.live.db(send))
        task.add_done_callback(_logged)


def _logged(task: asyncio.Future[None]) -> None:
    """Log a notice that could not be sent (the spectators' count is only a courtesy to
    the players: the next repeat says it again)."""
    if not task.cancelled() and task.exception() is not None:
        log.warning("could not tell the other processes how many watch: %s",
                    task.exception())

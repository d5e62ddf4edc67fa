"""The web game's service: :class:`GameService`, which composes the parts that serve the
live games, and is what the routes and the WebSocket ask.

The server is the only authority. Each game in memory is a
:class:`~casino.web.live.LiveGame` around a :class:`~casino.play.session.GameSession`
(which holds the rules, the turn and the log; nothing here repeats game logic),
guarded by its own :class:`asyncio.Lock`. Every change is stored before any client
hears of it. The service's parts, each in its own module:

- :class:`~casino.web.sync.LiveGames` (sync and storage): the games in memory, loaded
  lazily from their records, each change stored in one transaction (or the game
  dropped, to reload as stored), and other processes' changes heard of and read again;
- :class:`~casino.web.rooms.Rooms` (rooms and seats): new games and rooms within their
  allowances, invites, rematches, the lobby's lists;
- :class:`~casino.web.computers.Computers` (computers and hints): the computers' turns
  and the players' hints, thought of in the thinking pool, one process's work each;
- :class:`~casino.web.turns.Turns` (the players' turns): moves, options, take-backs,
  resignations, claims, the next round, and who is away on their turn.

Fair play: each game has its settings (hints, take-backs) in its record, and
the session enforces them; the service adds what only a server knows: who is
connected. A person away on their turn past ``Limits.abandon_after`` may have
their seat handed to a computer by another player (a claim). Post-game reviews are
the :class:`~casino.web.reviews.Reviewer`'s.
"""

from __future__ import annotations

import contextlib
import re
from typing import Any

from casino import i18n
from casino.bots.levels import LEVELS
from casino.engine.record import read_record
from casino.engine.rules import PRESET_NAMES
from casino.i18n import _
from casino.play.session import HINT_LEVEL
from casino.teach.review import default_seat
from casino.web.allowances import Allowances
from casino.web.audience import Audience
from casino.web.chat import Chat
from casino.web.clocks import Clocks
from casino.web.computers import Computers
from casino.web.daily import Daily
from casino.web.errors import MOVED_ON, GameError, clean_name
from casino.web.limits import Limits, address_key
from casino.web.live import COMPUTER, FRIENDS, LESSON, LiveGame
from casino.web.messages import error
from casino.web.reviews import Reviewer, ReviewRefused, ReviewSetting
from casino.web.rooms import Created, Rooms
from casino.web.store import OVER, Store
from casino.web.sync import LiveGames, valid_id
from casino.web.turns import OptionsJob, Turns


class GameService:
    """Every live game, the database behind them and the pool that thinks for computers:
    its parts made and joined (each given the service, to reach the others through it),
    each asked directly by the routes, the WebSocket, the other parts and the tests."""

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
        #: The post-game reviews of finished games (computed in workers of their own).
        self.reviewer = Reviewer(store, self.limits, processes=pool_workers > 0,
                                 setting=review_setting)
        self.closed = False
        #: What players may ask for over time and keep waiting, counted in the database
        #: for every process (allowances.py).
        self.allowances = Allowances(store)
        #: The chat of the games (chat.py): its lines, mutes and reports in the database.
        self.chat = Chat(self)
        #: How many watch each game on the other processes (audience.py).
        self.audience = Audience(self)
        #: The service's parts, each asked directly (``service.turns.play``): the games in
        #: memory, kept as stored (sync.py); rooms and seats (rooms.py): making games,
        #: invites, rematches, the lobby's lists; computers and hints (computers.py): the
        #: thinking pool, its leases, the hints; the players' turns (turns.py): moves,
        #: options, take-backs, resignations, claims, the next round, and who is away.
        self.live = LiveGames(self)
        self.rooms = Rooms(self)
        self.computers = Computers(self)
        self.turns = Turns(self)
        #: The daily deals (daily.py): the day's deck per preset, its games and results.
        self.daily = Daily(self)
        #: The timed games' clocks (clocks.py): kept as stored, armed, swept, fired.
        self.clocks = Clocks(self)

    async def close(self) -> None:
        """At the server's shutdown: stop the timers and tasks, tell each connection that
        its game is saved, then stop listening and thinking."""
        self.closed = True
        games = self.live.games
        for game in games.values():
            game.forget_timer()
        for task in list(self.live.tasks):
            task.cancel()
        for task in list(self.live.tasks):
            with contextlib.suppress(BaseException):
                await task
        for game in games.values():
            for c in game.clients:
                with i18n.using(c.lang):
                    c.send(error(_("the server is shutting down; your game is saved: reload "
                                   "the page in a moment")))
        if self.live.listener is not None:
            await self.live.listener.close()
        self.computers.thinker.close()
        self.reviewer.close()
        self.turns.close()
        self.live.shutdown()

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
        game = await self.live.get(game_id)
        if game is None:
            raise GameError(_("there is no such game"), 404)
        if game.status != OVER:
            raise GameError(_("the game is not finished: only a finished game is reviewed "
                              "(a review tells what every hand held)"), 403)
        players = game.rules.players
        if seat is None:
            number = default_seat(read_record(game.session.record_text()))
        elif not re.fullmatch(r"[0-9]{1,3}", seat) or int(seat) >= players:
            raise GameError(_("seat %(seat)s is not a seat of this %(players)s-player game: "
                              "the seats are 0 to %(last)s")
                            % {"seat": repr(seat[:20]), "players": players,
                               "last": players - 1})
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


__all__ = ["COMPUTER", "FRIENDS", "LESSON", "MOVED_ON", "PRESET_NAMES", "Created", "GameError",
           "GameService", "LiveGame", "OptionsJob", "clean_name", "valid_id"]

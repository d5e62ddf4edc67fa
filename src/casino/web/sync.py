"""The games live in this process, kept as stored: :class:`LiveGames`.

A game is loaded lazily: a client that asks for a game not in memory (after a
restart, or after an idle game was evicted) gets it replayed from its record. Every
change is stored (its record, version and new events, in one transaction) before any
client hears of it; if the commit fails the game is dropped from memory, so it reloads
exactly as stored. On PostgreSQL the changes other processes store are heard of
(:mod:`casino.web.fanout`), and a game live here is read again.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import logging
import re
from collections import OrderedDict
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

from casino import i18n
from casino.engine.record import match_from_record, read_record
from casino.i18n import _
from casino.play.session import HUMAN, GameSession, default_settings
from casino.web.daily import DAILY
from casino.web.errors import GameError, moved_on_refusal
from casino.web.fanout import Listener
from casino.web.live import FRIENDS, LiveGame
from casino.web.messages import RematchReady, error
from casino.web.store import OVER, MovedOn, StoredGame
from casino.web.table_words import replayed_log
from casino.web.views import LogItem

if TYPE_CHECKING:
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

T = TypeVar("T")


class LiveGames:
    """The games in memory, the database threads that load and store them, and the
    listener that hears of other processes' changes: what keeps each live game as it is
    stored, so that the other parts of the :class:`~casino.web.service.GameService` only
    ever change a game through :meth:`flush`."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.limits = service.limits
        self.hint_level = service.hint_level
        self.games: OrderedDict[str, LiveGame] = OrderedDict()
        self._loading: dict[str, asyncio.Lock] = {}
        #: The tasks that run on their own (reading games again, computers thinking),
        #: cancelled at the server's shutdown.
        self.tasks: set[asyncio.Task[None]] = set()
        #: The threads that do the database's work (:meth:`db`), off the event loop.
        self._db = concurrent.futures.ThreadPoolExecutor(self.limits.db_threads,
                                                         thread_name_prefix="casino-db")
        #: Hears of other processes' changes (PostgreSQL; started by :meth:`start`).
        self.listener: Listener | None = None
        #: The changes heard of that this process had live, and read again.
        self.refreshed = 0

    @property
    def origin(self) -> str:
        """This process's name in the database's leases and change notices."""
        return self.store.origin

    async def start(self) -> None:
        """Begin hearing of changes other processes store (on PostgreSQL only: a
        SQLite database is served by one process)."""
        self.service.clocks.start()  # every process sweeps for clocks that ran out
        if self.store.postgres and self.listener is None:
            self.listener = Listener(self.store.url, self._heard, self._heard_nothing,
                                     self.service.chat.heard, self.service.audience.heard)
            await self.listener.start()
            self.keep(asyncio.get_running_loop().create_task(self.service.audience.repeat()))

    def keep(self, task: asyncio.Task[None]) -> None:
        """Hold ``task`` among the tasks that run on their own (the loop keeps only a weak
        reference to a task), cancelled at the server's shutdown, until it is done."""
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def db(self, work: Callable[..., T], *args: Any, **kwargs: Any) -> T:
        """``work(*args, **kwargs)`` in a database thread: the event loop goes on
        serving everyone while a query waits on the database. It runs in the caller's
        context, as :func:`asyncio.to_thread` would: its language among it (the lobby's
        lists are worded in the request's)."""
        loop = asyncio.get_running_loop()
        context = contextvars.copy_context()
        return await loop.run_in_executor(self._db,
                                          lambda: context.run(work, *args, **kwargs))

    def shutdown(self) -> None:
        """At the server's shutdown, once nothing is stored any more: the database
        threads end."""
        self._db.shutdown(wait=True)

    # ------------------------------------------------------------------
    # Storage

    async def flush(self, game: LiveGame) -> None:
        """Store the game's change (its record, status, version and new events, in one
        transaction), if it has one, before anyone is told of it; the caller holds the
        game's lock. GameError, the game dropped from memory, when it cannot be."""
        events = game.take_pending()
        if not events:
            return
        s = game.session
        game.settled.clear()
        within, clock = self.service.clocks.after_change(game, events)  # the clock moves on with it
        try:
            await self.db(self.store.save, game.id, record=s.record_text(),
                          status=game.status, version=len(game.events) + len(events),
                          events=events, winner=s.winner, within=within)
        except MovedOn:
            # Another change was stored first (by another process): this one is not,
            # and the game is read again as stored; its players here see the fresh state.
            raise await self.moved_on(game) from None
        except Exception:
            log.exception("could not save game %s", game.id)
            self.drop(game)
            raise GameError(_("the server could not save that; nothing changed, try again"),
                            503) from None
        finally:
            game.settled.set()
        game.events.extend(events)
        if game.mode == DAILY and game.status == OVER:
            await self.service.daily.finish(game.id, s)
        self.service.clocks.stored(game, clock)

    def drop(self, game: LiveGame) -> None:
        """Forget a game in memory (it reloads from the database when asked for); its
        pages are told and reconnect."""
        self._forget(game)
        for c in game.clients:
            with i18n.using(c.lang):
                c.send(error(_("the game was reloaded; reconnecting")))
            c.close()

    def _remember(self, game: LiveGame) -> None:
        self.games[game.id] = game
        self.games.move_to_end(game.id)
        excess = len(self.games) - self.limits.live_games
        if excess <= 0:
            return
        for g in list(self.games.values()):
            if excess <= 0:
                break
            if g is not game and not g.clients and g.bot_task is None and not g.lock.locked():
                self._forget(g)
                excess -= 1

    async def get(self, game_id: str) -> LiveGame | None:
        """The game in memory, loaded from the database if need be; None if there is none."""
        game = self.games.get(game_id)
        if game is None:
            if not _ID.fullmatch(game_id):
                return None
            lock = self._loading.setdefault(game_id, asyncio.Lock())
            async with lock:
                game = self.games.get(game_id)
                if game is None:
                    read = await self.db(self._read, game_id)
                    if read is None:
                        self._loading.pop(game_id, None)
                        return None
                    game = LiveGame(self.service, *read)
                    await self.service.clocks.loaded(game)
                    self._remember(game)
                    self.service.computers.kick(game)
            self._loading.pop(game_id, None)
        else:
            self.games.move_to_end(game_id)
        return game

    def _read(self, game_id: str, after: int = 0) -> tuple[StoredGame, GameSession,
                                                          list[LogItem]] | None:
        """The stored game (events above ``after``), its session and its public log, or
        None: in a database thread (the replay of a long game costs time too)."""
        stored = self.store.load(game_id, after=after)
        if stored is None:
            return None
        record = read_record(stored.record)
        players = record.players or (HUMAN,) * record.rules.players
        # A record of an older server has no settings: the mode's defaults apply.
        settings = record.table or default_settings(1 if stored.mode != FRIENDS else 2)
        session = GameSession(match_from_record(record), players, record.names,
                              hint_level=self.hint_level, settings=settings,
                              notes=record.notes)
        return stored, session, replayed_log(session)

    # ------------------------------------------------------------------
    # Changes stored by other processes

    def _heard(self, game_id: str, version: int, origin: str) -> None:
        """Another process stored a change of ``game_id`` (now at ``version``): a game
        live here is read again, and its players here are sent the news."""
        game = self.games.get(game_id)
        if game is None or origin == self.origin or version < game.version or self.service.closed:
            return
        if not game.clients and game.bot_task is None and not game.lock.locked():
            self._forget(game)  # nobody here to tell: it is read again when asked for
            return
        self.refresh(game)

    def _heard_nothing(self) -> None:
        """The listener was away and may have missed changes: read every live game again."""
        for game in list(self.games.values()):
            self.refresh(game)

    def refresh(self, game: LiveGame) -> None:
        if game.refreshing is None:
            task = asyncio.get_running_loop().create_task(self._reread(game))
            game.refreshing = task
            self.keep(task)

    async def _reread(self, game: LiveGame) -> None:
        try:
            async with game.lock:
                if self.games.get(game.id) is not game:
                    return
                await self._catch_up(game)
        except Exception:
            log.exception("could not read game %s again; it reloads when asked for", game.id)
            self.drop(game)
        finally:
            game.refreshing = None

    async def _catch_up(self, game: LiveGame) -> None:
        """Read the game again as stored, in place, and tell its players here (the
        caller holds its lock); the caller drops the game if this fails."""
        read = await self.db(self._read, game.id, game.version)
        if read is None or read[0].version < game.version:
            raise LookupError(f"game {game.id} is no longer stored as it was")
        stored, session, log_items = read
        rematch = game.rematch
        game.reload(stored, session, log_items)
        await self.service.clocks.loaded(game)
        self.refreshed += 1
        if game.rematch is not None and rematch is None:
            for c in game.clients:
                c.send(RematchReady(url=f"/rematch/{game.id}/{game.rematch}",
                                    game=game.rematch).wire())
        for c in game.clients:
            c.refresh()  # the seats or the status may change at one version too
        self.service.turns.watch(game)
        self.service.computers.kick(game)  # its computer starts once the caller lets go of the lock

    async def moved_on(self, game: LiveGame) -> GameError:
        """The answer to a change that another process's change beat to the database
        (the caller holds the game's lock): the game is read again as stored, so the
        sender and everyone here see the game as it stands; or, if it cannot be read,
        dropped (its pages reconnect)."""
        try:
            await self._catch_up(game)
        except Exception:
            log.exception("could not read game %s again; it reloads when asked for", game.id)
            self.drop(game)
        return moved_on_refusal()

    def _forget(self, game: LiveGame) -> None:
        """Drop a game from memory, telling nobody (:meth:`drop` tells its pages)."""
        if self.games.get(game.id) is game:
            del self.games[game.id]
        game.session.on_change = None
        game.forget_timer()


_ID = re.compile(r"[0-9a-f]{16}")


def valid_id(game_id: str) -> bool:
    """Whether ``game_id`` has the form of a game's id (16 hex digits): anything else is no
    game, without a look at the database."""
    return bool(_ID.fullmatch(game_id))

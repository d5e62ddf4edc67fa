"""Hearing of the changes other processes store: PostgreSQL's LISTEN/NOTIFY.

Several ``casino serve`` processes may serve the same games from one PostgreSQL
database. Each stored change is announced on a channel in the change's own
transaction (:meth:`casino.web.store.Store.save`), carrying only the game, its new
version and the process that stored it (the notice's format is this module's,
:func:`change_notice` and :func:`read_change_notice`, so that its writer and its reader
agree in one place). Every process listens on one connection of
its own; when another process changed a game this one has live, the game is read
again from its tables and its players here are sent the new state. So no second
service (no message broker) is needed: the database that already orders every
change also tells of it.

A notice can be lost while the listening connection is down (the database
restarted, the network broke). The listener reconnects with a growing pause, and
after every reconnection it asks for every live game to be checked (``on_lost``),
since it cannot know what it missed.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Callable

log = logging.getLogger("casino.web")

#: The PostgreSQL channel on which every stored change is announced
#: (:meth:`casino.web.store.Store.save`, with :func:`change_notice`; the listener reads
#: them with :func:`read_change_notice`).
CHANGES_CHANNEL = "casino_games"


def change_notice(game_id: str, version: int, origin: str) -> str:
    """The payload of a change's notice: the game, its new version, and the process that
    stored it (which needs no telling). Never the change itself: listeners read the
    stored game, so a notice cannot carry anything a seat may not see."""
    return f"{game_id} {version} {origin}"


def read_change_notice(payload: str) -> tuple[str, int, str] | None:
    """(game, version, origin) of a notice's payload, None if it is not one."""
    parts = payload.split(" ")
    if len(parts) != 3 or not parts[1].isdigit():
        return None
    return parts[0], int(parts[1]), parts[2]


#: The first word of a chat line's notice (:func:`chat_notice`), which no game id is.
CHAT = "chat"


def chat_notice(game_id: str, line: int, origin: str) -> str:
    """The payload of a stored chat line's notice (:mod:`casino.web.chatstore`): the
    game, the line's number and the process that stored it. Four words, so that
    :func:`read_change_notice` never takes it for a game's change."""
    return f"{CHAT} {game_id} {line} {origin}"


def read_chat_notice(payload: str) -> tuple[str, int, str] | None:
    """(game, line, origin) of a chat line's notice, None if it is not one."""
    parts = payload.split(" ")
    if len(parts) != 4 or parts[0] != CHAT or not parts[2].isdigit():
        return None
    return parts[1], int(parts[2]), parts[3]


#: The first word of a spectators' count's notice (:func:`watch_notice`).
WATCH = "watch"


def watch_notice(game_id: str, count: int, origin: str) -> str:
    """The payload of a process's notice of how many spectators watch a game there
    (:mod:`casino.web.audience`): four words, as a chat line's."""
    return f"{WATCH} {game_id} {count} {origin}"


def read_watch_notice(payload: str) -> tuple[str, int, str] | None:
    """(game, count, origin) of a spectators' count's notice, None if it is not one."""
    parts = payload.split(" ")
    if len(parts) != 4 or parts[0] != WATCH or not parts[2].isdigit():
        return None
    return parts[1], int(parts[2]), parts[3]


#: The pause before the first reconnection, and the longest (seconds).
FIRST_PAUSE, LONGEST_PAUSE = 0.5, 10.0


def libpq_url(sqlalchemy_url: str) -> str:
    """The URL psycopg itself connects with (SQLAlchemy's names its driver too)."""
    from sqlalchemy.engine import make_url

    return make_url(sqlalchemy_url).set(drivername="postgresql").render_as_string(
        hide_password=False)


class Listener:
    """Listens for change notices and hands each to ``on_change(game, version, origin)``,
    each chat line's notice to ``on_chat(game, line, origin)`` and each spectators'
    count's to ``on_watch(game, count, origin)``.

    :meth:`start` begins listening (and returns once the first LISTEN is in place, so
    nothing stored after it is missed); :meth:`close` stops.
    """

    def __init__(self, url: str, on_change: Callable[[str, int, str], None],
                 on_lost: Callable[[], None],
                 on_chat: Callable[[str, int, str], None] | None = None,
                 on_watch: Callable[[str, int, str], None] | None = None) -> None:
        self.url = libpq_url(url)
        self.on_change = on_change
        self.on_chat = on_chat
        self.on_watch = on_watch
        self.on_lost = on_lost
        self._task: asyncio.Task[None] | None = None
        self._ready = asyncio.Event()

    async def start(self) -> None:
        """Start listening in a task of its own; return once the first LISTEN is in place
        (or after 10 s), so that no change stored after this call is missed."""
        self._task = asyncio.get_running_loop().create_task(self._run())
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._ready.wait(), 10)

    async def close(self) -> None:
        """Stop listening: cancel the task and wait for it."""
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(BaseException):
                await self._task

    async def _run(self) -> None:
        import psycopg

        pause = FIRST_PAUSE
        missed = False
        while True:
            try:
                conn = await psycopg.AsyncConnection.connect(self.url, autocommit=True)
                async with conn:
                    await conn.execute(f"LISTEN {CHANGES_CHANNEL}")
                    self._ready.set()
                    if missed:
                        self.on_lost()  # notices may have been missed while away
                    missed, pause = False, FIRST_PAUSE
                    async for notice in conn.notifies():
                        parsed = read_change_notice(notice.payload)
                        if parsed is not None:
                            self.on_change(*parsed)
                        elif self.on_chat is not None and (
                                said := read_chat_notice(notice.payload)) is not None:
                            self.on_chat(*said)
                        elif self.on_watch is not None and (
                                counted := read_watch_notice(notice.payload)) is not None:
                            self.on_watch(*counted)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # the database went away: listen again when it is back
                log.warning("not hearing of other processes' changes (%s); again in %.1f s",
                            str(e).splitlines()[0] if str(e) else type(e).__name__, pause)
                self._ready.set()  # do not hold the server's start up
                missed = True
                await asyncio.sleep(pause)
                pause = min(pause * 2, LONGEST_PAUSE)

"""The game WebSocket, ``/ws/{game_id}``, and a spectator's, ``/ws/watch/{game_id}``: one
:class:`GameSocket` per connection.

Every message is checked against the connection's seat, the turn and the rules
(docs/server.md lists the messages); the game state only ever travels here, one
seat's view at a time, or the spectators' public one (:mod:`casino.web.spectators`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect, WebSocketState

from casino import i18n
from casino.engine.errors import CasinoError
from casino.i18n import _, ngettext
from casino.web import seats
from casino.web.chat import chat_person
from casino.web.errors import GameError
from casino.web.guard import same_origin as _same_origin
from casino.web.language import connection_language
from casino.web.limits import TokenBucket, address_key, seat_share
from casino.web.live import Client, LiveGame
from casino.web.messages import (
    ChatOff,
    Claim,
    Event,
    Hello,
    Hint,
    Message,
    MessageError,
    Mute,
    NextRound,
    Options,
    Ping,
    Play,
    Pong,
    Rematch,
    Report,
    Resign,
    Say,
    State,
    Undo,
    Unmute,
    error,
    parse,
)
from casino.web.requester import requester
from casino.web.routes.context import Web, seat_held, signed_in
from casino.web.service import GameService, OptionsJob
from casino.web.spectators import (
    ANY_ACTION,
    full,
    not_watchable,
    refusal,
    said_hello,
    spectator_state,
)

log = logging.getLogger("casino.web")

#: WebSocket close codes: a missing or forged seat, no such game, too many connections,
#: another site's page; too many messages (the page waits before it reconnects); a
#: connection silent past the heartbeat's deadline; and "reconnect now" (the game reloads).
#: A game that may not be watched refuses a spectator as another site's page is refused:
#: forbidden, and the page does not try again.
CLOSE_NO_SEAT, CLOSE_NO_GAME, CLOSE_LIMIT, CLOSE_ORIGIN = 4401, 4404, 4429, 4403
CLOSE_NOT_WATCHABLE = 4403
CLOSE_TOO_FAST, CLOSE_SILENT, CLOSE_RECONNECT = 4408, 4000, 1012

router = APIRouter()


@router.websocket("/ws/{game_id}")
async def game_socket(ws: WebSocket, game_id: str, web: Web) -> None:
    """The WebSocket of a game: see :class:`GameSocket`."""
    await GameSocket(web.service, ws, game_id).run()


@router.websocket("/ws/watch/{game_id}")
async def watch_socket(ws: WebSocket, game_id: str, web: Web) -> None:
    """A spectator's WebSocket of a game its players allowed to be watched: see
    :class:`GameSocket` and :mod:`casino.web.spectators`."""
    await GameSocket(web.service, ws, game_id, watch=True).run()


class GameSocket:
    """One client's connection: reads its messages, writes its states, errors and hints.

    Reading and writing are two tasks, so a client slow to read never holds up
    the game, and the game never waits on a client. A spectator's connection (``watch``)
    holds no seat: it is sent the public view and may only say hello and answer pings.
    """

    def __init__(self, service: GameService, ws: WebSocket, game_id: str, *,
                 watch: bool = False) -> None:
        self.service = service
        self.ws = ws
        self.game_id = game_id
        self.watch = watch
        self.limits = service.limits
        self.bucket = TokenBucket(self.limits.messages_per_second, self.limits.message_burst)
        #: Hints being thought of for this connection (kept so they are not collected).
        self.hints: set[asyncio.Task[None]] = set()
        #: The ``options`` request being worked out for this connection, and the latest
        #: one waiting behind it (a newer request replaces it: only the last is answered).
        self.options_task: asyncio.Task[None] | None = None
        self.options_next: OptionsJob | None = None
        self.refused = 0
        #: The connection's language (set at the handshake, :meth:`run`).
        self.lang = i18n.DEFAULT

    async def _refuse(self, message: str, code: int) -> None:
        await self.ws.send_json(error(message))
        await self.ws.close(code)

    async def run(self) -> None:
        """Serve the connection in its language (:meth:`_serve`), chosen at the handshake as
        a page's is (:func:`~casino.web.language.connection_language`: the cookie, the
        account's, Accept-Language): every state, event,
        notice and error it is sent is worded in it, whatever the other connections'."""
        with i18n.using(await connection_language(self.ws)) as lang:
            self.lang = lang
            await self._serve()

    async def _serve(self) -> None:
        """Admit the connection (its origin, the game, a seat held, room for it), then read
        and write until it closes; the seat's absence counts from then. Its writer and the
        tasks it starts inherit its language."""
        ws = self.ws
        await ws.accept()
        if not _same_origin(ws.headers):
            await self._refuse(_("this game can only be played from its own site"), CLOSE_ORIGIN)
            return
        game = await self.service.live.get(self.game_id)
        if game is None:
            await self._refuse(_("there is no such game"), CLOSE_NO_GAME)
            return
        if self.watch and not game.spectators:
            await self._refuse(not_watchable(), CLOSE_NOT_WATCHABLE)
            return
        # The browser's token's seat, or its account's; a spectator holds none.
        seat = None if self.watch else await seat_held(ws, game)
        if seat is None and not self.watch:
            await self._refuse(_("you have no seat in this game: your seat token is missing "
                                 "or wrong (open your invite link again)"), CLOSE_NO_SEAT)
            return
        # As the limits count it (IPv6: the /64): the owner of its game's computers' turns.
        address = address_key(ws.client.host) if ws.client else ""
        no_room = self._no_room(game, seat, address)
        if no_room is not None:
            if seat is not None:
                # The owner is trying to come back: their absence counts from now, so
                # that nobody can hold them out of the game until their seat may be claimed.
                game.refused(seat)
                self.service.turns.watch(game)
            await self._refuse(no_room, CLOSE_LIMIT)
            return
        client = Client(seat, address=address, lang=self.lang)
        game.clients.add(client)
        self.service.turns.watch(game)  # a person back on their turn is no longer away
        if seat is None:
            game.watched()  # the players are told how many watch
        loop = asyncio.get_running_loop()
        writer = loop.create_task(self._write(game, client))
        heart = loop.create_task(self._heartbeat(client))
        try:
            await self._read(game, client)
        finally:
            heart.cancel()
            if self.options_task is not None:
                self.options_task.cancel()
            game.clients.discard(client)
            self.service.chat.leave(client)
            self.service.turns.watch(game)  # the seat's absence counts from now
            if seat is None:
                game.watched()
            client.close(CLOSE_RECONNECT)
            with contextlib.suppress(BaseException):
                await asyncio.wait_for(writer, 5)

    def _no_room(self, game: LiveGame, seat: int | None, address: str) -> str | None:
        """Why ``seat``'s new connection from ``address`` finds no room, in words; None
        when it may open.

        Each seat has its own share of the game's connections (:func:`seat_share`), so
        no one's tabs can fill another's; spectators (``seat`` None) have theirs,
        ``spectators_per_game``, apart from the seats'. One address may hold only so many
        in a game and across the games of this process, spectators as anyone, so a few
        browsers cannot hold them all.
        """
        limits = self.limits
        if seat is None:
            if game.watching >= limits.spectators_per_game:
                return full(limits.spectators_per_game)
        elif sum(1 for c in game.clients if c.seat == seat) >= (
                share := seat_share(limits, len(game.seats))):
            return ngettext("your seat has %(n)s connection to this game open already, as "
                            "many as a seat may have; close other tabs",
                            "your seat has %(n)s connections to this game open already, as "
                            "many as a seat may have; close other tabs", share) % {"n": share}
        most = limits.game_connections_per_address
        if sum(1 for c in game.clients if c.address == address) >= most:
            return ngettext("your address has %(n)s connection to this game open already, "
                            "as many as one address may have; close other tabs",
                            "your address has %(n)s connections to this game open already, "
                            "as many as one address may have; close other tabs",
                            most) % {"n": most}
        most = limits.connections_per_address
        if sum(1 for g in self.service.live.games.values() for c in g.clients
               if c.address == address) >= most:
            return ngettext("your address has %(n)s game connection open already, as many "
                            "as one address may have; close some tabs",
                            "your address has %(n)s game connections open already, as many "
                            "as one address may have; close some tabs", most) % {"n": most}
        return None

    async def _heartbeat(self, client: Client) -> None:
        """A ``ping`` every ``heartbeat_seconds``: the page answers ``pong``.

        Browsers do not show WebSocket-level pings to the page, so the page
        could not tell a silently dropped connection from a quiet game; with
        these it knows within two beats, and the server within
        ``heartbeat_timeout`` (the reader closes a silent connection).
        """
        while True:
            await asyncio.sleep(self.limits.heartbeat_seconds)
            client.send(Ping(every=self.limits.heartbeat_seconds).wire())

    async def _write(self, game: LiveGame, client: Client) -> None:
        try:
            while True:
                message = await client.outbox.get()
                if message is None:
                    try:
                        message = await game.state_ready(client)
                    except Exception:
                        log.exception("could not build the view of game %s", game.id)
                        message = error(_("the server could not show the game; reload the page"))
                    if message is None:
                        continue
                if isinstance(message, str):  # a spectator's state, encoded once for all
                    await self.ws.send_text(message)
                    continue
                if message.get("type") == "close":
                    if self.ws.client_state == WebSocketState.CONNECTED:
                        with contextlib.suppress(Exception):
                            await self.ws.close(int(message.get("code", CLOSE_RECONNECT)))
                    return
                await self.ws.send_json(message)
        except (WebSocketDisconnect, RuntimeError, OSError):
            return

    async def _read(self, game: LiveGame, client: Client) -> None:
        ws = self.ws
        while True:
            try:
                raw = await asyncio.wait_for(ws.receive(), self.limits.heartbeat_timeout)
            except TimeoutError:
                client.close(CLOSE_SILENT)  # no pong, no message: the connection is dead
                return
            except (WebSocketDisconnect, RuntimeError):
                return
            if raw["type"] == "websocket.disconnect":
                return
            text = raw.get("text")
            data = raw.get("bytes")
            if text is None and data is not None:
                try:
                    text = data.decode("utf-8")
                except UnicodeDecodeError:
                    text = ""
            size = len(text.encode("utf-8")) if text is not None else 0
            if not self.bucket.take():
                self.refused += 1
                if self.refused > self.limits.refused_before_close:
                    client.send(error(_("too many messages: this connection is closed; "
                                        "the page reconnects in a while")))
                    client.close(CLOSE_TOO_FAST)
                    return
                client.send(error(_("too many messages: at most %(n)s a second; that one "
                                    "was ignored") % {"n": f"{self.limits.messages_per_second:g}"}))
                continue
            self.refused = 0  # only a flood without pause closes the connection
            if size > self.limits.message_bytes:
                client.send(error(_("that message is too big (at most %(n)s bytes); it was "
                                    "ignored") % {"n": self.limits.message_bytes}))
                continue
            current = self.service.live.games.get(self.game_id)
            if current is not game:  # dropped meanwhile: the client must reconnect
                client.close(CLOSE_RECONNECT)
                return
            reply = await self.handle(game, client, text or "")
            if reply is not None:
                client.send(reply)

    def _ask_options(self, game: LiveGame, client: Client, job: OptionsJob) -> None:
        """Answer ``job`` after the request being worked out, if any: one at a time per
        connection, and a request still waiting is replaced by a newer one (the page
        only wants the answer for what is picked now)."""
        self.options_next = job
        if self.options_task is None:
            self.options_task = asyncio.get_running_loop().create_task(
                self._work_out_options(game, client))

    async def _work_out_options(self, game: LiveGame, client: Client) -> None:
        try:
            while self.options_next is not None:
                job, self.options_next = self.options_next, None
                try:
                    reply = await self.service.turns.options(job)
                except GameError as e:
                    reply = error(e.message)
                except Exception:
                    log.exception("options failed in game %s", game.id)
                    reply = error(_("that selection could not be worked out; pick again"))
                client.send(reply)
        finally:
            self.options_task = None

    async def _think(self, game: LiveGame, client: Client) -> None:
        """Ask for a hint and send the answer (or why there is none) when it comes."""
        try:
            # Hints count per player: the account when signed in, else the network
            # (asked at each hint, so a session revoked meanwhile counts no more).
            reply = await self.service.computers.hint(game, _seat(client),
                                                      await requester(self.ws))
        except GameError as e:
            reply = error(e.message)
        except CasinoError as e:
            reply = error(str(e))
        except Exception:
            log.exception("a hint failed in game %s", game.id)
            reply = error(_("no hint could be found just now; try again"))
        client.send(reply)

    async def handle(self, game: LiveGame, client: Client, text: str) -> Reply:
        """One message: the reply to send (an error in words, or a hint), or None.

        The message is read once into its model (:mod:`casino.web.messages`): one that
        is not a message is refused in words naming the field, and changes nothing; one
        that is goes to its handler, by its model's class (:data:`HANDLERS`).
        """
        try:
            msg = parse(text, game.rules.players)
        except MessageError as e:
            return error(str(e))
        if not isinstance(msg, PASSIVE):
            if client.seat is None:  # a spectator: nothing they send changes the game
                return error(refusal(msg.type))
            game.driver = client.address
        try:
            return await HANDLERS[type(msg)](self, game, client, msg)
        except GameError as e:
            if e.status == 409:
                client.notify()  # a stale request: the fresh state follows the error
            return error(e.message)
        except CasinoError as e:  # IllegalMove and friends: computed from the seat's view
            return error(str(e))
        except Exception:
            # Memory may be half-changed: drop the game, it reloads as committed.
            log.exception("unexpected error in game %s on %r", game.id, msg.type)
            self.service.live.drop(game)
            return error(_("something went wrong on the server; the game is reloaded as it "
                           "was saved"))

    async def _hello(self, game: LiveGame, client: Client, msg: Hello) -> Reply:
        """The state (:meth:`_state`); after the first, the chat's status and its recent
        lines (:meth:`casino.web.chat.Chat.join`)."""
        reply = await self._state(game, client, msg)
        if client in self.service.chat.readers or reply is None:
            return reply
        client.send(reply)
        account = await signed_in(self.ws)
        seat_name = game.session.names[client.seat] if client.seat is not None else None
        person = chat_person(await requester(self.ws), account.name if account else None,
                             seats.browser_token(self.ws), seat_name)
        await self.service.chat.join(game, client, person)
        return None

    async def _state(self, game: LiveGame, client: Client, msg: Hello) -> Reply:
        """The state: the events after ``since`` (all of them when ``since`` is from
        another life of the game, beyond its version) and the seat's view."""
        seat = client.seat
        start = msg.since if msg.since <= game.version else 0
        if seat is None:
            if client.sent is not None:
                return error(said_hello())
            await game.settled.wait()  # a change being stored is shown once it is
            client.sent = game.version
            return spectator_state(game, start, game.watching)
        view = await game.view_ready(seat)  # nothing awaited after this
        client.sent = game.version
        return State(version=game.version, view=view, clock=self.service.clocks.of(game),
                     events=[Event(**e.to_json(seat)) for e in game.events[start:]]).wire()

    async def _play(self, game: LiveGame, client: Client, msg: Play) -> Reply:
        await self.service.turns.play(game, _seat(client), msg.move, msg.version)
        return None

    async def _options(self, game: LiveGame, client: Client, msg: Options) -> Reply:
        # Checked now (an error changes nothing), worked out aside: meanwhile this
        # connection's other messages are still read.
        job = self.service.turns.read_options(game, _seat(client), msg.card, msg.uses, msg.version)
        self._ask_options(game, client, job)
        return None

    async def _hint(self, game: LiveGame, client: Client, msg: Hint) -> Reply:
        # Thought of aside: a hint may wait for the pool (computers go first), and
        # meanwhile this connection's moves must still be read.
        task = asyncio.get_running_loop().create_task(self._think(game, client))
        self.hints.add(task)
        task.add_done_callback(self.hints.discard)
        return None

    async def _undo(self, game: LiveGame, client: Client, msg: Undo) -> Reply:
        await self.service.turns.undo(game, _seat(client), msg.version)
        return None

    async def _next_round(self, game: LiveGame, client: Client, msg: NextRound) -> Reply:
        await self.service.turns.next_round(game, _seat(client), msg.version)
        return None

    async def _rematch(self, game: LiveGame, client: Client, msg: Rematch) -> Reply:
        await self.service.rooms.rematch(game, _seat(client))
        return None

    async def _resign(self, game: LiveGame, client: Client, msg: Resign) -> Reply:
        await self.service.turns.resign(game, _seat(client))
        return None

    async def _claim(self, game: LiveGame, client: Client, msg: Claim) -> Reply:
        await self.service.turns.claim(game, _seat(client), msg.seat, msg.version)
        return None

    async def _pong(self, game: LiveGame, client: Client, msg: Pong) -> Reply:
        return None

    async def _say(self, game: LiveGame, client: Client, msg: Say) -> Reply:
        return await self.service.chat.say(game, client, msg)

    async def _report(self, game: LiveGame, client: Client, msg: Report) -> Reply:
        return await self.service.chat.report(game, client, msg)

    async def _mute(self, game: LiveGame, client: Client, msg: Mute) -> Reply:
        return await self.service.chat.mute(game, client, msg)

    async def _unmute(self, game: LiveGame, client: Client, msg: Unmute) -> Reply:
        return await self.service.chat.unmute(game, client, msg)

    async def _chat_off(self, game: LiveGame, client: Client, msg: ChatOff) -> Reply:
        return await self.service.chat.set_off(game, client, msg)


def _seat(client: Client) -> int:
    """The seat of a player's connection: a spectator's messages that would need one are
    refused before their handler (:meth:`GameSocket.handle`)."""
    if client.seat is None:
        raise GameError(refusal(ANY_ACTION))
    return client.seat


#: The reply to a message: one to send (an error in words, a state; a spectator's state
#: as its JSON text), or None.
Reply = dict[str, Any] | str | None
#: Each message's handler, by its model's class: ``handler(socket, game, client, msg)``.
HANDLERS: dict[type[Message], Callable[[GameSocket, LiveGame, Client, Any],
                                       Awaitable[Reply]]] = {
    Hello: GameSocket._hello, Play: GameSocket._play, Options: GameSocket._options,
    Hint: GameSocket._hint, Undo: GameSocket._undo, NextRound: GameSocket._next_round,
    Rematch: GameSocket._rematch, Resign: GameSocket._resign, Claim: GameSocket._claim,
    Pong: GameSocket._pong, Say: GameSocket._say, Report: GameSocket._report,
    Mute: GameSocket._mute, Unmute: GameSocket._unmute, ChatOff: GameSocket._chat_off}
#: The messages that do not make their sender the game's driver (the owner of its
#: computers' turns), and that a spectator may send: a page saying hello, answering a
#: ping or chatting is not playing (docs/server.md, "Chat").
PASSIVE = (Hello, Pong, Say, Report, Mute, Unmute, ChatOff)

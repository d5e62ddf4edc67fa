"""The chat at the table and among spectators: :class:`Chat`, the service's part that
takes what people say, stores it, and hands it to the connections that may read it
(docs/server.md, "Chat").

Two rooms per game: the players' (the seats' connections) and the spectators'
(:data:`SPECTATORS`). While the game is played the players never read the spectators'
room (a spectator could tell them what they see); once it is over they do. Spectators
read only their own room: the players' talk may name cards a delayed view has not
shown yet. A game against the computer and a lesson have no chat; a room's maker may
turn its chat off (:func:`chat_for`), and anyone may turn all chat off for themselves.

Lines have their own numbers (:mod:`casino.web.chatstore`), never the game's version:
a chat line cannot make a pending move stale. What one player may say is counted per
account, else per network, in the database (:mod:`casino.web.allowances`), so the rate
holds across processes; the line's length and its characters are checked first, and a
refused line changes nothing.
"""

from __future__ import annotations

import asyncio
import logging
import re
import unicodedata
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Literal

from casino import i18n
from casino.i18n import _, ngettext, pgettext, pN_
from casino.web.allowances import Rate, hashed
from casino.web.chatstore import ChatStore, Line, game_key, person_key
from casino.web.errors import GameError
from casino.web.live import FRIENDS, LESSON, Client, LiveGame
from casino.web.messages import (
    ChatLine,
    ChatOff,
    ChatStatus,
    Mute,
    Muted,
    Report,
    Reported,
    Say,
    Unmute,
    error,
)
from casino.web.phrases import PHRASES
from casino.web.store import OVER, token_hash

if TYPE_CHECKING:
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: The two rooms of a game's chat.
Room = Literal["players", "spectators"]
PLAYERS: Room = "players"
SPECTATORS: Room = "spectators"

#: Why someone may not chat, in words (the chat's status says it; a line is refused so);
#: translated where shown (``pgettext("chat", ...)``).
NO_CHAT_HERE = pN_("chat", "there is no chat in a game against the computer or in a lesson: "
                   "chat is between people")
GAME_OFF = pN_("chat", "this game's chat is off: the room's maker turned it off")
YOU_ARE_OFF = pN_("chat", "you turned chat off: turn it on again to read and send messages")
ONE_OF = pN_("chat", "a chat message has a \"text\" or a \"phrase\", not both and not neither")
NO_SUCH_LINE = pN_("chat", "there is no such chat message in this game's chat that you can read")
YOUR_OWN = pN_("chat", "that message is your own")
NO_SUCH_MUTE = pN_("chat", "you have no such mute (it may be lifted already)")
#: What a person sent too many of, for :func:`too_fast`'s words.
CHATS = pN_("too many", "chat messages")
CHANGES = pN_("too many", "mutes and chat settings")
REPORTS = pN_("too many", "reports")
#: Characters no message may hold: the bidirectional overrides, embeddings and isolates
#: (a line that flips the next ones' order), as :func:`clean_text` removes them.
_BIDI = re.compile("[\u202a-\u202e\u2066-\u2069\u200e\u200f\u061c]")
_SPACES = re.compile(r"\s+")


def too_long(most: int) -> str:
    """Why a message is refused for its length."""
    return ngettext("that message is too long: at most %(n)s character; nothing was sent",
                    "that message is too long: at most %(n)s characters; nothing was sent",
                    most) % {"n": most}


def too_fast(rate: Rate, what: str) -> str:
    """Why a player who chatted (or reported) too much is refused, in words."""
    return (_("too many %(what)s from you: at most %(per_minute)s a minute (%(burst)s at "
              "once); wait a moment, nothing was sent")
            % {"what": pgettext("too many", what), "per_minute": f"{rate.per_minute:g}",
               "burst": rate.burst})


def chat_for(mode: str, asked: bool | None) -> bool:
    """Whether a new game has a chat: as its maker ``asked``, on by default in a room for
    friends (rated or not). A game against the computer or a lesson never has one:
    GameError when asked for."""
    if mode != FRIENDS:
        if asked:
            raise GameError(_("a lesson has no chat (chat is between people): leave \"chat\" "
                              "out") if mode == LESSON else
                            _("a game against the computer has no chat (chat is between "
                              "people): leave \"chat\" out"))
        return False
    return True if asked is None else asked


def clean_text(said: str) -> str:
    """A message as it is kept: Unicode NFC, every run of whitespace (new lines, tabs)
    one space, no control character and no bidirectional override (which would turn
    the lines after it around), trimmed. What is left may be empty (then refused)."""
    said = unicodedata.normalize("NFC", said)
    said = _BIDI.sub("", said)
    said = "".join(c for c in said if c.isspace() or unicodedata.category(c) != "Cc")
    return _SPACES.sub(" ", said).strip()


def shows_something(said: str) -> bool:
    """Whether a cleaned message has a character that shows: one made only of format
    characters (zero-width spaces and joiners, the byte order mark, soft hyphens, tag
    characters) and spaces would be a blank line in everyone's chat."""
    return any(unicodedata.category(c) not in ("Cf", "Zs") for c in said)


def said_words(line: Line) -> str:
    """A line's words, its quick phrase's for a phrase."""
    return line.text if line.text is not None else PHRASES.get(line.phrase or "", "")


@dataclass(frozen=True)
class Person:
    """Who chats on a connection: ``key`` their person key (``account <id>``, else
    ``browser <token digest>``, else ``network <net>``), the ``name`` shown, and
    ``counted``, the key their rate is counted by (their account, else their network)."""

    key: str
    name: str
    counted: str


def chat_person(counted: str, account_name: str | None, token: str | None,
                seat_name: str | None) -> Person:
    """Who chats: signed in, their account (``counted``, ``account <id>``); else the guest
    browser's token, by its digest; else (a browser without one) their network
    (``counted``). Shown by their seat's name, else their account's, else as a guest
    with a short tag of their key (the same each time, telling no secret)."""
    key = "browser " + token_hash(token) if account_name is None and token else counted
    name = seat_name or account_name or f"Guest {hashed('chat name', key)[:4]}"
    return Person(key, name, counted)


@dataclass(eq=False)
class Reader:
    """One connection's chat: who, in which game and room they speak, whether they
    turned chat off, and whom they mute (muted sender, stored form -> (mute id, name))."""

    person: Person
    game: str
    room: Room
    off: bool
    muted: dict[str, tuple[int, str]] = field(default_factory=dict)

    @property
    def stored(self) -> str:
        """The person key as stored (what a line's ``sender`` is)."""
        return person_key(self.person.key)


class Chat:
    """The chat of every game this process serves: readers by connection, lines stored
    and delivered, mutes, chat off, reports."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = ChatStore(service.store)
        self.limits = limits = service.limits
        self.rate = Rate("chat", limits.chat_per_minute, limits.chat_burst)
        self.report_rate = Rate("chat reports", limits.chat_reports_per_minute,
                                limits.chat_report_burst)
        #: Mutes, unmutes and chat off: a bucket of their own at the messages' rate, so
        #: that a browser making up a new token for each connection cannot store rows
        #: without end, and a player who chatted to their limit may still mute.
        self.settings_rate = Rate("chat settings", limits.chat_per_minute, limits.chat_burst)
        #: The connections that said hello, and their chat.
        self.readers: dict[Client, Reader] = {}
        #: Whether each game's maker turned its chat off (fixed when the game is made).
        self._game_off: dict[str, bool] = {}

    async def _db(self, work: Any, *args: Any) -> Any:
        return await self.service.live.db(work, *args)

    # ------------------------------------------------------------------
    # Who reads what

    async def closed(self, game: LiveGame, reader: Reader) -> str | None:
        """Why ``reader`` may not chat in ``game`` now, in words; None when they may."""
        if game.mode != FRIENDS:
            return pgettext("chat", NO_CHAT_HERE)
        off = self._game_off.get(game.id)
        if off is None:
            if len(self._game_off) > 4 * self.limits.live_games:
                self._game_off.clear()
            off = self._game_off[game.id] = await self._db(self.store.is_off,
                                                           game_key(game.id))
        if off:
            return pgettext("chat", GAME_OFF)
        return pgettext("chat", YOU_ARE_OFF) if reader.off else None

    @staticmethod
    def rooms(game: LiveGame, reader: Reader) -> tuple[str, ...]:
        """The rooms ``reader`` reads: spectators their own; players theirs, and the
        spectators' once the game is over."""
        if reader.room == SPECTATORS:
            return (SPECTATORS,)
        return (PLAYERS, SPECTATORS) if game.status == OVER else (PLAYERS,)

    def _shown(self, reader: Reader, line: Line) -> dict[str, Any]:
        return ChatLine(id=line.id, room=PLAYERS if line.room == PLAYERS else SPECTATORS,
                        name=line.name, text=line.text, phrase=line.phrase,
                        time=line.created.isoformat(timespec="seconds"),
                        mine=line.sender == reader.stored).wire()

    async def status(self, game: LiveGame, reader: Reader) -> dict[str, Any]:
        """The ``chat_status`` message for ``reader``."""
        reason = await self.closed(game, reader)
        return ChatStatus(room=reader.room, open=reason is None, reason=reason, off=reader.off,
                          muted=[Muted(id=i, name=n) for i, n in reader.muted.values()],
                          phrases=PHRASES, length=self.limits.chat_length).wire()

    async def join(self, game: LiveGame, client: Client, person: Person) -> None:
        """A connection said hello: it is sent its chat's status and, when it may read
        the chat, the recent lines of its rooms (at most ``chat_history``). A game that
        can have no chat (against the computer, a lesson) sends nothing: its page shows
        no chat."""
        if client in self.readers:
            return
        reader = Reader(person, game.id, PLAYERS if client.seat is not None else SPECTATORS,
                        False)
        self.readers[client] = reader
        if game.mode != FRIENDS:
            return
        await self._load(reader)
        client.send(await self.status(game, reader))
        await self._history(game, client, reader)

    async def _history(self, game: LiveGame, client: Client, reader: Reader) -> None:
        if await self.closed(game, reader) is not None:
            return
        lines = await self._db(self.store.recent, game.id, self.rooms(game, reader),
                               self.limits.chat_history)
        for line in lines:
            if line.sender not in reader.muted:
                client.send(self._shown(reader, line))

    async def _load(self, reader: Reader) -> None:
        """Read ``reader``'s chat off and mutes from the database."""
        reader.off = await self._db(self.store.is_off, reader.stored)
        mutes = await self._db(self.store.mutes, reader.person.key)
        reader.muted = {sender: (i, name) for i, sender, name in mutes}

    def leave(self, client: Client) -> None:
        """A connection closed."""
        self.readers.pop(client, None)

    # ------------------------------------------------------------------
    # Saying, hearing, delivering

    async def say(self, game: LiveGame, client: Client, msg: Say) -> dict[str, Any] | None:
        """Store ``msg`` in the sender's room and deliver it; an error (nothing stored,
        nothing counted) when they may not chat, when it is neither a text nor a phrase
        or both, too long or empty once cleaned, or when they chatted too much."""
        reader = self.readers.get(client)
        if reader is None:
            return error(_("say hello first: the chat starts with the game's state"))
        reason = await self.closed(game, reader)
        if reason is not None:
            return error(reason)
        if (msg.text is None) == (msg.phrase is None):
            return error(pgettext("chat", ONE_OF))
        said = None
        if msg.text is not None:
            said = clean_text(msg.text)
            if not shows_something(said):
                return error(_("that message is empty once its control and invisible "
                               "characters are taken out; nothing was sent"))
            if len(said) > self.limits.chat_length:
                return error(too_long(self.limits.chat_length))
        allowances = self.service.allowances
        if not await self._db(allowances.take, self.rate, reader.person.counted):
            return error(too_fast(self.rate, CHATS))
        line = await self._db(self.store.add, game.id, reader.room, reader.person.key,
                              reader.person.name, said, msg.phrase)
        self.deliver(game, line)
        return None

    def deliver(self, game: LiveGame, line: Line) -> None:
        """Send ``line`` to each connection of ``game`` here that reads its room, has
        chat on and does not mute its sender."""
        for client in list(game.clients):
            reader = self.readers.get(client)
            if (reader is None or reader.off or line.room not in self.rooms(game, reader)
                    or line.sender in reader.muted):
                continue
            client.send(self._shown(reader, line))

    def heard(self, game_id: str, line_id: int, origin: str) -> None:
        """Another process stored line ``line_id`` of ``game_id``: when the game is live
        here, the line is read and delivered to its connections here."""
        game = self.service.live.games.get(game_id)
        if (game is None or not game.clients or origin == self.service.store.origin
                or self.service.closed):
            return
        self.service.live.keep(asyncio.get_running_loop().create_task(
            self._heard(game, line_id)))

    async def _heard(self, game: LiveGame, line_id: int) -> None:
        try:
            line = await self._db(self.store.line, line_id)
        except Exception:
            log.exception("could not read chat line %s of game %s", line_id, game.id)
            return
        if line is not None and line.game == game.id:
            self.deliver(game, line)

    # ------------------------------------------------------------------
    # Mutes, chat off, reports

    async def _readable(self, game: LiveGame, reader: Reader, line_id: int) -> Line:
        """The line ``line_id``, one of ``game``'s that ``reader`` may read; GameError."""
        line: Line | None = await self._db(self.store.line, line_id)
        if line is None or line.game != game.id or line.room not in self.rooms(game, reader):
            raise GameError(pgettext("chat", NO_SUCH_LINE), 404)
        return line

    async def _tell(self, game: LiveGame, key: str, history: bool = False) -> None:
        """The person ``key``'s settings changed: each of their connections here reads
        them again and is sent its status (and, ``history``, the recent lines)."""
        for client, reader in list(self.readers.items()):
            if reader.person.key != key:
                continue
            await self._load(reader)
            shown = self.service.live.games.get(reader.game) or game
            with i18n.using(client.lang):  # a connection of theirs in another language
                client.send(await self.status(shown, reader))
            if history:
                await self._history(shown, client, reader)

    async def _too_many_changes(self, reader: Reader) -> dict[str, Any] | None:
        """Take one of ``reader``'s changes of their chat settings: the refusal, in words,
        when they are spent; None when taken."""
        if await self._db(self.service.allowances.take, self.settings_rate,
                          reader.person.counted):
            return None
        return error(too_fast(self.settings_rate, CHANGES))

    async def mute(self, game: LiveGame, client: Client, msg: Mute) -> dict[str, Any] | None:
        """Mute, for the sender only, whoever said the line ``msg.message``."""
        reader = self._reader(client)
        line = await self._readable(game, reader, msg.message)
        if line.sender == reader.stored:
            return error(pgettext("chat", YOUR_OWN))
        if refused := await self._too_many_changes(reader):
            return refused
        await self._db(self.store.mute, reader.person.key, line)
        await self._tell(game, reader.person.key)
        return None

    async def unmute(self, game: LiveGame, client: Client,
                     msg: Unmute) -> dict[str, Any] | None:
        """Lift one of the sender's mutes."""
        reader = self._reader(client)
        if refused := await self._too_many_changes(reader):
            return refused
        if not await self._db(self.store.unmute, reader.person.key, msg.mute):
            return error(pgettext("chat", NO_SUCH_MUTE))
        await self._tell(game, reader.person.key)
        return None

    async def set_off(self, game: LiveGame, client: Client,
                      msg: ChatOff) -> dict[str, Any] | None:
        """Turn all chat off (or on again) for the sender, in every game."""
        reader = self._reader(client)
        if refused := await self._too_many_changes(reader):
            return refused
        await self._db(self.store.set_off, reader.stored, msg.off)
        await self._tell(game, reader.person.key, history=not msg.off)
        return None

    async def report(self, game: LiveGame, client: Client, msg: Report) -> dict[str, Any]:
        """Store a report of the line ``msg.message`` for the operators, with the lines
        of its room before it (``chat_report_context``)."""
        reader = self._reader(client)
        line = await self._readable(game, reader, msg.message)
        if line.sender == reader.stored:
            return error(pgettext("chat", YOUR_OWN))
        if not await self._db(self.service.allowances.take, self.report_rate,
                              reader.person.counted):
            return error(too_fast(self.report_rate, REPORTS))
        before = await self._db(self.store.recent, game.id, (line.room,),
                                self.limits.chat_report_context, line.id)
        context = [{"id": b.id, "name": b.name, "said": said_words(b),
                    "time": b.created.isoformat(timespec="seconds")} for b in before]
        await self._db(self.store.report, line, said_words(line), reader.person.key,
                       reader.person.name, context)
        return Reported(message=line.id).wire()

    def _reader(self, client: Client) -> Reader:
        reader = self.readers.get(client)
        if reader is None:
            raise GameError(_("say hello first: the chat starts with the game's state"))
        return reader

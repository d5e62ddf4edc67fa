"""A game in memory: its session, seats, public log and events, and its connections.

Each :class:`LiveGame` wraps a :class:`~casino.play.session.GameSession` (which holds
the rules, the turn and the log; nothing here repeats game logic), guarded by its own
:class:`asyncio.Lock`. The session tells its ``on_change`` hook what happened, as
typed events (:mod:`casino.play.events`); the hook turns them into numbered public
events, which the service stores before any :class:`Client` hears of them. Here too
are the words a game's changes are told in, and :func:`unstoppable`, which runs a
change to its end even when the page that asked for it goes.
"""

from __future__ import annotations

import asyncio
import functools
import hmac
import time
from collections.abc import Callable, Coroutine, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, ParamSpec, TypeVar

from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.i18n import _, ngettext, pgettext
from casino.play.events import (
    GameEnded,
    MovePlayed,
    MovesTakenBack,
    RoundDealt,
    RoundEnded,
    SessionEvent,
)
from casino.play.session import HUMAN, GameSession
from casino.teach.lesson import session_step
from casino.web import messages
from casino.web.accounts.ratings import rate_when_stored
from casino.web.daily import DAILY, daily_view
from casino.web.retell import retold
from casino.web.spectators import Shown, spectator_state
from casino.web.store import (
    OVER,
    PLAYING,
    WAITING,
    WITHDRAWN,
    WITHDRAWN_WORDS,
    StoredGame,
    token_hash,
)
from casino.web.table_events import Event, told_event
from casino.web.table_words import (
    away_words,
    dealt_words,
    ending_teller,
    level_name,
    log_item,
    note_words,
    resignation_words,
    round_words,
)
from casino.web.views import (
    LogItem,
    Public,
    RoundScore,
    build_view,
    unknown_choices,
)

if TYPE_CHECKING:
    from casino.web.clocks import GameClock
    from casino.web.service import GameService

COMPUTER, FRIENDS = "computer", "friends"
#: A lesson (casino.teach.lesson): the guided first game against the beginner, from an
#: arranged deck; its views carry the lesson's step, and it is kept out of the lobby's
#: list of finished games (its deal is no secret, and it is no ordinary game).
LESSON = "lesson"


T = TypeVar("T")
P = ParamSpec("P")


async def to_the_end(work: Coroutine[Any, Any, T]) -> T:
    """Await ``work``, which runs to its end even if the caller is cancelled (a page
    that closes mid-move): a change made in memory must be stored, told and followed
    (the computers kicked), or dropped, never left half done."""
    task = asyncio.ensure_future(work)
    task.add_done_callback(_seen)
    return await asyncio.shield(task)


def _seen(task: asyncio.Future[Any]) -> None:
    """Retrieve the end of a task whose caller may be gone (no "never retrieved")."""
    if not task.cancelled():
        task.exception()


def unstoppable(method: Callable[P, Coroutine[Any, Any, T]]) -> Callable[P, Coroutine[Any, Any, T]]:
    """A method that changes a game: it runs :func:`to_the_end`."""
    @functools.wraps(method)
    async def run(*args: P.args, **kwargs: P.kwargs) -> T:
        """The method's work, run to its end even if the caller is cancelled."""
        return await to_the_end(method(*args, **kwargs))
    return run

# ----------------------------------------------------------------------
# Clients


@dataclass(eq=False)
class Client:
    """One open connection of a seat, or of a spectator (``seat`` None: docs/server.md,
    "Spectators"): the messages waiting to be sent to it.

    ``sent`` is the version the client has (None until it said hello); a
    ``None`` in the outbox means "send the state if there is news".
    """

    seat: int | None
    #: The client's address, as the limits count it (:func:`address_key`).
    address: str = ""
    #: The connection's language: what it is sent is worded in it (words made for it
    #: outside its own tasks are made in it, ``casino.i18n.using(client.lang)``).
    lang: str = "en"
    #: The messages to send: models' JSON objects, or a spectator's state as its JSON text
    #: (encoded once for every spectator: casino.web.spectators).
    outbox: asyncio.Queue[dict[str, Any] | str | None] = field(default_factory=asyncio.Queue)
    sent: int | None = None
    #: A "send the state" marker is in the outbox already (a slow reader gets one state
    #: with every event it missed, not a backlog of states).
    marked: bool = False
    #: The view changed without a new version (someone went away or came back): send it.
    stale: bool = False

    def notify(self) -> None:
        """Queue one "send the state" marker, unless one waits already or the client has not
        said hello: a slow reader gets one state, not a backlog."""
        if self.sent is not None and not self.marked:
            self.marked = True
            self.outbox.put_nowait(None)

    def refresh(self) -> None:
        """Send the state again even if the version is the same (the view changed)."""
        self.stale = True
        self.notify()

    def send(self, message: dict[str, Any] | str) -> None:
        """Queue ``message`` for the connection's writer (an error, a hint, a ping...)."""
        self.outbox.put_nowait(message)

    def close(self, code: int = 1012) -> None:
        """Close the connection once what is queued is sent (1012: "reconnect now")."""
        self.outbox.put_nowait({"type": "close", "code": code})


# ----------------------------------------------------------------------
# A game in memory


class LiveGame:
    """A game in memory: its session, seats, public log and events, and its clients."""

    def __init__(self, service: GameService, stored: StoredGame, session: GameSession,
                 log_items: list[LogItem]) -> None:
        self.service = service
        self.id = stored.id
        self.mode = stored.mode
        self.level = stored.level
        self.public = stored.public
        #: Whether the game moves its players' ratings when it ends (fixed when made).
        self.rated = stored.rated
        #: Whether anyone may watch it live, and how many moves behind (fixed when made).
        self.spectators = stored.spectators
        self.spectator_delay = stored.spectator_delay
        #: The spectators' VIEW at the version it was built for, in each language asked
        #: for (built once per version and language,
        #: :func:`~casino.web.spectators.spectator_view`).
        self.shown: dict[str, Shown] = {}
        self.invite = stored.invite
        self.creator_seat = stored.creator_seat
        self.rematch = stored.rematch
        self.created = stored.created
        self.status = stored.status
        self.seats: dict[int, str | None] = {s: h for s, (_, h) in stored.seats.items()}
        #: Its events; those read from the database are told again in each reader's
        #: language where their words are the table's (casino.web.retell).
        self.events: list[Event] = retold(stored.events, session, stored.creator_seat)
        self.session = session
        self.log = log_items
        self.lock = asyncio.Lock()
        self.clients: set[Client] = set()
        self.bot_task: asyncio.Task[None] | None = None
        #: The address whose player last acted here: the owner of its computers' thinking.
        self.driver = ""
        #: When the game last changed, and since when each person seat has had no open
        #: connection (monotonic seconds; a seat not seen since the game was loaded counts
        #: from then): together they say how long a person has been away on their turn.
        self.changed_at = time.monotonic()
        self.left_at: dict[int, float] = {seat: self.changed_at for seat in self.seats}
        #: When each seat's owner last tried to connect and was refused (a limit was full):
        #: they are trying to come back, so their absence counts from then (:meth:`away`).
        self.refused_at: dict[int, float] = {}
        self.away_timer: asyncio.TimerHandle | None = None
        #: The absence the views show now: (seat, whole minutes away), or None.
        self.away_shown: tuple[int, int] | None = None
        #: The choices (views.card_choices) of the seat to move for one position, worked
        #: out in a worker: (position, seat, choices); and the job working them out.
        self._choices: tuple[Position, int, dict[str, Any]] | None = None
        self._choosing: tuple[Position, int, asyncio.Future[dict[str, Any]]] | None = None
        self._pending: list[Event] = []
        session.on_change = self._on_change
        #: Clear while a change is being stored: no view of it may go out before it is.
        self.settled = asyncio.Event()
        self.settled.set()
        #: Reading the game again after another process changed it (at most one at a time).
        self.refreshing: asyncio.Task[None] | None = None
        #: Another process held the computer's lease: look again when it runs out.
        self.lease_timer: asyncio.TimerHandle | None = None
        #: The game's clocks as stored (None: none), and its deadline's timer (clocks.py).
        self.clock: GameClock | None = None
        self.clock_timer: asyncio.TimerHandle | None = None

    def reload(self, stored: StoredGame, session: GameSession, log_items: list[LogItem]) -> None:
        """Take the stored game (changed by another process) in place of this one in
        memory, keeping the connections, the lock and the timers. ``stored`` holds only
        the events this one lacks (``Store.load(after=...)``)."""
        self.session.on_change = None
        self.status = stored.status
        self.public = stored.public
        self.invite = stored.invite
        self.rematch = stored.rematch
        self.seats = {s: h for s, (_, h) in stored.seats.items()}
        self.events.extend(retold([e for e in stored.events if e.n > len(self.events)],
                                  session, stored.creator_seat))
        self.session = session
        self.log = log_items
        self._choices = None
        self._choosing = None
        self._pending = []
        self.shown = {}
        self.changed_at = time.monotonic()
        session.on_change = self._on_change

    # ------------------------------------------------------------------
    @property
    def version(self) -> int:
        """The game's version: the number of its events. A request made at another version
        is refused, since the game has moved on."""
        return len(self.events)

    @property
    def rules(self) -> Rules:
        """The ruleset being played."""
        return self.session.rules

    def seat_of(self, token: str | None) -> int | None:
        """The seat a token holds, compared in constant time; None for a forged one."""
        if not token or len(token) > 200:
            return None
        digest = token_hash(token)
        found = None
        for seat, h in self.seats.items():
            if h is not None and hmac.compare_digest(h, digest):
                found = seat
        return found

    def seat_of_any(self, tokens: Sequence[str]) -> int | None:
        """The seat the first of ``tokens`` that holds one holds (the browser's, an old one's)."""
        for token in tokens:
            seat = self.seat_of(token)
            if seat is not None:
                return seat
        return None

    def seat_of_account(self, account: str | None, holders: Mapping[int, str]) -> int | None:
        """The person seat ``account`` holds, by ``holders`` (the account holding each
        seat, as stored), compared in constant time as :meth:`seat_of` does; None for
        no account or none of its seats."""
        if not account:
            return None
        found = None
        for seat, holder in holders.items():
            if seat in self.seats and hmac.compare_digest(holder.encode(), account.encode()):
                found = seat
        return found

    def public_state(self, seat: int) -> Public:
        """What everyone at the table may know (names, the log, finished rounds' scores,
        the settings, who is away), and what ``seat`` may do."""
        s = self.session
        waiting = self.status == WAITING
        return Public(
            game=self.id, version=self.version, status=self.status, names=s.names,
            players=s.players, log=self.log, rounds=self.round_scores(),
            can_undo=not waiting and s.may_undo(seat),
            invite=self.invite_url if waiting else None,
            rematch=f"/rematch/{self.id}/{self.rematch}" if self.rematch else None,
            settings=s.settings, can_hint=not waiting and s.may_hint(seat),
            resign_words=None if waiting else s.resign_words(seat),
            ended=resignation_words(s), winner=s.winner, away=self.away_notice(seat),
            your_turn=self.offers_moves(seat), seed=s.match.seed,
            rated=self.rated_shown, spectators=self.watching)

    @property
    def rated_shown(self) -> bool | None:
        """Rated or casual, as the table is told (None: a game against the computer, which
        is never rated)."""
        return self.rated if self.mode == FRIENDS else None

    def round_scores(self) -> list[RoundScore]:
        """The finished rounds' scores, as every view (a seat's, the spectators') shows them."""
        return [RoundScore(r.number, r.start.scores, r.result)
                for r in self.session.match.rounds if r.result is not None]

    @property
    def watching(self) -> int:
        """How many spectators watch the game now, here and on the other processes (each
        player's view says so; the cap counts them all)."""
        return self.watching_here + self.service.audience.elsewhere(self.id)

    @property
    def watching_here(self) -> int:
        """How many spectators watch the game on this process."""
        return sum(1 for c in self.clients if c.seat is None)

    def watched(self) -> None:
        """A spectator came or went here: the other processes are told, and the players
        here shown the count."""
        self.service.audience.tell(self)
        self.show_watchers()

    def show_watchers(self) -> None:
        """The players' views are sent again with the spectators' count."""
        for c in self.clients:
            if c.seat is not None:
                c.refresh()

    def away(self) -> tuple[int, float] | None:
        """The person whose turn it is, if no connection of theirs is open: (seat, seconds away)."""
        s = self.session
        if self.status != PLAYING or not s.human_to_move:
            return None
        seat = s.to_move
        if any(c.seat == seat for c in self.clients):
            return None
        since = max(self.changed_at, self.left_at.get(seat, self.changed_at),
                    self.refused_at.get(seat, self.changed_at))
        return seat, time.monotonic() - since

    def refused(self, seat: int) -> None:
        """Note that ``seat``'s owner tried to connect and was refused: a seat whose owner
        is trying to come back is not abandoned, whoever holds the connections."""
        self.refused_at[seat] = time.monotonic()

    def refused_lately(self, seat: int) -> float | None:
        """Seconds since ``seat``'s owner was refused a connection, when that, not their
        leaving or the game's last change, is what their absence counts from; else None."""
        refused = self.refused_at.get(seat)
        if refused is None or refused <= max(self.changed_at,
                                             self.left_at.get(seat, self.changed_at)):
            return None
        return time.monotonic() - refused

    def away_notice(self, viewer: int) -> dict[str, Any] | None:
        """What the table is told of a person away on their turn past the limit."""
        away = self.away()
        limit = self.service.limits.abandon_after
        if away is None or away[1] < limit:
            return None
        seat, seconds = away
        name = self.session.names[seat]
        return {"seat": seat, "name": name, "seconds": int(seconds),
                "words": away_words(name, seconds),
                "can_claim": viewer != seat and self.session.players[viewer] == HUMAN
                and self.service.clocks.why_no_claim(self, seat) is None}

    @property
    def invite_url(self) -> str | None:
        """The room's invite link (a path), or None for a game without one."""
        return f"/join/{self.id}/{self.invite}" if self.invite else None

    def offers_moves(self, seat: int) -> bool:
        """Whether ``seat`` is offered moves now (as the VIEW's ``your_turn`` says): the
        table is full and playing, and the session lets them play
        (:meth:`~casino.play.session.GameSession.why_no_play`)."""
        return self.status == PLAYING and self.session.may_play(seat)

    def _ready_choices(self, seat: int) -> dict[str, Any] | None:
        got = self._choices
        if got is not None and got[0] is self.session.match.position and got[1] == seat:
            return got[2]
        return None

    async def prepare(self, seat: int) -> None:
        """Work out ``seat``'s choices for the position now, if it is their turn.

        In the service's selection workers, under ``select_seconds``: a crowded table
        can cost the engine real time, which must not stall the event loop. Every
        connection of the seat waits for the same job, and a position's choices are
        worked out once. When this returns (no await follows), :meth:`view` finds them.
        """
        for _attempt in range(3):
            if not self.offers_moves(seat) or self._ready_choices(seat) is not None:
                return
            pos = self.session.match.position
            pending = self._choosing
            if pending is None or pending[0] is not pos or pending[1] != seat:
                job = asyncio.ensure_future(self.service.turns.choices_of(
                    self.session.view_of(seat), game=self.id))
                pending = self._choosing = (pos, seat, job)
            got = await asyncio.shield(pending[2])
            if self._choosing is pending:
                self._choosing = None
            self._choices = (pos, seat, got)
        # The game moved on under every try: say so rather than work it out here.
        if self.offers_moves(seat) and self._ready_choices(seat) is None:
            self._choices = (self.session.match.position, seat, unknown_choices(
                self.session.view_of(seat), _("the game moved on while your moves were "
                                              "worked out")))

    async def view_ready(self, seat: int) -> dict[str, Any]:
        """:meth:`view` with its choices worked out first (:meth:`prepare`), of the
        stored game: while a change is being stored, it waits for it. Nothing is
        awaited between its return and the caller's reading of :attr:`version`."""
        await self._ready(seat)
        return self.view(seat)

    async def _ready(self, seat: int | None) -> None:
        """Wait until no change is being stored and ``seat``'s choices are worked out
        for the position then (no await between its return and the caller's view); a
        spectator (None) has no choices."""
        while True:
            await self.settled.wait()
            if seat is not None:
                await self.prepare(seat)
            if self.settled.is_set():
                return

    def view(self, seat: int) -> dict[str, Any]:
        """The VIEW of ``seat``: from its observation and the public facts only.

        Its choices are those :meth:`prepare` worked out; without them (a caller that
        did not prepare) they are worked out here, on the caller's thread.
        """
        view = build_view(self.session.view_of(seat), seat, self.public_state(seat),
                          self._ready_choices(seat))
        if view["invite"] is not None and seat != self.creator_seat:
            view["invite"] = None
        message = self._message(seat)
        if message is not None:
            view["message"] = message
        # A lesson's step, from what this seat sees (session_step reads its observation).
        view["lesson"] = (session_step(self.session, seat).to_json()
                          if self.mode == LESSON else None)
        if self.mode == DAILY:  # played to the end, once: the results follow
            daily_view(view, self.id, self.session)
        self.service.clocks.dress(self, view)
        return view

    def _message(self, seat: int) -> str | None:
        """The view's message for ``seat``, if the game has one for it now: a room waiting
        for its players or withdrawn, or a seat the computer plays."""
        if self.status == WAITING:
            free = sum(1 for h in self.seats.values() if h is None)
            return ngettext("Waiting for %(n)s more player: share the invite link.",
                            "Waiting for %(n)s more players: share the invite link.",
                            free) % {"n": free}
        if self.status == WITHDRAWN:
            words = pgettext("room", WITHDRAWN_WORDS)
            return words[0].upper() + words[1:] + "."
        if self.session.players[seat] != HUMAN and self.status == PLAYING:
            return (_("The computer (%(level)s) plays your seat now: you are watching.")
                    % {"level": level_name(self.session.players[seat])})
        return None

    async def state_ready(self, client: Client) -> dict[str, Any] | str | None:
        """:meth:`state_for`, the client's choices worked out first (:meth:`prepare`),
        of a stored game: while a change is being stored, it waits for it."""
        await self._ready(client.seat)
        return self.state_for(client)

    def state_for(self, client: Client) -> dict[str, Any] | str | None:
        """The state message a client has not yet had (None when it is up to date); a
        spectator's as its JSON text."""
        client.marked = False
        stale, client.stale = client.stale, False
        since = client.sent or 0
        if client.sent is not None and since >= self.version and not stale:
            return None
        if client.seat is None:
            client.sent = self.version
            return spectator_state(self, since, self.watching)
        events = [messages.Event(**e.to_json(client.seat)) for e in self.events[since:]]
        client.sent = self.version
        return messages.State(version=self.version, events=events, view=self.view(client.seat),
                              clock=self.service.clocks.of(self)).wire()

    def notify(self) -> None:
        """Tell every connection that there is news, and look again at who is away on their
        turn. The players first: their writers then run before the spectators', so a
        crowd of spectators does not stand between a player and the answer to their move."""
        for c in self.clients:
            if c.seat is not None:
                c.notify()
        for c in self.clients:
            if c.seat is None:
                c.notify()
        self.service.turns.watch(self)

    def forget_timer(self) -> None:
        """Stop the game's timers (the away notice's, and the look at another process's
        lease): the game is leaving memory, or the server is closing."""
        if self.away_timer is not None:
            self.away_timer.cancel()
            self.away_timer = None
        if self.lease_timer is not None:
            self.lease_timer.cancel()
            self.lease_timer = None
        if self.clock_timer is not None:
            self.clock_timer.cancel()
            self.clock_timer = None

    # ------------------------------------------------------------------
    # The change hook: every change of the session becomes events and a commit

    def _on_change(self, session: GameSession, happened: Sequence[SessionEvent]) -> None:
        """Turn what the session says happened into numbered public events, kept for the
        service's flush, which stores them before anyone is told."""
        names = session.names
        events: list[Event] = []

        def add(kind: str, seat: int | None, text: str | None, say: Callable[[], str],
                say_you: Callable[[], str] | None = None) -> None:
            n = self.version + len(self._pending) + len(events) + 1
            events.append(told_event(n, kind, seat, text, say, say_you))

        for event in happened:
            if isinstance(event, MovePlayed):
                item = log_item(event.seat, event.before, event.move, event.after, names)
                self.log.append(item)
                add("move", event.seat, item.text, item.told, item.told_you)
            elif isinstance(event, RoundEnded):
                add("round_end", None, None, functools.partial(
                    round_words, session.rules, names, event.position.round,
                    event.result.scores))
            elif isinstance(event, GameEnded):
                ending = ending_teller(session, event)
                if ending is not None:
                    add("game_over", event.winner, None, ending)
                if self.rated:
                    rate_when_stored(self)
            elif isinstance(event, RoundDealt):
                add("next_round", event.position.dealer, None, functools.partial(
                    dealt_words, session.rules, names, event.position.round,
                    event.position.dealer))
            else:
                note = event.note
                if isinstance(event, MovesTakenBack):
                    del self.log[len(self.log) - len(note.taken):]
                add(note.kind, note.seat, None,
                    functools.partial(note_words, note, names[note.seat]),
                    functools.partial(note_words, note, names[note.seat], you=True))
        if session.game_over or (self.mode == DAILY and session.round_over):
            self.status = OVER  # a daily deal is one round
        if events:
            self.changed_at = time.monotonic()
            self._pending.extend(events)

    def take_pending(self) -> list[Event]:
        """The events made since the last call, taken away: the service's flush stores each
        once."""
        events, self._pending = self._pending, []
        return events

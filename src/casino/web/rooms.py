"""Rooms and seats: :class:`Rooms` makes games and rooms, seats the friends an invite
brings, starts rematches, lists the lobby's games and moves old cookies' seats.

A room waits for friends; how many rooms an address, a network and the server may keep
waiting is bounded (:class:`~casino.web.limits.Limits`), counted in the database so that
the bounds hold however many processes serve (:mod:`casino.web.allowances`), and a room
nobody joins lapses.
"""

from __future__ import annotations

import datetime as dt
import functools
import hmac
import secrets
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.engine.errors import CasinoError
from casino.engine.match import Match
from casino.engine.record import Settings, write_record
from casino.engine.rules import preset
from casino.i18n import _, ngettext, pgettext
from casino.play.names import shown_names
from casino.play.session import HUMAN, default_settings
from casino.teach.lesson import OPPONENT_LEVEL, lesson_match
from casino.web import clockstore
from casino.web.accounts.names import as_guest, skeleton
from casino.web.accounts.ratings import check_rated_join, check_rated_room
from casino.web.accounts.store import Account, AccountStore
from casino.web.allowances import Rate
from casino.web.bodies import Mode
from casino.web.challenges import CHALLENGE, challenges_for, check_addressee, described
from casino.web.chat import chat_for
from casino.web.chatstore import ChatStore, game_key
from casino.web.clocks import timed
from casino.web.daily import DAILY, PLAYED_ONCE
from casino.web.errors import GameError, clean_name
from casino.web.limits import address_key, network_key
from casino.web.live import FRIENDS, LESSON, LiveGame, unstoppable
from casino.web.messages import RematchReady
from casino.web.seats import new_token
from casino.web.store import (
    OVER,
    PLAYING,
    WAITING,
    WITHDRAWN,
    WITHDRAWN_WORDS,
    GameRow,
    MovedOn,
    now,
    token_hash,
)
from casino.web.table_events import told_event
from casino.web.table_words import joined_words, rematch_words, replayed_log
from casino.web.timecontrol import TimeControl
from casino.words.narrate import YOU

if TYPE_CHECKING:
    from casino.web.service import GameService

#: The key under which the server's waiting rooms are counted (one lock for them all).
EVERY_ROOM = "every room"


@dataclass(frozen=True)
class Created:
    """A new game: its id, the creator's seat token (for the cookie) and invite link."""

    game: str
    token: str
    seat: int
    invite: str | None


class Rooms:
    """The games' making and seating: new games and rooms (within each address's,
    network's and the server's allowance), invites and the seats they give, rematches,
    the lobby's lists, and the seats of old cookies moved to the browser's token."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        self.limits = service.limits
        #: The accounts' seats (an account holds the seats it takes signed in).
        self.accounts = AccountStore(service.store)
        #: New games per address, counted across the processes.
        self.new_games = Rate("new games", self.limits.games_per_minute,
                              self.limits.games_burst)

    # ------------------------------------------------------------------
    # Creating and joining

    def create(self, *, rules: str, players: int, level: str, mode: Mode,
               name: str | None, public: bool = False, people: int | None = None,
               client: str = "", seed: int | None = None, token: str | None = None,
               hints: bool | None = None, takebacks: bool | None = None,
               account: Account | None = None, rated: bool = False,
               addressee: str | None = None, spectators: bool | None = None,
               spectator_delay: int = 0, chat: bool | None = None,
               clock: Mapping[str, Any] | None = None) -> Created:
        """A new game against computers, or a room waiting for friends.

        ``token`` is the creating browser's token (a new one is made if it has none);
        ``account`` the account signed in there, if any, which holds the seat too and
        names it (:meth:`person`).
        ``hints`` and ``takebacks`` are the table's settings; None takes the default
        (on against the computer, off between people). ``rated``: whether the game
        moves its players' ratings (a room of signed-in people only:
        :func:`~casino.web.accounts.ratings.check_rated_room`). ``addressee``: the
        account name a challenge is sent to (:mod:`casino.web.challenges`), whose the
        second seat is: it is named so, and its invite marked a challenge's.
        ``spectators``: whether the game may be watched (None: :func:`watchable`'s
        default), ``spectator_delay`` moves behind. ``chat``: whether the players may
        chat (None: :func:`~casino.web.chat.chat_for`'s default). ``clock``: the room's
        time control (:class:`~casino.web.timecontrol.ClockBody`'s fields; None: no clock).

        The arguments' types and ranges, the mode, the level and the rules' name are
        the request's model's to check (:class:`~casino.web.bodies.NewGame`); what
        needs the rules is checked here, as GameError: whether the preset takes
        ``players``, a room's ``people`` out of its seats, and the name's length.
        """
        check_rated_room(rated, mode, account)  # before anything is counted
        spectators = watchable(mode, rated, spectators)
        chat = chat_for(mode, chat)
        control = timed(mode, clock)
        if not self.service.allowances.take(self.new_games, address_key(client)):
            raise GameError(_("too many new games from your address: wait a minute"), 429)
        if mode == LESSON:  # always two players, the learner against the beginner
            players, level, seed = 2, OPPONENT_LEVEL, None
        try:
            r = preset(rules, players=players)
        except CasinoError as e:
            raise GameError(str(e)) from None
        if mode != FRIENDS:
            people = 1
        elif people is None:
            people = r.players
        if not (1 if mode != FRIENDS else 2) <= people <= r.players:
            raise GameError(_("a room is for 2 to %(players)s people in a %(players)s-player "
                              "game") % {"players": r.players})
        check_rated_room(rated, mode, account, people=people, seats=r.players)
        default = default_settings(people)
        settings = Settings(hints=default.hints if hints is None else hints,
                            takebacks=default.takebacks if takebacks is None else takebacks)
        seats = [HUMAN if s < people else level for s in range(r.players)]
        # A person alone against computers is "You" to themselves, but not to spectators
        # ("You takes the 7"): a game that may be watched names them as a room does.
        first = self.person(name, YOU if mode != FRIENDS and not spectators else "Player 1",
                            account)
        names = _names(seats, first)
        if addressee is not None:
            names[1] = addressee
        game_id = secrets.token_hex(8)
        token = token or new_token()
        invite = secrets.token_urlsafe(12) if mode == FRIENDS else None
        if invite is not None and addressee is not None:
            invite = CHALLENGE + invite
        status = WAITING if mode == FRIENDS else PLAYING
        if mode == FRIENDS and not chat:  # written first: a game never shows chat it has not
            ChatStore(self.store).set_off(game_key(game_id), True)
        match = lesson_match(r.name) if mode == LESSON else Match(r, seed=seed)
        person_seats: dict[int, tuple[str, str | None]] = {
            s: (names[s], token_hash(token) if s == 0 else None)
            for s in range(r.players) if seats[s] == HUMAN}
        self.store.create(game_id=game_id, rules=r.name, players=r.players, names=names,
                          mode=mode,
                          level=level, status=status, public=public and mode == FRIENDS,
                          invite=invite, creator_seat=0,
                          record=write_record(match, names, seats, table=settings),
                          seats=person_seats, rated=rated, spectators=spectators,
                          spectator_delay=spectator_delay if spectators else 0,
                          within=self._made_within(game_id, client, mode, control,
                                                   r.players))
        if account is not None:
            self.accounts.hold(account.id, game_id, 0)
        return Created(game_id, token, 0, f"/join/{game_id}/{invite}" if invite else None)

    def person(self, name: str | None, default: str, account: Account | None) -> str:
        """The name of a seat being taken: the account's, when one is signed in; else the
        guest's ``name`` (``default`` when blank), marked " (guest)" when it looks like
        an account's name (:func:`~casino.web.accounts.names.skeleton`), so that nobody
        passes for an account at the table (docs/server.md, "Accounts"). In a database
        thread."""
        if account is not None:
            return account.name
        person = clean_name(name, default, self.limits.name_length)
        if person != default and self.accounts.is_taken(skeleton(person)):
            return as_guest(person, self.limits.name_length)
        return person

    def _made_within(self, game_id: str, client: str, mode: str, control: TimeControl,
                     players: int) -> Callable[[Session, dt.datetime], None]:
        """What a new game's transaction writes besides the game: a room's count
        (:meth:`_room_space`) and its clock's row (:mod:`casino.web.clocks`)."""
        room = self._room_space(game_id, client) if mode == FRIENDS else None
        clock = self.service.clocks.made(game_id, control, players)

        def within(s: Session, created: dt.datetime) -> None:
            """Count the room, then write the clock."""
            if room is not None:
                room(s, created)
            clock(s)

        return within

    def _clock_of(self, game: LiveGame,
                  new_id: str) -> Callable[[Session, dt.datetime], None] | None:
        """The clock's row of ``game``'s rematch ``new_id``: the same control (None: none)."""
        if game.clock is None:
            return None
        made = self.service.clocks.made(new_id, game.clock.control, game.rules.players)
        return lambda s, _created: made(s)

    def _room_space(self, game_id: str, client: str) -> Callable[[Session, dt.datetime],
                                                                 None]:
        """The check, in the new room's own transaction, that there is room for one more
        waiting room from ``client``'s address, its network and on the server; and the
        count of the room against the address and the network once there is.

        The counts are read under a lock on each key (:meth:`Allowances.lock`), so
        that two processes making a network's last room at once make one; the keys are
        stored hashed, and forgotten when their rooms start or lapse."""
        allowances = self.service.allowances
        keys = ((address_key(client), self.limits.rooms_per_address, True),
                (network_key(client), self.limits.rooms_per_network, False))

        def check(s: Session, created: dt.datetime) -> None:
            """Raise GameError (nothing is made) when a count is full."""
            cutoff = self._room_cutoff()
            allowances.lock(s, [EVERY_ROOM, *(key for key, _, _ in keys)])
            for key, limit, yours in keys:
                waiting = allowances.waiting_rooms(s, key, cutoff)
                if waiting >= limit:
                    minutes = round(self.limits.room_lifetime / 60)
                    raise GameError(too_many_rooms(yours, waiting, minutes), 429)
            others = s.scalar(select(func.count()).select_from(GameRow).where(
                GameRow.status == WAITING, GameRow.created >= cutoff,
                GameRow.id != game_id)) or 0
            if others >= self.limits.waiting_rooms:
                raise GameError(_("there are too many rooms waiting for players right now; "
                                  "try again later or play against the computer"), 503)
            allowances.count_room(s, game_id, (key for key, _, _ in keys), created)

        return check

    def _room_cutoff(self) -> dt.datetime:
        return now() - dt.timedelta(seconds=self.limits.room_lifetime)

    async def invited(self, game_id: str, code: str) -> LiveGame:
        """The room an invite opens, while it has a free seat; GameError saying why not."""
        game = await self.service.live.get(game_id)
        if game is None or game.invite is None or not hmac.compare_digest(
                game.invite.encode(), code.encode()[:200]):
            raise GameError(_("this invite link is not valid: check that you copied all of "
                              "it"), 404)
        self._check_open(game)
        return game

    def _check_open(self, game: LiveGame) -> None:
        if game.status == WITHDRAWN:
            raise GameError(pgettext("room", WITHDRAWN_WORDS), 410)
        if game.status != WAITING:
            raise GameError(_("this game has already started: all its seats are taken"), 409)
        if game.created < self._room_cutoff():
            raise GameError(_("this invite has lapsed: ask for a new one"), 410)

    @unstoppable
    async def join(self, game_id: str, code: str, name: str | None,
                   token: str | None = None,
                   account: Account | None = None) -> tuple[str, int]:
        """Take a free seat of a room with its invite code for the browser ``token``, and
        for ``account`` when one is signed in there (it then names the seat).

        Returns (the token, now holding the seat, new if there was none; the seat).
        """
        game = await self.invited(game_id, code)
        if game.rated:
            holders = await self.service.live.db(self.accounts.holders, game.id)
            check_rated_join(account, holders)
        async with game.lock:
            self._check_open(game)  # again: someone may have joined meanwhile
            free = sorted(s for s, h in game.seats.items() if h is None)
            seat = free[0]
            s = game.session
            check_addressee(code, seat, s.names[seat], account)
            person = await self.service.live.db(self.person, name, f"Player {seat + 1}",
                                                account)
            s.names = tuple(person if k == seat else n for k, n in enumerate(s.names))
            token = token or new_token()
            full = len(free) == 1
            status = PLAYING if full else WAITING
            event = told_event(game.version + 1, "joined", seat, None,
                               functools.partial(joined_words, person, full),
                               functools.partial(joined_words, None, full))
            try:
                ok = await self.service.live.db(self.store.take_seat, game.id, seat, person,
                                   token_hash(token), record=s.record_text(), names=s.names,
                                   status=status, version=event.n, events=[event])
            except MovedOn:
                raise await self.service.live.moved_on(game) from None
            if not ok:
                self.service.live.drop(game)
                raise GameError(_("someone took that seat a moment ago: open the link again"), 409)
            if account is not None:
                await self.service.live.db(self.accounts.hold, account.id, game.id, seat)
            game.seats[seat] = token_hash(token)
            game.status = status
            game.changed_at = time.monotonic()  # a turn begins now, not when the room was made
            game.events.append(event)
            game.log = replayed_log(s)  # the names in the words changed
            await self.service.clocks.settle(game)  # a full room's first turn runs its clock
        game.notify()
        self.service.computers.kick(game)
        return token, seat

    @unstoppable
    async def rematch(self, game: LiveGame, seat: int) -> str:
        """The rematch of a finished game (made once): same rules, players, seats and names."""
        async with game.lock:
            if game.status != OVER:
                raise GameError(_("a rematch is offered once the game is over"))
            if game.mode == DAILY:
                raise GameError(pgettext("daily", PLAYED_ONCE))
            if game.rematch is None:
                s = game.session
                new_id = secrets.token_hex(8)
                match = lesson_match(s.rules.name) if game.mode == LESSON else Match(s.rules)
                # The same table: every person's seat is a person's again (a seat a
                # computer took over included), with the same settings.
                players = [HUMAN if k in game.seats else p for k, p in enumerate(s.players)]
                chat = ChatStore(self.store)
                if await self.service.live.db(chat.is_off, game_key(game.id)):
                    await self.service.live.db(chat.set_off, game_key(new_id), True)
                await self.service.live.db(
                    self.store.create, game_id=new_id, rules=s.rules.name, players=s.rules.players,
                    names=s.names,
                    mode=game.mode, level=game.level, status=PLAYING, public=False,
                    invite=None, creator_seat=game.creator_seat,
                    record=write_record(match, s.names, players, table=s.settings),
                    seats={k: (s.names[k], h) for k, h in game.seats.items()},
                    rated=game.rated, spectators=game.spectators,
                    spectator_delay=game.spectator_delay,
                    within=self._clock_of(game, new_id))
                event = told_event(game.version + 1, "rematch", seat, None,
                                   functools.partial(rematch_words, s.names[seat]),
                                   functools.partial(rematch_words, None))
                try:
                    await self.service.live.db(self.store.save, game.id, record=s.record_text(),
                                  status=game.status, version=event.n, events=[event],
                                  winner=s.winner)
                except MovedOn:
                    raise await self.service.live.moved_on(game) from None
                await self.service.live.db(self.accounts.follow, game.id, new_id)
                await self.service.live.db(self.store.set_rematch, game.id, new_id)
                game.rematch = new_id
                game.events.append(event)
            url = f"/rematch/{game.id}/{game.rematch}"
        for c in game.clients:
            c.send(RematchReady(url=url, game=game.rematch).wire())
        game.notify()
        return url

    # ------------------------------------------------------------------
    # Lists for the lobby

    def lists(self, token: str | None,
              account: Account | None = None) -> dict[str, list[dict[str, Any]]]:
        """Open rooms (public ones, and the caller's own) and recent games.

        ``token`` is the caller's browser token (from its cookie): its games are
        those where its hash holds a seat, and those of the ``account`` signed in there.
        """
        mine = set(self.store.games_of(token_hash(token))) if token else set()
        if account is not None:
            mine.update(self.accounts.games(account.id))
        cutoff = self._room_cutoff()
        public = self.store.listing(status=WAITING, limit=50, since=cutoff, public=True)
        own = self.store.listing(status=WAITING, limit=50, since=cutoff, ids=list(mine))
        playing = self.store.listing(status=PLAYING, limit=50, ids=list(mine))
        # Finished lessons are no ordinary games: not listed for everyone; nor are daily
        # deals' (a game's id is its secret link, and today's are secret until tomorrow).
        over = [g for g in self.store.listing(status=OVER, limit=30)
                if g.mode not in (LESSON, DAILY)]
        seen: set[str] = set()
        open_rooms = []
        for g in own + public:
            if g.id in seen:
                continue
            seen.add(g.id)
            open_rooms.append(listed_json(g, join=f"/join/{g.id}/{g.invite}"
                                           if g.invite else None, url=g.id in mine))
        recent = [listed_json(g, url=True) for g in playing]
        recent += [listed_json(g, url=g.id in mine) for g in over]
        recent.sort(key=lambda e: e["updated"] or "", reverse=True)
        challenges = ([listed_json(g, join=f"/join/{g.id}/{g.invite}")
                       for g in challenges_for(self.store, account.name, cutoff)]
                      if account is not None else [])
        # Live games anyone may watch, the browser's own included (its players may share
        # the spectators' link).
        live = [listed_json(g, url=g.id in mine) for g in
                self.store.listing(status=PLAYING, limit=30, spectators=True)]
        described(self.store, open_rooms + challenges + recent + live)
        clockstore.listed(self.store, open_rooms + challenges + recent + live,
                          token_hash(token) if token else None,
                          account.id if account else None, self.service.clocks.now())
        return {"open": open_rooms, "recent": recent, "challenges": challenges, "live": live}

    def adopt(self, legacy: dict[str, str], token: str) -> list[str]:
        """Move the seats held by old per-game cookies to the browser's ``token``.

        ``legacy`` is the old tokens by game id; returns the games whose seat
        moved. A game where the browser already holds a seat keeps it as it is.
        """
        new = token_hash(token)
        held = set(self.store.games_of(new, limit=100_000))
        moved = []
        for game_id, old in legacy.items():
            if game_id in held:
                continue
            game = self.service.live.games.get(game_id)
            seat = self.store.rebind(game_id, token_hash(old), new)
            if seat is None:
                continue
            if game is not None:
                game.seats[seat] = new
            moved.append(game_id)
        return moved


def watchable(mode: str, rated: bool, asked: bool | None) -> bool:
    """Whether a new game may be watched (docs/server.md, "Spectators"): as its maker
    ``asked``, else by default a rated game may (its players play in the open, and others
    learn from watching) and any other may not (friends and a player against the computer
    play among themselves unless they say so). A lesson never may: it is a learner's own
    first game, and its deck is arranged."""
    if mode == LESSON:
        if asked:
            raise GameError(_("a lesson cannot be watched: leave \"spectators\" out"))
        return False
    return rated if asked is None else asked


def too_many_rooms(yours: bool, waiting: int, minutes: int) -> str:
    """The refusal of one more waiting room from an address (``yours``) or its network
    that has ``waiting`` already, a room waiting ``minutes``, in the language in force."""
    values = {"n": waiting, "minutes": minutes}
    if yours:
        return ngettext("you have %(n)s room waiting for players already; use it, or wait "
                        "for it to lapse (a room waits %(minutes)s minutes)",
                        "you have %(n)s rooms waiting for players already; use one of "
                        "them, or wait for one to lapse (a room waits %(minutes)s minutes)",
                        waiting) % values
    return ngettext("your network has %(n)s room waiting for players already; use it, or "
                    "wait for it to lapse (a room waits %(minutes)s minutes)",
                    "your network has %(n)s rooms waiting for players already; use one of "
                    "them, or wait for one to lapse (a room waits %(minutes)s minutes)",
                    waiting) % values


def _names(seats: Sequence[str], first: str) -> list[str]:
    computers = [s for s, p in enumerate(seats) if p != HUMAN]
    names = []
    for s, p in enumerate(seats):
        if s == 0:
            names.append(first)
        elif p == HUMAN:
            names.append(f"Player {s + 1}")
        elif len(computers) == 1:
            names.append("Computer")
        else:
            names.append(f"Computer {computers.index(s) + 1}")
    return names


def listed_json(g: Any, *, join: str | None = None, url: bool = False) -> dict[str, Any]:
    """A game as the lobby's lists show it (the one shape of a listed game, for the open
    rooms, the recent games and the challenges): ``join`` its invite, ``url`` whether
    the asker may open it."""
    from casino.engine.presets import short_title

    return {"game": g.id, "rules": g.rules, "title": short_title(g.rules), "players": g.players,
            "names": list(shown_names(g.names)), "status": g.status, "mode": g.mode,
            "updated": g.updated.isoformat() if g.updated else None,
            "url": f"/game/{g.id}" if url else None, "join": join,
            "record": f"/records/{g.id}" if g.status == OVER else None,
            "winner": g.winner, "rated": False, "rating": None, "guest": False,
            "challenge": None, "clock": None, "turn": None,
            "watch": f"/watch/{g.id}" if g.status == PLAYING and g.spectators else None}

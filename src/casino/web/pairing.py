"""Pairing (issue 46): "Play someone now" and the seeks it waits in (docs/server.md,
"Pairing").

A seek is a public room waiting for players, stored in the games table like any other
room, so every process sees it and no table of its own is needed: "Play someone now"
joins the best open public room of the preset, player count and rated or casual choice
asked for, and when there is none makes one (the player's seek) and answers that it is
waiting. The lobby then asks again every few seconds with its seek's id, so that two
players who each made a seek are paired too: the newer seeker joins the older seek, and
its own is withdrawn.

Design decisions, and why:

* **A rating range that widens with the wait.** A room is a match when its creator's
  rating (a guest's, or an account new to the pool: :data:`NEW_RATING`) is within
  :func:`rating_range` of the seeker's, the range of the room's own age (from its stored
  creation time, so every process agrees and the tests give the time): the one who has
  waited longer has the wider range, and after :data:`OPEN_AFTER` seconds anyone will do.
* **Nearest first.** Of the matches, the nearest rating is joined, the oldest room first
  on ties (it has waited longest).
* **Bounded.** Only the :data:`SCAN` oldest open rooms of the pool are looked at, so the
  work of a request is bounded however many rooms wait.
* **One seek per player.** A player (the account, else the guest's browser, by its
  seat token) keeps one seek: a second replaces the first (withdrawn), as pressing the
  button again after reloading the lobby means "this is what I want now", not "keep
  two". A guest is their browser here, not their network (as
  :func:`~casino.web.requester.requester` counts them elsewhere): two guests of one
  home or office pressing the button are to be paired with each other, not to withdraw
  each other's seeks; how many rooms a network keeps waiting is bounded by the rooms'
  own limits (:meth:`~casino.web.rooms.Rooms.create`). A player's seeks are found in
  the database (:meth:`Pairing.seeks_of`: the waiting public rooms whose maker's seat
  the player holds), so that a second ask replaces the first whichever process it
  reaches.
* **Asked within a limit.** Each player (the account, else the guest's network:
  :func:`~casino.web.requester.requester`) may ask :data:`ASKS_PER_MINUTE` times a
  minute (a burst of :data:`ASKS_BURST`), counted across the processes
  (:mod:`casino.web.allowances`): a waiting lobby asks every 5 seconds, twelve a
  minute, and each ask scans at most :data:`SCAN` rooms.
* **Withdrawn, not deleted.** A withdrawn seek's status becomes :data:`WITHDRAWN` (its
  version moves on, so no process seats anyone in it any more): listed nowhere, its
  invite refused.
"""

from __future__ import annotations

import datetime as dt
import functools
import math
import weakref
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy import select
from sqlalchemy.orm import Session

from casino.engine.errors import CasinoError
from casino.engine.rules import preset
from casino.i18n import _, pgettext, pN_
from casino.measure.glicko2 import Rating
from casino.web.accounts.ratings import check_rated_room
from casino.web.accounts.store import Account, AccountGameRow, RatingRow
from casino.web.allowances import Rate
from casino.web.clocks import timed
from casino.web.clockstore import CLOCKS, same_clock
from casino.web.errors import GameError
from casino.web.live import FRIENDS, LiveGame, unstoppable
from casino.web.requester import holder_words
from casino.web.store import (
    WAITING,
    WITHDRAWN,
    GameRow,
    MovedOn,
    SeatRow,
    now,
    token_hash,
)
from casino.web.table_events import told_event
from casino.web.table_words import seek_withdrawn
from casino.web.timecontrol import TimeControl

if TYPE_CHECKING:
    from casino.web.service import GameService

#: The rating range at first (±), what it widens by every :data:`STEP_SECONDS` of a
#: room's wait, and the wait after which any rating will do.
FIRST_RANGE, STEP_RANGE, STEP_SECONDS, OPEN_AFTER = 100.0, 50.0, 10.0, 120.0
#: How many of a pool's oldest open rooms a request looks at.
SCAN = 200
#: The rating a guest or an account new to the pool is paired as (Glicko-2's start).
NEW_RATING = Rating().rating
#: How often a player may ask to be paired (a minute's asks, and at once).
ASKS_PER_MINUTE, ASKS_BURST = 30, 10
#: The refusal of a seek id that is not the caller's.
NOT_YOUR_SEEK = pN_("pairing", "\"seek\" is the id of your own seek, as the last answer "
                               "gave it")


def too_often(asker: str) -> str:
    """The refusal of an ask beyond :data:`ASKS_PER_MINUTE`, saying whose count it is."""
    return (_("%(holder)s asked to be paired too often: at most %(n)s times a minute")
            % {"holder": holder_words(asker), "n": ASKS_PER_MINUTE})


def rating_range(age: float) -> float:
    """How far (±) a room's creator's rating may be from the seeker's, the room having
    waited ``age`` seconds: :data:`FIRST_RANGE`, widening by :data:`STEP_RANGE` every
    :data:`STEP_SECONDS`, without limit after :data:`OPEN_AFTER`."""
    if age >= OPEN_AFTER:
        return math.inf
    return FIRST_RANGE + STEP_RANGE * math.floor(max(age, 0.0) / STEP_SECONDS)


@dataclass(frozen=True)
class Seek:
    """An open public room as pairing sees it: its invite, when it was made, and who made
    it (the account, or only the browser's token hash for a guest) at what rating."""

    game: str
    invite: str
    created: dt.datetime
    account: str | None
    holder: str | None
    rating: float | None
    status: str = WAITING
    #: The seek's preset, player count, choice and clock (known of the player's own).
    pool: tuple[str, int, bool, TimeControl] | None = None


@dataclass(frozen=True)
class Paired:
    """What "Play someone now" came to: the game, and whether it is the player's own seek
    still waiting (else a game with an opponent); ``token`` the browser's seat token."""

    game: str
    waiting: bool
    token: str | None


class Pairing:
    """The seeks of one app's service: finding a match, making and withdrawing seeks."""

    def __init__(self, service: GameService) -> None:
        self.service = service
        self.store = service.store
        #: The time now; the tests give their own, so that no test waits.
        self.clock: Callable[[], dt.datetime] = now
        #: Each player's asks (:data:`ASKS_PER_MINUTE`), by requester identity.
        self.asks = Rate("pairing asks", ASKS_PER_MINUTE, ASKS_BURST)

    # ------------------------------------------------------------------
    # Queries (database threads)

    def open_seeks(self, rules: str, players: int, rated: bool,
                   since: dt.datetime, control: TimeControl | None = None) -> list[Seek]:
        """The :data:`SCAN` oldest public rooms of the pool still waiting (made after
        ``since``), of the time ``control`` (None: none), with their creators and
        ratings."""
        with self.store.sessions() as s:
            rows = list(s.execute(
                select(GameRow.id, GameRow.invite, GameRow.created, GameRow.creator_seat)
                .outerjoin(CLOCKS, CLOCKS.c.game == GameRow.id)
                .where(GameRow.status == WAITING, GameRow.public.is_(True),
                       GameRow.mode == FRIENDS, GameRow.rules == rules,
                       GameRow.players == players, GameRow.rated.is_(rated),
                       GameRow.created >= since, same_clock(control))
                .order_by(GameRow.created, GameRow.id).limit(SCAN)))
            ids = [r.id for r in rows]
            creators = {r.id: r.creator_seat for r in rows}
            holders = {g: h for g, seat, h in s.execute(
                select(SeatRow.game, SeatRow.seat, SeatRow.token_hash)
                .where(SeatRow.game.in_(ids))) if creators[g] == seat}
            accounts = {g: a for g, seat, a in s.execute(
                select(AccountGameRow.game, AccountGameRow.seat, AccountGameRow.account)
                .where(AccountGameRow.game.in_(ids))) if creators[g] == seat}
            ratings = self._ratings(s, set(accounts.values()), rules, players)
        return [Seek(r.id, r.invite or "", _aware(r.created), accounts.get(r.id),
                     holders.get(r.id), ratings.get(accounts.get(r.id) or ""))
                for r in rows if r.invite]

    def seeks_of(self, account: str | None, holder: str, since: dt.datetime) -> list[str]:
        """The public rooms made after ``since`` still waiting whose maker's seat is held
        by ``account`` (when signed in), else by the browser whose token hashes to
        ``holder``: the player's seeks, oldest first (one, but for a race)."""
        rooms = (select(GameRow.id)
                 .where(GameRow.status == WAITING, GameRow.public.is_(True),
                        GameRow.mode == FRIENDS, GameRow.created >= since)
                 .order_by(GameRow.created, GameRow.id))
        if account is not None:
            rooms = rooms.join(AccountGameRow, (AccountGameRow.game == GameRow.id)
                               & (AccountGameRow.seat == GameRow.creator_seat)).where(
                AccountGameRow.account == account)
        elif holder:
            rooms = rooms.join(SeatRow, (SeatRow.game == GameRow.id)
                               & (SeatRow.seat == GameRow.creator_seat)).where(
                SeatRow.token_hash == holder)
        else:
            return []
        with self.store.sessions() as s:
            return list(s.scalars(rooms.limit(SCAN)))

    def rating_of(self, account: str | None, rules: str, players: int) -> float | None:
        """``account``'s rating in the pool (None: a guest, or new to the pool)."""
        if account is None:
            return None
        with self.store.sessions() as s:
            return self._ratings(s, {account}, rules, players).get(account)

    @staticmethod
    def _ratings(s: Session, accounts: set[str], rules: str,
                 players: int) -> dict[str, float]:
        """The ratings of ``accounts`` in the pool, of those rated there."""
        if not accounts:
            return {}
        return {a: float(r) for a, r in s.execute(
            select(RatingRow.account, RatingRow.rating).where(
                RatingRow.account.in_(sorted(accounts)), RatingRow.preset == rules,
                RatingRow.players == players))}

    # ------------------------------------------------------------------
    # Pairing

    def matches(self, seeks: list[Seek], rating: float | None, *, at: dt.datetime,
                mine: Seek | None, account: str | None, holder: str) -> list[Seek]:
        """The seeks a player rated ``rating`` may join, best first (nearest rating,
        then oldest): never the player's own, and when the player has a seek of their
        own (``mine``) only older ones (the newer seeker joins the older)."""
        me = NEW_RATING if rating is None else rating
        found = []
        for seek in seeks:
            if seek.holder == holder or (account is not None and seek.account == account):
                continue
            if mine is not None and (seek.created, seek.game) >= (mine.created, mine.game):
                continue
            gap = abs(me - (NEW_RATING if seek.rating is None else seek.rating))
            if gap <= rating_range((at - seek.created).total_seconds()):
                found.append((gap, seek.created, seek.game, seek))
        found.sort(key=lambda f: f[:3])
        return [f[3] for f in found]

    async def pair(self, *, rules: str, players: int, rated: bool, seek: str | None,
                   account: Account | None, token: str | None, client: str,
                   asker: str, clock: Mapping[str, Any] | None = None) -> Paired:
        """Pair the player (``account`` when signed in, the browser's ``token``): join
        the best match, else keep (or make) the player's seek. ``asker`` is who asks, as
        the limit counts them (:func:`~casino.web.requester.requester`); ``clock`` the
        time control sought (None: none), the seeks of another are left alone."""
        live = self.service.live
        if not await live.db(self.service.allowances.take, self.asks, asker):
            raise GameError(too_often(asker), 429)
        check_rated_room(rated, FRIENDS, account)
        control = timed(FRIENDS, clock)
        try:
            preset(rules, players=players)  # before anything changes
        except CasinoError as e:
            raise GameError(str(e)) from None
        at = self.clock()
        cutoff = at - dt.timedelta(seconds=self.service.limits.room_lifetime)
        holder = token_hash(token) if token else ""
        account_id = account.id if account is not None else None
        mine = None
        if seek is not None:
            mine = await self._own(seek, account_id, holder)
            if mine.status == WITHDRAWN or mine.created < cutoff:
                mine = None  # replaced or lapsed: seek anew
            elif mine.status != WAITING:
                return Paired(seek, False, token)  # someone joined it
            elif mine.pool != (rules, players, rated, control):
                await self.withdraw(mine.game)  # the player now wants another game
                mine = None
        if mine is None:  # one seek per player: the new one replaces any other
            for old in await live.db(self.seeks_of, account_id, holder, cutoff):
                await self.withdraw(old)
        seeks = await live.db(self.open_seeks, rules, players, rated, cutoff, control)
        if mine is not None:
            mine = next((s for s in seeks if s.game == mine.game), mine)
        rating = await live.db(self.rating_of, account_id, rules, players)
        for other in self.matches(seeks, rating, at=at, mine=mine, account=account_id,
                                  holder=holder):
            if mine is not None and not await self.withdraw(mine.game):
                return Paired(mine.game, False, token)  # joined meanwhile
            mine = None
            try:
                token, _seat = await self.service.rooms.join(other.game, other.invite, None,
                                                             token, account)
            except GameError:
                continue  # taken, lapsed or refused meanwhile: the next one
            return Paired(other.game, False, token)
        if mine is not None:
            return Paired(mine.game, True, token)
        created = await live.db(self.service.rooms.create, rules=rules, players=players,
                                level="medium", mode=FRIENDS, name=None, public=True,
                                people=players, client=client, token=token,
                                account=account, rated=rated, clock=clock)
        return Paired(created.game, True, created.token)

    async def _own(self, seek: str, account: str | None, holder: str) -> Seek:
        """The caller's own seek ``seek`` (its creator's seat held by the caller's
        browser or account); GameError naming the field otherwise."""
        game = await self.service.live.get(seek[:64])
        if game is None or game.mode != FRIENDS:
            raise GameError(pgettext("pairing", NOT_YOUR_SEEK))
        mine = game.seats.get(game.creator_seat) == holder and holder != ""
        if not mine and account is not None:
            holders = await self.service.live.db(self.service.rooms.accounts.holders, game.id)
            mine = holders.get(game.creator_seat) == account
        if not mine:
            raise GameError(pgettext("pairing", NOT_YOUR_SEEK))
        return Seek(game.id, game.invite or "", game.created, account, holder, None,
                    game.status, (game.session.rules.name, game.session.rules.players,
                                  game.rated,
                                  game.clock.control if game.clock else TimeControl()))

    @unstoppable
    async def withdraw(self, game_id: str) -> bool:
        """Withdraw a seek still waiting (:data:`WITHDRAWN`); False when it is not
        waiting any more (someone joined it, or it is gone)."""
        game = await self.service.live.get(game_id)
        if game is None:
            return False
        return await withdraw_room(game, seek_withdrawn)


async def withdraw_room(game: LiveGame, say: Callable[[str], str]) -> bool:
    """Withdraw the waiting room ``game`` (:data:`WITHDRAWN`, its version moved on, so
    that no process seats anyone in it), the event worded by ``say`` of the creator's
    name; False when it is not waiting any more."""
    live = game.service.live
    async with game.lock:
        if game.status != WAITING:
            return False
        s = game.session
        words = functools.partial(say, s.names[game.creator_seat])
        event = told_event(game.version + 1, WITHDRAWN, None, None, words, words)
        try:
            await live.db(game.service.store.save, game.id, record=s.record_text(),
                          status=WITHDRAWN, version=event.n, events=[event])
        except MovedOn:
            live.drop(game)
            return False
        game.status = WITHDRAWN
        game.events.append(event)
    game.notify()
    live.drop(game)
    return True


def _aware(t: dt.datetime) -> dt.datetime:
    """A stored time as UTC (SQLite gives it back naive)."""
    return t if t.tzinfo is not None else t.replace(tzinfo=dt.UTC)


#: Each service's pairing (made when first asked for).
_PAIRINGS: weakref.WeakKeyDictionary[GameService, Pairing] = weakref.WeakKeyDictionary()


def pairing_of(service: GameService) -> Pairing:
    """The pairing of ``service`` (one per app, kept while the service lives)."""
    found = _PAIRINGS.get(service)
    if found is None:
        found = _PAIRINGS[service] = Pairing(service)
    return found

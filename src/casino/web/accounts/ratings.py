"""Ratings: Glicko-2 (:mod:`casino.measure.glicko2`) for rated games between signed-in
people, one pool per preset and player count (docs/server.md, "Ratings").

A room for friends is rated or casual, chosen by its creator when it is made and shown
to the whole table; only signed-in players make or join a rated room, and every seat
is a person's (:func:`check_rated_room`, :func:`check_rated_join`). When a rated game
is over, :meth:`Ratings.rate_game` moves its players' ratings once.

Design decisions, and why:

* **Each game is its own rating period.** Glickman's periods gather games over a
  stretch of time, which needs a clock and a job that closes the period; rating each
  game as it ends needs neither, every process can do it in the game's own
  transaction, and a player sees the result at once. The cost: a deviation does not
  grow while a player is idle (no ``rate(player, [])`` for the idle), and a player's
  opponents are rated against the ratings they held before the game.
* **Who plays whom.** Two players: one outcome each, against the other. Two
  partnerships: each player has one outcome against each player of the other side,
  none against their partner (glicko2's :class:`~casino.measure.glicko2.Outcome`).
  Three or four each for themselves: one outcome per pair, the higher final score
  winning and equal scores drawing.
* **Leaving costs the game.** A player who resigned, or whose seat a computer took
  over (resigning in a game of more sides, or claimed when they were away), lost to
  every opponent who stayed, and those opponents beat them; two who both left each
  lost. Resigning is leaving, and running out of time is being claimed.
* **A partner is not charged for another's leaving.** A player whose partner left
  finished the game beside a computer: that player's game is not rated at all (no
  outcome for them, none against them). Their side's result would say more about the
  one who left than about them.
* **People only.** A game with a computer's seat from the start is never rated; a seat
  whose account has gone (deleted) is left out, with the outcomes against it.
* **Once.** The game's row in ``rated_games`` is inserted in the transaction that
  stores the new ratings (and their history, ``rating_changes``): a second attempt
  (another process, a retry) finds it, or fails on its primary key and changes nothing.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import logging
from collections.abc import Mapping
from dataclasses import dataclass
from typing import TYPE_CHECKING

from sqlalchemy import exists, select
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import Session

from casino.engine.record import match_from_record, read_record, resigned_seat
from casino.engine.rules import Rules
from casino.engine.wording import plural
from casino.i18n import pgettext, pN_
from casino.measure.glicko2 import DRAW, LOSS, WIN, Outcome, Rating, rate
from casino.play.session import HUMAN
from casino.web.accounts.store import (
    Account,
    AccountGameRow,
    AccountRow,
    RatedGameRow,
    RatingChangeRow,
    RatingRow,
)
from casino.web.errors import GameError
from casino.web.store import OVER, GameRow, SeatRow, Store, now

if TYPE_CHECKING:
    from casino.web.live import LiveGame
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: Only a room for friends is rated: the refusal's words, and the others'.
ONLY_FRIENDS = pN_("account", "\"rated\": only a room for friends may be rated; a game "
                              "against the computer never moves a rating")
SIGN_IN_TO_MAKE = pN_("account", "\"rated\": sign in to make a rated room: ratings are kept "
                                 "for accounts only")
PEOPLE_ONLY = pN_("account", "\"rated\": a rated game is between people only: make every "
                             "seat a person's (\"people\" equal to \"players\")")
SIGN_IN_TO_JOIN = pN_("account", "this is a rated game: sign in (or sign up) to join it, or "
                                 "ask for a casual room")
ONE_SEAT = pN_("account", "you hold a seat of this rated game already: nobody is rated "
                          "against themselves")
#: The leaderboard lists players whose deviation is under this (a newcomer's is 350): a
#: rating known to within about ±500 (two deviations) says little yet.
BOARD_DEVIATION = 250.0
#: How many players the leaderboard lists.
BOARD_SIZE = 50
#: How often a rating step is tried when another process's changes got in its way.
ATTEMPTS = 3


def check_rated_room(rated: bool, mode: str, account: Account | None, *,
                     people: int | None = None, seats: int | None = None) -> None:
    """Refuse a rated game that cannot be: not a room for friends, its creator not
    signed in, or (once the rules say how many seats) a seat left to a computer."""
    if not rated:
        return
    if mode != "friends":
        raise GameError(pgettext("account", ONLY_FRIENDS))
    if account is None:
        raise GameError(pgettext("account", SIGN_IN_TO_MAKE), 403)
    if people is not None and people != seats:
        raise GameError(pgettext("account", PEOPLE_ONLY))


def check_rated_join(account: Account | None, holders: Mapping[int, str]) -> None:
    """Refuse a seat of a rated room to a guest, and a second seat to an account."""
    if account is None:
        raise GameError(pgettext("account", SIGN_IN_TO_JOIN), 403)
    if account.id in holders.values():
        raise GameError(pgettext("account", ONE_SEAT), 409)


@dataclass(frozen=True)
class Finished:
    """What rating a finished game needs: its rules, the accounts at its seats (the
    seats people played from the start), who left, who won, and the final scores."""

    rules: Rules
    accounts: Mapping[int, str]
    left: frozenset[int]
    winner: int | None
    scores: tuple[int, ...]


def _result(f: Finished, a: int, b: int) -> float:
    """``a``'s score against ``b``, two players who both stayed to the end."""
    if len(f.rules.teams) == 2:
        if f.winner is None:
            return DRAW
        return WIN if f.rules.team_of(a) == f.rules.team_of(f.winner) else LOSS
    if f.scores[a] == f.scores[b]:
        return DRAW
    return WIN if f.scores[a] > f.scores[b] else LOSS


def pairings(f: Finished) -> dict[int, list[tuple[int, float]]]:
    """Each rated seat's opponents and its score against each (the module's rules:
    leavers lose, a leaver's partner is not rated, equal scores draw)."""
    rules = f.rules
    partnered = {s for s in f.accounts if s not in f.left and any(
        p in f.left for p in rules.seats if p != s and rules.team_of(p) == rules.team_of(s))}
    rated = [s for s in sorted(f.accounts) if s not in partnered]
    games: dict[int, list[tuple[int, float]]] = {}
    for a in rated:
        for b in rated:
            if rules.team_of(a) == rules.team_of(b) or f.accounts[a] == f.accounts[b]:
                continue
            if a in f.left:
                score = LOSS
            elif b in f.left:
                score = WIN
            else:
                score = _result(f, a, b)
            games.setdefault(a, []).append((b, score))
    return games


def finished(row: GameRow, people: set[int], accounts: Mapping[int, str]) -> Finished | None:
    """The finished game ``row`` as :class:`Finished`, with ``people`` its seats held by
    people from the start; None when it is not to be rated (a computer's seat from the
    start)."""
    record = read_record(row.record)
    rules = record.rules
    if people != set(rules.seats):
        return None
    players = record.players or (HUMAN,) * rules.players
    left = {s for s in people if players[s] != HUMAN}
    resigned = resigned_seat(record.notes)
    if resigned is not None:
        left.add(resigned)
    return Finished(rules, {s: a for s, a in accounts.items() if s in people},
                    frozenset(left), row.winner, tuple(match_from_record(record).scores))


@dataclass(frozen=True)
class Standing:
    """An account's rating in one pool, as the pages show it."""

    name: str
    preset: str
    players: int
    rating: Rating
    games: int


def _standing(name: str, row: RatingRow) -> Standing:
    """A stored rating row as the pages show it."""
    return Standing(name, row.preset, row.players,
                    Rating(row.rating, row.deviation, row.volatility), row.games)


class Ratings:
    """The ratings' queries and the rating step, each one transaction on the games'
    database, called in a database thread."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def settle_unrated(self, limit: int = 200) -> int:
        """Rate the finished rated games that no process rated: one that ended a game
        and stopped before its rating step (:func:`rate_when_stored`) left it so. The
        oldest first, at most ``limit`` a call (a server's start makes one); how many
        this call settled. Every process may sweep at once: each game is rated once."""
        with self.store.sessions() as s:
            waiting = list(s.scalars(
                select(GameRow.id)
                .where(GameRow.rated, GameRow.status == OVER,
                       ~exists().where(RatedGameRow.game == GameRow.id))
                .order_by(GameRow.updated).limit(limit)))
        return sum(self.rate_game(game_id) for game_id in waiting)

    def rate_game(self, game_id: str) -> bool:
        """Move the ratings of the finished rated game ``game_id``'s players, once;
        whether this call settled the game (True also when it turns out to have had a
        computer's seat from the start, which moves nothing; False: not rated, not over,
        or settled already). Retried
        when another process's transaction got in the way (a new rating row of the same
        account, a lock)."""
        for attempt in range(ATTEMPTS):
            try:
                return self._rate(game_id)
            except (IntegrityError, OperationalError):
                if attempt == ATTEMPTS - 1:
                    raise
        return False  # pragma: no cover - the loop returns or raises

    def _rate(self, game_id: str) -> bool:
        """One attempt of :meth:`rate_game`, in one transaction."""
        t = now()
        with self.store.transaction() as s:
            row = s.get(GameRow, game_id)
            if row is None or not row.rated or row.status != OVER \
                    or s.get(RatedGameRow, game_id) is not None:
                return False
            s.add(RatedGameRow(game=game_id, rated=t))
            s.flush()  # a second process stops here, on the primary key
            people = set(s.scalars(select(SeatRow.seat).where(SeatRow.game == game_id)))
            accounts = {int(seat): str(account) for seat, account in s.execute(
                select(AccountGameRow.seat, AccountGameRow.account)
                .where(AccountGameRow.game == game_id))}
            game = finished(row, people, accounts)
            if game is None:
                return True
            games = pairings(game)
            pool = (row.rules, row.players)
            held = {a: s.get(RatingRow, (a, *pool), with_for_update=True)
                    for a in sorted({game.accounts[seat] for seat in games})}
            before = {a: Rating() if r is None else Rating(r.rating, r.deviation,
                                                           r.volatility)
                      for a, r in held.items()}
            for seat, against in games.items():
                account = game.accounts[seat]
                after = rate(before[account], [Outcome(before[game.accounts[b]], score)
                                               for b, score in against])
                _store(s, held, account, pool, after, t)
                s.add(RatingChangeRow(  # the history, in the same transaction
                    game=game_id, account=account, preset=pool[0], players=pool[1],
                    rating_before=before[account].rating,
                    deviation_before=before[account].deviation,
                    rating_after=after.rating, deviation_after=after.deviation, changed=t))
            return True

    def of(self, account: str) -> list[Standing]:
        """``account``'s ratings, one per pool it has played rated games in."""
        with self.store.sessions() as s:
            rows = s.execute(select(AccountRow.name, RatingRow)
                             .join(AccountRow, AccountRow.id == RatingRow.account)
                             .where(RatingRow.account == account)
                             .order_by(RatingRow.preset, RatingRow.players))
            return [_standing(name, r) for name, r in rows]

    def board(self, preset: str, players: int, *,
              deviation_under: float = BOARD_DEVIATION) -> list[Standing]:
        """The leaderboard of a pool: its best :data:`BOARD_SIZE` ratings of players
        with a rated game, whose deviation is under ``deviation_under``."""
        with self.store.sessions() as s:
            rows = s.execute(select(AccountRow.name, RatingRow)
                             .join(AccountRow, AccountRow.id == RatingRow.account)
                             .where(RatingRow.preset == preset, RatingRow.players == players,
                                    RatingRow.games >= 1,
                                    RatingRow.deviation < deviation_under)
                             .order_by(RatingRow.rating.desc(), AccountRow.name)
                             .limit(BOARD_SIZE))
            return [_standing(name, r) for name, r in rows]


def _store(s: Session, held: dict[str, RatingRow | None], account: str,
           pool: tuple[str, int], after: Rating, t: dt.datetime) -> None:
    """Keep ``account``'s new rating in the pool (its first: a new row)."""
    row = held[account]
    if row is None:
        row = RatingRow(account=account, preset=pool[0], players=pool[1], games=0)
        s.add(row)
        held[account] = row
    row.rating, row.deviation, row.volatility = after.rating, after.deviation, after.volatility
    row.games += 1
    row.updated = t


def rate_when_stored(game: LiveGame) -> None:
    """A rated game has just ended here: rate it once the change that ended it is stored
    (its lock is held until then), in a database thread, on a task of its own."""

    async def when_stored() -> None:
        async with game.lock:
            pass
        live = game.service.live
        try:
            await live.db(Ratings(live.store).rate_game, game.id)
        except Exception:  # the game stays unrated, and the log says why
            log.exception("could not rate game %s", game.id)

    task = asyncio.get_running_loop().create_task(when_stored())
    game.service.live.tasks.add(task)
    task.add_done_callback(game.service.live.tasks.discard)


async def settle_unrated(service: GameService) -> None:
    """At a server's start: rate the rated games a stopped process ended but did not
    rate (:meth:`Ratings.settle_unrated`), in a database thread; a failure is logged,
    and the games wait for the next start."""
    try:
        settled = await service.live.db(Ratings(service.store).settle_unrated)
    except Exception:
        log.exception("could not rate the rated games left unrated")
        return
    if settled:
        log.info("rated %s a stopped process had left unrated", plural(settled, "game"))

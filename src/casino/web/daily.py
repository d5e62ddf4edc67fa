"""The daily deal (docs/server.md, "The daily deal"): :class:`Daily`.

Every UTC day, each preset that seats two players has one deal that everybody plays
against the computer's expert level, from the same deck, in the same seat. The deck is
drawn from the system's random source (:data:`SYSTEM_RANDOM`) by the first request of
the day and stored (:mod:`casino.web.daily_store`); it is never derived from the date.
A player plays it once (an account, or a guest's browser under a name it chooses), one
round, with hints and take-backs off, unrated and unwatched; the result is the margin
(the player's points less the expert's, for Krypkasino's penalties the other way about)
and the seconds from the start to the round's end, measured by the server. The
results are shown to a player once they have finished; the deck and everyone's games
once the day is over.
"""

from __future__ import annotations

import datetime as dt
import logging
import random
import re
import secrets
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from sqlalchemy.orm import Session

from casino.engine.match import Match, RoundLog
from casino.engine.record import RecordRound, Settings, read_record, write_record
from casino.engine.rules import PRESET_NAMES, Rules, player_counts, preset
from casino.i18n import _, ngettext, pgettext, pN_
from casino.play.session import HUMAN, GameSession
from casino.web.accounts.store import Account
from casino.web.daily_store import DailyStore, Deal, Entry
from casino.web.errors import GameError
from casino.web.requester import holder_words
from casino.web.seats import new_token
from casino.web.store import OVER, PLAYING, token_hash

if TYPE_CHECKING:
    from casino.web.service import GameService

log = logging.getLogger("casino.web")

#: The mode of a daily deal's game (and of a past deal played again for practice).
DAILY = "daily"
#: The computer everybody plays the daily deal against.
LEVEL = "expert"
#: Where the decks come from: the operating system's random source, never a seeded
#: generator (tests put another in its place to see that it is the one used).
SYSTEM_RANDOM: random.Random = random.SystemRandom()
#: The seats: the player deals or not as the deck's dealer says, always in seat 0.
PLAYER_SEAT, COMPUTER_NAME = 0, "Computer"
#: What a daily deal's table refuses, and what a guest is asked first.
PLAYED_ONCE = pN_("daily", "a daily deal is played once, to the end of its round: there is no "
                 "rematch")
NO_RESIGNING = pN_("daily", "a daily deal is played to the end of its round: it cannot be "
                   "resigned")
NAME_FIRST = pN_("daily", "choose a name for this browser first: players without an account "
                 "take part in the daily deal under it")
NOT_A_DAY = pN_("daily", "%(day)s is no day of the daily deal: days are written YYYY-MM-DD")
#: What a results page says to a player who has not finished today's deal yet.
PLAY_FIRST = pN_("daily", "Play first: today's results are shown to those who have played "
                          "today's deal to its end.")
#: Why the guests are listed apart.
NOT_RANKED = pN_("daily", "Players without an account, under their browsers' names: not "
                          "ranked with accounts.")
#: The most results each list of a day's deal shows (the best; the accounts' and the
#: guests' apart), so that a page costs the same however many played it.
RESULTS_SHOWN = 100
#: The refusal of a daily game's record or review before its day is over.
HIDDEN_GAME = pN_("daily", "a daily deal's games are shown once its day is over (UTC); until "
                  "then each is its own player's only")


def utc_now() -> dt.datetime:
    """The time now in UTC: the daily deal's clock, unless a test gives another."""
    return dt.datetime.now(dt.UTC)


def daily_presets() -> list[str]:
    """The presets that have a daily deal: those that seat two players."""
    return [name for name in PRESET_NAMES if 2 in player_counts(name)]


def check_day(day: str) -> dt.date:
    """The date ``day`` names (YYYY-MM-DD); GameError (404) for anything else."""
    if not re.fullmatch(r"[0-9]{4}-[0-9]{2}-[0-9]{2}", day):
        raise GameError(pgettext("daily", NOT_A_DAY) % {"day": repr(day[:20])}, 404)
    try:
        return dt.date.fromisoformat(day)
    except ValueError:
        raise GameError(pgettext("daily", NOT_A_DAY) % {"day": repr(day[:20])}, 404) from None


def day_end(day: str) -> dt.datetime:
    """When ``day`` ends (midnight UTC after it): a deal finished later, once the deck
    and everyone's games may be seen, is not ranked."""
    return dt.datetime.combine(check_day(day) + dt.timedelta(days=1), dt.time(),
                               tzinfo=dt.UTC)


def check_rules(rules: str) -> str:
    """``rules`` when it is a preset with a daily deal; GameError (404) otherwise."""
    if rules not in daily_presets():
        raise GameError(_("there is no daily deal of %(rules)s: the daily deals are "
                          "%(deals)s") % {"rules": repr(rules[:30]),
                                          "deals": ", ".join(daily_presets())}, 404)
    return rules


def seconds_words(seconds: float | None) -> str:
    """``3 minutes 4 seconds``: the time a player took, as the results show it (in the
    language in force)."""
    if seconds is None:
        return ""
    whole = round(seconds)
    minutes, rest = divmod(whole, 60)
    said = ngettext("%(num)s second", "%(num)s seconds", rest) % {"num": rest}
    if minutes == 0:
        return said
    return ngettext("%(num)s minute", "%(num)s minutes", minutes) % {"num": minutes} + " " + said


def player_keys(token: str | None, account: Account | None) -> list[str]:
    """Every key under which this browser, and the account signed in there, may have
    played: the account's first, then the browser's as a guest (so that nobody plays a
    deal as a guest and then again signed in on the same browser)."""
    keys = [f"account {account.id}"] if account is not None else []
    return keys + ([f"guest {token_hash(token)}"] if token else [])


def player_key(token: str | None, account: Account | None) -> str | None:
    """Who plays, as the entries count them: the account signed in, else the guest's
    browser (its token's digest); None for a browser without a token."""
    if account is not None:
        return f"account {account.id}"
    return f"guest {token_hash(token)}" if token else None


def margin_of(session: GameSession) -> int:
    """The daily deal's result: the player's points of the round less the expert's (the
    expert's less the player's where points are penalties, so that higher is better)."""
    return round_margin(session.rules, session.match.rounds[0])


def round_margin(rules: Rules, rnd: RoundLog | RecordRound) -> int:
    """:func:`margin_of` the scored round ``rnd`` (as played, or as recorded)."""
    assert rnd.result is not None
    gained = [rnd.result.scores[s] - rnd.start.scores[s] for s in rules.seats]
    margin = gained[PLAYER_SEAT] - gained[1 - PLAYER_SEAT]
    return -margin if rules.win_rule == "lower-after-games" else margin


def daily_view(view: dict[str, Any], game: str, session: GameSession) -> None:
    """A daily game's VIEW (``view``, changed in place): no resigning, the address of the
    day's results, and at the end the margin in place of the words of a game that goes
    on (the daily deal is one round)."""
    view.update(can_resign=False, resign_words=None, daily=f"/daily/of/{game}")
    if view["result"] is not None and session.match.rounds[0].result is not None:
        view["result"] = {**view["result"], "summary": margin_words(margin_of(session))}


def margin_words(margin: int, name: str | None = None) -> str:
    """The end of a daily deal, in words: "The daily deal is over: your margin is +3",
    to its player; "Ann's margin", to others (``name``, the player's)."""
    if name is None:
        return _("The daily deal is over: your margin is %(margin)s") % {
            "margin": f"{margin:+d}"}
    return _("The daily deal is over: %(name)s's margin is %(margin)s") % {
        "name": name, "margin": f"{margin:+d}"}


@dataclass(frozen=True)
class Started:
    """A daily game made or found again: its id, and the browser's token holding it."""

    game: str
    token: str


@dataclass(frozen=True)
class Results:
    """One day's deal of one preset as a player may see it now.

    ``shown``: whether the results may be shown to them (they finished it, or the day is
    over); ``revealed``: whether the deck and everyone's games may be (the day is over).
    ``ranked`` are the accounts' finished entries, best first; ``guests`` the guests'.
    """

    day: str
    rules: str
    deal: Deal | None
    mine: Entry | None
    shown: bool
    revealed: bool
    ranked: list[Entry]
    guests: list[Entry]


class Daily:
    """The daily deals of one server: the day's deck made once, the players' games
    and their results. Its methods that read or write the database run in a database
    thread (``service.live.db``), except :meth:`finish`, awaited by the flush."""

    def __init__(self, service: GameService,
                 clock: Callable[[], dt.datetime] = utc_now) -> None:
        self.service = service
        self.deals = DailyStore(service.store)
        #: The time now (UTC), which says which day it is: tests give their own.
        self.clock = clock
        self.level = LEVEL

    def today(self) -> str:
        """Today's date in UTC, as YYYY-MM-DD."""
        return self.clock().astimezone(dt.UTC).date().isoformat()

    def over(self, day: str) -> bool:
        """Whether ``day`` has ended (its deck and games may be shown to everyone)."""
        return day < self.today()

    def deal(self, day: str, rules: str) -> Deal | None:
        """The deal of ``day`` and ``rules``: today's made now if nobody made it yet
        (race-free: :meth:`DailyStore.make_deal`); None for a past day without one."""
        check_day(day)
        check_rules(rules)
        known = self.deals.deal(day, rules)
        if known is not None or day != self.today():
            return known
        r = preset(rules, players=2)
        deck = list(range(52)) * r.decks
        SYSTEM_RANDOM.shuffle(deck)
        dealer = SYSTEM_RANDOM.randrange(r.players)
        return self.deals.make_deal(day, rules, deck, dealer, self.clock())

    def start(self, rules: str, *, token: str | None, account: Account | None,
              name: str | None, requester: str) -> Started:
        """Today's game of ``rules`` for this player: the one they started already (to
        resume, or to look back on), else a new one from the day's deck, counted against
        the new games of ``requester`` (the account, else the guest's network). A guest
        must give the browser's ``name``."""
        day = self.today()
        deal = self.deal(day, rules)
        assert deal is not None
        token = token or new_token()
        key = player_key(token, account)
        assert key is not None
        known = self.mine(day, rules, player_keys(token, account))
        if known is None and account is None:
            # Played signed in on this browser: the same game, not a second play.
            known = self.deals.held_by(day, rules, token_hash(token))
        if known is not None:
            return Started(known.game, token)
        shown = self._shown_name(name, account)
        self._count_new_game(requester)
        entry = Entry(day, rules, key, shown, account is None, secrets.token_hex(8),
                      self.clock(), None, None, None)
        if not self._make(deal, entry, token, account):
            known = self.deals.entry(day, rules, key)  # a start at the same moment won
            assert known is not None
            return Started(known.game, token)
        return Started(entry.game, token)

    def practice(self, day: str, rules: str, *, token: str | None,
                 account: Account | None, requester: str) -> Started:
        """A past day's deal played again for practice: a game of its own, unranked (no
        entry), counted against the new games as any other."""
        check_day(day)
        check_rules(rules)
        if not self.over(day):
            raise GameError(_("a day's deal is played again for practice once the day is "
                              "over; today's is played once, for the results"), 409)
        deal = self.deals.deal(day, rules)
        if deal is None:
            raise GameError(_("nobody played the daily deal of %(rules)s on %(day)s")
                            % {"rules": rules, "day": day}, 404)
        self._count_new_game(requester)
        token = token or new_token()
        game = secrets.token_hex(8)
        name = account.name if account is not None else "Player"
        self._create(deal, game, name, token, account, None)
        return Started(game, token)

    def _count_new_game(self, requester: str) -> None:
        """Take a new game from ``requester``'s allowance; GameError (429) when spent."""
        if not self.service.allowances.take(self.service.rooms.new_games, requester):
            raise GameError(_("too many new games: %(holder)s started as many as it may for "
                              "now; wait a minute") % {"holder": holder_words(requester)}, 429)

    def _shown_name(self, name: str | None, account: Account | None) -> str:
        """The name the results show: the account's, or the guest's own (required)."""
        if account is not None:
            return account.name
        # A name of nothing but control or invisible characters is cleaned to nothing:
        # no name either (the record takes no empty name).
        shown = self.service.rooms.person(name, "", None) if name is not None else ""
        if not shown:
            raise GameError(pgettext("daily", NAME_FIRST))
        return shown

    def _make(self, deal: Deal, entry: Entry, token: str, account: Account | None) -> bool:
        """The entry's game, made with the entry in one transaction; False (nothing made)
        when the player's entry was made first by another request."""

        class Taken(Exception):
            """The player's entry is there already: roll the game back."""

        def add(s: Session, _created: dt.datetime) -> None:
            if not self.deals.add_entry(s, entry):
                raise Taken

        try:
            self._create(deal, entry.game, entry.name, token, account, add)
        except Taken:
            return False
        return True

    def _create(self, deal: Deal, game: str, name: str, token: str,
                account: Account | None,
                within: Callable[[Session, dt.datetime], None] | None) -> None:
        """Store a daily game of ``deal``: the player in seat 0 against the expert, one
        round of the stored deck, hints and take-backs off, unwatched, unrated."""
        r = preset(deal.rules, players=2)
        match = Match.dealt(r, deal.deck, deal.dealer)
        names = [name, COMPUTER_NAME]
        seats = [HUMAN, self.level]
        self.service.store.create(
            game_id=game, rules=r.name, players=r.players, names=names, mode=DAILY,
            level=self.level, status=PLAYING, public=False, invite=None, creator_seat=0,
            record=write_record(match, names, seats,
                                table=Settings(hints=False, takebacks=False)),
            seats={PLAYER_SEAT: (name, token_hash(token))}, within=within)
        if account is not None:
            self.service.rooms.accounts.hold(account.id, game, PLAYER_SEAT)

    async def finish(self, game: str, session: GameSession) -> None:
        """Note a daily game's result, once its round is over (the flush that stored
        its end calls this): its margin, and the time since it was started. The end is
        stored already: a failure here is logged, and the result is noted from the
        stored game at the player's next look (:meth:`_settled`)."""
        try:
            await self.service.live.db(self.deals.finish, game, margin_of(session),
                                       self.clock())
        except Exception:
            log.exception("could not note the result of daily game %s", game)

    def mine(self, day: str, rules: str, keys: list[str]) -> Entry | None:
        """The entry of the first of ``keys`` (:func:`player_keys`) that has one."""
        found = [e for e in self.deals.entries_of(day, keys) if e.rules == rules]
        return min(found, key=lambda e: keys.index(e.player)) if found else None

    def results(self, day: str, rules: str, keys: list[str]) -> Results:
        """The deal of ``day`` and ``rules`` as the player of ``keys`` may see it now."""
        check_day(day)
        check_rules(rules)
        if day > self.today():
            raise GameError(_("that day's deal is not dealt yet"), 404)
        deal = self.deal(day, rules)
        mine = self.mine(day, rules, keys)
        if mine is not None and not mine.done:
            mine = self._settled(mine)
        revealed = self.over(day)
        shown = revealed or (mine is not None and mine.done)
        ranked, guests = ([self.deals.finished(day, rules, day_end(day), guests=g,
                                               most=RESULTS_SHOWN) for g in (False, True)]
                          if shown else ([], []))
        return Results(day, rules, deal if revealed else None, mine, shown, revealed,
                       ranked, guests)

    def _settled(self, entry: Entry) -> Entry:
        """``entry`` finished from its stored game, when the game is over but its result
        was not noted (the process stopped between storing the round's end and noting
        it): the margin from its record, the time to its last change."""
        stored = self.service.store.load(entry.game)
        if stored is None or stored.status != OVER:
            return entry
        record = read_record(stored.record)
        if record.rounds[0].result is None:
            return entry
        done = self.deals.finish(entry.game, round_margin(record.rules, record.rounds[0]),
                                 stored.updated)
        return done or entry

    def hidden(self, game: str, keys: list[str]) -> bool:
        """Whether the daily game ``game`` is still hidden from the player of ``keys``:
        until its day is over, a daily game is its own player's only."""
        entry = self.deals.by_game(game)
        return (entry is not None and not self.over(entry.day)
                and entry.player not in keys)

    def todays(self, token: str | None,
               account: Account | None) -> tuple[dict[str, Entry], str | None]:
        """The player's entries of today, by preset, and the name a guest's browser took
        part under last (offered again)."""
        keys = player_keys(token, account)
        # The account's entry wins over the browser's (the first key's, read last).
        entries = {e.rules: e for e in sorted(self.deals.entries_of(self.today(), keys),
                                               key=lambda e: -keys.index(e.player))}
        named = self.deals.last_name(keys[0]) if keys and account is None else None
        return entries, named

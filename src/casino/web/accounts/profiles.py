"""Profiles: a player's public page (docs/server.md, "Profiles"), and the results of a
browser's finished games for the lobby's recent list.

A player page shows an account's ratings with their history drawn as a graph, its games
won, lost and drawn per preset and player count with the average margin, and its
finished games, each linked to its replay and review. Everything on it is public
already: a finished game's record is published (``/records/...``), and a rating is on
the leaderboard. A game still being played is only counted ("playing"), never shown.

Design decisions, and why:

* **Bounded.** A page reads at most :data:`HISTORY_POINTS` rating changes per pool,
  :data:`TALLY_GAMES` finished games for the counts and margins, and one page of
  :data:`PAGE_SIZE` games for the list, whatever the account has played: a page's cost
  does not grow with a player's career.
* **The scores read from the record's text.** A finished game's final scores are its
  record's last ``result`` line (each seat's game total; a partnership's on its first
  seat), or nothing scored yet when it ended before a round was counted. Reading the
  record with the engine (:func:`~casino.engine.record.read_record`) replays every move,
  some 25 ms a game; a page of 500 games cannot afford it, and a record the server wrote
  itself needs no checking. The winner is the games table's (the record's, by the cards
  or a resignation).
* **Nothing of a player's kept.** Every page is worked out from the database when
  asked, so a deleted account's page is gone at once, and nothing about a live game is
  ever kept here; only the rules of a record's ``rules`` line are (public, and the same
  for hundreds of games). 500 games of 4 KB records take some 25 ms.
"""

from __future__ import annotations

import datetime as dt
import functools
import json
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from html import escape
from urllib.parse import quote

from sqlalchemy import func, select
from sqlalchemy.orm import Session

from casino.engine.rules import Rules, rules_from_json
from casino.i18n import ngettext, pN_
from casino.web.accounts.ratings import Ratings, Standing
from casino.web.accounts.store import (
    Account,
    AccountGameRow,
    AccountRow,
    RatingChangeRow,
)
from casino.web.store import OVER, PLAYING, WAITING, GameRow, SeatRow, Store, utc

#: The most rating changes one pool's graph draws (its latest).
HISTORY_POINTS = 200
#: The most finished games (the latest) the counts of won, lost and drawn and the
#: average margins are worked out from.
TALLY_GAMES = 500
#: The finished games listed on one page of a player's.
PAGE_SIZE = 50
#: The mode of the lesson: a lesson is no ordinary game, and is not listed; nor is a
#: daily deal's game (its results page lists it, once its day is over).
LESSON = "lesson"
UNLISTED = (LESSON, "daily")
#: A game's result for one player, in words (also the pages' class names; shown in the
#: reader's language with ``pgettext("result", ...)``).
WON, LOST, DRAWN = pN_("result", "won"), pN_("result", "lost"), pN_("result", "drawn")


def player_url(name: str) -> str:
    """The player page of the account named ``name``: its name quoted whole, so that
    no character of it can make another address."""
    return "/player/" + quote(name, safe="")


def _line(record: str, keyword: str, *, last: bool = False) -> str | None:
    """What follows ``keyword`` on the record's first (or last) line that starts with it,
    found without splitting the whole text into lines."""
    mark = "\n" + keyword + " "
    at = ("\n" + record).rfind(mark) if last else ("\n" + record).find(mark)
    if at < 0:
        return None
    start = at + len(mark) - 1
    end = record.find("\n", start)
    return record[start:end if end >= 0 else len(record)].strip()


@functools.lru_cache(maxsize=64)
def _rules(text: str) -> Rules | None:
    """The rules of a record's ``rules`` line (a preset's name or a JSON object), None
    when they cannot be read; kept per text, as a page reads hundreds of records of a
    few rulesets (rules are public and never change)."""
    try:
        return rules_from_json(json.loads(text) if text.startswith("{") else text)
    except (ValueError, TypeError):
        return None


def final_scores(record: str, players: int) -> tuple[Rules | None, tuple[int, ...]]:
    """A stored record's rules (None when its ``rules`` line cannot be read) and final
    scores: its last ``result`` line, zeros when no round was counted (or the line
    cannot be read)."""
    text = _line(record, "rules")
    rules = _rules(text) if text else None
    result = _line(record, "result", last=True)
    try:
        scores = tuple(int(n) for n in result.split()) if result else (0,) * players
    except ValueError:
        scores = (0,) * players
    return rules, scores


def outcome(rules: Rules | None, seat: int, winner: int | None,
            scores: Sequence[int]) -> tuple[str, int | None]:
    """``seat``'s result (:data:`WON`, :data:`LOST` or :data:`DRAWN`: no winner) and
    margin: its side's final score less the best other side's (None when the scores do
    not say)."""
    team = rules.team_of if rules is not None else (lambda s: s)
    teams = rules.teams if rules is not None else tuple(range(len(scores)))
    result = DRAWN if winner is None else WON if team(winner) == team(seat) else LOST
    mine = team(seat)
    others = [scores[t] for t in teams if t != mine and t < len(scores)]
    if mine >= len(scores) or not others:
        return result, None
    return result, scores[mine] - max(others)


@dataclass(frozen=True)
class Played:
    """A finished game as one of its players' lists show it: no card, only what its
    published record says at the end."""

    game: str
    preset: str
    players: int
    seat: int
    ended: dt.datetime
    partners: tuple[str, ...]
    opponents: tuple[str, ...]
    result: str
    scores: tuple[int, ...]
    rated: bool
    #: The player pages of the other seats held by accounts, by the seat's name.
    pages: dict[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Tally:
    """One preset at one player count: the games won, lost and drawn of the latest
    :data:`TALLY_GAMES`, and their average margin (None: no score to go by)."""

    preset: str
    players: int
    won: int
    lost: int
    drawn: int
    margin: float | None


@dataclass(frozen=True)
class Point:
    """A rating after one rated game: the graph's point."""

    when: dt.datetime
    rating: float
    deviation: float


@dataclass(frozen=True)
class Profile:
    """Everything a player page shows."""

    account: Account
    standings: list[Standing]
    history: dict[tuple[str, int], list[Point]]
    tallies: list[Tally]
    games: list[Played]
    page: int
    pages: int
    total: int
    playing: int


def _names(raw: str) -> list[str]:
    """A game's stored list of seat names."""
    try:
        names = json.loads(raw or "[]")
    except ValueError:
        return []
    return [str(n) for n in names] if isinstance(names, list) else []


def played(row: GameRow, seat: int, accounts: Mapping[int, str] | None = None) -> Played:
    """The finished game ``row`` as ``seat``'s list shows it; ``accounts`` the names of
    the accounts holding its seats, by seat, whose pages it links."""
    rules, scores = final_scores(row.record, row.players)
    result, _ = outcome(rules, seat, row.winner, scores)
    names = _names(row.names)
    team = rules.team_of if rules is not None else (lambda s: s)
    return Played(
        game=row.id, preset=row.rules, players=row.players, seat=seat,
        ended=utc(row.updated),
        partners=tuple(n for s, n in enumerate(names) if s != seat and team(s) == team(seat)),
        opponents=tuple(n for s, n in enumerate(names) if team(s) != team(seat)),
        result=result, scores=scores, rated=bool(row.rated),
        pages={names[s]: player_url(a) for s, a in (accounts or {}).items()
               if s != seat and s < len(names)})


def tallies(rows: Sequence[tuple[GameRow, int]]) -> list[Tally]:
    """The counts and average margins of finished games (each with the player's seat),
    one :class:`Tally` per preset and player count, in the order of their names."""
    counts: dict[tuple[str, int], dict[str, int]] = {}
    margins: dict[tuple[str, int], list[int]] = {}
    for row, seat in rows:
        rules, scores = final_scores(row.record, row.players)
        result, margin = outcome(rules, seat, row.winner, scores)
        pool = (row.rules, row.players)
        counts.setdefault(pool, {WON: 0, LOST: 0, DRAWN: 0})[result] += 1
        if margin is not None:
            margins.setdefault(pool, []).append(margin)
    out = []
    for pool in sorted(counts):
        m = margins.get(pool, [])
        c = counts[pool]
        out.append(Tally(pool[0], pool[1], c[WON], c[LOST], c[DRAWN],
                         sum(m) / len(m) if m else None))
    return out


class Profiles:
    """The player pages' queries, each one transaction on the games' database, called in
    a database thread."""

    def __init__(self, store: Store) -> None:
        self.store = store

    def named(self, skeleton: str) -> Account | None:
        """The account whose name has ``skeleton`` (names that look alike are one)."""
        with self.store.sessions() as s:
            row = s.execute(select(AccountRow.id, AccountRow.name)
                            .where(AccountRow.skeleton == skeleton)).first()
            return None if row is None else Account(row.id, row.name)

    def profile(self, account: Account, page: int = 1) -> Profile:
        """``account``'s player page, its finished games' page ``page`` (from 1; a page
        past the last lists nothing)."""
        standings = Ratings(self.store).of(account.id)
        with self.store.sessions() as s:
            history = {(r.preset, r.players): self._history(s, account.id, r.preset, r.players)
                       for r in standings}
            mine = (select(GameRow, AccountGameRow.seat)
                    .join(AccountGameRow, AccountGameRow.game == GameRow.id)
                    .where(AccountGameRow.account == account.id, GameRow.status == OVER,
                           GameRow.mode.not_in(UNLISTED)))
            total = int(s.scalar(select(func.count()).select_from(mine.subquery())) or 0)
            newest = mine.order_by(GameRow.updated.desc(), GameRow.id)
            latest = [(r, int(seat)) for r, seat in s.execute(newest.limit(TALLY_GAMES))]
            rows = [(r, int(seat)) for r, seat in s.execute(
                newest.offset((page - 1) * PAGE_SIZE).limit(PAGE_SIZE))]
            held: dict[str, dict[int, str]] = {}
            for game, seat, name in s.execute(
                    select(AccountGameRow.game, AccountGameRow.seat, AccountRow.name)
                    .join(AccountRow, AccountRow.id == AccountGameRow.account)
                    .where(AccountGameRow.game.in_([r.id for r, _ in rows]))):
                held.setdefault(game, {})[int(seat)] = name
            listed = [played(r, seat, held.get(r.id)) for r, seat in rows]
            playing = int(s.scalar(
                select(func.count()).select_from(AccountGameRow)
                .join(GameRow, GameRow.id == AccountGameRow.game)
                .where(AccountGameRow.account == account.id,
                       GameRow.status.in_([PLAYING, WAITING]))) or 0)
        return Profile(account, standings, history, tallies(latest), listed, page,
                       max(1, -(-total // PAGE_SIZE)), total, playing)

    @staticmethod
    def _history(s: Session, account: str, preset: str, players: int) -> list[Point]:
        """The latest :data:`HISTORY_POINTS` ratings of one pool, oldest first."""
        rows = s.execute(select(RatingChangeRow.changed, RatingChangeRow.rating_after,
                                RatingChangeRow.deviation_after)
                         .where(RatingChangeRow.account == account,
                                RatingChangeRow.preset == preset,
                                RatingChangeRow.players == players)
                         .order_by(RatingChangeRow.changed.desc(), RatingChangeRow.game)
                         .limit(HISTORY_POINTS))
        return [Point(utc(t), r, d) for t, r, d in rows][::-1]


#: The most of a browser's own finished games the lobby's recent list adds results for.
RECENT_GAMES = 20


def recent_results(store: Store, token_digest: str | None, account: str | None,
                   limit: int = RECENT_GAMES) -> list[tuple[str, str, tuple[str, ...]]]:
    """The latest ``limit`` finished games (no lesson) where the browser (its token's
    hash) or the account holds a seat, newest first: each game's id, that seat's result
    and its opponents' names (a seat held both ways is the browser's)."""
    if token_digest is None and account is None:
        return []
    seats: dict[str, int] = {}
    with store.sessions() as s:
        over = (GameRow.status == OVER, GameRow.mode.not_in(UNLISTED))
        if token_digest is not None:
            seats.update((g, int(seat)) for g, seat in s.execute(
                select(SeatRow.game, SeatRow.seat).join(GameRow, GameRow.id == SeatRow.game)
                .where(SeatRow.token_hash == token_digest, *over)
                .order_by(GameRow.updated.desc()).limit(limit)))
        if account is not None:
            for g, seat in s.execute(
                    select(AccountGameRow.game, AccountGameRow.seat)
                    .join(GameRow, GameRow.id == AccountGameRow.game)
                    .where(AccountGameRow.account == account, *over)
                    .order_by(GameRow.updated.desc()).limit(limit)):
                seats.setdefault(g, int(seat))
        rows = s.scalars(select(GameRow).where(GameRow.id.in_(list(seats)))
                         .order_by(GameRow.updated.desc()).limit(limit))
        return [(row.id, (p := played(row, seats[row.id])).result, p.opponents)
                for row in rows]


def graph_svg(points: Sequence[Point], width: int = 480, height: int = 160) -> str:
    """The rating graph of one pool as inline SVG: each point a rated game's rating,
    with its band of two deviations, joined by a line; numbers only (no name or text
    from anyone), so the page may put it in as it is."""
    pad = 36
    if not points:
        return ""
    lows = [p.rating - 2 * p.deviation for p in points]
    highs = [p.rating + 2 * p.deviation for p in points]
    low, high = min(lows), max(highs)
    span = max(high - low, 1.0)
    step = (width - 2 * pad) / max(len(points) - 1, 1)

    def x(i: int) -> float:
        return pad + (i * step if len(points) > 1 else (width - 2 * pad) / 2)

    def y(v: float) -> float:
        return pad / 2 + (high - v) / span * (height - pad)

    band = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(highs))
    band += " " + " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in reversed(list(enumerate(lows))))
    line = " ".join(f"{x(i):.1f},{y(p.rating):.1f}" for i, p in enumerate(points))
    dots = "".join(
        f'<circle class="rating-point" cx="{x(i):.1f}" cy="{y(p.rating):.1f}" r="3">'
        f"<title>{p.when:%Y-%m-%d}: {round(p.rating)} ± {round(2 * p.deviation)}</title>"
        f"</circle>" for i, p in enumerate(points))
    label = escape(ngettext("Rating after each of %(n)s rated game",
                            "Rating after each of %(n)s rated games", len(points))
                   % {"n": len(points)}, quote=True)
    return (f'<svg class="rating-graph" viewBox="0 0 {width} {height}" role="img" '
            f'aria-label="{label}">'
            f'<polygon class="rating-band" points="{band}"/>'
            f'<polyline class="rating-line" points="{line}" fill="none"/>{dots}'
            f'<text class="rating-axis" x="2" y="{y(high) + 4:.1f}">{round(high)}</text>'
            f'<text class="rating-axis" x="2" y="{y(low):.1f}">{round(low)}</text></svg>')

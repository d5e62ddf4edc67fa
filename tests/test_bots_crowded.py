"""Bots on crowded tables: legal moves from bounded work, and time limits that hold.

A crowded Finnish Kasino table has hundreds of thousands of legal moves; bots
choose among ``Position.candidate_moves()`` instead, and ``legal_moves()`` must
never be called there (it is patched to fail). No test reads the wall clock:
the work is counted (move generations, successors), and time limits are checked
against a fake ``time.perf_counter`` that advances a fixed step at every read,
so a bot that stops reading the clock (or thinks past its deadline) is caught
by the count, the same on any machine.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any

import pytest

from casino import Position
from casino.bots import Limit, make_bot
from casino.bots.base import RESERVE, candidates
from casino.bots.levels import LEVELS, make_level
from casino.bots.random_bot import RandomBot
from casino.bots.solver import SearchAborted, Searcher
from casino.engine.builds import Build
from casino.engine.cards import parse_card
from casino.engine.legality import SMALL_TABLE
from casino.engine.moves import TRAIL, Move
from casino.engine.partition import OutOfTime, Piece, _Search, best_split
from casino.engine.partition import deadline as time_limit
from tests.crowded_tables import KASINO_27, crowded


def hidden(pos: Position, opponent: int = 4, stock: int = 8) -> Position:
    """``pos`` (seat 1 holding nothing, the rest in its pile) with ``opponent`` cards
    of seat 1's pile moved into its hand and ``stock`` more left to deal: a position
    where the mover's observation hides cards, so the search bots sample."""
    pile = list(pos.piles[1])
    # Every fifth card, so the hidden cards are of mixed values.
    picked = pile[::5][:opponent + stock]
    rest = Counter(pile) - Counter(picked)
    return replace(pos, hands=(pos.hands[0], tuple(sorted(picked[:opponent]))),
                   stock=tuple(picked[opponent:]), piles=((), tuple(sorted(rest.elements()))),
                   deal=3 if stock else pos.rules.deals_per_round)


def kasino_27(stock: int = 8) -> Position:
    """27 loose cards, A-6 of every suit and three 7s, the 10♦ (16 in hand) to play."""
    return hidden(crowded("kasino", KASINO_27, "Td 8s 9c Ks"), stock=stock)


def house_builds(stock: int = 8) -> Position:
    """House rules, 16 loose cards and three builds: two of the opponent's (it holds an
    8 and a 9), one of the mover's (it holds the 10)."""
    def g(*cards: str) -> tuple[int, ...]:
        return tuple(parse_card(c) for c in cards)
    loose = "Ac 2c 3c 4c 5c 6c Ad 2d 3d 4d 5d 6d Ah 2h 3h 4h"
    pos = crowded("casino", loose, "8s 9s Ts 7s")
    builds = (Build.make(8, 1, (g("7h", "As"),)), Build.make(9, 1, (g("5h", "4s"),)),
              Build.make(10, 0, (g("7c", "3s"),)))
    theirs = g("8d", "9d")
    pile = Counter(pos.piles[1]) - Counter(c for b in builds for c in b.cards) - Counter(theirs)
    pos = hidden(replace(pos, table=pos.table + builds, piles=((), tuple(sorted(pile.elements())))),
                 opponent=2, stock=stock)
    return replace(pos, hands=(pos.hands[0], tuple(sorted(theirs + pos.hand(1)))))


def krypkasino_27(stock: int = 8) -> Position:
    """The same 27 loose cards on Krypkasino (two decks, captures compulsory and
    maximal, a card that can sweep must), where the expert level is ``fair-reply``."""
    return hidden(crowded("krypkasino", KASINO_27, "Td 8s 9c Ks"), stock=stock)


POSITIONS: dict[str, Callable[[], Position]] = {
    "kasino-27": kasino_27,
    "kasino-27-last": lambda: kasino_27(stock=0),
    "house-builds": house_builds,
    "house-builds-last": lambda: house_builds(stock=0),
    "krypkasino-27": krypkasino_27,
    "krypkasino-27-last": lambda: krypkasino_27(stock=0),
}


class FakeClock:
    """``time.perf_counter`` that advances ``step`` seconds at every read."""

    def __init__(self, step: float) -> None:
        self.now = 1000.0
        self.step = step
        self.reads = 0

    def __call__(self) -> float:
        self.reads += 1
        self.now += self.step
        return self.now


class Work:
    """Counts move generations and successors, and fails ``legal_moves()`` on a
    crowded table (where it would list hundreds of thousands of moves)."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, cap: int = 100_000) -> None:
        self.generations = 0
        self.successors = 0
        self.crowded_legal_moves = 0
        self.cap = cap
        legal = Position.legal_moves
        cands = Position.candidate_moves
        moves_of = Position.moves_of
        successor = Position.successor

        def legal_moves(pos: Position) -> list[Move]:
            if len(pos.loose) > SMALL_TABLE:
                self.crowded_legal_moves += 1
                raise AssertionError(f"legal_moves() on {len(pos.loose)} loose cards")
            return legal(pos)

        def counted(real: Callable[..., Any]) -> Callable[..., Any]:
            def call(pos: Position, *args: Any) -> Any:
                self.generations += 1
                self._check()
                return real(pos, *args)
            return call

        def succ(pos: Position, move: Move) -> Position:
            self.successors += 1
            self._check()
            return successor(pos, move)

        monkeypatch.setattr(Position, "legal_moves", legal_moves)
        monkeypatch.setattr(Position, "candidate_moves", counted(cands))
        monkeypatch.setattr(Position, "moves_of", counted(moves_of))
        monkeypatch.setattr(Position, "successor", succ)

    def _check(self) -> None:
        # Fail fast (instead of thinking for minutes) if a bot's work is unbounded.
        if self.generations + self.successors > self.cap:
            raise AssertionError(f"more than {self.cap} generations and successors")


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Iterator[FakeClock]:
    """A fake clock at one millisecond a read: a 0.8 s limit is 800 reads."""
    fake = FakeClock(0.001)
    monkeypatch.setattr(time, "perf_counter", fake)
    yield fake


PLAYERS = [*LEVELS, "random", "ismcts"]


def player(name: str, seed: int) -> tuple[Any, Limit]:
    if name in LEVELS:
        return make_level(name, seed)
    return make_bot(name, seed), Limit(seconds=1.0, iterations=200)


@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("name", PLAYERS)
def test_every_level_moves_legally_on_a_crowded_table_with_bounded_work(
        name: str, where: str, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    """Each level picks a legal move from its observation without listing every move;
    under a clock that runs at a millisecond a read, the work stays within a few
    thousand generations and successors, and the move comes within the limit (+0.1 s)
    of that clock. (``random`` and ``ismcts`` are no levels; they are held to the same.)"""
    pos = POSITIONS[where]()
    assert len(pos.loose) > SMALL_TABLE
    obs = pos.observation(0)
    bot, limit = player(name, 1)
    work = Work(monkeypatch, cap=20_000)
    start = clock.now
    move = bot.choose(obs, limit)
    elapsed = clock.now - start
    assert work.crowded_legal_moves == 0
    assert pos.is_legal(move)
    # Listing this table's moves would take hundreds of thousands; 895 at most when
    # written (expert on the house table in the last deal).
    assert work.generations + work.successors <= 5_000
    if limit.seconds is not None:
        assert elapsed <= limit.seconds + 0.1
    else:
        # No time limit: one generation per card in hand at most, and no search.
        assert work.generations <= len(pos.hand(0))
        assert work.successors == 0


#: Fake seconds each state a split search settles costs in the slow-generation test:
#: the root's candidates then take 0.67 s (Kasino, 133 states when written), 0.85 s
#: (house rules, 283) and 0.68 s (Krypkasino, 135), more than the medium and hard
#: levels' 0.5 s, (house) the expert level's 0.8 s and (Krypkasino) its 0.5 s; the
#: first card alone 0.18 s and 0.28 s.
STATE_COST = {"kasino": 0.005, "house": 0.003, "krypkasino": 0.005}


@pytest.mark.parametrize("where", list(POSITIONS))
@pytest.mark.parametrize("name", ["medium", "hard", "expert", "ismcts"])
def test_slow_move_generation_comes_out_of_the_time_limit(
        name: str, where: str, monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    """Where finding a crowded table's moves is slow (on Tablic, tenths of a second for
    one card), the limit still holds. Here every state a split search settles costs
    a few milliseconds of the fake clock (:data:`STATE_COST`): generating the root's
    candidates counts against the limit and stops at the deadline once a move is
    found, and no search starts generating moves past it or runs on in one."""
    exact = _Search.exact
    started: list[float] = []
    cands = Position.candidate_moves

    cost = STATE_COST[where.split("-")[0]]

    def slow_exact(search: _Search, counts: tuple[int, ...]) -> bool:
        clock.now += cost
        return exact(search, counts)

    def noted(pos: Position) -> Any:
        if len(pos.loose) > SMALL_TABLE:
            started.append(clock.now)
        return cands(pos)

    monkeypatch.setattr(_Search, "exact", slow_exact)
    monkeypatch.setattr(Position, "candidate_moves", noted)
    pos = POSITIONS[where]()
    bot, limit = player(name, 2)
    assert limit.seconds is not None
    start = clock.now
    move = bot.choose(pos.observation(0), limit)
    elapsed = clock.now - start
    assert pos.is_legal(move)
    assert all(t <= start + limit.seconds for t in started)
    assert elapsed <= limit.seconds + 0.1


def test_root_candidates_stop_at_the_deadline_once_a_move_is_found() -> None:
    """Card by card: with the deadline already passed, the first card that has moves is
    generated (a bot must move), and no split search of a later card runs."""
    pos = kasino_27()
    full = candidates(pos)
    assert full == list(pos.candidate_moves().moves)
    cut = candidates(pos, deadline=0.0)
    first = min(pos.hand(0))
    assert cut == list(pos.moves_of(first).moves)
    assert cut and all(pos.is_legal(m) for m in cut)
    assert len(cut) < len(full)


def test_a_split_search_stops_at_its_deadline_and_keeps_nothing() -> None:
    """``partition.deadline``: a search running past it raises OutOfTime, and the same
    question asked again without a deadline gets the full answer."""
    cards = [v for v in range(1, 7) for _ in range(4)]
    piece = lambda c: Piece((c,), optional=True)  # noqa: E731
    with pytest.raises(OutOfTime), time_limit(0.0):
        best_split(cards, 16, piece, min_group=2, score=lambda c: 1)
    split = best_split(cards, 16, piece, min_group=2, score=lambda c: 1)
    assert split is not None and sum(split.cards) % 16 == 0
    with time_limit(None):
        assert best_split(cards, 16, piece, min_group=2, score=lambda c: 1) == split


def test_a_search_past_its_deadline_generates_no_crowded_moves(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """The solver reads the clock at every node: past the deadline it aborts before
    generating a crowded table's moves."""
    pos = kasino_27(stock=0)
    work = Work(monkeypatch)
    trail = Move(TRAIL, parse_card("Ks"))
    s = Searcher(0, horizon="round", deadline=0.0)
    with pytest.raises(SearchAborted):
        s.values(pos, [trail], depth=3)
    assert work.generations == 0


def test_a_search_stops_a_crowded_generation_at_its_deadline(
        monkeypatch: pytest.MonkeyPatch, clock: FakeClock) -> None:
    """A crowded table's moves begun before the deadline stop at it: with each settled
    state costing 10 ms, the opponent's replies to a trail (28 loose cards, 123 states
    when written) would take over a second to find; begun 50 ms before the deadline,
    the search aborts within a state or two of it."""
    exact = _Search.exact

    def slow_exact(search: _Search, counts: tuple[int, ...]) -> bool:
        clock.now += 0.01
        return exact(search, counts)

    monkeypatch.setattr(_Search, "exact", slow_exact)
    pos = kasino_27(stock=0)
    deadline = clock.now + 0.05
    s = Searcher(0, horizon="round", deadline=deadline)
    with pytest.raises(SearchAborted):
        s.values(pos, [Move(TRAIL, parse_card("Ks"))], depth=3)
    assert deadline < clock.now <= deadline + 0.03


def test_limit_less_counts_time_already_spent() -> None:
    assert Limit(seconds=0.5, iterations=3).less(0.2) == Limit(seconds=0.3, iterations=3)
    assert Limit(seconds=0.5).less(0.7) == Limit(seconds=0.0)
    assert Limit(iterations=4).less(9.0) == Limit(iterations=4)


def test_a_bot_thinks_within_its_limit_less_the_reserve(clock: FakeClock) -> None:
    """What is left to think is the limit less the time spent reading the observation
    and generating the candidates, less the reserve for what follows the deadline."""
    seen: list[Limit] = []

    class Spy(RandomBot):
        def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
            seen.append(limit)
            return moves[0]

    pos = kasino_27()
    Spy(seed=1).choose(pos.observation(0), Limit(seconds=0.5, iterations=7))
    assert seen and seen[0].iterations == 7
    # The fake clock read at least twice (the call, the candidates) before pick.
    assert seen[0].seconds is not None and seen[0].seconds <= 0.5 - RESERVE - 0.002
    Spy(seed=1).choose(pos.observation(0), Limit(seconds=0.2))
    assert seen[1].seconds is not None and seen[1].seconds <= 0.2 - 0.02  # a tenth

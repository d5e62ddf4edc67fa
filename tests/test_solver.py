"""The perfect-information solver (issue 3: exact play of the last deal).

Three small last-deal positions of the house rules are worked out by hand
below; the solver must find the same values and best moves. Then the solver's
alpha-beta with its transposition table must agree with a plain minimax, with
no pruning and no table, on random small last-deal positions of several presets.

In the hand-worked positions every unnamed card sits in seat 1's pile
(``fill_seat=1``), so seat 1 has most cards (3) and most spades (1), and every
point card not named (the Aces: 4, the 2s: 1, and the Td when unnamed: 2). What
the few cards in play decide is the Td when named, and sweeps.
"""

from __future__ import annotations

import math
import random

import pytest

from casino import Match, Position
from casino.bots import evaluation
from casino.bots.solver import game_value, search, solve
from tests.variant_positions import pos


def values_by_move(p: Position) -> dict[str, float]:
    return {str(m): solve(p.successor(m), p.to_move)[1] for m in p.legal_moves()}


def test_solver_takes_the_sweep_rather_than_build_with_the_big_casino() -> None:
    # Seat 0: Td 5h; seat 1: 5c; table 5d. Seat 1's fixed items: 3+1+4+1 = 9.
    # 5h x 5d clears the table: a sweep (+1). Seat 1 must trail 5c, seat 0 trails Td,
    #   and the leftovers 5c Td go to seat 0, the last capturer: Td +2. 3 - 9 = -6.
    # 5h+5d =10: seat 1 trails 5c, Td takes the build (not a sweep, 5c stays) and the
    #   leftover 5c: Td only. 2 - 9 = -7.
    # Trail Td: 5c takes 5d, leaving Td, and as last capturer seat 1 gets it: -11.
    # Trail 5h: 5c takes 5d and 5h, a sweep; then Td is a leftover for seat 1: -12.
    p = pos("casino", ["Td 5h", "5c"], "5d", fill="piles", fill_seat=1)
    assert values_by_move(p) == {"5h x 5d": -6, "5h+5d =10": -7, "Td": -11, "5h": -12}
    move, value = solve(p)
    assert (str(move), value) == ("5h x 5d", -6)


def test_solver_keeps_the_big_casino_away_from_the_opponent() -> None:
    # Seat 0: Td 8h; seat 1: 8c; table 2d. Seat 1's fixed items: 9.
    # 8h+2d =10 (Td held): seat 1 can only trail 8c; Td takes the build and the 8c is
    #   a leftover for seat 0: Td +2, so -7.
    # Trail Td: seat 1 trails 8c (it captures nothing), 8h takes 8c, and seat 0, the
    #   last capturer, gets the leftovers 2d and Td: -7 as well.
    # Trail 8h: 8c takes it, the Td is trailed and seat 1 gets it as leftover: -11.
    p = pos("casino", ["Td 8h", "8c"], "2d", fill="piles", fill_seat=1)
    assert values_by_move(p) == {"8h+2d =10": -7, "Td": -7, "8h": -11}
    assert solve(p)[1] == -7


def test_solver_does_not_build_what_the_opponent_can_sweep() -> None:
    # Seat 0: 4h 9c; seat 1: 9d 2c; table 5h. The Td is unnamed, so seat 1's fixed
    # items are 9 + 2 = 11 and only sweeps are in play.
    # 4h+5h =9 (9c held) looks natural, but 9d takes the build: a sweep, -12.
    # Trail 4h: 9d takes 5h+4h, a sweep, -12.
    # Trail 9c: 9d can take the 9c but not the 5h, so no sweep; nor can anything later
    #   clear the table (4h and 2c capture nothing): -11.
    p = pos("casino", ["4h 9c", "9d 2c"], "5h", fill="piles", fill_seat=1)
    assert values_by_move(p) == {"4h+5h =9": -12, "4h": -12, "9c": -11}
    move, value = solve(p)
    assert (str(move), value) == ("9c", -11)


def test_solver_value_is_the_round_margin_from_either_seat() -> None:
    p = pos("casino", ["4h 9c", "9d 2c"], "5h", fill="piles", fill_seat=1)
    assert solve(p, 1)[1] == 11


def plain_minimax(p: Position, seat: int) -> float:
    """No pruning, no table: max on seat's side, min on the others' (as the solver)."""
    if p.result is not None:
        return evaluation.value(p, seat)
    rules = p.rules
    vals = [plain_minimax(p.successor(m), seat) for m in p.legal_moves()]
    mine = rules.team_of(p.to_move) == rules.team_of(seat)
    return max(vals) if mine else min(vals)


def small_last_deal(name: str, players: int, seed: int, cards: int) -> Position | None:
    """A random position of the last deal with at most ``cards`` cards in each hand."""
    rng = random.Random(seed)
    m = Match(name, seed=seed, players=players)
    while m.position.result is None:
        p = m.position
        if p.stock_size == 0 and max(p.hand_size(s) for s in range(players)) <= cards:
            return p
        moves = p.legal_moves()
        onto = [x for x in moves if x.kind in ("build", "add", "raise")]
        m.play(rng.choice(onto) if onto and rng.random() < 0.4 else rng.choice(moves))
    return None


@pytest.mark.parametrize(("name", "players"), [
    ("casino", 2), ("krypkasino", 2), ("kasino", 2), ("classic", 2), ("royal", 2),
    ("mulle", 2), ("tablic", 2), ("classic", 4), ("kasino", 3),
])
def test_solver_agrees_with_plain_minimax_on_random_last_deals(name: str, players: int) -> None:
    checked = 0
    for seed in range(40):
        p = small_last_deal(name, players, seed, 3 if players == 2 else 2)
        if p is None:
            continue
        seat = p.to_move
        move, value = solve(p, seat)
        expected = plain_minimax(p, seat)
        assert value == expected, f"seed {seed}: solver {value}, minimax {expected}"
        assert plain_minimax(p.successor(move), seat) == expected
        checked += 1
        if checked == 4:
            break
    assert checked >= 3


def test_search_with_a_budget_returns_a_legal_move_and_deepens() -> None:
    p = small_last_deal("casino", 2, 3, 4)
    assert p is not None
    r = search(p, max_nodes=5)
    assert p.is_legal(r.move)
    assert not r.exact
    full = search(p)
    assert full.exact and full.value == solve(p)[1]


def test_search_to_the_end_of_the_deal_stops_at_the_next_deal() -> None:
    m = Match("casino", seed=5)
    p = m.position
    r = search(p, horizon="deal")
    assert r.exact and p.is_legal(r.move) and math.isfinite(r.value)


def test_game_value_counts_a_won_game_above_any_margin() -> None:
    p = pos("casino", ["4h 9c", "9d 2c"], "5h", fill="piles", fill_seat=1, scores=[20, 19])
    # Seat 1 scores 11 or 12 points: it reaches 21 and wins whatever seat 0 does.
    move, value = solve(p, terminal=game_value)
    assert value == -1000 - 11 and str(move) == "9c"


def test_capped_values_are_exact_near_the_best_and_upper_bounds_below_it() -> None:
    from casino.bots.solver import Searcher

    for seed in range(6):
        p = small_last_deal("casino", 2, seed, 3)
        if p is None:
            continue
        seat = p.to_move
        moves = p.legal_moves()
        exact = Searcher(seat).values(p, moves)
        capped = Searcher(seat).values(p, moves, cap=2.0)
        best = max(exact)
        for e, c in zip(exact, capped, strict=True):
            if e > best - 2.0:
                assert c == e
            else:
                # Proven at least ``cap`` worse than the best: an upper bound of its value.
                assert e <= c <= best - 2.0
        assert max(capped) == best


def test_cached_move_order_is_every_legal_move_once() -> None:
    from casino.bots.solver import ordered_moves

    rng = random.Random(2)
    m = Match("casino", seed=8)
    while m.position.result is None:
        p = m.position
        first = ordered_moves(p)
        again = ordered_moves(p)  # from the cache
        assert first == again
        assert sorted(map(str, first)) == sorted(map(str, p.legal_moves()))
        m.play(rng.choice(p.legal_moves()))


def test_searcher_evaluates_each_horizon_position_once() -> None:
    from casino.bots.solver import Searcher

    # A search to the deal's end meets the same next-deal position by many move
    # orders (captures taken in either order); each is evaluated once, and the
    # cached values are the evaluation's own.
    calls: list[Position] = []

    def counting(q: Position, seat: int) -> float:
        calls.append(q)
        return evaluation.estimate(q, seat)

    p = Match("casino", seed=5).position
    s = Searcher(p.to_move, horizon="deal", evaluate=counting)
    values = s.values(p, p.legal_moves())
    assert calls and len(calls) == len(set(calls))
    plain = Searcher(p.to_move, horizon="deal", evaluate=evaluation.estimate)
    assert plain.values(p, p.legal_moves()) == values
    # Depth-limited leaves (mid-deal) are cached too.
    calls.clear()
    Searcher(p.to_move, horizon="deal", evaluate=counting).values(p, p.legal_moves(), 3)
    assert calls and len(calls) == len(set(calls))

"""The search bots: ``expert``, ``pimc`` and the ``pimc-oracle`` yardstick (issue 3).

They must return legal moves on every preset from observations only, play the
last deal of a two-player game exactly (it is of perfect information once the
cards are counted), and the oracle must refuse to play from an observation.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from casino import Match, Position
from casino.bots import BOTS, Limit, make_bot
from casino.bots.expert import perfect_information
from casino.bots.pimc import PimcOracle
from casino.bots.solver import game_value, solve
from tests.test_bots_protocol import positions

CASES = [("casino", 2), ("krypkasino", 2), ("kasino", 3), ("kasino", 4), ("classic", 4),
         ("classic", 3), ("royal", 2), ("spade", 3), ("faces-all", 2), ("mulle", 2),
         ("tablic", 2)]
SMALL = Limit(seconds=0.05, iterations=2)


def last_deals(name: str, seeds: range, cards: int = 3) -> Iterator[Position]:
    """Two-player last-deal positions with at most ``cards`` cards in each hand."""
    for seed in seeds:
        for p in positions(name, 2, seed, every=1):
            if p.stock_size == 0 and max(p.hand_size(s) for s in (0, 1)) <= cards \
                    and len(p.legal_moves()) > 1:
                yield p
                break


@pytest.mark.parametrize("bot_name", ["expert", "pimc"])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_search_bot_returns_a_legal_move_on_every_preset(bot_name: str, name: str,
                                                         players: int) -> None:
    bot = make_bot(bot_name, seed=3)
    for p in positions(name, players, seed=11, every=7):
        move = bot.choose(p.observation(p.to_move), SMALL)
        assert p.is_legal(move), f"{bot_name} chose {move} in {name}"


@pytest.mark.parametrize("bot_name", ["expert", "pimc"])
def test_search_bot_refuses_a_full_position(bot_name: str) -> None:
    p = Match("casino", seed=4).position
    with pytest.raises(ValueError, match="observation"):
        make_bot(bot_name, seed=1).choose(p, SMALL)
    # Its own observation is accepted, as a Position or as JSON.
    assert p.is_legal(make_bot(bot_name, seed=1).choose(p.observe(p.to_move), SMALL))


def test_perfect_information_rebuilds_the_true_position_in_the_last_deal() -> None:
    for p in last_deals("casino", range(5), cards=4):
        assert perfect_information(p.observe(p.to_move)) == p
    assert perfect_information(Match("casino", seed=1).position.observe(0)) is None


@pytest.mark.parametrize("name", ["casino", "classic", "kasino", "mulle"])
def test_expert_plays_the_last_deal_exactly(name: str) -> None:
    bot = make_bot("expert", seed=5)
    checked = 0
    for p in last_deals(name, range(12)):
        seat = p.to_move
        _, best = solve(p, seat, terminal=game_value)
        move = bot.choose(p.observation(seat), Limit(seconds=60))
        assert solve(p.successor(move), seat, terminal=game_value)[1] == best
        checked += 1
    assert checked >= 6


@pytest.mark.parametrize("name", ["casino", "royal"])
def test_pimc_with_one_sample_in_the_last_deal_finds_the_solver_value(name: str) -> None:
    bot = make_bot("pimc", seed=6)
    for p in last_deals(name, range(8)):
        seat = p.to_move
        _, best = solve(p, seat, terminal=game_value)
        move = bot.choose(p.observation(seat), Limit(seconds=60, iterations=1))
        assert solve(p.successor(move), seat, terminal=game_value)[1] == best


def test_oracle_refuses_observations_and_plays_full_positions() -> None:
    oracle = make_bot("pimc-oracle", seed=1)
    assert isinstance(oracle, PimcOracle) and oracle.sees_all
    p = Match("casino", seed=8).position
    with pytest.raises(TypeError, match="choose_full"):
        oracle.choose(p.observation(p.to_move))
    assert p.is_legal(oracle.choose_full(p, SMALL))
    for q in last_deals("casino", range(4)):
        move = oracle.choose_full(q, Limit(seconds=60))
        assert solve(q.successor(move), q.to_move, terminal=game_value)[1] == \
            solve(q, q.to_move, terminal=game_value)[1]


def test_search_bots_are_registered() -> None:
    assert {"expert", "pimc", "pimc-oracle"} <= set(BOTS)


@pytest.mark.parametrize(("name", "players"), [("casino", 2), ("kasino", 4), ("tablic", 2)])
def test_pimc_searching_past_the_deal_returns_legal_moves(name: str, players: int) -> None:
    from casino.bots.pimc import PimcBot

    class Deep(PimcBot):
        min_plies = 6
        cap = 3.0

    bot = Deep(seed=5)
    for p in positions(name, players, seed=12, every=5):
        move = bot.choose(p.observation(p.to_move), SMALL)
        assert p.is_legal(move), f"pimc (past the deal) chose {move} in {name}"

"""Our second move as one choice across samples (``casino.bots.uniform``, issue 3).

Plain PIMC lets each sample choose our next move knowing that sample's hidden
cards (strategy fusion); the uniform search must make one choice per history
(our move, the reply) for every sample where that history can happen, while the
opponent still picks its reply sample by sample.
"""

from __future__ import annotations

import random

import pytest

from casino import Match, Move, Position
from casino.bots import Limit, evaluation
from casino.bots.expert import candidates
from casino.bots.knowledge import sample
from casino.bots.pimc import PimcBot
from casino.bots.solver import Searcher, game_value
from casino.bots.uniform import ReplyTable, sample_tables, uniform_choose, uniform_totals
from casino.moves import TRAIL
from tests.test_bots_protocol import positions

R1, R2 = Move(TRAIL, 1), Move(TRAIL, 2)  # any two distinct moves serve as reply keys


def test_our_second_move_is_one_choice_for_every_sample_with_that_history() -> None:
    # Root move 0: after the same reply, our best second move is the first in sample A
    # (5 against 0) and the second in sample B (0 against 3). Per sample that would be
    # 5 + 3 = 8; one choice for both can make only 5 (the first) or 3 (the second).
    # Root move 1 is worth 6 in each sample whatever follows.
    a: list[ReplyTable | float] = [{R1: [5.0, 0.0]}, 3.0]
    b: list[ReplyTable | float] = [{R1: [0.0, 3.0]}, 3.0]
    assert uniform_totals([a, b], 2) == [5.0, 6.0]


def test_the_opponent_still_replies_sample_by_sample() -> None:
    # In sample A the reply R2 is bad for us, in B it is not possible (B's hand lacks
    # the card); the opponent takes the worst reply for us in each sample.
    a: list[ReplyTable | float] = [{R1: [4.0, 1.0], R2: [-2.0, 0.0]}]
    b: list[ReplyTable | float] = [{R1: [1.0, 3.0]}]
    # After R1 our choice sums to 5 (first) against 4 (second): the first, so B is
    # worth 1; after R2 (only in A) the best is 0, the opponent's minimum in A.
    assert uniform_totals([a, b], 1) == [0.0 + 1.0]


def test_one_sample_gives_the_plain_search_values() -> None:
    # With a single sample there is nothing to fuse: the values are plain alpha-beta's.
    p = next(q for q in positions("casino", 2, seed=5, every=1)
             if q.hand_size(q.to_move) == 3 and q.stock_size)
    obs = p.observe(p.to_move)
    cand = candidates(obs, obs.legal_moves())
    full = sample(obs, random.Random(1))
    tables = sample_tables(full, p.to_move, cand, evaluation.deal_start_estimate, None, None)
    got = uniform_totals([tables], len(cand))
    s = Searcher(p.to_move, horizon="deal", evaluate=evaluation.deal_start_estimate,
                 terminal=game_value)
    want = s.values(full, cand, 4)
    assert got == pytest.approx(want)


def test_uniform_choice_needs_a_completed_sample() -> None:
    p = Match("casino", seed=3).position
    obs = p.observe(p.to_move)
    cand = candidates(obs, obs.legal_moves())
    rng = random.Random(2)
    # A deadline already past: not even the first sample completes.
    assert uniform_choose(obs, cand, lambda: sample(obs, rng), 5, 0.0,
                          evaluation.deal_start_estimate, 25, 0.0) is None


class Uniform(PimcBot):
    uniform_second = True


@pytest.mark.parametrize(("name", "players"), [("casino", 2), ("krypkasino", 2),
                                               ("tablic", 2), ("kasino", 3), ("classic", 4)])
def test_pimc_with_a_uniform_second_move_returns_legal_moves(name: str, players: int) -> None:
    bot = Uniform(seed=5)
    for p in positions(name, players, seed=13, every=6):
        move = bot.choose(p.observation(p.to_move), Limit(seconds=0.05, iterations=2))
        assert p.is_legal(move), f"pimc (uniform second move) chose {move} in {name}"


def test_pimc_falls_back_to_the_plain_search_when_the_first_sample_is_too_slow() -> None:
    p: Position = Match("casino", seed=3).position  # a deal's first move: the costliest
    bot = Uniform(seed=1)
    assert p.is_legal(bot.choose(p.observation(p.to_move), Limit(seconds=0.001, iterations=3)))

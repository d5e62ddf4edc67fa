"""Reading the other hands from this deal's plays (``casino.bots.inference``, issue 3).

A player who trails while a valuable capture lies on the table most likely
could not make it: samples where it could are weighed down. Only plays of the
current deal count, and only as a player saw them.
"""

from __future__ import annotations

import math
import random
from dataclasses import replace
from typing import Any

import pytest

from casino import Move, Position
from casino.bots import Limit
from casino.bots.inference import PlayReader, deal_plays, inferred_sampler, play_likelihood
from casino.bots.knowledge import sample
from casino.bots.pimc import PimcBot
from casino.cards import card_text, parse_cards
from casino.moves import TRAIL


def deal_one(hand0: str, hand1: str, table: str, to_move: int) -> Position:
    """A first deal of the house rules with these hands and table, the rest in the stock."""
    used = set(parse_cards(f"{hand0} {hand1} {table}"))
    stock = [card_text(c) for c in range(52) if c not in used]
    return Position.from_json({
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 1,
        "dealer": 1 - to_move, "to_move": to_move, "last_capture": None, "sweeps": [],
        "set_aside": [], "scores": [0, 0], "result": None,
        "hands": [hand0.split(), hand1.split()], "table": table.split(),
        "piles": [[], []], "stock": stock})


#: Seat 1 trails the 3♥ although the 10♦ lies on the table; seat 0 then decides.
BEFORE = deal_one("2c 3c 4c 5c", "3h 9s 8s 7s", "Td 6d", to_move=1)
TRAIL_3H = Move(TRAIL, parse_cards("3h")[0])
AFTER = BEFORE.play(TRAIL_3H)
HISTORY = [(BEFORE.observe(0), TRAIL_3H)]


def test_the_model_is_a_distribution_over_the_legal_moves() -> None:
    obs = BEFORE.observe(0)
    hand = parse_cards("3h Ts 8s 7s")
    moves = replace(obs, hands=(obs.hands[0], hand)).legal_moves()
    assert len(moves) > 4
    assert math.fsum(play_likelihood(obs, m, hand) for m in moves) == pytest.approx(1.0)
    assert 0 < play_likelihood(obs, TRAIL_3H, hand) < 1


def test_a_declined_capture_makes_the_hands_that_could_take_it_less_likely() -> None:
    obs = BEFORE.observe(0)
    could = play_likelihood(obs, TRAIL_3H, parse_cards("3h Ts 8s 7s"))
    could_not = play_likelihood(obs, TRAIL_3H, parse_cards("3h 9s 8s 7s"))
    assert could < could_not / 2
    # A hand without the played card cannot have played it.
    assert play_likelihood(obs, TRAIL_3H, parse_cards("9s 8s 7s 2h")) == 0.0


def test_only_the_other_seats_plays_of_this_deal_count() -> None:
    later = AFTER.observe(0)
    mine = (later, AFTER.legal_moves()[0])
    assert deal_plays(later, [*HISTORY, mine]) == HISTORY
    assert deal_plays(replace(later, deal=2), HISTORY) == []


def test_weighted_samples_hold_the_declined_card_less_often() -> None:
    obs = AFTER.observe(0)
    tens = set(parse_cards("Tc Th Ts"))

    def share(draw: Any, n: int = 600) -> float:
        return sum(any(c in tens for c in draw().hand(1)) for _ in range(n)) / n

    rng = random.Random(5)
    uniform = share(lambda: sample(obs, rng))
    inferred = share(inferred_sampler(obs, HISTORY, random.Random(5), 150))
    assert uniform > 0.15  # three tens among the 3 hidden cards of ~40 unseen
    assert inferred < uniform * 0.6


def test_weights_are_one_without_plays_and_samples_stay_consistent() -> None:
    obs = AFTER.observe(0)
    assert PlayReader([]).weight(sample(obs, random.Random(1))) == 1.0
    draw = inferred_sampler(obs, HISTORY, random.Random(2), 10)
    for _ in range(20):
        full = draw()
        assert full.hand(0) == obs.hand(0) and full.table == obs.table
        assert len(full.hand(1)) == 3 and not set(full.hand(1)) & set(obs.hand(0))


def test_a_bot_refuses_a_history_that_shows_hidden_cards() -> None:
    obs = AFTER.observation(0)
    with pytest.raises(ValueError, match="observation"):
        PimcBot(seed=1).choose(obs, Limit(seconds=0.05, iterations=2),
                               [(BEFORE, TRAIL_3H)])


def test_pimc_reading_the_plays_returns_legal_moves() -> None:
    class Reader(PimcBot):
        infer = True

    move = Reader(seed=3).choose(AFTER.observation(0), Limit(seconds=0.2, iterations=6),
                                 HISTORY)
    assert AFTER.is_legal(move)

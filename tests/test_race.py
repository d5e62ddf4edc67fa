"""The counting-order race (casino.bots.race): who is likely to end the game this round."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from casino.bots.evaluation import DEFAULT_PARAMS, estimate, value
from casino.bots.race import phases, race, race_value
from casino.engine.cards import parse_card, parse_cards
from casino.engine.match import Match
from casino.engine.position import Position
from casino.engine.rules import Rules

MULLE = Rules.preset("mulle")


def start(rules: Rules, scores: tuple[int, ...], seed: int = 5) -> Position:
    deck = list(range(52)) * rules.decks
    random.Random(seed).shuffle(deck)
    return Position.start_round(rules, deck, 0, scores=scores)


def test_phases_follow_the_counting_order_of_mulle() -> None:
    kinds = [p.kind for p in phases(MULLE)]
    assert kinds == ["spades", "card", "card", "card", "card", "card", "card",
                     "sweeps", "mulles", "last"]
    assert phases(MULLE)[1].card == parse_card("Td") and phases(MULLE)[1].points == 2


@pytest.mark.parametrize("name", ["classic", "krypkasino", "kasino", "tablic"])
def test_no_race_where_the_game_is_not_won_in_counting_order(name: str) -> None:
    rules = Rules.preset(name)
    assert phases(rules) == ()
    assert race(start(rules, (0,) * rules.players)) == {}
    assert race_value(start(rules, (0,) * rules.players), 0, 16.0) == 0.0


def test_equal_sides_have_equal_chances() -> None:
    got = race(start(MULLE, (10, 10)))
    assert got[0] == pytest.approx(got[1])
    assert 0.0 < got[0] < 0.5


def test_a_side_one_point_short_is_nearly_sure_to_win() -> None:
    # Most spades, the Td, the 2s and the Aces come before the other side's mulles.
    got = race(start(MULLE, (20, 12)))
    assert got[0] > 0.95 and got[1] < 0.05


def test_points_counted_early_beat_points_counted_late() -> None:
    """At 17-17, two Td (4 points, counted second) win the race against two mulles
    (10 points, counted next to last): the margin says otherwise."""
    pos = start(MULLE, (17, 17))
    td = parse_card("Td")
    early = replace(pos, piles=((td, td), ()))
    late = replace(pos, piles=((), tuple(parse_cards("7h 7h 9c 9c"))), mulles=(1, 1))
    assert race(early)[0] > 0.9
    # Ten points banked late leave the open early items to decide: about even.
    assert 0.4 < race(late)[1] < 0.6
    both = replace(pos, piles=((td, td), tuple(parse_cards("7h 7h 9c 9c"))), mulles=(1, 1))
    assert value(both, 0) < 0 < race_value(both, 0, 16.0)


def test_the_race_is_read_from_the_seat_side() -> None:
    pos = replace(start(MULLE, (19, 5)), piles=((parse_card("2s"),), ()))
    assert race_value(pos, 0, 10.0) == pytest.approx(-race_value(pos, 1, 10.0))
    assert race_value(pos, 0, 10.0) > 9.0


def test_a_finished_round_has_no_race_and_estimate_stays_exact() -> None:
    m = Match(MULLE, seed=3, first_dealer=0)
    rng = random.Random(1)
    while m.position.result is None:
        m.play(rng.choice(m.position.legal_moves()))
    pos = m.position
    assert race(pos) == {}
    params = replace(DEFAULT_PARAMS, race_win=16.0)
    assert estimate(pos, 0, params) == value(pos, 0)


def test_estimate_adds_the_race_only_when_asked() -> None:
    pos = start(MULLE, (15, 15))
    on = replace(DEFAULT_PARAMS, race_win=16.0)
    shifted = replace(pos, piles=((parse_card("Td"),), ()))
    assert estimate(pos, 0, on) == pytest.approx(estimate(pos, 0))
    gain_off = estimate(shifted, 0) - estimate(pos, 0)
    gain_on = estimate(shifted, 0, on) - estimate(pos, 0, on)
    assert gain_on > gain_off + 1.0


def test_chances_stay_probabilities_through_random_rounds() -> None:
    for seed in range(3):
        m = Match(MULLE, seed=seed, first_dealer=seed % 2)
        rng = random.Random(seed)
        scores = (rng.randrange(21), rng.randrange(21))
        while m.position.result is None:
            got = race(replace(m.position, scores=scores))
            assert all(0.0 <= p <= 1.0 for p in got.values())
            assert sum(got.values()) <= 1.0 + 1e-9
            m.play(rng.choice(m.position.legal_moves()))

"""The outside yardstick (counter and searcher, casino.bots.counter / .searcher): the
worth they count, counter's one-ply choices, the searcher's exact last deal and its
limits, determinism, and full rounds of several presets through the arena."""

from __future__ import annotations

import itertools
import random

import pytest

from casino import Match, Position, parse_card
from casino.bots import BOTS, Limit, make_bot
from casino.bots import knowledge as knowledge_module
from casino.bots.counter import (
    SWEEP,
    WORTH,
    CounterBot,
    Tables,
    counter_scores,
    margin_gain,
)
from casino.bots.levels import LEVELS
from casino.bots.searcher import SearcherBot
from casino.bots.solver import Searcher, game_value
from casino.engine.moves import BUILD, TRAIL
from casino.engine.rules import preset
from casino.measure.arena import play_game
from tests.variant_positions import pos


def worth(text: str) -> float:
    return WORTH[parse_card(text)]


def obs(p: Position) -> Position:
    return p.observe(p.to_move)


# ----------------------------------------------------------------------
# Worth


def test_worth_is_the_description_s_fixed_numbers() -> None:
    assert worth("7h") == pytest.approx(0.2)
    assert worth("7s") == pytest.approx(0.2 + 0.15)
    assert worth("Ah") == pytest.approx(0.2 + 1)
    assert worth("As") == pytest.approx(0.2 + 0.15 + 1)
    assert worth("Td") == pytest.approx(0.2 + 2)
    assert worth("Ts") == pytest.approx(0.2 + 0.15)
    assert worth("2s") == pytest.approx(0.2 + 0.15 + 1)
    assert worth("2c") == pytest.approx(0.2)
    assert SWEEP == 1.0


def test_a_sweep_adds_one_and_the_margin_counts_the_cards_taken() -> None:
    p = pos("casino", ["9s 2h", "Jh Jd Qh Qd"], "9h 4c 5d")
    sweep = p.parse_move("9s x 9h 5d+4c")
    assert margin_gain(p, sweep, 0) == pytest.approx(0.35 + 3 * 0.2 + 1)
    assert margin_gain(p, sweep, 1) == pytest.approx(-(0.35 + 3 * 0.2 + 1))
    assert margin_gain(p, p.parse_move("2h"), 0) == 0.0


def test_the_round_s_last_card_hands_the_leftovers_to_the_last_capturer() -> None:
    p = pos("casino", ["", "7c"], "Td 3h", to_move=1, fill="piles", last_capture=0)
    assert margin_gain(p, p.parse_move("7c"), 0) == pytest.approx(2.2 + 0.2 + 0.2)


# ----------------------------------------------------------------------
# counter


def test_counter_takes_the_big_casino_rather_than_trail() -> None:
    p = pos("casino", ["Tc 9c", "Jh Jd Qh Qd"], "Td 9h")
    assert str(CounterBot(0).choose(obs(p))) == "Tc x Td"


def test_counter_leaves_no_easy_sweep_for_the_capture_worth_most_now() -> None:
    # The last deal: the opponent's 5d is known. Taking the 9s, the most worth to take
    # now, leaves the 5h alone for it to sweep (1.4 worth for 0.55); a trail gives
    # away only the 5h pair.
    p = pos("casino", ["9c Kh", "5d Qc"], "9s 5h", fill="piles")
    now = {str(m): margin_gain(p, m, 0) for m in p.legal_moves()}
    assert max(now, key=lambda m: now[m]) == "9c x 9s"
    move = CounterBot(0).choose(obs(p))
    assert move.kind == TRAIL
    scores = counter_scores(obs(p), [p.parse_move("9c x 9s"), move], [p], 0, Tables())
    assert scores == pytest.approx([0.55 - 1.4, -0.4])


def test_counter_credits_eight_tenths_of_its_standing_builds() -> None:
    # Nothing the opponent holds takes an 8-build; trailing the 8h gives the Kd 8h+5d.
    p = pos("casino", ["3c 8h", "Kd Kc"], "5d", fill="piles")
    move = CounterBot(0).choose(obs(p))
    assert move.kind == BUILD and move.value == 8
    trail = p.parse_move("3c")
    scores = counter_scores(obs(p), [move, trail], [p], 0, Tables())
    assert scores == pytest.approx([0.8 * (0.2 + 0.2), 0.0])


def test_counter_draws_as_many_samples_as_its_iterations(
        monkeypatch: pytest.MonkeyPatch) -> None:
    import casino.bots.counter as counter_module

    drawn: list[int] = []

    def counting(p: Position, rng: random.Random) -> Position:
        drawn.append(1)
        return knowledge_module.sample(p, rng)

    monkeypatch.setattr(counter_module, "sample", counting)
    p = Match("casino", seed=4).position
    CounterBot(1).choose(p.observation(p.to_move), Limit(iterations=5))
    assert len(drawn) == 5
    drawn.clear()
    CounterBot(1).choose(p.observation(p.to_move))
    assert len(drawn) == 24


# ----------------------------------------------------------------------
# searcher


def last_deal_positions(seeds: tuple[int, ...]) -> list[Position]:
    """Positions of the last deal of casino rounds (two players, stock empty) with a
    choice left, from games of greedy against itself."""
    out = []
    for seed in seeds:
        m = Match("casino", seed=seed)
        bots = [make_bot("greedy", seed), make_bot("greedy", seed + 1)]
        while m.position.result is None:
            p = m.position
            if p.stock_size == 0 and len(p.candidate_moves().moves) > 1 and p.hand_size(
                    p.to_move) >= 2:
                out.append(p)
            m.play(bots[p.to_move].choose(p.observation(p.to_move)))
    return out


def test_the_searcher_plays_the_exact_solver_s_move_in_the_last_deal() -> None:
    # On three of these positions the playouts alone (no solve) choose a worse move.
    checked = 0
    for p in last_deal_positions((6, 8)):
        moves = list(p.candidate_moves().moves)
        values = Searcher(p.to_move, horizon="round", terminal=game_value).values(p, moves)
        chosen = SearcherBot(1).choose(p.observation(p.to_move))
        assert values[moves.index(chosen)] == pytest.approx(max(values))
        checked += 1
    assert checked == 12


def deal_start() -> Position:
    return Match("casino", seed=3).position


def test_the_searcher_plays_as_many_worlds_as_its_iterations() -> None:
    bot = SearcherBot(1)
    bot.choose(deal_start().observe(deal_start().to_move), Limit(iterations=3))
    assert bot.last_worlds == 3
    bot.choose(deal_start().observe(deal_start().to_move))
    assert bot.last_worlds == 32


def test_the_searcher_stops_its_worlds_at_the_deadline(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A clock that moves a millisecond each time it is read: how many worlds fit a
    limit depends on the bot's reads, not on the machine."""
    import time

    ticks = itertools.count()
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.001)
    p = deal_start()
    done = []
    for seconds in (0.0, 0.3, 1.0):
        bot = SearcherBot(1)
        move = bot.choose(p.observation(p.to_move), Limit(seconds=seconds))
        assert p.is_legal(move)
        done.append(bot.last_worlds)
    assert done[0] == 0
    assert 0 < done[1] < done[2] < 32


def test_the_yardstick_is_deterministic_given_its_seed() -> None:
    positions = [p for i, p in enumerate(itertools.islice(_round(5), 30)) if i % 4 == 0]
    for name in ("counter", "searcher"):
        first = [str(make_bot(name, 7).choose(p.observation(p.to_move), Limit(iterations=4)))
                 for p in positions]
        again = [str(make_bot(name, 7).choose(p.observation(p.to_move), Limit(iterations=4)))
                 for p in positions]
        assert first == again


def _round(seed: int) -> list[Position]:
    m = Match("casino", seed=seed)
    bot = make_bot("greedy", seed)
    out = []
    while m.position.result is None:
        out.append(m.position)
        m.play(bot.choose(m.position.observation(m.position.to_move)))
    return out


def test_the_yardstick_refuses_to_see_hidden_cards() -> None:
    p = deal_start()
    for name in ("counter", "searcher"):
        with pytest.raises(ValueError, match="observation"):
            make_bot(name, 1).choose(p)
        assert p.is_legal(make_bot(name, 1).choose(p.observation(p.to_move),
                                                   Limit(iterations=2)))


def test_the_yardstick_are_benchmark_bots_not_levels() -> None:
    assert {"counter", "searcher"} <= set(BOTS)
    assert all(level.bot not in ("counter", "searcher") for level in LEVELS.values())


@pytest.mark.parametrize(("name", "players", "partners"), [
    ("casino", 2, False), ("classic", 2, False), ("kasino", 2, False),
    ("krypkasino", 2, False), ("kasino", 3, False), ("classic", 4, True),
    ("royal", 4, False)])
def test_the_yardstick_plays_whole_rounds_through_the_arena(name: str, players: int,
                                                            partners: bool) -> None:
    rules = preset(name, players=players, partnerships=partners) if partners else preset(
        name, players=players)
    limit = Limit(iterations=2)
    game = play_game(("searcher", "counter"), rules, seed=11, mirror=0, limits=(limit, limit),
                     max_rounds=1)
    # Every move was checked legal by the bot and played by the match; the round ended.
    assert game.rounds == 1 and game.moves >= rules.deck_size // 2

"""The ISMCTS bot and its oracle twin: legal moves everywhere, reproducible, finds the
obvious move, plays for the game at 19-19, and the subset-armed bandit's availability counts."""

from __future__ import annotations

import math
import random

import pytest

from casino import Match, Position
from casino.bots import BOTS, Limit, make_bot
from casino.bots.ismcts import (
    IsmctsBot,
    IsmctsOracle,
    Node,
    candidates,
    card_weights,
    game_on,
    select_child,
)
from casino.engine.moves import TRAIL, Move
from casino.engine.rules import PRESET_NAMES, preset

CONFIGS = [(name, None) for name in PRESET_NAMES] + [
    ("kasino", 3), ("kasino", 4), ("classic", 4), ("tablic", 4), ("mulle", 3)]


def _random_positions(name: str, players: int | None, seed: int, every: int) -> list[Position]:
    """Positions met in a random round (several deals, builds included)."""
    opts = {} if players is None else {"players": players}
    match = Match(name, seed=seed, **opts)
    rng = random.Random(seed)
    out = []
    i = 0
    while match.position.result is None:
        pos = match.position
        if i % every == 0 and len(pos.legal_moves()) > 1:
            out.append(pos)
        match.play(rng.choice(pos.legal_moves()))
        i += 1
    return out


@pytest.mark.parametrize(("name", "players"), CONFIGS)
def test_ismcts_returns_a_legal_move_on_every_preset(name: str, players: int | None) -> None:
    bot = IsmctsBot(seed=3)
    for pos in _random_positions(name, players, seed=11, every=9):
        move = bot.choose(pos.observation(pos.to_move), Limit(iterations=12))
        assert pos.is_legal(move)


@pytest.mark.parametrize(("name", "players"), [("casino", None), ("kasino", 3), ("classic", 4)])
def test_oracle_returns_a_legal_move_from_the_full_position(name: str,
                                                              players: int | None) -> None:
    bot = IsmctsOracle(seed=3)
    for pos in _random_positions(name, players, seed=12, every=12):
        assert pos.is_legal(bot.choose_full(pos, Limit(iterations=12)))


def test_deal_horizon_and_random_playouts_return_legal_moves() -> None:
    for kw in ({"horizon": "deal"}, {"policy": "random"}):
        bot = IsmctsBot(seed=4, **kw)  # type: ignore[arg-type]
        for pos in _random_positions("casino", None, seed=13, every=7):
            assert pos.is_legal(bot.choose(pos.observation(pos.to_move), Limit(iterations=15)))


def test_ismcts_is_deterministic_for_a_seed_and_an_iteration_limit() -> None:
    pos = _random_positions("casino", None, seed=21, every=5)[2]
    obs = pos.observation(pos.to_move)
    a, b = IsmctsBot(seed=9), IsmctsBot(seed=9)
    assert a.choose(obs, Limit(iterations=60)) == b.choose(obs, Limit(iterations=60))
    assert a.last is not None and b.last is not None
    stats_a = {m: (n.visits, n.total) for m, n in a.last.root.children.items()}
    stats_b = {m: (n.visits, n.total) for m, n in b.last.root.children.items()}
    assert stats_a == stats_b


def test_ismcts_runs_the_iterations_it_is_given() -> None:
    pos = _random_positions("casino", None, seed=22, every=5)[1]
    bot = IsmctsBot(seed=1)
    bot.choose(pos.observation(pos.to_move), Limit(iterations=37))
    assert bot.last is not None and bot.last.iterations == 37
    assert sum(n.visits for n in bot.last.root.children.values()) == 37


def test_ismcts_stops_at_a_seconds_limit_without_an_iteration_limit() -> None:
    pos = _random_positions("casino", None, seed=22, every=5)[1]
    bot = IsmctsBot(seed=1)
    move = bot.choose(pos.observation(pos.to_move), Limit(seconds=0.05))
    assert pos.is_legal(move)
    assert bot.last is not None and bot.last.iterations >= 1


def _td_position() -> Position:
    # Last deal: Th takes the Td (2 points and the 10 itself) or the opponent may.
    return Position.from_json({
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 6,
        "dealer": 1, "to_move": 0,
        "hands": [["Th", "3c"], ["7h", "9s"]],
        "table": ["Td", "Kh"],
        "piles": [["Ah", "Qc", "Qd", "8h", "7s", "Tc", "8c", "Kd", "Ad", "6d", "Ks", "2d",
                   "4d", "Jh", "5h", "6h", "6s", "8s", "4c", "4h", "5s", "3d"],
                  ["9h", "7c", "7d", "Qs", "3h", "5c", "9c", "2c", "Qh", "8d", "2s",
                   "Jd", "Kc", "Js", "As", "6c", "Jc", "3s", "Ac", "Ts", "2h", "4s", "9d",
                   "5d"]],
        "sweeps": [], "last_capture": 1, "stock": [], "set_aside": [], "scores": [0, 0],
        "result": None,
    })


def test_ismcts_and_oracle_capture_the_ten_of_diamonds() -> None:
    pos = _td_position()
    want = pos.parse_move("Th x Td")
    assert IsmctsBot(seed=2).choose(pos.observation(0), Limit(iterations=150)) == want
    assert IsmctsOracle(seed=2).choose_full(pos, Limit(iterations=150)) == want


def _game_point(scores: list[int]) -> Position:
    """Found by exhaustive search: at 19-19 only ``5s x 3d+2h`` wins the game (it takes the
    most cards, counted first), though the build ``4h+3d+2h =9`` has the better margin."""
    return Position.from_json({
        "format": "casino-position/1", "rules": "casino", "round": 2, "deal": 6,
        "dealer": 1, "to_move": 0,
        "hands": [["4h", "5s", "9d"], ["Ac", "9s"]],
        "table": ["3d", "Ts", "2h", "4s"],
        "piles": [["Ah", "Qc", "Qd", "8h", "7s", "Tc", "8c", "Kh", "Kd", "Ad", "6d", "Ks",
                   "2d", "4d", "Jh", "5h", "6h", "6s", "8s", "Th", "4c"],
                  ["9h", "7c", "7d", "Qs", "Td", "3h", "5c", "9c", "7h", "2c", "Qh", "8d",
                   "2s", "3c", "5d", "Jd", "Kc", "Js", "As", "6c", "Jc", "3s"]],
        "sweeps": [], "last_capture": 1, "stock": [], "set_aside": [], "scores": scores,
        "result": None,
    })


def test_ismcts_plays_for_the_game_at_19_19_and_for_margin_at_0_0() -> None:
    at_game = _game_point([19, 19])
    assert game_on(at_game)
    win = at_game.parse_move("5s x 3d+2h")
    assert IsmctsBot(seed=5).choose(at_game.observation(0), Limit(iterations=300)) == win
    assert IsmctsOracle(seed=5).choose_full(at_game, Limit(iterations=300)) == win
    early = _game_point([0, 0])
    assert not game_on(early)
    margin = early.parse_move("4h+3d+2h =9")
    assert IsmctsBot(seed=5).choose(early.observation(0), Limit(iterations=300)) == margin


def test_oracle_refuses_observations() -> None:
    pos = _td_position()
    oracle = IsmctsOracle(seed=1)
    with pytest.raises(TypeError):
        oracle.choose(pos.observation(0))
    with pytest.raises(ValueError):
        oracle.choose_full(pos.observe(0))
    assert IsmctsOracle.sees_all and not IsmctsBot.sees_all


def test_both_bots_are_registered() -> None:
    assert isinstance(make_bot("ismcts", 1), IsmctsBot)
    assert isinstance(make_bot("ismcts-oracle", 1), IsmctsOracle)
    assert BOTS["ismcts"](None).name == "ismcts"
    assert BOTS["ismcts-oracle"](None).name == "ismcts-oracle"


# ----------------------------------------------------------------------
# The subset-armed bandit on a tiny tree


def _tiny_tree() -> tuple[Node, Move, Move, Move]:
    a, b, c = Move(TRAIL, 0), Move(TRAIL, 4), Move(TRAIL, 8)
    root = Node()
    for m, visits, avail, total in ((a, 50, 100, 25.0), (b, 1, 2, 0.5), (c, 10, 10, 9.0)):
        child = Node(m, 0)
        child.visits, child.avail, child.total = visits, avail, total
        root.children[m] = child
    return root, a, b, c


def test_selection_counts_availability_only_for_moves_legal_in_the_sample() -> None:
    root, a, b, c = _tiny_tree()
    select_child(root, [a, c], c=0.7)
    assert (root.children[a].avail, root.children[b].avail, root.children[c].avail) == (
        101, 2, 11)


def test_selection_explores_a_rarely_available_move_by_its_availability() -> None:
    # a: mean 0.5, legal in 100 of the parent's visits, tried 50 times.
    # b: mean 0.5, legal in only 2 of them, tried once. With availability counts b's
    # bonus is sqrt(ln 3 / 1) > a's sqrt(ln 101 / 50): b is explored, although over
    # the parent's visits (111) it would be the same bonus scale for both.
    root, a, b, _ = _tiny_tree()
    chosen = select_child(root, [a, b], c=0.7)
    assert chosen.move == b
    ucb_b = 0.5 + 0.7 * math.sqrt(math.log(3) / 1)
    ucb_a = 0.5 + 0.7 * math.sqrt(math.log(101) / 50)
    assert ucb_b > ucb_a


def test_selection_exploits_when_exploration_is_off() -> None:
    root, a, b, c = _tiny_tree()
    assert select_child(root, [a, b, c], c=0.0).move == c  # mean 0.9


def test_candidates_keep_at_most_the_limit_and_prefer_valuable_captures() -> None:
    pos = _td_position()
    moves = pos.legal_moves()
    kept = candidates(pos, moves, random.Random(0), limit=1)
    assert kept == [pos.parse_move("Th x Td")]
    assert candidates(pos, moves, random.Random(0)) == moves


def test_card_weights_value_the_scoring_cards() -> None:
    w = card_weights(preset("casino"))
    td, two_s, four_h = 39, 4, 14
    assert w[td] > w[two_s] > w[four_h] > 0
    kryp = card_weights(preset("krypkasino"))
    assert kryp[td] < 0  # a Krypkasino penalty card is worth avoiding

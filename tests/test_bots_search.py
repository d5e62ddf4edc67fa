"""The search bots: ``expert``, ``pimc`` and the ``pimc-oracle`` yardstick (issue 3).

They must return legal moves on every preset from observations only, play the
last deal of a two-player game exactly (it is of perfect information once the
cards are counted), and the oracle must refuse to play from an observation.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from typing import Any

import pytest

from casino import Match, Move, Position
from casino.bots import BOTS, Limit, make_bot
from casino.bots.evaluation import DEFAULT_PARAMS, deal_start_estimate, estimate
from casino.bots.expert import (
    ENDGAME_CARDS,
    LONG_ENDGAME_CARDS,
    ExpertBot,
    LastCardBot,
    LongEndgameBot,
    OnePlyBot,
    perfect_information,
)
from casino.bots.pimc import PimcOracle
from casino.bots.solver import EXACT, game_value, solve
from tests.variant_positions import pos, round_positions

CASES = [("casino", 2), ("krypkasino", 2), ("kasino", 3), ("kasino", 4), ("classic", 4),
         ("classic", 3), ("royal", 2), ("spade", 3), ("faces-all", 2), ("mulle", 2),
         ("tablic", 2)]
SMALL = Limit(seconds=0.05, iterations=2)


def last_deals(name: str, seeds: range, cards: int = 3) -> Iterator[Position]:
    """Two-player last-deal positions with at most ``cards`` cards in each hand."""
    for seed in seeds:
        for p in round_positions(name, 2, seed, every=1):
            if p.stock_size == 0 and max(p.hand_size(s) for s in (0, 1)) <= cards \
                    and len(p.legal_moves()) > 1:
                yield p
                break


@pytest.mark.parametrize("bot_name", ["expert", "one-ply", "last-card", "long-endgame",
                                      "pimc"])
@pytest.mark.parametrize(("name", "players"), CASES)
def test_search_bot_returns_a_legal_move_on_every_preset(bot_name: str, name: str,
                                                         players: int) -> None:
    bot = make_bot(bot_name, seed=3)
    for p in round_positions(name, players, seed=11, every=7):
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


def test_one_ply_does_not_solve_the_last_deal_that_expert_solves() -> None:
    # Three players: expert searches the last few cards to the round's end in every
    # sample, one-ply stays one ply.
    checked = 0
    for seed in range(4):
        for p in round_positions("classic", 3, seed, every=1):
            left = sum(p.hand_size(s) for s in range(3))
            if p.stock_size == 0 and left <= ENDGAME_CARDS:
                obs = p.observe(p.to_move)
                assert ExpertBot().depth_for(obs) == EXACT
                assert OnePlyBot().depth_for(obs) == 1
                checked += 1
    assert checked >= 4
    # Two players: where expert plays every last deal exactly, one-ply misses some.
    bot = make_bot("one-ply", seed=5)
    missed = 0
    for p in last_deals("casino", range(12)):
        seat = p.to_move
        _, best = solve(p, seat, terminal=game_value)
        move = bot.choose(p.observation(seat), Limit(seconds=60))
        missed += solve(p.successor(move), seat, terminal=game_value)[1] != best
    assert missed >= 1


def test_last_card_searches_exactly_only_once_each_hand_holds_one_card() -> None:
    # Three players: between one-ply (no search) and expert (the last eight cards).
    depths: dict[int, set[int]] = {}
    for seed in range(4):
        for p in round_positions("classic", 3, seed, every=1):
            if p.stock_size == 0:
                obs = p.observe(p.to_move)
                most = max(p.hand_size(s) for s in range(3))
                depths.setdefault(most, set()).add(LastCardBot().depth_for(obs))
    assert depths[1] == {EXACT}
    assert depths[2] == depths[3] == {1}
    left = {sum(p.hand_size(s) for s in range(3))
            for seed in range(4) for p in round_positions("classic", 3, seed, every=1)
            if p.stock_size == 0 and max(p.hand_size(s) for s in range(3)) == 2}
    assert min(left) <= ENDGAME_CARDS  # where expert already searches exactly


def test_long_endgame_searches_the_last_deal_from_twelve_cards_in_partnerships() -> None:
    # Four players in partnerships: expert searches exactly from eight cards left,
    # long-endgame from twelve (the last deal's first round of plays done).
    seen: set[tuple[int, int]] = set()
    for seed in range(3):
        for p in round_positions("classic", 4, seed, every=1):
            if p.stock_size == 0:
                obs = p.observe(p.to_move)
                left = sum(p.hand_size(s) for s in range(4))
                long, usual = LongEndgameBot().depth_for(obs), ExpertBot().depth_for(obs)
                assert long == (EXACT if left <= LONG_ENDGAME_CARDS else 1)
                assert usual == (EXACT if left <= ENDGAME_CARDS else 1)
                seen.add((long, usual))
    assert seen == {(1, 1), (EXACT, 1), (EXACT, EXACT)}
    # Each for themselves (kasino with four) the search is paranoid: it stays expert's.
    between = 0
    for p in round_positions("kasino", 4, 0, every=1):
        obs = p.observe(p.to_move)
        assert LongEndgameBot().depth_for(obs) == ExpertBot().depth_for(obs)
        left = sum(p.hand_size(s) for s in range(4))
        between += p.stock_size == 0 and ENDGAME_CARDS < left <= LONG_ENDGAME_CARDS
    assert between >= 4


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
    assert {"expert", "one-ply", "last-card", "long-endgame", "pimc", "pimc-oracle"} <= set(BOTS)


@pytest.mark.parametrize(("name", "players"), [("casino", 2), ("kasino", 4), ("tablic", 2)])
def test_pimc_searching_past_the_deal_returns_legal_moves(name: str, players: int) -> None:
    from casino.bots.pimc import PimcBot

    class Deep(PimcBot):
        min_plies = 6
        cap = 3.0

    bot = Deep(seed=5)
    for p in round_positions(name, players, seed=12, every=5):
        move = bot.choose(p.observation(p.to_move), SMALL)
        assert p.is_legal(move), f"pimc (past the deal) chose {move} in {name}"


def test_deal_start_estimate_credits_each_player_with_its_captures() -> None:
    # A deal's start (stock left), every hand known: the table's 9c can be taken by
    # whoever holds the 9.
    mine = pos("casino", ["9d 2h 3c 4h", "5h 6c 7d 8s"], "9c", deal=2)
    theirs = pos("casino", ["5h 6c 7d 8s", "9d 2h 3c 4h"], "9c", deal=2)
    for p in (mine, theirs):
        for seat in (0, 1):
            assert deal_start_estimate(p, seat) == pytest.approx(-deal_start_estimate(p, 1 - seat))
    # Seat 0 moves first: its own 9 is worth more than estimate's half of it, and the
    # 9 in the other hand counts against it (estimate only looks at the mover's hand).
    assert deal_start_estimate(mine, 0) > estimate(mine, 0)
    assert deal_start_estimate(theirs, 0) < estimate(theirs, 0)
    blank = pos("casino", ["5h 6c 7d 8s", "2d 2s 3d 4d"], "9c", deal=2)
    assert estimate(theirs, 0) == pytest.approx(estimate(blank, 0))


def test_deal_start_estimate_makes_moving_first_in_the_last_deal_cost() -> None:
    # The last deal (empty stock) on an empty table: the player who moves last
    # usually takes the leftovers, so moving first costs the fitted constant.
    p = pos("casino", ["9d 2h 3c 4h", "5h 6c 7d 8s"], (), fill="piles")
    assert p.stock_size == 0 and p.to_move == 0
    lead = DEFAULT_PARAMS.deal_start_last[2]
    assert lead < 0
    assert deal_start_estimate(p, 0) == pytest.approx(estimate(p, 0) + lead)
    assert deal_start_estimate(p, 1) == pytest.approx(estimate(p, 1) - lead)


def test_deal_start_estimate_is_estimate_where_it_was_not_fitted() -> None:
    p = pos("casino", ["9d 2h 3c 4h", "5h 6c 7d 8s"], "9c", deal=2)
    checked = [
        p.observe(0),                                                       # a hidden hand
        p.successor(p.parse_move("2h")),                                    # mid-deal
        pos("krypkasino", ["9d 2h 3c 4h", "5h 6c 7d 8s"], "9c", deal=2),  # other scoring
        pos({"preset": "kasino", "players": 3}, ["9d 2h 3c 4h", "5h 6c 7d 8s", "Ts Js Qs Ks"],
            "9c", deal=2),
    ]
    for q in checked:
        assert deal_start_estimate(q, 0) == estimate(q, 0)


def test_pimc_caps_its_depth_and_the_oracle_copies_the_fair_search(
        monkeypatch: pytest.MonkeyPatch) -> None:
    from casino.bots import evaluation, pimc, solver

    depths: list[int] = []
    real_values = solver.Searcher.values

    def spy(self: solver.Searcher, pos: Position, moves: Sequence[Move], depth: int = solver.EXACT,
            *args: Any, **kw: Any) -> list[float]:
        depths.append(depth)
        return real_values(self, pos, moves, depth, *args, **kw)

    monkeypatch.setattr(solver.Searcher, "values", spy)
    # With the compiled core the samples are searched there, to the same depth.
    from casino.bots import compiled

    real_sampled = compiled.sampled_values

    def spy_core(*args: Any, depth: int | None = None, **kw: Any) -> Any:
        depths.append(solver.EXACT if depth is None else depth)
        return real_sampled(*args, depth=depth, **kw)

    monkeypatch.setattr(compiled, "sampled_values", spy_core)
    p = Match("casino", seed=3).position  # a deal's start: 8 plies to its end
    bot = make_bot("pimc", seed=2)
    assert isinstance(bot, pimc.PimcBot) and bot.max_depth == 4
    assert p.is_legal(bot.choose(p.observation(p.to_move), Limit(seconds=60, iterations=3)))
    assert depths and max(depths) == 4

    seen: dict[str, Any] = {}

    def fake(pos: Position, moves: list[Move], *args: Any, **kw: Any) -> Move:
        seen.update(kw)
        return moves[0]

    monkeypatch.setattr(pimc, "pimc_choose", fake)
    oracle = make_bot("pimc-oracle", seed=1)
    assert isinstance(oracle, pimc.PimcOracle)
    oracle.choose_full(p, SMALL)
    assert seen["max_depth"] == pimc.PimcBot.max_depth
    assert seen["evaluate"] is getattr(evaluation, pimc.PimcBot.leaf_eval)


def _swap_hidden_hand(pos: Position, seat: int) -> Position:
    """``pos`` with ``seat``'s hand traded for as many cards from the stock: a deal the
    other player cannot tell from ``pos``."""
    from dataclasses import replace

    hand, stock = pos.hand(seat), pos.stock
    assert isinstance(stock, tuple) and len(stock) >= len(hand)
    hands = list(pos.hands)
    hands[seat] = tuple(sorted(stock[:len(hand)]))
    return replace(pos, hands=tuple(hands), stock=tuple(hand) + stock[len(hand):])


def _duel_replies(name: str) -> Iterator[tuple[Position, int]]:
    """Two-player positions after a move of the seat that searches, the other to
    reply, in a deal that leaves stock enough to trade that seat's hand for."""
    for seed in range(6):
        for p in round_positions(name, 2, seed, every=5):
            if p.stock_size < 8 or p.result is not None:
                continue
            seat = p.to_move
            for m in p.legal_moves()[:3]:
                after = p.successor(m)
                if (after.deal == p.deal and after.to_move != seat
                        and after.hand_size(seat) and len(after.legal_moves()) > 1):
                    yield after, seat


@pytest.mark.parametrize("name", ["krypkasino", "mulle"])
def test_fair_reply_is_chosen_without_the_hand_the_replier_cannot_see(name: str) -> None:
    """``fair-reply``'s opponent chooses from its own view, so every deal that differs
    only in the searcher's hand (and the stock) gets the same reply; a plain search's
    minimum, which sees that hand, does not, which is what the bot corrects."""
    from casino.bots.fair_reply import FairReplySearcher
    from casino.bots.solver import Searcher, default_estimate

    evaluate = default_estimate()
    checked = plain_differs = 0
    for after, seat in _duel_replies(name):
        other = _swap_hidden_hand(after, seat)
        fair = [FairReplySearcher(seat, evaluate=evaluate).fair_reply(p) for p in (after, other)]
        assert fair[0] == fair[1]
        plain = []
        for p in (after, other):
            s = Searcher(seat, horizon="deal", evaluate=evaluate, terminal=game_value)
            s._prepare(p)
            values = {r: s.alphabeta(p.successor(r), 0, -1e18, 1e18) for r in p.legal_moves()}
            plain.append(min(values, key=values.__getitem__))
        plain_differs += plain[0] != plain[1]
        checked += 1
    assert checked >= 20
    assert plain_differs > 0


def test_fair_reply_values_the_true_deal_after_the_fair_reply() -> None:
    """The value kept for a root move is the sample's true one after the reply the
    opponent chose from its view, and the search is the usual one at three players."""
    from casino.bots.fair_reply import FairReplySearcher
    from casino.bots.solver import Searcher, default_estimate

    evaluate = default_estimate()
    p = next(q for q in round_positions("krypkasino", 2, 3, every=4)
             if q.stock_size >= 8 and len(q.legal_moves()) > 2)
    seat, moves = p.to_move, p.legal_moves()
    s = FairReplySearcher(seat, evaluate=evaluate)
    got = s.values(p, moves, 2)
    for m, v in zip(moves, got, strict=True):
        after = p.successor(m)
        if after.to_move == seat or after.deal != p.deal:
            continue
        check = FairReplySearcher(seat, evaluate=evaluate)
        check._prepare(p)
        reply = check.fair_reply(after)
        assert v == check.alphabeta(after.successor(reply), 0, -1e18, 1e18)
    q = next(q for q in round_positions("classic", 3, 3, every=4) if q.stock_size)
    plain = Searcher(q.to_move, horizon="deal", evaluate=evaluate, terminal=game_value)
    assert (FairReplySearcher(q.to_move, evaluate=evaluate).values(q, q.legal_moves(), 2)
            == plain.values(q, q.legal_moves(), 2))

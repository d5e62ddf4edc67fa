"""The heuristic rungs of the ladder (greedy, hasty, unwary, careful) and the evaluation they share.

Hand-made positions check the behaviour each rung promises; games of every
preset check that they always return a legal move from an observation; a short
mirrored run checks the ladder's order on casino rules.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from casino import Position
from casino.bots import BOTS, make_bot
from casino.bots.base import Bot
from casino.bots.careful import CarefulBot
from casino.bots.evaluation import (
    Captures,
    best_outcome,
    card_weights,
    direct_points,
    estimate,
    immediate_gain,
    value,
)
from casino.bots.expert import perfect_information
from casino.bots.greedy import GreedyBot, noticed, shortlist
from casino.bots.solver import game_value, search
from casino.engine.match import Match
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.rules import PRESET_NAMES, preset
from tests.variant_positions import pos


def choose(bot: Bot, p: Position) -> str:
    return str(bot.choose(p.observation(p.to_move)))


def build(value: int, owner: int, *groups: str) -> dict[str, object]:
    return {"value": value, "owner": owner, "groups": [g.split() for g in groups]}


# ----------------------------------------------------------------------
# Evaluation


def test_direct_points_follow_each_scoring_scheme() -> None:
    casino = preset("casino")
    assert [direct_points(casino, pos("casino", ["Td", ""]).hand(0)[0])] == [2.0]
    cards = {t: Position.from_json(pos("casino", [t, ""]).to_json()).hand(0)[0]
             for t in ("Td", "2s", "As", "Ah", "7s", "Js", "Kd", "2c")}
    assert direct_points(casino, cards["2s"]) == 1.0
    assert direct_points(casino, cards["Ah"]) == 1.0
    assert direct_points(casino, cards["7s"]) == 0.0
    spade = preset("spade")
    assert direct_points(spade, cards["7s"]) == 1.0
    assert direct_points(spade, cards["Js"]) == 2.0
    assert direct_points(spade, cards["2s"]) == 2.0  # little casino and a spade
    tablic = preset("tablic")
    assert direct_points(tablic, cards["Kd"]) == 1.0
    assert direct_points(tablic, cards["2c"]) == 1.0
    assert direct_points(tablic, cards["Td"]) == 2.0
    assert direct_points(tablic, cards["2s"]) == 0.0
    kryp = preset("krypkasino")
    assert direct_points(kryp, cards["Td"]) == -3.0
    assert direct_points(kryp, cards["As"]) == -2.0
    assert direct_points(kryp, cards["7s"]) == -1.0
    assert direct_points(kryp, cards["Kd"]) == 0.0


def test_immediate_gain_counts_card_points_and_majority_shares() -> None:
    p = pos("casino", ["Tc 9c", "Jh Jd Qh Qd"], "Td 9h")
    gains = {str(m): immediate_gain(p, m) for m in p.legal_moves()}
    assert gains["Tc x Td"] == pytest.approx(2 + 2 * 3 / 27)
    assert gains["9c x 9h"] == pytest.approx(2 * 3 / 27)
    assert gains["9c"] == 0.0
    # From the other seat's point of view the same move is a loss.
    tc = next(m for m in p.legal_moves() if str(m) == "Tc x Td")
    assert immediate_gain(p, tc, 1) == pytest.approx(-gains["Tc x Td"])


def test_immediate_gain_includes_a_sweep_and_spade_share() -> None:
    p = pos("casino", ["9s 2h", "Jh Jd Qh Qd"], "9h 4c 5d")
    gains = {str(m): immediate_gain(p, m) for m in p.legal_moves()}
    sweep = gains["9s x 9h 5d+4c"]
    assert sweep == pytest.approx(4 * 3 / 27 + 1 / 7 + 1)
    assert gains["9s x 9h"] == pytest.approx(2 * 3 / 27 + 1 / 7)


def test_immediate_gain_stops_crediting_a_clinched_majority() -> None:
    # Seat 1 already has 27 cards: most cards is theirs, more cards earn seat 0 nothing.
    p = pos("casino", ["9c", "4h"], "9h", piles=[[], "2c 2d 2h 3c 3d 3h 3s 4c 4d 4s 5c 5d 5h 5s "
                                                 "6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s Jc"],
            fill="stock")
    m = next(m for m in p.legal_moves() if m.kind == CAPTURE)
    assert immediate_gain(p, m) == pytest.approx(1.0)  # the sweep only


def test_krypkasino_gain_is_negative_for_penalties_and_sweeps() -> None:
    p = pos("krypkasino", ["Tc 5h", "4h 4d"], "Td 3c 2d")
    gains = {str(m): immediate_gain(p, m) for m in p.legal_moves()}
    # 5h must take 3c+2d (compulsory); Tc takes Td: 3 penalty points.
    assert gains["Tc x Td"] == pytest.approx(-3.0)
    assert gains["5h x 3c+2d"] == pytest.approx(0.0)
    lone = pos("krypkasino", ["7c 5h", "4h 4d"], "7d")
    sweep = next(m for m in lone.legal_moves() if m.kind == CAPTURE)
    assert immediate_gain(lone, sweep) == pytest.approx(-10.0)  # +5 to me, -5 to them


def test_captures_find_sweeps_and_best_takes() -> None:
    p = pos("casino", ["2c", "3c"], "9h 4c 5d")
    caps = Captures(p.rules, p.loose, p.builds, card_weights(p))
    nine = Position.from_json(pos("casino", ["9s", ""]).to_json()).hand(0)[0]
    queen = Position.from_json(pos("casino", ["Qd", ""]).to_json()).hand(0)[0]
    assert caps.sweeps(nine)
    assert caps.outcome(nine) == pytest.approx(4 * 3 / 27 + 1 / 7 + 1)
    assert caps.outcome(queen) is None  # 12: no pair, no group
    # A hidden hand of 4 from 40 unseen cards with 3 nines: E[best] < the sweep.
    unseen = [nine] * 3 + [queen] * 37
    e = best_outcome(caps, unseen, hidden=True, hand_size=4)
    assert 0 < e < caps.outcome(nine)  # type: ignore[operator]
    assert best_outcome(caps, [nine, queen], hidden=False) == caps.outcome(nine)


def test_estimate_is_exact_at_the_end_of_a_round() -> None:
    m = Match("casino", seed=3)
    rng = random.Random(3)
    while m.position.result is None:
        m.play(rng.choice(m.legal_moves()))
    for seat in (0, 1):
        assert estimate(m.position, seat) == value(m.position, seat)


def test_estimate_credits_a_build_to_its_owner() -> None:
    mine = pos("casino", ["8c 2h", "4h 4d"], [build(8, 0, "5d 3s"), "Kh"])
    theirs = pos("casino", ["2h 3c", "8c 4d"], [build(8, 1, "5d 3s"), "Kh"])
    assert estimate(mine, 0) > 0 > estimate(theirs, 0)


def test_estimate_values_a_decided_majority_more_than_a_linear_share() -> None:
    lead = pos("casino", ["2h", "3h"], [], fill="stock",
               piles=["4c 4d 4h 4s 5c 5d 5h 5s 6c 6d 6h 6s 7c 7d 7h 7s 8c 8d 8h 8s 9c 9d",
                      "Jc Jd Jh Js Qc Qd Qh Qs Kc Kd"])
    margin = estimate(lead, 0)
    # 22 cards to 10 with 18 left: far more than (22 - 10) * 3/27 for most cards.
    assert margin > (22 - 10) * 3 / 27 + 1.0


@pytest.mark.parametrize("rules", PRESET_NAMES)
def test_estimate_and_gain_run_on_every_preset(rules: str) -> None:
    m = Match(rules, seed=11)
    rng = random.Random(11)
    while m.position.result is None:
        p = m.position
        for seat in range(p.rules.players):
            assert isinstance(estimate(p, seat), float)
        obs = Position.from_json(p.observation(p.to_move))
        for move in p.legal_moves()[:20]:
            assert immediate_gain(obs, move) == pytest.approx(immediate_gain(p, move))
        m.play(rng.choice(m.legal_moves()))


# ----------------------------------------------------------------------
# Greedy


def test_greedy_and_careful_are_registered_in_ladder_order() -> None:
    names = list(BOTS)
    assert (names.index("oblivious") < names.index("dozy") < names.index("absent-minded")
            < names.index("glancing") < names.index("careful"))
    assert (names.index("random") < names.index("greedy") < names.index("hasty")
            < names.index("unwary") < names.index("careful"))
    assert isinstance(make_bot("greedy", 1), GreedyBot)
    assert isinstance(make_bot("careful", 1), CarefulBot)


def test_greedy_takes_the_big_casino_over_a_plain_card() -> None:
    p = pos("casino", ["Tc 9c", "Jh Jd Qh Qd"], "Td 9h")
    assert choose(GreedyBot(0), p) == "Tc x Td"


def test_greedy_takes_the_sweep() -> None:
    p = pos("casino", ["9s 2h", "Jh Jd Qh Qd"], "9h 4c 5d")
    assert choose(GreedyBot(0), p) == "9s x 9h 5d+4c"


def test_greedy_plays_its_cheapest_card_when_nothing_scores() -> None:
    p = pos("casino", ["As 6d", "Jh Jd Qh Qd"], "Kh 9c")
    for seed in range(5):
        assert choose(GreedyBot(seed), p) == "6d"


def test_greedy_avoids_penalties_in_krypkasino() -> None:
    p = pos("krypkasino", ["Tc 5h", "4h 4d"], "Td 3c 2d")
    assert choose(GreedyBot(0), p) == "5h x 3c+2d"


# ----------------------------------------------------------------------
# Careful


def test_careful_never_trails_an_ace_big_or_little_casino_when_it_can_help_it() -> None:
    for hand in ("As 7c", "Td 7c", "2s 7c"):
        p = pos("casino", [hand, "Jh Jd Qh Qd"], "Kd 5h")
        valuable = hand.split()[0]
        assert valuable in {str(m) for m in p.legal_moves()}
        for seed in range(4):
            assert choose(CarefulBot(seed), p) != valuable


def test_careful_does_not_leave_a_table_a_king_sweeps() -> None:
    # Trailing the 4 leaves 9+4 = 13 for any King; the 6 leaves nothing a card sweeps.
    p = pos("casino", ["4c 6d", "2h 2d 3s 3c"], "9h")
    for seed in range(6):
        assert choose(CarefulBot(seed), p) == "6d"


def test_careful_takes_its_own_build_back() -> None:
    p = pos("casino", ["5c 9d", "Jh Jd Qh Qd"], [build(5, 0, "3h 2s"), "9h"])
    for seed in range(4):
        assert choose(CarefulBot(seed), p).startswith("5c x")


def test_careful_keeps_a_capturing_card_for_the_last_turn() -> None:
    # Tablić (no builds), the last deal; seat 0 plays the round's last card. Trailing
    # the 3 keeps the 5, which can still take 2h+3d at the end (and the leftovers);
    # trailing the 5 would keep a 3 that takes nothing.
    p = pos("tablic", ["5c 3d", "7h"], "2h Ks", fill="piles", to_move=0, dealer=0,
            fill_seat=1, last_capture=1)
    assert {str(m) for m in p.legal_moves()} == {"5c", "3d"}
    for seed in range(4):
        assert choose(CarefulBot(seed), p) == "3d"


def test_careful_sheds_a_penalty_card_in_krypkasino() -> None:
    # Nothing can capture: prefer trailing the penalty card to the harmless one.
    p = pos("krypkasino", ["Td 3h", "4h 4d"], "Kd")
    legal = {str(m) for m in p.legal_moves()}
    assert legal == {"Td", "3h"} or "Td" in legal
    assert choose(CarefulBot(0), p) == "Td"


def test_unwary_takes_a_card_more_where_careful_leaves_no_sweep() -> None:
    # The played Ace (14) takes Ac alone or Kd+Ac; the second leaves a lone 6 that any
    # of the three unseen sixes sweeps. careful weighs that threat at 0.8 and gives up
    # the King; unwary weighs it at 0.15, and the extra card is worth more to it.
    p = pos("casino", ["As 8h", "Jh Jd Qh Qd"], "6c Kd Ac")
    for seed in range(4):
        assert choose(CarefulBot(seed), p) == "As x Ac"
        assert choose(make_bot("unwary", seed), p) == "As x Kd+Ac"


def test_heedless_never_weighs_what_it_leaves_and_distracted_on_half_its_moves() -> None:
    p = pos("casino", ["As 8h", "Jh Jd Qh Qd"], "6c Kd Ac")
    for seed in range(4):
        assert choose(make_bot("heedless", seed), p) == "As x Kd+Ac"
    seen = Counter(choose(make_bot("distracted", seed), p) for seed in range(40))
    assert set(seen) == {"As x Ac", "As x Kd+Ac"}
    assert 10 <= seen["As x Ac"] <= 30


def test_the_inattentive_club_players_notice_each_capture_by_chance() -> None:
    # One capture on offer, the 10 of diamonds: careful always takes it; a player
    # noticing 70% (glancing) or 20% (oblivious) of its captures takes it that often,
    # trailing otherwise.
    p = pos("casino", ["Tc 4c", "Jh Jd Qh Qd"], "Td 9h")
    assert {choose(CarefulBot(seed), p) for seed in range(10)} == {"Tc x Td"}
    taken = {name: sum(choose(make_bot(name, seed), p) == "Tc x Td" for seed in range(200))
             for name in ("glancing", "oblivious")}
    assert 115 <= taken["glancing"] <= 165
    assert 20 <= taken["oblivious"] <= 60
    # A player who notices nothing still moves: with only captures legal it sees them all.
    caps = [m for m in p.legal_moves() if m.kind == CAPTURE]
    assert noticed(caps, 0.0, random.Random(1)) == caps
    assert all(m.kind == TRAIL for m in noticed(p.legal_moves(), 0.0, random.Random(1)))


def test_a_careful_player_who_forgets_the_captured_cards_fears_what_is_gone() -> None:
    # The last deal, every other card in a pile: the other hand can only be 2h Tc,
    # neither of which takes anything trailing the 7 leaves. One who forgets the
    # captured cards (remembers=False) fears any card of the deck, and plays otherwise.
    p = pos("casino", ["7c 9h", "2h Tc"], "4s Ac", fill="piles", fill_seat=1)
    for seed in range(4):
        assert choose(CarefulBot(seed), p) == "7c"
        assert choose(CarefulBot(seed, remembers=False), p) == "9h"


def test_hasty_builds_what_the_unseen_cards_can_take() -> None:
    # Building 12 with the Queen in hand is credited to its owner; careful and unwary
    # see three unseen Queens that may take the build first and take the 2 instead.
    p = pos("casino", ["Qc 2d", "Jh Jd Qh Qd"], "2c 8c Kc")
    for seed in range(4):
        assert choose(CarefulBot(seed), p) == "2d x 2c"
        assert choose(make_bot("unwary", seed), p) == "2d x 2c"
        assert choose(make_bot("hasty", seed), p) == "2d+8c+2c =12"


def test_closing_plays_the_last_four_cards_exactly_for_the_game() -> None:
    # Random two-player games of house rules: wherever the stock is empty and the hands
    # hold four cards or fewer, closing's move is worth the exact search's best (for
    # the game), careful's is sometimes worth less, and before that the two agree.
    exact = careful_short = earlier = 0
    for seed in range(30):
        rng = random.Random(seed)
        m = Match("casino", seed=seed)
        while m.position.result is None:
            p = m.position
            seen = p.observe(p.to_move)
            closing, careful = make_bot("closing", seed).choose(seen), CarefulBot(seed).choose(seen)
            if p.stock_size or p.hand_size(0) + p.hand_size(1) > 4:
                earlier += 1
                assert closing == careful
            elif len(p.legal_moves()) > 1:
                full = perfect_information(seen)
                assert full is not None

                def worth(move: Move, full: Position = full) -> float:
                    return search(full, horizon="round", terminal=game_value,
                                  moves=[move]).value

                best = search(full, horizon="round", terminal=game_value).value
                assert worth(closing) == pytest.approx(best)
                exact += 1
                careful_short += worth(careful) < best - 1e-9
            m.play(rng.choice(m.legal_moves()))
    assert exact > 40 and earlier > 500
    assert careful_short >= 1


# ----------------------------------------------------------------------
# Every preset, from observations, always legal


@pytest.mark.parametrize("name", ["greedy", "heedless", "hasty", "distracted", "unwary",
                                  "careful", "closing"])
@pytest.mark.parametrize(("rules", "players"), [
    *((r, None) for r in PRESET_NAMES),
    ("kasino", 3), ("kasino", 4), ("classic", 3), ("classic", 4), ("tablic", 4),
    ("mulle", 3),
])
def test_bot_returns_legal_moves_on_every_preset(name: str, rules: str,
                                                 players: int | None) -> None:
    kw = {} if players is None else {"players": players}
    m = Match(rules, seed=5, **kw)
    n = m.rules.players
    bots = [make_bot(name if s % 2 == 0 else "random", s) for s in range(n)]
    while m.position.result is None:
        p = m.position
        move = bots[p.to_move].choose(p.observation(p.to_move))
        assert p.is_legal(move)
        m.play(move)


def test_shortlist_keeps_trails_and_the_biggest_captures() -> None:
    p = pos("kasino", ["9c 5h", "Kh Kd"],
            "Ac 2c 3c 4c 5c 6c 7c 8c 2d 3d 4d 5d 6d 7d Ah 2h 3h", fill="stock")
    moves = p.legal_moves()
    assert len(moves) > 300
    short = shortlist(moves, 100)
    assert len(short) <= 130
    assert {str(m) for m in moves if m.kind == TRAIL} <= {str(m) for m in short}
    most = max(len(m.loose) for m in moves if m.card == p.hand(0)[0])
    assert any(len(m.loose) == most for m in short if m.card == p.hand(0)[0])
    for bot in (GreedyBot(0), CarefulBot(0)):
        assert p.is_legal(bot.choose(p.observation(0)))


# ----------------------------------------------------------------------
# Strength: a quick mirrored sanity check (the arena measures it properly)


def _mirrored_wins(a: str, b: str, seeds: range) -> int:
    """Games won by ``a`` over ``b``: each seed played twice with the seats swapped."""
    wins = 0
    for seed in seeds:
        for swap in (False, True):
            names = [b, a] if swap else [a, b]
            m = Match("casino", seed=seed)
            bots = [make_bot(n, 1000 * seed + i) for i, n in enumerate(names)]
            while True:
                while m.position.result is None:
                    p = m.position
                    m.play(bots[p.to_move].choose(p.observation(p.to_move)))
                if m.is_over:
                    break
                m.next_round()
            wins += m.winner == (1 if swap else 0)
    return wins


#: Twenty mirrored deals in the slow suite; the fast suite plays the first eight, with
#: the same share of wins asked.
DEALS = [8, pytest.param(20, marks=pytest.mark.slow)]


@pytest.mark.parametrize("deals", DEALS)
def test_greedy_beats_random_on_mirrored_deals(deals: int) -> None:
    assert _mirrored_wins("greedy", "random", range(deals)) >= 0.75 * 2 * deals


@pytest.mark.parametrize("deals", DEALS)
def test_careful_beats_greedy_on_mirrored_deals(deals: int) -> None:
    assert _mirrored_wins("careful", "greedy", range(deals)) >= 0.6 * 2 * deals

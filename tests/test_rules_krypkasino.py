"""Krypkasino (docs/rules.md §3, K1-K9): named tests for each rule.

Casino reversed: two decks, no builds, compulsory maximal captures, a forced
sweep, picture cards set aside at each deal, penalty points, and a match of
two games that the lower total wins.
"""

from __future__ import annotations

import random

import pytest

from casino import InvalidPosition, Match, Position, preset
from casino.engine.cards import parse_card
from casino.engine.errors import IllegalMove
from casino.engine.explain import forced_play
from casino.engine.moves import BUILD, CAPTURE, TRAIL
from tests.variant_positions import cards, deck_from, make, pos, spec_json, texts

KRYP = preset("krypkasino")


def _random_game(seed: int) -> Position:
    """One whole game played with random legal moves; the scored final position."""
    match = Match("krypkasino", seed=seed)
    rng = random.Random(seed)
    while match.position.result is None:
        match.play(rng.choice(match.legal_moves()))
    return match.position


# ----------------------------------------------------------------------
# Cards and the deal


def test_3_two_decks_a_card_may_appear_twice() -> None:
    p = pos(KRYP, ["7h 7h", "2c"], "5d 5d")
    assert p.hand(0).count(parse_card("7h")) == 2
    assert KRYP.deck_size == 104


def test_3_two_decks_a_card_may_not_appear_three_times() -> None:
    obj = spec_json({"rules": "krypkasino", "hands": [["7h", "7h"], ["2c"]], "table": ["5d"]})
    obj["table"].append("7h")
    obj["stock"].remove("5d")  # keep 104 cards, with a third 7h
    with pytest.raises(InvalidPosition):
        Position.from_json(obj)


def test_3_first_deal_six_each_four_to_the_table() -> None:
    deck = deck_from(KRYP, cards("3h 4h 5s 8c 6d 7d 9c 9d 2h 5c 4d 6h 8h 8s 3c 3d"))
    p = Position.start_round(KRYP, deck, dealer=1)
    assert [len(p.hand(s)) for s in (0, 1)] == [6, 6]
    assert sorted(p.loose) == sorted(parse_card(c) for c in cards("5s 8c 2h 5c"))
    assert p.stock_size == 104 - 16
    assert p.to_move == 0  # the non-dealer leads


def test_3_later_deals_four_each_and_twelve_deals_a_game() -> None:
    assert KRYP.deals_per_round == 12
    match = Match("krypkasino", seed=5)
    rng = random.Random(5)
    seen_deals = {1}
    while match.position.result is None:
        before = match.position.deal
        match.play(rng.choice(match.legal_moves()))
        after = match.position
        if after.result is None and after.deal != before:
            seen_deals.add(after.deal)
            assert [len(after.hand(s)) for s in (0, 1)] == [4, 4]
    assert seen_deals == set(range(1, 13))


# ----------------------------------------------------------------------
# No builds; the Ace


def test_3_no_builds_are_ever_legal() -> None:
    p = pos(KRYP, ["3h 8c 5d 9s", "2c"], "5s 4h 2d")
    assert all(m.kind != BUILD for m in p.legal_moves())


def test_3_a_build_on_the_table_is_an_invalid_position() -> None:
    obj = spec_json({"rules": "krypkasino", "hands": [["8c"], ["2c"]],
                     "table": [{"value": 8, "owner": 0, "groups": [["5d", "3s"]]}]})
    with pytest.raises(InvalidPosition):
        Position.from_json(obj)


def test_3_a_played_ace_is_14_and_cannot_take_a_lone_table_ace() -> None:
    p = pos(KRYP, ["Ah 2c", "Qh"], "As")
    assert texts(p.legal_moves()) == {"Ah", "2c"}


def test_3_a_played_ace_takes_a_group_of_14() -> None:
    p = pos(KRYP, ["Ah 3c", "Qh"], "9s 5d 2h")
    assert "Ah x 9s+5d" in texts(p.legal_moves())


def test_3_a_table_ace_leaves_inside_a_group_counting_1() -> None:
    p = pos(KRYP, ["5h 3c", "Qh"], "Ad 4c 2s")
    assert "5h x 4c+Ad" in texts(p.legal_moves())


# ----------------------------------------------------------------------
# K1, K2: compulsory and maximal capture, per played card


def test_K2_inclusion_maximal_any_maximal_selection() -> None:
    p = pos(KRYP, ["9h", "Qh"], "2s 3s 4s 5h")
    nines = {str(m) for m in p.legal_moves() if m.card == parse_card("9h")}
    assert nines == {"9h x 5h+4s", "9h x 4s+3s+2s"}


def test_K2_a_non_maximal_capture_is_illegal() -> None:
    p = pos(KRYP, ["9h 2c", "Qh"], "2s 3s 4s 5h 7c")
    # 9h x 7c+2s leaves 4s+5h: still a 9, so not maximal.
    legal = texts(p.legal_moves())
    assert legal == {"9h x 5h+4s 7c+2s", "9h x 4s+3s+2s", "2c x 2s"}
    assert str(p.parse_move("9h x 7c+2s 4s+5h")) in legal


def test_K2_nine_on_2_3_4_5_may_not_take_2_3_alone() -> None:
    p = pos(KRYP, ["9h", "Qh"], "2s 3s 4s 5h")
    with pytest.raises(ValueError):
        p.play("9h x 4s+5h 2s+3s")  # 14 is not a 9-selection either
    with pytest.raises(ValueError):
        p.play("9h x 2s 3s")
    assert all(set(m.loose) != {parse_card("2s"), parse_card("3s")} for m in p.legal_moves())


def test_K2_pairs_and_groups_must_all_be_taken() -> None:
    p = pos(KRYP, ["5s", "Qh"], "5h 2s 3d 6c")
    assert texts(p.legal_moves()) == {"5s x 5h 3d+2s"}


def test_K2_option_maximal_capture_cardinality() -> None:
    rules = preset("krypkasino", maximal_capture="cardinality")
    p = pos(rules, ["9h", "Qh"], "2s 3s 4s 5h")
    assert texts(p.legal_moves()) == {"9h x 4s+3s+2s"}


def test_K1_a_card_that_can_capture_may_not_trail() -> None:
    p = pos(KRYP, ["5h Kc", "Qh"], "5c 9d")
    legal = texts(p.legal_moves())
    assert "5h" not in legal
    assert "5h x 5c" in legal


def test_K1_a_card_that_cannot_capture_may_trail_while_another_could() -> None:
    p = pos(KRYP, ["5h Kc", "Qh"], "5c 9d")
    assert texts(p.legal_moves()) == {"5h x 5c", "Kc"}


def test_K1_trail_only_when_no_card_can_capture() -> None:
    p = pos(KRYP, ["5h 6c", "Qh"], "Tc 9d")
    assert texts(p.legal_moves()) == {"5h", "6c"}


# ----------------------------------------------------------------------
# K3: forced sweep


def test_K3a_an_empty_table_forces_nothing() -> None:
    p = pos(KRYP, ["5h 6c 9d", "Qh"], [])
    assert texts(p.legal_moves()) == {"5h", "6c", "9d"}


def test_K3b_several_sweeping_cards_the_player_chooses() -> None:
    p = pos(KRYP, ["9h 9c 4d", "Qh"], "4s 5d")
    assert texts(p.legal_moves()) == {"9h x 5d+4s", "9c x 5d+4s"}


def test_K3c_the_sweep_takes_the_whole_table() -> None:
    # 4d could take the 4s alone, 9h takes the whole table: only 9h may be played.
    p = pos(KRYP, ["9h 4d", "Qh"], "4s 5d")
    assert texts(p.legal_moves()) == {"9h x 5d+4s"}


def test_K3c_a_maximal_capture_that_is_not_the_whole_table_is_not_forced() -> None:
    p = pos(KRYP, ["9h 4d", "Qh"], "4s 5d Kc")
    assert texts(p.legal_moves()) == {"9h x 5d+4s", "4d x 4s"}


def test_K3_the_forced_play_is_named_before_the_player_tries() -> None:
    """explain.forced_play says what the rules force, in the words that refuse a move."""
    sweep = pos(KRYP, ["9h 9c 4d", "Qh"], "4s 5d")
    assert forced_play(sweep) == "you must sweep the table with 9♣ or 9♥ (forced sweep)"
    with pytest.raises(IllegalMove, match="you must sweep the table with 9♣ or 9♥"):
        sweep.parse_move("4d")
    some = pos(KRYP, ["9h 4d 2c", "Qh"], "4s 5d Kc")
    assert forced_play(some) == "captures are compulsory: the 4♦ and 9♥ must capture"
    every = pos(KRYP, ["4d", "Qh"], "4s 5d Kc")
    assert forced_play(every) == "you must capture: captures are compulsory"
    assert forced_play(pos(KRYP, ["5h 6c 9d", "Qh"], [])) is None


# ----------------------------------------------------------------------
# K4: the double sweep


def test_K4_lone_card_and_its_twin_both_sweeps_legal() -> None:
    p = pos(KRYP, ["7h 7c 3d", "Qh"], "7h")
    assert texts(p.legal_moves()) == {"7h x 7h", "7c x 7h"}


def test_K4_the_identical_twin_makes_a_double_sweep() -> None:
    p = pos(KRYP, ["7h 7c 3d", "Qh"], "7h")
    assert p.play("7h x 7h").sweeps == (0, 0)


def test_K4_another_card_of_the_rank_makes_an_ordinary_sweep() -> None:
    p = pos(KRYP, ["7h 7c 3d", "Qh"], "7h")
    assert p.play("7c x 7h").sweeps == (0,)


def test_K4_twin_with_another_table_card_is_an_ordinary_sweep_at_most() -> None:
    p = pos(KRYP, ["7h 3c", "Qh"], "7h 3d")
    # No card takes 7h+3d (10): 7h must still capture its twin, 3c the 3d.
    assert texts(p.legal_moves()) == {"7h x 7h", "3c x 3d"}
    assert p.play("7h x 7h").sweeps == ()
    q = pos(KRYP, ["Th 3c", "Qh"], "7h 3d")
    assert q.play("Th x 7h+3d").sweeps == (0,)


def test_K4_a_lone_table_ace_can_never_be_swept() -> None:
    p = pos(KRYP, ["Ad Ah 5c", "Qh"], "Ad")
    assert all(m.kind == TRAIL for m in p.legal_moves())


def test_K4_double_sweep_scores_ten_on_and_ten_off() -> None:
    p = pos(KRYP, ["7h", []], "7h", piles=[[], cards("3h 4h")], fill="piles", fill_seat=0,
            last_capture=1)
    result = p.play("7h x 7h").result
    assert result is not None
    sweeps = [(i.seat, i.points) for i in result.items if i.item == "sweep"]
    assert sorted(sweeps) == sorted([(0, 5), (1, -5), (0, 5), (1, -5)])


# ----------------------------------------------------------------------
# K5: picture cards set aside


def test_K5_pictures_set_aside_right_after_the_first_deal() -> None:
    deck = deck_from(KRYP, cards("3h 4h Ks 8c 6d 7d 9c 9d 2h Jc Qd Jh 8h 8s 3c 3d"))
    p = Position.start_round(KRYP, deck, dealer=1)
    assert sorted(p.set_aside) == sorted(parse_card(c) for c in ("Ks", "Jc"))
    assert sorted(p.loose) == sorted(parse_card(c) for c in ("8c", "2h"))
    # Pictures in hand stay in hand.
    assert parse_card("Qd") in p.hand(1)


def test_K5_pictures_set_aside_before_each_later_deal() -> None:
    p = pos(KRYP, ["Qs", "Jd"], "5c", stock=cards("2h 3h 4h 5h 6h 7h 8h 9h"))
    p = p.play("Qs")
    assert parse_card("Qs") in p.loose  # a trailed picture stays until the next deal
    p = p.play("Jd")
    assert p.deal == 3
    assert sorted(p.set_aside) == sorted(parse_card(c) for c in ("Qs", "Jd"))
    assert p.loose == (parse_card("5c"),)
    assert [len(p.hand(s)) for s in (0, 1)] == [4, 4]


def test_K5_trailed_picture_is_captured_normally_mid_deal() -> None:
    p = pos(KRYP, ["Qs 2c", "Qd 3c"], "9h")
    p = p.play("Qs")
    assert "Qd x Qs" in texts(p.legal_moves())


def test_K5_set_aside_pictures_go_to_the_last_capturer_with_penalty() -> None:
    p = pos(KRYP, ["5h", []], "9c", set_aside=cards("Ks Jd"), piles=[[], cards("5c 5d")],
            last_capture=1, fill="piles", fill_seat=0)
    end = p.play("5h")  # a trail: seat 1 made the last capture
    assert end.result is not None
    assert end.set_aside == ()
    for c in ("Ks", "Jd", "9c", "5h"):
        assert parse_card(c) in end.piles[1]
    spades_1 = [i.points for i in end.result.items if i.item == "spades" and i.seat == 1]
    assert spades_1 == [1]  # the Ks


def test_K5_set_aside_cards_never_count_toward_a_sweep() -> None:
    p = pos(KRYP, ["9h 2c", "Qh"], "4s 5d", set_aside=cards("Kd"))
    assert p.play("9h x 5d+4s").sweeps == (0,)


# ----------------------------------------------------------------------
# K6: a sweep with the last card counts


def test_K6_a_sweep_with_the_last_card_of_the_game_counts() -> None:
    p = pos(KRYP, ["5h", []], "5c", piles=[[], cards("3h 4h")], last_capture=1,
            fill="piles", fill_seat=0)
    end = p.play("5h x 5c")
    assert end.sweeps == (0,)
    assert end.result is not None
    assert ("sweep", 0, 5) in [(i.item, i.seat, i.points) for i in end.result.items]


def test_K6_the_leftovers_never_make_a_sweep() -> None:
    p = pos(KRYP, ["5h", []], "9c", piles=[[], cards("3h 4h")], last_capture=1,
            fill="piles", fill_seat=0)
    end = p.play("5h")
    assert end.sweeps == ()


# ----------------------------------------------------------------------
# K9: penalties


def test_K9_penalty_cards_sum_to_42() -> None:
    p = pos(KRYP, ["5h", []], "9c", piles=[[], cards("3h 4h")], last_capture=1,
            fill="piles", fill_seat=0)
    end = p.play("5h")
    assert end.result is not None
    assert sum(i.points for i in end.result.items) == 42
    named = {i.item: i.points for i in end.result.items if i.item != "spades"}
    assert named == {"Td": 3, "2s": 2, "As": 2, "Ac": 1, "Ah": 1, "Ad": 1}


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_K9_every_game_adds_up_to_42_sweeps_net_zero(seed: int) -> None:
    end = _random_game(seed)
    assert end.result is not None
    assert sum(i.points for i in end.result.items) == 42
    assert sum(i.points for i in end.result.items if i.item == "sweep") == 0
    assert sum(len(p) for p in end.piles) == 104


def test_K9_totals_may_go_negative() -> None:
    p = pos(KRYP, ["5h", []], "5c", piles=[[], cards("3h 4h")], last_capture=1,
            fill="piles", fill_seat=0)
    end = p.play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (47, -5)


# ----------------------------------------------------------------------
# The match


def _last_card(scores: list[int], game: int) -> Position:
    """A game's last card: seat 0 trails; all penalty cards go to seat 0 (42)."""
    return make({"rules": "krypkasino", "hands": [["5h"], []], "table": ["9c"],
                 "piles": [[], cards("3h 4h")], "last_capture": 0, "fill": "piles",
                 "fill_seat": 0, "scores": scores, "round": game})


def test_3_match_no_winner_after_the_first_game() -> None:
    end = _last_card([0, 0], 1).play("5h")
    assert end.result is not None and end.result.winner is None


def test_3_match_lower_total_after_two_games_wins() -> None:
    end = _last_card([0, 50], 2).play("5h")
    assert end.result is not None
    assert end.result.scores == (42, 50)
    assert end.result.winner == 0


def test_3_match_tie_after_two_games_plays_two_more() -> None:
    end = _last_card([0, 42], 2).play("5h")
    assert end.result is not None
    assert end.result.scores == (42, 42)
    assert end.result.winner is None
    third = _last_card([0, 42], 3).play("5h")
    assert third.result is not None and third.result.winner is None


def test_3_match_decided_after_the_fourth_game() -> None:
    end = _last_card([10, 60], 4).play("5h")
    assert end.result is not None
    assert end.result.scores == (52, 60)
    assert end.result.winner == 0


def test_3_match_ends_after_two_games_in_match_object() -> None:
    match = Match("krypkasino", seed=9)
    rng = random.Random(9)
    games = 0
    while not match.is_over and games < 8:
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        games += 1
        result = match.position.result
        assert result is not None
        if games % 2 == 1:
            assert result.winner is None
        else:
            low = min(result.scores)
            tied = result.scores.count(low) > 1
            assert result.winner == (None if tied else result.scores.index(low))
        if not match.is_over:
            match.next_round()
    assert match.is_over
    assert match.position.round in (2, 4, 6, 8)


def test_3_captures_are_the_only_non_trail_moves() -> None:
    p = pos(KRYP, ["3h 8c 5d 9s", "2c"], "5s 4h 2d Ac")
    assert {m.kind for m in p.legal_moves()} <= {CAPTURE, TRAIL}

"""Finnish Kasino (docs/rules.md §4, N1-N6): named tests for each rule.

Values that differ in hand and on the table, pairing by table value, no
builds, the table-last first deal for 2-4 players, the mökki and its limits,
the round's scoring with carried ties, and the game to 16.
"""

from __future__ import annotations

import random

import pytest

from casino import Match, Position, preset
from casino.engine.cards import parse_card
from casino.engine.moves import BUILD
from casino.engine.scoring import Carry
from tests.variant_positions import cards, deck_from, make, pos, rest_of_deck, texts

KASINO = preset("kasino")

# ----------------------------------------------------------------------
# N1: values and pairing


def test_N1_a_played_ace_does_not_take_a_lone_table_ace() -> None:
    p = pos(KASINO, ["Ah 9c", "3d"], "As 7h")
    assert not any(m.card == parse_card("Ah") and m.kind == "capture" for m in p.legal_moves())


def test_N1_a_played_ace_is_14_and_takes_groups_of_14() -> None:
    p = pos(KASINO, ["Ah 9c", "3d"], "9s 5h As")
    legal = texts(p.legal_moves())
    assert "Ah x 9s+5h" in legal


def test_N1_a_table_ace_counts_one_inside_a_group() -> None:
    p = pos(KASINO, ["5c", "3d"], "As 4h")
    assert "5c x 4h+As" in texts(p.legal_moves())


def test_N1_a_played_ten_of_clubs_takes_a_table_ten_of_diamonds() -> None:
    p = pos(KASINO, ["Tc", "3d"], "Td")
    assert "Tc x Td" in texts(p.legal_moves())


def test_N1_a_played_ten_of_diamonds_is_16_not_10() -> None:
    p = pos(KASINO, ["Td", "3d"], "Tc 9h 7s")
    legal = texts(p.legal_moves())
    assert "Td x 9h+7s" in legal
    assert not any(m.card == parse_card("Td") and parse_card("Tc") in m.loose
                   for m in p.legal_moves())


def test_N1_a_played_two_of_spades_is_15_and_takes_ten_and_five() -> None:
    p = pos(KASINO, ["2s", "3d"], "Td 5h 2c")
    legal = texts(p.legal_moves())
    assert "2s x Td+5h" in legal
    assert not any(parse_card("2c") in m.loose and m.card == parse_card("2s")
                   for m in p.legal_moves())


def test_N1_a_played_two_of_hearts_takes_a_table_two_of_spades() -> None:
    p = pos(KASINO, ["2h", "3d"], "2s 9c")
    assert "2h x 2s" in texts(p.legal_moves())


def test_N1_table_two_of_spades_counts_two_in_a_group() -> None:
    p = pos(KASINO, ["7h", "3d"], "2s 5d")
    assert "7h x 5d+2s" in texts(p.legal_moves())


def test_4_no_builds() -> None:
    p = pos(KASINO, ["3h 8c 5d 9s", "2c"], "5s 4h 2d")
    assert all(m.kind != BUILD for m in p.legal_moves())


def test_4_any_selection_captures() -> None:
    p = pos(KASINO, ["9h", "3d"], "9c 5s 4d 6h 3c")
    legal = texts(p.legal_moves())
    # Items of 9: 9c, 5s+4d, 6h+3c: every non-empty selection of them, plus trail.
    assert {"9h x 9c", "9h x 5s+4d", "9h x 6h+3c", "9h x 9c 5s+4d 6h+3c", "9h"} <= legal
    captures = [m for m in p.legal_moves() if m.kind == "capture"]
    assert len(captures) == 7
    assert "9h" in legal  # capture is not compulsory


# ----------------------------------------------------------------------
# The deal


def test_4_first_deal_two_each_two_table_twice() -> None:
    top = cards("2c 3c 4c 5c 6c 7c 8c 9c 2h 3h 4h 5h")
    p = Position.start_round(KASINO, deck_from(KASINO, top), dealer=1)
    ids = [parse_card(c) for c in top]
    assert set(p.hand(0)) == {ids[0], ids[1], ids[6], ids[7]}
    assert set(p.hand(1)) == {ids[2], ids[3], ids[8], ids[9]}
    assert sorted(p.loose) == sorted([ids[4], ids[5], ids[10], ids[11]])
    assert KASINO.first_deal == "table-last"


def test_4_first_deal_three_players_table_last() -> None:
    rules = preset("kasino", players=3)
    top = cards("2c 3c 4c 5c 6c 7c 8c 9c 2h 3h 4h 5h 6h 7h 8h 9h")
    p = Position.start_round(rules, deck_from(rules, top), dealer=0)
    ids = [parse_card(c) for c in top]
    # seat 1, seat 2, seat 0 (dealer), table; twice.
    assert set(p.hand(1)) == {ids[0], ids[1], ids[8], ids[9]}
    assert set(p.hand(2)) == {ids[2], ids[3], ids[10], ids[11]}
    assert set(p.hand(0)) == {ids[4], ids[5], ids[12], ids[13]}
    assert sorted(p.loose) == sorted([ids[6], ids[7], ids[14], ids[15]])
    assert p.to_move == 1


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_4_deals_per_round(players: int, deals: int) -> None:
    rules = preset("kasino", players=players)
    assert rules.deals_per_round == deals
    match = Match(rules, seed=players, first_dealer=players - 1)
    rng = random.Random(players)
    leaders: list[int] = []
    last_deal = 1
    while match.position.result is None:
        if match.position.deal != last_deal or not leaders:
            leaders.append(match.position.to_move)
            last_deal = match.position.deal
            assert all(match.position.hand_size(s) == 4 for s in range(players))
        match.play(rng.choice(match.legal_moves()))
    assert len(leaders) == deals
    # The seat after the dealer (seat 0 here) leads every deal.
    assert set(leaders) == {0}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_4_deal_passes_to_the_left(players: int) -> None:
    match = Match(preset("kasino", players=players), seed=1, first_dealer=1)
    rng = random.Random(1)
    dealers = [match.position.dealer]
    for _ in range(players):
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        if match.is_over:
            break
        match.next_round()
        dealers.append(match.position.dealer)
        assert match.position.to_move == (match.position.dealer + 1) % players
    assert dealers == [(1 + k) % players for k in range(len(dealers))]


# ----------------------------------------------------------------------
# N2: the mökki


def test_N2_a_moekki_is_recorded_mid_round() -> None:
    p = pos(KASINO, ["5h 9c", "3d"], "5c", scores=[10, 3])
    assert p.play("5h x 5c").sweeps == (0,)


def test_N2_no_moekki_in_the_last_deal() -> None:
    p = pos(KASINO, ["5h 9c", "3d"], "5c", fill="piles")
    assert p.stock_size == 0
    assert p.play("5h x 5c").sweeps == ()


def test_N2_no_moekki_once_a_player_had_more_than_ten() -> None:
    p = pos(KASINO, ["5h 9c", "3d"], "5c", scores=[3, 11])
    assert p.play("5h x 5c").sweeps == ()


def _last_card_2p(seat1_pile: list[str], **keys: object) -> Position:
    """Seat 0 plays its last card 5h taking 5c; seat 1's pile is given, seat 0 has the rest."""
    return make({"rules": keys.pop("rules", "kasino"), "hands": [["5h"], []], "table": ["5c"],
                 "piles": [[], seat1_pile], "fill": "piles", "fill_seat": 0, **keys})


# Seat 1: hearts but 5h, clubs but 5c, Kd and Qd (26 cards); seat 0 ends with 26.
TIED_26 = [c for c in rest_of_deck(KASINO, []) if c[1] in "hc" and c not in ("5h", "5c")]
TIED_26 += ["Kd", "Qd"]


def test_N2_a_moekki_is_worth_one_point() -> None:
    end = _last_card_2p(TIED_26, sweeps=[1, 0, 1]).play("5h x 5c")
    assert end.result is not None
    assert [(i.seat, i.points) for i in end.result.items if i.item == "sweep"] == [
        (1, 1), (0, 1), (1, 1)]


# ----------------------------------------------------------------------
# N4: scoring and carried ties


def test_N4_round_scoring_items() -> None:
    end = _last_card_2p(TIED_26).play("5h x 5c")
    assert end.result is not None
    got = [(i.item, i.seat, i.points) for i in end.result.items]
    # 26-26: no cards point. Seat 0 has every spade, As, Ad, Td, 2s; seat 1 Ac, Ah.
    assert got == [("spades", 0, 2), ("As", 0, 1), ("Ac", 1, 1), ("Ah", 1, 1),
                   ("Ad", 0, 1), ("Td", 0, 2), ("2s", 0, 1)]
    assert end.result.scores == (7, 2)


def test_N4_a_cards_tie_carries_to_the_next_round() -> None:
    end = _last_card_2p(TIED_26).play("5h x 5c")
    assert end.next_carry() == Carry(cards=1)


def test_N4_a_carried_cards_point_is_worth_two() -> None:
    pile = TIED_26[:-1]  # seat 1 has 25 cards: seat 0 has most cards
    end = _last_card_2p(pile, carry={"cards": 1, "spades": 0}).play("5h x 5c")
    assert end.result is not None
    assert ("cards", 0, 2) in [(i.item, i.seat, i.points) for i in end.result.items]
    assert end.next_carry() == Carry()


def test_N4_a_carry_is_kept_in_the_position_json() -> None:
    p = _last_card_2p(TIED_26, carry={"cards": 1, "spades": 0})
    assert p.carry == Carry(cards=1)
    assert p.to_json()["carry"] == {"cards": 1, "spades": 0}
    assert Position.from_json(p.to_json()) == p


def test_N4_a_tied_carry_keeps_growing() -> None:
    end = _last_card_2p(TIED_26, carry={"cards": 1, "spades": 0}).play("5h x 5c")
    assert end.next_carry() == Carry(cards=2)


def test_N4_match_passes_the_carry_to_the_next_round() -> None:
    match = Match("kasino", seed=4)
    rng = random.Random(4)
    for _ in range(6):
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        carry = match.position.next_carry()
        if match.is_over:
            break
        match.next_round()
        assert match.position.carry == carry


def _last_card_multi(players: int, piles: list[list[str]], **keys: object) -> Position:
    """Seat 0's last card 5h takes 5c; seats 1.. have the given piles, seat 0 the rest."""
    return make({"rules": {"preset": "kasino", "players": players},
                 "hands": [["5h"]] + [[] for _ in range(players - 1)], "table": ["5c"],
                 "piles": [[], *piles], "fill": "piles", "fill_seat": 0, **keys})


def test_N4_three_players_spade_tie_between_two_gives_each_one() -> None:
    # Spades: seat 0 5 (As 2s 3s 4s 5s) + ..., seat 1 5, seat 2 3.
    seat1 = cards("6s 7s 8s 9s Ts 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Ah")
    seat2 = cards("Js Qs Ks 2c 3c 4c 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    end = _last_card_multi(3, [seat1, seat2]).play("5h x 5c")
    assert end.result is not None
    spades = [(i.seat, i.points) for i in end.result.items if i.item == "spades"]
    assert sorted(spades) == [(0, 1), (1, 1)]
    assert end.next_carry().spades == 0


def test_N4_four_players_spade_tie_carries() -> None:
    seat1 = cards("6s 7s 8s 9s 2h 3h")
    seat2 = cards("Ts Js Qs Ks 4h 6h")
    seat3 = cards("7h 8h 9h Th")
    # seat 0 has As 2s 3s 4s 5s (5), seat 1 4, seat 2 4: no tie at the top.
    end = _last_card_multi(4, [seat1, seat2, seat3]).play("5h x 5c")
    assert end.result is not None
    assert [(i.seat, i.points) for i in end.result.items if i.item == "spades"] == [(0, 2)]
    # Seat 1 takes the Ts from seat 2: seats 0 and 1 tie on 5 spades.
    seat1_tie = [*seat1, "Ts"]
    seat2_tie = [c for c in seat2 if c != "Ts"]
    end = _last_card_multi(4, [seat1_tie, seat2_tie, seat3]).play("5h x 5c")
    assert end.result is not None
    assert not [i for i in end.result.items if i.item == "spades"]
    assert end.next_carry().spades == 2


def test_N4_four_players_carried_spades_worth_four() -> None:
    seat1 = cards("6s 7s 8s 9s 2h 3h")
    seat2 = cards("Ts Js Qs Ks 4h 6h")
    end = _last_card_multi(4, [seat1, seat2, cards("7h")],
                           carry={"cards": 0, "spades": 2}).play("5h x 5c")
    assert end.result is not None
    assert [(i.seat, i.points) for i in end.result.items if i.item == "spades"] == [(0, 4)]


def test_N6_option_last_capture_point() -> None:
    rules = preset("kasino", last_capture_points=1)
    end = _last_card_2p(TIED_26, rules=rules).play("5h x 5c")
    assert end.result is not None
    assert end.result.items[-1].item == "last"
    assert (end.result.items[-1].seat, end.result.items[-1].points) == (0, 1)
    plain = _last_card_2p(TIED_26).play("5h x 5c")
    assert plain.result is not None
    assert all(i.item != "last" for i in plain.result.items)


# ----------------------------------------------------------------------
# N5: the game to 16


def test_N5_reaching_16_wins() -> None:
    end = _last_card_2p(TIED_26, scores=[0, 14]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (7, 16)
    assert end.result.winner == 1


def test_N5_several_pass_16_the_highest_wins() -> None:
    end = _last_card_2p(TIED_26, scores=[12, 15]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (19, 17)
    assert end.result.winner == 0


def test_N5_an_exact_tie_at_the_top_plays_another_round() -> None:
    end = _last_card_2p(TIED_26, scores=[10, 15]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (17, 17)
    assert end.result.winner is None


def test_N5_below_16_nobody_wins() -> None:
    end = _last_card_2p(TIED_26, scores=[0, 0]).play("5h x 5c")
    assert end.result is not None
    assert end.result.winner is None

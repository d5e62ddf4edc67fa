"""Classic Casino and its variants (docs/rules.md §5, §6: classic, royal, spade, faces-all;
3 players; 4 players in partnerships): named tests for each rule."""

from __future__ import annotations

import random

import pytest

from casino import InvalidPosition, Match, Position, Rules, preset
from casino.engine.cards import parse_card
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE
from tests.variant_positions import cards, make, pos, spec_json, texts

CLASSIC = preset("classic")
ROYAL = preset("royal")

# ----------------------------------------------------------------------
# docs/rules.md §5.1 values: face cards, the Ace, builds to 10


def test_5_face_card_takes_exactly_one_card_of_its_rank() -> None:
    p = pos(CLASSIC, ["Kd 5c", "3d"], "Kc Kh Qs 7d")
    kings = {str(m) for m in p.legal_moves() if m.card == parse_card("Kd")}
    assert kings == {"Kd", "Kd x Kc", "Kd x Kh"}


def test_5_face_cards_have_no_value_in_sums() -> None:
    p = pos(CLASSIC, ["Kd 5c", "3d"], "Jc 2h")
    # A King never takes J+2 (13 = 11 + 2 in Royal values).
    assert not any(m.kind == CAPTURE for m in p.legal_moves())


def test_5_face_cards_never_build() -> None:
    p = pos(CLASSIC, ["Qd Qh 5c", "3d"], "Qc 2h")
    assert all(m.kind not in (BUILD, ADD, RAISE) or m.card == parse_card("5c")
               for m in p.legal_moves())
    assert not any(parse_card("Qc") in m.loose for m in p.legal_moves() if m.kind == BUILD)


def test_5_a_face_card_in_a_build_is_an_invalid_position() -> None:
    obj = spec_json({"rules": "classic", "hands": [["Kd"], ["2c"]],
                     "table": [{"value": 10, "owner": 0, "groups": [["Jd"]]}]})
    with pytest.raises(InvalidPosition):
        Position.from_json(obj)


def test_5_ace_is_one_and_takes_any_of_the_table_aces() -> None:
    p = pos(CLASSIC, ["Ad 5c", "3d"], "Ac Ah 4s")
    aces = {str(m) for m in p.legal_moves() if m.card == parse_card("Ad")}
    assert aces == {"Ad", "Ad x Ac", "Ad x Ah", "Ad x Ac Ah", "Ad+4s =5"}


def test_5_ace_counts_one_in_a_group() -> None:
    p = pos(CLASSIC, ["5c", "3d"], "Ac 4s")
    assert "5c x 4s+Ac" in texts(p.legal_moves())


def test_5_number_card_takes_every_chosen_table_card_of_its_rank() -> None:
    p = pos(CLASSIC, ["7d", "3d"], "7c 7h")
    assert "7d x 7c 7h" in texts(p.legal_moves())


def test_5_builds_go_up_to_ten_only() -> None:
    p = pos(CLASSIC, ["6d 4c Th", "3d"], "6s 4h")
    builds = {str(m) for m in p.legal_moves() if m.kind == BUILD}
    assert builds == {"6d+4h =10", "4c+6s =10"}
    q = pos(CLASSIC, ["6d 9c", "3d"], "6s")
    assert not [m for m in q.legal_moves() if m.kind == BUILD]  # 12 is not a build


def test_5_no_raise_past_ten() -> None:
    b = {"value": 8, "owner": 1, "groups": [["5d", "3s"]]}
    p = pos(CLASSIC, ["3c Th 2h", "8h"], [b])
    raises = {str(m) for m in p.legal_moves() if m.kind == RAISE}
    assert raises == {"2h > [5d+3s] =10"}


# ----------------------------------------------------------------------
# docs/rules.md §6: royal, faces-all


def test_6_royal_faces_have_values_and_build() -> None:
    p = pos(ROYAL, ["Jd Jh", "3d"], "9s 2h")
    legal = texts(p.legal_moves())
    assert "Jd x 9s+2h" in legal
    assert "Jd 9s+2h =11" in legal


def test_6_royal_ace_is_played_as_1_or_14() -> None:
    p = pos(ROYAL, ["Ad 3c", "3d"], "9s 5h Ac")
    legal = texts(p.legal_moves())
    assert "Ad x Ac" in legal  # by rank
    assert "Ad x 9s+5h" in legal  # as 14
    assert "Ad x Ac 9s+5h" in legal


def test_6_royal_holding_an_ace_allows_a_build_of_14() -> None:
    p = pos(ROYAL, ["Kd Ah", "3d"], "Ac")
    assert "Kd+Ac =14" in texts(p.legal_moves())


def test_6_faces_all_takes_any_of_its_rank() -> None:
    p = pos("faces-all", ["Kd 5c", "3d"], "Kc Kh Qs 7d")
    kings = {str(m) for m in p.legal_moves() if m.card == parse_card("Kd")}
    assert kings == {"Kd", "Kd x Kc", "Kd x Kh", "Kd x Kc Kh"}


# ----------------------------------------------------------------------
# Three and four players


@pytest.mark.parametrize(("players", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_5_deals_per_round(players: int, deals: int) -> None:
    rules = preset("classic", players=players)
    assert rules.deals_per_round == deals
    match = Match(rules, seed=players, first_dealer=0)
    rng = random.Random(players)
    seen = set()
    while match.position.result is None:
        p = match.position
        if p.deal not in seen:
            seen.add(p.deal)
            assert p.to_move == 1  # the dealer's left leads each deal
            assert all(p.hand_size(s) == 4 for s in range(players))
        match.play(rng.choice(match.legal_moves()))
    assert seen == set(range(1, deals + 1))


def test_5_three_players_turns_go_clockwise() -> None:
    p = pos(preset("classic", players=3), ["5c 9h", "3d 4d", "6h 8s"], "Kc", dealer=0,
            to_move=1)
    p = p.play(p.legal_moves()[-1])
    assert p.to_move == 2
    p = p.play(p.legal_moves()[-1])
    assert p.to_move == 0


def _last_card(rules: str | Rules, piles: list[list[str]], **keys: object) -> Position:
    """Seat 0's last card 5h takes 5c (not a sweep: Qd stays and goes to seat 0 as the
    last capturer); seats 1.. have the given piles, seat 0 the rest."""
    r = preset(rules) if isinstance(rules, str) else rules
    n = r.players
    return make({"rules": r, "hands": [["5h"]] + [[] for _ in range(n - 1)],
                 "table": ["5c", "Qd"], "piles": [[], *piles], "fill": "piles", "fill_seat": 0,
                 **keys})


def test_5_three_players_ties_for_cards_and_spades_score_nothing() -> None:
    rules = preset("classic", players=3)
    # Seat 0 ends with 20 cards and 5 spades, seat 1 20 cards and 5 spades, seat 2 12.
    seat1 = cards("6s 7s 8s 9s Ts 2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Ah 2c 3c 4c")
    seat2 = cards("Js Qs Ks 6c 7c 8c 9c Tc Jc Qc Kc Ac")
    end = _last_card(rules, [seat1, seat2]).play("5h x 5c")
    assert end.result is not None
    assert len(end.piles[0]) == len(end.piles[1]) == 20
    names = [i.item for i in end.result.items]
    assert "cards" not in names
    assert "spades" not in names


def test_5_four_players_partners_piles_scored_together() -> None:
    rules = preset("classic", players=4)
    assert rules.partnerships
    # Seat 1 alone has more cards (20) than seat 0 (rest) but 0+2 together have most.
    seat1 = cards("2h 3h 4h 6h 7h 8h 9h Th Jh Qh Kh Ah 2c 3c 4c 6c 7c 8c 9c Tc")
    seat2 = cards("6s 7s 8s 9s Ts Js Qs Ks 2d 3d 4d 6d")
    seat3 = cards("Jd Td")
    end = _last_card(rules, [seat1, seat2, seat3]).play("5h x 5c")
    assert end.result is not None
    assert len(end.piles[1]) > len(end.piles[0])
    got = {(i.item, i.seat) for i in end.result.items}
    assert ("cards", 0) in got  # 0+2: 32 cards
    assert ("spades", 0) in got
    assert all(i.seat in (0, 1) for i in end.result.items)
    assert end.result.scores[0] == end.result.scores[2]
    assert end.result.scores[1] == end.result.scores[3]


def test_5_four_players_builds_are_owned_per_seat() -> None:
    rules = preset("classic", players=4)
    b = {"value": 8, "owner": 2, "groups": [["5d", "3s"]]}
    p = pos(rules, ["4c 9h", "2d", "8c", "6h"], [b], dealer=3, to_move=0)
    legal = texts(p.legal_moves())
    assert "4c" in legal  # the partner's build does not stop seat 0 trailing
    q = pos(rules, ["4c 8h", "2d", "9c", "6h"], [{**b, "owner": 0}], dealer=3, to_move=0)
    assert "4c" not in texts(q.legal_moves())


def test_5_four_players_turns_and_deals() -> None:
    rules = preset("classic", players=4)
    match = Match(rules, seed=2, first_dealer=2)
    p = match.position
    assert p.to_move == 3
    assert [p.hand_size(s) for s in range(4)] == [4, 4, 4, 4]
    assert len(p.loose) == 4


# ----------------------------------------------------------------------
# The end of the game (docs/rules.md §5.3): higher total vs counting order

# Seat 1: all spades, clubs but 5c, Kd (26); seat 0: the rest (26 with 5h, 5c).
# Items: spades 1 to seat 1, Td 2 to seat 0, 2s 1, As 1, Ac 1 to seat 1, Ah 1, Ad 1 to 0:
# 4 each, and no cards point.
SEAT1_B = cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks "
                "Ac 2c 3c 4c 6c 7c 8c 9c Tc Jc Qc Kc Kd")


def test_5_classic_round_items() -> None:
    end = _last_card("classic", [SEAT1_B]).play("5h x 5c")
    assert end.result is not None
    assert [(i.item, i.seat, i.points) for i in end.result.items] == [
        ("spades", 1, 1), ("Td", 0, 2), ("2s", 1, 1), ("As", 1, 1), ("Ac", 1, 1),
        ("Ah", 0, 1), ("Ad", 0, 1)]


def test_5_classic_both_past_21_tie_plays_another_round() -> None:
    end = _last_card("classic", [SEAT1_B], scores=[20, 20]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (24, 24)
    assert end.result.winner is None


def test_5_classic_both_past_21_higher_total_wins() -> None:
    end = _last_card("classic", [SEAT1_B], scores=[20, 19]).play("5h x 5c")
    assert end.result is not None
    assert end.result.winner == 0
    end = _last_card("classic", [SEAT1_B], scores=[18, 19]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores == (22, 23)
    assert end.result.winner == 1


def test_5_classic_one_past_21_wins() -> None:
    end = _last_card("classic", [SEAT1_B], scores=[17, 5]).play("5h x 5c")
    assert end.result is not None
    assert end.result.winner == 0


def test_5_classic_counting_order_option() -> None:
    rules = preset("classic", win_rule="counting-order")
    end = _last_card(rules, [SEAT1_B], scores=[20, 20]).play("5h x 5c")
    assert end.result is not None
    assert end.result.winner == 1  # the spades point comes first


# ----------------------------------------------------------------------
# Spade Casino


def test_6_spade_scoring_each_spade_and_the_jack() -> None:
    end = _last_card("spade", [SEAT1_B[:-1]]).play("5h x 5c")  # seat 0 has 27 cards
    assert end.result is not None
    got = [(i.item, i.seat, i.points) for i in end.result.items]
    assert ("cards", 0, 3) in got
    assert ("spades", 1, 13) in got
    assert ("Js", 1, 1) in got
    assert sum(i.points for i in end.result.items) == 24


def test_6_spade_round_is_24_plus_sweeps() -> None:
    end = _last_card("spade", [SEAT1_B[:-1]], sweeps=[0, 1, 1]).play("5h x 5c")
    assert end.result is not None
    assert sum(i.points for i in end.result.items) == 24 + 3


def test_6_spade_game_to_61() -> None:
    rules = preset("spade")
    assert rules.target == 61
    end = _last_card(rules, [SEAT1_B[:-1]], scores=[40, 40]).play("5h x 5c")
    assert end.result is not None
    assert end.result.winner is None
    end = _last_card(rules, [SEAT1_B[:-1]], scores=[40, 45]).play("5h x 5c")
    assert end.result is not None
    assert end.result.scores[1] >= 61
    assert end.result.winner == 1

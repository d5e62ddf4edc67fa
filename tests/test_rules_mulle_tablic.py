"""Mulle and Tablić (docs/rules.md §6, P4, P5): named tests for each rule."""

from __future__ import annotations

import itertools
import json
import random

import pytest

from casino import Match, Position, Rules, preset
from casino.bots.levels import make_level
from casino.engine.cards import parse_card
from casino.engine.errors import IllegalMove
from casino.engine.moves import ADD, BUILD, RAISE
from tests.variant_positions import cards, deck_from, make, pos, rest_of_deck, texts

MULLE = preset("mulle")
TABLIC = preset("tablic")


def _play_round(rules: Rules, seed: int) -> list[Position]:
    """Every position of one randomly played round, first deal to the scored end."""
    match = Match(rules, seed=seed, first_dealer=1)
    rng = random.Random(seed)
    out = [match.position]
    while match.position.result is None:
        match.play(rng.choice(match.legal_moves()))
        out.append(match.position)
    return out


def _deal_starts(history: list[Position]) -> list[Position]:
    starts = [history[0]]
    for before, after in itertools.pairwise(history):
        if after.result is None and after.deal != before.deal:
            starts.append(after)
    return starts


# ----------------------------------------------------------------------
# Mulle


def test_6_mulle_two_decks_and_royal_values() -> None:
    assert MULLE.deck_size == 104
    p = pos(MULLE, ["Ad Ah 7h", "3d"], "9s 5h Ac")
    legal = texts(p.legal_moves())
    assert "Ad x 9s+5h" in legal  # the Ace played as 14
    assert "Ad x Ac" in legal  # by rank


def test_6_mulle_building_is_allowed() -> None:
    p = pos(MULLE, ["7h 7c", "3d"], "4c 3c")
    kinds = {m.kind for m in p.legal_moves()}
    assert BUILD in kinds
    assert "7h 4c+3c =7" in texts(p.legal_moves())


def test_6_mulle_first_deal_five_and_five() -> None:
    top = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 2h 3h 4h 5h 6h")
    p = Position.start_round(MULLE, deck_from(MULLE, top), dealer=1)
    assert [len(p.hand(s)) for s in (0, 1)] == [5, 5]
    assert len(p.loose) == 5
    assert p.stock_size == 104 - 15


def test_6_mulle_later_deals_five_each_as_far_as_the_cards_go() -> None:
    assert MULLE.deals_per_round == 10
    starts = _deal_starts(_play_round(MULLE, 3))
    assert len(starts) == 10
    sizes = [[p.hand_size(s) for s in (0, 1)] for p in starts]
    assert sizes[:-1] == [[5, 5]] * 9
    # 104 - 15 - 8 * 10 = 9 cards for the last deal: the non-dealer (seat 0) 5, the dealer 4.
    assert sizes[-1] == [5, 4]
    assert starts[-1].stock_size == 0


def test_6_mulle_last_deal_dealt_from_a_short_stock() -> None:
    stock = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc")
    p = pos(MULLE, ["Kd", []], "Qh", stock=stock, fill="piles", dealer=1,
            deal=9, fill_seat=1)
    p = p.play("Kd")
    assert p.deal == 10
    assert [len(p.hand(s)) for s in (0, 1)] == [5, 4]
    assert set(p.hand(0)) == {parse_card(c) for c in cards("2c 3c 6c 7c Tc")}
    assert p.to_move == 0


def test_6_mulle_identical_card_taken_alone_is_a_mulle() -> None:
    p = pos(MULLE, ["7h 9c", "3d"], "7h 3c 4d")
    q = p.play("7h x 7h")
    assert q.mulles == (0,)
    assert q.sweeps == ()


def test_6_mulle_not_a_mulle_with_other_cards() -> None:
    p = pos(MULLE, ["7h 9c", "3d"], "7h 3c 4d")
    assert p.play("7h x 7h 4d+3c").mulles == ()


def test_6_mulle_not_a_mulle_with_another_suit() -> None:
    p = pos(MULLE, ["7c 9c", "3d"], "7h 3c 4d")
    assert p.play("7c x 7h").mulles == ()


def test_6_mulle_recorded_in_json() -> None:
    q = pos(MULLE, ["7h 9c", "3d"], "7h 3c 4d").play("7h x 7h")
    assert q.to_json()["mulles"] == [0]
    assert Position.from_json(q.to_json()) == q


def _mulle_last(**keys: object) -> Position:
    """Seat 0's last card 7h takes its twin alone (a mulle, and a sweep). Seat 1's pile
    holds both copies of A-6 and of 8s 8c (58 cards, 16 spades), so most cards would go
    to seat 1 if they scored."""
    pile1 = [c for c in rest_of_deck(MULLE, []) if c[0] in "A23456" or c in ("8s", "8c")]
    return make({"rules": "mulle", "hands": [["7h"], []], "table": ["7h"],
                 "piles": [[], pile1], "fill": "piles", "fill_seat": 0, **keys})


def test_6_mulle_scores_five_and_no_points_for_cards() -> None:
    end = _mulle_last().play("7h x 7h")
    assert end.result is not None
    got = [(i.item, i.seat, i.points) for i in end.result.items]
    assert ("mulle", 0, 5) in got
    assert all(i.item != "cards" for i in end.result.items)


def test_6_mulle_last_capture_scores_one() -> None:
    end = _mulle_last().play("7h x 7h")
    assert end.result is not None
    assert ("last", 0, 1) in [(i.item, i.seat, i.points) for i in end.result.items]


def test_6_mulle_round_total() -> None:
    end = _mulle_last(sweeps=[1]).play("7h x 7h")
    assert end.result is not None
    # Most spades 1, two Td 4, two 2s 2, eight Aces 8 = 15; sweeps 1 + 1 (the last card),
    # mulle 5, last capture 1.
    assert sum(i.points for i in end.result.items) == 15 + 2 + 5 + 1


# ----------------------------------------------------------------------
# Tablić


def test_6_tablic_no_builds() -> None:
    p = pos(TABLIC, ["7h 7c 3h", "3d"], "4c 3c")
    assert not {m.kind for m in p.legal_moves()} & {BUILD, ADD, RAISE}


def test_6_tablic_face_values_12_13_14() -> None:
    p = pos(TABLIC, ["Jc Qd Kh", "3d"], "9s 3h 4d")
    legal = texts(p.legal_moves())
    assert "Jc x 9s+3h" in legal  # 12
    assert "Qd x 9s+4d" in legal  # 13
    assert "Kh x 9s+4d" not in legal
    q = pos(TABLIC, ["Kh", "3d"], "9s 5d")
    assert "Kh x 9s+5d" in texts(q.legal_moves())  # 14


def test_6_tablic_ace_played_as_1_or_11() -> None:
    p = pos(TABLIC, ["Ad Kc", "3d"], "Ah 9s 3h 2c")
    aces = {str(m) for m in p.legal_moves() if m.card == parse_card("Ad")}
    assert aces == {"Ad", "Ad x Ah", "Ad x 9s+2c", "Ad x Ah 9s+2c"}


def test_6_tablic_ace_counts_1_or_11_in_sums() -> None:
    p = pos(TABLIC, ["Ad Kc", "3d"], "Ah 9s 3h 2c")
    kings = {str(m) for m in p.legal_moves() if m.card == parse_card("Kc")}
    # 14 = Ah(11)+3h, or 9s+3h+2c; both use the 3h.
    assert kings == {"Kc", "Kc x 3h+Ah", "Kc x 9s+3h+2c"}
    q = pos(TABLIC, ["Qd", "3d"], "Ah 9s 3h Jh")
    queens = {str(m) for m in q.legal_moves()}
    assert queens == {"Qd", "Qd x 9s+3h+Ah", "Qd x Jh+Ah"}  # 13 = 9+3+1 or 12+1


def test_6_tablic_first_deal_six_each_four_table() -> None:
    top = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 2h 3h 4h 5h 6h 7h")
    p = Position.start_round(TABLIC, deck_from(TABLIC, top), dealer=1)
    assert [len(p.hand(s)) for s in (0, 1)] == [6, 6]
    assert len(p.loose) == 4
    assert TABLIC.deals_per_round == 4


def test_6_tablic_later_deals_six_each() -> None:
    starts = _deal_starts(_play_round(TABLIC, 5))
    assert len(starts) == 4
    assert all([p.hand_size(s) for s in (0, 1)] == [6, 6] for p in starts)


def test_6_tablic_plays_anticlockwise() -> None:
    assert TABLIC.direction == -1
    rules = preset("tablic", players=4)
    match = Match(rules, seed=1, first_dealer=0)
    p = match.position
    assert p.to_move == 3  # the dealer's right, anticlockwise
    order = [p.to_move]
    for _ in range(3):
        match.play(match.legal_moves()[-1])
        order.append(match.position.to_move)
    assert order == [3, 2, 1, 0]
    # The one walk round the table that the forecasts share goes the same way.
    assert rules.playing_order(3) == (3, 2, 1, 0)
    assert preset("classic", players=4).playing_order(3) == (3, 0, 1, 2)


def test_6_tablic_deals_anticlockwise() -> None:
    rules = preset("tablic", players=3)
    top = cards("2c 3c 4c 5c 6c 7c 8c 9c Tc Jc 2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh")
    p = Position.start_round(rules, deck_from(rules, top), dealer=0)
    ids = [parse_card(c) for c in top]
    # First packet to seat 2 (the dealer's right), then seat 1, table, dealer.
    assert {ids[0], ids[1]} <= set(p.hand(2))
    assert {ids[2], ids[3]} <= set(p.hand(1))
    assert {ids[4], ids[5]} <= set(p.loose)
    assert {ids[6], ids[7]} <= set(p.hand(0))


def test_6_tablic_a_tabla_is_one_point() -> None:
    p = pos(TABLIC, ["9h 2c", "3d"], "4s 5d")
    q = p.play("9h x 5d+4s")
    assert q.sweeps == (0,)


def _tablic_last(seat1_pile: list[str], **keys: object) -> Position:
    return make({"rules": "tablic", "hands": [["5h"], []], "table": ["5c", "Qd"],
                 "piles": [[], seat1_pile], "fill": "piles", "fill_seat": 0, **keys})


def test_6_tablic_round_is_25_plus_tablas() -> None:
    seat1 = cards("As Ks Qs Js Ts 2c 3c 4c")
    end = _tablic_last(seat1).play("5h x 5c")
    assert end.result is not None
    assert sum(i.points for i in end.result.items) == 25
    got = [(i.item, i.seat, i.points) for i in end.result.items]
    assert ("cards", 0, 3) in got
    assert ("Td", 0, 2) in got
    assert ("2c", 1, 1) in got
    assert ("As", 1, 1) in got
    end = _tablic_last(seat1, sweeps=[0, 1, 1]).play("5h x 5c")
    assert end.result is not None
    assert sum(i.points for i in end.result.items) == 28


@pytest.mark.parametrize(("scores", "winner"), [((90, 50), 0), ((50, 90), None),
                                                ((80, 96), 1), ((82, 95), None)])
def test_6_tablic_game_to_101(scores: tuple[int, int], winner: int | None) -> None:
    seat1 = cards("As Ks Qs Js Ts 2c 3c 4c")
    end = _tablic_last(seat1, scores=list(scores)).play("5h x 5c")
    assert end.result is not None
    # Seat 1 has As Ks Qs Js Ts and 2c: 6 points; seat 0 the other 19.
    assert end.result.scores == (scores[0] + 19, scores[1] + 6)
    assert end.result.winner == winner


def _twin_builds() -> Position:
    twins = [{"value": 12, "owner": o, "groups": [["7s", "5h"]]} for o in (1, 2)]
    return pos({"preset": "mulle", "players": 4}, ["Qd 2c", "3d", "4d", "5d"], [*twins, "9c"])


def test_6_mulle_twin_builds_are_named_by_owner() -> None:
    """Two decks can put two builds of the same cards and value, owned by different
    seats, on the table: each move's text names one of them, and reads back to it."""
    p = _twin_builds()
    shown = sorted(b.text() for b in p.builds)
    assert shown == ["[7s+5h]@1", "[7s+5h]@2"]
    moves = p.legal_moves()
    for m in moves:
        assert p.parse_move(str(m)) == m, str(m)
    # Taking one of them leaves the other, which is no longer marked.
    one = next(m for m in moves if str(m) == "Qd x [7s+5h]@1")
    after = p.play(one)
    assert [b.text() for b in after.builds] == ["[7s+5h]"]
    assert after.builds[0].owner == 2


def test_6_mulle_twin_builds_text_without_owner_is_ambiguous() -> None:
    p = _twin_builds()
    with pytest.raises(IllegalMove, match=r"several moves.*\[7s\+5h\]@1.*@2"):
        p.parse_move("Qd x [7s+5h]")
    with pytest.raises(IllegalMove, match=r"no build .* owned by seat 3"):
        p.parse_move("Qd x [7s+5h]@3")


def test_6_mulle_twin_builds_survive_a_record_and_a_bot() -> None:
    p = _twin_builds()
    back = Position.from_json(json.loads(json.dumps(p.to_json())))
    assert back == p and sorted(b.text() for b in back.builds) == ["[7s+5h]@1", "[7s+5h]@2"]
    for level in ("beginner", "expert"):
        bot, limit = make_level(level, seed=1)
        move = bot.choose(p.observation(0), limit)
        assert p.parse_move(str(move)) == move

"""Named tests for the house ruleset ``casino`` (docs/rules.md §1-§2, §8).

Each test is named after the rule or decision it checks: ``test_2_4_...`` for a
section of docs/rules.md, ``test_C2_...`` for an ambiguity decision of
docs/rules.md. Positions are written as JSON the way a player would lay
them out (hands, table, builds); :func:`make` puts every other card in the
stock (or in a pile) so each position holds exactly 52 cards.

Where feasible a test states the *exact* set of legal moves, so a generator
that allows one move too many fails as loudly as one that forbids a legal one.
"""

from __future__ import annotations

import itertools
import random
from collections.abc import Iterable, Sequence
from typing import Any

import pytest

from casino import (
    Build,
    IllegalMove,
    InvalidPosition,
    Match,
    Move,
    Position,
    Result,
    Rules,
    card_text,
    parse_card,
)

Json = dict[str, Any]


# ----------------------------------------------------------------------
# Helpers


def build(value: int, owner: int, *groups: str) -> Json:
    """A build as JSON: ``build(8, 1, "5d 3s")`` or ``build(8, 0, "8h", "5d 3s")``."""
    return {"value": value, "owner": owner, "groups": [g.split() for g in groups]}


def _table_cards(table: Sequence[str | Json]) -> list[str]:
    out: list[str] = []
    for item in table:
        if isinstance(item, str):
            out.append(item)
        else:
            out.extend(c for g in item["groups"] for c in g)
    return out


def make(hands: Sequence[str], table: Sequence[str | Json] = (), *, to_move: int = 0,
         dealer: int = 1, piles: Sequence[str] = ("", ""), rest: str | int = "stock",
         stock: str | None = None, **keys: Any) -> Position:
    """A full 52-card ``casino`` position from the cards a test cares about.

    ``hands`` and ``piles`` are space-separated card lists per seat. Every card
    not named goes to the stock (``rest="stock"``, the round goes on) or to the
    pile of seat ``rest`` (the stock is empty: the last deal). ``stock`` puts the
    named cards on top of the stock, in order. Extra ``keys`` override the JSON.
    """
    named = [c for h in hands for c in h.split()] + _table_cards(table)
    named += [c for p in piles for c in p.split()]
    top = stock.split() if stock else []
    used = {parse_card(c) for c in named + top}
    assert len(used) == len(named) + len(top), "a card is named twice in the test"
    remaining = [card_text(c) for c in range(52) if c not in used]
    pile_lists = [p.split() for p in piles]
    if rest == "stock":
        # Deal 2 of 6: at most 32 cards can still be dealt; the rest were captured
        # earlier (seat 1's pile), so the stock fits the deal number.
        stock_list = (top + remaining)[:32]
        pile_lists[1] += (top + remaining)[32:]
        deal = 2
    else:
        assert isinstance(rest, int) and not top
        pile_lists[rest] += remaining
        stock_list = []
        deal = 6
    obj: Json = {
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": deal,
        "dealer": dealer, "to_move": to_move, "hands": [h.split() for h in hands],
        "table": list(table), "piles": pile_lists, "sweeps": [],
        # Only a capture fills a pile: a seat with captured cards made the last one.
        "last_capture": next((s for s in (1, 0) if pile_lists[s]), None),
        "stock": stock_list, "scores": [0, 0], "result": None,
    }
    obj.update(keys)
    return Position.from_json(obj)


def texts(moves: Iterable[Move]) -> set[str]:
    return {str(m) for m in moves}


def assert_moves(pos: Position, expected: Iterable[str], *, card: str | None = None,
                 kind: str | None = None) -> None:
    """The legal moves (of ``card`` / ``kind`` if given) are exactly ``expected``.

    Expected moves are read with ``parse_move`` (so their text may be in any
    lenient form, and two texts may name one move in two splits); a text the
    engine refuses is reported with its reason. Moves are compared as moves (a
    split into groups is only how a move is shown).
    """
    refused = {}
    wanted: set[Move] = set()
    for t in expected:
        try:
            wanted.add(pos.parse_move(t))
        except IllegalMove as exc:
            refused[t] = str(exc)
    legal = [m for m in pos.legal_moves()
             if (card is None or m.card == parse_card(card)) and (kind is None or m.kind == kind)]
    got = set(legal)
    assert not refused, f"expected moves refused: {refused}"
    assert got == wanted, (f"missing {sorted(texts(wanted - got))}, "
                           f"extra {sorted(texts(got - wanted))}")


def assert_illegal(pos: Position, text: str, *reason: str) -> None:
    """``text`` is refused with IllegalMove whose message contains each of ``reason``."""
    with pytest.raises(IllegalMove) as info:
        pos.parse_move(text)
    msg = str(info.value)
    for r in reason:
        assert r in msg, f"{text!r}: message {msg!r} does not mention {r!r}"


def assert_legal(pos: Position, *moves: str) -> None:
    for t in moves:
        try:
            pos.parse_move(t)
        except IllegalMove as exc:  # pragma: no cover - failure path
            pytest.fail(f"{t!r} should be legal: {exc}")


def builds_of(pos: Position) -> list[tuple[int, int, tuple[str, ...], bool]]:
    """Each build as (value, owner, sorted cards, multiple)."""
    return sorted((b.value, b.owner, tuple(sorted(card_text(c) for c in b.cards)), b.multiple)
                  for b in pos.builds)


def cards(text: str) -> tuple[int, ...]:
    return tuple(sorted(parse_card(c) for c in text.split()))


def cards_in_order(text: str) -> tuple[int, ...]:
    return tuple(parse_card(c) for c in text.split())


def pile(pos: Position, seat: int) -> tuple[int, ...]:
    return tuple(sorted(pos.piles[seat]))


def loose(pos: Position) -> tuple[int, ...]:
    return tuple(sorted(pos.loose))


def random_rounds(seeds: Iterable[int], rules: str = "casino") -> Iterable[list[Position]]:
    """Every position of one random round per seed (first round of a Match)."""
    for seed in seeds:
        match = Match(rules, seed=seed)
        rng = random.Random(seed)
        seen = [match.position]
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
            seen.append(match.position)
        yield seen


# ----------------------------------------------------------------------
# docs/rules.md §1, §2.1 Values


def test_2_1_played_values_two_to_king_and_ace_fourteen() -> None:
    """Played value: 2-T face value, J 11, Q 12, K 13, A 14 (a group of that sum is taken)."""
    rules = Rules.preset("casino")
    played = {card_text(c): rules.table.played[c] for c in range(52)}
    assert played["2s"] == (2,) and played["Td"] == (10,)
    assert played["Jc"] == (11,) and played["Qh"] == (12,) and played["Kd"] == (13,)
    assert played["As"] == (14,)


def test_2_1_sum_values_ace_counts_one() -> None:
    rules = Rules.preset("casino")
    assert rules.table.sum_value[parse_card("As")] == 1
    assert rules.table.sum_value[parse_card("Kd")] == 13
    # A table Ace inside a group counts 1: As+3c is a 4.
    pos = make(["4d", "9c"], ["As", "3c"])
    assert_moves(pos, ["4d x As+3c"], card="4d", kind="capture")


def test_2_1_face_cards_take_their_number_sums() -> None:
    """A4: J, Q, K are ordinary numbers: a Q takes every table Q plus 12-groups."""
    pos = make(["Qd", "2c"], ["Qs", "Qh", "7c", "5h", "9d", "3s"])
    legal = texts(m for m in pos.legal_moves() if m.card == parse_card("Qd") and m.is_capture)
    assert str(pos.parse_move("Qd x Qs Qh 7c+5h 9d+3s")) in legal
    # 7+5 and 9+3 are the only 12-groups; 2^4 - 1 selections of four disjoint items.
    assert len(legal) == 15


def test_2_1_pairing_takes_same_rank_only() -> None:
    """A lone table card is taken by the same rank (not by another card of its value)."""
    pos = make(["9d", "2c"], ["9c", "4h"])
    assert_moves(pos, ["9d x 9c"], card="9d", kind="capture")
    assert_illegal(pos, "9d x 4h", "cannot take")


def test_2_1_played_ace_takes_table_ace_by_rank() -> None:
    pos = make(["Ah", "2c"], ["As"])
    assert_moves(pos, ["Ah x As"], card="Ah", kind="capture")


def test_A1_played_ace_is_never_one() -> None:
    """A played Ace never captures as 1: it does not take a 2-group's worth of 1, nor
    count 1 when it is the capturing card (a lone 2 cannot be paired or summed)."""
    pos = make(["Ah", "3c"], ["2d", "Kc"])
    captures = [m for m in pos.legal_moves() if m.card == parse_card("Ah") and m.is_capture]
    assert captures == []


# ----------------------------------------------------------------------
# docs/rules.md §2.2 Deal


DECK_TEXT = (
    "2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc Ac "
    "2d 3d 4d 5d 6d 7d 8d 9d Td Jd Qd Kd Ad "
    "2h 3h 4h 5h 6h 7h 8h 9h Th Jh Qh Kh Ah "
    "2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks As"
)


@pytest.mark.parametrize("dealer", [0, 1])
def test_2_2_first_deal_in_twos_non_dealer_table_dealer(dealer: int) -> None:
    """2 to the non-dealer, 2 to the table, 2 to the dealer, twice: 4 each, 4 on the table."""
    deck = tuple(parse_card(c) for c in DECK_TEXT.split())
    pos = Position.start_round(Rules.preset("casino"), deck, dealer)
    other = 1 - dealer
    assert pos.hand(other) == cards("2c 3c 8c 9c")
    assert loose(pos) == cards("4c 5c Tc Jc")
    assert pos.hand(dealer) == cards("6c 7c Qc Kc")
    assert pos.stock == deck[12:]
    assert pos.to_move == other and pos.deal == 1 and pos.dealer == dealer
    assert pos.builds == () and pos.piles == ((), ())


@pytest.mark.parametrize("dealer", [0, 1])
def test_2_2_later_deal_packets_of_two_starting_after_dealer(dealer: int) -> None:
    """When both hands are empty, ``play`` deals 4 each in packets of 2 from the top,
    non-dealer first, none to the table; the non-dealer leads the new deal."""
    other = 1 - dealer
    hands = ["", ""]
    hands[other] = "2c"
    hands[dealer] = "3c"
    pos = make(hands, ["Kh"], to_move=other, dealer=dealer,
               stock="4d 5d 6d 7d 8d 9d Td Jd")
    pos = pos.play("2c")
    assert pos.to_move == dealer and pos.deal == 2
    after = pos.play("3c")
    assert after.deal == 3
    assert after.hand(other) == cards("4d 5d 8d 9d")
    assert after.hand(dealer) == cards("6d 7d Td Jd")
    assert after.to_move == other
    assert loose(after) == cards("Kh 3c 2c")
    assert after.stock_size == 32 - 8
    assert isinstance(pos.stock, tuple) and after.stock == pos.stock[8:]


def test_2_2_six_deals_use_the_whole_deck() -> None:
    assert Rules.preset("casino").deals_per_round == 6
    for positions in random_rounds(range(3)):
        deals = [p.deal for p in positions]
        assert max(deals) == 6
        sixth = next(p for p in positions if p.deal == 6)
        assert sixth.stock_size == 0 and sixth.hand_size(0) == sixth.hand_size(1) == 4


def test_2_2_non_dealer_leads_every_deal() -> None:
    for positions in random_rounds(range(3)):
        for before, after in itertools.pairwise(positions):
            if after.result is None and after.deal != before.deal:
                assert after.to_move == 1 - after.dealer
                assert after.hand_size(0) == after.hand_size(1) == 4
        assert positions[0].to_move == 1 - positions[0].dealer


def test_2_2_first_dealer_given_or_cut_and_deal_passes_each_round() -> None:
    match = Match("casino", seed=5, first_dealer=1)
    assert match.position.dealer == 1
    rng = random.Random(5)
    dealers = [match.position.dealer]
    for _ in range(3):
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        if match.is_over:
            break
        dealers.append(match.next_round().dealer)
    assert dealers == [1, 0, 1, 0][:len(dealers)]
    assert {Match("casino", seed=s).position.dealer for s in range(20)} == {0, 1}


# ----------------------------------------------------------------------
# docs/rules.md §2.3 The table


def test_2_3_build_values_run_from_two_to_fourteen() -> None:
    for value, group in ((1, "As"), (15, "Kd 2c")):
        with pytest.raises(InvalidPosition):
            make(["9c", "9d"], [build(value, 0, group)])
    pos = make(["Ac", "9d"], [build(14, 0, "Kd As")])
    assert builds_of(pos) == [(14, 0, ("As", "Kd"), False)]


def test_2_3_a_lone_card_is_never_a_build() -> None:
    with pytest.raises(InvalidPosition):
        make(["8c", "9d"], [build(8, 0, "8h")])


def test_2_3_build_groups_must_add_up() -> None:
    with pytest.raises(InvalidPosition):
        make(["8c", "9d"], [build(8, 0, "8h", "5d 2s")])


# ----------------------------------------------------------------------
# docs/rules.md §2.4 Capture


def test_2_4_capture_takes_any_nonempty_selection() -> None:
    """Fixture: table A 2 3 5 6 8, an 8 takes {8, 6+2, 5+3} or {8, 5+2+A} or part of
    either, never all six."""
    pos = make(["8c", "Kd"], ["Ad", "2h", "3c", "5s", "6d", "8h"])
    assert_moves(pos, [
        "8c x 8h", "8c x 6d+2h", "8c x 5s+3c", "8c x 8h 6d+2h", "8c x 8h 5s+3c",
        "8c x 6d+2h 5s+3c", "8c x 8h 6d+2h 5s+3c",
        "8c x 5s+2h+Ad", "8c x 8h 5s+2h+Ad",
    ], card="8c", kind="capture")
    assert_illegal(pos, "8c x 8h 6d 2h 5s 3c Ad", "cannot take")


def test_2_4_capture_split_does_not_matter() -> None:
    """A capture is the card and the set of items: any grouping of the loose cards names it."""
    pos = make(["8c", "Kd"], ["2h", "3c", "5s", "6d"])
    a = pos.parse_move("8c x 6d+2h 5s+3c")
    assert pos.parse_move("8c x 2h 3c 5s 6d") == a
    assert pos.parse_move("8c x 5s+3c 2h+6d") == a


def test_B4_capture_takes_at_least_one_item_empty_table_only_trails() -> None:
    pos = make(["8c Kd As 5h", "2c"], [])
    assert_moves(pos, ["8c", "Kd", "As", "5h"])
    with pytest.raises(IllegalMove):
        pos.parse_move("8c x")


def test_2_9_example_nine_takes_nine_and_four_five() -> None:
    """9♦ takes 9♣, 4♣+5♥ at once (and any part of that)."""
    pos = make(["9d", "2c"], ["9c", "4c", "5h"])
    assert_moves(pos, ["9d x 9c", "9d x 5h+4c", "9d x 9c 4c+5h"], card="9d", kind="capture")
    after = pos.play("9d x 9c 4c+5h")
    assert loose(after) == () and after.builds == ()
    assert pile(after, 0) == cards("9d 9c 4c 5h")
    assert after.sweeps == (0,) and after.last_capture == 0


def test_2_9_example_ace_takes_ace_and_king_ace() -> None:
    """A♥ takes A♠ alone, and K♦+A♣ (13+1) too; A2: by item, all at once."""
    pos = make(["Ah", "2c"], ["As", "Kd", "Ac"])
    assert_moves(pos, [
        "Ah x As", "Ah x Ac", "Ah x Kd+Ac", "Ah x Kd+As", "Ah x As Ac", "Ah x As Kd+Ac",
        "Ah x Ac Kd+As",
    ], card="Ah", kind="capture")
    after = pos.play("Ah x As Kd+Ac")
    assert pile(after, 0) == cards("Ah As Kd Ac") and after.sweeps == (0,)


def test_A2_ace_takes_aces_by_rank_fourteen_groups_and_fourteen_builds() -> None:
    pos = make(["Ah", "2c"], ["As", "9c", "5d", build(14, 1, "Ts 4h")])
    assert_moves(pos, [
        "Ah x As", "Ah x 9c+5d", "Ah x [Ts+4h]", "Ah x As 9c+5d", "Ah x As [Ts+4h]",
        "Ah x 9c+5d [Ts+4h]", "Ah x As 9c+5d [Ts+4h]",
    ], card="Ah", kind="capture")


def test_B2_build_taken_only_whole_and_only_by_its_value() -> None:
    """Fixture: a 7-build plus a loose 2 cannot be taken by a 9; nor its cards one by one."""
    pos = make(["9c 7h", "Kh"], [build(7, 1, "4d 3s"), "2h"])
    assert_moves(pos, [], card="9c", kind="capture")
    assert_illegal(pos, "9c x [4d+3s] 2h", "build of 7", "only be taken by a card of value 7")
    assert_illegal(pos, "7h x 4d+3s", "part of a build")
    assert_moves(pos, ["7h x [4d+3s]"], card="7h", kind="capture")


def test_B2_own_build_never_taken_by_another_value() -> None:
    """Even the owner cannot take a 6-build plus a loose 4 with a 10."""
    pos = make(["Tc 6h", "Kh"], [build(6, 0, "4d 2s"), "4h"])
    assert_illegal(pos, "Tc x [4d+2s] 4h", "build of 6")
    assert not any(m.card == parse_card("Tc") and m.builds for m in pos.legal_moves())


def test_B3_two_same_value_builds_taken_together_or_singly() -> None:
    pos = make(["8c", "Kd"], [build(8, 1, "5d 3s"), build(8, 1, "6h 2c")])
    assert_moves(pos, ["8c x [5d+3s]", "8c x [6h+2c]", "8c x [5d+3s] [6h+2c]"],
                 card="8c", kind="capture")
    after = pos.play("8c x [5d+3s] [6h+2c]")
    assert after.builds == () and after.sweeps == (0,)
    assert pile(after, 0) == cards("8c 5d 3s 6h 2c")
    assert_illegal(pos, "8c x [8]", "could mean several moves")


def test_2_9_example_jack_takes_six_five_sweep() -> None:
    """J♣ takes 6♥+5♠ from a table holding only them: a sweep."""
    pos = make(["Jc", "2d"], ["6h", "5s"])
    after = pos.play("Jc x 6h+5s")
    assert after.table == () and after.sweeps == (0,) and after.last_capture == 0
    assert pile(after, 0) == cards("Jc 6h 5s")


def test_2_9_example_build_eight_then_take_it() -> None:
    """Holding 8♣, 5♦ on 3♠ builds 8; 8♣ later takes the build. Without 8♣ illegal."""
    pos = make(["5d 8c", "Kh 2h"], ["3s", "9c"])
    after = pos.play("5d+3s =8")
    assert builds_of(after) == [(8, 0, ("3s", "5d"), False)]
    assert loose(after) == cards("9c")
    after = after.play("Kh")
    taken = after.play("8c x [5d+3s]")
    assert taken.builds == () and pile(taken, 0) == cards("8c 5d 3s")
    assert taken.last_capture == 0 and taken.sweeps == ()  # the 9c and Kh remain
    without = make(["5d 9d", "Kh 2h"], ["3s", "9c"])
    assert_illegal(without, "5d+3s =8", "to build 8 you must keep a card of value 8")


# ----------------------------------------------------------------------
# docs/rules.md §2.4 New builds, C1-C7, A3


def test_2_4_new_single_build_belongs_to_the_builder() -> None:
    pos = make(["Kh 2h", "5d 8c"], ["3s"], to_move=1, dealer=0)
    after = pos.play("5d+3s =8")
    assert builds_of(after) == [(8, 1, ("3s", "5d"), False)]
    assert after.to_move == 0 and after.hand(1) == cards("8c")


def test_C3_new_multiple_build_gathers_several_groups() -> None:
    """Fixture (S1): table 3 4 5 7, a played 2 makes 5+2, 3+4, 7: a five-card multiple 7."""
    pos = make(["2c 7d", "Kh"], ["3h", "4d", "5s", "7c"])
    assert_moves(pos, [
        "2c+5s =7", "2c+5s 4d+3h =7", "2c+5s 7c =7", "2c+5s 4d+3h 7c =7",
    ], card="2c", kind="build")
    after = pos.play("2c+5s 4d+3h 7c =7")
    assert builds_of(after) == [(7, 0, ("2c", "3h", "4d", "5s", "7c"), True)]
    assert loose(after) == ()
    b = after.builds[0]
    assert sorted(sorted(card_text(c) for c in g) for g in b.groups) == [
        ["2c", "5s"], ["3h", "4d"], ["7c"]]


def test_C2_eight_on_eight_is_a_multiple_build_of_eight() -> None:
    """An 8 on a table 8 announcing 8 is two groups, legal holding another 8."""
    pos = make(["8c 8d", "Kh"], ["8h"])
    assert_moves(pos, ["8c 8h =8"], card="8c", kind="build")
    after = pos.play("8c 8h =8")
    assert builds_of(after) == [(8, 0, ("8c", "8h"), True)]


def test_C2_eight_on_eight_announced_eight_or_sixteen_not_allowed() -> None:
    """With only one 8 the multiple 8 is illegal; 16 is never a build value."""
    pos = make(["8c Kd", "Kh"], ["8h"])
    assert_moves(pos, [], card="8c", kind="build")
    assert_illegal(pos, "8c 8h =8", "keep a card of value 8")
    assert_illegal(pos, "8c+8h =16", "2 to 14")


@pytest.mark.parametrize(("hand", "legal", "illegal"), [
    ("5c 5d Td", ["5c 5h =5", "5c+5h =10"], []),
    ("5c Td", ["5c+5h =10"], ["5c 5h =5"]),
    ("5c 5d", ["5c 5h =5"], ["5c+5h =10"]),
])
def test_C2_two_fives_built_as_five_or_ten_by_announcement(
        hand: str, legal: list[str], illegal: list[str]) -> None:
    """Fixture: two 5s are 'building 10' or 'building 5', legal with the matching card."""
    pos = make([hand, "Kh"], ["5h"])
    assert_moves(pos, legal, card="5c", kind="build")
    for t in illegal:
        assert_illegal(pos, t, "you must keep a card of value")
    if len(legal) == 2:
        assert_illegal(pos, "5c 5h", "announce the value")
        ten = pos.play("5c+5h =10")
        five = pos.play("5c 5h =5")
        assert builds_of(ten) == [(10, 0, ("5c", "5h"), False)]
        assert builds_of(five) == [(5, 0, ("5c", "5h"), True)]


def test_A3_ace_on_ace_is_only_a_single_build_of_two() -> None:
    pos = make(["Ah Ad 2c", "Kh"], ["As"])
    assert_moves(pos, ["Ah+As =2"], card="Ah", kind="build")
    assert_illegal(pos, "Ah As =14", "do")  # 1+1 never splits into 14s
    assert_illegal(pos, "Ah As =1")
    no_two = make(["Ah Ad", "Kh"], ["As"])
    assert_moves(no_two, [], card="Ah", kind="build")


def test_A3_ace_starts_builds_and_completes_fourteen() -> None:
    """A on 6 is 'building 7'; A on K is 'building 14' holding another Ace."""
    pos = make(["Ah 7c Ad", "Qh"], ["6d", "Ks"])
    assert_moves(pos, ["Ah+6d =7", "Ah+Ks =14"], card="Ah", kind="build")


def test_C1_build_includes_the_played_card_and_a_loose_card() -> None:
    """A card played alone is a trail; an announced lone card is refused."""
    pos = make(["8c 8d", "Kh"], ["3s"])
    assert_illegal(pos, "8c =8", "a build is your card on at least one loose table card")
    assert all(m.loose for m in pos.legal_moves() if m.kind == "build")


def test_C1_an_existing_build_never_becomes_part_of_a_new_build() -> None:
    pos = make(["5d 8c Kd", "Kh"], ["3s", build(8, 1, "6h 2c")])
    b = pos.builds[0]
    merged = Move("build", parse_card("5d"), cards("3s"), (b,), 8,
                  ((parse_card("5d"), parse_card("3s")),))
    with pytest.raises(IllegalMove, match="builds never merge"):
        pos.play(merged)
    assert all(not m.builds for m in pos.legal_moves() if m.kind == "build")


def test_2_4_new_build_needs_a_held_card_of_the_value_after_playing() -> None:
    """The played card itself does not count: 4 on 4 =8 needs an 8 besides."""
    pos = make(["4c 4d", "Kh"], ["4s"])
    assert_moves(pos, ["4c 4s =4", "4d 4s =4"], kind="build")
    assert_illegal(pos, "4c+4s =8", "to build 8 you must keep a card of value 8")


def test_2_4_build_values_between_two_and_fourteen() -> None:
    """K on 2 would be 15: never a build, whatever is held."""
    pos = make(["Kd Ac 3c", "Kh"], ["2c"])
    assert_illegal(pos, "Kd+2c =15", "2 to 14")
    for m in pos.legal_moves():
        if m.kind in ("build", "add", "raise"):
            assert 2 <= m.value <= 14


def test_A4_face_cards_build_two_on_jack_is_thirteen() -> None:
    pos = make(["2c Kd", "Qh"], ["Jc"])
    assert_moves(pos, ["2c+Jc =13"], card="2c", kind="build")


def test_C4_new_build_need_not_absorb_loose_cards_of_its_value() -> None:
    """C4/C6: building 8 with a loose 8 on the table, absorbing it or not."""
    pos = make(["5d 8c", "Kh"], ["3s", "8h"])
    assert_moves(pos, ["5d+3s =8", "5d+3s 8h =8"], card="5d", kind="build")


def test_C4_builds_never_merge_new_build_beside_same_value_build() -> None:
    """Decision of docs/rules.md §2.5: two 8-builds stand side by side; nothing merges them."""
    pos = make(["5d 8c", "Kh"], ["3s", build(8, 1, "6h 2c")])
    after = pos.play("5d+3s =8")
    assert builds_of(after) == [(8, 0, ("3s", "5d"), False), (8, 1, ("2c", "6h"), False)]


def test_C5_a_player_may_own_several_builds() -> None:
    pos = make(["5d 8c 7h Td", "Kh Qh"], ["3s", "3c"])
    pos = pos.play("5d+3s =8").play("Kh")
    after = pos.play("7h+3c =10")
    assert builds_of(after) == [(8, 0, ("3s", "5d"), False), (10, 0, ("3c", "7h"), False)]


def test_C6_may_build_when_a_capture_is_possible() -> None:
    pos = make(["5d 8c", "Kh"], ["3s", "8h"])
    assert_legal(pos, "8c x 8h", "5d+3s =8")


def test_C7_the_move_states_the_value() -> None:
    pos = make(["5c 5d Td", "Kh"], ["5h"])
    with pytest.raises(IllegalMove, match="announce the value"):
        pos.parse_move("5c+5h")


# ----------------------------------------------------------------------
# docs/rules.md §2.4 Adding to a build, D1-D6


def test_D3_add_a_lone_card_as_another_group() -> None:
    """An 8 played alone onto an 8-build (holding another 8) makes it multiple."""
    pos = make(["8c 8d", "Kh"], [build(8, 1, "5d 3s")])
    assert_moves(pos, ["8c > [5d+3s] =8", "8d > [5d+3s] =8"], kind="add")
    after = pos.play("8c > [5d+3s] =8")
    assert builds_of(after) == [(8, 0, ("3s", "5d", "8c"), True)]


def test_D3_add_a_group_with_extra_loose_groups() -> None:
    """A 2 with a loose 6, plus a loose 5+3, all join an 8-build."""
    pos = make(["2h 8c", "Kh"], [build(8, 1, "4d 4s"), "6c", "5h", "3c"])
    assert_moves(pos, ["2h+6c > [4d+4s] =8", "2h+6c > [4d+4s] 5h+3c =8"],
                 card="2h", kind="add")
    after = pos.play("2h+6c > [4d+4s] 5h+3c =8")
    assert builds_of(after) == [(8, 0, ("2h", "3c", "4d", "4s", "5h", "6c"), True)]
    assert loose(after) == ()
    assert after.to_move == 1


def test_2_4_adding_a_group_needs_the_value_held_after_playing() -> None:
    pos = make(["2h 9c", "Kh"], [build(8, 1, "4d 4s"), "6c"])
    assert_illegal(pos, "2h+6c > [4d+4s] =8", "keep a card of value 8")


def test_D5_ownership_passes_to_the_adder_and_frees_the_old_owner() -> None:
    pos = make(["5d 8c 9c", "2h 8d Kh"], ["3s", "6c"])
    pos = pos.play("5d+3s =8")
    after = pos.play("2h+6c > [5d+3s] =8")
    assert builds_of(after) == [(8, 1, ("2h", "3s", "5d", "6c"), True)]
    # Seat 0 no longer owns it: it may trail, and may spend its 8 elsewhere.
    assert_legal(after, "9c", "8c")


def test_D2_example_b_raise_five_to_eight_not_absorbing_the_two() -> None:
    """Fixture (S1 Example B): a 5-build (A+4) with a loose 2. A 3 raises it to 8, but
    may not take in the 2 to make 10."""
    pos = make(["3c 8s Td", "Kh"], [build(5, 1, "4d Ac"), "2h"])
    assert_moves(pos, ["3c > [4d+Ac] =8"], card="3c", kind="raise")
    assert_illegal(pos, "3c > [4d+Ac] 2h =10")
    after = pos.play("3c > [4d+Ac] =8")
    assert builds_of(after) == [(8, 0, ("3c", "4d", "Ac"), False)]
    assert loose(after) == cards("2h")


def test_D2_example_c_raise_seven_to_nine_absorbing_the_nine() -> None:
    """Fixture (S1 Example C): a 7-build (3+4), a loose 9; a 2 raises to 9 and may absorb
    the 9, making a multiple 9."""
    pos = make(["2h 9d", "Kh"], [build(7, 1, "4d 3s"), "9c"])
    assert_moves(pos, ["2h > [4d+3s] =9", "2h > [4d+3s] 9c =9"], card="2h", kind="raise")
    after = pos.play("2h > [4d+3s] 9c =9")
    assert builds_of(after) == [(9, 0, ("2h", "3s", "4d", "9c"), True)]
    b = after.builds[0]
    assert sorted(sorted(card_text(c) for c in g) for g in b.groups) == [
        ["2h", "3s", "4d"], ["9c"]]


def test_D2_raise_takes_loose_cards_only_as_whole_groups_of_new_value() -> None:
    pos = make(["2h 9d", "Kh"], [build(7, 1, "4d 3s"), "6c", "3h", "5c"])
    assert_moves(pos, ["2h > [4d+3s] =9", "2h > [4d+3s] 6c+3h =9"], card="2h", kind="raise")
    assert_illegal(pos, "2h > [4d+3s] 5c =9")


def test_D1_raiser_needs_the_new_value_not_the_old() -> None:
    pos = make(["3c 8s", "Kh"], [build(5, 1, "4d Ac")])
    assert_legal(pos, "3c > [4d+Ac] =8")
    no_eight = make(["3c 5s", "Kh"], [build(5, 1, "4d Ac")])
    assert_moves(no_eight, [], card="3c", kind="raise")
    assert_illegal(no_eight, "3c > [4d+Ac] =8", "keep a card of value 8")


def test_D1_owner_may_raise_own_build() -> None:
    pos = make(["3c 8s 5c", "Kh"], [build(5, 0, "4d Ac")])
    after = pos.play("3c > [4d+Ac] =8")
    assert builds_of(after) == [(8, 0, ("3c", "4d", "Ac"), False)]
    assert after.to_move == 1


def test_D4_a_multiple_build_is_never_raised() -> None:
    pos = make(["Ac 9s", "Kh"], [build(8, 1, "8h", "5d 3s")])
    assert_moves(pos, [], card="Ac", kind="raise")
    assert_illegal(pos, "Ac > [8h 5d+3s] =9", "a multiple build can never be raised")


def test_D6_raise_ceiling_is_fourteen() -> None:
    """A 13-build raised by an Ace needs a held Ace; a raise past 14 is illegal."""
    pos = make(["Ah Ad 2c", "Kh"], [build(13, 1, "Ts 3c")])
    assert_moves(pos, ["Ah > [Ts+3c] =14", "Ad > [Ts+3c] =14"], kind="raise")
    assert_illegal(pos, "2c > [Ts+3c] =15", "2 to 14")
    assert_illegal(pos, "2c > [Ts+3c] =14", "15")
    no_ace = make(["Ah 2c", "Kh"], [build(13, 1, "Ts 3c")])
    assert_moves(no_ace, [], kind="raise")


def test_A3_ace_raises_by_one() -> None:
    pos = make(["Ah Kd", "Qh"], [build(12, 1, "Ts 2c")])
    assert_moves(pos, ["Ah > [Ts+2c] =13"], card="Ah", kind="raise")


def test_E4_re_raise_of_a_raised_build() -> None:
    """S1 Example A: 6 -> 8 by one player, 8 -> 9 by the other."""
    pos = make(["2c 8s", "Ah 9d 6h"], [build(6, 1, "4d 2h")])
    pos = pos.play("2c > [4d+2h] =8")
    assert builds_of(pos) == [(8, 0, ("2c", "2h", "4d"), False)]
    pos = pos.play("Ah > [4d+2h+2c] =9")
    assert builds_of(pos) == [(9, 1, ("2c", "2h", "4d", "Ah"), False)]


def test_2_4_builds_never_merge_in_raise_or_add() -> None:
    """A raise or an added group never takes in another build, even of the new value."""
    pos = make(["3c 8s", "Kh"], [build(5, 1, "4d Ac"), build(8, 1, "6h 2c")])
    for m in pos.legal_moves():
        if m.kind in ("add", "raise"):
            assert len(m.builds) == 1
    with pytest.raises(IllegalMove):
        pos.parse_move("3c > [4d+Ac] [6h+2c] =8")
    five, eight = sorted(pos.builds, key=lambda b: b.value)
    merged = Move("raise", parse_card("3c"), (), (five, eight), 8, ((parse_card("3c"),),))
    with pytest.raises(IllegalMove):
        pos.play(merged)
    after = pos.play("3c > [4d+Ac] =8")
    assert len(after.builds) == 2


# ----------------------------------------------------------------------
# docs/rules.md §2.5 Owning builds, E1-E3


def test_E2_owner_may_not_trail() -> None:
    """Fixture: an owner holding 8♣ and 4♦ with an 8-build may not trail the 4♦."""
    pos = make(["8c 4d", "Kh"], [build(8, 0, "5d 3s")])
    assert_moves(pos, ["8c x [5d+3s]"])
    assert_illegal(pos, "4d", "you own the 8-build, so you may not trail")


def test_E1_non_owner_may_trail_even_when_able_to_capture() -> None:
    pos = make(["9d 4d", "Kh"], ["9c", build(8, 1, "5d 3s")])
    assert_legal(pos, "9d", "4d")


def test_E3_only_eight_cannot_capture_other() -> None:
    """Fixture: the 8♣ may not capture anything that leaves the owner's 8-build."""
    pos = make(["8c 4d", "Kh"], ["8h", build(8, 0, "5d 3s")])
    assert_moves(pos, ["8c x [5d+3s]", "8c x 8h [5d+3s]"])
    assert_illegal(pos, "8c x 8h", "you own the 8-build and would have no 8 left")


def test_E3_capturing_one_of_two_owned_eight_builds_with_only_eight() -> None:
    pos = make(["8c 4d", "Kh"], [build(8, 0, "5d 3s"), build(8, 0, "6h 2c")])
    assert_moves(pos, ["8c x [5d+3s] [6h+2c]"])
    assert_illegal(pos, "8c x [5d+3s]", "would have no 8 left")


def test_E3_building_another_value_with_only_eight() -> None:
    pos = make(["8c Qd", "Kh"], ["4s", build(8, 0, "5d 3s")])
    assert_illegal(pos, "8c+4s =12", "you own the 8-build and would have no 8 left")
    assert_moves(pos, ["8c x [5d+3s]"])


def test_E3_raising_another_build_with_only_eight() -> None:
    pos = make(["8c Kd", "Kh"], [build(5, 1, "4d Ac"), build(8, 0, "5d 3s")])
    assert_illegal(pos, "8c > [4d+Ac] =13", "would have no 8 left")


def test_E3_adding_only_eight_to_own_eight_build() -> None:
    pos = make(["8c 4d", "Kh"], [build(8, 0, "5d 3s")])
    assert_illegal(pos, "8c > [5d+3s] =8", "keep a card of value 8")


def test_E3_owner_raising_own_build_is_freed_from_old_value() -> None:
    """Raising your own 8-build to 10 with a 2 needs a 10, not the 8: afterwards the
    owner may spend the 8 (D1, D5)."""
    pos = make(["2c Td 8h", "Kh 3c"], ["8d", build(8, 0, "5d 3s")])
    after = pos.play("2c > [5d+3s] =10").play("3c")
    assert after.parse_move("8h x 8d").card == cards("8h")[0]


def test_2_5_decision_same_value_build_while_loose_card_of_value_lies() -> None:
    pos = make(["5d 8c", "Kh"], ["3s", "8h", build(8, 1, "6h 2c")])
    after = pos.play("5d+3s =8")
    assert len(after.builds) == 2 and loose(after) == cards("8h")


@pytest.mark.parametrize("owner", [0, 1])
def test_2_5_reader_refuses_a_player_to_move_owning_a_build_without_its_value(
        owner: int) -> None:
    """An owner always holds a card of each owned build's value (docs/rules.md §2.5: no
    move may leave them without one, and only their own moves change their hand). For the
    player to move such a position would have no legal move at all, so the reader refuses
    it."""
    with pytest.raises(InvalidPosition, match="holds no card of value 8"):
        make(["4d 9c", "Kh 2c"], [build(8, owner, "5d 3s"), "2h"], to_move=owner,
             dealer=1 - owner)


def test_N21_reader_accepts_another_seat_owning_a_build_without_its_value() -> None:
    """docs/rules.md §9.21: the other seats' hands are not checked against their
    builds (they only matter on their own turn); the mover's moves are unaffected."""
    pos = make(["4d 9c", "Kh 2c"], [build(8, 1, "5d 3s"), "2h"], to_move=0, dealer=1)
    assert "9d" not in [str(m) for m in pos.legal_moves()]
    assert pos.legal_moves()


def test_2_5_always_a_legal_move_and_no_build_survives_a_round() -> None:
    for positions in random_rounds(range(8)):
        for p in positions[:-1]:
            assert p.legal_moves(), p
            for b in p.builds:
                if b.owner == p.to_move:
                    values = {Rules.preset("casino").table.played[c][0] for c in p.hand(b.owner)}
                    assert b.value in values
        end = positions[-1]
        assert end.result is not None and end.builds == () and end.table == ()
        assert len(end.piles[0]) + len(end.piles[1]) == 52


# ----------------------------------------------------------------------
# docs/rules.md §2.6 Sweeps and the end of a round, F1-F4


def test_F1_a_capture_leaving_a_build_is_not_a_sweep() -> None:
    pos = make(["9d 8c", "Kh"], ["9c", build(8, 0, "5d 3s")])
    after = pos.play("9d x 9c")
    assert after.sweeps == () and after.last_capture == 0


def test_F1_after_a_sweep_the_next_player_must_trail() -> None:
    pos = make(["Jc 2d", "5h 8c Kd"], ["6h", "5s"])
    after = pos.play("Jc x 6h+5s")
    assert after.sweeps == (0,)
    assert {m.kind for m in after.legal_moves()} == {"trail"}


def test_F1_sweep_on_first_play_counts() -> None:
    """The non-dealer's very first play may sweep, and it counts."""
    first_twelve = "9c Kh 9d 5h 2c 3c 7c 2s 4c 9h Jd 8c"
    head = list(cards_in_order(first_twelve))
    deck = tuple(head + [c for c in range(52) if c not in head])
    pos = Position.start_round(Rules.preset("casino"), deck, 1)
    assert loose(pos) == cards("9d 5h 4c 9h") and pos.hand(0) == cards("9c Kh 7c 2s")
    swept = pos.play("9c x 9d 9h 5h+4c")
    assert swept.sweeps == (0,) and swept.table == () and swept.to_move == 1
    assert pile(swept, 0) == cards("9c 9d 9h 5h 4c")


def _done(end: Position) -> Result:
    """The result of a finished round (failing the test if the round goes on)."""
    assert end.result is not None, "the round should be over"
    return end.result


def _last_card(table: Sequence[str | Json], last_capture: int | None, *,
               card: str = "Jc", dealer: int = 1, sweeps: Sequence[int] = (),
               piles: Sequence[str] = ("", ""), scores: Sequence[int] = (0, 0)) -> Position:
    """The round's last card: seat 0 holds ``card``, seat 1 is empty, the stock too;
    all other cards are in seat 1's pile unless ``piles`` says otherwise."""
    return make([card, ""], table, dealer=dealer, rest=1, piles=piles,
                last_capture=last_capture, sweeps=list(sweeps), scores=list(scores))


def test_F2_sweep_with_the_last_card_counts() -> None:
    pos = _last_card(["6h", "5s"], 1)
    end = pos.play("Jc x 6h+5s")
    result = _done(end)
    assert end.result is not None and end.sweeps == (0,)
    assert [i for i in result.items if i.item == "sweep"] == [
        i for i in result.items if i.item == "sweep" and i.seat == 0]
    assert sum(1 for i in result.items if i.item == "sweep") == 1


def test_2_6_leftovers_go_to_last_capturer_and_are_no_sweep() -> None:
    pos = _last_card(["6h", "4s"], 1, card="Jc")
    end = pos.play("Jc")
    result = _done(end)
    assert end.result is not None
    assert end.sweeps == () and end.table == ()
    assert set(cards("6h 4s Jc")) <= set(end.piles[1])
    assert not any(i.item == "sweep" for i in result.items)


def test_2_6_leftovers_after_a_final_partial_capture_go_to_its_capturer() -> None:
    pos = _last_card(["6h", "5s", "4c"], 1, card="Jc")
    end = pos.play("Jc x 6h+5s")
    assert end.sweeps == () and end.last_capture == 0
    assert set(cards("Jc 6h 5s 4c")) <= set(end.piles[0])


def test_F3_nobody_captured_leftovers_go_to_the_dealer() -> None:
    """The leftovers go to the dealer when ``last_capture`` is null (docs/rules.md §2.6,
    F3)."""
    # Nobody captured all round: every other card was trailed (a crowded table).
    rest = [card_text(c) for c in range(52) if card_text(c) != "Jc"]
    for dealer in (0, 1):
        pos = make(["Jc", ""], rest, dealer=dealer, rest=1, last_capture=None)
        end = pos.play("Jc")
        assert end.result is not None and end.table == () and end.sweeps == ()
        assert len(end.piles[dealer]) == 52 and not end.piles[1 - dealer]


def test_F3_reader_refuses_captured_cards_without_a_last_capturer() -> None:
    """Only a capture fills a pile, so a pile with cards names a last capturer; else the
    leftovers would go to the dealer although a seat captured."""
    with pytest.raises(InvalidPosition, match="seat 1 has captured cards but no seat made "
                                              "the last capture"):
        make(["Jc", ""], ["6h", "4s"], rest=1, last_capture=None)
    with pytest.raises(InvalidPosition, match="seat 0 made the last capture but its pile "
                                              "is empty"):
        make(["Jc", ""], ["6h", "4s"], rest=1, last_capture=0)
    with pytest.raises(InvalidPosition, match=r"sweeps\[0\].*seat 0 has no captured cards"):
        make(["Jc", ""], ["6h", "4s"], rest=1, sweeps=[0])


def test_F4_owner_with_last_card_must_take_own_build() -> None:
    pos = _last_card([build(8, 0, "5d 3s"), "2h"], 1, card="8c")
    assert_moves(pos, ["8c x [5d+3s]"])
    end = pos.play("8c x [5d+3s]")
    assert end.result is not None and end.table == () and end.sweeps == ()
    assert set(cards("2h")) <= set(end.piles[0])


# ----------------------------------------------------------------------
# docs/rules.md §2.7, §2.8: scoring and winning, G1-G3


def _scored(piles: tuple[str, str], sweeps: Sequence[int] = (), scores: Sequence[int] = (0, 0),
            dealer: int = 1) -> Position:
    """A finished round: seat 0 trails its last card ``Kh`` onto an empty table after its own
    capture, so ``Kh`` joins seat 0's pile; every other card is in ``piles``."""
    named = piles[0].split() + piles[1].split() + ["Kh"]
    missing = [card_text(c) for c in range(52) if parse_card(card_text(c)) not in
               {parse_card(x) for x in named}]
    assert not missing, f"the test piles miss {missing}"
    pos = Position.from_json({
        "format": "casino-position/1", "rules": "casino", "round": 1, "deal": 6,
        "dealer": dealer, "to_move": 0, "hands": [["Kh"], []], "table": [],
        "piles": [piles[0].split(), piles[1].split()], "sweeps": list(sweeps),
        "last_capture": 0, "stock": [], "scores": list(scores), "result": None,
    })
    end = pos.play("Kh")
    assert end.result is not None
    return end


ALL = [card_text(c) for c in range(52)]


def _rest(*given: str) -> str:
    named = {parse_card(c) for g in given for c in g.split()} | {parse_card("Kh")}
    return " ".join(c for c in ALL if parse_card(c) not in named)


def test_2_9_round_example_nine_and_five_points() -> None:
    """30 cards with 6 spades, Td, three Aces, 1 sweep -> 9 points; 22 cards with 7 spades,
    2s, one Ace, 2 sweeps -> 5 points. 9 + 5 = 11 + 3 sweeps."""
    spades1 = "2s 9s Ts Js Qs Ks As"
    # Seat 1: 7 spades with 2s and As, plus 15 non-scoring cards = 22.
    filler1 = "3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 3h 4h 5h 6h"
    p1 = f"{spades1} {filler1}"
    p0 = _rest(p1)  # with Kh played last: 30 cards, spades 3s-8s, Td, Ac Ah Ad
    end = _scored((p0, p1), sweeps=[1, 0, 1])
    result = _done(end)
    assert len(end.piles[0]) == 30 and len(end.piles[1]) == 22
    items = [(i.item, i.seat, i.points) for i in result.items]
    assert items == [
        ("cards", 0, 3), ("spades", 1, 1), ("Td", 0, 2), ("2s", 1, 1),
        ("As", 1, 1), ("Ac", 0, 1), ("Ah", 0, 1), ("Ad", 0, 1),
        ("sweep", 1, 1), ("sweep", 0, 1), ("sweep", 1, 1),
    ]
    assert result.points_by_seat(2) == [9, 5]
    assert result.scores == (9, 5) and result.winner is None


def test_2_7_cards_tied_26_26_score_nobody_round_worth_eight_plus_sweeps() -> None:
    p0 = "As Ac Ah Ad 2s 3s 4s 5s 6s 7s 8s Td 2c 3c 4c 5c 6c 7c 8c 9c Tc Jc Qc Kc 2h"
    p1 = _rest(p0)
    end = _scored((p0, p1), sweeps=[0])
    result = _done(end)
    assert len(end.piles[0]) == 26 and len(end.piles[1]) == 26
    assert not any(i.item == "cards" for i in result.items)
    assert sum(i.points for i in result.items) == 8 + 1


def test_2_7_aces_in_order_spades_clubs_hearts_diamonds() -> None:
    p1 = "Ad As"
    p0 = _rest(p1)
    end = _scored((p0, p1))
    result = _done(end)
    aces = [(i.item, i.seat) for i in result.items if i.item[0] == "A"]
    assert aces == [("As", 1), ("Ac", 0), ("Ah", 0), ("Ad", 1)]


def test_G3_every_round_is_worth_eleven_plus_sweeps() -> None:
    """Checksum: 11 + sweeps, or 8 + sweeps when the cards split 26-26 (and spades are
    13, never tied with 2 players)."""
    for positions in random_rounds(range(10)):
        end = positions[-1]
        result = _done(end)
        total = sum(i.points for i in result.items)
        base = 8 if len(end.piles[0]) == 26 else 11
        assert total == base + len(end.sweeps)
        names = [i.item for i in result.items]
        order = ["cards", "spades", "Td", "2s", "As", "Ac", "Ah", "Ad", "sweep"]
        assert names == sorted(names, key=order.index)


def test_G1_points_are_counted_only_at_round_end() -> None:
    for positions in random_rounds(range(2)):
        assert all(p.scores == (0, 0) for p in positions)
        assert all(p.result is None for p in positions[:-1])


def test_G4_piles_are_public_in_observation() -> None:
    pos = make(["9d 2c", "Kh 3d"], ["9c"], piles=("4h 5h", "6h"))
    obs = pos.observation(0)
    assert obs["piles"][0] == ["4h", "5h"] and "6h" in obs["piles"][1]
    assert obs["hands"][1] == 2 and isinstance(obs["stock"], int)


def test_2_8_first_to_reach_21_in_counting_order_wins_even_if_other_ends_higher() -> None:
    """Seat 0 (18) takes most cards first and reaches 21; seat 1 (20) ends higher."""
    p1 = "2s 9s Ts Js Qs Ks As 3s Td Ac Ah Ad 3c"
    p0 = _rest(p1)
    end = _scored((p0, p1), scores=[18, 20])
    result = _done(end)
    assert result.winner == 0
    assert result.scores[0] == 21 and result.scores[1] > 21


def test_2_8_later_item_decides_when_first_items_fall_short() -> None:
    """Seat 1 (20) reaches 21 with the spades point, before seat 0 (19) counts Td."""
    p1 = "2s 9s Ts Js Qs Ks As 3s"
    p0 = _rest(p1)
    end = _scored((p0, p1), scores=[17, 20])
    result = _done(end)
    assert result.winner == 1
    assert result.scores[0] > result.scores[1]


def test_2_8_nobody_at_21_another_round_by_the_other_seat() -> None:
    p1 = "2s 9s Ts Js Qs Ks As 3s"
    end = _scored((_rest(p1), p1), scores=[3, 4])
    result = _done(end)
    assert result.winner is None and result.scores == (3 + 3 + 2 + 3, 4 + 3)


def test_H1_a_game_runs_to_a_winner_with_totals_carried() -> None:
    match = Match("casino", seed=3)
    rng = random.Random(3)
    before = (0, 0)
    while True:
        assert match.position.scores == before
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        result = match.position.result
        pts = result.points_by_seat(2)
        assert result.scores == (before[0] + pts[0], before[1] + pts[1])
        if match.is_over:
            assert max(result.scores) >= 21
            break
        assert max(result.scores) < 21
        before = result.scores
        match.next_round()


def test_build_value_equality_ignores_group_split() -> None:
    """Build identity is value, owner and cards (Build docstring): a sanity check the
    helpers above rely on."""
    a = Build.make(8, 0, ((parse_card("5d"), parse_card("3s")),))
    b = Build.make(8, 0, ((parse_card("3s"), parse_card("5d")),))
    assert a == b

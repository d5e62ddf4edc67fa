"""What the web VIEW says about scores, sides and the last capture (``casino/web/views.py``).

The game page draws these; a partnership's points credited to its first seat only,
a Krypkasino target of 0 shown as "null" and penalty points written "+-5" were all
seen by players. Here the server's side of it: the sides a page draws columns for,
the side of each scored item, the numbers in words, and the public last capture.
"""

from __future__ import annotations

from typing import Any

import pytest

from casino.engine.match import Match
from casino.engine.moves import CAPTURE
from casino.engine.position import Position
from casino.engine.record import Settings
from casino.engine.rules import Rules, preset
from casino.engine.scoring import Item, Result, settle
from casino.web.table_words import round_words
from casino.web.views import (
    Public,
    build_view,
    items_json,
    points_text,
    result_json,
    rules_json,
    side_name,
    sides,
    total_text,
)

MINUS = "\u2212"


def test_points_and_totals_are_written_with_a_sign_people_read() -> None:
    assert [points_text(n) for n in (5, -5, 0, 12)] == ["+5", f"{MINUS}5", "0", "+12"]
    assert [total_text(n) for n in (0, 50, -8)] == ["0", "50", f"{MINUS}8"]
    assert "+-" not in points_text(-5) and "-" not in points_text(-5)


@pytest.mark.parametrize(("name", "players", "expected"), [
    ("classic", 4, [[0, 2], [1, 3]]),
    ("tablic", 4, [[0, 2], [1, 3]]),
    ("classic", 3, [[0], [1], [2]]),
    ("kasino", 4, [[0], [1], [2], [3]]),
    ("krypkasino", 2, [[0], [1]]),
])
def test_the_sides_that_score_are_the_partnerships_or_each_player(
        name: str, players: int, expected: list[list[int]]) -> None:
    rules = preset(name, players=players)
    assert sides(rules) == expected
    assert rules_json(rules)["sides"] == expected


def test_a_side_is_named_by_both_partners() -> None:
    names = ("Ann", "Computer 1", "Computer 2", "Computer 3")
    rules = preset("classic", players=4)
    assert side_name(rules, names, 0) == side_name(rules, names, 2) == "Ann & Computer 2"
    assert side_name(rules, names, 3) == "Computer 1 & Computer 3"
    assert side_name(preset("kasino", players=4), names, 3) == "Computer 3"


def test_krypkasino_has_no_target_to_show_and_says_it_scores_penalties() -> None:
    shown = rules_json(preset("krypkasino"))
    assert shown["target"] is None and shown["penalties"] is True
    assert rules_json(preset("classic", players=4))["target"] == 21


def partnership_result() -> tuple[Rules, Result, tuple[int, ...]]:
    rules = preset("classic", players=4)
    before = (4, 6, 4, 6)
    items = [Item("cards", 0, 3), Item("Td", 1, 2), Item("spades", 1, 1), Item("As", 0, 1)]
    return rules, settle(rules, items, before, 2), before


def test_each_scored_item_names_its_side_and_partners_share_the_running_totals() -> None:
    rules, result, before = partnership_result()
    items = items_json(rules, result, before)
    assert [it["side"] for it in items] == [0, 1, 1, 0]
    assert [it["running"] for it in items] == [
        [7, 6, 7, 6], [7, 8, 7, 8], [7, 9, 7, 9], [8, 9, 8, 9]]
    shown = result_json(rules, result, before, ("Ann", "Bo", "Cy", "Di"))
    assert shown["scores"] == [8, 9, 8, 9]


def test_the_round_end_words_name_both_partners_and_write_a_negative_total_with_a_minus(
        ) -> None:
    four = ("Ann", "Computer 1", "Computer 2", "Computer 3")
    assert round_words(preset("classic", players=4), four, 1, [8, 3, 8, 3]) == (
        "Round 1 is over: Ann & Computer 2 8, Computer 1 & Computer 3 3")
    assert round_words(preset("krypkasino"), ("Ann", "Bob"), 1, [50, -8]) == (
        f"Game 1 is over: Ann 50, Bob {MINUS}8")


def public(names: tuple[str, ...]) -> Public:
    return Public(game="g", version=1, status="playing", names=names,
                  players=tuple("human" for _ in names), log=[], rounds=[], can_undo=False,
                  invite=None, rematch=None, settings=Settings(), can_hint=False,
                  resign_words=None, ended=None, winner=None, away=None)


def view_of(pos: Position, seat: int) -> dict[str, Any]:
    names = tuple(f"P{s}" for s in pos.rules.seats)
    return build_view(pos.observe(seat), seat, public(names))


def test_the_view_tells_every_seat_who_captured_last() -> None:
    pos = Match(preset("classic", players=4), seed=3).position
    assert view_of(pos, 0)["last_capture"] is None
    for _ in range(60):
        if pos.last_capture is not None:
            break
        moves = pos.legal_moves()
        captures = [m for m in moves if m.kind == CAPTURE]
        pos = pos.successor((captures or moves)[0])
    assert pos.last_capture is not None and pos.result is None
    # Public: every seat is told the same seat, hands or no hands.
    assert {view_of(pos, s)["last_capture"] for s in pos.rules.seats} == {pos.last_capture}
    assert view_of(pos, 1)["rules"]["sides"] == [[0, 2], [1, 3]]


def test_a_tied_majority_is_in_the_round_result() -> None:
    """26 cards each: the round's result says most cards was tied (nobody scores)."""
    from casino.engine.cards import parse_cards

    rules = preset("casino")
    spades = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    rest = [c for c in range(52) if c not in spades]
    piles = (tuple(sorted([*spades[:7], *rest[:19]])), tuple(sorted([*spades[7:], *rest[19:]])))
    from casino.engine.scoring import round_items

    result = settle(rules, round_items(rules, piles, ()), (0, 0), 1)
    end = Position(rules=rules, round=1, deal=6, dealer=1, to_move=0, hands=((), ()),
                   table=(), piles=piles, stock=(), scores=(0, 0), last_capture=0,
                   result=result)
    shown = result_json(rules, result, (0, 0), ["Ann", "Bob"], end)
    assert shown["ties"] == ["Most cards tied, 26 each (Ann and Bob): nobody scores"]
    assert result_json(rules, result, (0, 0), ["Ann", "Bob"])["ties"] == []

"""Moves, items and results in words."""

from __future__ import annotations

from casino import Position
from casino.narrate import item_words, move_words, play_words, result_lines, tally, winner_words
from casino.rules import preset
from casino.scoring import Item, Result


def pos_with(table: str, hand: str, rules: str = "casino") -> Position:
    from casino.cards import parse_cards

    r = preset(rules)
    return Position(rules=r, round=1, deal=1, dealer=1, to_move=0,
                    hands=(parse_cards(hand), 4), table=parse_cards(table),
                    piles=((), ()), stock=30, scores=(0, 0))


def test_a_capture_names_the_cards_and_explains_the_sum() -> None:
    pos = pos_with("9c 4c 5h", "9d 2s")
    move = pos.parse_move("9d x 9c 4c+5h")
    assert move_words(move, pos.rules, "You", you=True) == (
        "You take 9♣ and 5♥ + 4♣ with the 9♦ (5 + 4 = 9)")
    assert move_words(move, pos.rules, "Computer").startswith("Computer takes 9♣")


def test_trails_and_builds_in_words() -> None:
    pos = pos_with("3s 7c", "5d 8h 2s")
    assert move_words(pos.parse_move("2s"), pos.rules, "Ann") == "Ann trails the 2♠"
    assert move_words(pos.parse_move("5d+3s =8"), pos.rules, "Ann") == (
        "Ann makes a build of 8: 5♦ + 3♠")


def test_a_sweep_is_noted() -> None:
    pos = pos_with("9c", "9d 2s")
    move = pos.parse_move("9d x 9c")
    assert play_words(pos, move, pos.play(move), "You", you=True).endswith("a sweep!")


def test_item_words() -> None:
    assert item_words(Item("cards", 0, 3)) == "most cards"
    assert item_words(Item("Td", 0, 2)) == "10♦"
    assert item_words(Item("As", 1, 1)) == "A♠"
    assert item_words(Item("last", 1, 1)) == "last capture"


def test_counting_order_names_the_item_that_won() -> None:
    rules = preset("casino")
    items = (Item("cards", 1, 3), Item("spades", 0, 1), Item("Td", 0, 2))
    result = Result(items, (21, 20), 0)
    lines = result_lines(result, rules, ["Ann", "Bob"], (18, 17))
    assert lines[0].startswith("most cards") and "[Ann 18, Bob 20]" in lines[0]
    assert "Ann reached 21 first, with 10♦" in winner_words(result, rules, ["Ann", "Bob"],
                                                               (18, 17))


def test_tally_counts_what_is_captured() -> None:
    from casino.cards import parse_cards

    pos = pos_with("", "9d")
    pile = parse_cards("Td 2s As 5s 7h")
    pos = Position(rules=pos.rules, round=1, deal=1, dealer=1, to_move=0, hands=pos.hands,
                   table=(), piles=(pile, ()), stock=30, scores=(0, 0), sweeps=(0,))
    t = tally(pos, 0)
    assert (t.cards, t.spades, t.sweeps) == (5, 3, 1)
    assert t.words() == "5 cards, 3 spades, 1 sweep; 10♦ 2♠ A♠"


def test_a_played_ace_explains_its_sum_with_either_value() -> None:
    """Tablić's Ace is played as 1 or 11: the note gives the sum it was taken at."""
    pos = pos_with("5c 6h", "Ad 2s", "tablic")
    move = pos.parse_move("Ad x 6h+5c")
    assert move_words(move, pos.rules, "Ann").endswith("with the A♦ (6 + 5 = 11)")
    pos = pos_with("Tc 4h", "Ad 2s")
    move = pos.parse_move("Ad x Tc+4h")
    assert move_words(move, pos.rules, "Ann").endswith("with the A♦ (10 + 4 = 14)")


def test_move_phrase_is_the_move_without_a_subject() -> None:
    from casino.narrate import move_phrase

    pos = pos_with("9c 4c 5h", "9d 2s")
    move = pos.parse_move("9d x 9c 4c+5h")
    assert move_phrase(move, pos.rules) == "take 9♣ and 5♥ + 4♣ with the 9♦ (5 + 4 = 9)"
    assert move_words(move, pos.rules, "You", you=True) == "You " + move_phrase(move, pos.rules)

"""Moves, items and results in words."""

from __future__ import annotations

from casino import Position
from casino.engine.rules import preset
from casino.engine.scoring import Item, Result
from casino.words.narrate import (
    item_words,
    move_words,
    play_words,
    result_lines,
    spoken_names,
    tally,
    told_play,
    winner_words,
)


def pos_with(table: str, hand: str, rules: str = "casino") -> Position:
    from casino.engine.cards import parse_cards

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
    words = play_words(pos, move, pos.play(move), "You", you=True)
    assert words.endswith("with the 9♦ — a sweep"), words  # the caller adds the stop


def test_a_krypkasino_sweep_is_a_penalty_not_a_cheer() -> None:
    pos = pos_with("9d", "9d 2s", "krypkasino")  # two decks: the 9♦'s identical twin
    move = pos.parse_move("9d x 9d")
    words = play_words(pos, move, pos.play(move), "Computer")
    assert words.endswith("— a double sweep: 10 penalty points"), words
    pos = pos_with("5c 4h", "9d 2s", "krypkasino")
    move = pos.parse_move("9d x 5c+4h")
    words = play_words(pos, move, pos.play(move), "Computer")
    assert words.endswith("— a sweep: 5 penalty points") and "!" not in words


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
    from casino.engine.cards import parse_cards

    pos = pos_with("", "9d")
    pile = parse_cards("Td 2s As 5s 7h")
    pos = Position(rules=pos.rules, round=1, deal=1, dealer=1, to_move=0, hands=pos.hands,
                   table=(), piles=(pile, ()), stock=30, scores=(0, 0), sweeps=(0,))
    t = tally(pos, 0)
    assert (t.cards, t.spades, t.sweeps) == (5, 3, 1)
    assert t.words() == "5 cards, 3 spades, 1 sweep; point cards 10♦ 2♠ A♠"


def test_tally_shows_the_rulesets_point_cards() -> None:
    """Tablić scores A K Q J 10 and the 2♣: the tally shows those, not the house rules'."""
    from casino.engine.cards import parse_cards

    def tally_of(rules: str, pile: str) -> str:
        pos = pos_with("", "9d", rules)
        pos = Position(rules=pos.rules, round=1, deal=1, dealer=1, to_move=0,
                       hands=pos.hands, table=(), piles=(parse_cards(pile), ()), stock=30,
                       scores=(0, 0), last_capture=0)
        return tally(pos, 0).words()

    assert tally_of("tablic", "Qc Td 3c Jh Js 2c 2s").endswith(
        "; point cards Q♣ J♠ J♥ 10♦ 2♣")
    assert tally_of("krypkasino", "Td 2s 5h").endswith("; penalty cards 10♦ 2♠")
    assert tally_of("spade", "Js 5h").endswith("; point cards J♠")
    assert tally_of("casino", "Js 5h") == "2 cards, 1 spade"


def test_point_cards_are_the_cards_that_score_alone() -> None:
    """The tally's point cards are exactly the cards that get an item of their own."""
    from casino.engine.rules import PRESET_NAMES
    from casino.engine.scoring import point_cards, round_items

    for name in PRESET_NAMES:
        rules = preset(name)
        pile = list(range(52))
        items = round_items(rules, [pile, []], [])
        scored = {i.item for i in items}
        from casino.engine.cards import card_text

        assert {card_text(c) for c in point_cards(rules)} == scored - {
            "cards", "spades", "sweep", "mulle", "last"}, name


def test_leftovers_at_the_rounds_end_are_told() -> None:
    from tests.variant_positions import pos as make

    end_pos = make("casino", ["Jc", []], "6h 4s", fill="piles", fill_seat=1)
    move = end_pos.parse_move("Jc")
    after = end_pos.play(move)
    words = play_words(end_pos, move, after, "You", you=True, names=["you", "Computer"])
    assert words == ("You trail the J♣; the 3 cards left (J♣, 6♥, 4♠) go to Computer, "
                     "who captured last")
    move = end_pos.parse_move("Jc")
    assert play_words(end_pos, move, after, "You", you=True) == "You trail the J♣"


def test_seat_names_mid_sentence_are_you_for_the_reader_and_names_for_the_others() -> None:
    assert spoken_names(["Ann", "Bob", "Cy"], 1) == ["Ann", "you", "Cy"]
    assert spoken_names(["Ann", "Bob", "Cy"]) == ["Ann", "Bob", "Cy"]  # told to nobody
    # The default name of the person at a table with computers reads as the reader does.
    assert spoken_names(["You", "Computer"]) == ["you", "Computer"]
    assert spoken_names(["You", "Computer"], 1) == ["you", "you"]


def test_a_move_is_told_to_each_reader_in_the_same_words() -> None:
    from tests.variant_positions import pos as make

    end_pos = make("casino", ["Jc", []], "6h 4s", fill="piles", fill_seat=1)
    move = end_pos.parse_move("Jc")
    after = end_pos.play(move)
    names = ["Ann", "Bob"]
    left = "the 3 cards left (J♣, 6♥, 4♠) go to"
    # The terminal game and the web log's words for the player who moved: the reader's.
    assert told_play(end_pos, move, after, 0, names, reader=0) == (
        f"You trail the J♣; {left} Bob, who captured last")
    assert told_play(end_pos, move, after, 0, names, reader=1) == (
        f"Ann trails the J♣; {left} you, who captured last")
    # The web log's public words and the replay: told to nobody in particular.
    assert told_play(end_pos, move, after, 0, names) == (
        f"Ann trails the J♣; {left} Bob, who captured last")
    # A seat named You is told as "you", whoever reads: never "You trails", "go to You".
    assert told_play(end_pos, move, after, 0, ["You", "Computer"]) == (
        f"You trail the J♣; {left} Computer, who captured last")
    assert told_play(end_pos, move, after, 0, ["Computer", "You"]) == (
        f"Computer trails the J♣; {left} you, who captured last")
    # The same as play_words given the names as spoken.
    assert told_play(end_pos, move, after, 0, names, reader=0) == play_words(
        end_pos, move, after, "You", you=True, names=["you", "Bob"])


def test_a_build_reads_the_same_on_the_table_and_in_the_log() -> None:
    pos = pos_with("6h", "Ad 7c")
    move = pos.parse_move("Ad+6h =7")
    after = pos.play(move)
    assert move_words(move, pos.rules, "Ann") == "Ann makes a build of 7: 6♥ + A♦"
    assert after.builds[0].text() == "[6h+Ad]"


def test_a_tied_majority_is_shown_as_tied() -> None:
    from casino.engine.cards import parse_cards

    rules = preset("casino")
    spades = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    rest = [c for c in range(52) if c not in spades]
    piles = (tuple(sorted([*spades[:7], *rest[:19]])), tuple(sorted([*spades[7:], *rest[19:]])))
    end = Position(rules=rules, round=1, deal=6, dealer=1, to_move=0, hands=((), ()),
                   table=(), piles=piles, stock=(), scores=(0, 0), last_capture=0)
    from casino.engine.scoring import round_items, settle

    result = settle(rules, round_items(rules, piles, ()), (0, 0), 1)
    end = Position(rules=rules, round=1, deal=6, dealer=1, to_move=0, hands=((), ()),
                   table=(), piles=piles, stock=(), scores=result.scores, last_capture=0,
                   result=result)
    lines = result_lines(result, rules, ["Ann", "Bob"], (0, 0), end)
    assert lines[0] == "most cards    tied  26 each (Ann and Bob): nobody scores"
    from casino.words.narrate import tie_words

    assert tie_words(rules, end, ["Ann", "Bob"]) == [
        "Most cards tied, 26 each (Ann and Bob): nobody scores"]
    assert lines[1].startswith("spades") and "Ann" in lines[1]
    assert len(lines) == len(result.items) + 1
    kasino = preset("kasino")
    result = settle(kasino, round_items(kasino, piles, ()), (0, 0), 1)
    end = Position(rules=kasino, round=1, deal=6, dealer=1, to_move=0, hands=((), ()),
                   table=(), piles=piles, stock=(), scores=result.scores, last_capture=0,
                   result=result)
    assert "carried to the next round" in result_lines(result, kasino, ["A", "B"], (0, 0),
                                                       end)[0]


def test_a_played_ace_explains_its_sum_with_either_value() -> None:
    """Tablić's Ace is played as 1 or 11: the note gives the sum it was taken at."""
    pos = pos_with("5c 6h", "Ad 2s", "tablic")
    move = pos.parse_move("Ad x 6h+5c")
    assert move_words(move, pos.rules, "Ann").endswith("with the A♦ (6 + 5 = 11)")
    pos = pos_with("Tc 4h", "Ad 2s")
    move = pos.parse_move("Ad x Tc+4h")
    assert move_words(move, pos.rules, "Ann").endswith("with the A♦ (10 + 4 = 14)")


def test_move_phrase_is_the_move_without_a_subject() -> None:
    from casino.words.narrate import move_phrase

    pos = pos_with("9c 4c 5h", "9d 2s")
    move = pos.parse_move("9d x 9c 4c+5h")
    assert move_phrase(move, pos.rules) == "take 9♣ and 5♥ + 4♣ with the 9♦ (5 + 4 = 9)"
    assert move_words(move, pos.rules, "You", you=True) == "You " + move_phrase(move, pos.rules)


def test_kasino_rules_summary_gives_the_sweep_limits_and_how_ties_are_settled() -> None:
    """`casino rules kasino`: no mökki in the last deal nor above 10 points; a spade tie
    between two players splits, a tie for most cards carries over."""
    from casino.engine.rules import describe

    text = "\n".join(describe(preset("kasino")))
    assert "none during the round's last deal" in text
    assert "none in a round that started with a player above 10 points" in text
    assert "a tie for most spades between two players gives each 1" in text
    assert "A tie for most cards carries its point to the next round" in text
    four = "\n".join(describe(preset("kasino", players=4)))
    assert "a tie for most spades carries its points to the next round" in four
    kryp = "\n".join(describe(preset("krypkasino")))
    assert "penalty to the sweeper" in kryp and "double sweep (10)" in kryp

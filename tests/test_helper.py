"""The move helper (issue 6): a described table and hand give the engine's legal moves.

Positions met in random engine games are described to the helper as a player
at the table would (the table with each build's value and owner, their hand,
the other hands' sizes, the stock, the captured cards), and the helper must
list exactly the engine's legal moves, strongest first and capped at
``MAX_SHOWN`` with the count of the rest, in words, with the bot's pick among
them. Impossible set-ups are refused with a reason; ``casino helper`` prints
the same. On a crowded table (issue 15) the answer is a bounded list of legal
moves, found without listing every move.
"""

from __future__ import annotations

import contextlib
import json
import random
from collections import Counter

import pytest
import typer
from hypothesis import given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from casino import Build, Match, Position
from casino.cli.helper import helper_command
from casino.engine.legality import ranked
from casino.engine.moves import Move
from casino.engine.rules import PRESET_NAMES, Rules, preset
from casino.tools.helper import (
    HelperError,
    Setup,
    TableBuild,
    TableItem,
    analyse,
    helper_json,
    move_words,
    parse_hand,
    parse_table,
    parse_using,
    position,
    setup_from_text,
)
from casino.words.shortlist import MAX_SHOWN
from tests.crowded_tables import KASINO_24, forbid_enumeration

CONFIGS = [("casino", 2), ("krypkasino", 2),
           *[(n, p) for n in PRESET_NAMES if n not in ("casino", "krypkasino")
             for p in (2, 3, 4)]]


def relative(rules: Rules, seat: int, you: int) -> int:
    """``seat`` counted in play order from ``you`` (0), as the helper numbers seats."""
    return ((seat - you) * rules.direction) % rules.players


def setup_of(pos: Position) -> Setup:
    """Describe ``pos`` as its player to move sees it."""
    rules = pos.rules
    you = pos.to_move
    order = [(you + k * rules.direction) % rules.players for k in range(rules.players)]
    table: list[TableItem] = []
    for item in pos.table:
        if isinstance(item, Build):
            table.append(TableBuild(item.groups, relative(rules, item.owner, you),
                                    item.value))
        else:
            table.append(item)
    return Setup(rules=rules, table=tuple(table), hand=pos.hand(you),
                 opponents=tuple(pos.hand_size(s) for s in order[1:]),
                 stock=pos.stock_size, captured=tuple(pos.piles[s] for s in order),
                 scores=tuple(pos.scores[s] for s in order), set_aside=pos.set_aside)


def texts(moves: list[Move]) -> Counter[tuple[object, ...]]:
    """The moves, with builds named by value and cards (owners are numbered from the
    player in the helper, and builds listed in that order)."""
    return Counter((m.kind, m.card, m.loose, tuple(sorted((b.value, b.cards) for b in m.builds)),
                    m.value) for m in moves)


@pytest.mark.parametrize(("name", "players"), CONFIGS,
                         ids=[f"{n}-{p}p" for n, p in CONFIGS])
def test_helper_lists_exactly_the_engines_moves(name: str, players: int) -> None:
    rng = random.Random(7)
    match = Match(name, seed=3, players=players)
    checked = 0
    while match.position.result is None:
        pos = match.position
        if rng.random() < 0.3:
            helper_pos = position(setup_of(pos))
            assert texts(helper_pos.legal_moves()) == texts(pos.legal_moves())
            a = analyse(setup_of(pos), level=None)
            every = ranked(helper_pos.legal_moves())  # positions of real games: small
            assert [o.text for o in a.options] == [str(m) for m in every[:MAX_SHOWN]]
            assert a.complete and a.more == len(every) - len(a.options)
            assert a.total == len(every)
            checked += 1
        match.play(rng.choice(match.legal_moves()))
    assert checked > 3


@pytest.mark.parametrize("level", ["beginner", "easy"])
def test_the_bots_pick_is_one_of_the_listed_moves(level: str) -> None:
    setup = setup_from_text("casino", "9c 4c 5h [5d+3s]=8:1", "9d 2s 8c")
    a = analyse(setup, level=level)
    picks = [o for o in a.options if o.best]
    assert len(picks) == 1 and picks[0].move == a.pick
    assert a.pick in a.position.legal_moves()
    obj = a.to_json()
    assert obj["best"] == str(a.pick) and obj["level"] == level


def test_the_strongest_level_picks_a_legal_move() -> None:
    a = analyse(setup_from_text("casino", "3s 8h", "5d 8c Ac"), level="expert")
    assert a.pick in a.position.legal_moves()


def test_words_explain_the_sums() -> None:
    a = analyse(setup_from_text("casino", "9c 4c 5h", "9d 2s"), level=None)
    words = {o.text: o.words for o in a.options}
    assert words["9d x 9c 5h+4c"] == ("9♦ takes the 9♣, and 5♥ + 4♣ because 5 + 4 = 9 "
                                      "(clearing the table)")
    assert words["9d x 5h+4c"] == "9♦ takes 5♥ + 4♣ because 5 + 4 = 9"
    assert words["9d x 9c"] == "9♦ takes the 9♣"
    assert words["2s"] == "trail the 2♠ (lay it on the table)"
    a = analyse(setup_from_text("casino", "Kd As", "Ah"), level=None)
    words = {o.text: o.words for o in a.options}
    assert words["Ah x As"] == "A♥ takes the A♠"
    assert words["Ah x Kd+As"] == ("A♥ takes K♦ + A♠ because 13 + 1 = 14 "
                                   "(clearing the table)")
    a = analyse(setup_from_text("casino", "3s 8h [4d+Ac]=5:1", "5d 8c 3c"), level=None)
    words = {o.text: o.words for o in a.options}
    assert words["5d+3s =8"] == ("5♦ on 3♠ makes a build of 8 (5 + 3 = 8); you keep the 8♣ "
                                 "to take it")
    assert words["5d+3s 8h =8"].startswith("5♦ on 3♠ makes a multiple build of 8")
    assert words["3c > [4d+Ac] =8"] == ("3♣ raises seat 1's 5-build (4♦ + A♣) to 8 "
                                        "(5 + 3 = 8); you keep the 8♣ to take it")
    sweep = analyse(setup_from_text("casino", "6h 5s", "Jc"), level=None)
    assert sweep.options[0].words == "J♣ takes 6♥ + 5♠ because 6 + 5 = 11 (clearing the table)"


def test_words_for_tablic_aces_and_adding_to_a_build() -> None:
    a = analyse(setup_from_text("tablic", "5h 6c", "Ad"), level=None)
    assert any(o.words == "A♦ takes 6♣ + 5♥ because 6 + 5 = 11 (clearing the table)"
               or o.words == "A♦ takes 5♥ + 6♣ because 5 + 6 = 11 (clearing the table)"
               for o in a.options)
    rules = preset("casino")
    hand = (setup := setup_from_text(rules, "2h [5d+3s]=8:1", "6c 8c")).hand
    pos = position(setup)
    add = next(m for m in pos.legal_moves() if m.kind == "add")
    assert move_words(add, rules, hand) == ("6♣ with 2♥ joins seat 1's 8-build (5♦ + 3♠) as "
                                            "another group of 8 (6 + 2 = 8); you keep the 8♣ "
                                            "to take it")
    multiple = analyse(setup_from_text(rules, "8h", "8c 8d"), level=None)
    assert {o.text: o.words for o in multiple.options}["8c 8h =8"] == (
        "8♣ on the 8♥ makes a multiple build of 8; you keep the 8♦ to take it")


def test_parse_table() -> None:
    items = parse_table("9c 4c 5h [5d+3s]=8:1 [8h 5c+3h]:0")
    assert items[:3] == tuple(parse_table("9c 4c 5h"))
    assert items[3] == TableBuild((parse_hand("5d 3s"),), 1, 8)
    assert isinstance(items[4], TableBuild) and items[4].owner == 0
    assert items[4].value is None and len(items[4].groups) == 2
    pos = position(Setup(preset("casino"), items, parse_hand("8c 8d")))
    assert {b.value for b in pos.builds} == {8}


BAD: list[tuple[str, str, str, str, str]] = [
    ("a card twice", "casino", "9c 4c", "9c", "the 9♣ is given 2 times (on the table, in "
                                              "your hand), but casino is played with one "
                                              "deck"),
    ("a build that does not add up", "casino", "[5d+3s]=9:1", "9d",
     "5♦ + 3♠ makes 5 + 3 = 8, not 9"),
    ("a build without an owner", "casino", "[5d+3s]=8", "9d", "say who owns the build"),
    ("an owner who is not a seat", "casino", "[5d+3s]=8:2", "9d", "owner 2 is not a seat"),
    ("a build in a game without builds", "kasino", "[5d+3s]=8:1", "9d",
     "there are no builds in kasino"),
    ("a one-card build", "casino", "[8d]=8:1", "9d", "a build has at least two cards"),
    ("a build worth too much", "casino", "[9d+6c]=15:1", "9h", "worth 2 to 14, not 15"),
    ("a face card in a classic build", "classic", "[Kd+2c]=15:1", "9h",
     "the K♦ has no number value in classic"),
    ("no hand", "casino", "9c", "", "give the cards in your hand"),
    ("a hand too big", "casino", "9c", "2c 3c 4c 5c 6c", "a hand in casino holds at most 4"),
    ("your build without its card", "casino", "[5d+3s]=8:0", "9d",
     "you own a build of 8 but hold no card of value 8"),
    ("not a card", "casino", "9x", "9d", "'9x' is not a card"),
    ("an unclosed build", "casino", "[5d+3s", "9d", "opens '[' but does not close it"),
]


@pytest.mark.parametrize(("what", "rules", "table", "hand", "reason"), BAD,
                         ids=[b[0] for b in BAD])
def test_bad_set_ups_are_refused_with_their_reason(what: str, rules: str, table: str,
                                                   hand: str, reason: str) -> None:
    with pytest.raises(HelperError) as err:
        position(setup_from_text(rules, table, hand))
    assert reason in str(err.value)


def test_bad_counts_are_refused() -> None:
    rules = preset("casino")
    with pytest.raises(HelperError, match="give the cards already captured"):
        position(setup_from_text(rules, "9c", "9d", opponents=[4], stock=8))
    with pytest.raises(HelperError, match="a hand holds 0 to 4 cards, not 5"):
        position(setup_from_text(rules, "9c", "9d", opponents=[5]))
    with pytest.raises(HelperError, match="give 1 hand size, not 2"):
        position(setup_from_text(rules, "9c", "9d", opponents=[4, 4]))
    # Every 8 seen, yet the other player owns a build of 8.
    with pytest.raises(HelperError, match="every such card is already seen"):
        position(setup_from_text(rules, "[5d+3s]=8:1 8h 8c", "8d 8s"))
    # Consistent: 52 = 1 table + 1 hand + 4 other hand + 8 stock + 38 captured.
    deck = [c for c in range(52) if c not in parse_hand("9c 9d")]
    pos = position(Setup(rules, parse_table("9c"), parse_hand("9d"), (4,), 8,
                         (tuple(deck[:20]), tuple(deck[20:38]))))
    assert pos.stock_size == 8 and pos.hand_size(1) == 4


def test_json_api() -> None:
    out = helper_json({"rules": "casino", "table": ["9c", "4c", "5h",
                                                    {"value": 8, "owner": 1,
                                                     "groups": [["5d", "3s"]]}],
                       "hand": ["9d", "2s", "8c"], "level": "beginner"})
    assert {m["move"] for m in out["moves"]} >= {"9d x 9c 5h+4c", "8c x [5d+3s]"}
    assert sum(m["best"] for m in out["moves"]) == 1
    assert Position.from_json(out["position"]).to_move == 0
    text = helper_json({"rules": "casino", "table": "9c [5d+3s]=8:1", "hand": "9d 8c",
                        "level": None})
    assert text["best"] is None
    assert [m["move"] for m in text["moves"]] == ["8c x [5d+3s]", "9d x 9c", "8c", "9d"]
    with pytest.raises(HelperError, match="unknown key 'tabel'"):
        helper_json({"tabel": []})
    with pytest.raises(HelperError, match="unknown level"):
        helper_json({"hand": ["9d"], "level": "godlike"})


# ----------------------------------------------------------------------
# casino helper

runner = CliRunner()
helper_app = typer.Typer()
helper_app.command("helper")(helper_command)
helper_app.command("noop")(lambda: None)


def helper(*args: str, input: str | None = None) -> tuple[int, str, str]:
    result = runner.invoke(helper_app, ["helper", *args], input=input)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    return result.exit_code, result.stdout, result.stderr


def test_helper_command_lists_the_plays() -> None:
    code, out, err = helper("--rules", "casino", "--table", "9c 4c 5h [5d+3s]=8:1",
                            "--hand", "9d 2s", "--level", "beginner")
    assert code == 0, err
    assert "5 legal plays:" in out
    assert "9d x 9c 5h+4c  9♦ takes the 9♣, and 5♥ + 4♣ because 5 + 4 = 9" in out
    assert "* the beginner computer player's choice" in out
    assert sum(1 for line in out.splitlines() if line.startswith("*")) == 2


def test_helper_command_json_and_errors() -> None:
    code, out, _ = helper("--table", "9c", "--hand", "9d", "--no-bot", "--json")
    assert code == 0
    obj = json.loads(out)
    assert [m["move"] for m in obj["moves"]] == ["9d x 9c", "9d"] and obj["best"] is None
    code, _, err = helper("--table", "9c 9c", "--hand", "9d")
    assert code == 2 and "the 9♣ is given 2 times" in err
    code, _, err = helper("--rules", "poker", "--table", "9c", "--hand", "9d")
    assert code == 2 and "unknown ruleset 'poker'" in err
    code, _, err = helper("--table", "9c", "--hand", "9d", "--level", "godlike")
    assert code == 2 and "unknown level" in err


def test_helper_interactive() -> None:
    lines = ["9c 4c [5d+3s]=9:1", "9d", "9c 4c [5d+3s]=8:1", "9d 8c", "", "7h", "quit", ""]
    code, out, _ = helper("--level", "beginner", input="\n".join(lines))
    assert code == 0
    assert "5♦ + 3♠ makes 5 + 3 = 8, not 9" in out
    assert "8c x [5d+3s]" in out
    assert "1 legal play:" in out


# ----------------------------------------------------------------------
# Crowded tables (issue 15): a bounded list of legal moves, never every move


def test_a_crowded_table_is_answered_with_a_short_list_of_legal_plays(
        monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_enumeration(monkeypatch)
    for table, hand in ((KASINO_24, ["Td"]), ([*KASINO_24, "7c", "7d", "7h"],
                                              ["Td", "8s", "9c", "Ks"])):
        req = {"rules": "kasino", "table": table, "hand": hand, "level": None}
        out = helper_json(req)
        pos = Position.from_json(out["position"])
        moves = [pos.parse_move(m["move"]) for m in out["moves"]]
        assert 1 < len(moves) <= MAX_SHOWN
        assert all(pos.is_legal(m) for m in moves)
        assert [str(m) for m in ranked(moves)] == [m["move"] for m in out["moves"]]
        assert moves[0].kind == "capture" and len(moves[0].loose) >= 16
        assert out["complete"] is False and out["total"] is None
        assert len(json.dumps(out, ensure_ascii=False).encode()) < 16 * 1024
        # One card's plays, and those using picked items (indices into the table).
        one = helper_json({**req, "card": "Td"})
        assert one["card"] == "Td" and one["moves"]
        assert {m["card"] for m in one["moves"]} == {"Td"}
        using = helper_json({**req, "card": "Td", "using": [0, 20]})  # A♣ and 6♣
        assert using["using"] == [0, 20] and using["moves"]
        for m in using["moves"]:
            move = pos.parse_move(m["move"])
            assert pos.is_legal(move) and set(parse_hand("Ac 6c")) <= set(move.loose)


def test_the_bots_pick_is_shown_however_short_the_list() -> None:
    setup = setup_from_text("casino", "9c 4c 5h 2h 3c 6d 7h As", "9d 2s 8c")
    full = analyse(setup, level=None)
    assert full.complete and full.more > 0 and len(full.options) == MAX_SHOWN
    for seed in range(4):
        a = analyse(setup, level="beginner", seed=seed, limit=2)
        assert a.pick is not None and len(a.options) == 2
        assert [o.move for o in a.options if o.best] == [a.pick]
        assert a.complete and a.more == len(full.options) + full.more - 2
    # A card's list shows the pick only when it plays that card.
    a = analyse(setup, level="beginner", card=parse_hand("2s")[0])
    assert all(o.move.card == parse_hand("2s")[0] for o in a.options)
    assert a.total == sum(1 for m in position(setup).legal_moves()
                          if m.card == parse_hand("2s")[0])


def test_choosing_a_card_and_table_items() -> None:
    setup = setup_from_text("casino", "9c 4c 5h [5d+3s]=8:1", "9d 8c")
    nine = parse_hand("9d")[0]
    a = analyse(setup, level=None, card=nine, using=(1, 2))  # 4♣ and 5♥
    assert [o.text for o in a.options] == ["9d x 5h+4c", "9d x 9c 5h+4c"]  # exact first
    assert a.complete and a.more == 0 and a.card == nine and a.using == (1, 2)
    eight = analyse(setup, level=None, card=parse_hand("8c")[0], using=(3,))  # the build
    assert [o.text for o in eight.options] == ["8c x [5d+3s]"]
    for card, using, words in [(None, (1,), "choose the card"), (nine, (9,), "items 0 to 3"),
                               (nine, (1, 1), "each table item once"),
                               (parse_hand("2c")[0], (), "the 2♣ is not in your hand")]:
        with pytest.raises(HelperError, match=words):
            analyse(setup, level=None, card=card, using=using)
    with pytest.raises(HelperError, match="card: one card"):
        helper_json({"hand": ["9d"], "card": 3})
    with pytest.raises(HelperError, match="using: a list"):
        helper_json({"hand": ["9d"], "card": "9d", "using": "4c"})
    assert parse_using(setup.table, "5h 3s 4c") == (2, 3, 1)
    with pytest.raises(HelperError, match="the 7♥ is not on the table"):
        parse_using(setup.table, "7h")
    with pytest.raises(HelperError, match="named more often"):
        parse_using(setup.table, "4c 4c")


def test_helper_command_on_a_crowded_table(monkeypatch: pytest.MonkeyPatch) -> None:
    forbid_enumeration(monkeypatch)
    table = " ".join(KASINO_24)
    code, out, err = helper("--rules", "kasino", "--table", table, "--hand", "Td 8s 9c Ks",
                            "--no-bot")
    assert code == 0, err
    lines = out.splitlines()
    assert "a selection (the table is crowded" in lines[2]
    plays = [line for line in lines if line[4:5] == "."]
    assert 4 < len(plays) <= MAX_SHOWN
    assert lines[-1] == "... and others (pick a card with --card to see its plays)"
    code, out, err = helper("--rules", "kasino", "--table", table, "--hand", "Td 8s 9c Ks",
                            "--no-bot", "--card", "8s", "--using", "4h 4s", "--json")
    assert code == 0, err
    obj = json.loads(out)
    pos = Position.from_json(obj["position"])
    assert obj["moves"][0]["move"] == "8s x 4h+4s"  # exactly the items named first
    assert all(pos.is_legal(pos.parse_move(m["move"])) for m in obj["moves"])
    code, _, err = helper("--table", "9c", "--hand", "9d", "--using", "9c")
    assert code == 2 and "give --card too" in err


def test_helper_command_caps_the_list_and_says_how_many_more() -> None:
    code, out, _ = helper("--rules", "casino", "--table", "9c 4c 5h 2h 3c 6d 7h As",
                          "--hand", "9d 2s 8c", "--no-bot", "--limit", "3")
    assert code == 0
    assert "The 3 strongest of 99 legal plays:" in out
    assert "... and 96 more (pick a card with --card to see its plays)" in out
    lines = ["9c 4c 5h 2h 3c 6d 7h As", "9d 2s 8c", "9d 4c", "", "quit", ""]
    code, out, _ = helper("--level", "beginner", "--limit", "3", input="\n".join(lines))
    assert code == 0
    assert "type a card of your hand to see its plays" in out
    assert "The 3 strongest of 12 legal plays of the 9♦ with 4♣:" in out


# ----------------------------------------------------------------------
# Fuzzing: bad input raises HelperError, never anything else

table_text = st.lists(st.sampled_from(["9c", "4c", "5h", "[", "]", "=8", ":1", ":0", "+",
                                       "[5d+3s]", "Td", "Ad", "x", "=", "15", "[8h 5c+3h]",
                                       "Ks", "2s", ":me", "10d", "♦"]), max_size=8)


@settings(max_examples=300, deadline=None)
@given(st.sampled_from(["casino", "classic", "kasino", "tablic", "krypkasino"]),
       table_text, st.lists(st.sampled_from(["9d", "8c", "2s", "Ah", "9c", "x"]),
                            max_size=5))
def test_fuzz_set_ups(rules: str, table: list[str], hand: list[str]) -> None:
    with contextlib.suppress(HelperError):
        analyse(setup_from_text(rules, "".join(table) if len(table) % 2 else " ".join(table),
                                " ".join(hand)), level=None)


def test_the_plays_are_ranked_by_the_judge_best_first_with_their_reasons() -> None:
    """With the hints' judge (casino.teach.hint.rank_plays) the list is no longer in
    capture order: best first by the judge's value, each play with its reason."""
    from casino.teach.hint import advise, rank_plays

    setup = setup_from_text("casino", "9c 4c 5h [5d+3s]=8:1", "9d 2s 8c")
    plain = analyse(setup, None)
    judged = analyse(setup, None, 3, rank=rank_plays)
    assert judged.judged and not plain.judged
    assert {o.text for o in judged.options} == {o.text for o in plain.options}
    values = [o.value for o in judged.options]
    assert None not in values and values == sorted(values, reverse=True)  # type: ignore
    advice = advise(position(setup))  # the same judgement, from the same view
    assert [o.text for o in judged.options] == [p.move for p in advice.plays]
    assert [o.reason for o in judged.options] == [p.reason for p in advice.plays]
    assert all(o.reason and o.reason.startswith("It takes") for o in judged.options)
    assert judged.to_json()["moves"][0]["reason"] == advice.best.reason
    # One card's plays: judged too, those using exactly the picked items still first.
    nine = analyse(setup, None, 3, card=parse_hand("9d")[0], using=(1, 2), rank=rank_plays)
    assert [o.text for o in nine.options] == ["9d x 5h+4c", "9d x 9c 5h+4c"]
    assert all(o.reason for o in nine.options)


def test_helper_command_shows_the_judges_order_and_reasons() -> None:
    code, out, err = helper("--rules", "casino", "--table", "9c 4c 5h [5d+3s]=8:1",
                            "--hand", "9d 2s 8c", "--no-bot", "--seed", "3")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[2] == "7 legal plays:" and "casino review's judge" in lines[3]
    plays = [line for line in lines if line[4:5] == "."]
    reasons = [line.strip() for line in lines if line.startswith("      ")]
    assert len(plays) == len(reasons) == 7
    values = [float(r.split(":")[0]) for r in reasons]
    assert values == sorted(values, reverse=True)
    assert all(": It takes" in r for r in reasons)
    code, quick, _ = helper("--rules", "casino", "--table", "9c 4c 5h [5d+3s]=8:1",
                            "--hand", "9d 2s 8c", "--no-bot", "--no-judge")
    assert code == 0 and "It takes" not in quick and "judge" not in quick

"""The engine's words in Finnish and Swedish: refusals, narration, tallies, lists.

Every rule of move legality refuses with a sentence of its own (tests/test_explain.py);
here each is rendered in Finnish and in Swedish from the real checker, on the random
positions of several rulesets and on positions written for the rules those do not
reach: each must be a translation (not the English), leave no English word, and name
the refused card by its Finnish or Swedish name (*ruutukymppi*, *ruter tia*). The
moves' sentences, the sweeps, the leftovers, the scored items, the tallies and the
winner's words are checked in both languages too, with the plural forms for one and for
many; English stays as it was (the other tests assert it, in English, the default).
"""

from __future__ import annotations

import io
import random
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

from casino import Position, i18n, parse_card
from casino.engine import legality as lg
from casino.engine.builds import Build
from casino.engine.cards import card_name, card_symbol
from casino.engine.explain import forced_play, refusal_words, why_illegal
from casino.engine.legality import Refusal, checker
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.rules import preset
from casino.engine.scoring import Item, Result
from casino.engine.wording import build_words, listing, times
from casino.words.narrate import (
    item_words,
    move_explanation,
    move_phrase,
    play_words,
    point_cards_label,
    result_lines,
    tally,
    told_play,
    winner_words,
)
from casino.words.shortlist import Shortlist, rest_words
from tests.variant_positions import growing_round, mutations, pos

LANGS = ("fi", "sv")

#: English words no Finnish or Swedish sentence of the engine may keep.
ENGLISH = re.compile(r"\b(the|you|your|build|builds|card|cards|take|takes|trail|must|not|"
                     r"and|or|with|value|table|capture|sweep|round|once|twice)\b")

#: The rules whose sentence says "that move is not legal here" (a move the front ends
#: cannot make: loose cards out of order, a kind of move that does not exist).
GENERIC = {lg.UNSORTED, lg.NO_KIND}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """Each test sets its language in a ``with``; the next starts in English anyway."""
    yield
    i18n.set_language(i18n.DEFAULT)


def _move(kind: str, card: str, loose: str = "", builds: tuple[Build, ...] = (),
          value: int = 0) -> Move:
    return Move(kind, parse_card(card), tuple(sorted(parse_card(c) for c in loose.split())),
                tuple(sorted(builds)), value)


def _written() -> list[tuple[Position, Move]]:
    """Positions and moves written for the rules random rounds seldom reach (as in
    tests/test_explain.py)."""
    sweep = pos("krypkasino", ["9h 9c 4d", "Qh"], "4s 5d")
    some = pos("krypkasino", ["9h 4d 2c", "Qh"], "4s 5d Kc")
    partial = pos("krypkasino", ["9h 3d", "Qh"], "7c 2s 4s 5h 6d")
    mine = pos("casino", ["8c 4d 2h", "Kh"],
               [{"value": 8, "owner": 0, "groups": [["5d", "3s"]]}, "4s"])
    built = mine.builds[0]
    no_raising = pos({"preset": "casino", "raise_own_build": False}, ["8c 2h 4d", "Kh"],
                     [{"value": 8, "owner": 0, "groups": [["5d", "3s"]]}, "3h"])
    own = no_raising.builds[0]
    multiple = pos("casino", ["Ac 9c", "8d"],
                   [{"value": 8, "owner": 1, "groups": [["8h"], ["5d", "3s"]]},
                    {"value": 9, "owner": 0, "groups": [["6h", "3c"]]}])
    several = tuple(b for b in multiple.builds if b.multiple)
    named = pos("casino", ["8c 4d", "Kh"],
                [{"value": 8, "owner": 1, "groups": [["5d", "3s"]]}, "4s", "2h"])
    gone = Build.make(9, 1, ((parse_card("6h"), parse_card("3c")),))
    return [
        (sweep, _move(TRAIL, "4d")), (sweep, _move(CAPTURE, "4d", "4s")),
        (sweep, _move(TRAIL, "9h")), (some, _move(TRAIL, "4d")),
        (partial, _move(CAPTURE, "9h", "7c 2s")),
        (mine, _move(TRAIL, "4d")), (mine, _move(ADD, "4d", "4s", (built,), 9)),
        (mine, _move(RAISE, "2h", "", (built,), 11)),
        (mine, _move(RAISE, "8c", "", (built,), 16)),
        (mine, _move(RAISE, "8c", "", (built,), 14)),
        (mine, _move(RAISE, "2h", "", (built,), 10)),
        (mine, _move(BUILD, "4d", "", (), 8)), (mine, _move(BUILD, "4d", "4s", (), 0)),
        (mine, _move(BUILD, "4d", "4s", (), 9)),
        (mine, _move(BUILD, "4d", "4s", (built,), 8)),
        (no_raising, _move(RAISE, "2h", "", (own,), 10)),
        (no_raising, _move(RAISE, "2h", "3h", (own,), 10)),
        (multiple, _move(ADD, "Ac", "", multiple.builds, 9)),
        (multiple, _move(RAISE, "Ac", "", several, 9)),
        (pos("classic", ["Jc 5d", "Kh"], "5s"), _move(BUILD, "Jc", "5s", (), 10)),
        (pos("kasino", ["5c 5d", "Kh"], "5s"), _move(BUILD, "5c", "5s", (), 10)),
        (named, _move(CAPTURE, "8c", "", (gone,))), (named, _move(CAPTURE, "4d", "4s 4s")),
        (named, _move(CAPTURE, "8c", "3s")), (named, _move(CAPTURE, "Kh")),
        (named, _move(CAPTURE, "4d", "4s", (), 4)),
    ]


def _random() -> Iterator[tuple[Position, Move]]:
    """Refused moves of seeded random rounds of rulesets that reach the other rules."""
    for name in ("casino", "classic", "kasino", "krypkasino", "tablic"):
        for p in growing_round(name, 1)[::5]:
            legal = p.legal_moves()
            for m in sorted(mutations(p, legal, random.Random(len(legal))), key=str)[:40]:
                yield p, m


def _card_named(r: Refusal, english: str) -> int | None:
    """The card the English sentence names with ``the``, which the translation must
    name by its name."""
    for c in (r.card, *r.cards):
        if f"the {card_symbol(c)}" in english:
            return c
    return None


def _check(p: Position, r: Refusal, seen: dict[str, set[str]]) -> None:
    """The refusal ``r`` in English, Finnish and Swedish: translated, no English left,
    the card by its name."""
    english = refusal_words(p, r)
    for lang in LANGS:
        with i18n.using(lang):
            said = refusal_words(p, r)
            c = _card_named(r, english)
            name = card_name(c) if c is not None else None
        assert said != english, (lang, r.rule, said)
        assert not ENGLISH.search(said), (lang, r.rule, said)
        if name is not None:
            assert name in said, (lang, r.rule, name, said)
        seen[lang].add(r.rule)


def test_every_refusal_is_said_in_finnish_and_swedish() -> None:
    seen: dict[str, set[str]] = {lang: set() for lang in LANGS}
    for p, m in [*_written(), *_random()]:
        r = checker(p).refusal(m)
        if r is not None:
            _check(p, r, seen)
    every = {v for k, v in vars(lg).items() if k.isupper() and isinstance(v, str)
             and k not in ("TRAIL", "CAPTURE", "BUILD", "ADD", "RAISE")}
    for lang in LANGS:
        assert every - GENERIC <= seen[lang], (lang, every - GENERIC - seen[lang])


def test_a_refusal_names_the_card_in_its_basic_form() -> None:
    named = pos("casino", ["8c 4d", "Kh"], ["4s", "2h"])
    move = _move(CAPTURE, "Kh")
    assert why_illegal(named, move) == "you do not hold the K♥"
    with i18n.using("fi"):
        assert why_illegal(named, move) == "herttakuningas ei ole kädessäsi"
    with i18n.using("sv"):
        assert why_illegal(named, move) == "du har inte hjärter kung på handen"
    sweep = pos("krypkasino", ["9h 9c 4d", "Qh"], "4s 5d")
    with i18n.using("fi"):
        assert forced_play(sweep) == ("koko pöytä on otettava (pakkomökki): sen voi "
                                      "ottaa ristiysi tai herttaysi")
        assert why_illegal(sweep, _move(TRAIL, "9h")) == (
            "herttaysi voi ottaa koko pöydän, joten sen on otettava se (pakkomökki)")
    with i18n.using("sv"):
        assert forced_play(sweep) == ("du måste ta hela bordet med klöver nia eller hjärter "
                                      "nia (tvångstabbe)")


def test_an_illegal_move_raised_by_the_engine_speaks_the_language() -> None:
    from casino import IllegalMove

    p = pos("casino", ["8c 4d", "Kh"], ["4s", "2h"])
    with i18n.using("sv"), pytest.raises(IllegalMove, match=r"^du har inte hjärter kung"):
        p.play(_move(CAPTURE, "Kh"))
    with i18n.using("fi"), pytest.raises(IllegalMove, match="voi tarkoittaa useaa siirtoa"):
        two = pos("casino", ["8c 4d", "Kh"],
                  [{"value": 8, "owner": 1, "groups": [["5d", "3s"]]},
                   {"value": 8, "owner": 1, "groups": [["6d", "2s"]]}])
        two.parse_move("8c x [8]")


def _table(table: str, hand: str, rules: str = "casino") -> Position:
    from casino.engine.cards import parse_cards

    return Position(rules=preset(rules), round=1, deal=1, dealer=1, to_move=0,
                    hands=(parse_cards(hand), 4), table=parse_cards(table),
                    piles=((), ()), stock=30, scores=(0, 0))


#: A capture, a build, a trail, a raise, an addition and a sweep, each told as the
#: reader's move, as another's, and as an option, in each language.
TOLD = {
    "fi": {
        "capture": ("Otat kortilla 9♦: 9♣ ja 5♥ + 4♣ (5 + 4 = 9)",
                    "Ann ottaa kortilla 9♦: 9♣ ja 5♥ + 4♣ (5 + 4 = 9)",
                    "ota kortilla 9♦: 9♣ ja 5♥ + 4♣ (5 + 4 = 9)", "ota 9♣ ja 5♥+4♣"),
        "build": ("Teet 8:n rakennelman: 5♦ + 3♠", "Ann tekee 8:n rakennelman: 5♦ + 3♠",
                  "tee 8:n rakennelma: 5♦ + 3♠", "rakenna 8: 5♦+3♠"),
        "trail": ("Laitat 2♠ pöytään", "Ann laittaa 2♠ pöytään", "laita 2♠ pöytään",
                  "pöytään 2♠"),
    },
    "sv": {
        "capture": ("Du tar 9♣ och 5♥ + 4♣ med 9♦ (5 + 4 = 9)",
                    "Ann tar 9♣ och 5♥ + 4♣ med 9♦ (5 + 4 = 9)",
                    "ta 9♣ och 5♥ + 4♣ med 9♦ (5 + 4 = 9)", "ta 9♣ och 5♥+4♣"),
        "build": ("Du gör ett bygge på 8: 5♦ + 3♠", "Ann gör ett bygge på 8: 5♦ + 3♠",
                  "gör ett bygge på 8: 5♦ + 3♠", "bygg 8: 5♦+3♠"),
        "trail": ("Du lägger ut 2♠", "Ann lägger ut 2♠", "lägg ut 2♠", "lägg ut 2♠"),
    },
}


@pytest.mark.parametrize("lang", LANGS)
def test_captures_builds_and_trails_are_told_in_the_language(lang: str) -> None:
    from casino.words.narrate import move_words

    capture_pos = _table("9c 4c 5h", "9d 2s")
    build_pos = _table("3s 7c", "5d 8h 2s")
    moves = {"capture": (capture_pos, capture_pos.parse_move("9d x 9c 4c+5h")),
             "build": (build_pos, build_pos.parse_move("5d+3s =8")),
             "trail": (build_pos, build_pos.parse_move("2s"))}
    for kind, (p, move) in moves.items():
        english = move_words(move, p.rules, "You", you=True)
        with i18n.using(lang):
            told = (move_words(move, p.rules, "You", you=True),
                    move_words(move, p.rules, "Ann"), move_phrase(move, p.rules),
                    move_phrase(move, short=True))
        assert told == TOLD[lang][kind], (kind, told)
        assert told[0] != english


def test_raises_additions_and_the_helpers_account_in_the_language() -> None:
    p = pos("casino", ["2h 4d 7c", "Kh"],
            [{"value": 5, "owner": 1, "groups": [["3s", "2d"]]}, "6s"])
    five = p.builds[0]
    raise_move = p.parse_move("2h > [3s+2d] =7")
    with i18n.using("fi"):
        assert move_phrase(raise_move) == (
            "korota kortilla 2♥ rakennelma arvoon 7: 5:n rakennelma (3♠ + 2♦)")
        assert move_explanation(raise_move, p.rules) == (
            "2♥ korottaa rakennelman arvoon 7 (5 + 2 = 7): 5:n rakennelma (3♠ + 2♦)")
    with i18n.using("sv"):
        assert move_phrase(raise_move) == "höj 5-bygget (3♠ + 2♦) till 7 med 2♥"
        assert move_phrase(raise_move, short=True) == "höj 5-bygget till 7"
        assert build_words(five, "your") == "ditt 5-bygge (3♠ + 2♦)"
    capture = _table("9c 4c 5h", "9d 2s").parse_move("9d x 9c 4c+5h")
    with i18n.using("fi"):
        assert move_explanation(capture, preset("casino")) == (
            "9♦ ottaa: 9♣ ja 5♥ + 4♣, koska 5 + 4 = 9")


@pytest.mark.parametrize(("lang", "sweep", "penalty"), [
    ("fi", "kortilla 9♦: 9♣ — mökki", "— kaksoismökki: 10 sakkopistettä"),
    ("sv", "9♣ med 9♦ — tabbe", "— dubbeltabbe: 10 straffpoäng"),
])
def test_a_sweep_is_noted_in_the_language(lang: str, sweep: str, penalty: str) -> None:
    p = _table("9c", "9d 2s")
    move = p.parse_move("9d x 9c")
    kryp = _table("9d", "9d 2s", "krypkasino")
    double = kryp.parse_move("9d x 9d")
    with i18n.using(lang):
        assert play_words(p, move, p.play(move), "You", you=True).endswith(sweep)
        assert play_words(kryp, double, kryp.play(double), "Ann").endswith(penalty)


@pytest.mark.parametrize(("lang", "mine", "theirs"), [
    ("fi", "Laitat J♣ pöytään; pöytään jääneet 3 korttia (J♣, 6♥, 4♠) menevät pelaajalle "
           "Bob, joka otti viimeksi",
     "Ann laittaa J♣ pöytään; pöytään jääneet 3 korttia (J♣, 6♥, 4♠) menevät sinulle, "
     "koska otit viimeksi"),
    ("sv", "Du lägger ut J♣; de 3 korten som blev kvar (J♣, 6♥, 4♠) går till Bob, som tog "
           "sist",
     "Ann lägger ut J♣; de 3 korten som blev kvar (J♣, 6♥, 4♠) går till dig, som tog sist"),
])
def test_the_leftovers_are_told_to_each_reader(lang: str, mine: str, theirs: str) -> None:
    end = pos("casino", ["Jc", []], "6h 4s", fill="piles", fill_seat=1)
    move = end.parse_move("Jc")
    after = end.play(move)
    with i18n.using(lang):
        assert told_play(end, move, after, 0, ["Ann", "Bob"], reader=0) == mine
        assert told_play(end, move, after, 0, ["Ann", "Bob"], reader=1) == theirs


@pytest.mark.parametrize(("lang", "one", "many"), [
    ("fi", "1 kortti, 1 pata, 1 mökki; pistekortit A♠",
     "5 korttia, 3 pataa, 2 mökkiä; pistekortit 10♦ 2♠ A♠"),
    ("sv", "1 kort, 1 spader, 1 tabbe; poängkort A♠",
     "5 kort, 3 spader, 2 tabbar; poängkort 10♦ 2♠ A♠"),
])
def test_tallies_have_the_plural_forms(lang: str, one: str, many: str) -> None:
    from casino.engine.cards import parse_cards

    base = _table("", "9d")

    def told(pile: str, sweeps: tuple[int, ...]) -> str:
        p = Position(rules=base.rules, round=1, deal=1, dealer=1, to_move=0,
                     hands=base.hands, table=(), piles=(parse_cards(pile), ()), stock=30,
                     scores=(0, 0), sweeps=sweeps)
        return tally(p, 0).words()

    assert told("As", (0,)) == "1 card, 1 spade, 1 sweep; point cards A♠"
    with i18n.using(lang):
        assert told("As", (0,)) == one
        assert told("Td 2s As 5s 7h", (0, 0)) == many


def test_counts_lists_and_times_in_the_language() -> None:
    with i18n.using("fi"):
        assert [times(n) for n in (1, 2, 3)] == ["kerran", "kahdesti", "3 kertaa"]
        assert listing(["a", "b", "c"]) == "a, b ja c"
        assert listing(["a", "b"], last="or") == "a tai b"
        assert point_cards_label(preset("casino"), 1) == "pistekortti"
    with i18n.using("sv"):
        assert [times(n) for n in (1, 2, 3)] == ["en gång", "två gånger", "3 gånger"]
        assert listing(["a", "b"], last="or") == "a eller b"
        assert point_cards_label(preset("krypkasino")) == "straffkort"
    assert point_cards_label(preset("casino"), 1) == "point card"
    short = Shortlist((), 12, True)
    assert rest_words(short) == "and 12 more plays"
    with i18n.using("fi"):
        assert rest_words(short, "move") == "ja 12 muuta siirtoa"
        assert rest_words(Shortlist((), 1, True), "option") == "ja 1 muu vaihtoehto"
        assert rest_words(Shortlist((), 0, False), "option") == "ja muita vaihtoehtoja"
    with i18n.using("sv"):
        assert rest_words(short, "move") == "och 12 drag till"


@pytest.mark.parametrize(("lang", "item", "won"), [
    ("fi", "eniten kortteja", "Ann sai ensimmäisenä 21 pistettä, ratkaisijana 10♦"),
    ("sv", "flest kort", "Ann nådde 21 först, med 10♦"),
])
def test_scored_items_and_the_winner_in_the_language(lang: str, item: str, won: str) -> None:
    rules = preset("casino")
    items = (Item("cards", 1, 3), Item("spades", 0, 1), Item("Td", 0, 2))
    result = Result(items, (21, 20), 0)
    with i18n.using(lang):
        lines = result_lines(result, rules, ["Ann", "Bob"], (18, 17))
        words = winner_words(result, rules, ["Ann", "Bob"], (18, 17))
        assert item_words(Item("cards", 0, 3)) == item
    assert lines[0].startswith(item) and "[Ann 18, Bob 20]" in lines[0]
    # The points stand in one column however long the items' names are.
    assert len({line.index(" +") for line in lines}) == 1, lines
    assert words.startswith(won)
    # The record's key is unchanged: only the words shown are translated.
    assert items[0].item == "cards"


@pytest.mark.parametrize(("lang", "tied"), [
    ("fi", "Eniten kortteja: tasan, 26 kullakin (Ann ja Bob): kukaan ei saa pisteitä"),
    ("sv", "Flest kort: lika, 26 var (Ann och Bob): ingen får poäng"),
])
def test_a_tied_majority_in_the_language(lang: str, tied: str) -> None:
    from casino.engine.cards import parse_cards
    from casino.engine.scoring import round_items, settle
    from casino.words.narrate import tie_words

    rules = preset("casino")
    spades = parse_cards("As 2s 3s 4s 5s 6s 7s 8s 9s Ts Js Qs Ks")
    rest = [c for c in range(52) if c not in spades]
    piles = (tuple(sorted([*spades[:7], *rest[:19]])),
             tuple(sorted([*spades[7:], *rest[19:]])))
    result = settle(rules, round_items(rules, piles, ()), (0, 0), 1)
    end = Position(rules=rules, round=1, deal=6, dealer=1, to_move=0, hands=((), ()),
                   table=(), piles=piles, stock=(), scores=result.scores, last_capture=0,
                   result=result)
    with i18n.using(lang):
        assert tie_words(rules, end, ["Ann", "Bob"]) == [tied]


@pytest.mark.parametrize(("text", "fi", "sv"), [
    ("9d x", "merkintää '9d x' ei voi lukea: kerro, mitä ruutuysi ottaa",
     "kan inte läsa '9d x': säg vad ruter nia tar"),
    ("9d 5h", "merkintää '9d 5h' ei voi lukea: rakentaessasi ilmoita arvo (kuten '=8'); "
              "ottaessasi kirjoita 'x' korttisi jälkeen",
     "kan inte läsa '9d 5h': för att bygga, ange värdet (som '=8'); för att ta, skriv 'x' "
     "efter ditt kort"),
    ("9z", "merkintää '9z' ei voi lukea: '9z' ei ole kortti: 'z' ei ole maa (s c h d tai "
           "♠ ♣ ♥ ♦)",
     "kan inte läsa '9z': '9z' är inget kort: 'z' är ingen färg (s c h d eller ♠ ♣ ♥ ♦)"),
])
def test_a_move_that_cannot_be_read_is_said_in_the_language(text: str, fi: str,
                                                             sv: str) -> None:
    from casino.engine.errors import MalformedMove
    from casino.engine.moves import read_move

    for lang, expected in (("fi", fi), ("sv", sv)):
        with i18n.using(lang), pytest.raises(MalformedMove) as info:
            read_move(text)
        assert str(info.value) == expected
    with pytest.raises(MalformedMove, match=r"^cannot read "):
        read_move(text)


#: The English of the narration, the tallies and the results, which a whole plain game in
#: Finnish or Swedish must not show.
NARRATION = (" takes ", " trails ", " makes a build", "You take", "You trail", "captured ",
             " in hand", "build of ", "point cards", "most cards", " reached ", " wins with",
             "sweep", " each (")


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("Tietokone ottaa kortilla ", "Tietokone laittaa ", "pinossa ", " korttia",
            "eniten kortteja")),
    ("sv", ("Datorn tar ", "Datorn lägger ut ", "har tagit ", " kort på handen",
            "flest kort")),
])
def test_a_whole_plain_game_tells_the_moves_and_results_in_the_language(
        tmp_path: Path, lang: str, words: tuple[str, ...]) -> None:
    from casino.tui.plain import run_plain
    from tests.test_play_languages import Autoplay
    from tests.tui_helpers import beginner_session

    session = beginner_session(tmp_path / "g.rec", seed=7)
    out = io.StringIO()
    with i18n.using(lang):
        run_plain(session, None, stdin=Autoplay(out, session), stdout=out)
    text = out.getvalue()
    assert session.game_over
    for word in words:
        assert word in text, word
    for word in NARRATION:
        assert word not in text, word


@pytest.mark.parametrize(("lang", "words"), [
    ("fi", ("jako 1/", "jakaja paikka", "pöytä: ", "paikka 0: ", "pino: ei kortteja")),
    ("sv", ("giv 1/", "givare plats", "bord: ", "plats 0: ", "hög: inga kort")),
])
def test_a_position_as_text_in_the_language(lang: str, words: tuple[str, ...]) -> None:
    """The text of a position (``casino replay``, the guides' worked deals) is worded in
    the language in force, its cards in symbols; English stays as it was."""
    from casino.engine.match import Match
    from casino.engine.render import render_position

    pos = Match("casino", seed=1).position
    english = render_position(pos)
    assert "table: " in english and "dealer seat" in english
    with i18n.using(lang):
        text = render_position(pos)
    for word in words:
        assert word in text, (word, text)
    for leftover in ("table:", "seat ", "pile:", "cards", "dealer", "stock"):
        assert leftover not in text, (leftover, text)
    assert sorted(c for c in text if c in "♠♣♥♦") == sorted(c for c in english
                                                          if c in "♠♣♥♦")

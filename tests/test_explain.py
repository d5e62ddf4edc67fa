"""The explanation of an illegal move comes from the code that decides legality.

Each rule of move legality is one method of the checker (``casino.engine.legality``)
that both decides and says why: it returns a ``Refusal`` naming the rule, with the
rule's data, when the rule forbids the move. ``casino.engine.explain`` only puts a
refusal into words. The principle, checked on every position of seeded random rounds
of every preset (and Krypkasino with the cardinality option):

- a legal move is never given a reason (``why_illegal`` says ``None``, the checker
  refuses nothing), and a move the enumeration does not list always is;
- the reason ``why_illegal`` gives for a refused move is the sentence of the rule the
  checker refused it by (each rule's sentences are written out below, apart from
  the code that makes them), with that rule's data;
- a refused move text is explained by the refusal of one of the moves it describes.

Then every rule is reached, by the random positions or by a position written for it,
so no rule decides without a sentence of its own.
"""

from __future__ import annotations

import random
import re

import pytest

from casino import Build, IllegalMove, Position, card_text, parse_card
from casino.engine import legality as lg
from casino.engine.errors import MalformedMove
from casino.engine.explain import _described, forced_play, refusal_words, why_illegal
from casino.engine.legality import checker
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move, read_move
from tests.variant_positions import GAMES, growing_round, mutations, pos

_CARD = "[0-9AJQK]{1,2}[♠♥♦♣]"

#: Each rule's sentences, written here apart from the code that makes them.
SENTENCES: dict[str, str] = {
    lg.MERGE: r"a new build takes no existing build: builds never merge$",
    lg.NOT_HELD: rf"you do not hold the {_CARD}$",
    lg.UNSORTED: r"that move is not legal here$",
    lg.NOT_ON_TABLE: (rf"the {_CARD} (is not on the table|is part of a build: a build is "
                      r"only ever taken or changed whole|is named .* but lies on the table .*)$"),
    lg.NO_SUCH_BUILD: r"there is no build \[.*\]( owned by seat \d)? on the table$",
    lg.TRAIL_SHAPE: rf"you may not trail the {_CARD} here$",
    lg.OWNS_BUILD: r"you own the \d+-build, so you may not trail: capture or build instead$",
    lg.FORCED_SWEEP: (rf"(the {_CARD} can take the whole table, so it must|you must sweep the "
                      rf"table with {_CARD}( or {_CARD})*) \(forced sweep\)$"),
    lg.MUST_CAPTURE: (rf"the {_CARD} can capture, and captures are compulsory: only a card "
                      r"that can capture nothing may be trailed$"),
    lg.NOT_MAXIMAL: (rf"the capture must be maximal, leaving nothing the {_CARD} could still "
                     r"take(: play .+)?$"),
    lg.CAPTURE_VALUE: r"a capture announces no value$",
    lg.CAPTURE_EMPTY: rf"say what the {_CARD} takes$",
    lg.BUILD_VALUE: (rf"a build of (\d+) can only be taken by a card of value \1, and the "
                     rf"{_CARD} is (no number value|\d+( or \d+)?)$"),
    lg.FACE_ONLY: (rf"the {_CARD} has no number value: it only takes (one card|cards) of its "
                   r"rank$"),
    lg.CANNOT_TAKE: (rf"the {_CARD} \([0-9 or]+\) cannot take ({_CARD} ?)*: each card it takes "
                     r"must pair with it, or be in a group of two or more adding up to .+$"),
    lg.NO_BUILDING: r"there is no building in [a-z-]+: capture or trail$",
    lg.NO_NUMBER: rf"the {_CARD} has no number value and cannot be built with$",
    lg.BUILD_RANGE: r"a build is worth 2 to \d+, not \d+$",
    lg.BUILD_ALONE: (rf"a build is your card on at least one loose table card; the {_CARD} "
                     r"alone is a trail$"),
    lg.UNANNOUNCED: r"announce the value of the build, as '=8'$",
    lg.BUILD_SPLIT: (rf"the cards add up to \d+, which does not split into groups of \d+ "
                     rf"with the {_CARD}$"),
    lg.ONE_BUILD: r"a card is added to one build at a time: builds never merge$",
    lg.ADD_VALUE: r"a group added to the (\d+)-build keeps its value \1, not \d+$",
    lg.ADD_GROUP: (r"those cards cannot join the \d+-build: every group added must add up "
                   r"to the build's value$"),
    lg.MULTIPLE_RAISE: (r"a multiple build can never be raised; to add to it, your card "
                        r"\(with loose cards\) must make another group of \d+$"),
    lg.RAISE_HIGH: rf"raising the \d+-build with the {_CARD} would make \d+, more than \d+$",
    lg.RAISE_VALUE: rf"the {_CARD} raises the \d+-build to \d+, not \d+$",
    lg.RAISE_OWN: r"you may not raise your own build in [a-z-]+$",
    lg.OWNERSHIP: (rf"(to build (\d+) you must keep a card of value \2 in your hand, and "
                   rf"after playing the {_CARD} you would have none|you own the (\d+)-build "
                   r"and would have no \3 left to take it)$"),
    lg.NO_KIND: r"that move is not legal here$",
}


def test_every_rule_has_a_sentence() -> None:
    rules = {v for k, v in vars(lg).items() if k.isupper() and isinstance(v, str)
             and k not in ("TRAIL", "CAPTURE", "BUILD", "ADD", "RAISE")}
    assert rules == set(SENTENCES)
    assert rules >= lg.FITTING


def _more_mutations(p: Position, legal: list[Move], rng: random.Random) -> set[Move]:
    """Changes the shared mutations do not make: another value for an addition or a raise,
    a trail or capture that says too much, a build that takes a build, a card not held,
    a loose card named twice, two builds at once."""
    out: set[Move] = set()
    hand = set(p.hand(p.to_move))
    table_cards = sorted(set(p.loose) | {c for b in p.builds for c in b.cards})
    for m in legal[:25]:
        if m.kind in (ADD, RAISE):
            out.update(Move(k, m.card, m.loose, m.builds, v)
                       for k in (ADD, RAISE) for v in (m.value - 1, m.value + 1, m.value + 3))
        out.add(Move(TRAIL, m.card, m.loose, m.builds))
        out.add(Move(CAPTURE, m.card, m.loose, m.builds, 7))
        out.add(Move(CAPTURE, m.card))
        out.update(Move(BUILD, m.card, m.loose, (b,), m.value or 8) for b in p.builds[:2])
        if len(p.builds) > 1:
            out.add(Move(RAISE, m.card, m.loose, tuple(sorted(p.builds[:2])), m.value or 8))
        if m.loose:
            out.add(Move(m.kind, m.card, tuple(sorted((*m.loose, m.loose[0]))), m.builds,
                         m.value))
        out.update(Move(m.kind, c, m.loose, m.builds, m.value)
                   for c in table_cards[:3] if c not in hand)
        if table_cards:
            c = rng.choice(table_cards)
            out.add(Move(CAPTURE, m.card, (c,)))
    return out


@pytest.mark.parametrize("name", GAMES)
def test_the_reason_given_is_the_rule_that_refused(name: str) -> None:
    seen: set[str] = set()
    refused = 0
    for seed in range(2):
        for p in growing_round(name, seed)[::4]:
            legal = p.legal_moves()
            listed = set(legal)
            check = checker(p)
            for m in legal[:30]:
                assert check.refusal(m) is None, f"{name}: legal {m} was refused"
                assert why_illegal(p, m) is None
            rng = random.Random(refused)
            for m in mutations(p, legal, rng) | _more_mutations(p, legal, rng):
                r = check.refusal(m)
                assert (r is None) == (m in listed), f"{name}: {m!r} {r}"
                assert (check.find(m) is None) == (r is not None)
                if r is None:
                    assert why_illegal(p, m) is None
                    continue
                refused += 1
                seen.add(r.rule)
                words = why_illegal(p, m)
                assert words == refusal_words(p, r)
                assert re.match(SENTENCES[r.rule], words), f"{name}: {m!r} by {r}: {words!r}"
    assert refused > 200
    # The rules any random game of building casino or of Krypkasino reaches.
    common = {lg.NOT_HELD, lg.NOT_ON_TABLE, lg.CANNOT_TAKE, lg.CAPTURE_EMPTY,
              lg.CAPTURE_VALUE, lg.TRAIL_SHAPE}
    assert common <= seen, common - seen


def _texts(m: Move) -> list[str]:
    """Texts that describe ``m`` (and nearby moves): with and without the value, the
    build named by its cards and by its value."""
    c = card_text(m.card)
    loose = " ".join(card_text(x) for x in m.loose)
    if m.kind == TRAIL:
        return [c]
    if m.kind == CAPTURE:
        builds = " ".join(b.text() for b in m.builds)
        return [f"{c} x {loose} {builds}"]
    if not m.builds:
        return [f"{c} {loose} ={m.value}", f"{c}+{loose.replace(' ', '+')} ={m.value}"]
    b = m.builds[0]
    return [f"{c} > {b.text()} {loose} ={m.value}", f"{c} > {b.text()} {loose}",
            f"{c} > [{b.value}] {loose}"]


@pytest.mark.parametrize("name", ["casino", "classic", "kasino", "krypkasino", "tablic"])
def test_a_refused_text_is_explained_by_a_move_it_describes(name: str) -> None:
    explained = 0
    for p in growing_round(name, 5)[::6]:
        legal = p.legal_moves()
        check = checker(p)
        for m in sorted(mutations(p, legal, random.Random(len(legal))), key=str)[:80]:
            for text in _texts(m):
                try:
                    spec = read_move(text)
                    p.parse_move(text)
                except MalformedMove:
                    continue
                except IllegalMove as exc:
                    message = str(exc)
                else:
                    continue
                if "several moves" in message or "there is no build" in message:
                    continue  # reading: the text names no one move, or no build on the table
                refusals = [check.presence_refusal(spec.card, spec.loose, ())]
                refusals += [check.refusal(d) for d in _described(p, spec)]
                words = {refusal_words(p, r) for r in refusals if r is not None}
                assert message in words, f"{name}: {text!r}: {message!r} not in {words}"
                explained += 1
    assert explained > 30


def _refused(p: Position, m: Move) -> tuple[str, str]:
    r = checker(p).refusal(m)
    assert r is not None, m
    words = why_illegal(p, m)
    assert words is not None and re.match(SENTENCES[r.rule], words), (r, words)
    assert not p.is_legal(m)
    with pytest.raises(IllegalMove) as info:
        p.play(m)
    assert str(info.value) == words
    return r.rule, words


def _move(kind: str, card: str, loose: str = "", builds: tuple[Build, ...] = (),
          value: int = 0) -> Move:
    return Move(kind, parse_card(card), tuple(sorted(parse_card(c) for c in loose.split())),
                tuple(sorted(builds)), value)


def test_rules_of_compulsion_are_refused_and_worded_by_their_rule() -> None:
    """Krypkasino: the forced sweep, the compulsory capture and the maximal capture."""
    sweep = pos("krypkasino", ["9h 9c 4d", "Qh"], "4s 5d")
    assert _refused(sweep, _move(TRAIL, "4d"))[0] == lg.FORCED_SWEEP
    assert _refused(sweep, _move(CAPTURE, "4d", "4s")) == (
        lg.FORCED_SWEEP, "you must sweep the table with 9♣ or 9♥ (forced sweep)")
    assert _refused(sweep, _move(TRAIL, "9h")) == (
        lg.FORCED_SWEEP, "the 9♥ can take the whole table, so it must (forced sweep)")
    some = pos("krypkasino", ["9h 4d 2c", "Qh"], "4s 5d Kc")
    assert _refused(some, _move(TRAIL, "4d"))[0] == lg.MUST_CAPTURE
    # 9h x 7c+2s leaves 4s+5h: still a 9.
    partial = pos("krypkasino", ["9h 3d", "Qh"], "7c 2s 4s 5h 6d")
    rule, words = _refused(partial, _move(CAPTURE, "9h", "7c 2s"))
    assert rule == lg.NOT_MAXIMAL and "play 9h x 5h+4s 7c+2s" in words
    assert forced_play(sweep) == "you must sweep the table with 9♣ or 9♥ (forced sweep)"


def test_rules_of_building_are_refused_and_worded_by_their_rule() -> None:
    eight = {"value": 8, "owner": 0, "groups": [["5d", "3s"]]}
    mine = pos("casino", ["8c 4d 2h", "Kh"], [eight, "4s"])
    assert _refused(mine, _move(TRAIL, "4d"))[0] == lg.OWNS_BUILD
    built = mine.builds[0]
    assert _refused(mine, _move(ADD, "4d", "4s", (built,), 9))[0] == lg.ADD_VALUE
    assert _refused(mine, _move(RAISE, "2h", "", (built,), 11))[0] == lg.RAISE_VALUE
    assert _refused(mine, _move(RAISE, "8c", "", (built,), 16))[0] == lg.BUILD_RANGE
    assert _refused(mine, _move(RAISE, "8c", "", (built,), 14))[0] == lg.RAISE_HIGH
    assert _refused(mine, _move(RAISE, "2h", "", (built,), 10))[0] == lg.OWNERSHIP
    assert _refused(mine, _move(BUILD, "4d", "", (), 8))[0] == lg.BUILD_ALONE
    assert _refused(mine, _move(BUILD, "4d", "4s", (), 0))[0] == lg.UNANNOUNCED
    assert _refused(mine, _move(BUILD, "4d", "4s", (), 9))[0] == lg.BUILD_SPLIT
    assert _refused(mine, _move(BUILD, "4d", "4s", (built,), 8))[0] == lg.MERGE
    no_raising = pos({"preset": "casino", "raise_own_build": False},
                     ["8c 2h 4d", "Kh"], [{"value": 8, "owner": 0, "groups": [["5d", "3s"]]}, "3h"])
    own = no_raising.builds[0]
    assert _refused(no_raising, _move(RAISE, "2h", "", (own,), 10)) == (
        lg.RAISE_OWN, "you may not raise your own build in casino")
    # A refused raise whose cards do not fit is explained by its cards first.
    assert _refused(no_raising, _move(RAISE, "2h", "3h", (own,), 10))[0] == lg.ADD_GROUP
    multiple = pos("casino", ["Ac 9c", "8d"],
                   [{"value": 8, "owner": 1, "groups": [["8h"], ["5d", "3s"]]},
                    {"value": 9, "owner": 0, "groups": [["6h", "3c"]]}])
    assert _refused(multiple, _move(ADD, "Ac", "", multiple.builds, 9))[0] == lg.ONE_BUILD
    several = tuple(b for b in multiple.builds if b.multiple)
    assert _refused(multiple, _move(RAISE, "Ac", "", several, 9))[0] == lg.MULTIPLE_RAISE
    assert _refused(pos("classic", ["Jc 5d", "Kh"], "5s"),
                    _move(BUILD, "Jc", "5s", (), 10))[0] == lg.NO_NUMBER
    assert _refused(pos("kasino", ["5c 5d", "Kh"], "5s"),
                    _move(BUILD, "5c", "5s", (), 10))[0] == lg.NO_BUILDING


def test_rules_of_naming_are_refused_and_worded_by_their_rule() -> None:
    """A move names cards that are there, once each, a build that is on the table, in
    the order moves are made, and a kind of move that exists."""
    p = pos("casino", ["8c 4d", "Kh"], [{"value": 8, "owner": 1, "groups": [["5d", "3s"]]},
                                        "4s", "2h"])
    gone = Build.make(9, 1, ((parse_card("6h"), parse_card("3c")),))
    assert _refused(p, _move(CAPTURE, "8c", "", (gone,))) == (
        lg.NO_SUCH_BUILD, "there is no build [3♣ 6♥] owned by seat 1 on the table")
    assert _refused(p, _move(CAPTURE, "4d", "4s 4s")) == (
        lg.NOT_ON_TABLE, "the 4♠ is named twice but lies on the table once")
    assert _refused(p, _move(CAPTURE, "8c", "3s")) == (
        lg.NOT_ON_TABLE, "the 3♠ is part of a build: a build is only ever taken or changed whole")
    assert _refused(p, _move(CAPTURE, "4d", "2h 2h"))[0] == lg.NOT_ON_TABLE
    backwards = Move(CAPTURE, parse_card("8c"), (parse_card("4s"), parse_card("2h")))
    assert _refused(p, backwards)[0] == lg.UNSORTED
    assert _refused(p, Move("swap", parse_card("8c")))[0] == lg.NO_KIND
    assert _refused(p, _move(CAPTURE, "Kh"))[0] == lg.NOT_HELD

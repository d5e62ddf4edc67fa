"""Crowded tables for the front ends' bounded-work tests (issue 15).

Finnish Kasino has no compulsory capture and no builds, so players may trail
until 20-odd loose cards lie on the table, where the legal moves number in the
hundreds of thousands. The helper, the terminal game and the ``moves`` command
must answer there from the engine's bounded questions: :func:`forbid_enumeration`
makes any listing of every legal move of a crowded position fail the test, so
the tests count what is shown (moves, bytes), never seconds.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

from casino import Match, Position, preset
from casino.engine import movegen
from casino.engine import position as position_module
from casino.engine.cards import parse_card
from casino.engine.legality import SMALL_TABLE
from casino.engine.moves import TRAIL, Move

#: The helper benchmark's table (benchmarks/helper_crowded.py): every A to 6, 24 cards.
KASINO_24 = [r + s for r in "A23456" for s in "cdhs"]


#: The legality benchmark's table: KASINO_24 and three 7s, as one text.
KASINO_27 = " ".join([*KASINO_24, "7c", "7d", "7h"])


def crowded(name: str, loose: str, hand: str, **options: object) -> Position:
    """A position of ``name`` in its last deal with the given loose cards and mover's
    hand; the rest of the deck is in the opponent's pile (so the opponent made the last
    capture, as only a capture fills a pile)."""
    rules = preset(name, **options)
    table = [parse_card(t) for t in loose.split()]
    mine = [parse_card(t) for t in hand.split()]
    rest = Counter(list(range(52)) * rules.decks) - Counter(table) - Counter(mine)
    return Position(rules=rules, round=1, deal=6, dealer=1, to_move=0,
                    hands=(tuple(sorted(mine)), ()), table=tuple(table),
                    piles=((), tuple(sorted(rest.elements()))), scores=(0, 0),
                    last_capture=1)


def forbid_enumeration(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """Listing every legal move of a position with more than ``SMALL_TABLE`` loose cards
    without a step budget (``movegen.Budget``) fails the test; the returned list gets the
    loose-card count of each listing allowed. A budgeted listing is bounded work: it
    stops when its steps are spent."""
    real = movegen.generate  # the function Position's methods call as position.generate
    listed: list[int] = []

    def guarded(*args: Any) -> Any:
        loose = args[2]
        budgeted = len(args) > 5 and args[5] is not None
        if len(loose) > SMALL_TABLE and not budgeted:
            raise AssertionError(f"every legal move of a table of {len(loose)} loose cards "
                                 "was listed")
        listed.append(len(loose))
        return real(*args)

    monkeypatch.setattr(position_module, "generate", guarded)
    return listed


def crowded_kasino_match(loose: int = 20, seed: int = 11) -> Match:
    """A Finnish Kasino game where both players have only trailed, until at least
    ``loose`` cards lie on the table and seat 0 is to move."""
    match = Match("kasino", seed=seed)
    while True:
        pos: Position = match.position
        if len(pos.loose) >= loose and pos.to_move == 0 and pos.hand(0):
            return match
        if pos.result is not None:
            raise AssertionError("the round ended before the table was crowded")
        match.play(Move(TRAIL, pos.hand(pos.to_move)[0]))

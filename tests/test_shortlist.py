"""Lists of moves shown to people (casino/words/shortlist.py): ranked, capped, the rest counted.

A list must never hold more than its limit, must keep the move it is told to
keep (the computer's pick) even when that ranks low or was not among the moves
found, and must say how many it left out and whether it knows them all.
"""

from __future__ import annotations

import pytest

from casino import Match
from casino.engine.legality import MoveList, ranked
from casino.engine.moves import TRAIL, Move
from casino.words.shortlist import rest_words, shortlist


def moves_of_a_game() -> list[Move]:
    match = Match("casino", seed=9)
    while len(match.legal_moves()) < 12:
        match.play(match.legal_moves()[0])
    return match.legal_moves()


def test_a_short_list_is_the_strongest_first_and_counts_the_rest() -> None:
    moves = moves_of_a_game()
    short = shortlist(MoveList(tuple(moves), True), limit=5)
    assert list(short.moves) == ranked(moves)[:5]
    assert short.more == len(moves) - 5 and short.complete and short.total == len(moves)
    assert rest_words(short) == f"and {len(moves) - 5} more plays"
    whole = shortlist(moves)
    assert whole.everything and rest_words(whole) == "" and whole.more == 0


def test_the_move_to_keep_is_shown_within_the_limit() -> None:
    moves = moves_of_a_game()
    last = ranked(moves)[-1]
    short = shortlist(moves, keep=last, limit=3)
    assert len(short.moves) == 3 and last in short.moves
    assert short.moves == tuple(ranked(short.moves))
    assert short.more == len(moves) - 3
    # Not among the moves found (a selection): shown, and not counted as found.
    other = Move(TRAIL, 51)
    some = shortlist(MoveList(tuple(moves[:4]), False), keep=other, limit=10)
    assert other in some.moves and len(some.moves) == 5 and some.more == 0
    assert not some.complete and some.total is None
    assert rest_words(some, "option") == "and other options"
    capped = shortlist(MoveList(tuple(moves), False), limit=2)
    assert rest_words(capped) == f"and {len(moves) - 2} more plays found, and others"
    with pytest.raises(ValueError, match="at least one"):
        shortlist(moves, limit=0)

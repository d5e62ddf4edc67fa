"""Match: the undo a front end offers within a round, playing listed moves, and a first
round dealt from a given deck."""

from __future__ import annotations

import itertools
import random

import pytest

from casino import Match
from casino.engine.record import read_record, write_record
from casino.engine.rules import preset


def test_take_back_restores_the_exact_position() -> None:
    match = Match("casino", seed=3)
    before = []
    for _ in range(5):
        before.append(match.position)
        match.play(match.legal_moves()[0])
    match.take_back(2)
    assert match.position == before[3]
    assert match.position.to_json() == before[3].to_json()
    assert len(match.current.moves) == 3 and len(match.current.movers) == 3
    match.take_back(3)
    assert match.position.to_json() == before[0].to_json()


def test_take_back_refuses_more_than_the_round_has_and_changes_nothing() -> None:
    match = Match("casino", seed=3)
    match.play(match.legal_moves()[0])
    pos = match.position
    with pytest.raises(ValueError, match="cannot take back 2 moves: this round has 1"):
        match.take_back(2)
    with pytest.raises(ValueError, match="cannot take back 0"):
        match.take_back(0)
    assert match.position is pos and len(match.current.moves) == 1


def test_take_back_refuses_a_finished_round() -> None:
    match = Match("casino", seed=3)
    while match.position.result is None:
        match.play(match.legal_moves()[0])
    with pytest.raises(ValueError, match="the round is over"):
        match.take_back(1)


def test_played_lists_every_move_with_the_positions_around_it() -> None:
    match = Match("casino", seed=3)
    while match.position.result is None:
        match.play(match.legal_moves()[0])
    match.next_round()
    match.play(match.legal_moves()[0])
    played = list(match.played())
    assert len(played) == sum(len(r.moves) for r in match.rounds)
    seat, before, move, after = played[-1]
    assert before == match.current.start and after == match.position
    assert seat == match.current.movers[-1] and move == match.current.moves[-1]
    for (_, _, _, a), (_, b, _, _) in itertools.pairwise(played):
        assert a == b or b.round == a.round + 1


def test_play_listed_records_what_play_records() -> None:
    """``play_listed`` (a move from the position's own lists, not checked again) leaves
    the match exactly as ``play`` does, and refuses once the round is over."""
    from casino.engine.errors import IllegalMove

    checked, listed = Match("kasino", seed=8), Match("kasino", seed=8)
    while checked.position.result is None:
        move = checked.position.candidate_moves().moves[-1]
        checked.play(move)
        listed.play_listed(move)
        assert listed.position.to_json() == checked.position.to_json()
    assert listed.current.moves == checked.current.moves
    assert listed.current.movers == checked.current.movers
    assert listed.current.result == checked.current.result
    with pytest.raises(IllegalMove, match="the round is over"):
        listed.play_listed(move)


def test_a_match_dealt_from_a_given_deck_plays_it_and_records_it() -> None:
    """The web's daily deal: a deck shuffled elsewhere, dealt to everyone alike."""
    rules = preset("casino")
    deck = list(range(52))
    random.Random(3).shuffle(deck)
    one, two = (Match.dealt(rules, tuple(deck), 1) for _ in range(2))
    assert one.rounds[0].deck == two.rounds[0].deck == tuple(deck)
    assert one.position == two.position and one.position.dealer == 1
    record = read_record(write_record(one))
    assert record.rounds[0].deck == tuple(deck) and record.rounds[0].dealer == 1
    with pytest.raises(ValueError, match="every card of 1 deck once each"):
        Match.dealt(rules, (*deck[:-1], deck[0]), 0)

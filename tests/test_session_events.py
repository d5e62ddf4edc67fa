"""The session says what happened (casino.play.events): each change is told to the hook
as typed events, with the positions the session had in hand, so no front end works out
afterwards what changed; and "is play allowed now?" has one answer
(GameSession.why_no_play)."""

from __future__ import annotations

import pytest

from casino import IllegalMove, Match
from casino.engine.record import HINT, RESIGN, TAKEOVER, UNDO, Settings
from casino.play.events import (
    GameEnded,
    MovePlayed,
    MovesTakenBack,
    NoteAdded,
    RoundDealt,
    RoundEnded,
    SeatTakenOver,
    SessionEvent,
)
from casino.play.session import HUMAN, GameSession


class Heard:
    """A hook that keeps each call's events, and checks it is told after the change."""

    def __init__(self) -> None:
        self.calls: list[tuple[SessionEvent, ...]] = []

    def __call__(self, session: GameSession, events: tuple[SessionEvent, ...]) -> None:
        assert events, "the hook is told only when something happened"
        self.calls.append(events)

    def last(self) -> tuple[SessionEvent, ...]:
        return self.calls[-1]


def people(rules: str = "casino", seed: int = 8, players: int = 2,
           **settings: bool) -> tuple[GameSession, Heard]:
    heard = Heard()
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    g = GameSession(Match(rules, seed=seed, players=players), [HUMAN] * players, names,
                    settings=Settings(**settings), on_change=heard)
    return g, heard


def play_first(g: GameSession) -> None:
    seat = g.to_move
    g.play(g.view_of(seat).legal_moves()[0], seat=seat)


def ended_round(g: GameSession) -> bool:
    """Whether the round is over (a call, so that mypy keeps no narrowing of it)."""
    return g.round_over


def test_a_whole_game_is_told_move_by_move_with_the_positions_around_each() -> None:
    g, heard = people()
    played: list[tuple[int, object, object, object]] = []
    rounds = 0
    while not g.game_over:
        while not g.round_over:
            before = g.match.position
            play_first(g)
            events = heard.last()
            move = events[0]
            assert isinstance(move, MovePlayed)
            assert move.before is before and move.after is g.match.position
            assert move.seat == before.to_move and move.move == g.log[-1].move
            played.append((move.seat, move.before, move.move, move.after))
            if ended_round(g):  # the last move of a round ends it, and maybe the game
                ended = events[1]
                assert isinstance(ended, RoundEnded) and ended.position is g.match.position
                assert ended.result == g.result
                assert ended.scores_before == g.scores_before_round
                assert [type(e) for e in events[2:]] == ([GameEnded] if g.game_over else [])
            else:
                assert len(events) == 1
        rounds += 1
        if not g.game_over:
            pos = g.next_round()
            assert heard.last() == (RoundDealt(pos),)
    last = heard.last()[-1]
    assert last == GameEnded(g.winner) and g.winner is not None
    # The events are the game as the match replays it, in order.
    assert played == list(g.match.played())
    assert rounds == len(g.match.rounds)


def test_a_refused_move_tells_nothing_and_changes_nothing() -> None:
    g, heard = people()
    other = 1 - g.to_move
    before = g.match.position
    with pytest.raises(IllegalMove, match="turn, not yours"):
        g.play(g.view_of(g.to_move).legal_moves()[0], seat=other)
    assert heard.calls == [] and g.match.position is before


def test_notes_are_told_as_notes_and_a_take_back_holds_the_moves() -> None:
    g, heard = people(players=3, rules="classic", hints=True, takebacks=True)
    seat = g.to_move
    g.hint_given(seat)
    assert heard.last() == (NoteAdded(g.notes[-1]),) and g.notes[-1].kind == HINT
    play_first(g)
    taken_move = g.log[-1].move
    g.undo(seat)
    (back,) = heard.last()
    assert isinstance(back, MovesTakenBack) and back.note.kind == UNDO
    assert back.note.taken == ((seat, taken_move),)


def test_a_resignation_ends_a_two_sided_game_or_hands_the_seat_to_a_computer() -> None:
    two, heard = people()
    assert two.resign(0, "easy")
    resigned, ended = heard.last()
    assert isinstance(resigned, NoteAdded) and resigned.note.kind == RESIGN
    assert ended == GameEnded(1, resigned=0) and two.winner == 1
    three, heard = people(rules="classic", players=3)
    assert not three.resign(0, "easy")
    resigned, taken = heard.last()
    assert isinstance(resigned, NoteAdded) and resigned.note.kind == RESIGN
    assert isinstance(taken, SeatTakenOver) and taken.note.kind == TAKEOVER
    assert (taken.note.seat, taken.note.level) == (0, "easy")
    assert three.players[0] == "easy"


def test_a_seat_taken_over_while_its_player_is_away_is_told() -> None:
    g, heard = people(rules="classic", players=3)
    seat = g.to_move
    g.take_over(seat, "medium")
    (taken,) = heard.last()
    assert isinstance(taken, SeatTakenOver)
    assert (taken.note.seat, taken.note.level) == (seat, "medium")


def test_is_play_allowed_has_one_answer_in_words() -> None:
    g, _ = people(rules="krypkasino")
    seat = g.to_move
    other = 1 - seat
    assert g.why_no_play(seat) is None and g.may_play(seat)
    assert g.why_no_play(other) == f"it is {g.names[seat]}'s turn, not yours"
    assert g.why_no_play(5) == "seat 5 is not a person's seat"
    while not g.round_over:
        play_first(g)
    if not g.game_over:  # Krypkasino calls a round a game
        assert g.why_no_play(g.to_move) == "the game is over: start the next game first"
        with pytest.raises(IllegalMove, match="start the next game first"):
            g.play("7h", seat=g.to_move)
        g.next_round()
    g.resign(g.to_move, "easy")
    assert g.why_no_play(0) == "the game is over" and not g.may_play(1)

"""What happened at the table, as :class:`~casino.play.session.GameSession` tells it.

Every change of a session is told to its ``on_change`` hook as a tuple of these
events, in the order they happened, once the record is saved. The session has
in hand what a front end needs: the position before a move, the move, the
position after and the seat. So nobody works out afterwards what changed: the
web's live game turns the events into its numbered table events, and nothing
compares log lengths, replays a round or plays a move a second time.

One call can tell several events: the round's last move is followed by
:class:`RoundEnded`, and the game's last round or a resignation that ends it by
:class:`GameEnded`; a resignation that does not end the game by
:class:`SeatTakenOver`.
"""

from __future__ import annotations

from dataclasses import dataclass

from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.record import Note
from casino.engine.scoring import Result


@dataclass(frozen=True)
class MovePlayed:
    """``seat`` played ``move``: ``before`` is the position it was played in, ``after``
    the one it made (a new deal dealt, or the round scored, when the move ended one)."""

    seat: int
    before: Position
    move: Move
    after: Position


@dataclass(frozen=True)
class RoundEnded:
    """The round was scored: ``position`` is its last, holding the result, and
    ``scores_before`` the totals the round began with (the result is told against them)."""

    position: Position
    scores_before: tuple[int, ...]

    @property
    def result(self) -> Result:
        """The round's result (scores, items, and the game's winner if it is won)."""
        result = self.position.result
        assert result is not None, "a round ends with a result"
        return result


@dataclass(frozen=True)
class RoundDealt:
    """The next round was dealt: ``position`` is its first."""

    position: Position


@dataclass(frozen=True)
class NoteAdded:
    """A note was added to the record: a hint shown, a take-back, a resignation or a
    takeover (:class:`~casino.engine.record.Note`, whose ``kind`` says which)."""

    note: Note


@dataclass(frozen=True)
class MovesTakenBack(NoteAdded):
    """A person took back moves: the note holds them (``note.taken``, in the order they
    had been played), and the game stands as before the first of them."""


@dataclass(frozen=True)
class SeatTakenOver(NoteAdded):
    """A computer at ``note.level`` plays ``note.seat`` from now on: its player resigned
    in a game that goes on, or was away on their turn."""


@dataclass(frozen=True)
class GameEnded:
    """The game is over: won by ``winner`` (a side's first seat; None when nobody won),
    by the cards or because ``resigned`` resigned."""

    winner: int | None
    resigned: int | None = None


#: Anything a session tells its hook.
SessionEvent = MovePlayed | RoundEnded | RoundDealt | NoteAdded | GameEnded

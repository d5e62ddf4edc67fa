"""What the table is told in words of its game: a round's end, how the game ended, a
resignation, how long someone has been away, and each move as the public log tells it
(to everyone, and to the player who made it). The live game (:mod:`casino.web.live`)
and the spectators' view say them; the wording of the moves themselves is
:mod:`casino.words.narrate`'s.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.wording import plural
from casino.play.events import GameEnded
from casino.play.session import GameSession
from casino.web.views import LogItem, side_name, total_text
from casino.words.narrate import told_play, winner_words


def resignation_words(session: GameSession) -> str | None:
    """"Ann resigned: Bob wins", when the game ended by a resignation (else None)."""
    seat = session.resigned
    if seat is None:
        return None
    names, rules, winner = session.names, session.rules, session.winner
    if winner is None:
        return (f"{names[seat]} resigned, the last person at the table: the game ends "
                "without a winner")
    side = [names[s] for s in rules.seats if rules.team_of(s) == rules.team_of(winner)]
    verb = "win" if len(side) > 1 else "wins"
    return f"{names[seat]} resigned: {' and '.join(side)} {verb}"


def duration_words(seconds: float) -> str:
    """``3 minutes``, ``1 minute``, ``less than a minute``: how long someone has been away.

    Whole minutes, so the table's notice changes (and is sent again) once a minute.
    """
    minutes = int(seconds // 60)
    if minutes == 0:
        return "less than a minute"
    return plural(minutes, "minute")


def round_words(rules: Rules, names: Sequence[str], number: int,
                 scores: Sequence[int]) -> str:
    """"Round 2 is over: Ann 8, Bob 3": round ``number``'s end, with the totals."""
    # A side is named by all its players: partners share the points.
    totals = ", ".join(f"{side_name(rules, names, t)} {total_text(scores[t])}"
                       for t in rules.teams)
    return f"{rules.round_word.capitalize()} {number} is over: {totals}"


def ending_words(session: GameSession, ended: GameEnded) -> str | None:
    """How the game ended, for the table: a resignation's words, or the winner's of the
    last round; None for a game the cards ended without a winner (none does)."""
    if ended.resigned is not None:
        return resignation_words(session)
    result = session.match.position.result
    if result is None or ended.winner is None:
        return None
    return winner_words(result, session.rules, session.names,
                        session.match.current.start.scores)


def replayed_log(session: GameSession) -> list[LogItem]:
    """The public log of a game loaded from its record."""
    return [log_item(seat, before, move, after, session.names)
            for seat, before, move, after in session.match.played()]


def log_item(seat: int, before: Position, move: Move, after: Position,
             names: Sequence[str]) -> LogItem:
    """A move for the public log, told to everyone and to the player who made it."""
    return LogItem(before.round, before.deal, seat, str(move),
                   told_play(before, move, after, seat, names),
                   told_play(before, move, after, seat, names, reader=seat))


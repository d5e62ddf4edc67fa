"""What the table is told in words of its game: a round's end, how the game ended, a
resignation, how long someone has been away, and each move as the public log tells it
(to everyone, and to the player who made it). The live game (:mod:`casino.web.live`)
and the spectators' view say them; the wording of the moves themselves is
:mod:`casino.words.narrate`'s.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence

from casino.bots.levels import LEVELS
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.record import Note
from casino.engine.rules import Rules
from casino.engine.wording import listing
from casino.i18n import _, ngettext
from casino.play.events import GameEnded
from casino.play.names import shown_name, shown_names
from casino.play.session import GameSession
from casino.web.table_events import Told
from casino.web.views import LogItem, side_name, total_text
from casino.words.narrate import told_play, winner_words


def level_name(level: str) -> str:
    """The computer's level ``level`` (``medium``) as shown, in the language in force
    (:meth:`casino.bots.levels.Level.shown_name`); a level not known is shown by its
    name."""
    known = LEVELS.get(level)
    return known.shown_name() if known else level


def note_words(note: Note, name: str, *, you: bool = False) -> str:
    """A note of the record told to the table (a hint asked for, a take-back, a
    resignation, a takeover: :meth:`~casino.engine.record.Note.words`), the computer's
    level named as the table shows it, a default name in the reader's language."""
    return note.words(shown_name(name), you=you,
                      level=level_name(note.level) if note.level else None)


def joined_words(name: str | None, full: bool) -> str:
    """"Ann joined", "Ann joined: the game begins" (the last seat taken); ``name`` None:
    told to the one who joined."""
    if name is None:
        return _("You joined: the game begins") if full else _("You joined")
    words = {"name": name}
    return (_("%(name)s joined: the game begins") % words if full
            else _("%(name)s joined") % words)


def rematch_words(name: str | None) -> str:
    """"Ann started a rematch"; ``name`` None: told to the one who started it."""
    if name is None:
        return _("You started a rematch")
    return _("%(name)s started a rematch") % {"name": name}


def seek_withdrawn(name: str) -> str:
    """"Ann withdrew the seek": a room waiting for a pairing, withdrawn by its maker."""
    return _("%(name)s withdrew the seek") % {"name": name}


def challenge_withdrawn(name: str) -> str:
    """"Ann withdrew the challenge", by its maker ``name``."""
    return _("%(name)s withdrew the challenge") % {"name": name}


def challenge_declined(name: str, maker: str) -> str:
    """"Bob declined the challenge" (``name`` its addressee's; ``maker``, unsaid, its
    maker's, as every withdrawal is worded of)."""
    del maker
    return _("%(name)s declined the challenge") % {"name": name}


def names_and(names: Sequence[str]) -> str:
    """``Ann``, ``Ann and Bob``, ``Ann, Bob and Cy`` in the language in force, default
    names shown in it (:func:`casino.engine.wording.listing`)."""
    return listing(shown_names(names))


def resignation_words(session: GameSession) -> str | None:
    """"Ann resigned: Bob wins", when the game ended by a resignation (else None)."""
    seat = session.resigned
    if seat is None:
        return None
    return _resigned(session.names[seat], _winners(session))


def _winners(session: GameSession) -> list[str]:
    """The names of the winner's side (none when nobody won)."""
    names, rules, winner = session.names, session.rules, session.winner
    if winner is None:
        return []
    return [names[s] for s in rules.seats if rules.team_of(s) == rules.team_of(winner)]


def _resigned(name: str, winners: Sequence[str]) -> str:
    """"Ann resigned: Bob wins"; without ``winners``, the last person's resignation."""
    name = shown_name(name)
    if not winners:
        return (_("%(name)s resigned, the last person at the table: the game ends without "
                  "a winner") % {"name": name})
    return (ngettext("%(name)s resigned: %(winners)s wins", "%(name)s resigned: %(winners)s win",
                     len(winners)) % {"name": name, "winners": names_and(winners)})


def duration_words(seconds: float) -> str:
    """``3 minutes``, ``1 minute``, ``less than a minute``: how long someone has been away.

    Whole minutes, so the table's notice changes (and is sent again) once a minute.
    """
    minutes = int(seconds // 60)
    if minutes == 0:
        return _("less than a minute")
    return ngettext("%(n)s minute", "%(n)s minutes", minutes) % {"n": minutes}


def away_words(name: str, seconds: float) -> str:
    """"Ann has been away for 3 minutes": the table's notice of a person away on their turn."""
    return _("%(name)s has been away for %(time)s") % {"name": shown_name(name),
                                                       "time": duration_words(seconds)}


def round_words(rules: Rules, names: Sequence[str], number: int,
                scores: Sequence[int]) -> str:
    """"Round 2 is over: Ann 8, Bob 3": round ``number``'s end, with the totals (a game's
    end in Krypkasino, whose scored unit is a game)."""
    # A side is named by all its players: partners share the points.
    names = shown_names(names)
    totals = ", ".join(f"{side_name(rules, names, t)} {total_text(scores[t])}"
                       for t in rules.teams)
    if rules.round_word == "game":
        return _("Game %(n)s is over: %(totals)s") % {"n": number, "totals": totals}
    return _("Round %(n)s is over: %(totals)s") % {"n": number, "totals": totals}


def dealt_words(rules: Rules, names: Sequence[str], number: int, dealer: int) -> str:
    """"Round 3: Ann deals": round ``number`` (Krypkasino's game) is dealt by ``dealer``."""
    words = {"n": number, "name": shown_name(names[dealer])}
    if rules.round_word == "game":
        return _("Game %(n)s: %(name)s deals") % words
    return _("Round %(n)s: %(name)s deals") % words


def ending_teller(session: GameSession, ended: GameEnded) -> Callable[[], str] | None:
    """How the game ended, for the table, as a function that words it in the language in
    force, with the game as it ended: a resignation's words, or the winner's of the last
    round; None for a game the cards ended without a winner (none does)."""
    if ended.resigned is not None:
        seat = session.resigned
        if seat is None:
            return None
        return functools.partial(_resigned, session.names[seat], _winners(session))
    result = session.match.position.result
    if result is None or ended.winner is None:
        return None
    rules, names, before = session.rules, session.names, session.match.current.start.scores
    return lambda: winner_words(result, rules, shown_names(names), before)


def replayed_log(session: GameSession) -> list[LogItem]:
    """The public log of a game loaded from its record."""
    return [log_item(seat, before, move, after, session.names)
            for seat, before, move, after in session.match.played()]


def log_item(seat: int, before: Position, move: Move, after: Position,
             names: Sequence[str]) -> LogItem:
    """A move for the public log, told to everyone and to the player who made it."""
    names = tuple(names)
    return LogItem(before.round, before.deal, seat, str(move),
                   Told(lambda: told_play(before, move, after, seat, shown_names(names))),
                   Told(lambda: told_play(before, move, after, seat, shown_names(names),
                                          reader=seat)))


"""Events read back from the database, told again in each reader's language.

What is stored of an event is its English words (:mod:`casino.web.table_events`). An
event this process made keeps how to word it; one read from the database (after a
restart, or stored by another process serving the same game) has only its English. The
table's own wordings are few, and their words are the game's (its names, rounds and
seats), so each such event is recognised by wording each candidate in English, as it
was stored, and the one that gives the stored words tells it from then on in any
language. An event none of them gives (a move's, whose words the log tells; a clock's)
keeps its stored words.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator, Sequence
from dataclasses import replace

from casino.bots.levels import LEVELS
from casino.engine.record import HINT, RESIGN, TAKEOVER, UNDO, Note
from casino.play.events import GameEnded
from casino.play.session import GameSession
from casino.web.store import WITHDRAWN
from casino.web.table_events import Event, Told
from casino.web.table_words import (
    challenge_declined,
    challenge_withdrawn,
    dealt_words,
    ending_teller,
    joined_words,
    note_words,
    rematch_words,
    round_words,
    seek_withdrawn,
)

#: A candidate wording: to everyone, and to the seat that acted (None: the same).
Wording = tuple[Callable[[], str], Callable[[], str] | None]


def retold(events: Sequence[Event], session: GameSession, creator: int) -> list[Event]:
    """``events`` (of the game ``session`` plays, made by seat ``creator``), each read
    from the database given how to word it in any language when its words are one of
    the table's wordings."""
    return [_retold(e, session, creator) if e.told is None else e for e in events]


def _retold(event: Event, session: GameSession, creator: int) -> Event:
    for say, say_you in _candidates(event, session, creator):
        told = Told(say)
        if told.english() != event.words:
            continue
        told_you = Told(say_you) if say_you is not None and event.words_you else None
        if told_you is not None and told_you.english() != event.words_you:
            continue
        return replace(event, told=told, told_you=told_you)
    return event


def _candidates(event: Event, session: GameSession, creator: int) -> Iterator[Wording]:
    """The wordings ``event`` may have been stored in."""
    names, rules, seat, kind = session.names, session.rules, event.seat, event.kind
    if kind == WITHDRAWN:
        maker = names[creator]
        yield from ((functools.partial(say, maker), None) for say in (
            seek_withdrawn, challenge_withdrawn,
            functools.partial(challenge_declined, names[min(1, len(names) - 1)])))
        return
    if kind == "round_end":
        yield from ((functools.partial(round_words, rules, names, r.number, r.result.scores),
                     None) for r in session.match.rounds if r.result is not None)
        return
    if kind == "game_over":
        ending = ending_teller(session, GameEnded(session.winner, session.resigned))
        if ending is not None:
            yield ending, None
        return
    if seat is None or not 0 <= seat < len(names):
        return
    if kind == "next_round":
        yield from ((functools.partial(dealt_words, rules, names, r.number, seat), None)
                    for r in session.match.rounds if r.dealer == seat)
    elif kind == "joined":
        yield from ((functools.partial(joined_words, names[seat], full),
                     functools.partial(joined_words, None, full)) for full in (True, False))
    elif kind == "rematch":
        yield (functools.partial(rematch_words, names[seat]),
               functools.partial(rematch_words, None))
    elif kind in (HINT, RESIGN, UNDO, TAKEOVER):
        yield from (_note(note, names[seat]) for note in _notes(session, kind, seat))


def _notes(session: GameSession, kind: str, seat: int) -> Iterator[Note]:
    """The notes an event of ``kind`` of ``seat`` may tell: a hint's and a resignation's
    words are the same for every one; a take-back's are its own (the record's); a
    takeover's name the computer's level."""
    if kind in (HINT, RESIGN):
        yield Note(kind, seat, 0, 0)
    elif kind == UNDO:
        yield from (n for n in session.notes if n.kind == UNDO and n.seat == seat)
    else:
        yield from (Note(TAKEOVER, seat, 0, 0, level=level) for level in LEVELS)


def _note(note: Note, name: str) -> Wording:
    return (functools.partial(note_words, note, name),
            functools.partial(note_words, note, name, you=True))

"""A game told step by step: the steps a replay viewer walks through, and the plain dump.

``casino replay FILE`` and ``casino demo`` show a game as a list of
:class:`Step` values: each round's deal, every move (those later taken back
too, then the take-back), and what happened at the table besides the moves
(hints, take-backs, resignations, takeovers), each with the position after
it. The full-screen viewer (:mod:`casino.tui.viewer`) steps back and forth
through them; when the output is not a terminal (or with ``--plain``) they are
printed one after another by :class:`Dump`, which is the text a pipe gets.

Nothing here imports textual, so a piped replay starts fast.

A record holds each round's whole deck, so every position of a recorded game
is known in full: every hand can be shown. A game still being played can be
resumed, so a viewer shows its person's view unless asked for every hand (see
:func:`hides_hands`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TextIO

from casino.engine.match import Match, shuffle_words
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.record import UNDO, Note, Record, transcript
from casino.engine.render import render_position
from casino.engine.rules import Rules, describe
from casino.i18n import _, ngettext, pgettext
from casino.play.names import shown_name, shown_names
from casino.play.session import HUMAN
from casino.words.narrate import YOU, result_lines, told_play, winner_words

#: The kinds of step.
DEAL, MOVE, NOTE = "deal", "move", "note"


@dataclass(frozen=True)
class Step:
    """One step of a game: a round's deal, a move, or a note, with the position after it.

    ``number`` is the move's number in its round (the moves standing before
    it, plus one; 0 for a deal, and for a note the number of moves standing
    after it). ``words`` says what happened in a sentence, with names.
    """

    kind: str
    round: int
    number: int
    position: Position
    words: str
    seat: int | None = None
    move: Move | None = None
    note: Note | None = None

    @property
    def ends_round(self) -> bool:
        """True for the move that ended its round (its result is shown with it)."""
        return self.kind == MOVE and self.position.result is not None


def unit(rules: Rules) -> str:
    """Krypkasino calls its rounds games (a match is several games): ``Round``, ``Game``
    in the language in force (marked in :data:`casino.tui.plain._UNITS`)."""
    return pgettext("unit", rules.round_word).capitalize()


def seat_names(rules: Rules, names: Sequence[str] | None) -> tuple[str, ...]:
    """The names to tell a game with: the record's (its default ones, ``You``,
    ``Computer``, as shown in the language in force), or ``Seat 0``, ``Seat 1`` ... when
    it names nobody (numbered as records, positions and ``casino moves`` number seats)."""
    if names is not None:
        return shown_names(names)
    return tuple(_("Seat %(seat)s") % {"seat": s} for s in rules.seats)


def side_names(rules: Rules, names: Sequence[str]) -> list[str]:
    """For each seat, the name of its side: the player's, or both partners'."""
    if not rules.partnerships:
        return list(names)
    return [" & ".join(names[s] for s in rules.seats if rules.team_of(s) == rules.team_of(seat))
            for seat in rules.seats]


def _sentence(text: str) -> str:
    """``text`` with a full stop, unless it ends with its own (``— a sweep!``)."""
    return text if text.endswith((".", "!", "?")) else text + "."


def deal_step(number: int, dealer: int, start: Position, names: Sequence[str]) -> Step:
    """The first deal of round ``number``."""
    return Step(DEAL, number, 0, start,
                _("%(unit)s %(n)s: %(name)s deals.") % {
                    "unit": unit(start.rules), "n": number, "name": names[dealer]},
                seat=dealer)


def move_step(number: int, seat: int, before: Position, move: Move, after: Position,
              names: Sequence[str]) -> Step:
    """The ``number``-th standing move of its round, told in a sentence."""
    words = _sentence(told_play(before, move, after, seat, names))
    return Step(MOVE, after.round, number, after, words, seat=seat, move=move)


def note_step(note: Note, position: Position, number: int, names: Sequence[str]) -> Step:
    """A note of the record (a hint, a take-back, a resignation, a computer taking over)
    as a step: said of its seat, "you" for the default name (as shown)."""
    name = names[note.seat]
    you = name == shown_name(YOU)
    return Step(NOTE, note.round, number, position, _sentence(note.words(name, you=you)),
                seat=note.seat, note=note)


def record_steps(record: Record) -> list[Step]:
    """Every step of a recorded game, in the order it happened.

    A move later taken back is a step as it was played, then the take-back
    is one (its position is the one the take-back went back to); notes made
    once a round's last card was played follow the move that ended it.
    """
    names = seat_names(record.rules, record.names)
    steps: list[Step] = []
    for rnd in record.rounds:
        steps.append(deal_step(rnd.number, rnd.dealer, rnd.start, names))
        notes = [n for n in record.notes if n.round == rnd.number]
        line = [rnd.start]  # the positions of the round's moves that stand so far
        after: list[Note] = []
        for item in transcript(list(zip(rnd.movers, rnd.moves, strict=True)), notes):
            if isinstance(item, Note):
                if rnd.result is not None and len(line) == len(rnd.positions):
                    after.append(item)  # made once the round was over: told after it
                    continue
                if item.kind == UNDO:
                    del line[len(line) - len(item.taken):]
                steps.append(note_step(item, line[-1], len(line) - 1, names))
                continue
            seat, move = item
            line.append(line[-1].successor(move))
            steps.append(move_step(len(line) - 1, seat, line[-2], move, line[-1], names))
        steps.extend(note_step(n, line[-1], len(line) - 1, names) for n in after)
    return steps


def hides_hands(record: Record) -> int | None:
    """The person's seat when a viewer should show only what they saw, else None.

    A game that is over (or one without people, as ``casino demo`` saves) has
    no secret left: every hand is shown. A game a person may still resume
    would be spoiled by showing the other hands and what is to come, so the
    viewer shows that person's view until asked for everything.
    """
    if record.is_over or record.players is None or HUMAN not in record.players:
        return None
    return record.players.index(HUMAN)


def ending_words(winner: int | None, rules: Rules, names: Sequence[str], over: bool) -> str:
    """The last line of a game: who won, or that it ended without a winner or is unfinished."""
    if winner is not None:
        if rules.partnerships:
            partner = (winner + 2) % rules.players
            return _("Winner: %(name)s and %(partner)s (partners).") % {
                "name": names[winner], "partner": names[partner]}
        return _("Winner: %(name)s.") % {"name": names[winner]}
    if over:
        return _("The game ended without a winner.")
    return _("The game is not finished.")


# ----------------------------------------------------------------------
# The plain dump, for pipes and --plain


class Dump:
    """Prints a game step by step as plain text: what ``casino replay`` and ``casino demo``
    print when their output is not a terminal.

    Each move is its notation, a sentence in words, and the table after it;
    a round's result follows the move that ended it, in counting order with
    running totals, as the terminal game shows it.
    """

    def __init__(self, rules: Rules, names: Sequence[str] | None, out: TextIO,
                 pause: Callable[[], None] | None = None) -> None:
        self.rules = rules
        self.named = names is not None
        self.names = seat_names(rules, names)
        self.out = out
        self.pause = pause

    def echo(self, text: str = "") -> None:
        """One line of the printed game."""
        self.out.write(text + "\n")

    def who(self, seat: int) -> str:
        """``seat 1 (Ann)``: the seat as the positions below number it, with the name."""
        if self.named:
            return _("seat %(seat)s (%(name)s)") % {"seat": seat, "name": self.names[seat]}
        return _("seat %(seat)s") % {"seat": seat}

    def header(self, seed: int | None, first_dealer: int | None = None) -> None:
        """The game's first lines: the rules in a line, the seats (named when the record
        names them), and how the cards were shuffled."""
        self.echo(describe(self.rules)[0])
        if self.named:
            self.echo(_("%(seats)s; %(shuffle)s") % {
                "seats": ", ".join(self.who(s) for s in self.rules.seats),
                "shuffle": shuffle_words(seed)})
        else:
            self.echo(ngettext("%(n)s player, %(shuffle)s", "%(n)s players, %(shuffle)s",
                               self.rules.players)
                      % {"n": self.rules.players, "shuffle": shuffle_words(seed)})

    def step(self, step: Step) -> None:
        """Print one step (and the round's result after the move that ended it)."""
        pos = step.position
        if step.kind == DEAL:
            assert step.seat is not None
            self.echo()
            self.echo(_("=== %(unit)s %(n)s, dealer %(who)s ===") % {
                "unit": unit(self.rules), "n": step.round, "who": self.who(step.seat)})
            self.echo(str(pos))
            return
        if step.kind == NOTE:
            assert step.note is not None
            self.echo()
            self.echo(f"-- {step.words}")
            if step.note.kind == UNDO:
                self.echo(str(pos))
            return
        assert step.seat is not None and step.move is not None
        self.echo()
        self.echo(f"{step.number}. {self.who(step.seat)}: {step.move}")
        self.echo(f"   {step.words}")
        self.echo(render_position(pos, result=False))
        if step.ends_round:
            self.result(step.round, pos)
        if self.pause is not None:
            self.pause()

    def result(self, number: int, pos: Position) -> None:
        """The round's items in counting order, the totals and how the game stands."""
        result = pos.result
        assert result is not None
        rules = self.rules
        sides = side_names(rules, self.names)
        self.echo()
        self.echo(_("Result of %(unit)s %(n)s, in counting order:") % {
            "unit": unit(rules).lower(), "n": number})
        lines = result_lines(result, rules, sides, pos.scores)
        for line in lines:
            self.echo(f"  {line}")
        if not lines:
            self.echo(_("  (no points)"))
        totals = ", ".join(f"{sides[t]} {result.scores[t]}" for t in rules.teams)
        self.echo(_("Totals: %(totals)s") % {"totals": totals})
        self.echo(winner_words(result, rules, sides, pos.scores))

    def ending(self, winner: int | None, over: bool) -> None:
        """Who won (and their partner), or that nobody did, or that the game goes on."""
        self.echo()
        if winner is None:
            self.echo(ending_words(winner, self.rules, self.names, over))
        elif self.rules.partnerships:
            partner = (winner + 2) % self.rules.players
            self.echo(_("Winner: %(name)s and %(partner)s (partners)") % {
                "name": self.who(winner), "partner": self.who(partner)})
        else:
            self.echo(_("Winner: %(name)s") % {"name": self.who(winner)})


def dump_record(record: Record, out: TextIO) -> None:
    """The whole recorded game as text, as ``casino replay`` prints it to a pipe."""
    dump = Dump(record.rules, record.names, out)
    dump.header(record.seed)
    if record.table is not None:
        dump.echo(record.table.words())
    for step in record_steps(record):
        dump.step(step)
    dump.ending(record.winner, record.is_over)


def demo_steps(match: Match, choose: Callable[[Position], Move],
               names: Sequence[str], emit: Callable[[Step], None],
               stop: Callable[[], bool] = lambda: False) -> bool:
    """Play ``match`` to its end with ``choose``, giving each step to ``emit`` as it happens.

    Returns False if ``stop()`` became true first (asked before each move and
    between rounds, so no move is ever half-played and the unfinished game
    can be saved as a valid record).
    """
    while True:
        rnd = match.current
        emit(deal_step(rnd.number, rnd.dealer, match.position, names))
        k = 0
        while match.position.result is None:
            if stop():
                return False
            before = match.position
            seat = before.to_move
            move = choose(before)
            after = match.play(move)
            k += 1
            emit(move_step(k, seat, before, move, after, names))
        if match.winner is not None:
            return True
        if stop():
            return False
        match.next_round()


__all__ = ["DEAL", "MOVE", "NOTE", "Dump", "Step", "deal_step", "demo_steps", "dump_record",
           "ending_words", "hides_hands", "move_step", "note_step", "record_steps",
           "seat_names", "side_names", "unit"]

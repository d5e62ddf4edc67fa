"""Game records, ``casino-record/1``: a line-based text form of a whole game.

Like a chess PGN, a record is meant to be read by people and diffed by tools:
one fact per line, a keyword first. It holds everything needed to replay a
game exactly (the rules, the seed if the game has one, the first dealer, each
round's deck in order and every move), so that :func:`read_record` can replay it with the
engine and check every claim it makes (whose turn it was, the totals, the
winner). A record of an unfinished game is valid too: that is how a game is
saved and resumed. docs/records.md describes the format line by line.

A record also keeps what happened at the table besides the moves, so that a
game between people can be judged fairly afterwards: the table's settings
(``table hints=off takebacks=off``) and, in the order they happened, every
hint given (``hint SEAT``), every take-back with the moves it took back (the
moves stay in the record, then ``undo SEAT N`` takes them back), every
resignation (``resign SEAT``) and every seat a computer took over
(``takeover SEAT LEVEL``). These lines are optional, so older records read as
before, and the game they replay is the same: only the moves that stood count.

Reading never raises anything but :class:`~casino.engine.errors.InvalidRecord`, whose
message starts with the line number where the record went wrong and says why.
"""

from __future__ import annotations

import contextlib
import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

from casino.engine.cards import card_text, parse_card
from casino.engine.errors import CasinoError, InvalidRecord
from casino.engine.files import write_reason
from casino.engine.match import Match, RoundLog
from casino.engine.moves import Move
from casino.engine.position import Position
from casino.engine.rules import Rules, rules_from_json
from casino.engine.scoring import Carry, Result
from casino.engine.wording import noun, plural, times
from casino.i18n import _, ngettext, pgettext, pN_

FORMAT = "casino-record/1"

T = TypeVar("T")

#: Header keywords, in the order they are written.
HEADER_KEYWORDS = ("rules", "seed", "first-dealer", "names", "players", "table")
#: The notes of what happened at the table, written among the moves where it happened.
HINT, UNDO, RESIGN, TAKEOVER = "hint", "undo", "resign", "takeover"
NOTE_KEYWORDS = (HINT, UNDO, RESIGN, TAKEOVER)
#: Every keyword a record may use.
KEYWORDS = (*HEADER_KEYWORDS, "round", "deck", "move", *NOTE_KEYWORDS, "result", "winner",
            "end")
#: The ``seed`` line's word for a game shuffled by the system's random source. The line
#: is written all the same, so that a header which lost its seed line is still an error.
NO_SEED = "none"

_INT = re.compile(r"-?[0-9]{1,100}")
_SEAT = re.compile(r"[0-9]{1,3}")
_PLAIN_NAME = re.compile(r"[^\s\"#]+")
#: A ``players`` word: ``human``, or the level of a computer player (``medium``).
_PLAYER = re.compile(r"[a-z][a-z0-9-]{0,30}")


# ----------------------------------------------------------------------
# The table: its settings and its notes


@dataclass(frozen=True)
class Settings:
    """What the players of a game agreed to allow: hints, and taking back moves.

    They are fixed when the game is created and shown to everyone at the table,
    so that nobody plays with help the others did not agree to.
    """

    hints: bool = True
    takebacks: bool = True

    def line(self) -> str:
        """The record's ``table`` line, as the reader reads it back."""
        return f"table hints={_on(self.hints)} takebacks={_on(self.takebacks)}"

    def words(self) -> str:
        """``Hints off · Take-backs on``, as the table shows them (in the language in
        force)."""
        return _("Hints %(hints)s · Take-backs %(takebacks)s") % {
            "hints": pgettext("setting", ON_OFF[self.hints]),
            "takebacks": pgettext("setting", ON_OFF[self.takebacks])}


#: A setting's state in words, translated where shown (``pgettext("setting", ...)``).
ON_OFF = {True: pN_("setting", "on"), False: pN_("setting", "off")}


def _on(flag: bool) -> str:
    return "on" if flag else "off"


#: One recorded move: the seat that played it, and the move.
Played = tuple[int, Move]


@dataclass(frozen=True)
class Note:
    """Something that happened at the table besides a move, where it happened.

    ``round`` is the round's number and ``moves`` how many moves of that round
    stood just after it (for an undo: after the take-back). An undo keeps the
    moves it took back in ``taken``; a takeover names the computer's ``level``.
    """

    kind: str
    seat: int
    round: int
    moves: int
    taken: tuple[Played, ...] = ()
    level: str = ""

    def line(self) -> str:
        """The note's line in the record (a take-back counts the moves taken, a takeover
        names the level), as the reader reads it back."""
        if self.kind == UNDO:
            return f"{UNDO} {self.seat} {len(self.taken)}"
        if self.kind == TAKEOVER:
            return f"{TAKEOVER} {self.seat} {self.level}"
        return f"{self.kind} {self.seat}"

    def words(self, name: str, *, you: bool = False, level: str | None = None) -> str:
        """The note told to the table (``you``: to the player it is about), in the language
        in force; ``level``: the computer's level as shown (its name by default)."""
        who = {"name": name}
        if self.kind == HINT:
            return _("You asked for a hint") if you else _("%(name)s asked for a hint") % who
        if self.kind == UNDO:
            n = len(self.taken)
            moves = {**who, "n": n, "moves": ", ".join(str(m) for _seat, m in self.taken)}
            return (ngettext("You took back %(n)s move (%(moves)s)",
                             "You took back %(n)s moves (%(moves)s)", n) if you else
                    ngettext("%(name)s took back %(n)s move (%(moves)s)",
                             "%(name)s took back %(n)s moves (%(moves)s)", n)) % moves
        if self.kind == RESIGN:
            return _("You resigned") if you else _("%(name)s resigned") % who
        shown = {**who, "level": level or self.level}
        return (_("The computer (%(level)s) plays for you from now on") % shown if you else
                _("The computer (%(level)s) plays for %(name)s from now on") % shown)


def two_sided(rules: Rules) -> bool:
    """Two players, or two partnerships: a resignation hands the game to the other side."""
    return len(rules.teams) == 2


def resignation_winner(rules: Rules, seat: int) -> int | None:
    """Who wins when ``seat`` resigns: the other side (its first seat), in a two-sided game.

    In a game of more sides a resigning player's seat is taken over by a
    computer and the game goes on; if nobody is left to play it ends without
    a winner. Either way this gives None.
    """
    if not two_sided(rules):
        return None
    return next(t for t in rules.teams if t != rules.team_of(seat))


def resigned_seat(notes: Sequence[Note]) -> int | None:
    """The seat whose resignation ended the game, if one did.

    A resignation that does not end the game is followed at once by the
    takeover of the seat, so the game ended by one exactly when the last note is one.
    """
    return notes[-1].seat if notes and notes[-1].kind == RESIGN else None


def transcript(moves: Sequence[Played], notes: Sequence[Note]) -> list[Played | Note]:
    """One round as it happened: its moves (those taken back too) and its notes, in order.

    ``moves`` are the moves that stood, ``notes`` the round's notes in the
    order they were made. Each note's ``moves`` says how long the round's line
    of moves was just after it, and an undo holds the moves it took back, so
    the line before each note can be rebuilt from the last note backwards;
    ValueError when the notes do not fit the moves.
    """
    befores: list[list[Played]] = []
    line = list(moves)
    for note in reversed(notes):
        if note.moves > len(line):
            raise ValueError(f"a {note.kind} note after {note.moves} moves of round "
                             f"{note.round}, which had {len(line)} moves then")
        line = line[:note.moves]
        if note.kind == UNDO:
            if not note.taken:
                raise ValueError("an undo takes back one move or more")
            line += note.taken
        befores.append(line)
    befores.reverse()
    out: list[Played | Note] = []
    after = 0
    for note, before in zip(notes, befores, strict=True):
        out.extend(before[after:])
        out.append(note)
        after = note.moves
    out.extend(moves[after:])
    return out


# ----------------------------------------------------------------------
# The parsed record


@dataclass(frozen=True)
class RecordRound:
    """One round as recorded and replayed.

    ``positions[0]`` is the position after the round's first deal and
    ``positions[i]`` the position after ``moves[i - 1]``, so there is one more
    position than moves. ``result`` is ``None`` while the round is unfinished.
    """

    number: int
    dealer: int
    deck: tuple[int, ...]
    moves: tuple[Move, ...]
    movers: tuple[int, ...]
    positions: tuple[Position, ...]
    result: Result | None

    @property
    def start(self) -> Position:
        """The round's first position, after its first deal."""
        return self.positions[0]

    @property
    def position(self) -> Position:
        """The round's latest position (scored when the round is over)."""
        return self.positions[-1]


@dataclass(frozen=True)
class Record:
    """A game read from a record and replayed: every round with every position."""

    rules: Rules
    #: The game's seed, or ``None`` for a game shuffled by the system (``seed none``).
    seed: int | None
    first_dealer: int
    names: tuple[str, ...] | None
    rounds: tuple[RecordRound, ...] = field(default=())
    #: Who plays each seat, when the record says: ``human`` or a computer's level.
    players: tuple[str, ...] | None = None
    #: The table's settings, when the record says (records of older servers do not).
    table: Settings | None = None
    #: Hints, take-backs, resignations and takeovers, in the order they happened.
    notes: tuple[Note, ...] = ()

    @property
    def position(self) -> Position:
        """The game's latest position."""
        return self.rounds[-1].position

    @property
    def resigned(self) -> int | None:
        """The seat whose resignation ended the game, if one did."""
        return resigned_seat(self.notes)

    @property
    def winner(self) -> int | None:
        """The winning seat (a partnership's first seat), by the cards or a resignation."""
        if self.resigned is not None:
            return resignation_winner(self.rules, self.resigned)
        result = self.rounds[-1].result if self.rounds else None
        return result.winner if result is not None else None

    @property
    def is_over(self) -> bool:
        """Whether the game was finished: won, or resigned."""
        return self.winner is not None or self.resigned is not None

    def name(self, seat: int) -> str:
        """A seat's player name, or ``seat N`` when the record names nobody."""
        return self.names[seat] if self.names else f"seat {seat}"


# ----------------------------------------------------------------------
# Writing


def write_record(game: Match | Record, names: Sequence[str] | None = None,
                 players: Sequence[str] | None = None, *, table: Settings | None = None,
                 notes: Sequence[Note] | None = None) -> str:
    """The ``casino-record/1`` text of a game, finished or not.

    ``game`` is a :class:`~casino.engine.match.Match` (as played) or a :class:`Record`
    (as read; its names, players, table and notes are kept unless an argument
    replaces them). ``players`` says who plays each seat (``human`` or a
    computer level), so that a saved game resumes with the same opponents;
    ``table`` gives the settings line and ``notes`` what happened at the
    table, in the order it happened (see :class:`Note`).
    """
    rules = game.rules
    if isinstance(game, Record):
        names = game.names if names is None else names
        players = game.players if players is None else players
        table = game.table if table is None else table
        notes = game.notes if notes is None else notes
    notes = tuple(notes or ())
    seed = NO_SEED if game.seed is None else str(game.seed)
    lines = [FORMAT, f"rules {_rules_text(rules)}", f"seed {seed}",
             f"first-dealer {game.first_dealer}"]
    if names is not None:
        lines.append("names " + " ".join(_name_text(n) for n in _check_names(names, rules)))
    if players is not None:
        lines.append("players " + " ".join(_check_players(players, rules)))
    if table is not None:
        lines.append(table.line())
    rounds: Sequence[RoundLog | RecordRound] = game.rounds
    numbers = {rnd.number for rnd in rounds}
    for note in notes:
        if note.round not in numbers:
            raise ValueError(f"a {note.kind} note in round {note.round}, which was not played")
    for rnd in rounds:
        lines.extend(_round_lines(rnd, [n for n in notes if n.round == rnd.number]))
    resigned = resigned_seat(notes)
    winner = resignation_winner(rules, resigned) if resigned is not None else game.winner
    if winner is not None:
        lines.append(f"winner {winner}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def save_record(game: Match | Record, path: str | Path,
                names: Sequence[str] | None = None,
                players: Sequence[str] | None = None, *, table: Settings | None = None,
                notes: Sequence[Note] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (UTF-8).

    The text goes to a temporary file beside ``path`` that then replaces it, so
    a crash while saving leaves the previous record whole.
    """
    write_record_file(path, write_record(game, names, players, table=table, notes=notes))


class SaveError(OSError):
    """A record file that could not be written, said for a person: the file meant and why.

    It is an ``OSError`` (callers that catch those keep working), whose
    ``filename`` is the record's path (never the temporary file written
    first) and whose ``strerror`` is the reason in plain words, so neither
    ``[Errno 2]`` nor a ``.tmp`` name reaches the person.
    """

    def __init__(self, path: Path, reason: str, errno: int | None = None) -> None:
        super().__init__(errno, reason, str(path))
        self.path = path
        self.reason = reason

    def __str__(self) -> str:
        return f"cannot write {self.path}: {self.reason}"


def write_record_file(path: str | Path, text: str) -> None:
    """Write a record's ``text`` to ``path``: the one place every front end saves a record.

    Missing parent folders are created (a game's default folder, or one named
    on the command line or in a Save-as box alike). The text goes to a
    temporary file beside ``path`` that then replaces it, so a crash while
    saving leaves the previous record whole. Any failure is a
    :class:`SaveError` naming ``path`` and the reason in words; a temporary
    file left half-written is removed.
    """
    path = Path(path)
    if path.is_dir():
        raise SaveError(path, "it is a folder; name a file inside it")
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp.write_text(text, encoding="utf-8")
        tmp.replace(path)
    except OSError as exc:
        with contextlib.suppress(OSError):
            tmp.unlink(missing_ok=True)
        raise SaveError(path, write_reason(exc, path), exc.errno) from exc


def _rules_text(rules: Rules) -> str:
    obj = rules.to_json()
    return obj if isinstance(obj, str) else json.dumps(obj, ensure_ascii=False)


def _check_names(names: Sequence[str], rules: Rules) -> list[str]:
    out = [str(n) for n in names]
    if len(out) != rules.players:
        raise ValueError(f"{len(out)} names for {rules.players} players")
    if any(not n.strip() for n in out):
        raise ValueError("a player name cannot be empty")
    return out


def _check_players(players: Sequence[str], rules: Rules) -> list[str]:
    out = [str(p) for p in players]
    if len(out) != rules.players:
        raise ValueError(f"{len(out)} players for a {rules.players}-player game")
    for p in out:
        if not _PLAYER.fullmatch(p):
            raise ValueError(f"a player is 'human' or a computer level, not {p!r}")
    return out


def _name_text(name: str) -> str:
    """A name as one token: bare when it can be, JSON-quoted otherwise."""
    if _PLAIN_NAME.fullmatch(name):
        return name
    return json.dumps(name, ensure_ascii=False)


def _round_lines(rnd: RoundLog | RecordRound, notes: Sequence[Note]) -> list[str]:
    """A round's lines: the notes made once its last card was played follow its result."""
    lines = [f"round {rnd.number} dealer {rnd.dealer}",
             "deck " + " ".join(card_text(c) for c in rnd.deck)]
    items = transcript(list(zip(rnd.movers, rnd.moves, strict=True)), notes)
    after: list[Note] = []
    if rnd.result is not None:
        while items and isinstance(items[-1], Note):
            last = items.pop()
            assert isinstance(last, Note)
            after.insert(0, last)
    lines.extend(item.line() if isinstance(item, Note) else f"move {item[0]} {item[1]}"
                 for item in items)
    if rnd.result is not None:
        scored = ", ".join(f"{i.item} {i.points:+d} seat {i.seat}" for i in rnd.result.items)
        lines.append(f"# {scored}" if scored else "# no points")
        lines.append("result " + " ".join(str(s) for s in rnd.result.scores))
    lines.extend(note.line() for note in after)
    return lines


# ----------------------------------------------------------------------
# Reading


@dataclass(frozen=True)
class _Line:
    number: int
    keyword: str
    rest: str


def load_record(path: str | Path) -> Record:
    """Read and replay the record in the file ``path``.

    A file that cannot be read as UTF-8 text is an :class:`InvalidRecord` too;
    a missing file raises ``OSError`` as usual.
    """
    data = Path(path).read_bytes()
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise InvalidRecord(f"the file is not UTF-8 text (byte {exc.start})") from None
    return read_record(text)


def read_record(text: str) -> Record:
    """Parse ``text`` and replay it with the engine, checking every line.

    Raises :class:`InvalidRecord` (and nothing else) naming the first bad line.
    """
    if not isinstance(text, str):
        raise InvalidRecord(f"a record is text, not {type(text).__name__}")
    lines = _lines(text)
    last = max((n for n, raw in enumerate(text.split("\n"), start=1) if raw.strip()), default=1)
    return _Reader(lines, last).read()


def _lines(text: str) -> list[_Line]:
    """The meaningful lines: blank lines and ``#`` comments are skipped.

    Lines are split at ``\\n`` only (a ``\\r`` before it is dropped), so line
    numbers are the ones an editor shows.
    """
    out = []
    for number, raw in enumerate(text.split("\n"), start=1):
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        keyword, *rest = line.split(None, 1)
        out.append(_Line(number, keyword, rest[0] if rest else ""))
    return out


class _Reader:
    """A cursor over the record's lines that replays the game as it goes."""

    def __init__(self, lines: list[_Line], last: int) -> None:
        self.lines = lines
        self.last = last  # the file's last non-blank line, where a cut-short record ends
        self.i = 0
        self.table: tuple[Settings, int] | None = None  # the settings and their line
        self.notes: list[Note] = []
        self.taken_over: dict[int, int] = {}  # seat -> line of its takeover
        self.takeover_levels: dict[int, tuple[str, int]] = {}
        self.ended: tuple[int, int] | None = None  # (seat, line) of a game-ending resignation

    # --- the cursor ---------------------------------------------------
    def peek(self) -> _Line | None:
        return self.lines[self.i] if self.i < len(self.lines) else None

    def last_number(self) -> int:
        return self.last

    def take(self, expected: str) -> _Line:
        line = self.peek()
        if line is None:
            wanted = "" if expected == "end" else f"expected {expected!r} and "
            raise InvalidRecord(f"the record is cut short: {wanted}no final 'end' line",
                                self.last_number())
        if line.keyword not in KEYWORDS and line.keyword != FORMAT:
            raise InvalidRecord(f"unknown keyword {line.keyword!r}", line.number)
        if line.keyword != expected:
            raise InvalidRecord(f"expected {expected!r}, found {line.keyword!r}", line.number)
        self.i += 1
        return line

    # --- the whole record -----------------------------------------------
    def read(self) -> Record:
        first = self.peek()
        if first is None:
            raise InvalidRecord(f"the record is empty: it must start with {FORMAT!r}", 1)
        if first.keyword != FORMAT or first.rest:
            text = f"{first.keyword} {first.rest}".strip()
            if text.startswith("casino-record/"):
                raise InvalidRecord(f"unsupported format {text!r}; this reader knows {FORMAT}",
                                    first.number)
            raise InvalidRecord(f"a record starts with {FORMAT!r}, not {text[:40]!r}",
                                first.number)
        self.i = 1
        rules, seed, first_dealer, names, players = self.header()
        rounds = self.rounds(rules, first_dealer)
        if self.ended is not None:
            seat, where = self.ended
            line = self.peek()
            if line is not None and line.keyword not in ("winner", "end"):
                raise InvalidRecord(f"the game ended when seat {seat} resigned (line {where}): "
                                    f"only 'winner' and 'end' may follow, not "
                                    f"{line.keyword!r}", line.number)
            winner = resignation_winner(rules, seat)
        else:
            winner = rounds[-1].result.winner if rounds[-1].result is not None else None
        if winner is not None:
            self.winner_line(winner)
        elif (line := self.peek()) is not None and line.keyword == "winner":
            if self.ended is not None:
                raise InvalidRecord(f"nobody won: the game ended when seat {self.ended[0]}, "
                                    f"the last person at the table, resigned (line "
                                    f"{self.ended[1]})", line.number)
            raise InvalidRecord("the game is not over: nobody has won yet", line.number)
        end = self.take("end")
        if end.rest:
            raise InvalidRecord(f"'end' takes nothing after it, not {end.rest[:40]!r}",
                                end.number)
        extra = self.peek()
        if extra is not None:
            raise InvalidRecord("text after 'end'", extra.number)
        if players is not None:
            for seat, (level, where) in self.takeover_levels.items():
                if players[seat] != level:
                    raise InvalidRecord(f"seat {seat} was taken over by {level!r} (line "
                                        f"{where}), but the 'players' line says "
                                        f"{players[seat]!r}", where)
        table = self.table[0] if self.table is not None else None
        return Record(rules, seed, first_dealer, names, tuple(rounds), players, table,
                      tuple(self.notes))

    # --- header -----------------------------------------------------------
    def header(self) -> tuple[Rules, int | None, int, tuple[str, ...] | None,
                              tuple[str, ...] | None]:
        seen: dict[str, _Line] = {}
        while (line := self.peek()) is not None and line.keyword in HEADER_KEYWORDS:
            if line.keyword in seen:
                raise InvalidRecord(f"{line.keyword!r} given twice (first on line "
                                    f"{seen[line.keyword].number})", line.number)
            seen[line.keyword] = line
            self.i += 1
        line = self.peek()
        if line is not None and line.keyword not in KEYWORDS:
            raise InvalidRecord(f"unknown keyword {line.keyword!r}", line.number)
        where = line.number if line is not None else self.last_number()
        for key in ("rules", "seed", "first-dealer"):
            if key not in seen:
                raise InvalidRecord(f"the header has no {key!r} line", where)
        rules = _read_rules(seen["rules"])
        seed = _read_seed(seen["seed"])
        first_dealer = _read_seat(seen["first-dealer"], seen["first-dealer"].rest, rules,
                                  "first-dealer")
        names = _read_names(seen["names"], rules) if "names" in seen else None
        players = _read_players(seen["players"], rules) if "players" in seen else None
        if "table" in seen:
            self.table = _read_table(seen["table"]), seen["table"].number
        return rules, seed, first_dealer, names, players

    # --- rounds -------------------------------------------------------------
    def rounds(self, rules: Rules, first_dealer: int) -> list[RecordRound]:
        rounds: list[RecordRound] = []
        while True:
            line = self.peek()
            if not rounds:
                rounds.append(self.round(rules, first_dealer, None))
                continue
            if line is None or line.keyword != "round" or self.ended is not None:
                return rounds
            prev = rounds[-1]
            if prev.result is None:
                raise InvalidRecord(f"round {prev.number} is not over "
                                    f"({_cards_left(prev.position)}): expected 'move'",
                                    line.number)
            if prev.result.winner is not None:
                raise InvalidRecord(f"the game ended in round {prev.number} (seat "
                                    f"{prev.result.winner} won); write 'winner "
                                    f"{prev.result.winner}', not another round", line.number)
            rounds.append(self.round(rules, first_dealer, prev))

    def round(self, rules: Rules, first_dealer: int, prev: RecordRound | None) -> RecordRound:
        head = self.take("round")
        number, dealer = _read_round_head(head, rules)
        want_number = 1 if prev is None else prev.number + 1
        want_dealer = first_dealer if prev is None else rules.next_seat(prev.dealer)
        if number != want_number:
            raise InvalidRecord(f"round {number} should be round {want_number}", head.number)
        if dealer != want_dealer:
            why = ("the first dealer" if prev is None
                   else f"the deal passes from seat {prev.dealer}")
            raise InvalidRecord(f"round {number} is dealt by seat {want_dealer} ({why}), "
                                f"not seat {dealer}", head.number)
        deck_line = self.take("deck")
        deck = _read_deck(deck_line, rules)
        if prev is None:
            scores: tuple[int, ...] = (0,) * rules.players
            carry = Carry()
        else:
            assert prev.result is not None
            scores = prev.result.scores
            carry = _engine(prev.position.next_carry, deck_line)
        pos = _engine(lambda: Position.start_round(rules, deck, dealer, round=number,
                                                   scores=scores, carry=carry), deck_line)
        positions = [pos]
        moves: list[Move] = []
        movers: list[int] = []
        while (line := self.peek()) is not None and line.keyword in ("move", *NOTE_KEYWORDS):
            self.i += 1
            if pos.result is not None:
                what = "no move can follow its last card" if line.keyword == "move" else \
                    f"its 'result' line comes before {line.keyword!r}"
                raise InvalidRecord(f"round {number} is over: {what} (expected 'result')",
                                    line.number)
            if line.keyword == "move":
                seat, move = _read_move(line, pos)
                pos = _engine(partial(pos.play, move), line)
                positions.append(pos)
                moves.append(move)
                movers.append(seat)
                continue
            self.notes.append(self.note(line, rules, positions, moves, movers, number))
            pos = positions[-1]
            if self.ended is not None:
                break
        result = self.result_line(pos, number)
        while self.ended is None and (line := self.peek()) is not None \
                and line.keyword in NOTE_KEYWORDS and result is not None:
            self.i += 1
            if result.winner is not None:
                raise InvalidRecord(f"the game is over (seat {result.winner} won round "
                                    f"{number}): no {line.keyword!r} can follow it",
                                    line.number)
            if line.keyword in (HINT, UNDO):
                raise InvalidRecord(f"round {number} is over: {_NOT_NOW[line.keyword]}",
                                    line.number)
            self.notes.append(self.note(line, rules, positions, moves, movers, number))
        return RecordRound(number, dealer, deck, tuple(moves), tuple(movers),
                           tuple(positions), result)

    def result_line(self, pos: Position, number: int) -> Result | None:
        line = self.peek()
        if pos.result is None:
            if line is not None and line.keyword == "result":
                raise InvalidRecord(f"round {number} is not over: {_cards_left(pos)}",
                                    line.number)
            return None
        line = self.take("result")
        totals = _read_ints(line, "result", pos.rules.players)
        if totals != pos.result.scores:
            raise InvalidRecord(
                f"round {number} ends with totals {_join(pos.result.scores)}, not "
                f"{_join(totals)}", line.number)
        return pos.result

    def winner_line(self, winner: int) -> None:
        line = self.take("winner")
        seat = _read_int(line, "winner")
        if seat != winner:
            raise InvalidRecord(f"seat {winner} won the game, not {line.rest[:20]}",
                                line.number)

    # --- notes ----------------------------------------------------------------
    def note(self, line: _Line, rules: Rules, positions: list[Position], moves: list[Move],
             movers: list[int], number: int) -> Note:
        """A note line, checked where it stands; an undo takes its moves off the lists."""
        kind = line.keyword
        pos = positions[-1]
        parts = line.rest.split()
        want = _NOTE_FORMS[kind]
        if len(parts) != len(want.split()) - 1:
            raise InvalidRecord(f"expected {want!r}, not {(kind + ' ' + line.rest)[:60]!r}",
                                line.number)
        seat = _read_seat(line, parts[0], rules, f"the seat of {kind!r}")
        if seat in self.taken_over:
            raise InvalidRecord(f"seat {seat} is played by a computer since line "
                                f"{self.taken_over[seat]}: no {kind!r} for it", line.number)
        if kind in (HINT, UNDO) and self.table is not None:
            settings, where = self.table
            if not (settings.hints if kind == HINT else settings.takebacks):
                what = "hints=off" if kind == HINT else "takebacks=off"
                did = "asked for a hint" if kind == HINT else "took back a move"
                raise InvalidRecord(f"the table has {what} (line {where}), yet seat {seat} "
                                    f"{did}", line.number)
        if kind == HINT:
            if pos.to_move != seat:
                raise InvalidRecord(f"seat {seat} asked for a hint, but seat {pos.to_move} is "
                                    "to move: a hint is for the player whose turn it is",
                                    line.number)
            return Note(HINT, seat, number, len(moves))
        if kind == UNDO:
            taken = _take_back(line, seat, _read_count(line, parts[1]), positions, moves,
                               movers, number)
            return Note(UNDO, seat, number, len(moves), taken=taken)
        if kind == TAKEOVER:
            level = parts[1]
            if not _PLAYER.fullmatch(level) or level == "human":
                raise InvalidRecord(f"a takeover names a computer level (as 'medium'), not "
                                    f"{level[:40]!r}", line.number)
            # Right after a resignation of this seat (one of another seat ended the game).
            after_resign = self.lines[self.i - 2].keyword == RESIGN
            if not after_resign and (pos.result is not None or pos.to_move != seat):
                raise InvalidRecord(f"seat {seat} was taken over while it was not its turn: "
                                    "a computer takes over a seat that resigned, or one "
                                    "whose player is away on their turn", line.number)
            self.taken_over[seat] = line.number
            self.takeover_levels[seat] = (level, line.number)
            return Note(TAKEOVER, seat, number, len(moves), level=level)
        # A resignation: the game goes on only where a computer takes the seat over at
        # once (a game of more than two sides); otherwise it ends here.
        following = self.peek()
        goes_on = (not two_sided(rules) and following is not None
                   and following.keyword == TAKEOVER
                   and following.rest.split()[:1] == [str(seat)])
        if not goes_on:
            self.ended = (seat, line.number)
        return Note(RESIGN, seat, number, len(moves))


def _take_back(line: _Line, seat: int, count: int, positions: list[Position],
               moves: list[Move], movers: list[int], number: int) -> tuple[Played, ...]:
    """Take the last ``count`` moves off the round's lists, if ``seat`` may take them back."""
    if count > len(moves):
        raise InvalidRecord(f"'undo' takes back {count} moves, but round {number} has "
                            f"{len(moves)}", line.number)
    first = len(moves) - count
    if movers[first] != seat:
        raise InvalidRecord(f"'undo {seat} {count}' would take back seat {movers[first]}'s "
                            "move first: a take-back starts with the player's own last move",
                            line.number)
    if seat in movers[first + 1:]:
        raise InvalidRecord(f"'undo {seat} {count}' takes back more than seat {seat}'s last "
                            "move and the moves after it", line.number)
    if positions[first].deal != positions[-1].deal:
        raise InvalidRecord(f"'undo {seat} {count}' reaches back into deal "
                            f"{positions[first].deal}: moves are taken back within the "
                            "current deal only", line.number)
    taken = tuple(zip(movers[first:], moves[first:], strict=True))
    del positions[first + 1:], moves[first:], movers[first:]
    return taken


# ----------------------------------------------------------------------
# Line readers: each turns one line into values or an InvalidRecord naming it


def _read_rules(line: _Line) -> Rules:
    text = line.rest
    if not text:
        raise InvalidRecord("'rules' needs a preset name or a JSON rules object", line.number)
    obj: object = text
    if text.startswith("{"):
        try:
            obj = json.loads(text)
        except (ValueError, RecursionError) as exc:
            raise InvalidRecord(f"the rules object is not valid JSON: {exc}",
                                line.number) from None
    elif len(text.split()) != 1:
        raise InvalidRecord(f"'rules' takes one preset name, not {text[:40]!r}", line.number)
    try:
        return rules_from_json(obj)
    except (ValueError, TypeError) as exc:  # TypeError: {"preset": ..., "name": ...}
        raise InvalidRecord(f"bad rules: {exc}", line.number) from None


_NOTE_FORMS = {HINT: "hint SEAT", UNDO: "undo SEAT MOVES", RESIGN: "resign SEAT",
               TAKEOVER: "takeover SEAT LEVEL"}
_NOT_NOW = {HINT: "a hint is asked for on one's turn in a round being played",
            UNDO: "a finished round's moves cannot be taken back"}


def _read_table(line: _Line) -> Settings:
    values: dict[str, bool] = {}
    for word in line.rest.split():
        key, _, value = word.partition("=")
        if key not in ("hints", "takebacks") or value not in ("on", "off") or key in values:
            raise InvalidRecord(f"'table' takes hints=on|off and takebacks=on|off, once "
                                f"each, not {line.rest[:60]!r}", line.number)
        values[key] = value == "on"
    if len(values) != 2:
        raise InvalidRecord(f"'table' takes hints=on|off and takebacks=on|off, once each, "
                            f"not {line.rest[:60]!r}", line.number)
    return Settings(hints=values["hints"], takebacks=values["takebacks"])


def _read_count(line: _Line, text: str) -> int:
    if not _SEAT.fullmatch(text) or int(text) < 1:
        raise InvalidRecord(f"'undo' takes back a number of moves (1 or more), not "
                            f"{text[:40]!r}", line.number)
    return int(text)


def _read_int(line: _Line, what: str) -> int:
    if not _INT.fullmatch(line.rest):
        raise InvalidRecord(f"{what!r} takes a whole number, not {line.rest[:40]!r}",
                            line.number)
    return int(line.rest)


def _read_seed(line: _Line) -> int | None:
    if line.rest == NO_SEED:
        return None
    if not _INT.fullmatch(line.rest):
        raise InvalidRecord(f"'seed' takes a whole number, or {NO_SEED!r} for a game shuffled "
                            f"by the system's random source, not {line.rest[:40]!r}",
                            line.number)
    return int(line.rest)


def _read_ints(line: _Line, what: str, count: int) -> tuple[int, ...]:
    parts = line.rest.split()
    if len(parts) != count or not all(_INT.fullmatch(p) for p in parts):
        raise InvalidRecord(f"{what!r} takes {count} whole numbers (one per seat), not "
                            f"{line.rest[:60]!r}", line.number)
    return tuple(int(p) for p in parts)


def _read_seat(line: _Line, text: str, rules: Rules, what: str) -> int:
    if not _SEAT.fullmatch(text) or int(text) >= rules.players:
        raise InvalidRecord(f"{what} must be a seat from 0 to {rules.players - 1}, not "
                            f"{text[:40]!r}", line.number)
    return int(text)


def _read_names(line: _Line, rules: Rules) -> tuple[str, ...]:
    names: list[str] = []
    text = line.rest
    decoder = json.JSONDecoder()
    pos = 0
    while pos < len(text):
        if text[pos].isspace():
            pos += 1
            continue
        if text[pos] == '"':
            try:
                name, pos = decoder.raw_decode(text, pos)
            except (ValueError, RecursionError):
                raise InvalidRecord("a quoted name must be a JSON string, as \"Ann Lee\"",
                                    line.number) from None
            if not isinstance(name, str) or not name.strip():
                raise InvalidRecord("a player name cannot be empty", line.number)
        else:
            end = pos
            while end < len(text) and not text[end].isspace():
                end += 1
            name, pos = text[pos:end], end
        names.append(name)
    if len(names) != rules.players:
        raise InvalidRecord(f"'names' needs {rules.players} names (one per seat), not "
                            f"{len(names)}", line.number)
    return tuple(names)


def _read_players(line: _Line, rules: Rules) -> tuple[str, ...]:
    words = line.rest.split()
    if len(words) != rules.players:
        raise InvalidRecord(f"'players' needs {rules.players} words (one per seat), not "
                            f"{len(words)}", line.number)
    for w in words:
        if not _PLAYER.fullmatch(w):
            raise InvalidRecord(f"a player is 'human' or a computer level (as 'medium'), "
                                f"not {w[:40]!r}", line.number)
    return tuple(words)


def _read_round_head(line: _Line, rules: Rules) -> tuple[int, int]:
    parts = line.rest.split()
    if (len(parts) != 3 or parts[1] != "dealer" or not _INT.fullmatch(parts[0])
            or int(parts[0]) < 1):
        raise InvalidRecord(f"expected 'round NUMBER dealer SEAT', not "
                            f"{('round ' + line.rest)[:60]!r}", line.number)
    return int(parts[0]), _read_seat(line, parts[2], rules, "the dealer")


def _read_deck(line: _Line, rules: Rules) -> tuple[int, ...]:
    texts = line.rest.split()
    cards = []
    for k, text in enumerate(texts, start=1):
        try:
            cards.append(parse_card(text))
        except CasinoError as exc:
            raise InvalidRecord(f"deck card {k}: {exc}", line.number) from None
    if len(cards) != rules.deck_size:
        raise InvalidRecord(f"the deck has {len(cards)} cards; a {rules.name} deck has "
                            f"{rules.deck_size}", line.number)
    counts = Counter(cards)
    for c in sorted(counts):
        if counts[c] > rules.decks:
            raise InvalidRecord(f"the deck holds {card_text(c)} {times(counts[c])}; a "
                                f"{rules.name} deck holds each card {times(rules.decks)}",
                                line.number)
    return tuple(cards)


def _read_move(line: _Line, pos: Position) -> tuple[int, Move]:
    parts = line.rest.split(None, 1)
    seat_text, text = (parts[0], parts[1]) if len(parts) == 2 else ("", "")
    if not _SEAT.fullmatch(seat_text) or not text:
        raise InvalidRecord(f"expected 'move SEAT MOVE', not {('move ' + line.rest)[:60]!r}",
                            line.number)
    seat = int(seat_text)
    if seat != pos.to_move:
        raise InvalidRecord(f"move {text} is played by seat {seat}, but seat {pos.to_move} is "
                            "to move", line.number)
    try:
        move = pos.parse_move(text)
    except ValueError as exc:  # IllegalMove, MalformedMove (and any stray ValueError)
        raise InvalidRecord(f"move {text} is illegal: {exc}", line.number) from None
    return seat, move


def _engine(call: Callable[[], T], line: _Line) -> T:
    """Run an engine step; its ValueError (a bad deck for the rules, say) names the line."""
    try:
        return call()
    except ValueError as exc:
        raise InvalidRecord(str(exc), line.number) from None


def _cards_left(pos: Position) -> str:
    """How many cards a round still has to play, in words."""
    n = sum(pos.hand_size(s) for s in range(pos.rules.players)) + pos.stock_size
    return f"{plural(n, 'card')} {noun(n, 'is')} still to be played"


def _join(values: Sequence[int]) -> str:
    return " ".join(str(v) for v in values)


# ----------------------------------------------------------------------
# Back to a Match (resuming a saved game)


def match_from_record(record: Record) -> Match:
    """A :class:`Match` in the recorded state, ready to go on playing.

    A seeded game is built from the recorded seed. When every recorded deck is
    the one that seed shuffles (the record was written by this engine, with
    the first dealer cut by the seed or given), the match's generator ends up
    exactly where the original's was, so rounds dealt after resuming are the
    ones the original game would have dealt. A record whose decks come from
    elsewhere (another program) still resumes: its recorded decks are used as
    they are, and later rounds are shuffled by the seeded generator.

    A game without a seed (``seed none``) resumes with its recorded decks, and
    the rounds after them are shuffled by the system's random source, like the
    original game's: nothing in the record tells what they will be.
    """
    match = _seeded_match(record)
    for k, rnd in enumerate(record.rounds):
        if k == 0:
            if match.rounds[0].deck != rnd.deck:
                _replace_first_round(match, record, rnd)
        else:
            if match.seed is not None:
                match.shuffled_deck()  # keeps the generator in step with the original game's
            match.next_round(deck=rnd.deck)
        for move in rnd.moves:
            match.play(move)
    return match


def _seeded_match(record: Record) -> Match:
    """The match whose first deal matches the record: cut by the seed, or dealer given.

    Without a seed, the match's own first deck is the system's and is replaced.
    """
    if record.seed is None:
        return Match(record.rules, first_dealer=record.first_dealer)
    cut = Match(record.rules, seed=record.seed)
    first = record.rounds[0].deck if record.rounds else None
    if cut.first_dealer == record.first_dealer and cut.rounds[0].deck == first:
        return cut
    return Match(record.rules, seed=record.seed, first_dealer=record.first_dealer)


def _replace_first_round(match: Match, record: Record, rnd: RecordRound) -> None:
    """Swap in a first round dealt from the recorded deck (a record from elsewhere)."""
    match.rounds.clear()
    match._start_round(1, record.first_dealer, (0,) * record.rules.players, Carry(), rnd.deck)

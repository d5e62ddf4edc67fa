"""Game records, ``casino-record/1``: a line-based text form of a whole game.

Like a chess PGN, a record is meant to be read by people and diffed by tools:
one fact per line, a keyword first. It holds everything needed to replay a
game exactly (the rules, the seed if the game has one, the first dealer, each
round's deck in order and every move), so that :func:`read_record` can replay it with the
engine and check every claim it makes (whose turn it was, the totals, the
winner). A record of an unfinished game is valid too: that is how a game is
saved and resumed. docs/records.md describes the format line by line.

Reading never raises anything but :class:`~casino.errors.InvalidRecord`, whose
message starts with the line number where the record went wrong and says why.
"""

from __future__ import annotations

import json
import re
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import TypeVar

from casino.cards import card_text, parse_card
from casino.errors import CasinoError, InvalidRecord
from casino.match import Match, RoundLog
from casino.moves import Move
from casino.position import Position
from casino.rules import Rules, rules_from_json
from casino.scoring import Carry, Result

FORMAT = "casino-record/1"

T = TypeVar("T")

#: Header keywords, in the order they are written.
HEADER_KEYWORDS = ("rules", "seed", "first-dealer", "names", "players")
#: Every keyword a record may use.
KEYWORDS = (*HEADER_KEYWORDS, "round", "deck", "move", "result", "winner", "end")
#: The ``seed`` line's word for a game shuffled by the system's random source. The line
#: is written all the same, so that a header which lost its seed line is still an error.
NO_SEED = "none"

_INT = re.compile(r"-?[0-9]{1,100}")
_SEAT = re.compile(r"[0-9]{1,3}")
_PLAIN_NAME = re.compile(r"[^\s\"#]+")
#: A ``players`` word: ``human``, or the level of a computer player (``medium``).
_PLAYER = re.compile(r"[a-z][a-z0-9-]{0,30}")


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

    @property
    def position(self) -> Position:
        """The game's latest position."""
        return self.rounds[-1].position

    @property
    def winner(self) -> int | None:
        result = self.rounds[-1].result if self.rounds else None
        return result.winner if result is not None else None

    @property
    def is_over(self) -> bool:
        return self.winner is not None

    def name(self, seat: int) -> str:
        """A seat's player name, or ``seat N`` when the record names nobody."""
        return self.names[seat] if self.names else f"seat {seat}"


# ----------------------------------------------------------------------
# Writing


def write_record(game: Match | Record, names: Sequence[str] | None = None,
                 players: Sequence[str] | None = None) -> str:
    """The ``casino-record/1`` text of a game, finished or not.

    ``game`` is a :class:`~casino.match.Match` (as played) or a :class:`Record`
    (as read; its names and players are kept unless ``names`` or ``players``
    replaces them). ``players`` says who plays each seat (``human`` or a
    computer level), so that a saved game resumes with the same opponents.
    """
    rules = game.rules
    if isinstance(game, Record):
        names = game.names if names is None else names
        players = game.players if players is None else players
    seed = NO_SEED if game.seed is None else str(game.seed)
    lines = [FORMAT, f"rules {_rules_text(rules)}", f"seed {seed}",
             f"first-dealer {game.first_dealer}"]
    if names is not None:
        lines.append("names " + " ".join(_name_text(n) for n in _check_names(names, rules)))
    if players is not None:
        lines.append("players " + " ".join(_check_players(players, rules)))
    rounds: Sequence[RoundLog | RecordRound] = game.rounds
    for rnd in rounds:
        lines.extend(_round_lines(rnd))
    if game.winner is not None:
        lines.append(f"winner {game.winner}")
    lines.append("end")
    return "\n".join(lines) + "\n"


def save_record(game: Match | Record, path: str | Path,
                names: Sequence[str] | None = None,
                players: Sequence[str] | None = None) -> None:
    """Write the record of ``game`` to ``path`` (UTF-8).

    The text goes to a temporary file beside ``path`` that then replaces it, so
    a crash while saving leaves the previous record whole.
    """
    path = Path(path)
    text = write_record(game, names, players)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(path)


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


def _round_lines(rnd: RoundLog | RecordRound) -> list[str]:
    lines = [f"round {rnd.number} dealer {rnd.dealer}",
             "deck " + " ".join(card_text(c) for c in rnd.deck)]
    lines.extend(f"move {seat} {move}" for seat, move in zip(rnd.movers, rnd.moves, strict=True))
    if rnd.result is not None:
        items = ", ".join(f"{i.item} {i.points:+d} seat {i.seat}" for i in rnd.result.items)
        lines.append(f"# {items}" if items else "# no points")
        lines.append("result " + " ".join(str(s) for s in rnd.result.scores))
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
        winner = rounds[-1].result.winner if rounds[-1].result is not None else None
        if winner is not None:
            self.winner_line(winner)
        elif (line := self.peek()) is not None and line.keyword == "winner":
            raise InvalidRecord("the game is not over: nobody has won yet", line.number)
        end = self.take("end")
        if end.rest:
            raise InvalidRecord(f"'end' takes nothing after it, not {end.rest[:40]!r}",
                                end.number)
        extra = self.peek()
        if extra is not None:
            raise InvalidRecord("text after 'end'", extra.number)
        return Record(rules, seed, first_dealer, names, tuple(rounds), players)

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
        return rules, seed, first_dealer, names, players

    # --- rounds -------------------------------------------------------------
    def rounds(self, rules: Rules, first_dealer: int) -> list[RecordRound]:
        rounds: list[RecordRound] = []
        while True:
            line = self.peek()
            if not rounds:
                rounds.append(self.round(rules, first_dealer, None))
                continue
            if line is None or line.keyword != "round":
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
        while (line := self.peek()) is not None and line.keyword == "move":
            self.i += 1
            if pos.result is not None:
                raise InvalidRecord(f"round {number} is over: no move can follow its last "
                                    "card (expected 'result')", line.number)
            seat, move = _read_move(line, pos)
            pos = _engine(partial(pos.play, move), line)
            positions.append(pos)
            moves.append(move)
            movers.append(seat)
        result = self.result_line(pos, number)
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
            times = "once" if rules.decks == 1 else f"{rules.decks} times"
            raise InvalidRecord(f"the deck holds {card_text(c)} {counts[c]} times; a "
                                f"{rules.name} deck holds each card {times}", line.number)
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
    return "1 card is still to be played" if n == 1 else f"{n} cards are still to be played"


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

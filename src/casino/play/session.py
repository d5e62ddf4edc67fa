"""A game at the table: people and computer players, as a front end drives it.

The terminal game, its plain mode and the web game all need the same things
around a :class:`~casino.engine.match.Match`: whose seat is a person's and which
level each computer plays, the computer's moves one at a time, a hint from the
strongest level, undo within the current deal, a move log in words, and a
record saved after every move so that a game can be resumed and every
finished game is kept. They get them here, so each front end only draws.

The table's fair-play rules live here too, in one place for every front end:
whether hints and take-backs are allowed (:class:`~casino.engine.record.Settings`),
who may take back what, what a resignation does, and when a computer takes
over a person's seat. Each use is noted in the record (:class:`~casino.engine.record.Note`).

A front end shows :attr:`GameSession.view` (the person's observation): the
full position stays inside the session, and the bots are given observations.
"""

from __future__ import annotations

import os
import random
import re
import secrets
import time
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casino.bots.levels import LEVELS, make_level
from casino.engine import legality
from casino.engine.builds import Build
from casino.engine.errors import IllegalMove
from casino.engine.explain import why_illegal
from casino.engine.legality import MoveList, Selected, ranked
from casino.engine.match import Match
from casino.engine.moves import Move
from casino.engine.position import Position, TableItem
from casino.engine.record import (
    HINT,
    RESIGN,
    TAKEOVER,
    UNDO,
    Note,
    Record,
    Settings,
    load_record,
    match_from_record,
    resignation_winner,
    resigned_seat,
    save_record,
    two_sided,
    write_record,
)
from casino.engine.rules import Rules
from casino.engine.scoring import Result
from casino.i18n import _, current, ngettext, pgettext
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
from casino.play.names import shown_names
from casino.words.narrate import YOU, told_play

HUMAN = "human"
#: Told what happened after each change is saved: the session and its events, in order.
ChangeHook = Callable[["GameSession", tuple[SessionEvent, ...]], None]
#: The level whose move a hint suggests: the strongest offered to players.
HINT_LEVEL = "expert"


@dataclass(frozen=True)
class Entry:
    """One move of the log: when it was played, by whom, and in words."""

    round: int
    deal: int
    seat: int
    move: Move
    words: str


@dataclass(frozen=True)
class BotJob:
    """A computer move to think about: everything a worker process needs, and no more.

    It carries the computer seat's observation only, so it can be sent to
    another process (the web server's pool) without revealing anything.
    ``hint``: the job is a person's hint (:meth:`GameSession.hint_job`), which the
    front ends answer with the explained advice of ``casino.teach.hint`` (its
    ``level`` then says how hard the hint thinks); :func:`run_bot_job` answers any
    job with the level's move.
    """

    level: str
    seed: int
    observation: dict[str, Any]
    hint: bool = False
    #: The language a hint's words are written in (the asker's, :mod:`casino.i18n`):
    #: a worker process or thread does not share the asker's language in force.
    lang: str = "en"


def run_bot_job(job: BotJob) -> str:
    """Think about ``job`` and return the chosen move's text (runs in any process)."""
    bot, limit = make_level(job.level, seed=job.seed)
    return str(bot.choose(job.observation, limit))


def default_settings(people: int) -> Settings:
    """The settings a table gets unless told otherwise.

    Playing alone against computers, hints and take-backs are a way to learn;
    between people (``people`` > 1) they would be help the others did not
    agree to, so they are off until the table's creator turns them on.
    """
    alone = people <= 1
    return Settings(hints=alone, takebacks=alone)


def default_names(players: Sequence[str], rules: Rules, you: str = YOU) -> list[str]:
    """``You`` for the first person, ``Computer``, or ``Partner``/``Left``/``Right``..."""
    human = next((s for s, p in enumerate(players) if p == HUMAN), 0)
    names: list[str] = []
    n = rules.players
    for seat, who in enumerate(players):
        if seat == human:
            names.append(you)
        elif who == HUMAN:
            names.append(f"Player {seat + 1}")
        elif n == 2:
            names.append("Computer")
        elif rules.partnerships and rules.team_of(seat) == rules.team_of(human):
            names.append("Partner")
        else:
            names.append(("Left", "Across", "Right")[(seat - human) % n - 1] if n == 4
                         else ("Left", "Right")[(seat - human) % n - 1])
    return names


#: The longest name a player may give (the web table's default limit too).
NAME_LENGTH = 24

_SPACES = re.compile(r"\s+")


def player_name(raw: str | None, default: str = YOU, limit: int = NAME_LENGTH) -> str:
    """A name fit for the table and the record, as every front end takes it.

    Control characters are dropped and runs of spaces made one; a blank name
    is no name, so the player is called ``default`` (as the web lobby's empty
    field is), never "You ()". ValueError when it is longer than ``limit``.
    """
    if raw is None:
        return default
    text = "".join(ch for ch in raw if unicodedata.category(ch)[0] != "C")
    text = _SPACES.sub(" ", text).strip()
    if not text:
        return default
    if len(text) > limit:
        raise ValueError(f"a name has at most {limit} characters, not {len(text)}")
    return text


def games_folder() -> Path:
    """The folder games are saved in unless told otherwise: the user's data folder (XDG)."""
    base = os.environ.get("XDG_DATA_HOME") or str(Path.home() / ".local" / "share")
    return Path(base) / "casino" / "games"


def default_save_path(rules: Rules, seed: int | None) -> Path:
    """Where a game is saved unless told otherwise: a new file in :func:`games_folder`.

    The name says when the game started, its rules and its seed, if it has one
    (a game shuffled by the system has none to show). Two games started in the
    same second get different names (``.2``, ``.3`` ...), so neither overwrites the other.
    """
    stamp = time.strftime("%Y%m%d-%H%M%S")
    stem = f"{stamp}-{rules.name}" + ("" if seed is None else f"-{seed}")
    folder = games_folder()
    path = folder / f"{stem}.rec"
    copy = 1
    while path.exists():
        copy += 1
        path = folder / f"{stem}.{copy}.rec"
    return path


class GameSession:
    """A game in progress with its players; every change is saved when ``save_path`` is set.

    ``players`` has one word per seat: ``human`` or a level (``beginner`` ...
    ``expert``). The session never moves for a person: the front end calls
    :meth:`play` with the person's move and :meth:`computer_move` when
    :attr:`computer_to_move` is true.
    """

    def __init__(self, match: Match, players: Sequence[str], names: Sequence[str] | None = None,
                 *, save_path: Path | None = None, hint_level: str = HINT_LEVEL,
                 on_change: ChangeHook | None = None,
                 settings: Settings | None = None, notes: Sequence[Note] = ()) -> None:
        rules = match.rules
        players = tuple(players)
        if len(players) != rules.players:
            raise ValueError(f"{len(players)} players for a {rules.players}-player game")
        for p in players:
            if p != HUMAN and p not in LEVELS:
                raise ValueError(f"a player is {HUMAN!r} or a level ({', '.join(LEVELS)}), "
                                 f"not {p!r}")
        if HUMAN not in players:
            raise ValueError("a game at the table needs a person in one seat")
        if hint_level not in LEVELS:
            raise ValueError(f"unknown hint level {hint_level!r}")
        self.match = match
        self._view: tuple[Position, int, Position] | None = None
        self.players = players
        self.names = tuple(names) if names is not None else tuple(default_names(players, rules))
        if len(self.names) != rules.players:
            raise ValueError(f"{len(self.names)} names for a {rules.players}-player game")
        self.human = players.index(HUMAN)
        self.settings = settings if settings is not None else default_settings(
            players.count(HUMAN))
        #: Hints, take-backs, resignations and takeovers, in the order they happened.
        self.notes: list[Note] = list(notes)
        self._bot_seed = bot_seed(match)
        self.save_path = save_path
        #: Told each change, as events (:mod:`casino.play.events`), once it is saved.
        self.on_change = on_change
        self._hint_level = hint_level
        self.log: list[Entry] = self._replayed_log()
        self._save()

    # ------------------------------------------------------------------
    # Starting and resuming

    @classmethod
    def new(cls, rules: Rules, *, level: str = "medium", seed: int | None = None,
            you: str = YOU, human_seat: int = 0, save_path: Path | None = None,
            autosave: bool = True) -> GameSession:
        """A new game with one person (seat ``human_seat``) and computers at ``level``.

        ``you`` is the person's name, taken as :func:`player_name` takes it: a blank one
        is no name (``You``); ValueError when it is too long."""
        you = player_name(you)
        if not 0 <= human_seat < rules.players:
            raise ValueError(f"seat {human_seat} is not a seat of a {rules.players}-player game")
        match = Match(rules, seed=seed)
        players = [HUMAN if s == human_seat else level for s in range(rules.players)]
        if autosave and save_path is None:
            save_path = default_save_path(rules, match.seed)
        return cls(match, players, default_names(players, rules, you),
                   save_path=save_path if autosave else None)

    @classmethod
    def resume(cls, path: Path, *, level: str = "medium", autosave: bool = True) -> GameSession:
        """The game saved in the record at ``path``; it goes on saving there.

        A record without a ``players`` line (written by another program, or by
        ``casino demo``) is resumed with the person in seat 0 and computers at
        ``level``. InvalidRecord says what is wrong with a damaged file.
        """
        record = load_record(path)
        players = record.players or tuple(HUMAN if s == 0 else level
                                          for s in range(record.rules.players))
        return cls(match_from_record(record), players, record.names,
                   save_path=path if autosave else None, settings=record.table,
                   notes=record.notes)

    # ------------------------------------------------------------------
    # What the front end shows

    @property
    def rules(self) -> Rules:
        """The ruleset being played."""
        return self.match.rules

    @property
    def view(self) -> Position:
        """The person's observation: their hand, the table, the piles; the rest as counts.

        The same object until the game moves on, so what the engine works out about it
        (its moves, a card's options) is worked out once per position."""
        pos = self.match.position
        kept = self._view
        if kept is None or kept[0] is not pos or kept[1] != self.human:
            kept = self._view = (pos, self.human, pos.observe(self.human))
        return kept[2]

    def view_of(self, seat: int) -> Position:
        """What ``seat`` may see (for a game with several people)."""
        return self.match.position.observe(seat)

    @property
    def to_move(self) -> int:
        """The seat whose turn it is."""
        return self.match.position.to_move

    @property
    def round_over(self) -> bool:
        """Whether the round has been scored: the result is shown until :meth:`next_round`."""
        return self.match.position.result is not None

    @property
    def resigned(self) -> int | None:
        """The seat whose resignation ended the game, if one did."""
        return resigned_seat(self.notes)

    @property
    def game_over(self) -> bool:
        """Whether the game is over: won by the cards, or by a resignation."""
        return self.match.is_over or self.resigned is not None

    @property
    def winner(self) -> int | None:
        """The winning seat (a partnership's first seat): by the cards, or a resignation."""
        if self.resigned is not None:
            return resignation_winner(self.rules, self.resigned)
        return self.match.winner

    @property
    def result(self) -> Result | None:
        """The result of the round just finished, while it is shown."""
        return self.match.position.result

    @property
    def scores_before_round(self) -> tuple[int, ...]:
        """The totals the current round began with (the round's result is told against
        them)."""
        return self.match.current.start.scores

    @property
    def human_to_move(self) -> bool:
        """Whether a person is to move now (not between rounds, not after the end)."""
        return not self.round_over and not self.game_over \
            and self.players[self.to_move] == HUMAN

    @property
    def computer_to_move(self) -> bool:
        """Whether a computer is to move now: the front end runs :meth:`computer_move`."""
        return not self.round_over and not self.game_over \
            and self.players[self.to_move] != HUMAN

    def level_of(self, seat: int) -> str | None:
        """The level of the computer at ``seat``, or None for a person."""
        p = self.players[seat]
        return None if p == HUMAN else p

    # A crowded table (Finnish Kasino lets people trail until 20-odd cards lie there)
    # has hundreds of thousands of legal moves: nothing here lists them all. Lists come
    # from the engine's bounded questions (every move only on a small table), and a
    # typed move is checked on its own (Position.parse_move).

    def candidate_moves(self) -> MoveList:
        """The person's moves to offer: every legal move on a small table, a bounded
        selection on a crowded one (``complete`` False); empty when it is not their
        turn (:meth:`Position.candidate_moves`). Worked out once per position."""
        if not self.human_to_move:
            return MoveList((), True)
        view = self.view
        if legality.is_small(view):
            return view.memo("session:candidates", view.candidate_moves)
        # Crowded: the engine's candidates are each card's moves_of, so the cards'
        # options (kept per card, as a picked card asks for them) make them up.
        lists = [self.options_of(c) for c in sorted(set(view.hand(self.human)))]
        return MoveList(tuple(m for found in lists for m in found.moves),
                        all(found.complete for found in lists))

    def legal_moves(self) -> list[Move]:
        """:meth:`candidate_moves` as a list: the person's legal moves on a small table;
        on a crowded one, a bounded selection of them."""
        return list(self.candidate_moves().moves)

    def options_of(self, card: int) -> MoveList:
        """The person's moves that play ``card``, ranked (the biggest captures first,
        the trail last): all of them on a small table, else a bounded selection."""
        if not self.human_to_move:
            return MoveList((), True)
        view = self.view

        def ranked_moves() -> MoveList:
            found = view.moves_of(card)
            return MoveList(tuple(ranked(found.moves)), found.complete)
        return view.memo(f"session:options:{card}", ranked_moves)

    def moves_with(self, card: int) -> list[Move]:
        """:meth:`options_of` as a list."""
        return list(self.options_of(card).moves)

    def moves_using(self, card: int, items: Sequence[TableItem]) -> Selected:
        """The person's moves of ``card`` that use the picked table ``items``: those
        using exactly them, and some (all, when ``complete``) using them and more."""
        if not self.human_to_move:
            return Selected((), (), True)
        loose = [x for x in items if isinstance(x, int)]
        builds = [x for x in items if isinstance(x, Build)]
        return legality.moves_with(self.view, card, loose, builds)

    # ------------------------------------------------------------------
    # Playing

    def play(self, move: Move | str, seat: int | None = None) -> Entry:
        """Play a person's move (a Move or its text); IllegalMove says why and changes nothing.

        ``seat`` is the person playing (by default the session's person); it
        must be a person's seat and their turn.
        """
        seat = self.human if seat is None else seat
        refusal = self.why_no_play(seat)
        if refusal is not None:
            raise IllegalMove(refusal)
        return self._apply(self._legal(self.view_of(seat), move))

    def why_no_play(self, seat: int | None = None) -> str | None:
        """Why ``seat`` (the person, by default) may not play a move now, in words; None
        when it may.

        The one answer to "is play allowed now?" for every front end: the web offers
        moves, answers a card's options and takes a move by it, and :meth:`play`
        refuses with its words.
        """
        seat = self.human if seat is None else seat
        if self.game_over:
            return _("the game is over")
        if self.round_over:
            return (_("the game is over: start the next game first")
                    if self.rules.round_word == "game" else
                    _("the round is over: start the next round first"))
        if not 0 <= seat < self.rules.players or self.players[seat] != HUMAN:
            return _("seat %(seat)s is not a person's seat") % {"seat": seat}
        if seat != self.to_move:
            return _("it is %(name)s's turn, not yours") % {"name": self.names[self.to_move]}
        return None

    def may_play(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (the person, by default) may play a move now
        (:meth:`why_no_play` says why not)."""
        return self.why_no_play(seat) is None

    @staticmethod
    def _legal(view: Position, move: Move | str) -> Move:
        if isinstance(move, str):
            return view.parse_move(move)
        if not view.is_legal(move):
            raise IllegalMove(why_illegal(view, move))
        return move

    def bot_job(self) -> BotJob:
        """The computer move to think about now (see :func:`run_bot_job`)."""
        if not self.computer_to_move:
            raise ValueError("it is not a computer's turn")
        seat = self.to_move
        seed = _seat_seed(self._bot_seed, seat) + len(self.log)
        return BotJob(self.players[seat], seed, self.match.position.observation(seat))

    def play_computer(self, move: Move | str) -> Entry:
        """Play the move a computer chose (from :meth:`bot_job`), checked like any other."""
        if not self.computer_to_move:
            raise ValueError("it is not a computer's turn")
        return self._apply(self._legal(self.match.position, move))

    def computer_move(self) -> Entry:
        """Let the computer whose turn it is choose and play its move (this takes its time)."""
        return self.play_computer(run_bot_job(self.bot_job()))

    def _apply(self, move: Move) -> Entry:
        before = self.match.position
        seat = before.to_move
        after = self.match.play(move)
        entry = Entry(before.round, before.deal, seat, move,
                      self._say(before, move, after, seat))
        self.log.append(entry)
        events: list[SessionEvent] = [MovePlayed(seat, before, move, after)]
        if after.result is not None:
            events.append(RoundEnded(after, self.scores_before_round))
            if self.game_over:
                events.append(GameEnded(self.winner))
        self._save(*events)
        return entry

    def next_round(self) -> Position:
        """Deal the next round once the result of this one has been shown."""
        if self.resigned is not None:
            raise IllegalMove(_("the game is over"))
        pos = self.match.next_round()
        self._save(RoundDealt(pos))
        return pos

    # ------------------------------------------------------------------
    # Hints

    def why_no_hint(self, seat: int | None = None) -> str | None:
        """Why ``seat`` may not have a hint now, in words; None when it may."""
        seat = self.human if seat is None else seat
        if not self.settings.hints:
            return _("hints are off at this table")
        if self.game_over:
            return _("the game is over")
        if self.round_over or seat != self.to_move or self.players[seat] != HUMAN:
            return _("a hint is for your own turn")
        return None

    def may_hint(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (the person, by default) may have a hint now
        (:meth:`why_no_hint` says why not)."""
        return self.why_no_hint(seat) is None

    def hint_job(self, seat: int | None = None) -> BotJob:
        """A hint's think for a person's turn, from what that person sees: the hint
        level's, marked as a hint (the front ends explain it: ``casino.teach.hint``).

        IllegalMove says why when the table has hints off or it is not their turn.
        """
        seat = self.human if seat is None else seat
        refusal = self.why_no_hint(seat)
        if refusal is not None:
            raise IllegalMove(refusal)
        return BotJob(self._hint_level, _seat_seed(self._bot_seed, 99) + len(self.log),
                      self.match.position.observation(seat), hint=True, lang=current())

    def hint_given(self, seat: int | None = None) -> None:
        """Note in the record that ``seat`` was shown a hint on this turn."""
        seat = self.human if seat is None else seat
        refusal = self.why_no_hint(seat)
        if refusal is not None:
            raise IllegalMove(refusal)
        self._save(NoteAdded(self._note(HINT, seat)))

    def _note(self, kind: str, seat: int, **more: Any) -> Note:
        note = Note(kind, seat, self.match.position.round, len(self.match.current.moves),
                    **more)
        self.notes.append(note)
        return note

    # ------------------------------------------------------------------
    # Undo

    def _undo_span(self, seat: int) -> int | str:
        """How many moves an undo by ``seat`` takes back, or why it may not, in words.

        The rule of every table with take-backs on: a person takes back their
        own last move of the current deal (new cards dealt since would be seen
        again), with the computers' moves after it, as long as no other person
        has moved since. Against the computer that is "undo my move and its
        replies"; between people, a move can be taken back until the next
        person plays.
        """
        if not self.settings.takebacks:
            return _("take-backs are off at this table")
        if self.game_over:
            return _("the game is over")
        if not 0 <= seat < self.rules.players or self.players[seat] != HUMAN:
            return _("only a person's own moves can be taken back")
        nothing = _("nothing to undo: only your moves in this deal can be taken back")
        if self.round_over:
            return nothing
        pos = self.match.position
        movers = self.match.current.movers
        for back, mover in enumerate(reversed(movers), start=1):
            if mover == seat:
                entry = self.log[-back]
                if entry.round == pos.round and entry.deal == pos.deal:
                    return back
                return nothing
            if self.players[mover] == HUMAN:
                return (_("%(name)s has moved since: a move can be taken back only until "
                          "another player moves") % {"name": self.names[mover]})
        return nothing

    def why_no_undo(self, seat: int | None = None) -> str | None:
        """Why ``seat`` may not take back a move now, in words; None when it may."""
        span = self._undo_span(self.human if seat is None else seat)
        return span if isinstance(span, str) else None

    def may_undo(self, seat: int | None = None) -> bool:
        """Whether ``seat`` (the person, by default) may take back a move now
        (:meth:`why_no_undo` says why not)."""
        return self.why_no_undo(seat) is None

    @property
    def can_undo(self) -> bool:
        """True when the person has a move in this deal to take back."""
        return self.may_undo()

    def undo(self, seat: int | None = None) -> list[Entry]:
        """Take back ``seat``'s last move and the computer moves after it (see :meth:`_undo_span`).

        IllegalMove says why not. Returns the entries taken back; the record
        keeps them, with a note of the take-back.
        """
        seat = self.human if seat is None else seat
        span = self._undo_span(seat)
        if isinstance(span, str):
            raise IllegalMove(span)
        taken = self.log[-span:]
        self.match.take_back(span)
        del self.log[-span:]
        note = self._note(UNDO, seat, taken=tuple((e.seat, e.move) for e in taken))
        self._save(MovesTakenBack(note))
        return taken

    # ------------------------------------------------------------------
    # Resigning, and computers taking over seats

    def resign(self, seat: int, level: str) -> bool:
        """``seat``'s player resigns; True when that ends the game.

        In a two-sided game (two players, or two partnerships) the other side
        wins at once. In a game of more sides a computer at ``level`` takes
        the seat over and the others play on, unless nobody would be left to
        play: then the game ends there, and nobody wins.
        """
        if self.game_over:
            raise IllegalMove(_("the game is over"))
        if not 0 <= seat < self.rules.players or self.players[seat] != HUMAN:
            raise IllegalMove(_("a computer plays this seat: there is nobody to resign"))
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        resigned = NoteAdded(self._note(RESIGN, seat))
        ends = self._resigning_ends(seat)
        if ends:
            self._save(resigned, GameEnded(self.winner, resigned=seat))
        else:
            self._save(resigned, self._take(seat, level))
        return ends

    def _resigning_ends(self, seat: int) -> bool:
        others = [s for s, p in enumerate(self.players) if p == HUMAN and s != seat]
        return two_sided(self.rules) or not others

    def resign_words(self, seat: int) -> str | None:
        """What resigning would do for ``seat``, in words; None when it may not resign."""
        if self.game_over or not 0 <= seat < self.rules.players \
                or self.players[seat] != HUMAN:
            return None
        if two_sided(self.rules):
            return _("the other side wins at once")
        if self._resigning_ends(seat):
            return _("the game ends without a winner: nobody else is left to play")
        return _("a computer plays your seat from then on, and the others play on")

    def why_no_takeover(self, seat: int) -> str | None:
        """Why a computer may not take over ``seat`` now (its player away), or None.

        A seat is taken over on its player's turn only: that is when an absent
        player holds up the game. (How long they must have been away is the
        front end's to say.)
        """
        if self.game_over:
            return _("the game is over")
        if not 0 <= seat < self.rules.players:
            return _("there is no seat %(seat)s") % {"seat": seat}
        name = {"name": self.names[seat]}
        if self.players[seat] != HUMAN:
            return _("a computer plays for %(name)s already") % name
        if self.players.count(HUMAN) == 1:
            return _("%(name)s is the only person at this table") % name
        if self.round_over or self.to_move != seat:
            return _("it is not %(name)s's turn: nobody is waiting for them") % name
        return None

    def take_over(self, seat: int, level: str) -> None:
        """A computer at ``level`` plays ``seat`` from now on, its player being away."""
        refusal = self.why_no_takeover(seat)
        if refusal is not None:
            raise IllegalMove(refusal)
        if level not in LEVELS:
            raise ValueError(f"unknown level {level!r}")
        self._save(self._take(seat, level))

    def _take(self, seat: int, level: str) -> SeatTakenOver:
        self.players = tuple(level if s == seat else p for s, p in enumerate(self.players))
        note = self._note(TAKEOVER, seat, level=level)
        if seat == self.human:
            self.human = self.players.index(HUMAN)
        return SeatTakenOver(note)

    # ------------------------------------------------------------------
    # Saving

    def record_text(self) -> str:
        """The game's ``casino-record/1`` text: moves, players, settings and notes."""
        return write_record(self.match, self.names, self.players, table=self.settings,
                            notes=self.notes)

    def _save(self, *events: SessionEvent) -> None:
        """Write the record (when the session saves), then tell the hook what happened."""
        if self.save_path is not None:
            save_record(self.match, self.save_path, self.names, self.players,
                        table=self.settings, notes=self.notes)
        if self.on_change is not None and events:
            self.on_change(self, events)

    def save_as(self, path: Path) -> None:
        """Write the record to ``path`` now; later moves keep saving there.

        Missing folders on the way are created. If it cannot be written
        (:class:`~casino.engine.record.SaveError` says why), nothing changes: the game
        goes on saving where it did.
        """
        before = self.save_path
        self.save_path = path
        try:
            self._save()
        except OSError:
            self.save_path = before
            raise

    def _replayed_log(self) -> list[Entry]:
        """The move log of a resumed game, told again from its rounds."""
        return [Entry(before.round, before.deal, seat, move,
                      self._say(before, move, after, seat))
                for seat, before, move, after in self.match.played()]

    def _say(self, before: Position, move: Move, after: Position, seat: int) -> str:
        """A move in words: "You take ..." for the person, "Computer takes ..." otherwise."""
        return told_play(before, move, after, seat, self.shown_names, reader=self.human)

    @property
    def shown_names(self) -> tuple[str, ...]:
        """The players' names as shown: the default ones (``You``, ``Computer``) in the
        language in force, while :attr:`names` (the record's) stay as given."""
        return shown_names(self.names)

    def describe_players(self) -> list[str]:
        """``You``, ``Computer (medium)``: each seat's name (as shown) and who plays it."""
        out = []
        for seat, name in enumerate(self.shown_names):
            level = self.level_of(seat)
            shown = LEVELS[level].shown_name() if level in LEVELS else level
            out.append(name if level is None else f"{name} ({shown})")
        return out


def bot_seed(match: Match) -> int:
    """The seed the computers of ``match`` are seeded from.

    It is the game's seed, so that a seeded game plays the same every time; a
    game without one gets a fresh seed, which need not be secret (a computer
    sees only its observation, never the hidden cards).
    """
    return match.seed if match.seed is not None else secrets.randbits(32)


def _seat_seed(seed: int, seat: int) -> int:
    """A bot's seed from the session's, so a seeded game plays the same every time."""
    return random.Random(seed * 1000 + seat).getrandbits(32)


# ----------------------------------------------------------------------
# Saved games: "continue my last game"


@dataclass(frozen=True)
class SavedGame:
    """A game saved in :func:`games_folder`, read back: what a list of saved games shows."""

    path: Path
    #: When it was last saved (the file's modification time, seconds since the epoch).
    saved: float
    record: Record

    @property
    def finished(self) -> bool:
        """Whether the saved game was played to its end (won or resigned): nothing to
        continue."""
        return self.record.is_over

    @property
    def moves(self) -> int:
        """The moves the record holds, every round's."""
        return sum(len(r.moves) for r in self.record.rounds)

    def words(self) -> str:
        """One line: the rules, who plays, how far it got, the score and when it was saved.

        ``Casino · You vs Computer (medium) · round 2, 31 moves · You 7, Computer 9 ·
        saved 12 May 14:03``.
        """
        rec = self.record
        rules = rec.rules
        players = rec.players or tuple(HUMAN if s == 0 else "computer" for s in rules.seats)
        names = shown_names(rec.names or tuple(default_names(players, rules)))
        people = [n if p == HUMAN else f"{n} ({p})" for n, p in zip(names, players, strict=True)]
        pos = rec.position
        scores = pos.result.scores if pos.result is not None else pos.scores
        score = ", ".join(f"{names[t]} {scores[t]}" for t in rules.teams)
        moves = self.moves
        state = _("finished") if self.finished else ngettext(
            "%(unit)s %(round)s, %(n)s move", "%(unit)s %(round)s, %(n)s moves", moves) % {
                "unit": pgettext("unit", rules.round_word), "round": pos.round, "n": moves}
        # The date's format is the language's (a month's name would be English in C).
        when = time.strftime(_("%d %b %H:%M"), time.localtime(self.saved))
        return _("%(rules)s · %(people)s · %(state)s · %(score)s · saved %(when)s") % {
            "rules": rules.name, "people": pgettext("list", " vs ").join(people),
            "state": state, "score": score, "when": when}


def saved_games(folder: Path | None = None, *, limit: int = 20,
                unfinished: bool = False) -> list[SavedGame]:
    """The games saved in ``folder`` (:func:`games_folder`), the most recently saved first.

    At most ``limit`` of them; with ``unfinished`` only those that can be
    continued. Files that are not readable records are left out: a list of
    games to continue has no use for them (``casino replay FILE`` says what is
    wrong with one).
    """
    folder = games_folder() if folder is None else folder
    try:
        files = [(p.stat().st_mtime, p) for p in folder.glob("*.rec") if p.is_file()]
    except OSError:
        return []
    out: list[SavedGame] = []
    for mtime, path in sorted(files, key=lambda f: (f[0], f[1].name), reverse=True):
        if len(out) >= limit:
            break
        try:
            record = load_record(path)
        except (OSError, ValueError):
            continue
        game = SavedGame(path, mtime, record)
        if unfinished and game.finished:
            continue
        out.append(game)
    return out


def last_saved_game(folder: Path | None = None) -> SavedGame | None:
    """The unfinished game saved most recently in ``folder``, for ``casino play --continue``."""
    found = saved_games(folder, limit=1, unfinished=True)
    return found[0] if found else None

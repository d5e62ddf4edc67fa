"""The ``casino`` command: rules summaries, legal moves, replays and a demo game.

A thin layer over the engine's public API (rules, Position, Match, records):
every input error is printed as one line on stderr with exit code 2, never as
a traceback, because the engine's errors already say what was wrong and why.

The engine, the bots, the terminal app and the web server are imported inside
the commands that use them, never at the top of this module: ``casino --help``,
``casino CMD --help`` and shell completion (which runs this module on every Tab)
then cost little more than typer itself (docs/benchmarks.md, "The command line";
tests/test_cli.py checks what ``--help`` imports).
"""

from __future__ import annotations

import sys
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import typer
from typer.core import TyperCommand, TyperGroup

from casino import __version__
from casino.files import Action, file_error
from casino.helper_cli import helper_command
from casino.names import LEVELS, RULESETS, choices
from casino.scorepad_cli import score_command
from casino.web.cli import serve_command

if TYPE_CHECKING:
    from rich.console import Console

    from casino.arena import ArenaResult
    from casino.match import Match
    from casino.moves import Move
    from casino.position import Position
    from casino.record import Note, Record
    from casino.rules import Rules
    from casino.scoring import Result
    from casino.session import GameSession
    from casino.stats import Estimate


def _plain_labels(params: list[Any]) -> list[Any]:
    """Help labels that say what to type: none for a flag (it takes no value, so no
    ``<bool>``), and an argument's choices (``RULESET``: ``casino | kasino | ...``)
    instead of ``<str>``."""
    for param in params:
        if getattr(param, "is_flag", False) and param.metavar is None:
            param.metavar = ""
        label = ARGUMENT_CHOICES.get(param.metavar or "")
        if param.param_type_name == "argument" and label is not None:
            param.display_type_rich = lambda ctx, label=label: label
    return params


class _Command(TyperCommand):
    """A command whose flags (``-h/--help`` too) show no ``<bool>`` label in help."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))


class _Group(TyperGroup):
    """The ``casino`` group, whose flags (completion's too) show no ``<bool>`` label."""

    def get_params(self, ctx: Any) -> list[Any]:
        return _plain_labels(super().get_params(ctx))


#: ``-h`` as well as ``--help``, for every command (click passes it down the contexts).
CONTEXT = {"help_option_names": ["-h", "--help"]}

app = typer.Typer(
    help="Casino and its family of fishing card games: rules, moves, records, demo.",
    no_args_is_help=True,
    # --install-completion / --show-completion: completion runs this module on each Tab,
    # which the lazy imports above keep quick.
    add_completion=True,
    pretty_exceptions_enable=False,
    context_settings=CONTEXT,
    cls=_Group,
)


def command(name: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """``app.command(name)`` with the help option above."""
    return app.command(name, cls=_Command)


#: Shown for options that take a ruleset or a level, with shell completion of the names.
RULES_CHOICES = choices(RULESETS)
LEVEL_CHOICES = choices(LEVELS)
#: An argument's metavar (its name in help), and the choices shown as its type.
ARGUMENT_CHOICES = {"RULESET": RULES_CHOICES}


def complete_rules(incomplete: str) -> list[str]:
    """The rulesets that start with what was typed (shell completion)."""
    return [n for n in RULESETS if n.startswith(incomplete)]


def complete_level(incomplete: str) -> list[str]:
    """The levels that start with what was typed (shell completion)."""
    return [n for n in LEVELS if n.startswith(incomplete)]


#: A computer player: the move to play in a position.
Chooser = Callable[["Position"], "Move"]

#: Exit code for bad input (the same code typer uses for a bad command line).
EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``message`` on stderr and stop with exit code 2."""
    typer.echo(f"casino: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


def fail_file(exc: OSError | UnicodeDecodeError, path: str | Path,
              action: Action = "read") -> NoReturn:
    """Stop with the words of :func:`casino.files.file_error` for ``path``."""
    fail(file_error(exc, path, action))


def _version(value: bool) -> None:
    if value:
        typer.echo(f"casino {__version__}")
        raise typer.Exit()


@app.callback()
def root(
    version: Annotated[bool, typer.Option("--version", callback=_version, is_eager=True,
                                          help="Print the version and exit.")] = False,
) -> None:
    """Casino and its family of fishing card games."""


def _rules(name: str, players: int | None) -> Rules:
    from casino.errors import CasinoError
    from casino.rules import preset

    try:
        return preset(name) if players is None else preset(name, players=players)
    except CasinoError as exc:
        fail(str(exc))


# ----------------------------------------------------------------------
# casino rules


@command("rules")
def rules_command(
    name: Annotated[str, typer.Argument(metavar="RULESET", help="The ruleset.",
                                        autocompletion=complete_rules)],
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players.")] = None,
    show_guide: Annotated[bool, typer.Option(
        "--guide", "-g", help="Print how to play it, with a worked example, instead "
                              "of the summary.")] = False,
) -> None:
    """Print a readable summary of a ruleset (--guide: how to play it)."""
    from casino.guide import text_lines
    from casino.rules import describe

    ruleset = _rules(name, players)
    if show_guide:
        for line in text_lines(name):
            typer.echo(line)
        return
    for line in describe(ruleset):
        typer.echo(line)
    typer.echo("")
    typer.echo(f"How to play, with a worked example: casino rules {name} --guide "
               "(or docs/how-to-play.md).")


# ----------------------------------------------------------------------
# casino moves


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, path)


@command("moves")
def moves_command(
    position: Annotated[str, typer.Argument(help="A casino-position/1 JSON file, or - "
                                                 "for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list "
                                                                     "of move texts.")] = False,
) -> None:
    """List the legal moves of a position, one per line in canonical notation.

    On a crowded table (hundreds of thousands of moves) the list is a selection, the
    strongest moves of each card, and says so. The count line goes to standard error,
    so that standard output is the moves alone, ready for a pipe."""
    from casino.errors import CasinoError
    from casino.position import Position

    text = _read_input(position)
    try:
        pos = Position.from_json(text)
        found = pos.candidate_moves()
    except CasinoError as exc:
        fail(str(exc))
    texts = [str(m) for m in found.moves]
    note = ("the table is crowded: this is a selection of the legal moves (the strongest "
            "of each card), not all of them")
    if as_json:
        import json

        if not found.complete:
            typer.echo(f"casino: {note}", err=True)
        typer.echo(json.dumps(texts, ensure_ascii=False))
        return
    if pos.result is not None:
        typer.echo("0 legal moves: the round is over", err=True)
        return
    plural = "" if len(texts) == 1 else "s"
    if found.complete:
        typer.echo(f"{len(texts)} legal move{plural} for seat {pos.to_move}:", err=True)
    else:
        typer.echo(f"{len(texts)} legal move{plural} for seat {pos.to_move}, a selection ("
                   f"{note.split(': ')[0]}: too many to list):", err=True)
    for t in texts:
        typer.echo(t)


# ----------------------------------------------------------------------
# Printing a game (shared by replay and demo)


class Printer:
    """Prints a game as it goes: each move with the table after it, results, winner."""

    def __init__(self, rules: Rules, names: tuple[str, ...] | None = None,
                 delay: float = 0.0) -> None:
        self.rules = rules
        self.names = names
        self.delay = delay

    def who(self, seat: int) -> str:
        return f"seat {seat} ({self.names[seat]})" if self.names else f"seat {seat}"

    @property
    def unit(self) -> str:
        """Krypkasino calls its rounds games (a match is several games)."""
        return "Game" if self.rules.scoring == "krypkasino" else "Round"

    def header(self, seed: int | None) -> None:
        from casino.match import shuffle_words
        from casino.rules import describe

        typer.echo(describe(self.rules)[0])
        typer.echo(f"{self.rules.players} players, {shuffle_words(seed)}")

    def round_start(self, number: int, dealer: int, pos: Position) -> None:
        typer.echo("")
        typer.echo(f"=== {self.unit} {number}, dealer {self.who(dealer)} ===")
        typer.echo(str(pos))

    def move(self, index: int, seat: int, move: Move, pos: Position) -> None:
        typer.echo("")
        typer.echo(f"{index}. {self.who(seat)}: {move}")
        typer.echo(str(pos))
        if self.delay > 0:
            import time

            time.sleep(self.delay)

    def result(self, number: int, result: Result) -> None:
        typer.echo("")
        typer.echo(f"Result of {self.unit.lower()} {number}, in counting order:")
        width = max((len(i.item) for i in result.items), default=0)
        for item in result.items:
            typer.echo(f"  {item.item:<{width}}  {item.points:+d}  {self.who(item.seat)}")
        if not result.items:
            typer.echo("  (no points)")
        totals = ", ".join(f"{self.who(s)} {t}" for s, t in enumerate(result.scores))
        typer.echo(f"Totals: {totals}")

    def note(self, note: Note) -> None:
        """A hint, take-back, resignation or takeover, where it happened."""
        typer.echo("")
        name = self.names[note.seat] if self.names else f"Seat {note.seat}"
        typer.echo(f"-- {note.words(f'{name} (seat {note.seat})' if self.names else name)}")

    def winner(self, seat: int) -> None:
        typer.echo("")
        if self.rules.partnerships:
            partner = (seat + 2) % self.rules.players
            typer.echo(f"Winner: {self.who(seat)} and {self.who(partner)} (partners)")
        else:
            typer.echo(f"Winner: {self.who(seat)}")


# ----------------------------------------------------------------------
# casino replay


@command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A casino-record/1 file.")],
) -> None:
    """Replay a game record move by move, checking every move with the engine."""
    from casino.errors import InvalidRecord
    from casino.record import load_record

    try:
        record = load_record(file)
    except InvalidRecord as exc:
        fail(f"{file}: {exc}")
    except (OSError, UnicodeDecodeError) as exc:
        fail_file(exc, file)
    print_record(record)


def print_record(record: Record) -> None:
    """The whole recorded game, as ``casino replay`` shows it.

    Hints, take-backs, resignations and takeovers are told where they
    happened; moves later taken back are shown as they were played, then the
    take-back.
    """
    from casino.record import UNDO, Note, transcript

    out = Printer(record.rules, record.names)
    out.header(record.seed)
    if record.table is not None:
        typer.echo(record.table.words())
    for rnd in record.rounds:
        out.round_start(rnd.number, rnd.dealer, rnd.start)
        notes = [n for n in record.notes if n.round == rnd.number]
        line = [rnd.start]  # the positions of the round's moves that stand so far
        after: list[Note] = []
        for item in transcript(list(zip(rnd.movers, rnd.moves, strict=True)), notes):
            if isinstance(item, Note):
                if rnd.result is not None and len(line) == len(rnd.positions):
                    after.append(item)  # made once the round was over: told after its result
                    continue
                out.note(item)
                if item.kind == UNDO:
                    del line[len(line) - len(item.taken):]
                    typer.echo(str(line[-1]))
                continue
            seat, move = item
            line.append(line[-1].successor(move))
            out.move(len(line) - 1, seat, move, line[-1])
        if rnd.result is not None:
            out.result(rnd.number, rnd.result)
        for note in after:
            out.note(note)
    if record.winner is not None:
        out.winner(record.winner)
    elif record.is_over:
        typer.echo("")
        typer.echo("The game ended without a winner.")
    else:
        typer.echo("")
        typer.echo("The game is not finished.")


# ----------------------------------------------------------------------
# casino demo


def level_player(level: str, seed: int, players: int) -> Chooser:
    """Computer players at ``level``, one per seat, each given only its observation."""
    from casino.bots.levels import make_level

    bots = [make_level(level, seed=seed * 10 + seat) for seat in range(players)]

    def choose(pos: Position) -> Move:
        bot, limit = bots[pos.to_move]
        return bot.choose(pos.observation(pos.to_move), limit)

    return choose


@command("demo")
def demo_command(
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=RULES_CHOICES,
                                       autocompletion=complete_rules,
                                       help="The ruleset.")] = "casino",
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Seed for repeatable shuffles and players; without it the "
                             "system's random source shuffles.")] = None,
    delay: Annotated[float | None, typer.Option(
        "--delay", help="Seconds to pause after each move (default 0.3 on a terminal, "
                        "else 0).", min=0.0)] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record to "
                                                             "this file.")] = None,
    level: Annotated[str, typer.Option("--level", "-l", metavar=LEVEL_CHOICES,
                                       autocompletion=complete_level,
                                       help="The computer players' level.")] = "easy",
) -> None:
    """Watch a whole game between computer players, move by move."""
    from casino.match import Match
    from casino.session import bot_seed

    ruleset = _rules(rules, players)
    if level not in LEVELS:
        fail(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if delay is None:
        delay = 0.3 if sys.stdout.isatty() else 0.0
    match = Match(ruleset, seed=seed)
    choose = level_player(level, bot_seed(match), ruleset.players)
    out = Printer(ruleset, delay=delay)
    out.header(match.seed)
    with _interrupt_flag() as interrupted:
        finished = play_demo(match, choose, out, stop=interrupted)
    if save is not None:
        _save(match, save)
    if not finished:
        typer.echo("\ninterrupted", err=True)
        raise typer.Exit(130)


@contextmanager
def _interrupt_flag() -> Iterator[Callable[[], bool]]:
    """Turn Ctrl-C into a flag checked between moves, so no move is ever half-played
    (the unfinished game can then be saved as a valid record)."""
    hit: list[bool] = []

    def handler(signum: int, frame: object) -> None:
        hit.append(True)

    import signal

    try:
        old = signal.signal(signal.SIGINT, handler)
    except ValueError:  # not the main thread: leave Ctrl-C alone
        yield lambda: False
        return
    try:
        yield lambda: bool(hit)
    finally:
        signal.signal(signal.SIGINT, old)


def play_demo(match: Match, choose: Chooser, out: Printer,
              stop: Callable[[], bool] = lambda: False) -> bool:
    """Play ``match`` to its end with ``choose``, printing as it goes.

    Returns False if ``stop()`` became true first (checked after each move).
    """
    while True:
        rnd = match.current
        out.round_start(rnd.number, rnd.dealer, match.position)
        k = 0
        while match.position.result is None:
            if stop():
                return False
            seat = match.position.to_move
            move = choose(match.position)
            k += 1
            out.move(k, seat, move, match.play(move))
        assert match.position.result is not None
        out.result(rnd.number, match.position.result)
        if match.winner is not None:
            out.winner(match.winner)
            return True
        if stop():
            return False
        match.next_round()


def _save(match: Match, path: Path) -> None:
    from casino.record import save_record

    try:
        save_record(match, path)
    except OSError as exc:
        fail_file(exc, path, "write")
    typer.echo(f"record saved to {path}", err=True)


# ----------------------------------------------------------------------
# casino play


def _play_session(rules: str, players: int | None, level: str, seed: int | None, name: str,
                  resume: Path | None, save: Path | None, no_save: bool) -> GameSession:
    """The session ``casino play`` starts: resumed from a record, or a new game."""
    from casino.errors import CasinoError
    from casino.session import GameSession

    if level not in LEVELS:
        fail(f"unknown level {level!r}; the levels are {', '.join(LEVELS)}")
    if resume is not None:
        try:
            session = GameSession.resume(resume, level=level, autosave=not no_save)
        except (OSError, UnicodeDecodeError) as exc:
            fail_file(exc, resume)
        except (CasinoError, ValueError) as exc:
            fail(f"cannot resume {resume}: {exc}")
        if save is not None:
            session.save_as(save)
        return session
    ruleset = _rules(rules, players)
    try:
        return GameSession.new(ruleset, level=level, seed=seed, you=name, save_path=save,
                               autosave=not no_save)
    except OSError as exc:
        # Without --save the record goes to the default folder: name the file it wanted.
        target = save if save is not None else str(exc.filename or "the game record")
        fail_file(exc, str(target).removesuffix(".tmp"), "write")
    except ValueError as exc:
        fail(str(exc))


@command("play")
def play_command(
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=RULES_CHOICES,
                                       autocompletion=complete_rules,
                                       help="The ruleset.")] = "casino",
    players: Annotated[int | None, typer.Option(
        "--players", "-p", help="Number of players where the rules allow more than two; "
                                "the computer fills the other seats.")] = None,
    level: Annotated[str, typer.Option(
        "--level", "-l", metavar=LEVEL_CHOICES, autocompletion=complete_level,
        help="The computer's level.")] = "medium",
    seed: Annotated[int | None, typer.Option(
        "--seed", "-s", help="Seed for repeatable shuffles (practice); without it the "
                             "system's random source shuffles and no seed is kept.")] = None,
    name: Annotated[str, typer.Option("--name", help="Your name in the record.")] = "You",
    resume: Annotated[Path | None, typer.Option("--resume", help="Go on with the game "
                                                "saved in this record.")] = None,
    save: Annotated[Path | None, typer.Option(
        "--save", help="Save the game record here (after every move) instead of the "
                       "default folder.")] = None,
    no_save: Annotated[bool, typer.Option("--no-save", help="Do not save a "
                                          "record of the game.")] = False,
    plain: Annotated[bool, typer.Option(
        "--plain", help="Line by line, without full-screen drawing (screen readers, "
                        "pipes).")] = False,
    pause: Annotated[float | None, typer.Option(
        "--pause", min=0.0, help="Seconds to show each computer move (default 0.8 on a "
                                 "terminal, else 0).")] = None,
) -> None:
    """Play against the computer in the terminal (full screen, or --plain)."""
    from casino.session import HUMAN, GameSession

    if save is not None and no_save:
        fail("--save and --no-save contradict each other")
    session = _play_session(rules, players, level, seed, name, resume, save, no_save)
    ruleset, level_used = session.rules, next(
        (p for p in session.players if p != HUMAN), level)

    latest = [session]

    def new_game() -> GameSession:
        latest.append(GameSession.new(ruleset, level=level_used, you=name,
                                      autosave=not no_save))
        return latest[-1]

    if pause is None:
        pause = 0.8 if sys.stdout.isatty() else 0.0
    if plain or not sys.stdout.isatty():
        from casino.tui.plain import run_plain

        run_plain(session, new_game, stdin=sys.stdin, stdout=sys.stdout, pause=pause)
    else:
        from casino.tui.app import run_app

        run_app(session, new_game, pause=pause)
    for played in latest:
        if played.save_path is not None:
            typer.echo(f"game record saved to {played.save_path} "
                       f"(resume with: casino play --resume {played.save_path})", err=True)


# ----------------------------------------------------------------------
# casino arena


def _pct(e: Estimate) -> str:
    return f"{100 * e.value:.1f}% [{100 * e.low:.1f}, {100 * e.high:.1f}]"


def _num(e: Estimate | None) -> str:
    if e is None:
        return "-"
    import math

    if not (math.isfinite(e.low) and math.isfinite(e.high)):
        return f"{e.value:+.2f}"
    return f"{e.value:+.2f} [{e.low:+.2f}, {e.high:+.2f}]"


def print_arena(result: ArenaResult, console: Console) -> None:
    """The arena's report: pairings, ratings (more than two bots), think times."""
    from rich.table import Table

    table = Table(title="Pairings (mirrored pairs; 95% intervals)")
    for col in ("A", "B", "games", "A wins", "B wins", "undecided", "A score",
                "A margin per round"):
        table.add_column(col, justify="left" if col in ("A", "B") else "right")
    for pr in result.pairings:
        table.add_row(pr.a, pr.b, str(len(pr.games)), str(pr.wins_a), str(pr.wins_b),
                      str(pr.undecided), _pct(pr.score_a()), _num(pr.margin()))
    console.print(table)
    ratings = result.ratings
    if ratings is not None and len(result.pairings) > 1:
        anchor = result.players[ratings.anchor]
        rt = Table(title=f"Bradley–Terry ratings, {anchor} = 1000",
                   caption=f"95% percentile bootstrap over mirrored pairs, "
                           f"{ratings.samples} samples")
        rt.add_column("#", justify="right")
        rt.add_column("bot")
        rt.add_column("Elo", justify="right")
        rt.add_column("interval", justify="right")
        order = sorted(range(len(result.players)), key=lambda i: -ratings.elo[i])
        for rank, i in enumerate(order, start=1):
            rt.add_row(str(rank), result.players[i], f"{ratings.elo[i]:.0f}",
                       f"[{ratings.low[i]:.0f}, {ratings.high[i]:.0f}]")
        console.print(rt)
    tt = Table(title="Think time per decision (forced moves not timed)")
    tt.add_column("bot")
    for col in ("decisions", "median", "p95", "max"):
        tt.add_column(col, justify="right")
    for name, st in result.think().items():
        tt.add_row(name, str(st.decisions), _secs(st.median), _secs(st.p95), _secs(st.max))
    console.print(tt)


def _secs(t: float) -> str:
    return f"{t * 1000:.1f} ms" if t < 1 else f"{t:.2f} s"


@command("arena")
def arena_command(
    bots: Annotated[list[str], typer.Argument(help="Two bots for a pairing, three or more "
                                                   "for a round robin; level:NAME is a "
                                                   "player level, with its own limit.")],
    rules: Annotated[str, typer.Option("--rules", "-r", metavar=RULES_CHOICES,
                                       autocompletion=complete_rules,
                                       help="The ruleset.")] = "casino",
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players (two bots sit "
                                                     "alternately).")] = None,
    games: Annotated[int, typer.Option("--games", "-n", min=1,
                                       help="Mirrored pairs of games per pairing.")] = 100,
    seed: Annotated[int | None, typer.Option("--seed", "-s", help="Seed of the deals and "
                                                                  "the bots; random if "
                                                                  "not given.")] = None,
    jobs: Annotated[int, typer.Option("--jobs", "-j", min=1,
                                      help="Worker processes.")] = 1,
    seconds: Annotated[float | None, typer.Option("--seconds", min=0.0,
                                                  help="Think time limit per move (not for "
                                                       "levels).")] = None,
    iterations: Annotated[int | None, typer.Option("--iterations", min=1,
                                                   help="Iteration limit per move (not for "
                                                        "levels).")] = None,
    neighbours: Annotated[bool, typer.Option(
        "--neighbours", help="Round robin: pair each bot only with the next one "
                             "listed.")] = False,
    max_rounds: Annotated[int, typer.Option("--max-rounds", min=1,
                                            help="Stop a game undecided after this many "
                                                 "rounds.")] = 50,
    bootstrap: Annotated[int, typer.Option("--bootstrap", min=0,
                                           help="Bootstrap samples for the rating "
                                                "intervals.")] = 1000,
    out: Annotated[Path | None, typer.Option("--out", "-o", help="Write the JSON result "
                                                                 "file here.")] = None,
    plot: Annotated[Path | None, typer.Option("--plot", help="Draw the ratings as a PNG "
                                                             "here.")] = None,
    progress: Annotated[bool | None, typer.Option(
        "--progress/--no-progress",
        help="Show a progress bar (default: when standard error is a terminal).")] = None,
) -> None:
    """Play bots against each other on mirrored deals and measure them."""
    import random

    from rich.console import Console

    from casino.arena import game_seeds, run_pairing, run_round_robin
    from casino.bots import check_name, level_of
    from casino.bots.base import Limit
    from casino.rules import describe

    if len(bots) < 2:
        fail("give at least two bots")
    for b in bots:
        try:
            check_name(b)
        except ValueError as exc:
            fail(str(exc))
    if len(bots) > 2 and len(set(bots)) != len(bots):
        fail("a round robin needs distinct bots")
    ruleset = _rules(rules, players)
    if seed is None:
        seed = random.SystemRandom().getrandbits(32)
    seeds = game_seeds(seed, games)
    given = Limit(seconds=seconds, iterations=iterations)
    # A level plays with its own limit, as players meet it; the options set the bots'.
    limits = {b: level.limit if (level := level_of(b)) is not None else given for b in bots}
    if progress is None:
        progress = sys.stderr.isatty()
    if len(bots) == 2:
        result = run_pairing(bots[0], bots[1], ruleset, seeds, limits[bots[0]],
                             limits[bots[1]], jobs,
                             max_rounds=max_rounds, progress=progress, bootstrap=bootstrap,
                             bootstrap_seed=seed)
    else:
        result = run_round_robin(bots, ruleset, seeds, limits, jobs,
                                 schedule="neighbours" if neighbours else "all",
                                 max_rounds=max_rounds, progress=progress,
                                 bootstrap=bootstrap, bootstrap_seed=seed)
    result.settings["seed"] = seed
    # Off a terminal rich would wrap the tables at 80 columns.
    console = Console(width=None if sys.stdout.isatty() else 132)
    console.print(f"{describe(ruleset)[0]}; seed {seed}; {games} mirrored pairs per pairing")
    print_arena(result, console)
    # The command line that reproduces this run (the seed made explicit).
    command = ["casino", "arena", *bots, "--rules", rules, "--games", str(games),
               "--seed", str(seed), "--jobs", str(jobs), "--max-rounds", str(max_rounds),
               "--bootstrap", str(bootstrap)]
    for flag, value in (("--players", players), ("--seconds", seconds),
                        ("--iterations", iterations), ("--out", out), ("--plot", plot)):
        if value is not None:
            command += [flag, str(value)]
    if neighbours:
        command.append("--neighbours")
    if out is not None:
        try:
            result.write_json(out, command=command)
        except OSError as exc:
            fail_file(exc, out, "write")
        typer.echo(f"results written to {out}", err=True)
    if plot is not None and result.ratings is not None:
        try:
            result.plot(plot)
        except OSError as exc:
            fail_file(exc, plot, "write")
        typer.echo(f"ratings plot written to {plot}", err=True)


command("score")(score_command)
command("helper")(helper_command)
command("serve")(serve_command)


def main() -> None:
    """The console entry point (``casino``)."""
    app()


if __name__ == "__main__":
    main()

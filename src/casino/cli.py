"""The ``casino`` command: rules summaries, legal moves, replays and a demo game.

A thin layer over the engine's public API (rules, Position, Match, records):
every input error is printed as one line on stderr with exit code 2, never as
a traceback, because the engine's errors already say what was wrong and why.
"""

from __future__ import annotations

import json
import random
import signal
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from casino import __version__
from casino.errors import CasinoError, InvalidRecord
from casino.match import Match
from casino.moves import Move
from casino.position import Position
from casino.record import Record, load_record, save_record
from casino.rules import PRESET_NAMES, Rules, describe, preset
from casino.scoring import Result

app = typer.Typer(
    help="Casino and its family of fishing card games: rules, moves, records, demo.",
    no_args_is_help=True,
    add_completion=False,
    pretty_exceptions_enable=False,
)

#: A computer player: the move to play in a position.
Chooser = Callable[[Position], Move]

#: Exit code for bad input (the same code typer uses for a bad command line).
EXIT_BAD_INPUT = 2


def fail(message: str) -> NoReturn:
    """Print ``message`` on stderr and stop with exit code 2."""
    typer.echo(f"casino: {message}", err=True)
    raise typer.Exit(EXIT_BAD_INPUT)


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
    try:
        return preset(name) if players is None else preset(name, players=players)
    except CasinoError as exc:
        fail(str(exc))


# ----------------------------------------------------------------------
# casino rules


@app.command("rules")
def rules_command(
    name: Annotated[str, typer.Argument(help=f"A preset: {', '.join(PRESET_NAMES)}.")],
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players.")] = None,
) -> None:
    """Print a readable summary of a ruleset."""
    for line in describe(_rules(name, players)):
        typer.echo(line)


# ----------------------------------------------------------------------
# casino moves


def _read_input(path: str) -> str:
    if path == "-":
        return sys.stdin.read()
    try:
        return Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        fail(f"cannot read {path}: {exc}")


@app.command("moves")
def moves_command(
    position: Annotated[str, typer.Argument(help="A casino-position/1 JSON file, or - "
                                                 "for standard input.")],
    as_json: Annotated[bool, typer.Option("--json", help="Print a JSON list of move "
                                                         "texts.")] = False,
) -> None:
    """List the legal moves of a position, one per line in canonical notation."""
    text = _read_input(position)
    try:
        pos = Position.from_json(text)
        legal = pos.legal_moves()
    except CasinoError as exc:
        fail(str(exc))
    texts = [str(m) for m in legal]
    if as_json:
        typer.echo(json.dumps(texts, ensure_ascii=False))
        return
    if pos.result is not None:
        typer.echo("0 legal moves: the round is over")
        return
    plural = "" if len(texts) == 1 else "s"
    typer.echo(f"{len(texts)} legal move{plural} for seat {pos.to_move}:")
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

    def header(self, seed: int) -> None:
        typer.echo(describe(self.rules)[0])
        typer.echo(f"{self.rules.players} players, seed {seed}")

    def round_start(self, number: int, dealer: int, pos: Position) -> None:
        typer.echo("")
        typer.echo(f"=== {self.unit} {number}, dealer {self.who(dealer)} ===")
        typer.echo(str(pos))

    def move(self, index: int, seat: int, move: Move, pos: Position) -> None:
        typer.echo("")
        typer.echo(f"{index}. {self.who(seat)}: {move}")
        typer.echo(str(pos))
        if self.delay > 0:
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

    def winner(self, seat: int) -> None:
        typer.echo("")
        if self.rules.partnerships:
            partner = (seat + 2) % self.rules.players
            typer.echo(f"Winner: {self.who(seat)} and {self.who(partner)} (partners)")
        else:
            typer.echo(f"Winner: {self.who(seat)}")


# ----------------------------------------------------------------------
# casino replay


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A casino-record/1 file.")],
) -> None:
    """Replay a game record move by move, checking every move with the engine."""
    try:
        record = load_record(file)
    except InvalidRecord as exc:
        fail(f"{file}: {exc}")
    except OSError as exc:
        fail(f"cannot read {file}: {exc}")
    print_record(record)


def print_record(record: Record) -> None:
    """The whole recorded game, as ``casino replay`` shows it."""
    out = Printer(record.rules, record.names)
    out.header(record.seed)
    for rnd in record.rounds:
        out.round_start(rnd.number, rnd.dealer, rnd.start)
        for k, (seat, move) in enumerate(zip(rnd.movers, rnd.moves, strict=True), start=1):
            out.move(k, seat, move, rnd.positions[k])
        if rnd.result is not None:
            out.result(rnd.number, rnd.result)
    if record.winner is not None:
        out.winner(record.winner)
    else:
        typer.echo("")
        typer.echo("The game is not finished.")


# ----------------------------------------------------------------------
# casino demo


def random_player(rng: random.Random) -> Chooser:
    """A player that picks uniformly among the legal moves (the real bots come later)."""

    def choose(pos: Position) -> Move:
        return rng.choice(pos.legal_moves())

    return choose


@app.command("demo")
def demo_command(
    rules: Annotated[str, typer.Option("--rules", "-r", help="Ruleset preset.")] = "casino",
    players: Annotated[int | None, typer.Option("--players", "-p",
                                                help="Number of players.")] = None,
    seed: Annotated[int | None, typer.Option("--seed", "-s",
                                             help="Seed for the shuffles and the players; "
                                                  "random if not given.")] = None,
    delay: Annotated[float | None, typer.Option(
        "--delay", help="Seconds to pause after each move (default 0.3 on a terminal, "
                        "else 0).", min=0.0)] = None,
    save: Annotated[Path | None, typer.Option("--save", help="Write the game record to "
                                                             "this file.")] = None,
) -> None:
    """Play a whole game between computer players choosing at random, move by move."""
    ruleset = _rules(rules, players)
    if delay is None:
        delay = 0.3 if sys.stdout.isatty() else 0.0
    match = Match(ruleset, seed=seed)
    choose = random_player(random.Random(match.seed))
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
    try:
        save_record(match, path)
    except OSError as exc:
        fail(f"cannot write {path}: {exc}")
    typer.echo(f"record saved to {path}", err=True)


def main() -> None:
    """The console entry point (``casino``)."""
    app()


if __name__ == "__main__":
    main()

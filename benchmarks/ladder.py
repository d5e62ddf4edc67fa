"""The player levels on every ruleset: each level against the one below, whole games.

For each table (a preset and a player count) and each neighbouring pair of player
levels (``easy`` v ``beginner`` up to ``expert`` v ``hard``, the higher as side A),
``--games`` mirrored pairs of whole games are played with the arena
(:func:`casino.measure.arena.run_pairing`, each level with its own limit), every
finished pair kept at once in a journal file of its own under ``--dir``: a cut run
goes on where it stopped when started again, a longer ``--games`` grows it, and
tables or pairings can be played in separate runs (``--only``, ``--pairing``) and
reported together. ``--report`` plays nothing and prints the Markdown table of the
levels on every ruleset (research/bots-log.md keeps each one measured) from whatever
the journals hold.

Seating is the arena's: with two players a plain swap, with four in partnerships
the partnerships; with three (A B A, then B A B) and four each for themselves
(A B A B) each side has as many seats as the other over a mirrored pair, so an
equal pairing scores 50%.

Usage::

    .venv/bin/python benchmarks/ladder.py --games 200 --seed 31 --dir ladder
    .venv/bin/python benchmarks/ladder.py --games 200 --seed 31 --dir ladder \\
        --only classic-3 --pairing expert-hard --jobs 2
    .venv/bin/python benchmarks/ladder.py --games 200 --seed 31 --dir ladder --report
"""

from __future__ import annotations

import argparse
import sys
from dataclasses import dataclass
from pathlib import Path

from bench_engine import machine
from casino.bots import LEVEL_PREFIX
from casino.bots.levels import LEVELS, make_level
from casino.engine.rules import Rules
from casino.measure.arena import (
    MAX_ROUNDS,
    ArenaResult,
    Journal,
    PairingResult,
    game_seeds,
    run_pairing,
)


@dataclass(frozen=True)
class Table:
    """A ruleset at a player count."""

    preset: str
    players: int

    @property
    def name(self) -> str:
        return f"{self.preset}-{self.players}"

    def rules(self) -> Rules:
        return Rules.preset(self.preset, players=self.players)


#: The tables of issue 20's ladder, in the order they are played.
TABLES = (Table("kasino", 2), Table("kasino", 4), Table("classic", 3), Table("classic", 4),
          Table("krypkasino", 2), Table("mulle", 2), Table("tablic", 2))

#: Neighbouring levels, the higher first, cheapest pairing first.
PAIRINGS = tuple(zip(list(LEVELS)[1:], list(LEVELS)[:-1], strict=True))


def pairing_name(higher: str, lower: str) -> str:
    return f"{higher}-{lower}"


def journal(directory: Path, table: Table, higher: str, lower: str) -> Path:
    return directory / f"{table.name}-{pairing_name(higher, lower)}.jsonl"


def play(directory: Path, table: Table, higher: str, lower: str, games: int, seed: int,
         jobs: int, progress: bool) -> ArenaResult:
    """The pairing's run on ``table``: only the pairs its journal lacks are played."""
    _, limit_a = make_level(higher)
    _, limit_b = make_level(lower)
    return run_pairing(LEVEL_PREFIX + higher, LEVEL_PREFIX + lower, table.rules(),
                       game_seeds(seed, games), limit_a, limit_b, jobs,
                       progress=progress, bootstrap=0,
                       journal=journal(directory, table, higher, lower))


def _ms(seconds: float) -> str:
    return f"{seconds * 1000:.0f} ms" if seconds < 1 else f"{seconds:.2f} s"


def held(directory: Path, table: Table, higher: str, lower: str, games: int,
         seed: int) -> PairingResult:
    """The pairs the pairing's journal holds among the run's deals, playing none."""
    path = journal(directory, table, higher, lower)
    book = Journal(path, table.rules(), MAX_ROUNDS)
    _, limit_a = make_level(higher)
    _, limit_b = make_level(lower)
    spec = (LEVEL_PREFIX + higher, LEVEL_PREFIX + lower, limit_a, limit_b)
    seeds = game_seeds(seed, max(games, len(book.rows())))
    pr = PairingResult(*spec, [])
    for _key, (g0, g1) in sorted(book.played([spec], seeds).items()):
        pr.games.extend((g0, g1))
    return pr


def row(table: Table, higher: str, lower: str, pr: PairingResult) -> str:
    """One Markdown row: games won by the higher level, margin, its think time."""
    n = len(pr.games)
    won = pr.score_a()
    margin = pr.margin()
    think = pr.think("A")
    separated = "yes" if won.low > 0.5 else "**no**"
    margin_text = (f"{margin.value:+.2f} [{margin.low:+.2f}, {margin.high:+.2f}]"
                   if margin is not None else "")
    return (f"| {table.preset} | {table.players} | `{higher}` v `{lower}` | {n} | "
            f"{pr.points_a:g} = {won.value:.1%} [{won.low:.1%}, {won.high:.1%}] | "
            f"{separated} | {margin_text} | {_ms(think.median)} / {_ms(think.p95)} |")


HEADER = ("| preset | players | levels | games | won by the higher [95%] | above 50% | "
          "margin per round [95%] | think time of the higher: median / p95 |\n"
          "|---|---:|---|---:|---|---|---|---|")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=200, help="mirrored pairs per pairing")
    parser.add_argument("--seed", type=int, default=31)
    parser.add_argument("--dir", type=Path, default=Path("ladder"),
                        help="where the journals are kept")
    parser.add_argument("--only", nargs="*", default=None,
                        help=f"tables to play, of {', '.join(t.name for t in TABLES)}")
    parser.add_argument("--pairing", nargs="*", default=None,
                        help="pairings to play, of "
                             + ", ".join(pairing_name(a, b) for a, b in PAIRINGS))
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--report", action="store_true",
                        help="play nothing: the table of what the journals hold")
    args = parser.parse_args(argv)
    tables = [t for t in TABLES if args.only is None or t.name in args.only]
    pairings = [(a, b) for a, b in PAIRINGS
                if args.pairing is None or pairing_name(a, b) in args.pairing]
    unknown = set(args.only or ()) - {t.name for t in TABLES}
    unknown |= set(args.pairing or ()) - {pairing_name(a, b) for a, b in PAIRINGS}
    if unknown:
        parser.error(f"unknown table or pairing: {', '.join(sorted(unknown))}")
    lines = [HEADER]
    for table in tables:
        for higher, lower in pairings:
            if args.report:
                try:
                    pr = held(args.dir, table, higher, lower, args.games, args.seed)
                except ValueError as e:
                    # A journal played with bots the level no longer plays is not a
                    # row of the ladder as it is now: say so and go on.
                    print(f"skipped: {e}", file=sys.stderr)
                    continue
            else:
                print(f"{table.name}: {higher} v {lower}", file=sys.stderr)
                pr = play(args.dir, table, higher, lower, args.games, args.seed,
                          args.jobs, sys.stderr.isatty()).pairings[0]
            if pr.games:
                lines.append(row(table, higher, lower, pr))
                if not args.report:
                    print(lines[-1], file=sys.stderr)
    print("\n".join(lines))
    m = machine()
    print(f"\n{m['cpu']}, {m['cores']} cores, {m['python']}, {m['platform']}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

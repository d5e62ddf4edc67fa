"""How big a step between two levels must be for whole games to tell them apart.

A level beats the one below it when its share of games won has a 95% interval
above 50%. How many points a round that takes depends on the table: where a game
lasts one or two rounds and a round's margin swings widely (Mulle's five-point
mulles), a steady edge in points shows little in games won. This script reads
arena journals (``casino arena ... --resume FILE``, ``benchmarks/ladder.py``'s
files) and, for each, reports the games' length and spread and, from them, the
margin per round a pairing needs to separate in a given number of games.

The model: a game's total margin (the sum of its rounds' margins, turned so that
positive favours side A) is roughly normal, with the spread measured in the
journal; A wins the game when that total is positive, so a mean edge of ``m``
points a round over ``R`` rounds a game wins a share ``Φ(m R / σ)`` of games. The
script prints that prediction beside the share the journal holds, as a check of
the model on the table, and how many games went to the side with no more points
than the other (the model's blind spot: a game to a target scored in counting
order goes to whoever reaches the target first in that order). Usage, from the
repository root::

    .venv/bin/python -m research.game_spread benchmarks/ladder/*.jsonl
    .venv/bin/python -m research.game_spread --games 800 run.jsonl

"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections import Counter
from dataclasses import dataclass
from pathlib import Path
from statistics import NormalDist

from casino.measure.arena import GameRecord, journal_rows
from casino.measure.stats import Z95, wilson

#: The chance of a run showing a separation that is there (the power asked for).
POWER = 0.8
#: The standard normal distribution, for the model of a game's total margin.
NORMAL = NormalDist()


@dataclass(frozen=True)
class Spread:
    """The length and spread of the games of one journal."""

    name: str
    games: int
    won: float
    rounds: Counter[int]
    margin: float
    round_sd: float
    game_sd: float
    #: Games won by the side that finished with no more points than the other: a
    #: game to a target in counting order (Mulle) can go to the side behind on points.
    won_behind: int = 0

    @property
    def rounds_per_game(self) -> float:
        return sum(r * n for r, n in self.rounds.items()) / self.games

    def predicted_share(self, margin: float) -> float:
        """The share of games a mean edge of ``margin`` a round wins, in the model."""
        return NORMAL.cdf(margin * self.rounds_per_game / self.game_sd)

    def margin_needed(self, games: int, power: float = POWER) -> float:
        """The edge a round that separates in ``games`` games with chance ``power``.

        The share won must clear 50% by 1.96 standard errors in a run of ``games``
        games at least ``power`` of the time: a true share of about
        ``0.5 + (1.96 + z_power) / (2 √games)``; the model turns it into points."""
        share = 0.5 + (Z95 + NORMAL.inv_cdf(power)) * 0.5 / math.sqrt(games)
        return NORMAL.inv_cdf(share) * self.game_sd / self.rounds_per_game


def read_journal(path: Path) -> Spread:
    """The spread of the games in an arena journal (one mirrored pair a line)."""
    rounds: Counter[int] = Counter()
    round_margins: list[float] = []
    game_totals: list[float] = []
    won = 0.0
    won_behind = 0
    for row in journal_rows(path):
        for game in map(GameRecord.from_json, row["games"]):
            rounds[game.rounds] += 1
            round_margins.extend(game.margins)
            game_totals.append(float(sum(game.margins)))
            won += game.score("A")
            if game.winner is not None:
                by_seat = list(zip(game.scores, game.seats, strict=True))
                mine = max(p for p, s in by_seat if s == game.winner)
                won_behind += mine <= max(p for p, s in by_seat if s != game.winner)
    if len(game_totals) < 2:
        raise ValueError(f"{path}: fewer than two games")
    return Spread(name=path.name, games=len(game_totals), won=won, rounds=rounds,
                  margin=statistics.fmean(round_margins),
                  round_sd=statistics.stdev(round_margins),
                  game_sd=statistics.stdev(game_totals), won_behind=won_behind)


def report(spread: Spread, games: int) -> str:
    share = wilson(spread.won, spread.games)
    lengths = ", ".join(f"{r}: {n}" for r, n in sorted(spread.rounds.items()))
    return "\n".join([
        f"{spread.name}: {spread.games} games, rounds a game {spread.rounds_per_game:.2f} "
        f"({lengths})",
        f"  margin a round: mean {spread.margin:+.2f}, spread (sd) {spread.round_sd:.2f} a round, "
        f"{spread.game_sd:.2f} a game",
        f"  games won by A: {100 * spread.won / spread.games:.1f}% "
        f"[{100 * share.low:.1f}, {100 * share.high:.1f}]; the model at this margin: "
        f"{100 * spread.predicted_share(spread.margin):.1f}%",
        f"  games won with no more points than the loser: {spread.won_behind}",
        f"  to separate in {games} games ({100 * POWER:.0f}% of runs): about "
        f"{spread.margin_needed(games):+.2f} a round",
    ])


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("journals", type=Path, nargs="+")
    ap.add_argument("--games", type=int, default=400,
                    help="games of the run the separation is asked of")
    args = ap.parse_args(argv)
    for path in args.journals:
        try:
            print(report(read_journal(path), args.games))
        except (OSError, ValueError, KeyError) as exc:
            print(f"{path}: skipped ({exc})", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Every player level's move time on crowded tables, against its time limit.

On a crowded table (Finnish Kasino lets people trail until 20-27 loose cards
lie there) the legal moves number in the hundreds of thousands; bots choose
from ``Position.candidate_moves()`` instead, and each level must answer within
its ``Limit.seconds`` plus 0.1 s (levels without seconds should answer at once).
This plays one move of every level on crowded positions of every preset that
allows them, a few times each (different bot seeds), and prints the median and
the slowest time per level: ``bot.choose(observation, limit)``, which includes
reading the observation and generating the candidates.

Two stages of a round for each table: ``mid`` (the opponent holds hidden cards
and some stock is left: the search bots sample the hidden cards) and ``last``
(stock empty: the observer can deduce the opponent's hand, so ``expert`` and
``pimc`` search to the round's end).

Positions:

* kasino: 21 loose cards of every rank from a game; 20, 24 and 27 loose low cards;
  the 10♦ and the 2♠ in hand (they play as 16 and 15, so every card on the table can
  be part of a capture).
* casino (house rules): 16 loose cards and three builds.
* mulle (two decks): 24 loose cards, some of them twice.
* tablic: 24 loose cards.
* krypkasino (two decks, compulsory capture): a card may be trailed only when it
  can capture nothing, so no value can lie twice and no card can be a sum of
  cards already there: trailed from the highest value down, one card of each of
  the 13 values is as crowded as it gets.

Usage::

    PYTHONPATH=src .venv/bin/python benchmarks/bots_crowded.py [--runs 3]
        [--presets kasino,casino] [--levels expert] [--stages mid,last]
"""

from __future__ import annotations

import argparse
import os
import platform
import random
import statistics
import sys
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from casino.bots import Bot, Limit, make_bot
from casino.bots.levels import LEVELS, make_level
from casino.engine.builds import Build
from casino.engine.cards import parse_card
from casino.engine.position import Position
from casino.engine.rules import preset


def crowded(name: str, loose: str, hand: str, *, builds: Sequence[Build] = (),
            opponent: str = "", opponent_size: int = 4, stock: int = 0,
            seed: int = 0) -> Position:
    """A two-player ``name`` position with the given loose cards, builds and mover's
    hand (seat 0 to move). The opponent holds the cards ``opponent`` names plus random
    ones up to ``opponent_size``; ``stock`` random cards are left to deal; the rest of
    the deck lies in the opponent's pile. (After ``crowded`` in tests/test_legality.py.)"""
    rules = preset(name)
    table: list[int | Build] = [parse_card(t) for t in loose.split()]
    mine = sorted(parse_card(t) for t in hand.split())
    theirs = [parse_card(t) for t in opponent.split()]
    used = Counter(c for c in table if isinstance(c, int)) + Counter(mine) + Counter(theirs)
    used += Counter(c for b in builds for c in b.cards)
    rest = Counter(list(range(52)) * rules.decks) - used
    if any(n > rules.decks for n in used.values()):
        raise ValueError(f"a card is used more often than {rules.name}'s decks hold")
    pool = sorted(rest.elements())
    random.Random(seed).shuffle(pool)
    need = opponent_size - len(theirs)
    theirs += pool[:need]
    dealt = pool[need:need + stock]
    pile = pool[need + stock:]
    return Position(rules=rules, round=1, deal=3 if stock else rules.deals_per_round,
                    dealer=1, to_move=0, hands=(tuple(mine), tuple(sorted(theirs))),
                    table=tuple(table) + tuple(builds), piles=((), tuple(sorted(pile))),
                    stock=tuple(dealt), scores=(0, 0))


def _suits(ranks: str, suits: str = "cdhs") -> list[str]:
    return [r + s for r in ranks for s in suits]


@dataclass(frozen=True)
class Table:
    """One crowded table: its preset, items and the mover's hand."""

    preset: str
    loose: str
    hand: str
    builds: tuple[Build, ...] = ()
    opponent: str = ""
    opponent_size: int = 4

    @property
    def loose_count(self) -> int:
        return len(self.loose.split())


def _kasino(extra: Sequence[str]) -> str:
    return " ".join([c for c in _suits("A2345") if c != "2s"] + list(extra))


def _house_builds() -> tuple[Build, ...]:
    def g(*cards: str) -> tuple[int, ...]:
        return tuple(parse_card(c) for c in cards)
    return (Build.make(8, 1, (g("7h", "As"),)), Build.make(9, 1, (g("5h", "4s"),)),
            Build.make(10, 0, (g("7c", "3s"),)))


TABLES = [
    # 21 cards of every rank met in a game where both players trailed (seed 1 of
    # benchmarks/helper_crowded.py): few of them alike.
    Table("kasino", "5d 3c 6h 2c Ah 3d 5h 4d Th 7c Kc 8c Ad 6d 3s 9s Qd Tc Kh Jd 6s",
          "Td 2s 7h Kd"),
    Table("kasino", _kasino(["6c"]), "Td 2s 9c Ks"),
    Table("kasino", _kasino([*_suits("6"), "7c"]), "Td 2s 9c Ks"),
    Table("kasino", _kasino([*_suits("6"), "7c", "7d", "7h", "7s"]), "Td 2s 9c Ks"),
    # Owner 1 holds an 8 and a 9 (its builds); owner 0 (the mover) the Ts for its 10.
    Table("casino", "Ac 2c 3c 4c 5c 6c Ad 2d 3d 4d 5d 6d Ah 2h 3h 4h", "8s 9s Ts 7s",
          _house_builds(), opponent="8d 9d"),
    Table("mulle", " ".join([*_suits("A2345"), "Ac", "2d", "3h", "4s"]), "9c Td Jh Qs Kd",
          opponent_size=5),
    Table("tablic", " ".join(_suits("A23456")), "Tc Jd Qh Ks 9s 8d", opponent_size=6),
    Table("krypkasino", "Ac 2d 3h 4s 5c 6d 7h 8s 9c Td Jh Qs Kc", "3c 7d 9h Jc"),
]


#: Bots that are no player level, measured when named in ``--levels``: the ladder's top.
EXTRA = {"ismcts": Limit(seconds=1.0)}


def player(level: str, seed: int) -> tuple[Bot, Limit]:
    """The bot and limit of a level (or of an :data:`EXTRA` bot)."""
    if level in EXTRA:
        return make_bot(level, seed), EXTRA[level]
    return make_level(level, seed)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3, help="moves per level and table")
    parser.add_argument("--presets", default="", help="comma-separated presets (default all)")
    parser.add_argument("--levels", default=",".join(LEVELS),
                        help=f"comma-separated levels, or {', '.join(EXTRA)}")
    parser.add_argument("--stages", default="mid,last")
    args = parser.parse_args()
    presets = set(filter(None, args.presets.split(",")))
    levels = args.levels.split(",")
    stages = args.stages.split(",")
    print(f"Python {sys.version.split()[0]} on {platform.platform()}, "
          f"{os.cpu_count()} CPUs ({platform.processor() or platform.machine()})")
    print(f"{'preset':<11} {'loose':>5} {'stage':<5} {'level':<9} {'limit':>6} "
          f"{'median':>7} {'max':>7} {'over':>6}")
    worst = 0.0
    for table in TABLES:
        if presets and table.preset not in presets:
            continue
        for stage in stages:
            for level in levels:
                times: list[float] = []
                limit_s = (EXTRA[level] if level in EXTRA else LEVELS[level].limit).seconds
                for run in range(args.runs):
                    stock = 8 if stage == "mid" else 0
                    pos = crowded(table.preset, table.loose, table.hand, builds=table.builds,
                                  opponent=table.opponent,
                                  opponent_size=table.opponent_size, stock=stock, seed=run)
                    obs = pos.observation(0)
                    bot, limit = player(level, run)
                    start = time.perf_counter()
                    move = bot.choose(obs, limit)
                    times.append(time.perf_counter() - start)
                    if not pos.is_legal(move):
                        raise AssertionError(f"{level} chose an illegal move {move}")
                over = max(times) - (limit_s or 0.0)
                if limit_s is not None:
                    worst = max(worst, over)
                print(f"{table.preset:<11} {table.loose_count:>5} {stage:<5} {level:<9} "
                      f"{(f'{limit_s:.1f}s' if limit_s else 'none'):>6} "
                      f"{statistics.median(times):>6.3f}s {max(times):>6.3f}s "
                      f"{(f'{over:+.3f}' if limit_s else ''):>6}", flush=True)
    print(f"largest overrun of a timed level: {worst:+.3f} s (the bound is +0.100 s)")


if __name__ == "__main__":
    main()

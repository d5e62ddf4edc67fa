"""How long a hint that explains takes: every decision of one seat in a round, per preset.

For every preset (two players, and the most players it allows with ``--most``), plays
a round between two quick expert bots (0.05 s a move), then asks for the advice of
:mod:`casino.teach.hint` at each decision of seat 0 that was a choice, from that
seat's observation, exactly as a hint does (:func:`casino.teach.hint.advise`, at the
hint's default samples and budget unless told otherwise), and reports the CPU time
per hint (this process, one core: a hint is single-threaded): the median, the 95th
percentile and the most. Then crowded Finnish Kasino tables: 16, 20 and 24 loose
cards trailed in the middle of a round (the other hand and the stock unseen), and the
24- and 27-card last-deal tables of the front ends' bounded-work tests.

Usage::

    .venv/bin/python benchmarks/hint_speed.py [--rounds 1] [--samples 6] [--nodes 800]
    .venv/bin/python benchmarks/hint_speed.py --presets casino tablic --most
"""

from __future__ import annotations

import argparse
import os
import platform
import sys
import time
from collections import Counter

from casino.bots import make_bot
from casino.bots.base import Limit
from casino.bots.judge import DEFAULT_BUDGET, DEFAULT_SAMPLES, Budget
from casino.engine.cards import parse_card
from casino.engine.match import Match
from casino.engine.moves import TRAIL, Move
from casino.engine.position import Position
from casino.engine.rules import PRESET_NAMES, player_counts, preset
from casino.teach.hint import advise


def round_times(name: str, players: int, seed: int, samples: int,
                budget: Budget) -> list[float]:
    """CPU seconds of each of seat 0's hints in one round of ``name``."""
    rules = preset(name, players=players)
    match = Match(rules, seed=seed)
    bots = [make_bot("expert", seed * 10 + s) for s in range(players)]
    limit = Limit(seconds=0.05)
    times: list[float] = []
    pos = match.position
    while pos.result is None:
        seat = pos.to_move
        seen = pos.observe(seat)
        if seat == 0:
            found = seen.candidate_moves()
            if not (found.complete and len(found.moves) <= 1):
                t = time.process_time()
                advise(seen, samples=samples, budget=budget)
                times.append(time.process_time() - t)
        match.play(bots[seat].choose(pos.observation(seat), limit))
        pos = match.position
    return times


def crowded(loose: str, hand: str) -> Position:
    """A Finnish Kasino last deal with ``loose`` on the table (tests/crowded_tables.py)."""
    rules = preset("kasino")
    table = [parse_card(t) for t in loose.split()]
    mine = [parse_card(t) for t in hand.split()]
    rest = Counter(list(range(52)) * rules.decks) - Counter(table) - Counter(mine)
    return Position(rules=rules, round=1, deal=6, dealer=1, to_move=0,
                    hands=(tuple(sorted(mine)), ()), table=tuple(table),
                    piles=((), tuple(sorted(rest.elements()))), scores=(0, 0),
                    last_capture=1)


def trailed(loose: int, seed: int = 11) -> Position:
    """A Finnish Kasino round where both players only trailed until ``loose`` cards lie
    on the table and seat 0 is to move (the hidden hand and the stock still unseen)."""
    match = Match("kasino", seed=seed)
    while True:
        pos = match.position
        if len(pos.loose) >= loose and pos.to_move == 0 and pos.hand(0):
            return pos
        match.play(Move(TRAIL, pos.hand(pos.to_move)[0]))


def stats(xs: list[float]) -> str:
    s = sorted(xs)
    if not s:
        return f"{'-':>6} {'-':>6} {'-':>6}"
    return (f"{s[len(s) // 2]:>6.2f} {s[min(len(s) - 1, int(0.95 * len(s)))]:>6.2f} "
            f"{s[-1]:>6.2f}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presets", nargs="+", default=list(PRESET_NAMES))
    ap.add_argument("--rounds", type=int, default=1, help="rounds per preset (seeds 1, 2...)")
    ap.add_argument("--seed", type=int, default=1, help="the first round's seed")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--depth", type=int, default=DEFAULT_BUDGET.depth)
    ap.add_argument("--nodes", type=int, default=DEFAULT_BUDGET.nodes)
    ap.add_argument("--most", action="store_true", help="also the most players of each preset")
    args = ap.parse_args(argv)
    budget = Budget(depth=args.depth, nodes=args.nodes)
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or platform.platform()}, {os.cpu_count()} cores; "
          f"{args.samples} samples, depth {budget.depth}, {budget.nodes} nodes; "
          f"seat 0, seeds {args.seed}..{args.seed + args.rounds - 1}")
    print(f"{'preset':<11} {'players':>7} {'hints':>5} {'median':>6} {'p95':>6} {'max':>6}"
          "  (CPU seconds per hint)")
    for name in args.presets:
        counts = player_counts(name)
        first = 2 if 2 in counts else min(counts)
        for players in sorted({first, max(counts)}) if args.most else [first]:
            times = [t for k in range(args.rounds)
                     for t in round_times(name, players, args.seed + k, args.samples,
                                          budget)]
            print(f"{name:<11} {players:>7} {len(times):>5} {stats(times)}", flush=True)
    table24 = " ".join(r + s for r in "A23456" for s in "cdhs")
    tables = [(f"kasino {n} trailed", trailed(n)) for n in (16, 20, 24)]
    tables += [(f"kasino {n} last deal", crowded(loose, "8c 9d Tc"))
               for n, loose in ((24, table24), (27, table24 + " 7c 7d 7h"))]
    for label, pos in tables:
        t = time.process_time()
        a = advise(pos.observe(0), samples=args.samples, budget=budget)
        print(f"{label:<19} {len(a.plays):>5} "
              f"{stats([time.process_time() - t])}  (crowded table, plays ranked)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

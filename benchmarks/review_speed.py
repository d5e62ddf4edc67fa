"""How long the post-game review takes: one seat's decisions of a two-player round, per preset.

For every preset (two players), plays rounds between two expert bots (0.1 s a move,
so the games are quick to make and their positions are an expert game's), then
judges every decision of the reviewed seat that was a choice exactly as
``casino review`` does (:func:`casino.teach.review.judge_decision`, at the default
samples and budget unless told otherwise) and reports the decisions judged and the
time per round: CPU time of this process (one core: the review is single-threaded,
and CPU time does not count the other programs sharing the machine) and wall time.
The issue's target is 30 s per two-player round at the default setting. Last, the
distribution of the costs of the expert's decisions, which the grade thresholds are
set against (docs/review.md), and the share of each grade they get.

Usage::

    .venv/bin/python benchmarks/review_speed.py [--rounds 1] [--samples 8] [--nodes 1500]
    .venv/bin/python benchmarks/review_speed.py --presets casino tablic --seed 4
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
from casino.engine.match import Match
from casino.engine.rules import PRESET_NAMES, preset
from casino.teach.review import (
    ABOUT_AS_GOOD,
    DEFAULT_THRESHOLDS,
    GOOD,
    GRADES,
    judge_decision,
)


def one_round(name: str, seed: int, seat: int, samples: int, budget: Budget,
              costs: list[float], grades: Counter[str]) -> tuple[int, float, float]:
    """Decisions judged, CPU seconds and wall seconds for ``seat`` in one round; each
    decision's cost is added to ``costs`` and its grade counted in ``grades``."""
    rules = preset(name, players=2)
    match = Match(rules, seed=seed)
    bots = [make_bot("expert", seed * 10 + s) for s in range(2)]
    limit = Limit(seconds=0.1)
    pos = match.position
    played = []
    while pos.result is None:
        move = bots[pos.to_move].choose(pos.observation(pos.to_move), limit)
        played.append((pos, move))
        match.play(move)
        pos = match.position
    cpu, wall = time.process_time(), time.perf_counter()
    judged = 0
    for ply, (before, move) in enumerate(played):
        if before.to_move != seat:
            continue
        found = before.observe(seat).candidate_moves()
        if found.complete and len(found.moves) <= 1:
            continue  # forced: the review does not judge it
        d = judge_decision(before, move, ply=ply, samples=samples, limit=budget)
        costs.append(d.cost)
        grades[d.verdict] += 1
        judged += 1
    return judged, time.process_time() - cpu, time.perf_counter() - wall


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--presets", nargs="+", default=list(PRESET_NAMES))
    ap.add_argument("--rounds", type=int, default=1, help="rounds per preset (seeds 1, 2...)")
    ap.add_argument("--seed", type=int, default=1, help="the first round's seed")
    ap.add_argument("--samples", type=int, default=DEFAULT_SAMPLES)
    ap.add_argument("--depth", type=int, default=DEFAULT_BUDGET.depth)
    ap.add_argument("--nodes", type=int, default=DEFAULT_BUDGET.nodes)
    args = ap.parse_args(argv)
    budget = Budget(depth=args.depth, nodes=args.nodes)
    print(f"Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or platform.platform()}, {os.cpu_count()} cores; "
          f"{args.samples} samples, depth {budget.depth}, {budget.nodes} nodes; "
          f"seat 0, seeds {args.seed}..{args.seed + args.rounds - 1}")
    print(f"{'preset':<11} {'rounds':>6} {'decisions':>9} {'cpu s/round':>11} "
          f"{'max':>6} {'wall s/round':>12}")
    costs: list[float] = []
    grades: Counter[str] = Counter()
    for name in args.presets:
        rows = [one_round(name, args.seed + k, 0, args.samples, budget, costs, grades)
                for k in range(args.rounds)]
        n = len(rows)
        print(f"{name:<11} {n:>6} {sum(r[0] for r in rows) / n:>9.1f} "
              f"{sum(r[1] for r in rows) / n:>11.1f} {max(r[1] for r in rows):>6.1f} "
              f"{sum(r[2] for r in rows) / n:>12.1f}", flush=True)
    print(cost_lines(costs))
    total = sum(grades.values()) or 1
    print("graded (by the lower end of the cost's interval): " + ", ".join(
        f"{g} {grades[g] / total:.1%}" for g in (GOOD, ABOUT_AS_GOOD, *GRADES[1:])))
    return 0


def cost_lines(costs: list[float]) -> str:
    """The distribution of the expert's costs, which the grade thresholds are set by."""
    xs = sorted(costs)
    if not xs:
        return "no decision judged"

    def q(p: float) -> float:
        return xs[min(len(xs) - 1, int(p * len(xs)))]

    zero = sum(1 for x in xs if x == 0) / len(xs)
    over = "; ".join(f">= {t:g}: {sum(1 for x in xs if x >= t) / len(xs):.1%}"
                     for t in (DEFAULT_THRESHOLDS.inaccuracy, DEFAULT_THRESHOLDS.mistake,
                               DEFAULT_THRESHOLDS.blunder))
    return (f"the expert's costs over {len(xs)} decisions: {zero:.0%} cost nothing; "
            f"quantiles 50% {q(0.5):.2f}, 75% {q(0.75):.2f}, 90% {q(0.9):.2f}, "
            f"95% {q(0.95):.2f}, 99% {q(0.99):.2f}, max {xs[-1]:.2f}; {over}")


if __name__ == "__main__":
    sys.exit(main())

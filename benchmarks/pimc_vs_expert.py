"""The strongest level against the ``expert`` bot, in chunks that each stay short.

Plays the pairs ``--first`` to ``--first + --pairs`` of the run that
``casino arena pimc expert --games N --seed S`` would play (the same deals, the
same bot seeds: ``game_seeds(S, N)`` starts with the same deals whatever ``N``),
so a long run can be split over several short ones on a shared machine and the
chunks' JSON files added up with ``--merge``. Usage::

    .venv/bin/python benchmarks/pimc_vs_expert.py --seed 21 --first 0 --pairs 20 \\
        --out a.json
    .venv/bin/python benchmarks/pimc_vs_expert.py --seed 21 --first 20 --pairs 20 \\
        --out b.json
    .venv/bin/python benchmarks/pimc_vs_expert.py --merge a.json b.json

Defaults: the ``expert`` level's bot and limit (``pimc``, 30 samples, 0.8 s) for
both sides, whole games to 21, one process.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from casino.arena import GameRecord, PairingResult, game_seeds, run_pairing
from casino.bots import Limit
from casino.rules import preset
from casino.stats import percentile


def merge(paths: list[str]) -> None:
    games = []
    think: list[float] = []
    for p in paths:
        d = json.loads(Path(p).read_text())
        games.extend(d["games"])
        think.extend(d["think_a"])
    # The chunks keep think times apart (``think_a``), not in each game.
    result = PairingResult("A", "B", Limit(), Limit(), [GameRecord.from_json(g) for g in games])
    w = result.score_a()
    m = result.margin()
    assert m is not None
    print(f"{len(games)} games: A won {result.points_a:g} = {w.value:.1%} "
          f"[{w.low:.1%}, {w.high:.1%}]; "
          f"margin per round {m.value:+.2f} [{m.low:+.2f}, {m.high:+.2f}]; A think median "
          f"{percentile(think, 50) * 1000:.0f} ms, p95 {percentile(think, 95) * 1000:.0f} ms, "
          f"max {max(think) * 1000:.0f} ms over {len(think)} decisions")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="pimc")
    ap.add_argument("--b", default="expert")
    ap.add_argument("--seed", type=int, default=21)
    ap.add_argument("--first", type=int, default=0)
    ap.add_argument("--pairs", type=int, default=20)
    ap.add_argument("--seconds", type=float, default=0.8)
    ap.add_argument("--iterations", type=int, default=30)
    ap.add_argument("--max-rounds", type=int, default=50)
    ap.add_argument("--out", default=None)
    ap.add_argument("--merge", nargs="+", default=None)
    args = ap.parse_args(argv)
    if args.merge:
        merge(args.merge)
        return 0
    seeds = game_seeds(args.seed, args.first + args.pairs)[args.first:]
    limit = Limit(seconds=args.seconds, iterations=args.iterations)
    r = run_pairing(args.a, args.b, preset("casino"), seeds, limit, limit, jobs=1,
                    max_rounds=args.max_rounds)
    pr = r.pairings[0]
    out = {"command": sys.argv, "games": [g.to_json(times=False) for g in pr.games],
           "think_a": [t for g in pr.games for t in g.think["A"]]}
    if args.out:
        Path(args.out).write_text(json.dumps(out))
        merge([args.out])
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

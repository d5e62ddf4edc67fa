"""The long strength run of the bot ladder (docs/bots.md quotes its figures).

Plays each bot against its neighbour on the ladder (``random`` v ``greedy``,
``greedy`` v ``careful``, ...) on mirrored deals, plus any extra pairings given
with ``--also`` (for the claims that compare non-neighbours: the strongest
level against ``expert``, and an ``oracle`` twin against ``expert``), then fits
Bradley–Terry ratings to all of it, anchored at ``greedy`` = 1000.

By default the ladder is every bot registered in ``casino.bots.BOTS``, in
registration order, except the oracles, and each pairing plays 500 mirrored
pairs, i.e. 1,000 games. Results go to ``benchmarks/results/`` as JSON (every
game, with think times summarized per game to keep the file small; the
summaries are computed from every move) and a PNG of the ratings. Not run by
the test suite: at full strength it takes hours. Usage::

    .venv/bin/python benchmarks/arena_ladder.py [--bots random greedy ...] [--pairs 500]
        [--rules casino] [--seed 2024] [--jobs N] [--seconds T] [--iterations N]
        [--also ismcts:expert --also pimc-oracle:expert] [--name NAME]

Think times are only "on one core" when ``--jobs`` is at most the number of
idle cores.
"""

from __future__ import annotations

import argparse
import datetime as dt
import itertools
import os
import sys
from pathlib import Path

from rich.console import Console

from casino.arena import game_seeds, run_round_robin
from casino.bots import BOTS, Limit
from casino.cli import print_arena
from casino.rules import preset

HERE = Path(__file__).resolve().parent
RESULTS = HERE / "results"


def ladder() -> list[str]:
    """The registered ladder, weakest first, without the oracles (never opponents)."""
    return [name for name in BOTS if "oracle" not in name]


def parse_pair(text: str) -> tuple[str, str]:
    a, sep, b = text.partition(":")
    if not sep or not a or not b:
        raise argparse.ArgumentTypeError(f"a pairing is BOT:BOT, not {text!r}")
    return a, b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bots", nargs="+", default=None,
                    help="the ladder, weakest first (default: every registered non-oracle bot)")
    ap.add_argument("--pairs", type=int, default=500,
                    help="mirrored pairs (two games each) per pairing (default 500 = 1,000 games)")
    ap.add_argument("--rules", default="casino")
    ap.add_argument("--seed", type=int, default=2024)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--seconds", type=float, default=None, help="think limit per move")
    ap.add_argument("--iterations", type=int, default=None, help="iteration limit per move")
    ap.add_argument("--also", type=parse_pair, action="append", default=[],
                    help="an extra pairing BOT:BOT (repeatable)")
    ap.add_argument("--all-pairs", action="store_true",
                    help="play every pair of the ladder, not only neighbours")
    ap.add_argument("--bootstrap", type=int, default=1000)
    ap.add_argument("--name", default=None, help="file name stem for the results")
    args = ap.parse_args(argv)

    bots: list[str] = list(args.bots) if args.bots else ladder()
    for a, b in args.also:
        for name in (a, b):
            if name not in bots:
                bots.append(name)
    unknown = [b for b in bots if b not in BOTS]
    if unknown:
        ap.error(f"unknown bot {unknown[0]!r}; the bots are {', '.join(BOTS)}")
    ladder_bots = list(args.bots) if args.bots else ladder()
    if args.all_pairs:
        pairs = list(itertools.combinations(ladder_bots, 2))
    else:
        pairs = list(itertools.pairwise(ladder_bots))
    pairs += [p for p in args.also if p not in pairs and p[::-1] not in pairs]
    rules = preset(args.rules)
    limit = Limit(seconds=args.seconds, iterations=args.iterations)
    seeds = game_seeds(args.seed, args.pairs)
    result = run_round_robin(bots, rules, seeds, limit, args.jobs, schedule="given",
                             pairs=pairs, progress=True, bootstrap=args.bootstrap,
                             bootstrap_seed=args.seed)
    result.settings["seed"] = args.seed
    stem = args.name or f"arena-{args.rules}-{dt.date.today().isoformat()}"
    RESULTS.mkdir(parents=True, exist_ok=True)
    json_path = RESULTS / f"{stem}.json"
    png_path = RESULTS / f"{stem}.png"
    command = [sys.executable, "benchmarks/arena_ladder.py", *(argv if argv is not None
                                                               else sys.argv[1:])]
    result.write_json(json_path, command=command, times=False)
    result.plot(png_path, title=f"{args.rules}: ladder, {args.pairs} mirrored pairs per pairing")
    print_arena(result, Console(width=None if sys.stdout.isatty() else 132))
    print(f"results: {json_path}\nplot: {png_path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""Profile legal-move generation over the benchmark suite (cProfile, top 25 functions).

Where does ``legal_moves()`` spend its time? This runs it over the committed
suite (all files, or those named), emptying each position's move cache first so
the generator really runs, and prints the 25 functions with the most time of
their own (``--sort cumulative`` for time including callees).

Usage::

    .venv/bin/python benchmarks/profile_movegen.py [NAME ...] [--repeat N] [--sort KEY]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import sys

from bench_engine import fresh_moves, load_suite, suite_names


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="cProfile of legal_moves over the suite.")
    parser.add_argument("names", nargs="*", help="suite files to use (default: all)")
    parser.add_argument("--repeat", type=int, default=3, help="passes over the suite")
    parser.add_argument("--sort", default="tottime", help="pstats sort key (tottime, cumulative)")
    parser.add_argument("--top", type=int, default=25, help="how many functions to show")
    args = parser.parse_args(argv)
    names = args.names or suite_names()
    positions = [p for name in names for p in load_suite(name)]
    for p in positions:  # warm up outside the profile
        fresh_moves(p)
    profile = cProfile.Profile()
    profile.enable()
    for _ in range(args.repeat):
        for p in positions:
            fresh_moves(p)
    profile.disable()
    print(f"legal_moves over {len(positions)} positions ({', '.join(names)}), "
          f"{args.repeat} passes")
    stats = pstats.Stats(profile, stream=sys.stdout)
    stats.strip_dirs().sort_stats(args.sort).print_stats(args.top)
    return 0


if __name__ == "__main__":
    sys.exit(main())

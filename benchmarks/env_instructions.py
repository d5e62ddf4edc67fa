"""The research environment's cost in instructions, which other processes do not change.

Wall-clock figures (``env_speed.py``) move with whatever else the machine runs; a
count of the instructions executed does not. For each preset this runs, under
``valgrind --tool=cachegrind`` with ``PYTHONHASHSEED=0``, one process per variant
over the rounds of seeds 1 to ``--seeds`` and one that only starts (the imports),
and reports thousands of instructions per move or step, less that start:

- **engine**: ``bench_engine.random_round`` (``legal_moves()`` at every move);
- **bounded**: the engine alone on the raw env's own rounds with the bounded move
  generation (``env_speed.bounded_round``), less the process that only records
  those rounds;
- **raw**: ``env_speed.env_round`` on ``raw_env(preset)`` (default infos).

``ratio`` is engine / raw and ``fair`` bounded / raw: the share of the engine's speed
the environment makes. Needs valgrind (Debian's package ``valgrind``); a preset takes
about two minutes. Usage::

    .venv/bin/python benchmarks/env_instructions.py [--only casino kasino] [--seeds 10]
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

from bench_engine import machine
from casino.engine.rules import PRESET_NAMES

HERE = Path(__file__).resolve().parent

#: What one measured process runs: a variant over seeds 1..n, then the moves it made.
CHILD = """
import sys
sys.path.insert(0, {here!r})
from bench_engine import random_round
from env_speed import bounded_round, env_games, env_round
from casino.env import raw_env
name, variant, n = sys.argv[1], sys.argv[2], int(sys.argv[3])
seeds = range(1, n + 1)
moves = 0
if variant in ("record", "bounded"):
    games = env_games(name, seeds)
    moves = sum(len(m) for _, m in games)
    if variant == "bounded":
        for game in games:
            bounded_round(*game)
elif variant == "raw":
    e = raw_env(name)
    moves = sum(env_round(e, s) for s in seeds)
elif variant == "engine":
    moves = sum(random_round(name, s) for s in seeds)
print("MOVES", moves)
"""


def count(name: str, variant: str, seeds: int) -> tuple[int, int]:
    """(moves, instructions) of one process running ``variant``."""
    out = subprocess.run(
        ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
         sys.executable, "-c", CHILD.format(here=str(HERE)), name, variant, str(seeds)],
        capture_output=True, text=True, check=True, env={**os.environ, "PYTHONHASHSEED": "0"})
    moves = re.search(r"MOVES (\d+)", out.stdout)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if moves is None or refs is None:
        raise RuntimeError(f"no count for {name} {variant}: {out.stderr[-500:]}")
    return int(moves.group(1)), int(refs.group(1).replace(",", ""))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", nargs="*", metavar="NAME", help="presets to count")
    parser.add_argument("--seeds", type=int, default=10, help="rounds of seeds 1..N")
    args = parser.parse_args(argv)
    if shutil.which("valgrind") is None:
        parser.error("valgrind is needed (Debian: apt-get install valgrind)")
    info = machine()
    print(f"casino {info['casino']} on {info['python']}; {info['platform']}")
    print(f"thousands of instructions per move or step, seeds 1..{args.seeds}\n")
    print(f"{'preset':<12}{'engine':>8}{'bounded':>9}{'raw':>7}{'ratio':>7}{'fair':>7}")
    for name in (n for n in PRESET_NAMES if not args.only or n in args.only):
        _, start = count(name, "engine", 0)
        moves, engine = count(name, "engine", args.seeds)
        steps, raw = count(name, "raw", args.seeds)
        played, recorded = count(name, "record", args.seeds)
        _, bounded = count(name, "bounded", args.seeds)
        e = (engine - start) / moves / 1000
        r = (raw - start) / steps / 1000
        b = (bounded - recorded) / played / 1000
        print(f"{name:<12}{e:>8,.0f}{b:>9,.0f}{r:>7,.0f}{e / r:>7.2f}{b / r:>7.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Engine speed figures you can rerun: legal-move generation and random rounds.

Two figures per suite / preset (docs/benchmarks.md explains them):

- **movegen**: positions per second for ``Position.legal_moves()`` over the
  committed suite ``benchmarks/positions/<name>.json`` (made by ``make_suite.py``),
  with the position's move cache emptied before each call, so every call
  generates. Also the legal moves per second and the largest move count.
- **rounds**: complete random rounds per second: ``Match(preset, seed=s)``, then
  uniformly random legal moves (``random.Random(s)``) until the round is scored,
  for a fixed list of seeds. This includes dealing, ``play`` and scoring.

Each figure is timed with ``time.perf_counter`` over several repeats and the
median is reported. Usage::

    .venv/bin/python benchmarks/bench_engine.py [--quick] [--json PATH] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import statistics
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from casino import Match, Position, __version__
from casino.engine import core, movegen
from casino.engine import position as position_module
from casino.engine.rules import PRESET_NAMES

HERE = Path(__file__).resolve().parent
SUITE_DIR = HERE / "positions"


def machine() -> dict[str, Any]:
    """Where the figures were measured: they mean little without it."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text(encoding="utf-8").splitlines():
            if line.lower().startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {
        "platform": platform.platform(),
        "cpu": cpu,
        "cores": os.cpu_count(),
        "python": f"{platform.python_implementation()} {platform.python_version()}",
        "casino": __version__,
    }


def load_suite(name: str) -> list[Position]:
    data = json.loads((SUITE_DIR / f"{name}.json").read_text(encoding="utf-8"))
    return [Position.from_json(obj) for obj in data]


def suite_names() -> list[str]:
    """The suite files, presets first in their usual order, then the crowded ones."""
    # crowded-tables.json is benchmarks/crowded.py's suite of hands and tables, not positions
    found = {p.stem for p in SUITE_DIR.glob("*.json")} - {"crowded-tables"}
    ordered = [n for n in PRESET_NAMES if n in found]
    return ordered + sorted(found - set(ordered))


def fresh_moves(pos: Position) -> int:
    """``legal_moves()`` without the position's cache, so the generator really runs."""
    pos._cache.clear()  # benchmark only: the cache would make every call after the first free
    return len(pos.legal_moves())


def median_time(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times)


@contextmanager
def python_engine() -> Iterator[None]:
    """Positions list their moves with the Python generator for the duration (as with
    CASINO_CORE=off), so that both engines are timed side by side in one run."""
    compiled = getattr(position_module, "generate")  # noqa: B009 (the name Position calls)
    setattr(position_module, "generate", movegen.generate)  # noqa: B010
    try:
        yield
    finally:
        setattr(position_module, "generate", compiled)  # noqa: B010


def inside_core(positions: list[Position], repeat: int) -> float | None:
    """Positions per second generated inside the core (its moves counted, no Python
    object made), or ``None`` without a core."""
    module = core.module()
    if module is None:
        return None
    calls = [(core._tables(p.rules), p.hand(p.to_move), p.loose, p.builds, p.to_move)
             for p in positions]
    inner = 20  # generations per call, so that the call's own cost is spread thin

    def run() -> None:
        for tables, hand, loose, builds, seat in calls:
            module.count_moves(tables, hand, loose, builds, seat, inner)

    run()
    return len(positions) * inner / median_time(run, repeat)


def bench_movegen(name: str, repeat: int) -> dict[str, Any]:
    positions = load_suite(name)
    counts = [fresh_moves(p) for p in positions]

    def run() -> None:
        for p in positions:
            fresh_moves(p)

    run()  # warm up (value tables, lru caches)
    seconds = median_time(run, repeat)
    with python_engine():
        run()
        python_seconds = median_time(run, repeat)
    inside = inside_core(positions, repeat)
    return {
        "positions": len(positions),
        "moves": sum(counts),
        "max_moves": max(counts),
        "seconds": seconds,
        "positions_per_s": len(positions) / seconds,
        "moves_per_s": sum(counts) / seconds,
        "python_positions_per_s": len(positions) / python_seconds,
        "inside_core_positions_per_s": inside,
    }


def random_round(name: str, seed: int) -> int:
    """Play one round of uniformly random legal moves; return the number of moves."""
    match = Match(name, seed=seed)
    rng = random.Random(seed)
    n = 0
    while match.position.result is None:
        match.play(rng.choice(match.position.legal_moves()))
        n += 1
    return n


def bench_rounds(name: str, seeds: range, repeat: int) -> dict[str, Any]:
    moves = sum(random_round(name, s) for s in seeds)  # also warms up
    seconds = median_time(lambda: [random_round(name, s) for s in seeds], repeat)
    return {
        "rounds": len(seeds),
        "moves": moves,
        "seconds": seconds,
        "rounds_per_s": len(seeds) / seconds,
        "moves_per_s": moves / seconds,
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Engine speed: legal moves and random rounds.")
    parser.add_argument("--quick", action="store_true", help="a brief run (fewer repeats)")
    parser.add_argument("--json", type=Path, metavar="PATH", help="also write the results here")
    parser.add_argument("--only", nargs="*", metavar="NAME", help="suites / presets to run")
    parser.add_argument("--repeat", type=int, help="timing repeats (median taken)")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 7)
    seeds = range(1, 4) if args.quick else range(1, 21)

    info = machine()
    print(f"casino {info['casino']} on {info['python']}")
    print(f"{info['platform']}; {info['cpu']}; {info['cores']} cores")
    print(f"engine: {core.engine_name()}")
    print(f"median of {repeat} repeats; random rounds use seeds {seeds.start}..{seeds.stop - 1}")
    print()

    names = suite_names()
    if args.only:
        names = [n for n in names if n in args.only]
    movegen: dict[str, Any] = {}
    print("pos/s: legal_moves() as it runs; python pos/s: with the Python generator, timed "
          "beside it;\nx: the ratio; in core pos/s: generated inside the core, no Python "
          "object made")
    print(f"{'suite':<20}{'positions':>10}{'moves':>9}{'max':>6}{'pos/s':>11}{'moves/s':>12}"
          f"{'python pos/s':>14}{'x':>6}{'in core pos/s':>15}")
    for name in names:
        r = bench_movegen(name, repeat)
        movegen[name] = r
        inside = r["inside_core_positions_per_s"]
        print(f"{name:<20}{r['positions']:>10}{r['moves']:>9}{r['max_moves']:>6}"
              f"{r['positions_per_s']:>11,.0f}{r['moves_per_s']:>12,.0f}"
              f"{r['python_positions_per_s']:>14,.0f}"
              f"{r['positions_per_s'] / r['python_positions_per_s']:>6.1f}"
              f"{'-' if inside is None else f'{inside:,.0f}':>15}")
    print()
    rounds: dict[str, Any] = {}
    presets = [n for n in PRESET_NAMES if not args.only or n in args.only]
    print(f"{'preset':<20}{'rounds':>10}{'moves':>9}{'rounds/s':>11}{'moves/s':>12}")
    for name in presets:
        r = bench_rounds(name, seeds, repeat)
        rounds[name] = r
        print(f"{name:<20}{r['rounds']:>10}{r['moves']:>9}{r['rounds_per_s']:>11,.1f}"
              f"{r['moves_per_s']:>12,.0f}")

    if args.json:
        args.json.parent.mkdir(parents=True, exist_ok=True)
        out = {"machine": info, "repeat": repeat, "quick": args.quick,
               "movegen": movegen, "rounds": rounds}
        args.json.write_text(json.dumps(out, indent=2) + "\n", encoding="utf-8")
        print(f"\nwrote {args.json}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

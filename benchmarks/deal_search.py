"""How fast one sample's full-deal search runs at a deal's first move.

The fair choice that wins back most of what ``pimc`` loses at a deal's first move
(research/bots-log.md, "How much a fair player can win back") is PIMC with the
judge's search: on each sampled deal, alpha-beta to the deal's end (8 plies when
each of two players holds 4 cards) with ``deal_start_estimate`` past it, every
root candidate valued exactly (:meth:`casino.bots.solver.Searcher.values`). This
times that one search per sample, the step the think time hangs on.

The positions are fixed: for each preset and seed, a seeded ``Match`` played with
seeded random moves to the first move of each deal but the last (where nothing is
hidden); at each, ``--samples`` determinizations of the mover's observation
(:func:`casino.bots.knowledge.sample`, seeded). The move cache is emptied before
each position, so a position's first sample generates its moves as a new decision
would. Reported per preset: the median and 95th percentile seconds per sample (CPU
time of this process), the nodes searched and per second, and a digest of every
value and best move found (equal digests: the same answers, so two versions of the
search compare on the digest first).

With ``--decisions`` it times whole decisions instead, the two engines side by side
on the same positions and samples: at each position, the ``--samples`` sampled deals
searched by the Python searcher one by one, and by the compiled core in one call
(:func:`casino.bots.compiled.sampled_values`, every value exact, the same search); the
median and 95th percentile seconds a decision (wall time), and whether every value
agreed. ``--python-samples`` searches only that many of them in Python (its decision
time is scaled up to the full count), since the Python search takes seconds a sample.

Usage::

    .venv/bin/python benchmarks/deal_search.py [--presets casino classic] [--seeds 3]
        [--samples 4] [--profile]
    .venv/bin/python benchmarks/deal_search.py --decisions --samples 32 --python-samples 4
"""

from __future__ import annotations

import argparse
import cProfile
import hashlib
import pstats
import random
import statistics
import time

from bench_engine import machine
from casino import Match, Position
from casino.bots import compiled as bots_core
from casino.bots import evaluation, solver
from casino.bots.expert import candidates
from casino.bots.knowledge import sample
from casino.bots.solver import EXACT, Searcher, game_value
from casino.engine import core
from casino.engine.moves import Move


def deal_starts(preset: str, seed: int) -> list[Position]:
    """The first position of every deal but the last of one seeded random round."""
    match = Match(preset, seed=seed)
    rng = random.Random(seed)
    out: list[Position] = []
    last_deal = 0
    pos = match.position
    while pos.result is None:
        if pos.deal != last_deal and pos.stock_size:
            out.append(pos)
        last_deal = pos.deal
        match.play(rng.choice(pos.legal_moves()))
        pos = match.position
    return out


def root_moves(pos: Position) -> list[Move]:
    """The root candidates as the PIMC bot and the judge see them."""
    return candidates(pos, list(pos.candidate_moves().moves))


def search_one(full: Position, moves: list[Move],
               max_moves: int | None) -> tuple[list[float], int, float]:
    """One sample's exact full-deal search: each move's value, nodes and seconds (CPU
    time of this process: on a shared machine, wall time measures the neighbours)."""
    s = Searcher(full.to_move, horizon="deal",
                 evaluate=evaluation.evaluator("deal_start_estimate"),
                 terminal=game_value, max_moves=max_moves)
    start = time.process_time()
    vals = s.values(full, moves, EXACT)
    return vals, s.nodes, time.process_time() - start


def run(presets: list[str], seeds: int, samples: int, max_moves: int | None) -> None:
    for preset in presets:
        times: list[float] = []
        nodes = 0
        digest = hashlib.sha256()
        positions = [p for seed in range(1, seeds + 1) for p in deal_starts(preset, seed)]
        for i, pos in enumerate(positions):
            solver._MOVE_CACHE.clear()  # a new decision (benchmark only)
            moves = root_moves(pos)
            rng = random.Random(1000 + i)
            seen = pos.observe(pos.to_move)
            for _ in range(samples):
                full = sample(seen, rng)
                vals, n, sec = search_one(full, moves, max_moves)
                times.append(sec)
                nodes += n
                best = max(range(len(moves)), key=lambda j: vals[j])
                digest.update(repr((vals, str(moves[best]))).encode())
        times.sort()
        p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
        total = sum(times)
        print(f"{preset:10s} {len(positions):3d} positions x {samples} samples: "
              f"median {statistics.median(times) * 1000:7.1f} ms, p95 {p95 * 1000:7.1f} ms, "
              f"max {times[-1] * 1000:7.1f} ms, total {total:6.2f} s, "
              f"{nodes} nodes, {nodes / total:8.0f} nodes/s, digest {digest.hexdigest()[:12]}")


def decisions(presets: list[str], seeds: int, samples: int, python_samples: int) -> None:
    """Whole decisions of ``samples`` sampled deals: the core in one call against the
    Python searcher, on the same positions and samples (see the module's notes)."""
    for preset in presets:
        core_times: list[float] = []
        python_times: list[float] = []
        agree = True
        positions = [p for seed in range(1, seeds + 1) for p in deal_starts(preset, seed)]
        for i, pos in enumerate(positions):
            moves = root_moves(pos)
            rng = random.Random(1000 + i)
            seen = pos.observe(pos.to_move)
            deals = [sample(seen, rng) for _ in range(samples)]
            start = time.perf_counter()
            rows = bots_core.sampled_values(deals, moves, game=True)
            core_times.append(time.perf_counter() - start)
            if rows is None:
                print(f"{preset}: the core cannot search this position; left to Python")
                continue
            start = time.perf_counter()
            for k in range(python_samples):
                solver._MOVE_CACHE.clear()
                vals, _, _ = search_one(deals[k], moves, None)
                agree = agree and all(abs(a - b) < 1e-9 for a, b in zip(vals, rows[k],
                                                                          strict=True))
            python_times.append((time.perf_counter() - start) * samples / python_samples)
        for name, times in (("core", core_times), ("python", python_times)):
            times.sort()
            p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
            print(f"{preset:10s} {name:6s} {len(times):3d} decisions of {samples} samples: "
                  f"median {statistics.median(times):7.3f} s, p95 {p95:7.3f} s")
        ratio = statistics.median(python_times) / statistics.median(core_times)
        print(f"{preset:10s} the core {ratio:.0f} times as fast (medians); values "
              f"{'agree' if agree else 'DIFFER'}")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Seconds per sample of the full-deal search.")
    parser.add_argument("--presets", nargs="*", default=["casino", "classic"])
    parser.add_argument("--seeds", type=int, default=3, help="rounds per preset")
    parser.add_argument("--samples", type=int, default=4, help="determinizations a position")
    parser.add_argument("--max-moves", type=int, default=None,
                        help="replies searched at most per node (default: all, as the judge)")
    parser.add_argument("--profile", action="store_true", help="print cProfile's top functions")
    parser.add_argument("--decisions", action="store_true",
                        help="time whole decisions, the core against Python")
    parser.add_argument("--python-samples", type=int, default=4,
                        help="with --decisions: samples searched in Python a decision")
    args = parser.parse_args(argv)
    info = machine()
    print(f"casino {info['casino']} on {info['python']}, {info['cpu']} "
          f"({info['cores']} cores), {info['platform']}")
    if args.decisions:
        print(f"engine: {core.engine_name()}")
        decisions(args.presets, args.seeds, args.samples, min(args.python_samples,
                                                              args.samples))
    elif args.profile:
        prof = cProfile.Profile()
        prof.enable()
        run(args.presets, args.seeds, args.samples, args.max_moves)
        prof.disable()
        pstats.Stats(prof).sort_stats("tottime").print_stats(25)
        pstats.Stats(prof).sort_stats("cumulative").print_stats(30)
    else:
        run(args.presets, args.seeds, args.samples, args.max_moves)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

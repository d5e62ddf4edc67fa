"""The research environment's speed next to the engine's own: random rounds, per preset.

For each preset at its default player count, these figures in moves (steps) per second
(docs/benchmarks.md, "The research environment", explains them):

- **engine**: ``bench_engine.random_round``, the engine benchmark's random rounds
  (``Match(preset, seed=s)``, uniformly random legal moves until the round is scored);
- **bounded**: the engine alone on the env's own rounds (the same deals and moves):
  at each step the mover's moves by ``Position.candidate_moves()``, the bounded move
  generation the env (like the bots and the web game) must use, then the move played.
  On a table of more than 12 loose cards that is a bounded selection, where
  ``random_round``'s ``legal_moves()`` enumerates every move, in time exponential in
  the table (cheaper on the 13 to 16 loose cards random play reaches, unbounded
  beyond); and the rounds are the same ones the env is timed on, so how many crowded
  tables the random play happens to make is the same on both sides;
- **raw**: one episode (a round) of ``casino.env.raw_env(preset)``, reset with the
  same seed, every agent choosing uniformly among the actions its mask allows,
  through PettingZoo's loop (``agent_iter``, ``last``, ``step``), so the observation
  array, the mask and the infos are built at every step as a learner gets them;
- **lean**: the same with ``raw_env(preset, infos=False)``: no JSON observation and
  no moves' texts in the infos, only the array and the mask;
- **wrapped**: the same as raw with ``casino.env.env(preset)``, PettingZoo's
  standard wrappers;
- **raw py**: raw again with the positions listing their moves by the Python
  generator (``bench_engine.python_engine()``, as ``CASINO_CORE=off`` does for a
  whole process), so that both engines are timed side by side in one run.

``ratio`` is raw / engine, ``lean`` lean / engine and ``fair`` raw / bounded: the
environment's aim is at least half the engine's speed. ``core`` is raw / raw py, what
the compiled core makes of the environment's speed (the aim: at least 2); it is
about 1 where no core runs (``casino --version`` says which engine runs, and so
does the heading).
Each speed is the median of several timed passes over the same seeds; the variants
take turns within each repeat, and each ratio is the median of one repeat's ratios, so
a load that drifts while the benchmark runs moves both sides of a ratio alike. Usage::

    .venv/bin/python benchmarks/env_speed.py [--quick] [--seeds N] [--only NAME ...]
                                             [--profile NAME]
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import statistics
import sys
import time
from collections.abc import Callable
from typing import Any

from bench_engine import machine, python_engine, random_round
from casino.engine import core
from casino.engine.match import Match
from casino.engine.moves import Move
from casino.engine.rules import PRESET_NAMES
from casino.env import allowed_actions, env, raw_env


def env_round(e: Any, seed: int) -> int:
    """One episode of uniformly random allowed actions; the number of actions taken."""
    e.reset(seed=seed)
    rng = random.Random(seed)
    n = 0
    for _agent in e.agent_iter():
        obs, _reward, terminated, truncated, _info = e.last()
        if terminated or truncated:
            e.step(None)
            continue
        e.step(rng.choice(allowed_actions(obs["action_mask"])))
        n += 1
    return n


def env_games(name: str, seeds: range) -> list[tuple[Match, list[Move]]]:
    """The rounds the raw env plays for ``seeds`` (its deals and moves), to be played
    again by the engine alone: a fresh Match of the same deal and the moves."""
    e = raw_env(name, infos=False)
    games = []
    for seed in seeds:
        env_round(e, seed)
        played = e.unwrapped.match.current
        games.append((Match(name, seed=random.Random(seed).randrange(2**63)),
                      list(played.moves)))
    return games


def bounded_round(match: Match, moves: list[Move]) -> int:
    """The engine alone on one of the env's rounds: at each step the mover's moves by
    the bounded generation (``candidate_moves()``, as the env lists them), then the
    env's move played. The number of moves."""
    fresh = Match(match.rules, seed=match.seed)
    for move in moves:
        fresh.position.candidate_moves()
        fresh.play(move)
    return len(moves)


def python_round(e: Any) -> Callable[[int], int]:
    """``env_round`` on ``e`` with the Python move generator: the context is entered
    per round (two attribute writes), so the other variants' turns keep the core."""
    def play(seed: int) -> int:
        with python_engine():
            return env_round(e, seed)
    return play


def interleaved(plays: dict[str, Callable[[int], int]], seeds: range, repeat: int
                ) -> tuple[dict[str, int], dict[str, list[float]]]:
    """Moves made and seconds taken by each variant over ``seeds``, ``repeat`` times,
    the variants taking turns within each repeat: a machine whose load drifts slows
    neighbouring passes alike, so ratios of one repeat's passes stay fair."""
    moves = {k: sum(play(s) for s in seeds) for k, play in plays.items()}  # warms up
    times: dict[str, list[float]] = {k: [] for k in plays}
    for _ in range(repeat):
        for k, play in plays.items():
            start = time.perf_counter()
            for s in seeds:
                play(s)
            times[k].append(time.perf_counter() - start)
    return moves, times


def paired_ratio(moves: dict[str, int], times: dict[str, list[float]], a: str, b: str
                 ) -> float:
    """The median over repeats of ``a``'s speed over ``b``'s in the same repeat."""
    return statistics.median((moves[a] / ta) / (moves[b] / tb)
                             for ta, tb in zip(times[a], times[b], strict=True))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        description="The research environment's speed next to the engine's random rounds.")
    parser.add_argument("--quick", action="store_true", help="a brief run (fewer seeds, repeats)")
    parser.add_argument("--only", nargs="*", metavar="NAME", help="presets to run")
    parser.add_argument("--repeat", type=int, help="timing repeats (median taken)")
    parser.add_argument("--seeds", type=int, help="rounds of seeds 1..N (default 30; quick 3)")
    parser.add_argument("--profile", metavar="NAME",
                        help="instead, profile the raw env's random rounds of one preset")
    args = parser.parse_args(argv)
    repeat = args.repeat or (3 if args.quick else 5)
    seeds = range(1, 1 + (args.seeds or (3 if args.quick else 30)))

    if args.profile:
        e = raw_env(args.profile)
        profiler = cProfile.Profile()
        profiler.runcall(lambda: [env_round(e, s) for s in seeds])
        pstats.Stats(profiler).sort_stats("tottime").print_stats(25)
        return 0

    info = machine()
    print(f"casino {info['casino']} on {info['python']}; engine: {core.engine_name()}")
    print(f"{info['platform']}; {info['cpu']}; {info['cores']} cores")
    print(f"{repeat} repeats, the variants taking turns in each; rounds of seeds "
          f"{seeds.start}..{seeds.stop - 1}; speeds are medians, ratios medians of each "
          "repeat's ratio")
    print()
    print(f"{'preset':<12}{'moves':>7}{'engine/s':>10}{'bounded/s':>11}{'raw/s':>9}"
          f"{'lean/s':>9}{'wrapped/s':>11}{'ratio':>7}{'lean':>7}{'fair':>7}"
          f"{'raw py/s':>10}{'core':>6}")
    names = [n for n in PRESET_NAMES if not args.only or n in args.only]
    for name in names:
        def engine_round(seed: int, name: str = name) -> int:
            return random_round(name, seed)

        def envs_round(e: Any) -> Callable[[int], int]:
            return lambda seed: env_round(e, seed)

        games = dict(zip(seeds, env_games(name, seeds), strict=True))

        def bounded(seed: int, games: dict[int, tuple[Match, list[Move]]] = games) -> int:
            return bounded_round(*games[seed])

        moves, times = interleaved({
            "engine": engine_round, "bounded": bounded,
            "raw": envs_round(raw_env(name)), "lean": envs_round(raw_env(name, infos=False)),
            "wrapped": envs_round(env(name)), "raw py": python_round(raw_env(name))},
            seeds, repeat)
        if moves["raw py"] != moves["raw"]:  # the engines are held equal (tests/test_core.py)
            print(f"{name}: the Python engine played other rounds than the core "
                  f"({moves['raw py']} moves against {moves['raw']})", file=sys.stderr)
        speed = {k: moves[k] / statistics.median(times[k]) for k in moves}
        print(f"{name:<12}{moves['raw']:>7}{speed['engine']:>10,.0f}{speed['bounded']:>11,.0f}"
              f"{speed['raw']:>9,.0f}{speed['lean']:>9,.0f}{speed['wrapped']:>11,.0f}"
              f"{paired_ratio(moves, times, 'raw', 'engine'):>7.2f}"
              f"{paired_ratio(moves, times, 'lean', 'engine'):>7.2f}"
              f"{paired_ratio(moves, times, 'raw', 'bounded'):>7.2f}"
              f"{speed['raw py']:>10,.0f}"
              f"{paired_ratio(moves, times, 'raw', 'raw py'):>6.2f}", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())

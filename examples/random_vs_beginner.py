"""A random agent against the beginner bot, through the Gymnasium wrapper.

The loop every learner starts from: reset, read the action mask, pick an allowed
action, step, add up the reward. Here the agent picks uniformly among the allowed
actions. The reward of an episode (one round) is the learner's points in the round
less the bot's (docs/research.md, "Rewards"). Seeded: the same command prints the
same numbers. Run from the repository::

    .venv/bin/python examples/random_vs_beginner.py [--episodes N] [--rules NAME]
"""

from __future__ import annotations

import argparse
import math
import statistics
import sys
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from casino.env import SingleAgentEnv, allowed_actions

#: A policy: the environment (for the legal moves, if it wants them), the
#: observation dict, and a generator; it returns an allowed action.
Policy = Callable[[SingleAgentEnv, dict[str, Any], np.random.Generator], int]


def random_policy(g: SingleAgentEnv, obs: dict[str, Any], rng: np.random.Generator) -> int:
    return int(rng.choice(allowed_actions(obs["action_mask"])))


def make_env(rules: str) -> SingleAgentEnv:
    # infos=False: this agent reads only the array and the mask, and steps go faster.
    return SingleAgentEnv(rules, seat=0, level="beginner", infos=False)


def play(g: SingleAgentEnv, policy: Policy, seeds: Sequence[int], rng_seed: int) -> list[float]:
    """The total reward of one episode per seed (the seed deals the cards)."""
    rng = np.random.default_rng(rng_seed)
    totals = []
    for seed in seeds:
        obs, _info = g.reset(seed=seed)
        total, done = 0.0, False
        while not done:
            obs, reward, terminated, truncated, _info = g.step(policy(g, obs, rng))
            total += float(reward)
            done = terminated or truncated
        totals.append(total)
    return totals


def interval(values: Sequence[float]) -> tuple[float, float]:
    """The mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    if len(values) < 2:
        return mean, math.inf
    return mean, 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=500, help="rounds to play (500)")
    parser.add_argument("--rules", default="casino", help="the preset (casino)")
    parser.add_argument("--seed", type=int, default=0, help="the first deal's seed (0)")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.episodes)
    rewards = play(make_env(args.rules), random_policy, seeds, rng_seed=args.seed)
    mean, half = interval(rewards)
    print(f"random agent vs beginner, {args.rules}, {args.episodes} rounds "
          f"(seeds {seeds.start}..{seeds.stop - 1})")
    print(f"mean reward {mean:+.2f} ± {half:.2f} (95% interval)")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""REINFORCE with a linear softmax policy against the beginner bot (NumPy only).

The policy scores each allowed move by a few features of the move itself (its kind,
the cards it takes and what they are worth, whether it clears the table, what the
played card is worth) with one weight vector, and picks by softmax over the allowed
moves only (the action mask; the moves come from ``g.aec.legal_actions``). After
each episode (one round, reward = the learner's points less the bot's) the weights
move along the REINFORCE gradient, the reward less a running-mean baseline.

It prints the learning curve (the mean reward of each block of episodes) and draws
it to a PNG, then says whether it learned: the mean reward of the last episodes,
and of the random agent on the very same deals, each with its 95% interval, and the
paired difference. Seeded: the same command prints the same numbers. About a
minute on one core with the defaults. Run from the repository::

    .venv/bin/python examples/reinforce_vs_beginner.py [--episodes N] [--plot FILE]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from casino.engine.legality import worth
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.env import SingleAgentEnv
from random_vs_beginner import interval, make_env, play, random_policy

KINDS = (CAPTURE, BUILD, ADD, RAISE, TRAIL)
FEATURES = ("capture", "build", "add", "raise", "trail", "cards taken", "worth taken",
            "clears table", "played card's worth")


def features(move: Move, table_items: int) -> NDArray[np.float64]:
    """What the policy knows of a move (scaled to about 0..1)."""
    taken = [*move.loose, *(c for b in move.builds for c in b.cards)]
    items = len(move.loose) + len(move.builds)
    kind = [1.0 if move.kind == k else 0.0 for k in KINDS]
    clears = 1.0 if move.kind == CAPTURE and items == table_items else 0.0
    return np.array([*kind, len(taken) / 4, sum(worth(c) for c in taken) / 4, clears,
                     worth(move.card) / 4])


class LinearSoftmax:
    """pi(a | s) proportional to exp(w . phi(s, a)) over the allowed actions."""

    def __init__(self, rng: np.random.Generator) -> None:
        self.w = np.zeros(len(FEATURES))
        self.rng = rng
        self.trace: list[NDArray[np.float64]] = []  # grad log pi of each choice

    def __call__(self, g: SingleAgentEnv, obs: dict[str, Any],
                 rng: np.random.Generator) -> int:
        moves = g.aec.legal_actions(g.agent)
        pos = g.aec.position
        items = len(pos.loose) + len(pos.builds)
        actions = list(moves)
        phi = np.stack([features(moves[a], items) for a in actions])
        logits = phi @ self.w
        p = np.exp(logits - logits.max())
        p /= p.sum()
        i = int(self.rng.choice(len(actions), p=p))
        self.trace.append(phi[i] - p @ phi)
        return actions[i]

    def update(self, advantage: float, lr: float) -> None:
        if self.trace:
            self.w += lr * advantage * np.sum(self.trace, axis=0)
        self.trace = []


def train(g: SingleAgentEnv, episodes: int, seed: int, lr: float
          ) -> tuple[LinearSoftmax, list[float]]:
    policy = LinearSoftmax(np.random.default_rng(seed))
    baseline, rewards = 0.0, []
    for k in range(episodes):
        (total,) = play(g, policy, [seed + k], rng_seed=seed + k)
        policy.update((total - baseline) / 10, lr)
        baseline += 0.05 * (total - baseline)
        rewards.append(total)
    return policy, rewards


def curve(rewards: list[float], blocks: int) -> list[tuple[int, float]]:
    """(episodes so far, mean reward of the block) for ``blocks`` equal blocks."""
    size = max(1, len(rewards) // blocks)
    return [(i + size, float(np.mean(rewards[i:i + size])))
            for i in range(0, len(rewards) - size + 1, size)]


def draw(points: list[tuple[int, float]], random_mean: float, path: Path) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 3.5))
    ax.plot([x for x, _ in points], [y for _, y in points], marker="o", label="REINFORCE")
    ax.axhline(random_mean, color="grey", linestyle="--", label="random agent")
    ax.set_xlabel("episodes (rounds) played")
    ax.set_ylabel("mean reward of the block")
    ax.set_title("Linear softmax REINFORCE vs the beginner bot")
    ax.legend()
    fig.tight_layout()
    fig.savefig(path, dpi=100)
    plt.close(fig)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=2000, help="rounds to train (2000)")
    parser.add_argument("--last", type=int, help="rounds judged at the end "
                        "(default: the last quarter)")
    parser.add_argument("--rules", default="casino", help="the preset (casino)")
    parser.add_argument("--seed", type=int, default=0, help="the seed of everything (0)")
    parser.add_argument("--lr", type=float, default=0.02, help="learning rate (0.02)")
    parser.add_argument("--plot", type=Path, default=Path("reinforce_curve.png"),
                        help="the learning curve's PNG (reinforce_curve.png; '' for none)")
    args = parser.parse_args(argv)
    g = make_env(args.rules)
    policy, rewards = train(g, args.episodes, args.seed, args.lr)
    last = args.last or max(1, args.episodes // 4)
    seeds = range(args.seed + args.episodes - last, args.seed + args.episodes)
    randoms = play(g, random_policy, seeds, rng_seed=args.seed)

    print(f"REINFORCE (linear softmax over move features) vs beginner, {args.rules}, "
          f"{args.episodes} training rounds")
    print("learning curve (episodes, mean reward of the block):")
    points = curve(rewards, 10)
    for x, y in points:
        print(f"  {x:>6} {y:+7.2f}")
    print("weights: " + ", ".join(f"{n} {w:+.2f}" for n, w in zip(FEATURES, policy.w,
                                                                  strict=True)))
    m_l, h_l = interval(rewards[-last:])
    m_r, h_r = interval(randoms)
    m_d, h_d = interval([a - b for a, b in zip(rewards[-last:], randoms, strict=True)])
    print(f"last {last} rounds:   learner {m_l:+.2f} ± {h_l:.2f}, "
          f"random agent on the same deals {m_r:+.2f} ± {h_r:.2f} (95% intervals)")
    print(f"paired difference {m_d:+.2f} ± {h_d:.2f}: "
          + ("it learned (better than random)" if m_d - h_d > 0 else
             "no evidence that it learned (the interval reaches 0 or below)"))
    if str(args.plot) not in ("", "."):
        draw(points, m_r, args.plot)
        print(f"wrote {args.plot}")
    return 0


if __name__ == "__main__":
    sys.exit(main())

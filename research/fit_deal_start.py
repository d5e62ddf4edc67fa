"""Refit ``deal_start`` and ``deal_start_last`` of :class:`casino.bots.evaluation.EvalParams`.

Plays ``--rounds`` one-round games of ``expert`` self-play (house rules, default
limits), keeps every deal's first position after the first deal with the round's
final margin, and fits by least squares how far that margin exceeds
:func:`casino.bots.evaluation.estimate` per unit of the mover's best capture from
the table, per unit of the other player's, and for leading; separately for the
last deal and the deals before it. The shipped figures pool two runs (from the
repository root)::

    .venv/bin/python -m research.fit_deal_start --rounds 400 --seed 2000
    .venv/bin/python -m research.fit_deal_start --rounds 300 --seed 5000

(about 5 and 4 minutes on one core).
"""

from __future__ import annotations

import argparse
import math

import numpy as np

from casino.bots import Limit, make_bot
from casino.bots.evaluation import _table_captures, best_outcome, estimate, value
from casino.engine.match import Match
from casino.engine.position import Position


def features(pos: Position) -> tuple[float, float, float]:
    """(mover's best capture, other's best capture, 1), signed for seat 0."""
    mover = pos.to_move
    hm, ho = pos.hands[mover], pos.hands[1 - mover]
    assert not isinstance(hm, int) and not isinstance(ho, int)
    sign = 1.0 if mover == 0 else -1.0
    if not (pos.loose or pos.builds):
        return 0.0, 0.0, sign
    caps = _table_captures(pos)
    return (sign * best_outcome(caps, hm, hidden=False),
            -sign * best_outcome(caps, ho, hidden=False), sign)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--rounds", type=int, default=400)
    ap.add_argument("--seed", type=int, default=2000)
    args = ap.parse_args(argv)
    rows: dict[bool, list[tuple[tuple[float, float, float], float]]] = {False: [], True: []}
    for seed in range(args.seed, args.seed + args.rounds):
        m = Match("casino", seed=seed)
        bots = [make_bot("expert", seed * 2), make_bot("expert", seed * 2 + 1)]
        starts: list[Position] = []
        deal = m.position.deal
        while m.position.result is None:
            p = m.position
            if p.deal != deal:
                deal = p.deal
                starts.append(p)
            m.play(bots[p.to_move].choose(p.observation(p.to_move), Limit()))
        final = value(m.position, 0)
        for p in starts:
            rows[p.stock_size == 0].append((features(p), final - estimate(p, 0)))
    for last, data in rows.items():
        x = np.array([f for f, _ in data])
        y = np.array([t for _, t in data])
        coef, *_ = np.linalg.lstsq(x, y, rcond=None)
        res = y - x @ coef
        se = np.sqrt(np.diag(res.var() * np.linalg.inv(x.T @ x)))
        names = ("mover", "other", "lead")
        print(("last deal" if last else "deals before"), f"({len(y)} positions):",
              ", ".join(f"{n} {c:+.2f} ± {s:.2f}" for n, c, s in zip(names, coef, se,
                                                                      strict=True)),
              f"(mean square residual {math.fsum(res ** 2) / len(y):.2f}, "
              f"of estimate alone {math.fsum(y ** 2) / len(y):.2f})")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

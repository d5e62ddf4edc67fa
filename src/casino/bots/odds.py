"""The odds of a majority still open: the split of the cards to come as a random walk.

The evaluation credits each side with its expected share of most cards and most
spades, and the counting-order race (:mod:`casino.bots.race`) needs each side's
chance to take them; both read it here, from one model.
"""

from __future__ import annotations

import math


def phi(x: float) -> float:
    """The standard normal distribution function."""
    return 0.5 * (1.0 + math.erf(x / math.sqrt(2.0)))


def majority_expectation(counts: dict[int, float], total: int, points: float,
                         clump: float) -> dict[int, float]:
    """Expected points of each side for a majority of ``total`` cards given what each
    has (possibly fractional), modelling the remaining cards' split as a normal
    random walk: P(win) = Φ(lead / σ), σ² = remaining × clump. Clinched items go whole
    to their side; with nothing left the exact rule (a tie scores nothing) applies."""
    remaining = max(total - sum(counts.values()), 0.0)
    out = {t: 0.0 for t in counts}
    for t, c in counts.items():
        if c > total / 2:
            out[t] = points
            return out
    if remaining <= 1e-9:
        best = max(counts.values())
        leaders = [t for t, c in counts.items() if c == best]
        if len(leaders) == 1:
            out[leaders[0]] = points
        return out
    sigma = math.sqrt(remaining * clump)
    ps = {}
    for t, c in counts.items():
        other = max((v for u, v in counts.items() if u != t), default=0.0)
        ps[t] = phi((c - other) / sigma)
    s = sum(ps.values())
    scale = 1.0 / s if s > 1.0 else 1.0
    for t, p in ps.items():
        out[t] = points * p * scale
    return out


__all__ = ["majority_expectation", "phi"]

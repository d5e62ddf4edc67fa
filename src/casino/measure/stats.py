"""The statistics of the arena: proportions, means, Bradley–Terry (Elo) ratings.

Pure Python on purpose: the engine has no numeric dependency, the numbers
involved are small (a few players, thousands of games), and every formula here
is short enough to check by hand, which is what ``tests/test_stats.py`` does.

* :func:`wilson` — the Wilson score interval for a proportion. Unlike the
  textbook ``p ± z·√(p(1−p)/n)`` it stays inside [0, 1] and keeps its coverage
  near 0 and 1, where a strong bot against a weak one lives.
* :func:`mean_interval` — a mean with a Student *t* interval (exact for normal
  data, and the same as the normal approximation once n is large; the t
  quantile is computed here, so no table and no SciPy).
* :func:`ratio_interval` — a ratio of sums (points per round over many games)
  with a cluster interval: rounds of one game, or the two games of a mirrored
  deal, are not independent, so the unit of sampling is the cluster.
* :func:`bradley_terry` — maximum-likelihood strengths from a win matrix by the
  MM algorithm of Hunter (2004), :func:`elo` to put them on the Elo scale
  (400·log10, anchored at one player), :func:`bootstrap_elo` for percentile
  intervals.
"""

from __future__ import annotations

import math
import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

#: The two-sided 95% normal quantile (Φ⁻¹(0.975)).
Z95 = 1.959964


@dataclass(frozen=True, slots=True)
class Estimate:
    """A point estimate with the bounds of its confidence interval."""

    value: float
    low: float
    high: float

    def to_json(self) -> dict[str, float | None]:
        """Non-finite bounds (an interval from one observation) become ``None``:
        JSON has no infinity."""
        return {k: (v if math.isfinite(v) else None)
                for k, v in (("value", self.value), ("low", self.low), ("high", self.high))}


# ----------------------------------------------------------------------
# Proportions


def wilson(successes: float, n: float, z: float = Z95) -> Estimate:
    """The proportion ``successes / n`` with its Wilson score interval.

    ``successes`` may be fractional (draws counted half). With ``n == 0`` nothing
    is known: the estimate is 0.5 and the interval the whole of [0, 1].
    """
    if n < 0 or not 0 <= successes <= n:
        raise ValueError(f"need 0 <= successes <= n, got {successes} of {n}")
    if n == 0:
        return Estimate(0.5, 0.0, 1.0)
    p = successes / n
    z2 = z * z
    centre = (p + z2 / (2 * n)) / (1 + z2 / n)
    half = z / (1 + z2 / n) * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n))
    return Estimate(p, max(0.0, centre - half), min(1.0, centre + half))


# ----------------------------------------------------------------------
# Student t


def _betacf(a: float, b: float, x: float) -> float:
    """Continued fraction of the incomplete beta function (modified Lentz)."""
    tiny = 1e-300
    qab, qap, qam = a + b, a + 1.0, a - 1.0
    c, d = 1.0, 1.0 - qab * x / qap
    d = 1.0 / (d if abs(d) > tiny else tiny)
    h = d
    for m in range(1, 500):
        m2 = 2 * m
        aa = m * (b - m) * x / ((qam + m2) * (a + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        h *= d * c
        aa = -(a + m) * (qab + m) * x / ((a + m2) * (qap + m2))
        d = 1.0 + aa * d
        d = 1.0 / (d if abs(d) > tiny else tiny)
        c = 1.0 + aa / c
        c = c if abs(c) > tiny else tiny
        step = d * c
        h *= step
        if abs(step - 1.0) < 1e-15:
            break
    return h


def _betainc(a: float, b: float, x: float) -> float:
    """The regularized incomplete beta function I_x(a, b)."""
    if x <= 0.0:
        return 0.0
    if x >= 1.0:
        return 1.0
    ln_front = (math.lgamma(a + b) - math.lgamma(a) - math.lgamma(b)
                + a * math.log(x) + b * math.log1p(-x))
    front = math.exp(ln_front)
    if x < (a + 1.0) / (a + b + 2.0):
        return front * _betacf(a, b, x) / a
    return 1.0 - front * _betacf(b, a, 1.0 - x) / b


def t_cdf(t: float, df: float) -> float:
    """P(T <= t) for Student's t with ``df`` degrees of freedom."""
    if df <= 0:
        raise ValueError("degrees of freedom must be positive")
    tail = 0.5 * _betainc(df / 2.0, 0.5, df / (df + t * t))
    return 1.0 - tail if t > 0 else tail


def t_quantile(p: float, df: float) -> float:
    """The ``p`` quantile of Student's t (bisection on :func:`t_cdf`, to ~1e-12)."""
    if not 0.0 < p < 1.0:
        raise ValueError("p must be strictly between 0 and 1")
    if p < 0.5:
        return -t_quantile(1.0 - p, df)
    lo, hi = 0.0, 1.0
    while t_cdf(hi, df) < p:
        hi *= 2.0
    for _ in range(200):
        mid = (lo + hi) / 2.0
        if t_cdf(mid, df) < p:
            lo = mid
        else:
            hi = mid
        if hi - lo < 1e-12 * max(1.0, hi):
            break
    return (lo + hi) / 2.0


# ----------------------------------------------------------------------
# Means


def mean_interval(values: Sequence[float], confidence: float = 0.95) -> Estimate:
    """The mean of ``values`` with a Student t interval (n − 1 degrees of freedom).

    The t interval assumes roughly normal data for small n; for the arena's
    hundreds of observations it coincides with the normal approximation (by the
    central limit theorem), and it is the honest, wider choice for a handful.
    Fewer than two values give an unbounded interval.
    """
    n = len(values)
    if n == 0:
        raise ValueError("the mean of no values")
    mean = math.fsum(values) / n
    if n == 1:
        return Estimate(mean, -math.inf, math.inf)
    var = math.fsum((v - mean) ** 2 for v in values) / (n - 1)
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * math.sqrt(var / n)
    return Estimate(mean, mean - half, mean + half)


def ratio_interval(numerators: Sequence[float], denominators: Sequence[float],
                   confidence: float = 0.95) -> Estimate:
    """``Σ numerators / Σ denominators`` with a cluster (linearization) interval.

    Each index is one cluster (for the arena: the points margin and the number of
    rounds of one mirrored deal). Treating every round as independent would
    understate the error, since the rounds of a game share a score line and the
    two games of a mirrored deal share their cards; the clusters are
    independent. The variance is the usual ratio-estimator one,
    ``n/(n−1) · Σ (yᵢ − R·xᵢ)² / (Σ xᵢ)²``, with a t quantile on n − 1 degrees.
    """
    n = len(numerators)
    if n != len(denominators):
        raise ValueError("numerators and denominators differ in length")
    total = math.fsum(denominators)
    if n == 0 or total <= 0:
        raise ValueError("a ratio needs clusters with a positive total denominator")
    ratio = math.fsum(numerators) / total
    if n == 1:
        return Estimate(ratio, -math.inf, math.inf)
    ss = math.fsum((y - ratio * x) ** 2 for y, x in zip(numerators, denominators, strict=True))
    se = math.sqrt(n / (n - 1) * ss) / total
    half = t_quantile(0.5 + confidence / 2.0, n - 1) * se
    return Estimate(ratio, ratio - half, ratio + half)


def percentile(values: Sequence[float], q: float) -> float:
    """The ``q``-th percentile (0-100) with linear interpolation between order
    statistics (NumPy's default), so results match what most readers compute."""
    if not values:
        raise ValueError("the percentile of no values")
    if not 0 <= q <= 100:
        raise ValueError("q must be from 0 to 100")
    s = sorted(values)
    pos = (len(s) - 1) * q / 100.0
    lo = math.floor(pos)
    hi = min(lo + 1, len(s) - 1)
    return s[lo] + (s[hi] - s[lo]) * (pos - lo)


# ----------------------------------------------------------------------
# Bradley–Terry


def _strongly_connected(wins: Sequence[Sequence[float]]) -> bool:
    """Whether every player reaches every other along "beat at least once" edges:
    Hunter's condition (2004, Assumption 1) for the maximum-likelihood strengths
    to exist and be finite."""
    k = len(wins)

    def reach(start: int, forward: bool) -> set[int]:
        seen, stack = {start}, [start]
        while stack:
            i = stack.pop()
            for j in range(k):
                w = wins[i][j] if forward else wins[j][i]
                if j not in seen and w > 0:
                    seen.add(j)
                    stack.append(j)
        return seen

    return k == 0 or (len(reach(0, True)) == k and len(reach(0, False)) == k)


def with_prior(wins: Sequence[Sequence[float]], prior: float) -> list[list[float]]:
    """``wins`` with ``prior`` virtual wins added each way to every pairing that was
    played: a light pull towards equality that keeps ratings finite when one
    player won or lost every game (then no maximum-likelihood estimate exists)."""
    k = len(wins)
    return [[wins[i][j] + (prior if i != j and wins[i][j] + wins[j][i] > 0 else 0.0)
             for j in range(k)] for i in range(k)]


def bradley_terry(wins: Sequence[Sequence[float]], *, prior: float = 0.0,
                  start: Sequence[float] | None = None, tol: float = 1e-11,
                  max_iter: int = 100_000) -> list[float]:
    """Bradley–Terry strengths γ (geometric mean 1) from ``wins[i][j]``, the games
    ``i`` won against ``j`` (draws counted half to each), P(i beats j) = γᵢ/(γᵢ+γⱼ).

    Maximum likelihood by Hunter's MM iteration
    ``γᵢ ← Wᵢ / Σⱼ nᵢⱼ/(γᵢ+γⱼ)``, which increases the likelihood at every step
    and converges whenever the estimate exists. ``prior`` adds virtual wins each
    way (:func:`with_prior`); without one, a win graph that is not strongly
    connected has no finite estimate and raises ValueError. ``start`` warm-starts
    the iteration (the bootstrap starts from the point estimate).
    """
    k = len(wins)
    if any(len(row) != k for row in wins):
        raise ValueError("the win matrix must be square")
    if k == 0:
        return []
    w = with_prior(wins, prior) if prior > 0 else [list(map(float, row)) for row in wins]
    if not _strongly_connected(w):
        raise ValueError("Bradley–Terry ratings do not exist: some players won (or lost) "
                         "every game against the rest; give a prior")
    totals = [math.fsum(row) for row in w]
    # Opponents of each player with the games between them (the graph may be sparse).
    played = [[(j, w[i][j] + w[j][i]) for j in range(k) if j != i and w[i][j] + w[j][i] > 0]
              for i in range(k)]
    gamma = list(start) if start is not None else [1.0] * k
    for _ in range(max_iter):
        new = []
        for i in range(k):
            gi = gamma[i]
            denom = math.fsum(n / (gi + gamma[j]) for j, n in played[i])
            new.append(totals[i] / denom)
        # Normalize to geometric mean 1 (the model fixes strengths only up to scale).
        shift = math.fsum(math.log(g) for g in new) / k
        new = [g / math.exp(shift) for g in new]
        change = max(abs(math.log(a / b)) for a, b in zip(new, gamma, strict=True))
        gamma = new
        if change < tol:
            break
    return gamma


def elo(strengths: Sequence[float], anchor: int = 0, value: float = 1000.0) -> list[float]:
    """Strengths on the Elo scale, ``400·log10(γ)``, shifted so that player
    ``anchor`` rates ``value``: a gap of 400 means 10-to-1 odds, as in chess."""
    base = math.log10(strengths[anchor])
    return [value + 400.0 * (math.log10(g) - base) for g in strengths]


def win_matrix(players: int, results: Mapping[tuple[int, int], Sequence[tuple[float, float]]],
               ) -> list[list[float]]:
    """The win matrix of :func:`bradley_terry` from per-pairing results.

    ``results[(i, j)]`` lists sampling units as ``(score of i, games)``: a single
    game is ``(1, 1)``, ``(0.5, 1)`` or ``(0, 1)``; a mirrored pair of games can
    be one unit ``(score, 2)``.
    """
    w = [[0.0] * players for _ in range(players)]
    for (i, j), units in results.items():
        score = math.fsum(s for s, _ in units)
        games = math.fsum(g for _, g in units)
        w[i][j] += score
        w[j][i] += games - score
    return w


@dataclass(frozen=True, slots=True)
class Ratings:
    """Elo ratings with bootstrap percentile intervals (the anchor's is a point)."""

    elo: list[float]
    low: list[float]
    high: list[float]
    anchor: int
    samples: int


def bootstrap_elo(players: int, results: Mapping[tuple[int, int], Sequence[tuple[float, float]]],
                  *, anchor: int = 0, samples: int = 1000, seed: int = 0, prior: float = 0.0,
                  confidence: float = 0.95) -> Ratings:
    """Bradley–Terry Elo ratings with percentile bootstrap intervals.

    Each replicate resamples, with replacement, the units of every pairing
    separately (so each pairing keeps its number of games) and refits the
    model; the interval is the (2.5, 97.5) percentiles of a player's replicate
    ratings at 95%. ``results`` is as for :func:`win_matrix`; resampling whole
    mirrored pairs (units of two games) keeps the pairing of luck that the
    mirrored deal creates. Reproducible from ``seed``.

    A limitation worth knowing: a pairing one side won every time resamples to
    the same all-wins sample, so it adds no spread; such a rating's interval
    then reflects only the other pairings (and the prior). The Wilson interval
    on that pairing's score is the honest measure there.
    """
    point_strengths = bradley_terry(win_matrix(players, results), prior=prior)
    point = elo(point_strengths, anchor)
    rng = random.Random(seed)
    keys = sorted(results)
    draws: list[list[float]] = [[] for _ in range(players)]
    for _ in range(samples):
        resampled = {key: rng.choices(results[key], k=len(results[key])) for key in keys}
        strengths = bradley_terry(win_matrix(players, resampled), prior=prior,
                                  start=point_strengths)
        for i, r in enumerate(elo(strengths, anchor)):
            draws[i].append(r)
    tail = (1.0 - confidence) / 2.0 * 100.0
    low = [percentile(d, tail) for d in draws] if samples else list(point)
    high = [percentile(d, 100.0 - tail) for d in draws] if samples else list(point)
    return Ratings(point, low, high, anchor, samples)

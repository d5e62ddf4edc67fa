"""Glicko-2 ratings for people's rated games: the pure rating core.

Our own implementation of Mark Glickman's *Example of the Glicko-2 system* (the
2012/2013 note, glicko.net): a player has a rating ``r``, a rating deviation ``RD`` (how
uncertain ``r`` is) and a volatility ``σ`` (how erratic the player is). Games are
gathered into rating periods; at the end of a period each player is rated once by
:func:`rate` from everybody's ratings at the start of the period. This module knows
nothing of accounts, presets or storage: the caller keeps one pool of ratings per
preset and player count, and decides when a period ends.

>>> player = Rating(1500, 200, 0.06)
>>> games = [Outcome(Rating(1400, 30), WIN), Outcome(Rating(1550, 100), LOSS),
...          Outcome(Rating(1700, 300), LOSS)]
>>> after = rate(player, games)
>>> round(after.rating, 2), round(after.deviation, 2), round(after.volatility, 6)
(1464.05, 151.52, 0.059996)
>>> rate(after, []).deviation > after.deviation  # a period without games: less certain
True
>>> round(expected_score(Rating(1700, 30), Rating(1500, 30)), 3)
0.758
>>> strength = Rating(1500, 50).interval()
>>> round(strength.low), round(strength.high)
(1402, 1598)

Glickman's worked example rounds its steps (``μ' = -0.2069``) and so prints 1464.06 and
0.05999; unrounded they are 1464.0507 and 0.0599960 (``tests/test_glicko2.py`` checks
both).

Design decisions, and why:

* **The scale is the arena's.** ``173.7178 = 400 / ln 10``: a rating difference
  means the same expected score as an Elo difference of the arena
  (:func:`casino.measure.stats.elo`), so a bot level's arena-measured strength can be
  published on this scale. Where the two scales are anchored (the arena puts one
  player at 1000, a new player here starts at 1500) is the caller's choice.
* **The levels do not move.** A level's published :class:`Rating` is only ever an
  :class:`Outcome`'s opponent, never passed to :func:`rate`: people's games rate the
  people. Its deviation would be the arena's 95% half-width over 1.96, raised to
  the floor below.
* **Rating periods are the caller's.** Glickman's system works best with some 10 to
  15 games per player in a period; a period is a fixed stretch of time chosen by the
  caller, who rates every player of a pool once at its end, each against the
  opponents' ratings from its start (never a rating already updated in the same
  period), and calls ``rate(player, [])`` for each player who did not play.
* **Deviation floor, 30 (:data:`DEVIATION_FLOOR`).** Without one a very active
  player's RD keeps shrinking and their rating all but stops moving; 30 (a 95% range
  of about ±60) keeps ratings responsive, and is the smallest RD in Glickman's example.
  The ceiling, 350 (:data:`DEVIATION_MAX`), is a new player's RD: a player who does not
  play grows less certain, but never less known than a newcomer.
* **Ranges are checked, never assumed.** Every number is finite and in range or a
  :class:`ValueError` names it: a rating in [0, 5000], a deviation in [30, 350], a
  volatility in [0.0001, 1], ``tau`` in [0.01, 2], a score of 1, 0.5 or 0. :func:`rate`
  clamps what it returns into the same ranges, so its result is always a valid input
  for the next period, even after results that no real game produces. Within them
  no expected score rounds to 0 or 1, so every variance stays finite.
* **The volatility search is bounded.** Step 5, the Illinois variant of regula falsi
  to a tolerance of 0.000001 (:data:`EPSILON`), stops after :data:`MAX_ITERATIONS`
  steps whatever the inputs; the root is always bracketed, so stopping early still
  returns a volatility between two points known to straddle it. (Its first bracket
  needs one step down at most: ``tau`` is at most 2.)
* **Expected scores are computed from both sides.** ``E`` and ``1 - E`` are each a
  logistic of their own, so the rare result against a much stronger or weaker
  opponent keeps its precision.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from casino.measure.stats import Z95, Estimate

#: Rating points per unit of the Glicko-2 scale (400 / ln 10).
SCALE = 173.7178
#: A new player's rating, the centre of the Glicko-2 scale.
DEFAULT_RATING = 1500.0
#: The lowest and highest rating taken or given.
RATING_MIN, RATING_MAX = 0.0, 5000.0
#: The smallest deviation: see the module's notes.
DEVIATION_FLOOR = 30.0
#: A new player's deviation, and the most any player's can grow to.
DEVIATION_MAX = 350.0
#: A new player's volatility (Glickman's suggestion).
DEFAULT_VOLATILITY = 0.06
#: The smallest and largest volatility taken or given: guards, not policy (at 1 a
#: deviation of 30 grows back to the ceiling within five idle periods).
VOLATILITY_MIN, VOLATILITY_MAX = 0.0001, 1.0
#: The system constant's default (Glickman: reasonable between 0.3 and 1.2) and the
#: range accepted: below 0.01 the volatility could not move at all, above 2 it would
#: follow every upset.
DEFAULT_TAU = 0.5
TAU_MIN, TAU_MAX = 0.01, 2.0
#: The volatility search's tolerance, on the log of the squared volatility.
EPSILON = 0.000001
#: The most steps the volatility search takes.
MAX_ITERATIONS = 100

#: The scores of a game, from the rated player's side.
WIN, DRAW, LOSS = 1.0, 0.5, 0.0
SCORES = (WIN, DRAW, LOSS)


def _check(name: str, value: object, low: float, high: float) -> None:
    """Refuse a value that is not a finite number in its range, naming it, so that a bad
    number is caught where it enters rather than as a NaN in someone's rating."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ValueError(f"{name} must be a number, got {value!r}")
    if not (math.isfinite(value) and low <= value <= high):
        raise ValueError(f"{name} must be a finite number in [{low:g}, {high:g}], got {value!r}")


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's strength on the rating scale: the estimate, how uncertain it is (one
    standard deviation, in rating points) and how erratic the player is.

    The defaults are a new player's. Values out of range are refused (see the module's
    notes), so a :class:`Rating` that exists is one the formulas can use.
    """

    rating: float = DEFAULT_RATING
    deviation: float = DEVIATION_MAX
    volatility: float = DEFAULT_VOLATILITY

    def __post_init__(self) -> None:
        _check("rating", self.rating, RATING_MIN, RATING_MAX)
        _check("deviation", self.deviation, DEVIATION_FLOOR, DEVIATION_MAX)
        _check("volatility", self.volatility, VOLATILITY_MIN, VOLATILITY_MAX)

    def interval(self) -> Estimate:
        """The rating with its 95% range, ``rating ± 1.96 · deviation``: what to show a
        person (Glickman rounds 1.96 to 2; the arena's intervals use 1.96 too)."""
        half = Z95 * self.deviation
        return Estimate(self.rating, self.rating - half, self.rating + half)


@dataclass(frozen=True, slots=True)
class Outcome:
    """One game of a rating period, from the rated player's side: the opponent's rating
    at the start of the period and the score, :data:`WIN` (1), :data:`DRAW` (0.5) or
    :data:`LOSS` (0).

    For the callers: a resignation and a loss on time are losses (0) for the player who
    resigned or ran out of time, and wins for the other side. In a two-sided game
    where each side is one player, each player has one outcome against the other. In a
    partnership game (two sides of two), each player has one outcome against each
    player of the other side, with their side's result, and none against their
    partner: a game of four feeds two outcomes to each player. A game in which every
    player plays for themselves would feed one outcome per pair of players, the
    higher final score winning and equal scores drawing.
    """

    opponent: Rating
    score: float

    def __post_init__(self) -> None:
        if isinstance(self.score, bool) or self.score not in SCORES:
            raise ValueError(f"score must be 1 (win), 0.5 (draw) or 0 (loss), "
                             f"got {self.score!r}")


# ----------------------------------------------------------------------
# The Glicko-2 scale (Steps 2 and 8 of the paper)


def _mu(r: Rating) -> float:
    """The rating on the Glicko-2 scale (Step 2)."""
    return (r.rating - DEFAULT_RATING) / SCALE


def _phi(r: Rating) -> float:
    """The deviation on the Glicko-2 scale (Step 2)."""
    return r.deviation / SCALE


def _from_glicko2(mu: float, phi: float, sigma: float) -> Rating:
    """Back to the rating scale (Step 8), each value clamped into its range so that the
    result is always a valid rating for the next period."""
    return Rating(
        rating=min(RATING_MAX, max(RATING_MIN, SCALE * mu + DEFAULT_RATING)),
        deviation=min(DEVIATION_MAX, max(DEVIATION_FLOOR, SCALE * phi)),
        volatility=min(VOLATILITY_MAX, max(VOLATILITY_MIN, sigma)),
    )


def _g(phi: float) -> float:
    """Glickman's ``g(φ)``: how much an opponent's uncertainty dampens what a result
    against them says."""
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _logistic(x: float) -> float:
    """``1 / (1 + e^-x)`` without overflow for either sign of ``x``."""
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    z = math.exp(x)
    return z / (1.0 + z)


def expected_score(a: Rating, b: Rating) -> float:
    """The score ``a`` is expected to make against ``b``, between 0 and 1 (a win counts
    1, a draw half): what to show before a game.

    Both deviations count (Glickman's prediction for a game between two rated players,
    with ``g`` of their combined deviation), so ``expected_score(a, b) +
    expected_score(b, a) == 1``. :func:`rate` uses the opponent's deviation alone, as
    Step 3 does, because there the player's own uncertainty is what is being updated.
    """
    phi = math.hypot(_phi(a), _phi(b))
    return _logistic(_g(phi) * (_mu(a) - _mu(b)))


# ----------------------------------------------------------------------
# One rating period (Steps 3 to 8)


@dataclass(frozen=True, slots=True)
class _Evidence:
    """What a period's games say about a player (Steps 3 and 4): ``v``, the variance of
    the rating from the games alone, and ``Σ g(φ_j)(s_j - E_j)``, the games' pull on
    it (the paper's ``Δ`` is ``v`` times it)."""

    variance: float
    pull: float

    @property
    def delta(self) -> float:
        """The paper's ``Δ``: the estimated improvement, on the Glicko-2 scale."""
        return self.variance * self.pull


def _evidence(mu: float, games: Sequence[Outcome]) -> _Evidence:
    """Steps 3 and 4 for a player at ``mu`` over a non-empty period. ``E`` and ``1 - E``
    are each computed as a logistic, so neither loses its digits when it is tiny."""
    information = pull = 0.0
    for game in games:
        g = _g(_phi(game.opponent))
        x = g * (mu - _mu(game.opponent))
        expected, unexpected = _logistic(x), _logistic(-x)  # E and 1 - E
        information += g * g * expected * unexpected
        pull += g * (game.score * unexpected - (1.0 - game.score) * expected)  # g·(s - E)
    return _Evidence(1.0 / information, pull)


@dataclass(frozen=True, slots=True)
class _Volatility:
    """The new volatility from Step 5 and how many Illinois steps found it (the tests
    count them: the search must end on any input)."""

    sigma: float
    iterations: int


def _volatility_target(phi: float, sigma: float, evidence: _Evidence,
                       tau: float) -> Callable[[float], float]:
    """The paper's ``f(x)``, whose root ``x = ln σ'²`` is the new volatility."""
    a = math.log(sigma * sigma)
    delta2 = evidence.delta ** 2
    base = phi * phi + evidence.variance

    def f(x: float) -> float:
        ex = math.exp(x)
        return ex * (delta2 - base - ex) / (2.0 * (base + ex) ** 2) - (x - a) / (tau * tau)

    return f


def _new_volatility(phi: float, sigma: float, evidence: _Evidence, tau: float,
                    max_iterations: int = MAX_ITERATIONS) -> _Volatility:
    """Step 5: the root of ``f`` by the Illinois algorithm to :data:`EPSILON`, in at most
    ``max_iterations`` steps. ``A`` and ``B`` straddle the root throughout, so the
    value returned is within ``|B - A|`` of it even when the steps run out."""
    f = _volatility_target(phi, sigma, evidence, tau)
    a = math.log(sigma * sigma)
    excess = evidence.delta ** 2 - phi * phi - evidence.variance
    if excess > 0:
        b = math.log(excess)
    else:
        # f(a - kτ) > k/τ - 1/2 here, so k = 1 already suffices for τ ≤ 2; the loop is
        # the paper's, bounded all the same.
        k = 1
        while f(a - k * tau) < 0 and k < max_iterations:
            k += 1
        b = a - k * tau
    fa, fb = f(a), f(b)
    steps = 0
    while abs(b - a) > EPSILON and steps < max_iterations and fb != fa:
        c = a + (a - b) * fa / (fb - fa)
        fc = f(c)
        if fc * fb <= 0:
            a, fa = b, fb
        else:
            fa /= 2.0
        b, fb = c, fc
        steps += 1
    return _Volatility(math.exp(a / 2.0), steps)


def _grown(player: Rating) -> Rating:
    """A period without games: rating and volatility stay, the deviation grows by the
    volatility (Step 6 alone), up to :data:`DEVIATION_MAX`."""
    phi = math.hypot(_phi(player), player.volatility)
    return _from_glicko2(_mu(player), phi, player.volatility)


def rate(player: Rating, games: Sequence[Outcome], tau: float = DEFAULT_TAU) -> Rating:
    """The player's rating at the end of a rating period in which they played ``games``
    (each against the opponent's rating at the start of the period).

    With no games only the deviation grows (up to 350): the player is as strong as we
    thought, but we are less sure of it. ``tau``, the system constant, limits how fast
    the volatility changes (Glickman: 0.3 to 1.2; smaller if improbable results are
    expected); it must be in [0.01, 2]. A rating that must not move, a bot level's
    published strength, is never passed here: it is only ever an opponent.
    """
    _check("tau", tau, TAU_MIN, TAU_MAX)
    if not games:
        return _grown(player)
    mu, phi = _mu(player), _phi(player)
    evidence = _evidence(mu, games)
    sigma = _new_volatility(phi, player.volatility, evidence, tau).sigma
    phi_star = math.hypot(phi, sigma)  # Step 6
    new_phi = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / evidence.variance)  # Step 7
    new_mu = mu + new_phi * new_phi * evidence.pull
    return _from_glicko2(new_mu, new_phi, sigma)

"""Glicko-2 (casino.measure.glicko2) against Glickman's worked example and the properties
a rating must keep: expected values come from the paper ("Example of the Glicko-2
system") or from the closed forms quoted in each test, never from running the code
under test. The volatility search is checked to end by counting its steps, never by
the clock."""

from __future__ import annotations

import itertools
import math
import random

import pytest

from casino.measure import glicko2
from casino.measure.glicko2 import (
    DEVIATION_FLOOR,
    DEVIATION_MAX,
    DRAW,
    LOSS,
    MAX_ITERATIONS,
    RATING_MAX,
    RATING_MIN,
    SCALE,
    SCORES,
    TAU_MAX,
    TAU_MIN,
    VOLATILITY_MAX,
    VOLATILITY_MIN,
    WIN,
    Outcome,
    Rating,
    expected_score,
    rate,
)

# ----------------------------------------------------------------------
# Glickman's worked example: a 1500/200/0.06 player beats 1400/30, loses to 1550/100
# and to 1700/300, with tau = 0.5.

PLAYER = Rating(1500, 200, 0.06)
GAMES = [Outcome(Rating(1400, 30), WIN), Outcome(Rating(1550, 100), LOSS),
         Outcome(Rating(1700, 300), LOSS)]


def test_the_worked_example_gives_the_papers_rating_deviation_and_volatility() -> None:
    after = rate(PLAYER, GAMES, tau=0.5)
    # The paper prints r' = 1464.06, RD' = 151.52, sigma' = 0.05999, from steps rounded
    # to four places; unrounded the same steps give 1464.0507, 151.5165, 0.0599960.
    assert after.rating == pytest.approx(1464.06, abs=0.015)
    assert after.deviation == pytest.approx(151.52, abs=0.005)
    assert after.volatility == pytest.approx(0.05999, abs=0.00001)
    assert after.rating == pytest.approx(1464.0507, abs=0.0001)
    assert after.deviation == pytest.approx(151.5165, abs=0.0001)
    assert after.volatility == pytest.approx(0.0599960, abs=0.0000001)


def test_the_worked_examples_intermediate_quantities() -> None:
    # Step 2: mu = 0, phi = 1.1513; g(phi_j) = 0.9955, 0.9531, 0.7242 (Step 3's table).
    assert glicko2._mu(PLAYER) == 0.0
    assert glicko2._phi(PLAYER) == pytest.approx(1.1513, abs=0.0001)
    assert [glicko2._g(glicko2._phi(g.opponent)) for g in GAMES] == pytest.approx(
        [0.9955, 0.9531, 0.7242], abs=0.0001)
    # Steps 3 and 4: v = 1.7785, Delta = -0.4834 (the paper multiplies rounded values, so
    # its fourth place may differ from the exact one).
    evidence = glicko2._evidence(0.0, GAMES)
    assert evidence.variance == pytest.approx(1.7785, abs=0.001)
    assert evidence.delta == pytest.approx(-0.4834, abs=0.001)
    # Step 5 ends in a few steps on ordinary input.
    search = glicko2._new_volatility(glicko2._phi(PLAYER), 0.06, evidence, 0.5)
    assert search.sigma == pytest.approx(0.05999, abs=0.00001)
    assert search.iterations <= 5


def test_the_scale_is_the_elo_scale() -> None:
    # 173.7178 = 400 / ln 10: the same expected score for the same difference as the arena.
    assert math.isclose(SCALE, 400 / math.log(10), abs_tol=1e-4)


# ----------------------------------------------------------------------
# A period without games


def test_a_period_without_games_only_grows_the_deviation() -> None:
    after = rate(PLAYER, [])
    assert after.rating == PLAYER.rating
    assert after.volatility == PLAYER.volatility
    # Step 6 alone: sqrt(200² + (0.06 · 173.7178)²) = sqrt(40000 + 108.6434) = 200.2714.
    assert after.deviation == pytest.approx(200.2714, abs=0.0001)


def test_the_deviation_grows_no_further_than_a_new_players() -> None:
    assert rate(Rating(1500, 349, VOLATILITY_MAX), []).deviation == DEVIATION_MAX
    assert rate(Rating(), []) == Rating()
    # Many idle periods in a row: the deviation climbs to the cap and stays.
    idle = Rating(1800, DEVIATION_FLOOR, 0.06)
    deviations = []
    for _ in range(2000):
        idle = rate(idle, [])
        deviations.append(idle.deviation)
    assert deviations == sorted(deviations)
    assert deviations[-1] == DEVIATION_MAX
    assert idle.rating == 1800


# ----------------------------------------------------------------------
# Symmetry and monotonicity


@pytest.mark.parametrize("value", [1500.0, 1723.4, 812.0])
def test_a_draw_between_equals_changes_neither_rating(value: float) -> None:
    equal = Rating(value, 120, 0.06)
    after = rate(equal, [Outcome(equal, DRAW)])
    assert after.rating == pytest.approx(value, abs=1e-9)
    assert after.deviation < equal.deviation  # a game was played: more certain


def test_a_game_between_equals_moves_both_by_the_same_amount() -> None:
    a = b = Rating(1600, 80, 0.05)
    winner = rate(a, [Outcome(b, WIN)])
    loser = rate(b, [Outcome(a, LOSS)])
    assert winner.rating - a.rating == pytest.approx(b.rating - loser.rating, abs=1e-9)
    assert winner.deviation == pytest.approx(loser.deviation, abs=1e-9)


def test_expected_scores_of_the_two_sides_add_up_to_one() -> None:
    a, b = Rating(1700, 60, 0.06), Rating(1450, 250, 0.06)
    assert expected_score(a, b) + expected_score(b, a) == pytest.approx(1.0, abs=1e-12)
    assert expected_score(a, a) == 0.5
    assert expected_score(a, b) > 0.5
    # Equal deviations of 0 would make it 1 / (1 + 10^(-200/400)) = 0.7597; the two
    # deviations of 30 dampen it: g(sqrt(2)·30/173.7178) = 0.9909 -> 0.7579.
    assert expected_score(Rating(1700, 30), Rating(1500, 30)) == pytest.approx(0.7579, abs=1e-4)


def _random_rating(rng: random.Random) -> Rating:
    return Rating(rng.uniform(600, 2800), rng.uniform(DEVIATION_FLOOR, DEVIATION_MAX),
                  rng.uniform(0.03, 0.1))


def test_a_single_result_moves_the_rating_its_way() -> None:
    rng = random.Random(46)
    for _ in range(500):
        player, opponent = _random_rating(rng), _random_rating(rng)
        win, draw, loss = (rate(player, [Outcome(opponent, s)]).rating for s in SCORES)
        assert loss < player.rating < win
        assert loss < draw < win
        # A draw pulls the rating towards the opponent's.
        if opponent.rating > player.rating:
            assert draw > player.rating
        elif opponent.rating < player.rating:
            assert draw < player.rating


def test_a_better_result_never_lowers_the_new_rating() -> None:
    # In any period, turning one game's loss into a draw or its draw into a win never
    # lowers the rating at the end of it.
    rng = random.Random(4646)
    for _ in range(300):
        player = _random_rating(rng)
        games = [Outcome(_random_rating(rng), rng.choice(SCORES))
                 for _ in range(rng.randint(1, 12))]
        before = rate(player, games).rating
        for i, game in enumerate(games):
            if game.score == WIN:
                continue
            better = [*games]
            better[i] = Outcome(game.opponent, game.score + 0.5)
            assert rate(player, better).rating >= before


def test_the_deviation_floor_holds_for_a_very_active_player() -> None:
    player = Rating(1500, DEVIATION_FLOOR, VOLATILITY_MIN)
    after = rate(player, [Outcome(Rating(1500, DEVIATION_FLOOR), DRAW)] * 500)
    assert after.deviation == DEVIATION_FLOOR


def test_the_interval_is_the_rating_plus_or_minus_1_96_deviations() -> None:
    strength = Rating(1850, 50).interval()
    assert strength.value == 1850
    assert strength.low == pytest.approx(1850 - 1.959964 * 50)
    assert strength.high == pytest.approx(1850 + 1.959964 * 50)


# ----------------------------------------------------------------------
# Bad input is refused, naming the value


@pytest.mark.parametrize(("fields", "named"), [
    ({"rating": math.nan}, "rating"),
    ({"rating": math.inf}, "rating"),
    ({"rating": -math.inf}, "rating"),
    ({"rating": RATING_MIN - 1}, "rating"),
    ({"rating": RATING_MAX + 1}, "rating"),
    ({"rating": True}, "rating"),
    ({"rating": "1500"}, "rating"),
    ({"deviation": math.nan}, "deviation"),
    ({"deviation": 0.0}, "deviation"),
    ({"deviation": DEVIATION_FLOOR - 0.1}, "deviation"),
    ({"deviation": DEVIATION_MAX + 0.1}, "deviation"),
    ({"volatility": math.nan}, "volatility"),
    ({"volatility": 0.0}, "volatility"),
    ({"volatility": -0.06}, "volatility"),
    ({"volatility": math.inf}, "volatility"),
    ({"volatility": VOLATILITY_MAX * 2}, "volatility"),
])
def test_a_rating_out_of_range_is_refused(fields: dict[str, object], named: str) -> None:
    with pytest.raises(ValueError, match=rf"^{named} must be"):
        Rating(**fields)  # type: ignore[arg-type]


@pytest.mark.parametrize("score", [math.nan, math.inf, 0.25, 0.75, -1.0, 2.0, True, False])
def test_a_score_other_than_win_draw_or_loss_is_refused(score: float) -> None:
    with pytest.raises(ValueError, match=r"^score must be 1"):
        Outcome(Rating(), score)


@pytest.mark.parametrize("tau", [math.nan, math.inf, 0.0, -0.5, TAU_MIN / 2, TAU_MAX + 0.1])
def test_a_tau_out_of_range_is_refused(tau: float) -> None:
    with pytest.raises(ValueError, match=r"^tau must be"):
        rate(PLAYER, GAMES, tau=tau)
    with pytest.raises(ValueError, match=r"^tau must be"):
        rate(PLAYER, [], tau=tau)


# ----------------------------------------------------------------------
# Extreme input: the volatility search ends, and the result is a valid rating

EXTREME_RATINGS = (RATING_MIN, 1500.0, RATING_MAX)
EXTREME_DEVIATIONS = (DEVIATION_FLOOR, DEVIATION_MAX)
EXTREME_VOLATILITIES = (VOLATILITY_MIN, 0.06, VOLATILITY_MAX)


def test_the_volatility_search_ends_on_extreme_input() -> None:
    worst = 0
    for (r, d, s, opp_r, opp_d, score, tau, n) in itertools.product(
            EXTREME_RATINGS, EXTREME_DEVIATIONS, EXTREME_VOLATILITIES,
            EXTREME_RATINGS, EXTREME_DEVIATIONS, SCORES, (TAU_MIN, 0.5, TAU_MAX), (1, 200)):
        player = Rating(r, d, s)
        games = [Outcome(Rating(opp_r, opp_d), score)] * n
        evidence = glicko2._evidence(glicko2._mu(player), games)
        search = glicko2._new_volatility(glicko2._phi(player), s, evidence, tau)
        worst = max(worst, search.iterations)
        assert math.isfinite(search.sigma) and search.sigma > 0
        after = rate(player, games, tau)  # a Rating: every value finite and in range
        assert RATING_MIN <= after.rating <= RATING_MAX
    # Converged well inside the bound (ordinary games take 2 to 5 steps; a player at
    # 0 beating one at 5000 two hundred times is the worst, at about 50).
    assert worst < MAX_ITERATIONS


def test_the_volatility_search_stops_at_its_bound_with_a_bracketed_answer() -> None:
    player, opponent = Rating(RATING_MIN, DEVIATION_FLOOR, 0.06), Rating(RATING_MAX, 30)
    evidence = glicko2._evidence(glicko2._mu(player), [Outcome(opponent, WIN)] * 50)
    phi = glicko2._phi(player)
    full = glicko2._new_volatility(phi, 0.06, evidence, 0.5)
    assert 10 < full.iterations < MAX_ITERATIONS  # a search long enough to cut short
    cut = glicko2._new_volatility(phi, 0.06, evidence, 0.5, max_iterations=3)
    assert cut.iterations == 3
    # Cut short, the answer is one end of a bracket of the root, so it lies within the
    # first bracket: from ln 0.06² up to ln(Delta² - phi² - v) (Step 5's A and B).
    first_b = math.sqrt(evidence.delta ** 2 - phi ** 2 - evidence.variance)
    assert 0.06 <= full.sigma <= first_b
    assert 0.06 <= cut.sigma <= first_b
    assert cut.sigma != full.sigma


def test_hostile_results_leave_the_rating_at_its_bounds() -> None:
    # Beating the strongest possible opponent again and again: the rating reaches its
    # ceiling and every value stays valid for the next period.
    player = Rating(RATING_MIN, DEVIATION_MAX, VOLATILITY_MAX)
    for _ in range(20):
        player = rate(player, [Outcome(Rating(RATING_MAX, DEVIATION_FLOOR), WIN)] * 100,
                      tau=TAU_MAX)
    assert player.rating == RATING_MAX
    assert DEVIATION_FLOOR <= player.deviation <= DEVIATION_MAX
    assert VOLATILITY_MIN <= player.volatility <= VOLATILITY_MAX


def test_the_first_bracket_needs_one_step_down_at_most() -> None:
    # Step 5 steps down from a = ln sigma² until f(a - k·tau) >= 0 when Delta² <= phi² + v;
    # there f(a - k·tau) > k/tau - 1/2, so for tau <= 2 the first step, k = 1, is enough.
    checked = 0
    for (r, d, s, opp_r, opp_d, score, tau) in itertools.product(
            EXTREME_RATINGS, EXTREME_DEVIATIONS, EXTREME_VOLATILITIES,
            EXTREME_RATINGS, EXTREME_DEVIATIONS, SCORES, (TAU_MIN, 0.5, 1.0, TAU_MAX)):
        player = Rating(r, d, s)
        evidence = glicko2._evidence(glicko2._mu(player), [Outcome(Rating(opp_r, opp_d), score)])
        phi = glicko2._phi(player)
        if evidence.delta ** 2 > phi ** 2 + evidence.variance:
            continue
        f = glicko2._volatility_target(phi, s, evidence, tau)
        assert f(math.log(s * s) - tau) >= 0
        checked += 1
    assert checked > 100

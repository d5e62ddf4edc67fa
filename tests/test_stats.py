"""The arena's statistics on fixed data whose answers are worked out independently.

Expected values come from the closed forms (quoted in each test) or from
published tables (Student t quantiles), never from running the code under test.
"""

from __future__ import annotations

import math

import pytest

from casino.measure.stats import (
    Z95,
    Estimate,
    bootstrap_elo,
    bradley_terry,
    elo,
    mean_interval,
    percentile,
    ratio_interval,
    t_quantile,
    wilson,
    win_matrix,
)

# ----------------------------------------------------------------------
# Wilson


def test_wilson_8_of_10_matches_the_formula_to_4_decimals() -> None:
    # (p + z²/2n ± z·√(p(1-p)/n + z²/4n²)) / (1 + z²/n), p = 0.8, n = 10, z = 1.959964:
    # centre 0.7167, half-width 0.2265 -> [0.4902, 0.9433].
    est = wilson(8, 10)
    assert est.value == pytest.approx(0.8)
    assert est.low == pytest.approx(0.4902, abs=5e-5)
    assert est.high == pytest.approx(0.9433, abs=5e-5)


def test_wilson_zero_successes_has_upper_bound_z2_over_n_plus_z2() -> None:
    est = wilson(0, 10)
    assert est.low == 0.0
    assert est.high == pytest.approx(Z95**2 / (10 + Z95**2), abs=1e-12)  # 0.2775


def test_wilson_accepts_half_points_and_is_symmetric() -> None:
    a = wilson(4.5, 10)
    b = wilson(5.5, 10)
    assert a.low == pytest.approx(1 - b.high)
    assert a.high == pytest.approx(1 - b.low)


def test_wilson_with_no_games_is_the_whole_unit_interval() -> None:
    assert wilson(0, 0) == Estimate(0.5, 0.0, 1.0)


def test_wilson_rejects_more_successes_than_trials() -> None:
    with pytest.raises(ValueError):
        wilson(11, 10)


# ----------------------------------------------------------------------
# t quantiles and means


@pytest.mark.parametrize(("df", "expected"), [
    (1, 12.706205), (2, 4.302653), (4, 2.776445), (9, 2.262157), (30, 2.042272),
    (10_000, 1.960201),
])
def test_t_quantile_matches_published_tables(df: int, expected: float) -> None:
    assert t_quantile(0.975, df) == pytest.approx(expected, abs=2e-6)


def test_t_quantile_is_antisymmetric() -> None:
    assert t_quantile(0.025, 7) == pytest.approx(-t_quantile(0.975, 7))


def test_mean_interval_of_1_to_5_uses_t_with_4_degrees() -> None:
    # mean 3, s = √2.5, se = √0.5, t(0.975, 4) = 2.776445 -> 3 ± 1.963243.
    est = mean_interval([1, 2, 3, 4, 5])
    assert est.value == 3
    assert est.low == pytest.approx(3 - 1.963243, abs=1e-5)
    assert est.high == pytest.approx(3 + 1.963243, abs=1e-5)


def test_mean_interval_of_one_value_is_unbounded_and_json_has_no_infinity() -> None:
    est = mean_interval([2.0])
    assert est.value == 2.0 and math.isinf(est.low) and math.isinf(est.high)
    assert est.to_json() == {"value": 2.0, "low": None, "high": None}


def test_ratio_interval_by_hand() -> None:
    # R = 9/4; residuals -0.25, -0.5, 0.75; Σe² = 0.875; se = √(3/2·0.875)/4 = 0.286411;
    # t(0.975, 2) = 4.302653 -> half-width 1.232318.
    est = ratio_interval([2, 4, 3], [1, 2, 1])
    assert est.value == pytest.approx(2.25)
    assert est.high - est.value == pytest.approx(1.232318, abs=1e-5)
    assert est.value - est.low == pytest.approx(1.232318, abs=1e-5)


def test_percentile_interpolates_linearly() -> None:
    assert percentile([4, 1, 3, 2], 50) == 2.5
    assert percentile([1, 2, 3, 4], 95) == pytest.approx(3.85)
    assert percentile([7], 95) == 7


# ----------------------------------------------------------------------
# Bradley–Terry and Elo


def test_bradley_terry_two_players_is_the_win_ratio() -> None:
    # With two players the likelihood is maximized at p = w/(w+l): γ₀/γ₁ = 30/10,
    # so the Elo gap is 400·log10(3) = 190.8485.
    gamma = bradley_terry([[0, 30], [10, 0]])
    assert gamma[0] / gamma[1] == pytest.approx(3.0, rel=1e-9)
    ratings = elo(gamma, anchor=1)
    assert ratings[1] == 1000
    assert ratings[0] - ratings[1] == pytest.approx(190.8485, abs=1e-4)


def test_bradley_terry_draws_count_half() -> None:
    # 6 wins, 2 losses, 2 draws = 7 : 3.
    gamma = bradley_terry([[0, 7], [3, 0]])
    assert gamma[0] / gamma[1] == pytest.approx(7 / 3, rel=1e-9)


def test_bradley_terry_three_players_consistent_data_recovers_strengths() -> None:
    # Strengths 1 : 2 : 4 and 30 games per pairing, wins exactly as expected:
    # 0-1: 10-20 (1/3), 0-2: 6-24 (1/5), 1-2: 10-20 (1/3). The likelihood equations
    # Wᵢ = Σⱼ nᵢⱼ γᵢ/(γᵢ+γⱼ) then hold at γ = (1, 2, 4), so that is the estimate;
    # each step of 2 is 400·log10(2) = 120.4120 Elo.
    wins = [[0, 10, 6], [20, 0, 10], [24, 20, 0]]
    ratings = elo(bradley_terry(wins), anchor=0)
    assert ratings[0] == 1000
    assert ratings[1] == pytest.approx(1120.4120, abs=1e-4)
    assert ratings[2] == pytest.approx(1240.8240, abs=1e-4)


def test_bradley_terry_strengths_have_geometric_mean_one() -> None:
    gamma = bradley_terry([[0, 10, 6], [20, 0, 10], [24, 20, 0]])
    assert math.fsum(math.log(g) for g in gamma) == pytest.approx(0.0, abs=1e-9)


def test_bradley_terry_chain_of_neighbour_pairings() -> None:
    # Only neighbours play (0-1, 1-2), each 3:1; the gaps simply add up:
    # 2 × 400·log10(3) = 381.6970.
    wins = [[0, 10, 0], [30, 0, 10], [0, 30, 0]]
    ratings = elo(bradley_terry(wins), anchor=0)
    assert ratings[2] - ratings[0] == pytest.approx(381.6970, abs=1e-3)


def test_bradley_terry_without_a_finite_estimate_raises_unless_given_a_prior() -> None:
    # Player 0 won every game: the likelihood grows without bound.
    with pytest.raises(ValueError, match="prior"):
        bradley_terry([[0, 10], [0, 0]])
    # With 0.5 virtual wins each way the ratio is 10.5 / 0.5 = 21.
    gamma = bradley_terry([[0, 10], [0, 0]], prior=0.5)
    assert gamma[0] / gamma[1] == pytest.approx(21.0, rel=1e-9)


def test_win_matrix_from_units_of_mirrored_pairs() -> None:
    w = win_matrix(2, {(0, 1): [(2, 2), (1.5, 2), (0, 2)]})
    assert w == [[0.0, 3.5], [2.5, 0.0]]


# ----------------------------------------------------------------------
# Bootstrap


def _results() -> dict[tuple[int, int], list[tuple[float, float]]]:
    return {
        (0, 1): [(1.0, 1.0)] * 10 + [(0.0, 1.0)] * 20,
        (0, 2): [(1.0, 1.0)] * 6 + [(0.0, 1.0)] * 24,
        (1, 2): [(1.0, 1.0)] * 10 + [(0.5, 1.0)] * 2 + [(0.0, 1.0)] * 18,
    }


def test_bootstrap_is_deterministic_for_a_seed() -> None:
    a = bootstrap_elo(3, _results(), anchor=1, samples=200, seed=7, prior=0.5)
    b = bootstrap_elo(3, _results(), anchor=1, samples=200, seed=7, prior=0.5)
    c = bootstrap_elo(3, _results(), anchor=1, samples=200, seed=8, prior=0.5)
    assert a == b
    assert a.low != c.low


def test_bootstrap_intervals_hold_the_estimate_and_the_anchor_is_a_point() -> None:
    r = bootstrap_elo(3, _results(), anchor=1, samples=300, seed=1, prior=0.5)
    assert r.elo[1] == r.low[1] == r.high[1] == 1000
    for i in (0, 2):
        assert r.low[i] < r.elo[i] < r.high[i]
    assert r.elo[0] < 1000 < r.elo[2]


def test_bootstrap_point_estimate_is_the_bradley_terry_fit() -> None:
    res = {(0, 1): [(1.0, 1.0)] * 30 + [(0.0, 1.0)] * 10}
    r = bootstrap_elo(2, res, anchor=1, samples=50, seed=0)
    assert r.elo[0] - r.elo[1] == pytest.approx(400 * math.log10(3), abs=1e-6)

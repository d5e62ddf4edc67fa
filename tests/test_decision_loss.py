"""The arithmetic of ``research/decision_loss.py``'s bracket on fixed data with
answers worked out by hand (the long runs themselves are research, not tests). The
bracket, ``information_value``, is the review's judge's (casino.bots.judge), which the
script uses."""

from __future__ import annotations

import pytest

from casino.bots.judge import information_value
from research import decision_loss


def test_the_floor_and_the_fair_choice_on_two_deals() -> None:
    # Move 0 is worth 3 in the first consistent deal and 0 in the second; move 1 is
    # worth 1 and 2. Knowing the deal, one would get (3 + 2) / 2 = 2.5; choosing
    # blind, the best mean is 1.5 (a tie, the first move kept): a floor of 1.0. On
    # the true deal move 0 is worth 0 and move 1 is worth 4: the fair choice loses 4.
    floor, fair = information_value([[3.0, 1.0], [0.0, 2.0]], [0.0, 4.0])
    assert floor == pytest.approx(1.0)
    assert fair == pytest.approx(4.0)


def test_one_move_best_everywhere_costs_nothing() -> None:
    floor, fair = information_value([[2.0, 1.0], [5.0, -1.0]], [1.0, 0.5])
    assert floor == 0.0
    assert fair == 0.0


def test_the_paired_interval_is_over_pairs_and_counts_silent_pairs_as_zero() -> None:
    rows = [
        {"seed": 1, "loss": 3.0, "voi": 1.0},   # pair 1: (3 - 1) + (2 - 0) = 4 over 2 rounds
        {"seed": 1, "loss": 2.0, "voi": 0.0},
        {"seed": 2, "loss": 1.0, "voi": 1.0},   # pair 2: 0
    ]
    mean, half = decision_loss.paired_interval(rows, "voi", pairs=3)  # pair 3: no decision
    # Per pair and round: 2, 0, 0; mean 2/3, sample sd sqrt(4/3), half-width 1.96 sd / sqrt(3).
    assert mean == pytest.approx(2 / 3)
    assert half == pytest.approx(1.96 * (4 / 3) ** 0.5 / 3 ** 0.5)

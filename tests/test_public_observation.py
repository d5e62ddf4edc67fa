"""What a spectator may see (issue 47): ``Position.observe_public``, the one place that
decides it, shows the table, the piles, the scores and every hand's and the stock's
count, and never a card held by anyone or still to be dealt."""

from __future__ import annotations

import pytest

from casino.engine.match import Match
from casino.engine.rules import PRESET_NAMES


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_spectator_sees_no_hand_and_no_stock_only_their_counts(name: str) -> None:
    pos = Match(name, seed=3).position
    checked = 0
    while pos.result is None:
        seen = pos.observe_public()
        assert all(isinstance(h, int) for h in seen.hands)
        assert [seen.hand_size(s) for s in pos.rules.seats] == [
            pos.hand_size(s) for s in pos.rules.seats]
        assert seen.stock == pos.stock_size
        # Everything face up is as every seat's observation shows it.
        for seat in pos.rules.seats:
            mine = pos.observe(seat)
            assert (seen.table, seen.piles, seen.sweeps, seen.scores, seen.last_capture,
                    seen.to_move, seen.set_aside) == (
                mine.table, mine.piles, mine.sweeps, mine.scores, mine.last_capture,
                mine.to_move, mine.set_aside)
        # The observation of no seat: no hand is shown, not even one's own.
        assert seen.hands == pos.seen_hands(None)
        pos = pos.successor(pos.candidate_moves().moves[0])
        checked += 1
    assert checked > 5


def test_the_public_observation_of_a_finished_round_keeps_its_result() -> None:
    match = Match(PRESET_NAMES[0], seed=5)
    while match.position.result is None:
        match.play(match.position.candidate_moves().moves[0])
    seen = match.position.observe_public()
    assert seen.result == match.position.result and seen.piles == match.position.piles

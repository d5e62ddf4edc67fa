"""The engine plays a whole seeded game of every preset without error."""

import random

import pytest

from casino import PRESET_NAMES, Match


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_seeded_game_plays_to_its_end(name: str) -> None:
    match = Match(name, seed=11)
    rng = random.Random(11)
    rounds = 0
    while not match.is_over and rounds < 40:
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        rounds += 1
        if not match.is_over:
            match.next_round()
    assert match.position.result is not None

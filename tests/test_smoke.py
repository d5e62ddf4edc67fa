"""The engine plays a whole seeded game of every preset to its end: a winner, and
nothing more to play."""

import random

import pytest

from casino import PRESET_NAMES, IllegalMove, Match

#: Far more rounds than a game of random moves lasts (tablic's, the longest, takes 8 here).
MAX_ROUNDS = 40


@pytest.mark.parametrize("name", PRESET_NAMES)
def test_a_seeded_game_plays_to_its_end(name: str) -> None:
    match = Match(name, seed=11)
    rng = random.Random(11)
    for _ in range(MAX_ROUNDS):
        while match.position.result is None:
            match.play(rng.choice(match.legal_moves()))
        if match.is_over:
            break
        match.next_round()
    assert match.is_over, f"{name}: no winner after {len(match.rounds)} rounds"
    assert match.winner in match.rules.teams  # a side of this game (its first seat)
    with pytest.raises(IllegalMove, match="the game is over"):
        match.play("7h")  # refused before the move is even read
    with pytest.raises(ValueError, match="the game is over"):
        match.next_round()

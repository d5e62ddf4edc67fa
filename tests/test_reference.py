"""The fast move generator agrees with a brute-force reading of docs/rules.md.

Positions come from seeded games of every preset, played by a policy that
prefers building, adding and raising so that tables hold several builds and
the ownership rule bites. For each, the set of legal moves (as identities) must
equal the reference's, and every successor must follow the move.
"""

from __future__ import annotations

import random
from collections.abc import Iterator

import pytest

from casino import Match, Position
from casino.engine.moves import Move
from tests.reference import Key, build_key, reference_moves

CASES = [("casino", 2), ("krypkasino", 2), ("kasino", 2), ("kasino", 3), ("classic", 2),
         ("classic", 4), ("royal", 3), ("spade", 2), ("faces-all", 2), ("mulle", 2),
         ("tablic", 2), ("tablic", 4)]


def key(m: Move) -> Key:
    return (m.kind, m.card, m.loose, tuple(sorted(build_key(b) for b in m.builds)), m.value)


def builder_policy(rng: random.Random, moves: list[Move]) -> Move:
    onto = [m for m in moves if m.kind in ("build", "add", "raise")]
    if onto and rng.random() < 0.6:
        return rng.choice(onto)
    return rng.choice(moves)


def positions(name: str, players: int, seed: int, limit: int) -> Iterator[Position]:
    rng = random.Random(seed)
    match = Match(name, seed=seed, players=players)
    count = 0
    while count < limit:
        pos = match.position
        if pos.result is not None:
            if match.is_over:
                match = Match(name, seed=rng.randrange(1 << 30), players=players)
            else:
                match.next_round()
            continue
        if len(pos.table) <= 9:
            count += 1
            yield pos
        match.play(builder_policy(rng, pos.legal_moves()))


def check(pos: Position) -> None:
    rules = pos.rules
    engine = [key(m) for m in pos.legal_moves()]
    assert len(engine) == len(set(engine)), "a move is listed twice"
    ref = reference_moves(rules, pos.hand(pos.to_move), pos.loose, pos.builds, pos.to_move)
    missing = ref - set(engine)
    extra = set(engine) - ref
    assert not missing and not extra, (
        f"\n{pos}\nmissing: {sorted(missing)}\nextra: {sorted(extra)}")


@pytest.mark.parametrize(("name", "players"), CASES)
def test_generator_matches_reference(name: str, players: int) -> None:
    for pos in positions(name, players, seed=2024, limit=30):  # 8 x 150 in the slow test
        check(pos)


@pytest.mark.slow
@pytest.mark.parametrize(("name", "players"), CASES)
def test_generator_matches_reference_long(name: str, players: int) -> None:
    for seed in range(8):
        for pos in positions(name, players, seed=seed, limit=150):
            check(pos)

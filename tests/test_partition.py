"""The split search (casino.engine.partition) against brute force on random multisets.

Each case is a random multiset of up to 13 cards with small values (repeated far
more than one deck allows, so that counts exceed the target and every pruning rule
is exercised), some cards pairing alone, some worth two values (Tablić's Ace); the
brute force tries every way to cut the cards into blocks, by bitmask.
"""

from __future__ import annotations

import random
from functools import cache

import pytest

from casino.engine.partition import Piece, best_split, has_block, has_group


def brute_exact(values: list[tuple[int, ...]], alone: list[bool], target: int,
                min_group: int) -> bool:
    """Can every card be covered? Blocks are grown from the lowest uncovered card."""
    n = len(values)

    @cache
    def cover(mask: int) -> bool:
        if mask == (1 << n) - 1:
            return True
        i = next(j for j in range(n) if not mask >> j & 1)
        free = [j for j in range(i + 1, n) if not mask >> j & 1]
        if (alone[i] or (min_group == 1 and target in values[i])) and cover(mask | 1 << i):
            return True
        for sub in range(1, 1 << len(free)):
            members = [i] + [free[k] for k in range(len(free)) if sub >> k & 1]
            sums = {0}
            for j in members:
                sums = {s + v for s in sums for v in values[j]}
            if target in sums and cover(mask | sum(1 << j for j in members)):
                return True
        return False
    return cover(0)


def case(rng: random.Random) -> tuple[list[tuple[int, ...]], list[bool], int, int]:
    target = rng.randint(2, 16)
    n = rng.randint(0, 11)
    values: list[tuple[int, ...]] = []
    alone: list[bool] = []
    kinds: list[tuple[int, ...]] = [(rng.randint(1, min(target, 9)),)
                                    for _ in range(rng.randint(1, 4))]
    if rng.random() < 0.3:
        kinds.append((1, 11))
    pair_values = {k for k in kinds if rng.random() < 0.3}
    for _ in range(n):
        k = rng.choice(kinds)
        values.append(k)
        alone.append(k in pair_values)
    return values, alone, target, rng.choice((1, 2))


@pytest.mark.parametrize("seed", range(8))
def test_exact_splits_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(seed)
    for _ in range(150):
        values, alone, target, min_group = case(rng)

        def piece(c: int, values: list[tuple[int, ...]] = values,
                  alone: list[bool] = alone) -> Piece:
            return Piece(values[c], alone[c])
        split = best_split(range(len(values)), target, piece, min_group=min_group)
        expected = brute_exact(values, alone, target, min_group)
        assert (split is not None) == expected, (values, alone, target, min_group)
        if split is not None:
            assert sorted(c for b in split.blocks for c in b) == list(range(len(values)))
            for b in split.blocks:
                sums = {0}
                for c in b:
                    sums = {s + v for s in sums for v in values[c]}
                assert (len(b) == 1 and (alone[b[0]] or (min_group == 1 and target in sums))
                        ) or (len(b) >= max(2, min_group) and target in sums) or (
                        len(b) >= 1 and min_group == 1 and target in sums), b


@pytest.mark.parametrize("seed", [0, 1, *(pytest.param(s, marks=pytest.mark.slow) for s in (2, 3))])
def test_largest_split_agrees_with_brute_force(seed: int) -> None:
    """With every card optional, the largest cover is the largest sub-multiset that
    splits exactly (brute force over subsets)."""
    rng = random.Random(100 + seed)
    for _ in range(60):
        values, alone, target, min_group = case(rng)
        n = len(values)
        best = 0
        for mask in range(1 << n):
            cards = [j for j in range(n) if mask >> j & 1]
            if len(cards) > best and brute_exact([values[j] for j in cards],
                                                 [alone[j] for j in cards], target, min_group):
                best = len(cards)

        def piece(c: int, values: list[tuple[int, ...]] = values,
                  alone: list[bool] = alone) -> Piece:
            return Piece(values[c], alone[c], optional=True)
        split = best_split(range(n), target, piece, min_group=min_group, score=lambda c: 1)
        assert split is not None and len(split.cards) == best, (values, alone, target)


@pytest.mark.parametrize("seed", range(4))
def test_block_and_group_tests_agree_with_brute_force(seed: int) -> None:
    rng = random.Random(200 + seed)
    for _ in range(200):
        values, alone, target, _ = case(rng)
        n = len(values)

        def piece(c: int, values: list[tuple[int, ...]] = values,
                  alone: list[bool] = alone) -> Piece:
            return Piece(values[c], alone[c])
        sums_by_size: list[tuple[int, set[int]]] = []
        for mask in range(1, 1 << n):
            sums = {0}
            for j in range(n):
                if mask >> j & 1:
                    sums = {s + v for s in sums for v in values[j]}
            sums_by_size.append((mask.bit_count(), sums))
        block = any(alone) or any(k >= 2 and target in s for k, s in sums_by_size)
        group = any(target in s for _, s in sums_by_size)
        assert has_block(range(n), target, piece) == block
        assert has_group(range(n), target, piece) == group

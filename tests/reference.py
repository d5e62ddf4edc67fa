"""A slow, plain reading of docs/rules.md §2.4-2.5 and §3, to check the fast generator.

Nothing here is shared with ``casino.engine.movegen``: it enumerates every subset of
the table's items by brute force and tests each against the rule as written.
Moves are compared as keys ``(kind, card, loose cards, builds, value)``.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from itertools import combinations

from casino.engine.builds import Build
from casino.engine.rules import Rules

Key = tuple[str, int, tuple[int, ...], tuple[tuple[int, int, tuple[int, ...]], ...], int]


def played_values(rules: Rules, c: int) -> tuple[int, ...]:
    rank = c >> 2
    hand_over = {text: v for text, v in rules.hand_values}
    from casino.engine.cards import card_text

    if card_text(c) in hand_over:
        return (hand_over[card_text(c)],)
    if rank == 0:
        return tuple(rules.ace_played)
    if rank >= 10:
        return () if rules.face_values is None else (rules.face_values[rank - 10],)
    return (rank + 1,)


def sum_values(rules: Rules, c: int) -> tuple[int, ...]:
    """Every value ``c`` may count for inside a sum (empty: it never joins one)."""
    rank = c >> 2
    if rank == 0:
        return (rules.ace_sum,) + ((rules.ace_sum_alt,) if rules.ace_sum_alt else ())
    if rank >= 10:
        return () if rules.face_values is None else (rules.face_values[rank - 10],)
    return (rank + 1,)


def pairs(rules: Rules, played: int, table_card: int) -> bool:
    if rules.pairing == "rank":
        return played >> 2 == table_card >> 2
    tv = sum_values(rules, table_card)
    return bool(tv) and tv[0] in played_values(rules, played)


def sums_to(rules: Rules, cards: Sequence[int], v: int) -> bool:
    totals = {0}
    for c in cards:
        vals = sum_values(rules, c)
        if not vals:
            return False
        totals = {t + x for t in totals for x in vals}
    return v in totals


def partitions_into(rules: Rules, cards: tuple[int, ...], ok_group: object) -> bool:
    """Can ``cards`` be split into groups each accepted by ``ok_group(group)``?"""
    if not cards:
        return True
    first, rest = cards[0], cards[1:]
    n = len(rest)
    for k in range(n + 1):
        for idx in combinations(range(n), k):
            group = (first, *(rest[i] for i in idx))
            if ok_group(group):  # type: ignore[operator]
                remaining = tuple(rest[i] for i in range(n) if i not in idx)
                if partitions_into(rules, remaining, ok_group):
                    return True
    return False


def holds(rules: Rules, hand: Sequence[int], v: int) -> bool:
    return any(v in played_values(rules, c) for c in hand)


def subsets(items: Sequence[int]) -> Iterator[tuple[int, ...]]:
    for k in range(len(items) + 1):
        yield from combinations(items, k)


def build_key(b: Build) -> tuple[int, int, tuple[int, ...]]:
    return (b.value, b.owner, b.cards)


def reference_moves(rules: Rules, hand: Sequence[int], loose: Sequence[int],
                    builds: Sequence[Build], seat: int) -> set[Key]:
    out: set[Key] = set()
    owned = [b for b in builds if b.owner == seat]
    idx_loose = list(range(len(loose)))
    idx_builds = list(range(len(builds)))
    for c in sorted(set(hand)):
        rest = list(hand)
        rest.remove(c)

        def ok_after(remaining_owned: list[int], rest: list[int] = rest) -> bool:
            return all(holds(rules, rest, v) for v in remaining_owned)

        # Captures.
        pv = played_values(rules, c)
        face_one = rules.face_values is None and c >> 2 >= 10 and rules.face_capture == "one"
        face_any = rules.face_values is None and c >> 2 >= 10 and not face_one
        for ls in subsets(idx_loose):
            cards = tuple(loose[i] for i in ls)
            for bs in subsets(idx_builds):
                if not ls and not bs:
                    continue
                taken = [builds[j] for j in bs]
                if face_one or face_any:
                    if bs or not all(pairs(rules, c, x) for x in cards):
                        continue
                    if face_one and len(cards) != 1:
                        continue
                    good = True
                else:
                    good = False
                    for v in pv:
                        if not all(b.value == v for b in taken):
                            continue

                        def ok(group: tuple[int, ...], v: int = v, c: int = c) -> bool:
                            if len(group) == 1:
                                return pairs(rules, c, group[0])
                            return sums_to(rules, group, v)

                        if partitions_into(rules, cards, ok):
                            good = True
                            break
                if not good:
                    continue
                left = [b.value for j, b in enumerate(builds) if b.owner == seat and j not in bs]
                if not ok_after(left):
                    continue
                out.add(("capture", c, tuple(sorted(cards)),
                         tuple(sorted(build_key(b) for b in taken)), 0))
        if not owned:
            out.add(("trail", c, (), (), 0))
        if not rules.building or not sum_values(rules, c):
            continue
        owned_values = [b.value for b in owned]
        # New builds.
        for v in range(2, 15):
            if not holds(rules, rest, v) or not ok_after(owned_values):
                continue
            for ls in subsets(idx_loose):
                if not ls:
                    continue
                cards = tuple(loose[i] for i in ls)
                if partitions_into(rules, (c, *cards), lambda g, v=v: sums_to(rules, g, v)):
                    out.add(("build", c, tuple(sorted(cards)), (), v))
        # Adding a group, raising.
        for j, b in enumerate(builds):
            others = [x.value for k, x in enumerate(builds) if x.owner == seat and k != j]
            v = b.value
            if holds(rules, rest, v) and ok_after(others):
                for ls in subsets(idx_loose):
                    cards = tuple(loose[i] for i in ls)
                    if partitions_into(rules, (c, *cards),
                                       lambda g, v=v: sums_to(rules, g, v)):
                        out.add(("add", c, tuple(sorted(cards)), (build_key(b),), v))
            if len(b.groups) > 1 or (b.owner == seat and not rules.raise_own_build):
                continue
            w = v + sum_values(rules, c)[0]
            if w > 14 or not holds(rules, rest, w) or not ok_after(others):
                continue
            for ls in subsets(idx_loose):
                cards = tuple(loose[i] for i in ls)
                if partitions_into(rules, cards, lambda g, w=w: sums_to(rules, g, w)):
                    out.add(("raise", c, tuple(sorted(cards)), (build_key(b),), w))
    if rules.compulsory_capture:
        out = _krypkasino(rules, hand, loose, out)
    return out


def _can_take(rules: Rules, c: int, cards: tuple[int, ...]) -> bool:
    """Can played card ``c`` take exactly ``cards`` (non-empty) as pairs and groups?"""
    def ok(group: tuple[int, ...]) -> bool:
        if len(group) == 1:
            return pairs(rules, c, group[0])
        return any(sums_to(rules, group, v) for v in played_values(rules, c))

    return bool(cards) and partitions_into(rules, cards, ok)


def _krypkasino(rules: Rules, hand: Sequence[int], loose: Sequence[int],
                moves: set[Key]) -> set[Key]:
    """docs/rules.md §3: forced sweep; a card that can capture must, maximally; only
    others trail."""
    full = tuple(sorted(loose))
    if full:
        sweeps = {m for m in moves if m[0] == "capture" and m[2] == full}
        if sweeps:
            return sweeps
    out: set[Key] = set()
    for c in set(hand):
        caps = [m for m in moves if m[0] == "capture" and m[1] == c]
        if not caps:
            out.add(("trail", c, (), (), 0))
            continue
        maximal = []
        for m in caps:
            remaining = list(loose)
            for x in m[2]:
                remaining.remove(x)
            still = any(_can_take(rules, c, s) for s in subsets(tuple(remaining)) if s)
            if not still:
                maximal.append(m)
        if rules.maximal_capture == "cardinality" and maximal:
            best = max(len(m[2]) for m in maximal)
            maximal = [m for m in maximal if len(m[2]) == best]
        out.update(maximal)
    return out

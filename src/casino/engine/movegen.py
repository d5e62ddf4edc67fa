"""Legal move generation: the hot path.

Everything here works on ints. Loose table cards are addressed by their index,
so a selection of loose cards is a bitmask; subset sums are tabulated once per
table (``by_sum[v]``: every mask of loose cards adding up to ``v``), and the
selections that split into blocks (pairs, groups) are closed under disjoint
union once per block list, remembering one split of each so a move can be
shown with its groups. Holding a card "of value v" is a bit test on a mask of
the values in hand.

The rules (docs/rules.md §2.4-2.5, §3) are applied in one place each:
captures in :func:`_captures`, new builds in :func:`_new_builds`, adding and
raising in :func:`_onto_builds`, trailing and Krypkasino's compulsion in
:func:`generate`, and the ownership rule in :func:`_holds_all`.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.engine.builds import Build
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.rules import CardTable, Rules

Closure = dict[int, tuple[int, int]]
#: For one played value: (the value, the blocks it may take, their closure).
Selection = tuple[int, list[int], Closure]


class TooMuchWork(Exception):
    """A :class:`Budget` ran out: listing every move would cost more than allowed."""


class Budget:
    """Steps the full enumeration may take before it gives up (:class:`TooMuchWork`).

    A step is one entry looked at in the enumeration's tables: a subset of loose
    cards, a union in a closure, a state of a depth-first walk, a (group, union)
    pair tried for a build. Work is charged before the loop that does it, or at
    most doubles between charges, so a listing that raises has done at most about
    twice its budget. Counting steps rather than seconds keeps the answer the same
    on every machine and under any load.
    """

    __slots__ = ("left", "steps")

    def __init__(self, steps: int) -> None:
        self.steps = steps
        self.left = steps

    def spend(self, n: int) -> None:
        """Charge ``n`` steps; TooMuchWork once more than the budget is spent."""
        self.left -= n
        if self.left < 0:
            raise TooMuchWork(f"listing every move needs more than {self.steps} steps")

    @property
    def used(self) -> int:
        """The steps charged so far."""
        return self.steps - self.left


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def closure(blocks: Sequence[int], budget: Budget | None = None) -> Closure:
    """Every union of pairwise disjoint ``blocks`` (0 included), each mapped to
    ``(rest, block)``: one way it was formed, to recover a split.

    Few blocks: extend every union found so far by each block in turn. Many
    blocks (crowded tables): a depth-first walk that decides the loose cards in
    index order, a card being either left out or the lowest card of a new
    block, and never revisits a (card, union) state.
    """
    res: Closure = {0: (0, 0)}
    if len(blocks) <= 24:
        order = [0]
        for b in blocks:
            if budget is not None:
                budget.spend(len(order))  # order at most doubles per block
            for idx in range(len(order)):
                m = order[idx]
                if not m & b:
                    u = m | b
                    if u not in res:
                        res[u] = (m, b)
                        order.append(u)
        return res
    covered = 0
    for b in blocks:
        covered |= b
    n = covered.bit_length()
    buckets: list[list[int]] = [[] for _ in range(n)]
    for b in blocks:
        buckets[(b & -b).bit_length() - 1].append(b)
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0)]
    while stack:
        i, u = stack.pop()
        while i < n and (u >> i & 1 or not buckets[i]):
            i += 1
        if i >= n or (i, u) in seen:
            continue
        seen.add((i, u))
        if budget is not None:
            budget.spend(1 + len(buckets[i]))
        stack.append((i + 1, u))
        for b in buckets[i]:
            if not b & u:
                v = u | b
                if v not in res:
                    res[v] = (u, b)
                stack.append((i + 1, v))
    return res


def split(res: Closure, union: int) -> list[int]:
    """The blocks that make up ``union`` in one split recorded by :func:`closure`."""
    parts = []
    while union:
        rest, block = res[union]
        parts.append(block)
        union = rest
    return parts


class TableSums:
    """Subset sums of the loose cards of one table, and the closures built on them."""

    __slots__ = ("_build_closures", "_cards", "_group", "_groups", "budget", "by_sum", "full",
                 "loose", "maxv")

    def __init__(self, table: CardTable, loose: Sequence[int], maxv: int, alt_delta: int,
                 budget: Budget | None = None) -> None:
        self.loose = loose
        self.budget = budget
        self.maxv = maxv
        by_sum: list[list[int]] = [[] for _ in range(maxv + 1)]
        sums = table.sum_value
        alts = table.sum_alt
        subsets: list[tuple[int, int, int]] = [(0, 0, 0)]
        full = 0
        for i, c in enumerate(loose):
            s = sums[c]
            if not s:
                continue
            full |= 1 << i
            a = 1 if alts[c] else 0
            bit = 1 << i
            limit = maxv - s
            if budget is not None:
                budget.spend(len(subsets))  # subsets at most doubles per card
            subsets.extend(
                [(m | bit, b + s, k + a) for m, b, k in subsets if b <= limit]
            )
        for m, b, k in subsets[1:]:
            by_sum[b].append(m)
            for j in range(1, k + 1 if alt_delta else 1):
                total = b + j * alt_delta
                if total > maxv:
                    break
                by_sum[total].append(m)
        self.by_sum = by_sum
        self.full = full
        self._build_closures: dict[int, Closure] = {}
        self._cards: dict[int, tuple[int, ...]] = {}
        self._group: dict[int, tuple[int, ...]] = {}
        self._groups: dict[tuple[int, int], tuple[tuple[int, ...], ...]] = {}

    def cards(self, mask: int) -> tuple[int, ...]:
        """The loose cards of ``mask``, sorted (a move's identity)."""
        got = self._cards.get(mask)
        if got is None:
            loose = self.loose
            got = tuple(sorted(loose[i] for i in _bits(mask)))
            self._cards[mask] = got
        return got

    def group(self, mask: int) -> tuple[int, ...]:
        """The loose cards of ``mask`` high card first (how a group is shown)."""
        got = self._group.get(mask)
        if got is None:
            got = self.cards(mask)[::-1]
            self._group[mask] = got
        return got

    def groups(self, res: Closure, union: int) -> tuple[tuple[int, ...], ...]:
        """One split of ``union`` into the blocks of ``res``, in display order."""
        key = (id(res), union)
        got = self._groups.get(key)
        if got is None:
            gs = [self.group(b) for b in split(res, union)]
            gs.sort(key=lambda g: (len(g), g))
            got = tuple(gs)
            self._groups[key] = got
        return got

    def build_closure(self, v: int) -> Closure:
        """Selections of loose cards that split into parts each adding up to ``v``."""
        res = self._build_closures.get(v)
        if res is None:
            res = (closure(self.by_sum[v], self.budget) if 0 < v <= self.maxv
                   else {0: (0, 0)})
            self._build_closures[v] = res
        return res


def _held_mask(table: CardTable, hand: Sequence[int]) -> int:
    held = 0
    holds = table.holds
    for c in hand:
        held |= holds[c]
    return held


def _holds_all(held: int, needed: int) -> bool:
    """The ownership rule (docs/rules.md §2.5): every build value you own after the move is held."""
    return not needed & ~held


def _rest_of_hand(hand: Sequence[int], played: int) -> list[int]:
    rest = list(hand)
    rest.remove(played)
    return rest


def generate(rules: Rules, hand: Sequence[int], loose: Sequence[int],
             builds: Sequence[Build], seat: int, budget: Budget | None = None) -> list[Move]:
    """Every legal move of ``seat`` holding ``hand`` (each once): docs/rules.md
    §2.4-2.5 and §3. With a ``budget``, :class:`TooMuchWork` once it is spent."""
    table = rules.table
    alt_delta = (rules.ace_sum_alt - rules.ace_sum) if rules.ace_sum_alt else 0
    sums = TableSums(table, loose, max(table.max_value, table.max_build), alt_delta, budget)
    owned = [j for j, b in enumerate(builds) if b.owner == seat]
    cards = sorted(set(hand))
    capture_cache: dict[tuple[tuple[int, ...], int, bool], Selection] = {}

    # Compulsory maximal captures are found directly (_maximal_unions), not from closures.
    want_closure = not (rules.compulsory_capture and not rules.ace_sum_alt)
    per_card: list[tuple[int, list[Selection]]] = []
    for c in cards:
        per_card.append((c, _capture_selections(rules, table, c, loose, builds, sums,
                                                capture_cache, want_closure)))

    moves: list[Move] = []
    if rules.compulsory_capture or rules.forced_sweep:
        return _compulsory(rules, table, hand, loose, sums, per_card)

    for c, selections in per_card:
        rest = _rest_of_hand(hand, c)
        held = _held_mask(table, rest)
        moves.extend(_captures(c, sums, builds, owned, held, selections))
        if rules.building and table.sum_value[c]:
            moves.extend(_new_builds(table, c, loose, builds, owned, held, sums))
            moves.extend(_onto_builds(rules, table, c, loose, builds, seat, owned, held, sums))
        if not owned:
            moves.append(Move(TRAIL, c))
    return list(dict.fromkeys(moves))


def _capture_selections(rules: Rules, table: CardTable, c: int, loose: Sequence[int],
                        builds: Sequence[Build], sums: TableSums,
                        cache: dict[tuple[tuple[int, ...], int, bool], Selection],
                        want_closure: bool = True) -> list[Selection]:
    """For each played value of ``c``: (value, the blocks of loose cards it may take
    (lone cards it pairs with, groups adding up to the value), their closure).
    Builds are handled by the caller."""
    keys = table.pair_played[c]
    pair_table = table.pair_table
    pairs = [1 << i for i, lc in enumerate(loose) if pair_table[lc] in keys]
    out: list[Selection] = []
    if not table.played[c]:
        # A face card without a number value: pairs only (classic Casino, docs/rules.md §5).
        if table.face_one[c]:
            res: Closure = {0: (0, 0)}
            for p in pairs:
                res[p] = (0, p)
        else:
            res = closure(pairs, sums.budget)
        out.append((0, pairs, res))
        return out
    for v in table.played[c]:
        key = (keys, v, False)
        sel = cache.get(key)
        if sel is None:
            groups = [m for m in sums.by_sum[v] if m & (m - 1)] if v <= sums.maxv else []
            blocks = pairs + groups
            sel = (v, blocks, closure(blocks, sums.budget) if want_closure else {})
            cache[key] = sel
        out.append(sel)
    return out


def _captures(c: int, sums: TableSums, builds: Sequence[Build], owned: list[int],
              held: int, selections: list[Selection]) -> list[Move]:
    """Captures (docs/rules.md §2.4): any non-empty selection of disjoint items of the
    played value."""
    budget = sums.budget
    moves: list[Move] = []
    seen: set[tuple[int, int]] = set()
    for v, _, res in selections:
        vbuilds = [j for j, b in enumerate(builds) if b.value == v] if v else []
        for tmask in range(1 << len(vbuilds)):
            taken = {vbuilds[k] for k in range(len(vbuilds)) if tmask >> k & 1}
            needed = 0
            for j in owned:
                if j not in taken:
                    needed |= 1 << builds[j].value
            if not _holds_all(held, needed):
                continue
            if budget is not None:
                budget.spend(len(res))
            bmask = sum(1 << j for j in taken)
            taken_builds = tuple(sorted(builds[j] for j in taken))
            for u in res:
                if not u and not taken:
                    continue
                if (u, bmask) in seen:
                    continue
                seen.add((u, bmask))
                moves.append(Move(CAPTURE, c, sums.cards(u), taken_builds, 0,
                                  sums.groups(res, u)))
    return moves


def _partner_sets(sums: TableSums, target: int) -> list[int]:
    """Loose selections that complete a group with the played card: sum ``target``."""
    if target < 0:
        return []
    if target == 0:
        return [0]
    if target > sums.maxv:
        return []
    return sums.by_sum[target]


def _new_builds(table: CardTable, c: int, loose: Sequence[int], builds: Sequence[Build],
                owned: list[int], held: int, sums: TableSums) -> list[Move]:
    """New builds (docs/rules.md §2.4): the played card and loose cards split into groups
    of ``v``."""
    moves: list[Move] = []
    sc = table.sum_value[c]
    owned_values = 0
    for j in owned:
        owned_values |= 1 << builds[j].value
    if not _holds_all(held, owned_values):
        return moves  # every owned build stays; one of them would be left unheld
    for v in range(max(2, sc), table.max_build + 1):
        if not held >> v & 1:
            continue
        partners = _partner_sets(sums, v - sc)
        if not partners:
            continue
        res = sums.build_closure(v)
        if sums.budget is not None:
            sums.budget.spend(len(partners) * len(res))
        seen: set[int] = set()
        for g in partners:
            for u in res:
                if u & g:
                    continue
                s = g | u
                if not s or s in seen:
                    continue
                seen.add(s)
                groups = ((c, *sums.group(g)), *sums.groups(res, u))
                moves.append(Move(BUILD, c, sums.cards(s), (), v, groups))
    return moves


def _onto_builds(rules: Rules, table: CardTable, c: int, loose: Sequence[int],
                 builds: Sequence[Build], seat: int, owned: list[int], held: int,
                 sums: TableSums) -> list[Move]:
    """Adding a group to a build, or raising a single build (docs/rules.md §2.4)."""
    moves: list[Move] = []
    sc = table.sum_value[c]
    for j, b in enumerate(builds):
        others = 0
        for k in owned:
            if k != j:
                others |= 1 << builds[k].value
        v = b.value
        # Another group of the build's value.
        if _holds_all(held, others | 1 << v):
            partners = _partner_sets(sums, v - sc)
            if partners:
                res = sums.build_closure(v)
                if sums.budget is not None:
                    sums.budget.spend(len(partners) * len(res))
                seen: set[int] = set()
                for g in partners:
                    for u in res:
                        if u & g:
                            continue
                        s = g | u
                        if s in seen:
                            continue
                        seen.add(s)
                        groups = ((c, *sums.group(g)), *sums.groups(res, u))
                        moves.append(Move(ADD, c, sums.cards(s), (b,), v, groups))
        # Raise: single builds only, to at most the highest build value.
        if b.multiple or (b.owner == seat and not rules.raise_own_build):
            continue
        w = v + sc
        if w > table.max_build or not _holds_all(held, others | 1 << w):
            continue
        res = sums.build_closure(w)
        if sums.budget is not None:
            sums.budget.spend(len(res))
        for u in res:
            groups = ((c,), *sums.groups(res, u))
            moves.append(Move(RAISE, c, sums.cards(u), (b,), w, groups))
    return moves


def _compulsory(rules: Rules, table: CardTable, hand: Sequence[int], loose: Sequence[int],
                sums: TableSums, per_card: list[tuple[int, list[Selection]]],
                ) -> list[Move]:
    """Krypkasino (docs/rules.md §3): forced sweep, compulsory maximal capture, else trail.

    Only for rulesets without builds (``rules._check`` enforces it), where every
    capture is a selection of loose cards and trailing is never forbidden otherwise.
    """
    budget = sums.budget
    full = (1 << len(loose)) - 1
    sum_of = [table.sum_value[c] for c in loose]
    exact = rules.compulsory_capture and not rules.ace_sum_alt
    # For each card: its captures (maximal ones where compulsory) with their closures.
    found: list[tuple[int, list[tuple[list[int], Closure]]]] = []
    for c, selections in per_card:
        options: list[tuple[list[int], Closure]] = []
        for v, blocks, res in selections:
            if not blocks:
                continue
            if exact:
                unions, res = _maximal_unions(v, blocks, sum_of, budget)
            else:
                if budget is not None:
                    budget.spend(len(res) * (1 + len(blocks)))
                unions = [u for u in res if u]
                if rules.compulsory_capture:
                    unions = [u for u in unions
                              if not any(not b & ~(full & ~u) for b in blocks)]
            options.append((unions, res))
        found.append((c, options))
    if rules.forced_sweep and loose and sums.full == full:
        sweepers = [(c, res) for c, opts in found for unions, res in opts if full in unions]
        if sweepers:
            out = [Move(CAPTURE, c, sums.cards(full), (), 0, sums.groups(res, full))
                   for c, res in sweepers]
            return list(dict.fromkeys(out))
    moves: list[Move] = []
    for c, opts in found:
        can_capture = False
        for unions, res in opts:
            chosen = unions
            can_capture = can_capture or bool(chosen)
            if rules.compulsory_capture and rules.maximal_capture == "cardinality" and chosen:
                best = max(u.bit_count() for u in chosen)
                chosen = [u for u in chosen if u.bit_count() == best]
            for u in chosen:
                moves.append(Move(CAPTURE, c, sums.cards(u), (), 0, sums.groups(res, u)))
        if not can_capture or not rules.compulsory_capture:
            moves.append(Move(TRAIL, c))
    return list(dict.fromkeys(moves))


def _maximal_unions(v: int, blocks: Sequence[int], sum_of: Sequence[int],
                    budget: Budget | None = None) -> tuple[list[int], Closure]:
    """Every inclusion-maximal capture (docs/rules.md K2) of a card of value ``v``, with
    one split each.

    A depth-first walk decides the loose cards in index order: a card is either the
    lowest card of a new block, or left on the table. A card it pairs with is never
    left, and a card is left only while the cards left so far hold no two or more
    adding up to ``v`` (bit ``t`` of ``one`` / ``two``: one-or-more / two-or-more of
    them add up to ``t``). So every walk to the end is a maximal capture, and the
    walk never explores a capture that could only end non-maximal.
    """
    n = len(sum_of)
    pair_mask = 0
    buckets: list[list[int]] = [[] for _ in range(n)]
    for b in blocks:
        if not b & (b - 1):
            pair_mask |= b
        buckets[(b & -b).bit_length() - 1].append(b)
    limit = (1 << (v + 1)) - 1
    res: Closure = {0: (0, 0)}
    out: set[int] = set()
    seen: set[tuple[int, int]] = set()
    stack = [(0, 0, 0, 0)]
    while stack:
        i, u, one, two = stack.pop()
        while i < n and u >> i & 1:
            i += 1
        if i >= n:
            if u:
                out.add(u)
            continue
        if (i, u) in seen:
            continue
        seen.add((i, u))
        if budget is not None:
            budget.spend(1 + len(buckets[i]))
        if not pair_mask >> i & 1:
            x = sum_of[i]
            if x:
                two2 = two | ((one << x) & limit)
                one2 = one | (((one << x) | (1 << x)) & limit)
            else:
                one2, two2 = one, two
            if not two2 >> v & 1:
                stack.append((i + 1, u, one2, two2))
        for b in buckets[i]:
            if not b & u:
                w = u | b
                if w not in res:
                    res[w] = (u, b)
                stack.append((i + 1, w, one, two))
    return sorted(out), res

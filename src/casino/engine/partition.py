"""Splitting loose cards into the blocks a move needs, without listing moves.

A capture takes *blocks* of the played value ``v``: lone cards that pair with
the played card, and groups of two or more loose cards adding up to ``v``. A
build (new, added to or raised) is made of groups of ``v`` of one card or more,
one of which may be the played card's own partners. Whether some loose cards
split so, and the best split of a larger selection where cards may also be left
on the table, is bin packing with a small bin (``v`` is at most 16).

Cards that play alike (the same sum values, the same role, the same worth) are
interchangeable, so the search runs over *count vectors* of such kinds rather
than over subsets: the first kind left is always placed first (alone, in a
group completed by later kinds, or left), and every vector is settled once.
The work is bounded by the number of count vectors, the product of
``count + 1`` over the kinds: polynomial in the number of cards for a ruleset,
whose kinds are few (one per value in a plain check), where listing the moves
is exponential. ``tests/test_partition.py`` checks every answer against the
subset enumeration of :mod:`casino.engine.movegen`.

Polynomial is not always fast: on a crowded table where cards count two ways
(Tablic's Aces, 1 or 11) one card's best capture can take a tenth of a second or
more. A caller with a deadline (a bot thinking under a time limit) runs its
questions inside :func:`deadline`, and a search still running at that moment
stops with :class:`OutOfTime` instead of overrunning it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import heapq
import time
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from contextvars import ContextVar
from dataclasses import dataclass


class OutOfTime(Exception):
    """A split search was still running at the deadline set with :func:`deadline`."""


_DEADLINE: ContextVar[float | None] = ContextVar("partition_deadline", default=None)


@contextlib.contextmanager
def deadline(at: float | None) -> Iterator[None]:
    """Split searches started inside stop with :class:`OutOfTime` once
    ``time.perf_counter()`` passes ``at`` (``None``: no deadline). Nothing is kept
    from a stopped search, so asking again later gives the full answer."""
    token = _DEADLINE.set(at)
    try:
        yield
    finally:
        _DEADLINE.reset(token)


@dataclass(frozen=True, order=True)
class Piece:
    """How one loose card may take part in a split.

    ``values``: what it counts for inside a group (empty: it joins no group;
    two values: an Ace that is 1 or 11). ``alone``: it may be a block by itself
    (a card the played card pairs with). ``optional``: it may be left out.
    """

    values: tuple[int, ...]
    alone: bool = False
    optional: bool = False


@dataclass(frozen=True)
class Split:
    """A split found: its total score, the partner group (or ``None``), the other blocks."""

    score: int
    partner: tuple[int, ...] | None
    blocks: tuple[tuple[int, ...], ...]

    @property
    def cards(self) -> tuple[int, ...]:
        """Every card covered, sorted."""
        out = [c for b in self.blocks for c in b]
        if self.partner:
            out.extend(self.partner)
        return tuple(sorted(out))


#: Selections tried, best first, before the largest split is built greedily instead.
#: The best split leaves few cards on most tables and is found within a few dozen;
#: when it must leave many, the number of better selections grows exponentially.
SELECTION_BUDGET = 200


def best_split(cards: Sequence[int], target: int, piece: Callable[[int], Piece], *,
               min_group: int, partner: int | None = None,
               score: Callable[[int], int] | None = None,
               required: Sequence[int] = (), greedy: bool = False,
               exact_best: bool = False) -> Split | None:
    """The split of ``cards`` into blocks of ``target`` covering the highest ``score``.

    Every card whose piece is not ``optional`` must be covered. A group has at
    least ``min_group`` cards (2 for captures, whose lone cards must pair; 1 for
    builds). With ``partner`` set, one extra group must add up to ``partner``
    (empty when it is 0): the cards a played card is built with. ``score(card)``
    is what covering a card is worth (0 without it). ``required``: cards (a
    sub-multiset of ``cards``) covered even if their piece is optional. ``None``
    when no split exists. ``greedy``: a large split quickly (maximal: nothing left could
    form a group), not the largest. Of more than 12 cards, the best split is searched
    among :data:`SELECTION_BUDGET` selections, then built greedily, unless
    ``exact_best`` (whose work grows with the number of cards the best split leaves).

    >>> from casino.engine.partition import Piece, best_split
    >>> plain = lambda c: Piece((c,))
    >>> best_split([5, 3, 6, 2], 8, plain, min_group=2).blocks
    ((5, 3), (6, 2))
    >>> best_split([5, 3, 6], 8, plain, min_group=2) is None
    True
    """
    cards = _coverable(cards, target, piece, min_group, partner)
    if required:
        must = Counter(required)

        def pinned(c: int) -> Piece:
            return dataclasses.replace(piece(c), optional=False)
        fixed: list[int] = []
        rest: list[int] = []
        for c in cards:
            if must[c]:
                must[c] -= 1
                fixed.append(c)
            else:
                rest.append(c)
        if +must:
            return None  # a required card is not among the cards
        return _Search(rest, target, piece, min_group, score, fixed, pinned).run(partner,
                                                                                exact_best)
    search = _Search(cards, target, piece, min_group, score)
    return search.greedy(partner) if greedy else search.run(partner, exact_best)


class _Search:
    """Exact splits over count vectors, and the best one of a selection.

    ``exact(counts)``: can these cards all be covered? The first kind left is
    covered first, alone or in a group completed by cards of it and later kinds,
    and each vector is settled once. Cards of a kind with modest worth are left
    out before better ones, so a selection is a count vector too: the best split
    is found by trying selections from the highest score down (best-first over
    the lattice of count vectors) until one can be covered.
    """

    __slots__ = ("counts", "deadline", "gain", "kinds", "memo", "min_group", "pool",
                 "steps", "target")

    def __init__(self, cards: Sequence[int], target: int, piece: Callable[[int], Piece],
                 min_group: int, score: Callable[[int], int] | None,
                 fixed: Sequence[int] = (),
                 pinned: Callable[[int], Piece] | None = None) -> None:
        by_kind: dict[Piece, list[int]] = {}
        for c in cards:
            by_kind.setdefault(piece(c), []).append(c)
        for c in fixed:  # cards that must be covered, whatever their piece says
            assert pinned is not None
            by_kind.setdefault(pinned(c), []).append(c)
        # Largest value first: a big card has few ways to be completed.
        order = sorted(by_kind, key=lambda p: (-max(p.values, default=0), p))
        worth = score or (lambda c: 0)
        self.kinds = order
        # Each kind's cards worst first: a selection keeps the best of each kind.
        self.pool = [sorted(by_kind[p], key=lambda c: (worth(c), c)) for p in order]
        self.counts = tuple(len(cs) for cs in self.pool)
        self.target = target
        # Each kind's steps modulo the target (see _hopeless), worked out once: the
        # search asks thousands of times on a crowded table.
        self.steps = [tuple(sorted({v % target for v in p.values} | ({0} if p.alone else set())))
                      for p in order] if target > 0 else []
        self.min_group = min_group
        # gain[j][k]: the score of covering the best k cards of kind j.
        self.gain = []
        for cs in self.pool:
            g = [0]
            for c in reversed(cs):
                g.append(g[-1] + worth(c))
            self.gain.append(g)
        self.memo: dict[tuple[int, ...], object] = {}
        self.deadline = _DEADLINE.get()

    # -- completions: count vectors over kinds >= start adding up to exactly r --
    def _completions(self, counts: tuple[int, ...], start: int,
                     r: int) -> Iterator[tuple[int, ...]]:
        seen: set[tuple[int, ...]] = set()
        n = len(counts)
        picked = [0] * n
        kinds = self.kinds

        def walk(j: int, left: int) -> Iterator[tuple[int, ...]]:
            if left == 0:
                key = tuple(picked)
                if key not in seen:
                    seen.add(key)
                    yield key
                return
            if j >= n:
                return
            vals = kinds[j].values
            avail = counts[j]
            if not vals or not avail:
                yield from walk(j + 1, left)
                return
            lo = min(vals)
            for k in range(0, min(avail, left // lo) + 1):
                picked[j] = k
                for total in _sums_of(vals, k):
                    if total <= left:
                        yield from walk(j + 1, left - total)
            picked[j] = 0

        yield from walk(start, r)

    def _hopeless(self, counts: tuple[int, ...], t: int, offset: int = 0) -> bool:
        """Whether the cards of ``counts`` cannot add up to whole groups: every group adds
        up to the target, so what the cards in groups add up to (each counting one of its
        values; a card that may stand alone counting nothing) must be a multiple of it
        (plus ``offset``: a partner group's total, when the cards hold one too)."""
        target = self.target
        if target <= 0:
            return any(counts[j] and not self.kinds[j].alone for j in range(t, len(counts)))
        full = (1 << target) - 1
        residues = 1  # bit r: some choice of the cards so far adds up to r modulo target
        steps_of = self.steps
        for j in range(t, len(counts)):
            k = counts[j]
            if not k:
                continue
            steps = steps_of[j]
            if not steps:
                return True  # a card that joins no group and cannot stand alone
            if len(steps) == 1:
                (step,) = steps
                turn = k * step % target
                residues = ((residues << turn) | (residues >> (target - turn))) & full
                continue
            for _ in range(k):
                nxt = 0
                for step in steps:
                    nxt |= ((residues << step) | (residues >> (target - step))) & full
                residues = nxt
                if residues == full:
                    return False
        return not residues >> (offset % target) & 1

    def exact(self, counts: tuple[int, ...]) -> bool:
        """Whether every card of ``counts`` can be covered by blocks."""
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise OutOfTime
        got = self.memo.get(counts, _UNSET)
        if got is not _UNSET:
            return got is not None
        t = next((j for j, k in enumerate(counts) if k), -1)
        how: tuple[int, ...] | None = None
        if t < 0:
            how = ()
        elif not self._hopeless(counts, t):
            p = self.kinds[t]
            rest = (*counts[:t], counts[t] - 1, *counts[t + 1:])
            if (p.alone or (self.min_group == 1 and self.target in p.values)) and self.exact(
                    rest):
                how = ()
            else:
                for val in sorted(set(p.values)):
                    need = self.target - val
                    if need <= 0:
                        continue
                    for vec in self._completions(rest, t, need):
                        after = tuple(a - b for a, b in zip(rest, vec, strict=True))
                        if self.exact(after):
                            how = vec
                            break
                    if how is not None:
                        break
        self.memo[counts] = how
        return how is not None

    def _with_partner(self, counts: tuple[int, ...],
                      partner: int | None) -> tuple[int, ...] | None:
        """How ``counts`` splits with a partner group: the partner's vector, or None."""
        if partner is None or partner == 0:
            return tuple(0 for _ in counts) if self.exact(counts) else None
        if self._hopeless(counts, 0, partner):
            return None
        for vec in self._completions(counts, 0, partner):
            if self.exact(tuple(a - b for a, b in zip(counts, vec, strict=True))):
                return vec
        return None

    def _score(self, counts: tuple[int, ...]) -> int:
        return sum(g[k] for g, k in zip(self.gain, counts, strict=True))

    def run(self, partner: int | None, exact_best: bool = False) -> Split | None:
        import sys

        if sys.getrecursionlimit() < 6 * sum(self.counts) + 200:
            sys.setrecursionlimit(6 * sum(self.counts) + 200)
        full = self.counts
        optional = [j for j, p in enumerate(self.kinds) if p.optional]
        # Scores rise with each card covered (the largest split) or fall (the smallest).
        rising = all(self.gain[j][1] >= 0 for j in optional)
        start = full if rising else tuple(0 if p.optional else n
                                          for p, n in zip(self.kinds, full, strict=True))
        step = -1 if rising else 1
        heap = [(-self._score(start), start)]
        seen = {start}
        tried = 0
        # Few cards have few selections (at most 2**12): there the best is always found.
        budget = SELECTION_BUDGET if exact_best is False and sum(full) > 12 else 1 << 62
        gain = self.gain
        while heap:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise OutOfTime
            if tried >= budget:
                return self.greedy(partner) if rising else None
            tried += 1
            minus, counts = heapq.heappop(heap)
            how = self._with_partner(counts, partner)
            if how is not None:
                return self._make(counts, how, partner)
            for j in optional:
                was = counts[j]
                k = was + step
                if 0 <= k <= full[j]:
                    nxt = (*counts[:j], k, *counts[j + 1:])
                    if nxt not in seen:
                        seen.add(nxt)
                        heapq.heappush(heap, (minus - gain[j][k] + gain[j][was], nxt))
        return None

    def greedy(self, partner: int | None) -> Split | None:
        """A large split when the best one is out of the budget's reach: each card,
        largest first, joins a group completed by the cards still free, or stays on
        the table. Nothing it leaves could still form a group (a card left had no
        completion among cards that only grew fewer), so the split is maximal."""
        if any(n and not p.optional for p, n in zip(self.kinds, self.counts, strict=True)):
            return None  # cards that must be covered: only the exact search answers
        left = list(self.counts)
        covered = [0] * len(left)
        if partner:
            first = next(self._completions(tuple(left), 0, partner), None)
            if first is None:
                return None
            for j, k in enumerate(first):
                left[j] -= k
                covered[j] += k
        for t, p in enumerate(self.kinds):
            while left[t]:
                left[t] -= 1
                if p.alone or (self.min_group == 1 and self.target in p.values):
                    covered[t] += 1
                    continue
                vec = None
                for val in sorted(set(p.values)):
                    if val < self.target:
                        vec = next(self._completions(tuple(left), t, self.target - val), None)
                        if vec is not None:
                            break
                if vec is None:
                    continue  # stays on the table
                covered[t] += 1
                for j, k in enumerate(vec):
                    left[j] -= k
                    covered[j] += k
        found = tuple(covered)
        how = self._with_partner(found, partner)
        return self._make(found, how, partner) if how is not None else None

    def _make(self, counts: tuple[int, ...], partner_vec: tuple[int, ...],
              partner: int | None) -> Split:
        score = self._score(counts)
        # The best cards of each kind are the ones covered.
        pool = [cs[len(cs) - k:] if k else [] for cs, k in zip(self.pool, counts, strict=True)]
        partner_cards: tuple[int, ...] | None = None
        if partner is not None:
            partner_cards = self._take(pool, partner_vec)
        counts = tuple(a - b for a, b in zip(counts, partner_vec, strict=True))
        blocks: list[tuple[int, ...]] = []
        while any(counts):
            t = next(j for j, k in enumerate(counts) if k)
            how = self.memo[counts]
            assert isinstance(how, tuple)
            first = (pool[t].pop(),)
            counts = (*counts[:t], counts[t] - 1, *counts[t + 1:])
            if how:
                blocks.append(first + self._take(pool, how))
                counts = tuple(a - b for a, b in zip(counts, how, strict=True))
            else:
                blocks.append(first)
        shown = tuple(sorted((tuple(sorted(b, reverse=True)) for b in blocks),
                             key=lambda b: (len(b), b)))
        return Split(score, partner_cards, shown)

    def _take(self, pool: list[list[int]], vec: Sequence[int]) -> tuple[int, ...]:
        out: list[int] = []
        for j, k in enumerate(vec):
            for _ in range(k):
                out.append(pool[j].pop())
        return tuple(sorted(out, reverse=True))


_UNSET = object()


def _coverable(cards: Sequence[int], target: int, piece: Callable[[int], Piece],
               min_group: int, partner: int | None) -> list[int]:
    """``cards`` without the optional ones that no block could ever hold: a card too big
    for a group that may not stand alone, or one the other cards cannot complete. They
    would only be left, and a search over selections would try leaving each of them."""
    cards = list(cards)
    if not any(piece(c).optional for c in cards):
        return cards
    targets = [t for t in (target, partner) if t]
    keep: list[int] = []
    for i, c in enumerate(cards):
        p = piece(c)
        if not p.optional or p.alone:
            keep.append(c)
            continue
        others = cards[:i] + cards[i + 1:]
        alone = any(x == t and (min_group == 1 or t == partner)
                    for x in p.values for t in targets)
        if alone or any(0 < x < t and has_group(others, t - x, piece)
                        for x in p.values for t in targets):
            keep.append(c)
    return keep


def _sums_of(values: tuple[int, ...], k: int) -> list[int]:
    """The totals ``k`` cards of one kind can make (each counting any of ``values``)."""
    if len(values) == 1:
        return [values[0] * k]
    lo, hi = min(values), max(values)
    return sorted({lo * (k - i) + hi * i for i in range(k + 1)})


def has_block(cards: Sequence[int], target: int, piece: Callable[[int], Piece]) -> bool:
    """Whether ``cards`` hold at least one capture block of ``target``: a lone card that
    pairs, or two or more cards adding up to it. A subset-sum sweep, linear in cards."""
    limit = (1 << (target + 1)) - 1
    one = two = 0  # bit t: one-or-more / two-or-more cards add up to t
    for c in cards:
        p = piece(c)
        if p.alone:
            return True
        new_one, new_two = one, two
        for x in p.values:
            if x <= 0:
                continue
            new_two |= (one << x) & limit
            new_one |= ((one << x) | (1 << x)) & limit
        one, two = new_one, new_two
        if two >> target & 1:
            return True
    return False


def fewest_group(cards: Sequence[int], target: int,
                 piece: Callable[[int], Piece]) -> tuple[int, ...] | None:
    """The fewest of ``cards`` adding up to ``target`` (a build's smallest group), or
    ``None``. A subset-sum table of the fewest cards for each total, linear in cards."""
    if target <= 0:
        return () if target == 0 else None
    best: list[tuple[int, ...] | None] = [None] * (target + 1)  # card indices
    best[0] = ()
    for i, c in enumerate(cards):
        values = {x for x in piece(c).values if 0 < x <= target}
        if not values:
            continue
        now = list(best)  # each card joins at most once, counting one of its values
        for x in values:
            for total in range(x, target + 1):
                before = best[total - x]
                if before is not None and (now[total] is None
                                           or len(before) + 1 < len(now[total] or ())):
                    now[total] = (*before, i)
        best = now
    found = best[target]
    return None if found is None else tuple(cards[i] for i in found)


def has_group(cards: Sequence[int], target: int, piece: Callable[[int], Piece]) -> bool:
    """Whether one card or more of ``cards`` add up to ``target`` (a build's group)."""
    if target <= 0:
        return target == 0
    reach = 1
    limit = (1 << (target + 1)) - 1
    for c in cards:
        new = reach
        for x in piece(c).values:
            if x > 0:
                new |= (reach << x) & limit
        reach = new
        if reach >> target & 1:
            return True
    return False

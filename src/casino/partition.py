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
subset enumeration of :mod:`casino.movegen`.
"""

from __future__ import annotations

import dataclasses
import heapq
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass


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


_NONE = -(1 << 60)  # "no split": below any score


def best_split(cards: Sequence[int], target: int, piece: Callable[[int], Piece], *,
               min_group: int, partner: int | None = None,
               score: Callable[[int], int] | None = None,
               required: Sequence[int] = ()) -> Split | None:
    """The split of ``cards`` into blocks of ``target`` covering the highest ``score``.

    Every card whose piece is not ``optional`` must be covered. A group has at
    least ``min_group`` cards (2 for captures, whose lone cards must pair; 1 for
    builds). With ``partner`` set, one extra group must add up to ``partner``
    (empty when it is 0): the cards a played card is built with. ``score(card)``
    is what covering a card is worth (0 without it). ``required``: cards (a
    sub-multiset of ``cards``) covered even if their piece is optional. ``None``
    when no split exists.

    >>> from casino.partition import Piece, best_split
    >>> plain = lambda c: Piece((c,))
    >>> best_split([5, 3, 6, 2], 8, plain, min_group=2).blocks
    ((5, 3), (6, 2))
    >>> best_split([5, 3, 6], 8, plain, min_group=2) is None
    True
    """
    # A card that can neither be a block alone nor fit in any group (its every value is
    # more than a group has room for) is never covered: when it may be left out it is
    # dropped here, else there is no split. Left in, it would be a kind of its own, and
    # the best-first search over selections would try every count of it and of every
    # other such card (a crowded table with high cards: millions of selections).
    room = target - 1 if min_group >= 2 else target
    if partner:
        room = max(room, partner)
    must_cover = Counter(required)
    usable: list[int] = []
    for c in cards:
        p = piece(c)
        if p.alone or (p.values and min(p.values) <= room):
            usable.append(c)
        elif must_cover[c] or not p.optional:
            return None
    cards = usable
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
        return _Search(rest, target, piece, min_group, score, fixed, pinned).run(partner)
    return _Search(cards, target, piece, min_group, score).run(partner)


class _Search:
    """Exact splits over count vectors, and the best one of a selection.

    A selection is a count vector over *kinds* (cards with the same piece, so
    required and optional cards of a value are two kinds): of each kind the best
    cards are kept. Whether a selection can be covered depends only on each
    card's *shape* (its values, and whether it may be a block alone), so that
    question is asked of the selection's count vector over shapes:
    ``exact(shape_counts)``. The first shape left is covered first, alone or in
    a group completed by cards of it and later shapes, and each vector is
    settled once. The best split is found by trying selections from the highest
    score down (best-first over the lattice of count vectors over kinds) until
    one can be covered.
    """

    __slots__ = ("alone", "counts", "flexible", "gain", "kinds", "memo", "min_group",
                 "pool", "shape_of", "shapes", "target")

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
        worth = score or (lambda c: 0)
        self.kinds = sorted(by_kind, key=lambda p: (-max(p.values, default=0), p))
        # Each kind's cards worst first: a selection keeps the best of each kind.
        self.pool = [sorted(by_kind[p], key=lambda c: (worth(c), c)) for p in self.kinds]
        self.counts = tuple(len(cs) for cs in self.pool)
        # Largest value first: a big card has few ways to be completed.
        shapes = sorted({(p.values, p.alone) for p in self.kinds},
                        key=lambda sh: (-max(sh[0], default=0), sh))
        self.shapes = [values for values, _ in shapes]
        self.alone = [alone for _, alone in shapes]
        self.shape_of = [shapes.index((p.values, p.alone)) for p in self.kinds]
        self.target = target
        self.min_group = min_group
        # gain[j][k]: the score of covering the best k cards of kind j.
        self.gain = []
        for cs in self.pool:
            g = [0]
            for c in reversed(cs):
                g.append(g[-1] + worth(c))
            self.gain.append(g)
        # A shape is flexible when its cards need not add up to whole groups.
        self.flexible = [alone or len(values) > 1 for values, alone in shapes]
        self.memo: dict[tuple[int, ...], object] = {}

    def _shape_counts(self, counts: Sequence[int]) -> tuple[int, ...]:
        out = [0] * len(self.shapes)
        for j, k in enumerate(counts):
            out[self.shape_of[j]] += k
        return tuple(out)

    # -- completions: count vectors over shapes >= start adding up to exactly r --
    def _completions(self, counts: tuple[int, ...], start: int,
                     r: int) -> Iterator[tuple[int, ...]]:
        seen: set[tuple[int, ...]] = set()
        n = len(counts)
        picked = [0] * n
        shapes = self.shapes

        def walk(j: int, left: int) -> Iterator[tuple[int, ...]]:
            if left == 0:
                key = tuple(picked)
                if key not in seen:
                    seen.add(key)
                    yield key
                return
            if j >= n:
                return
            vals = shapes[j]
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

    def _hopeless(self, counts: tuple[int, ...], t: int) -> bool:
        """Cards that can only go into groups must add up to whole groups."""
        total = 0
        for j in range(t, len(counts)):
            if counts[j]:
                if self.flexible[j]:
                    return False
                vals = self.shapes[j]
                if not vals:
                    return True
                total += vals[0] * counts[j]
        return total % self.target != 0 if self.target else total != 0

    def exact(self, counts: tuple[int, ...]) -> bool:
        """Whether every card of ``counts`` (a count vector over shapes) can be covered
        by blocks."""
        got = self.memo.get(counts, _UNSET)
        if got is not _UNSET:
            return got is not None
        t = next((j for j, k in enumerate(counts) if k), -1)
        how: tuple[int, ...] | None = None
        if t < 0:
            how = ()
        elif not self._hopeless(counts, t):
            values = self.shapes[t]
            rest = (*counts[:t], counts[t] - 1, *counts[t + 1:])
            if (self.alone[t] or (self.min_group == 1 and self.target in values)) \
                    and self.exact(rest):
                how = ()
            else:
                for val in sorted(set(values)):
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
        """How the selection ``counts`` (over shapes) splits with a partner group: the
        partner's vector over shapes, or None."""
        if partner is None or partner == 0:
            return tuple(0 for _ in counts) if self.exact(counts) else None
        for vec in self._completions(counts, 0, partner):
            if self.exact(tuple(a - b for a, b in zip(counts, vec, strict=True))):
                return vec
        return None

    def _score(self, counts: tuple[int, ...]) -> int:
        return sum(g[k] for g, k in zip(self.gain, counts, strict=True))

    def run(self, partner: int | None) -> Split | None:
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
        while heap:
            _, counts = heapq.heappop(heap)
            how = self._with_partner(self._shape_counts(counts), partner)
            if how is not None:
                return self._make(counts, how, partner)
            for j in optional:
                k = counts[j] + step
                if 0 <= k <= full[j]:
                    nxt = (*counts[:j], k, *counts[j + 1:])
                    if nxt not in seen:
                        seen.add(nxt)
                        heapq.heappush(heap, (-self._score(nxt), nxt))
        return None

    def _make(self, counts: tuple[int, ...], partner_vec: tuple[int, ...],
              partner: int | None) -> Split:
        score = self._score(counts)
        # The best cards of each kind are the ones covered, pooled by shape (best last).
        pool: list[list[int]] = [[] for _ in self.shapes]
        for j, (cs, k) in enumerate(zip(self.pool, counts, strict=True)):
            if k:
                pool[self.shape_of[j]].extend(cs[len(cs) - k:])
        shaped = self._shape_counts(counts)
        partner_cards: tuple[int, ...] | None = None
        if partner is not None:
            partner_cards = self._take(pool, partner_vec)
        shaped = tuple(a - b for a, b in zip(shaped, partner_vec, strict=True))
        blocks: list[tuple[int, ...]] = []
        while any(shaped):
            t = next(j for j, k in enumerate(shaped) if k)
            how = self.memo[shaped]
            assert isinstance(how, tuple)
            first = (pool[t].pop(),)
            shaped = (*shaped[:t], shaped[t] - 1, *shaped[t + 1:])
            if how:
                blocks.append(first + self._take(pool, how))
                shaped = tuple(a - b for a, b in zip(shaped, how, strict=True))
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

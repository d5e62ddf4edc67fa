"""How good a position or a move is for a seat, in round points (higher is better for it).

Four views, from exact to heuristic:

``value(pos, seat)``
    The round scored as if it ended now, from the piles: exact once the round
    is over (its result's items). The stable signature search bots rely on.
``immediate_gain(pos, move, seat)``
    The points a move secures right now: the cards it puts in a pile, each
    worth its own points plus a share of the majorities it counts toward, and
    the sweep, mulle or end-of-round leftovers it earns. Greedy play.
``estimate(pos, seat)``
    A better horizon evaluation than ``value``: banked points, majorities by
    how decided they are, builds as the points their owners will collect, and
    what the player to move can take from the table at once.
``deal_start_estimate(pos, seat)``
    ``estimate`` corrected, at a deal's first position with every hand known (a
    search bot's sample), by a fit to self-play: both players' captures from the
    table, and who leads the last deal. ``pimc`` values the end of its search by it.

All four speak one currency: *margin* points for ``seat``'s side, that side's
points less the best other side's. In Krypkasino, whose points are penalties,
the sign is turned so that higher is still better (a penalty card taken is a
loss, a sweep costs the sweeper 5 and gives the other player 5: a swing of 10).

The heuristic terms use per-card *weights* (:func:`card_weights`): a card's own
points under the ruleset's scoring (docs/rules.md §2.7, §3-§6) plus its linear share
of each majority it counts toward (3 points for most cards spread over the 27
cards that clinch it, 1 for most spades over 7 spades). :class:`Captures`
works out what a card could take from a given table, which careful play and
``estimate`` use to price what the opponent can take next.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, fields
from functools import lru_cache, partial
from itertools import takewhile

from casino.bots.odds import majority_expectation
from casino.bots.race import race_value
from casino.engine.builds import Build
from casino.engine.memo import per_rules
from casino.engine.movegen import TableSums, closure
from casino.engine.moves import CAPTURE, Move
from casino.engine.position import (
    Position,
    double_sweep,
    leftovers_taker,
    table_after,
    twin_sweep,
)
from casino.engine.position import sweep_counts as engine_sweep_counts
from casino.engine.rules import Rules
from casino.engine.scheme import is_spade, scheme
from casino.engine.scoring import Carry, Item, round_items

# ----------------------------------------------------------------------
# Exact: the round as if it ended now


def _margin(items: list[Item] | tuple[Item, ...], pos: Position, seat: int) -> float:
    rules = pos.rules
    side = rules.team_of(seat)
    totals = {t: 0.0 for t in rules.teams}
    for it in items:
        totals[it.seat] += it.points
    mine = totals[side]
    others = [v for t, v in totals.items() if t != side]
    margin = mine - (max(others) if others else 0.0)
    return -margin if scheme(rules).penalty else margin


def value(pos: Position, seat: int) -> float:
    """Round points of ``seat``'s side less the best other side's (exact at the end)."""
    if pos.result is not None:
        return _margin(pos.result.items, pos, seat)
    items = round_items(pos.rules, pos.piles, pos.sweeps, pos.mulles, pos.last_capture,
                        pos.carry)
    return _margin(items, pos, seat)


# ----------------------------------------------------------------------
# Card weights

def direct_points(rules: Rules, c: int) -> float:
    """What card ``c`` scores by itself for its capturer, in good-for-the-holder points
    (Krypkasino: minus its penalty), as the ruleset's scoring scheme
    (:func:`casino.engine.scheme.scheme`) counts it. Majorities are not included."""
    sch = scheme(rules)
    pts = float(sch.points_of(c))
    if sch.penalty:
        return -pts
    if sch.spades_above() is not None and is_spade(c):
        # Each spade above 7 scores 1: a spade is worth about half a point before the
        # count is known (a rough share, documented rather than modelled).
        pts += 0.5
    return pts


@per_rules
def _direct_table(rules: Rules) -> tuple[float, ...]:
    """:func:`direct_points` of every card, kept per ruleset."""
    return tuple(direct_points(rules, c) for c in range(52))


@dataclass(frozen=True)
class Majority:
    """A majority item: its points, how many cards of its kind the deck holds, and
    which cards count toward it."""

    points: float
    total: int
    spades_only: bool

    @property
    def clinch(self) -> int:
        """The count that wins it outright (more than half)."""
        return self.total // 2 + 1


_NO_CARRY = Carry()


def majorities(rules: Rules, carry: Carry = _NO_CARRY) -> tuple[Majority, ...]:
    """The majority items of the ruleset: most cards, most spades (where scored as a
    majority), with Finnish carried points added."""
    out: list[Majority] = []
    sch = scheme(rules)
    cards = sch.majority("cards")
    if cards is not None:
        out.append(Majority(float(cards.points + carry.cards), rules.deck_size, False))
    spades = sch.majority("spades")
    # The spades-above-7 option, set on a ruleset that scores most spades, drops the
    # majority here though the scorer keeps it: as the evaluation always has.
    if spades is not None and not rules.spades_above_7:
        pts = spades.points + (carry.spades if spades.carries else 0)
        if pts:
            out.append(Majority(float(pts), 13 * rules.decks, True))
    return tuple(out)


@lru_cache(maxsize=256)
def _base_weights(rules: Rules, carry: Carry, live: tuple[bool, ...]) -> tuple[float, ...]:
    majs = majorities(rules, carry)
    out = []
    for c in range(52):
        w = direct_points(rules, c)
        for m, on in zip(majs, live, strict=True):
            if on and (not m.spades_only or is_spade(c)):
                w += m.points / m.clinch
        out.append(w)
    return tuple(out)


def side_counts(pos: Position) -> dict[int, tuple[int, int]]:
    """Cards and spades in each side's piles (kept with the position)."""
    return pos.memo("eval_counts", lambda: _side_counts(pos))


def _side_counts(pos: Position) -> dict[int, tuple[int, int]]:
    rules = pos.rules
    out = {t: (0, 0) for t in rules.teams}
    for seat, pile in enumerate(pos.piles):
        t = rules.team_of(seat)
        n, s = out[t]
        out[t] = (n + len(pile), s + sum(1 for c in pile if not c & 3))
    return out


def card_weights(pos: Position) -> tuple[float, ...]:
    """Per card id: what putting it in a pile is worth to the capturer here.

    Its own points plus ``points / clinch`` for each majority it counts toward
    that no side has clinched yet (once one has, more cards of that kind change
    nothing).
    """
    majs = majorities(pos.rules, pos.carry)
    counts = side_counts(pos)
    live = tuple(
        not any((s if m.spades_only else n) >= m.clinch for n, s in counts.values())
        for m in majs)
    return _base_weights(pos.rules, pos.carry, live)


def _linear_majority_gain(pos: Position, side: int, cards: Iterable[int]) -> float:
    """Partial credit for adding ``cards`` to ``side``'s pile: each card (spade) is
    worth ``points / clinch`` until the side has clinched the majority, and nothing
    once any side has (so the clinching capture has earned the whole item)."""
    counts = side_counts(pos)
    taken = list(cards)
    gain = 0.0
    for m in majorities(pos.rules, pos.carry):
        idx = 1 if m.spades_only else 0
        if any(v[idx] >= m.clinch for t, v in counts.items() if t != side):
            continue
        k = sum(1 for c in taken if is_spade(c)) if m.spades_only else len(taken)
        have = counts[side][idx]
        gain += m.points * (min(have + k, m.clinch) - min(have, m.clinch)) / m.clinch
    return gain


# ----------------------------------------------------------------------
# Moves: what the table looks like after, and what a move earns now


def sweep_counts(pos: Position, *, ends_round: bool = False) -> bool:
    """Whether clearing the table on the next move of ``pos`` scores a sweep: the
    engine's rule (:func:`casino.engine.position.sweep_counts`), where sweeps score."""
    return bool(pos.rules.sweep_points) and engine_sweep_counts(pos, ends_round=ends_round)


def sweep_worth(rules: Rules, double: bool = False) -> float:
    """A sweep in margin points for the sweeper: +points, or in Krypkasino the
    sweeper's +5 penalty and the other's -5, a swing of -10 (double: -20)."""
    if scheme(rules).penalty:
        return -2.0 * rules.sweep_points * (2 if double else 1)
    return float(rules.sweep_points)


def _ends_round(pos: Position) -> bool:
    """The next move is the round's last card."""
    return pos.stock_size == 0 and sum(pos.hand_size(s) for s in range(pos.rules.players)) == 1


def immediate_gain(pos: Position, move: Move, seat: int | None = None) -> float:
    """The points ``move`` secures right now, as margin for ``seat`` (default the mover).

    A capture earns the :func:`direct_points` of every card it puts in the pile
    (the played card included), linear credit toward the majorities
    (:func:`_linear_majority_gain`), a sweep (and a Krypkasino double sweep) or a
    mulle where the rules score one. The round's last card also hands the
    leftovers to the last capturer. Trails and builds secure nothing now (what they
    set up is :func:`estimate`'s and careful play's business).
    """
    rules = pos.rules
    mover = pos.to_move
    seat = mover if seat is None else seat
    side = rules.team_of(mover)
    taken: dict[int, list[int]] = {}
    extra: dict[int, float] = {}
    ends = _ends_round(pos)
    taker: int | None = pos.last_capture
    if move.kind == CAPTURE:
        cards = [move.card, *move.loose]
        for b in move.builds:
            cards.extend(b.cards)
        taken[side] = cards
        g = 0.0
        left = len(pos.table) - len(move.loose) - len(move.builds)
        if left == 0 and sweep_counts(pos, ends_round=ends):
            g += sweep_worth(rules, double_sweep(pos, move))
        if rules.mulle_points and not move.builds and move.loose == (move.card,):
            g += rules.mulle_points
        extra[side] = g
        taker = mover
    if ends:
        # The round's last card: the leftovers (and Krypkasino's set-aside pictures)
        # go to the last capturer, with the last-capture point where one is scored.
        taker = leftovers_taker(pos, taker)
        if taker is not None:
            loose, _ = table_after(pos, move)
            t = rules.team_of(taker)
            taken.setdefault(t, []).extend((*loose, *pos.set_aside))
            extra[t] = extra.get(t, 0.0) + rules.last_capture_points
    mine = rules.team_of(seat)
    out = 0.0
    for t in set(taken) | set(extra):
        cards = taken.get(t, [])
        g = extra.get(t, 0.0) + sum(direct_points(rules, c) for c in cards)
        g += _linear_majority_gain(pos, t, cards)
        out += g if t == mine else -g
    return out


# ----------------------------------------------------------------------
# What a card could capture from a table

#: Tables with more loose cards than this are analysed approximately (pairs and
#: two-card groups, packed greedily), so the work per table stays bounded.
EXACT_LOOSE = 10


class Captures:
    """What a card could capture from one table (loose cards and builds).

    ``outcome(c)``: the best result, in margin points for the capturer, of
    capturing with ``c`` (its weight, the weights of what it takes, a sweep or a
    mulle), or ``None`` if ``c`` can capture nothing. Where captures are
    compulsory and maximal (Krypkasino) only maximal captures count, and trailing
    is allowed only to a card that can capture nothing. Cards that capture alike
    (the same played values and pairing) share one analysis.
    """

    def __init__(self, rules: Rules, loose: Sequence[int], builds: Sequence[Build],
                 weights: Sequence[float], *, sweep: bool = True) -> None:
        self.rules = rules
        self.loose = tuple(loose)
        self.builds = tuple(builds)
        self.weights = weights
        self.sweep_on = sweep
        self._keys: dict[tuple[object, ...], tuple[float, bool] | None] = {}
        self._sums: TableSums | None = None
        t = self._t = rules.table
        self._pair_table = [t.pair_table[c] for c in self.loose]
        self._loose_w = [weights[c] for c in self.loose]

    def _table_sums(self) -> TableSums:
        if self._sums is None:
            t = self._t
            alt = ((self.rules.ace_sum_alt - self.rules.ace_sum)
                   if self.rules.ace_sum_alt else 0)
            self._sums = TableSums(t, self.loose, max(t.max_value, t.max_build), alt)
        return self._sums

    def _mask_weight(self, mask: int) -> float:
        w = 0.0
        lw = self._loose_w
        i = 0
        while mask:
            if mask & 1:
                w += lw[i]
            mask >>= 1
            i += 1
        return w

    def _analyse(self, c: int) -> tuple[float, bool] | None:
        """(best weight taken from the table, can take the whole table) for ``c``'s kind."""
        t = self._t
        keys = t.pair_played[c]
        n = len(self.loose)
        full = (1 << n) - 1
        pairs = [1 << i for i, k in enumerate(self._pair_table) if k in keys]
        compulsory = self.rules.compulsory_capture
        best: float | None = None
        whole = False
        if not t.played[c]:
            # A face card without a number value: pairs only (classic, docs/rules.md §5).
            if not pairs:
                return None
            if t.face_one[c]:
                return (max(self._loose_w[p.bit_length() - 1] for p in pairs),
                        n == 1 and not self.builds)
            m = sum(pairs)
            return self._mask_weight(m), m == full and not self.builds
        for v in t.played[c]:
            vb = [b for b in self.builds if b.value == v]
            build_w = sum(self.weights[x] for b in vb for x in b.cards)
            all_builds = len(vb) == len(self.builds)
            if n <= EXACT_LOOSE:
                sums = self._table_sums()
                groups = [m for m in sums.by_sum[v] if m & (m - 1)] if v <= sums.maxv else []
                blocks = pairs + groups
                if not blocks and not vb:
                    continue
                res = closure(blocks)
                for u in res:
                    if not u and not vb:
                        continue
                    if compulsory and any(not (b & u) for b in blocks):
                        continue  # not maximal: a block is left that it must take too
                    w = self._mask_weight(u) + build_w
                    if best is None or w > best:
                        best = w
                    if u == full and all_builds:
                        whole = True
            else:
                w, cover = self._greedy(v, pairs)
                if not cover and not vb:
                    continue
                w += build_w
                if best is None or w > best:
                    best = w
        return None if best is None else (best, whole)

    def _greedy(self, v: int, pairs: list[int]) -> tuple[float, int]:
        """Big tables: pairs and two-card groups adding up to ``v``, packed greedily
        by weight. A lower bound on the best capture, found in O(n²)."""
        sv = self._t.sum_value
        loose = self.loose
        blocks = list(pairs)
        for i in range(len(loose)):
            si = sv[loose[i]]
            if not si or si >= v:
                continue
            for j in range(i + 1, len(loose)):
                if si + sv[loose[j]] == v:
                    blocks.append(1 << i | 1 << j)
        blocks.sort(key=self._mask_weight, reverse=True)
        used = 0
        w = 0.0
        for b in blocks:
            if not b & used:
                used |= b
                w += self._mask_weight(b)
        return w, used

    def info(self, c: int) -> tuple[float, bool] | None:
        """(best weight taken from the table, whether it sweeps), or None."""
        t = self._t
        key = (t.pair_played[c], t.played[c], t.face_one[c])
        if key not in self._keys:
            self._keys[key] = self._analyse(c)
        return self._keys[key]

    def outcome(self, c: int) -> float | None:
        """The best capture with ``c`` in margin points for its player, or None."""
        got = self.info(c)
        rules = self.rules
        mulle = (rules.mulle_points if rules.mulle_points and c in self.loose else 0.0)
        if got is None:
            return None
        taken, whole = got
        out = taken + self.weights[c]
        if whole and self.sweep_on:
            out += sweep_worth(rules, twin_sweep(rules, self.loose, self.builds, c))
        if mulle and not rules.compulsory_capture:
            out = max(out, self.weights[c] * 2 + mulle)
        return out

    def sweeps(self, c: int) -> bool:
        """Whether ``c``'s best capture clears the table (a sweep, where the rules score
        one)."""
        got = self.info(c)
        return bool(got and got[1])

    def can_take_value(self, v: int) -> bool:
        """Whether a build of value ``v`` stands on this table (taken by played value v)."""
        return any(b.value == v for b in self.builds)


# ----------------------------------------------------------------------
# The best reply of a player whose hand may be hidden


def none_prob(unseen: int, hand: int, k: int) -> float:
    """P(a hand of ``hand`` cards dealt from ``unseen`` holds none of ``k`` given cards)."""
    if k <= 0:
        return 1.0
    if hand <= 0:
        return 1.0
    if k > unseen - hand:
        return 0.0
    p = 1.0
    for i in range(hand):
        p *= (unseen - k - i) / (unseen - i)
    return p


def best_outcome(caps: Captures, cards: Sequence[int], *, hidden: bool, hand_size: int = 0,
                 must_values: Iterable[int] = ()) -> float:
    """What the player to move on ``caps``'s table can expect from their best card.

    With a known hand (``hidden=False``) it is the best outcome over ``cards``.
    With a hidden hand of ``hand_size`` cards dealt from the ``cards`` a seat cannot
    see, it is the expectation of that best: outcomes sorted best first, each
    weighted by the chance that it is the best card held. A trail (outcome 0) is
    always possible where captures are optional. Where a card that can take the
    whole table must do so (Krypkasino), holding one forces that sweep.
    ``must_values`` are build values the player is known to hold a card of.
    """
    rules = caps.rules
    compulsory = rules.compulsory_capture
    forced = rules.forced_sweep and bool(caps.loose)
    outs: list[tuple[float, bool]] = []
    for c in cards:
        o = caps.outcome(c)
        sweeps = forced and o is not None and caps.sweeps(c)
        outs.append((0.0 if o is None else (o if compulsory else max(o, 0.0)), sweeps))
    if not outs:
        return 0.0
    if not hidden:
        sweepers = [o for o, s in outs if s]
        if sweepers:
            return max(sweepers)
        return max(o for o, _ in outs)
    n = len(cards)
    h = min(hand_size, n)
    if h <= 0:
        return 0.0
    floor = 0.0
    for v in must_values:
        if caps.can_take_value(v):
            floor = max(floor, sum(caps.weights[x] for b in caps.builds if b.value == v
                                   for x in b.cards))
    if forced:
        k = sum(1 for _, s in outs if s)
        p_sweep = 1.0 - none_prob(n, h, k)
        sweep_vals = [o for o, s in outs if s]
        rest = sorted((o for o, s in outs if not s), reverse=True)
        return (p_sweep * (sum(sweep_vals) / len(sweep_vals) if sweep_vals else 0.0)
                + (1.0 - p_sweep) * _expected_max(rest, n, h, compulsory))
    vals = sorted((o for o, _ in outs), reverse=True)
    return max(_expected_max(vals, n, h, compulsory), floor)


def _expected_max(vals: list[float], n: int, h: int, compulsory: bool) -> float:
    """E[max] of ``h`` values drawn without replacement from ``n`` (``vals`` sorted
    descending, fewer than ``n`` when the rest are 0)."""
    e = 0.0
    q_prev = 1.0
    for i, v in enumerate(vals, start=1):
        q = none_prob(n, h, i)
        e += v * (q_prev - q)
        q_prev = q
    if not compulsory:
        return max(e, 0.0)
    return e


# ----------------------------------------------------------------------
# The horizon evaluation

@dataclass(frozen=True)
class EvalParams:
    """The constants of :func:`estimate` and :func:`deal_start_estimate`, passed in.

    The defaults are the shipped values (:data:`DEFAULT_PARAMS`); a bot that
    evaluates positions takes an instance (``eval_params``), so an experiment can
    make one bot think with other values while its opponent, and any judge, keep
    these. Each field says what it weighs.
    """

    #: Share of an owned build's points its owner is credited with when another
    #: player's hand is hidden (it may be taken or raised away).
    build_keep: float = 0.75
    #: The same share when every hand is known (a search's sample): whole when no
    #: other player holds a card that takes the build ...
    build_keep_safe: float = 1.0
    #: ... else half.
    build_keep_threatened: float = 0.5
    #: Share of the side to move's best immediate capture credited to it: it moves
    #: first, but the reply may undo part of the gain.
    tempo: float = 0.5
    #: More than two seats (:func:`_multi_tempo`): the share of the best capture of
    #: the side that moves first before the evaluated seat's next turn, and of the
    #: side that moves after it. Careful play's one-ply weight of the reply (0.8)
    #: measured best; crediting partners who move later lost (research/bots-log.md,
    #: issue 20 part 2).
    tempo_multi: float = 0.8
    tempo_later: float = 0.0
    #: Two players: the same fair tempo (:func:`_multi_tempo`) when the other is to move.
    fair_tempo: bool = False
    #: How many cards on average move together in a capture. Majorities are decided
    #: by captures, not single cards, so the split of the remaining cards varies more
    #: than coin flips per card would: the variance is scaled by this factor (most
    #: cards; most spades).
    clump_cards: float = 2.5
    clump_spades: float = 1.5
    #: Corrections to :func:`estimate` at the first position of a deal where every
    #: hand is known (what a search bot meets on a sample of the hidden cards at the
    #: end of the deal it searches), ``(mover, other, lead)``: per unit of the
    #: mover's best capture from the table (on top of the :attr:`tempo` share
    #: :func:`estimate` already counts), per unit of the other player's best capture
    #: from the same table, and a constant for the player who leads. Fitted by least
    #: squares to the round's final margin on 3,500 deal starts of 700 rounds of
    #: ``expert`` self-play, house rules (standard errors 0.15-0.2;
    #: ``research/fit_deal_start.py``). With a full hand each to make them with, both
    #: players' captures are worth more than :func:`estimate` says; in the last deal
    #: (:attr:`deal_start_last`) the player who moves last usually takes the
    #: leftovers, so leading costs about a point.
    deal_start: tuple[float, float, float] = (0.8, 0.7, 0.0)
    deal_start_last: tuple[float, float, float] = (1.2, 0.6, -1.1)
    #: Where the first to the target in counting order wins (Mulle, house rules):
    #: this many points times the side's chance to win the game this round less the
    #: other's (:func:`casino.bots.race.race_value`); 0 plays for the round's margin
    #: alone. ``race_mulles`` and ``race_sweeps``: how many a side makes in a round.
    race_win: float = 0.0
    race_mulles: float = 2.2
    race_sweeps: float = 2.0

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The fields' names (what an experiment may set)."""
        return tuple(f.name for f in fields(cls))


#: The shipped constants: what every bot evaluates with unless given others.
DEFAULT_PARAMS = EvalParams()


def _table_captures(pos: Position) -> Captures:
    """The :class:`Captures` of ``pos``'s table for its next move (kept with the position)."""
    return pos.memo("eval_caps", lambda: Captures(
        pos.rules, pos.loose, pos.builds, card_weights(pos),
        sweep=sweep_counts(pos, ends_round=_ends_round(pos))))


def estimate(pos: Position, seat: int, params: EvalParams = DEFAULT_PARAMS) -> float:
    """A horizon evaluation in margin points for ``seat``: exact once the round is over.

    The terms, each per side (margin = ``seat``'s side less the best other):

    1. *Banked points*: every scored item that cannot change any more, the
       round's items (:func:`casino.engine.scoring.round_items`) less the majorities and
       the last-capture point: cards with their own points, sweeps, mulles,
       Krypkasino's penalties and sweep swings.
    2. *Majorities by how decided they are* (:func:`casino.bots.odds.majority_expectation`): a
       side with 20 cards against 15 and 17 still to come is a clear favourite
       for the 3 points, more than 5/27 of them; a clinched majority is whole.
       Owned builds count toward their owner's pile (weighted as in 3).
    3. *Builds*: the owner holds a card of the build's value (docs/rules.md §2.5) and will take
       it, so its cards' own points are credited to the owner, times the chance it
       is not taken away first (``params.build_keep``, or from the hands when known
       with two players; with more a sample guesses several hands, so the fair share).
    4. *Tempo*: the side to move can take something from the table at once: a
       share (``params.tempo``) of its best capture's points, from its hand if known,
       else the expectation over the cards it may hold (:func:`best_outcome`). This
       is the "what the opponent can take next turn" term, counted against
       ``seat`` when the opponent is to move.
       With more than two players, and ``seat`` not to move, every seat before
       ``seat``'s next turn counts, from ``seat``'s knowledge (:func:`_multi_tempo`).
    """
    if pos.result is not None:
        return value(pos, seat)
    rules = pos.rules
    majority_specs = majorities(rules, pos.carry)
    good = _banked(pos, majority_specs)
    fcards, fspades = _credit_builds(pos, params, good)
    for m in majority_specs:
        got = majority_expectation(fspades if m.spades_only else fcards, m.total, m.points,
                                   params.clump_spades if m.spades_only
                                   else params.clump_cards)
        for t, v in got.items():
            good[t] += v
    _credit_tempo(pos, seat, params, good)
    side = rules.team_of(seat)
    others = [v for t, v in good.items() if t != side]
    margin = good[side] - (max(others) if others else 0.0)
    if params.race_win:
        margin += race_value(pos, seat, params.race_win, mulles_a_round=params.race_mulles,
                             sweeps_a_round=params.race_sweeps, build_keep=params.build_keep)
    return margin


# The terms of :func:`estimate`, a function each so that each reads on its own. They add
# to ``good`` (points per side) in place, in the order the compiled core's evaluation adds
# them (src/ccore/eval.c, held equal by tests/test_core.py): a floating-point sum depends
# on its order. Each is called once per position, never per card (estimate is a hot path).


def _banked(pos: Position, majority_specs: tuple[Majority, ...]) -> dict[int, float]:
    """Term 1 of :func:`estimate`, the points per side that cannot change any more: the
    scored items less the majorities (priced as they stand by term 2) and the
    last-capture point (which the round's end decides)."""
    rules = pos.rules
    kryp = scheme(rules).penalty
    sign = -1.0 if kryp else 1.0
    majority_names = {"cards"} if rules.cards_points else set()
    if any(m.spades_only for m in majority_specs):
        majority_names.add("spades")
    good = {t: 0.0 for t in rules.teams}
    if rules.spades_above_7:
        banked = round_items(rules, pos.piles, pos.sweeps, pos.mulles, None, pos.carry)
    else:
        # Cards' own points straight from a table; the rest (sweeps, mulles, Krypkasino's
        # sweep swings) from the scorer on empty piles, where no majority is scored.
        direct = _direct_table(rules)
        for s, pile in enumerate(pos.piles):
            good[rules.team_of(s)] += sum(direct[c] for c in pile)
        banked = (round_items(rules, [() for _ in pos.piles], pos.sweeps, pos.mulles, None,
                              pos.carry) if pos.sweeps or pos.mulles else [])
    for it in banked:
        if it.item in majority_names:
            continue
        good[it.seat] += sign * it.points
    return good


def _credit_builds(pos: Position, params: EvalParams, good: dict[int, float]
                   ) -> tuple[dict[int, float], dict[int, float]]:
    """Term 3 of :func:`estimate`: each owned build's points to its owner's side in
    ``good``, times the share it keeps; returns the cards and spades per side with the
    builds counted the same way, which term 2 prices the majorities on."""
    rules = pos.rules
    # Builds and who keeps them.
    # With more than two seats a search's sample guesses several hands: the build's
    # fair share instead (as for the tempo, :func:`_multi_tempo`).
    hands_known = rules.players == 2 and all(not isinstance(h, int) for h in pos.hands)
    counts = side_counts(pos)
    fcards = {t: float(n) for t, (n, _) in counts.items()}
    fspades = {t: float(s) for t, (_, s) in counts.items()}
    table = rules.table
    for b in pos.builds:
        owner = rules.team_of(b.owner)
        if hands_known:
            threatened = any(
                rules.team_of(s) != owner and any(b.value in table.played[c] for c in h)
                for s, h in enumerate(pos.hands) if not isinstance(h, int))
            keep = params.build_keep_threatened if threatened else params.build_keep_safe
        else:
            keep = params.build_keep
        good[owner] += keep * sum(direct_points(rules, c) for c in b.cards)
        fcards[owner] += keep * (len(b.cards) + 1)
        fspades[owner] += keep * sum(1 for c in b.cards if is_spade(c))
    return fcards, fspades


def _credit_tempo(pos: Position, seat: int, params: EvalParams,
                  good: dict[int, float]) -> None:
    """Term 4 of :func:`estimate`: a share of what the side to move can take from the
    table at once, added to ``good`` (with more seats, or a fair tempo, every seat
    before ``seat``'s next turn, :func:`_multi_tempo`)."""
    rules = pos.rules
    # Tempo: the best the player to move can take now.
    mover = pos.to_move
    if ((rules.players > 2 or params.fair_tempo) and (pos.loose or pos.builds)
            and mover != seat):
        # More than two seats: every seat before ``seat``'s next turn (_multi_tempo).
        mine, theirs = _multi_tempo(pos, seat, params)
        side = rules.team_of(seat)
        good[side] += mine - theirs
    elif pos.loose or pos.builds:
        good[rules.team_of(mover)] += params.tempo * _best_now(pos, mover)


def _best_now(pos: Position, mover: int) -> float:
    """The best capture ``mover`` can make from the table now: from its hand when it is
    known, else the expectation over the cards it may hold as the seat whose hand is
    known sees them (nothing when no hand is known)."""
    caps = _table_captures(pos)
    h = pos.hands[mover]
    if not isinstance(h, int):
        return best_outcome(caps, h, hidden=False)
    viewer = next((s for s, hh in enumerate(pos.hands) if not isinstance(hh, int)), None)
    if viewer is None:
        return 0.0
    from casino.bots.knowledge import knowledge

    k = knowledge(pos, viewer)
    return best_outcome(caps, k.unseen, hidden=True, hand_size=h,
                        must_values=k.must_hold.get(mover, ()))


def _movers_before(pos: Position, seat: int) -> list[int]:
    """The seats holding cards that move from ``pos.to_move`` until ``seat``'s next turn."""
    before = takewhile(lambda s: s != seat, pos.rules.playing_order(pos.to_move))
    return [s for s in before if pos.hand_size(s)]


def _multi_tempo(pos: Position, seat: int, params: EvalParams) -> tuple[float, float]:
    """The tempo term with more than two seats, when ``seat`` is not to move: (what
    its partners can expect to take, what its opponents can) before its next turn.

    Two-seat tempo looks only at the player to move, which in a search's sample is a
    guessed hand: at a 2-ply horizon of a four-player game that is the root's partner
    (partnerships) or a third player, so leaving a point card looked good or free.
    Here every seat before the root's next turn counts, each side's hands pooled
    (any of them may take the card), and from the root seat's knowledge, not the
    sample's guess (fair expectations: :func:`best_outcome` over the unseen cards).
    The side that moves first gets ``params.tempo_multi`` of its best; the other
    ``params.tempo_later`` of it (the table may have changed by then).
    """
    rules = pos.rules
    movers = _movers_before(pos, seat)
    if not movers:
        return 0.0, 0.0
    from casino.bots.knowledge import knowledge

    k = pos.memo(f"eval_know{seat}", lambda: knowledge(pos, seat))
    caps = _table_captures(pos)
    side = rules.team_of(seat)
    first = rules.team_of(movers[0]) == side
    out = {True: 0.0, False: 0.0}
    for friend in (True, False):
        group = [s for s in movers if (rules.team_of(s) == side) == friend]
        if not group:
            continue
        size = sum(pos.hand_size(s) for s in group)
        must = tuple(v for s in group for v in k.must_hold.get(s, ()))
        best = best_outcome(caps, k.unseen, hidden=True, hand_size=size, must_values=must)
        out[friend] = (params.tempo_multi if first == friend else params.tempo_later) * best
    return out[True], out[False]


# ----------------------------------------------------------------------
# The evaluation of the search bots' samples at a deal's start

def deal_start_estimate(pos: Position, seat: int,
                        params: EvalParams = DEFAULT_PARAMS) -> float:
    """:func:`estimate`, corrected (``params.deal_start``, ``params.deal_start_last``) at
    the first position of a deal where every hand is known.

    Only where it was fitted: two players, casino scoring, every hand visible and
    full (``deal_size`` cards each). Everywhere else it is :func:`estimate` (the same
    fit mid-deal found much smaller corrections, which measured no better in play).
    """
    base = estimate(pos, seat, params)
    rules = pos.rules
    if (pos.result is not None or rules.players != 2 or rules.scoring != "casino"
            or any(isinstance(h, int) or len(h) != rules.deal_size for h in pos.hands)):
        return base
    mover = pos.to_move
    hm, ho = pos.hands[mover], pos.hands[1 - mover]
    assert not isinstance(hm, int) and not isinstance(ho, int)
    kmover, kother, klead = (params.deal_start_last if pos.stock_size == 0
                             else params.deal_start)
    extra = klead
    if pos.loose or pos.builds:
        caps = _table_captures(pos)
        extra += (kmover * best_outcome(caps, hm, hidden=False)
                  - kother * best_outcome(caps, ho, hidden=False))
    sign = 1.0 if rules.team_of(mover) == rules.team_of(seat) else -1.0
    return base + sign * extra


#: ``(pos, seat) -> float``, higher better for ``seat``'s side.
Evaluation = Callable[[Position, int], float]

#: The evaluations a search may stand on past its horizon, by name.
EVALUATIONS: dict[str, Callable[..., float]] = {
    "value": value,
    "estimate": estimate,
    "deal_start_estimate": deal_start_estimate,
}


def evaluator(name: str = "estimate", params: EvalParams = DEFAULT_PARAMS) -> Evaluation:
    """The evaluation called ``name`` (:data:`EVALUATIONS`) thinking with ``params``.

    With the shipped constants it is the function itself (no wrapper on the
    search's hottest call); ``value`` has no constants. KeyError for an unknown name.
    """
    fn = EVALUATIONS[name]
    if fn is value or params == DEFAULT_PARAMS:
        return fn
    return partial(fn, params=params)


__all__ = [
    "DEFAULT_PARAMS",
    "EVALUATIONS",
    "Captures",
    "EvalParams",
    "Evaluation",
    "best_outcome",
    "card_weights",
    "deal_start_estimate",
    "direct_points",
    "estimate",
    "evaluator",
    "immediate_gain",
    "majorities",
    "sweep_counts",
    "sweep_worth",
    "table_after",
    "value",
]

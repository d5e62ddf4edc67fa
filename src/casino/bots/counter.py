"""``counter``: the outside yardstick's one-ply card counter, and the worth it counts.

The yardstick reproduces, on this engine, the two bots of the strongest published
Casino AI we know of (a Rust project), from its README's description alone. They
are benchmark opponents for ``casino arena``, not player levels (docs/bots.md,
"The outside yardstick: counter and searcher"). This module holds what both share:

* **Worth** (:data:`WORTH`): the description's fixed numbers, whatever the ruleset:
  0.2 a card, 0.15 more a spade, 1 more an Ace, 2 more the 10♦, 1 more the 2♠, and 1
  a sweep (:data:`SWEEP`). A sweep is what the engine scores as one (none where the
  rules have no sweeps, none in Finnish Kasino's last deal, two for Krypkasino's
  double sweep). At the round's end the cards left on the table (and Krypkasino's
  set-aside pictures) go to the last capturer, as the engine puts them in its pile,
  at their worth (:func:`margin_gain`). Margins are one side's worth less the sum of
  the other sides' (partners' captures count as ours).
* **counter**'s score of a move: the worth margin it earns at once, plus the reply
  of the next seat to move: the capture of most worth it could make right after
  (counted against us, or for us if that seat is a partner), averaged over 24
  samples of the hidden cards (:func:`casino.bots.knowledge.sample`), plus 0.8 ×
  the worth of the cards in builds its side owns on the table after the move. The
  highest score wins; ties go to the move playing the card of least worth, then to
  the first in the engine's order.

Where the description is silent:

* The replier is the next seat to move: in the current deal, or, when our move is
  the deal's last, the next deal's leader with the hand the sample deals it. When
  our move ends the round there is no reply.
* The reply's capture worth is the best of each of the replier's cards on the table
  left, found by :class:`casino.bots.evaluation.Captures` with the worth as weights
  (exact on tables of up to 10 loose cards, a greedy lower bound beyond, so the work
  stays bounded on crowded tables); a card that captures nothing is worth 0. When
  the reply is the round's last card it is found exactly on the sampled position
  (its moves with the leftovers), the replier taking what is best for its side.
* Inside the searcher's playouts every hand is known, so counter there weighs the
  world's actual reply (one "sample"): :func:`counter_scores` takes the worlds to
  average over.

Limit: ``iterations`` is the number of samples (default 24); ``seconds`` stops the
sampling at the deadline (one sample always completes).
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from casino.bots.base import Bot, Limit
from casino.bots.evaluation import Captures, sweep_counts
from casino.bots.knowledge import sample
from casino.engine.builds import Build
from casino.engine.cards import ACE, DIAMONDS, SPADES, card, rank_of, remove_cards
from casino.engine.moves import CAPTURE, Move
from casino.engine.position import (
    Position,
    double_sweep,
    leftovers_taker,
    next_with_cards,
    table_after,
    twin_sweep,
)
from casino.engine.scheme import is_spade

#: Worth of a card in a pile, and its parts (the description's fixed numbers).
CARD, SPADE, ACE_WORTH, BIG_CASINO, LITTLE_CASINO = 0.2, 0.15, 1.0, 2.0, 1.0
#: Worth of a sweep.
SWEEP = 1.0
#: Share of the worth of one's standing builds credited by counter.
BUILD_SHARE = 0.8
#: Samples of the hidden cards counter averages the reply over.
SAMPLES = 24

_TEN_DIAMONDS = card(9, DIAMONDS)
_TWO_SPADES = card(1, SPADES)


def card_worth(c: int) -> float:
    """The worth of card ``c`` in a pile: 0.2, +0.15 a spade, +1 an Ace, +2 the 10♦,
    +1 the 2♠."""
    w = CARD
    if is_spade(c):
        w += SPADE
    if rank_of(c) == ACE:
        w += ACE_WORTH
    if c == _TEN_DIAMONDS:
        w += BIG_CASINO
    if c == _TWO_SPADES:
        w += LITTLE_CASINO
    return w


#: :func:`card_worth` by card id.
WORTH: tuple[float, ...] = tuple(card_worth(c) for c in range(52))


def ends_round(pos: Position) -> bool:
    """The next move is the round's last card."""
    return pos.stock_size == 0 and sum(pos.hand_size(s) for s in range(pos.rules.players)) == 1


def margin_gain(pos: Position, move: Move, seat: int) -> float:
    """The worth margin ``move`` earns ``seat``'s side at once: what it captures (its
    sweep included) and, on the round's last card, the leftovers the last capturer
    takes. Computed from the move, without playing it (works on observations)."""
    rules = pos.rules
    mover = pos.to_move
    ours = rules.team_of(seat)
    last = ends_round(pos)
    taker = pos.last_capture
    out = 0.0
    if move.kind == CAPTURE:
        g = WORTH[move.card] + sum(WORTH[c] for c in move.loose)
        for b in move.builds:
            g += sum(WORTH[c] for c in b.cards)
        if (len(pos.table) == len(move.loose) + len(move.builds)
                and sweep_counts(pos, ends_round=last)):
            g += 2 * SWEEP if double_sweep(pos, move) else SWEEP
        out += g if rules.team_of(mover) == ours else -g
        taker = mover
    if last:
        taker = leftovers_taker(pos, taker)
        if taker is not None:
            loose, _ = table_after(pos, move)
            left = sum(WORTH[c] for c in loose) + sum(WORTH[c] for c in pos.set_aside)
            out += left if rules.team_of(taker) == ours else -left
    return out


class Tables:
    """The best capture worth of each card on each table met in one decision.

    A table after a candidate move is met again in every sample and, in the
    searcher's playouts, in every world; its analysis (:class:`Captures`) is kept."""

    def __init__(self) -> None:
        self._caps: dict[tuple[object, ...], Captures] = {}

    def best(self, pos: Position, loose: Sequence[int], builds: Sequence[Build],
             sweep: bool, hand: Sequence[int]) -> float:
        """The most worth a card of ``hand`` captures from the table of ``loose`` and
        ``builds`` (0 if none captures), sweep included where ``sweep`` says one counts."""
        table = tuple(sorted(loose))
        made = tuple(sorted(builds))
        key = (table, made, sweep)
        caps = self._caps.get(key)
        if caps is None:
            if len(self._caps) > 20_000:
                self._caps.clear()
            caps = self._caps[key] = Captures(pos.rules, table, made, WORTH, sweep=sweep)
        best = 0.0
        rules = pos.rules
        if rules.forced_sweep and table and any(caps.sweeps(c) for c in hand):
            # Krypkasino: a card that takes the whole table must be played to do so.
            hand = [c for c in hand if caps.sweeps(c)]
        for c in hand:
            got = caps.info(c)
            if got is None:
                continue
            taken, whole = got
            v = taken + WORTH[c]
            if whole and sweep:
                v += 2 * SWEEP if twin_sweep(rules, loose, builds, c) else SWEEP
            if v > best:
                best = v
        return best


def next_mover(pos: Position, move: Move) -> int | None:
    """The seat to move after ``move`` in the current deal; None when it ends the deal."""
    seat = pos.to_move
    sizes = [pos.hand_size(s) - (s == seat) for s in pos.rules.seats]
    return next_with_cards(pos.rules, seat, sizes)


@dataclass(frozen=True)
class Plan:
    """What a candidate move's score needs that no hidden card changes."""

    move: Move
    #: Its worth margin plus the build bonus.
    fixed: float
    #: The next seat to move in this deal, or None (the deal ends: look at the world).
    replier: int | None
    loose: tuple[int, ...]
    builds: tuple[Build, ...]
    #: The reply is the round's last card (found exactly on the world).
    last_reply: bool


def plan(pos: Position, move: Move, seat: int) -> Plan:
    """:class:`Plan` of ``move`` in ``pos`` for ``seat``'s side."""
    rules = pos.rules
    ours = rules.team_of(seat)
    loose, builds = table_after(pos, move)
    bonus = sum(WORTH[c] for b in builds if rules.team_of(b.owner) == ours for c in b.cards)
    replier = next_mover(pos, move)
    cards_left = sum(pos.hand_size(s) for s in range(rules.players)) - 1
    last_reply = pos.stock_size == 0 and cards_left == 1
    return Plan(move, margin_gain(pos, move, seat) + BUILD_SHARE * bonus, replier, loose,
                builds, last_reply)


def reply(pos: Position, p: Plan, world: Position, seat: int, tables: Tables) -> float:
    """The reply's worth margin for ``seat``'s side (negative when an opponent captures)
    after ``p.move`` in ``world`` (a full position ``pos``'s mover cannot tell from
    ``pos``): the next seat's capture of most worth."""
    rules = pos.rules
    ours = rules.team_of(seat)
    if p.replier is not None and not p.last_reply:
        hand = world.hand(p.replier)
        if p.replier == pos.to_move:  # the others are out of cards: we play again
            hand = remove_cards(hand, (p.move.card,))
        x = tables.best(pos, p.loose, p.builds, sweep_counts(pos), hand)
        return x if rules.team_of(p.replier) == ours else -x
    after = world.successor(p.move)
    if after.result is not None:
        return 0.0
    r = after.to_move
    if p.last_reply:
        # The round's last card: its few moves, the leftovers with them.
        moves = after.candidate_moves().moves
        best = max(moves, key=lambda m: margin_gain(after, m, r))
        return margin_gain(after, best, seat)
    # Our move ended the deal: the next deal's leader replies with its new hand.
    x = tables.best(after, after.loose, after.builds, sweep_counts(after), after.hand(r))
    return x if rules.team_of(r) == ours else -x


def counter_scores(pos: Position, moves: Sequence[Move], worlds: Sequence[Position],
                   seat: int, tables: Tables) -> list[float]:
    """counter's score of each move: its worth margin, the build bonus, and the reply
    averaged over ``worlds`` (full positions consistent with ``pos``)."""
    plans = [plan(pos, m, seat) for m in moves]
    n = len(worlds)
    out = []
    for p in plans:
        total = sum(reply(pos, p, w, seat, tables) for w in worlds)
        out.append(p.fixed + total / n)
    return out


def best_index(moves: Sequence[Move], scores: Sequence[float]) -> int:
    """The highest score; ties to the card of least worth, then the first."""
    return max(range(len(moves)),
               key=lambda i: (round(scores[i], 9), -WORTH[moves[i].card], -i))


def ranked(moves: Sequence[Move], scores: Sequence[float]) -> list[int]:
    """Indices of ``moves``, best first by :func:`best_index`'s order."""
    return sorted(range(len(moves)),
                  key=lambda i: (-round(scores[i], 9), WORTH[moves[i].card], i))


def sampled_scores(pos: Position, moves: Sequence[Move], bot: Bot, n: int,
                   deadline: float | None, tables: Tables) -> list[float]:
    """counter's scores with the reply averaged over up to ``n`` samples drawn with
    ``bot``'s generator, stopping at ``deadline`` (one sample always counts)."""
    seat = pos.to_move
    plans = [plan(pos, m, seat) for m in moves]
    totals = [0.0] * len(plans)
    done = 0
    for _ in range(max(1, n)):
        world = sample(pos, bot.rng)
        for i, p in enumerate(plans):
            totals[i] += reply(pos, p, world, seat, tables)
        done += 1
        if deadline is not None and time.perf_counter() > deadline:
            break
    return [p.fixed + t / done for p, t in zip(plans, totals, strict=True)]


class CounterBot(Bot):
    """One ply: the worth a move takes, less the best reply's, plus its builds."""

    name = "counter"
    samples = SAMPLES

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The move with the best :func:`sampled_scores`: the reply averaged over
        ``limit.iterations`` (else :attr:`samples`) samples of the hidden hands."""
        n = limit.iterations if limit.iterations is not None else self.samples
        scores = sampled_scores(pos, moves, self, n, limit.deadline(), Tables())
        return moves[best_index(moves, scores)]


__all__ = ["SWEEP", "WORTH", "CounterBot", "Tables", "card_worth", "counter_scores",
           "margin_gain", "ranked", "sampled_scores"]

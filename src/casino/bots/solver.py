"""Perfect-information search over a full :class:`Position` (every hand and the stock known).

Once the stock is empty in a two-player game, the unseen cards are exactly the
opponent's hand, so the last deal is a game of perfect information: :func:`solve`
finds its true minimax value (the round's points margin, or whatever ``terminal``
makes of the scored round). Before that, search bots run the same code on
*determinizations* (samples of the hidden cards) up to a horizon: the end of the
current deal, a depth, a node budget or a deadline, where an evaluation stands in
for the rest of the round.

The search is alpha-beta over the sides of the game, every value taken from the
root ``seat``'s side (higher is better for it):

* two players, or two partnerships: a node is a max node when its mover is on the
  root seat's side and a min node otherwise, which is negamax written out;
* more than two independent players: the *paranoid* reduction: every other
  player is assumed to play against the root seat (to minimise its value, which
  is its margin over the best other player). It is pessimistic but keeps
  alpha-beta pruning, which max-n would lose; only the search bots' heuristic
  play uses it, as exact play is promised for two players only.

A transposition table keyed by the position (Position is hashable; equal
positions reached by different move orders are common in Casino, where the
same cards can be taken in either order) stores a value with its bound type and
the best move, which is tried first on the next visit. Other moves are ordered
cheaply: captures that take valuable cards first, then builds, trails last
(low cards first). No move is pruned as "dominated": taking more is not always
better (leaving a card can stop a sweep), and exactness in the last deal matters
more than the speed this would buy.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from casino.bots import evaluation
from casino.engine.core import order_weights
from casino.engine.legality import SMALL_TABLE
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.partition import OutOfTime
from casino.engine.partition import deadline as time_limit
from casino.engine.position import Position
from casino.engine.rules import Rules

#: ``(pos, seat) -> float``, higher better for ``seat``'s side.
Evaluator = Callable[[Position, int], float]

#: Depth that means "to the horizon": larger than any number of plies left.
EXACT = 1 << 20

#: How far a game win outweighs a round margin in :func:`game_value` (a round is
#: worth a few dozen points at most, in every preset).
WIN_VALUE = 1000.0

#: Evaluations a Searcher keeps at most (:attr:`Searcher.leaves`).
LEAF_CACHE_SIZE = 50_000

_EXACT, _LOWER, _UPPER = 0, 1, 2
_INF = math.inf


class SearchAborted(Exception):
    """The node budget or the deadline ran out in the middle of an iteration."""


def default_estimate(params: evaluation.EvalParams = evaluation.DEFAULT_PARAMS) -> Evaluator:
    """The searches' default horizon evaluation, :func:`evaluation.estimate`, thinking
    with ``params`` (default: the shipped constants)."""
    return evaluation.evaluator("estimate", params)


def game_value(pos: Position, seat: int) -> float:
    """The value of a *finished* round when playing for the game, not the round.

    A round that ends the game is worth ``±WIN_VALUE`` (won or lost by ``seat``'s
    side) plus its margin, so at 19-19 any won game beats any margin; a round that
    leaves the game open is worth its margin, as in :func:`evaluation.value`.
    Before the round's end this is ``evaluation.value``.
    """
    margin = evaluation.value(pos, seat)
    result = pos.result
    if result is None or result.winner is None:
        return margin
    rules = pos.rules
    won = rules.team_of(result.winner) == rules.team_of(seat)
    return (WIN_VALUE if won else -WIN_VALUE) + margin


def card_weights(rules: Rules) -> tuple[float, ...]:
    """A rough worth of each card for move ordering only (a card, plus its points).

    The points are the house rules' whatever ``rules`` says
    (:func:`casino.engine.core.order_weights`, the one table the compiled core orders
    its search by too): the order only speeds the search up, and this is the order the
    solver was tuned and tested with."""
    return order_weights()


def order_key(move: Move, weights: Sequence[float]) -> float:
    """Higher first: captures by the worth taken, then builds, then trails (cheap cards first)."""
    if move.kind == CAPTURE:
        taken = weights[move.card] + sum(weights[c] for c in move.loose)
        for b in move.builds:
            taken += sum(weights[c] for c in b.cards)
        return 1000.0 + taken
    if move.kind == TRAIL:
        return -weights[move.card]
    return 500.0 - weights[move.card]


#: Ordered candidate moves by (rules identity, seat, its hand, the table): move generation
#: depends on nothing else, and the same hand meets the same table again and again in
#: a search (captures taken in another order, the same own hand in every sample), so
#: this saves most of the search's time spent generating and sorting moves.
_MOVE_CACHE: dict[tuple[object, ...], tuple[Rules, tuple[Move, ...]]] = {}
#: Entries kept at most before the cache is emptied (some tens of MB at worst).
MOVE_CACHE_SIZE = 20_000


def _move_key(pos: Position) -> tuple[object, ...]:
    seat = pos.to_move
    return (id(pos.rules), seat, pos.hands[seat], pos.table)


def _cached(pos: Position) -> bool:
    got = _MOVE_CACHE.get(_move_key(pos))
    return got is not None and got[0] is pos.rules


def remember_moves(pos: Position, moves: Sequence[Move]) -> None:
    """Remember ``moves`` as the candidate moves of ``pos``'s mover with this hand on
    this table, for every position that shares them (the samples of an observation).

    A bot has generated its root moves once already (:meth:`Bot.decide`); on a crowded
    table that can take a good share of its time, so its searches start from that list
    instead of generating it again for the first sample."""
    weights = card_weights(pos.rules)
    out = tuple(sorted(moves, key=lambda m: order_key(m, weights), reverse=True))
    if len(_MOVE_CACHE) >= MOVE_CACHE_SIZE:
        _MOVE_CACHE.clear()
    _MOVE_CACHE[_move_key(pos)] = (pos.rules, out)


def _sorted_moves(pos: Position) -> tuple[Move, ...]:
    """The candidate moves of ``pos`` (:meth:`Position.candidate_moves`: every legal
    move on a small table, a bounded selection on a crowded one, so a node costs
    milliseconds at worst) in the static search order, memoised."""
    rules = pos.rules
    key = _move_key(pos)
    got = _MOVE_CACHE.get(key)
    if got is not None and got[0] is rules:
        return got[1]
    moves = list(pos.candidate_moves().moves)
    weights = card_weights(rules)
    moves.sort(key=lambda m: order_key(m, weights), reverse=True)
    out = tuple(moves)
    if len(_MOVE_CACHE) >= MOVE_CACHE_SIZE:
        _MOVE_CACHE.clear()
    _MOVE_CACHE[key] = (rules, out)
    return out


def ordered_moves(pos: Position, first: Move | None = None,
                  max_moves: int | None = None) -> list[Move]:
    """The candidate moves of ``pos`` in search order (``first`` leading if among them),
    at most ``max_moves`` of them when a cap is given."""
    if pos.result is not None:
        return []
    moves = list(_sorted_moves(pos))
    if first is not None and first in moves:
        moves.remove(first)
        moves.insert(0, first)
    if max_moves is not None and len(moves) > max_moves:
        del moves[max_moves:]
    return moves


def plies_left(pos: Position, horizon: str) -> int:
    """Moves left to the horizon: every card in a hand (and, for the round, in the stock)
    is played exactly once."""
    n = sum(h if isinstance(h, int) else len(h) for h in pos.hands)
    return n + pos.stock_size if horizon == "round" else n


@dataclass
class SearchResult:
    """The outcome of :func:`search`: the best move found and its value for ``seat``.

    ``depth`` is the depth of the last completed iteration (``EXACT`` when the search
    reached the horizon everywhere); ``exact`` says the value is the true minimax value
    to the horizon. ``nodes`` counts interior nodes visited.
    """

    move: Move
    value: float
    depth: int
    exact: bool
    nodes: int


class Searcher:
    """One search's state: the root seat, horizon, evaluations, budget and table.

    The transposition table holds values from ``seat``'s point of view, so a
    Searcher serves one seat; reusing it for several searches from positions of
    the same round (as PIMC does for each root move) shares what it learnt.
    """

    def __init__(self, seat: int, *, horizon: str = "round",
                 evaluate: Evaluator | None = None, terminal: Evaluator | None = None,
                 deadline: float | None = None, max_nodes: int | None = None,
                 max_moves: int | None = None) -> None:
        if horizon not in ("round", "deal"):
            raise ValueError(f"horizon must be 'round' or 'deal', not {horizon!r}")
        self.seat = seat
        self.horizon = horizon
        self.evaluate = evaluate or default_estimate()
        self.terminal = terminal or evaluation.value
        self.deadline = deadline
        self.max_nodes = max_nodes
        self.max_moves = max_moves
        self.nodes = 0
        self.tt: dict[Position, tuple[int, int, float, Move | None]] = {}
        #: Evaluations of the positions at the horizon (the next deal's first position,
        #: or the search's depth): the same one is reached by many move orders, and
        #: evaluating it costs more than looking it up.
        self.leaves: dict[Position, float] = {}
        self._root_deal = -1
        self._team: tuple[int, ...] = ()

    # ------------------------------------------------------------------
    def _prepare(self, pos: Position) -> None:
        rules = pos.rules
        side = rules.team_of(self.seat)
        self._team = tuple(int(rules.team_of(s) == side) for s in range(rules.players))
        if pos.deal != self._root_deal:
            self._root_deal = pos.deal
            if self.horizon == "deal":
                self.tt.clear()  # values at the old deal's horizon mean nothing here
                self.leaves.clear()

    def _tick(self) -> None:
        """Count a node; abort at the node budget or past the deadline. The clock is
        read at every node (and every evaluation): reading it costs a tenth of a
        microsecond, a node tens of them, and a node on a crowded table or a batch of
        evaluations far more, so a coarser check could overrun the limit."""
        self.nodes += 1
        if self.max_nodes is not None and self.nodes > self.max_nodes:
            raise SearchAborted
        if self.deadline is not None and time.perf_counter() > self.deadline:
            raise SearchAborted

    def _moves(self, pos: Position, first: Move | None) -> list[Move]:
        """:func:`ordered_moves` within the deadline: on a crowded table, where finding
        the moves can take a tenth of a second or more (:mod:`casino.engine.partition`), the
        search aborts when the deadline passes during it."""
        if self.deadline is None or len(pos.table) <= SMALL_TABLE or _cached(pos):
            return ordered_moves(pos, first, self.max_moves)
        try:
            with time_limit(self.deadline):
                return ordered_moves(pos, first, self.max_moves)
        except OutOfTime:
            raise SearchAborted from None

    def _leaf(self, pos: Position) -> float | None:
        if pos.result is not None:
            return self.terminal(pos, self.seat)  # cheap: a lookup costs as much
        if self.horizon == "deal" and pos.deal != self._root_deal:
            return self._evaluate(pos)
        return None

    def _evaluate(self, pos: Position) -> float:
        """The evaluation of ``pos``, memoised in :attr:`leaves` (emptied when full)."""
        v = self.leaves.get(pos)
        if v is None:
            if self.deadline is not None and time.perf_counter() > self.deadline:
                raise SearchAborted
            if len(self.leaves) >= LEAF_CACHE_SIZE:
                self.leaves.clear()
            v = self.leaves[pos] = self.evaluate(pos, self.seat)
        return v

    def alphabeta(self, pos: Position, depth: int, alpha: float, beta: float) -> float:
        """The value of ``pos`` for the root seat, searched ``depth`` plies (fail-soft)."""
        leaf = self._leaf(pos)
        if leaf is not None:
            return leaf
        if depth >= plies_left(pos, self.horizon):
            depth = EXACT
        elif depth <= 0:
            return self._evaluate(pos)
        self._tick()
        entry = self.tt.get(pos)
        first: Move | None = None
        if entry is not None:
            d, flag, v, first = entry
            if d >= depth:
                if flag == _EXACT:
                    return v
                if flag == _LOWER and v >= beta:
                    return v
                if flag == _UPPER and v <= alpha:
                    return v
        moves = self._moves(pos, first)
        a0, b0 = alpha, beta
        best_move: Move | None = None
        if self._team[pos.to_move]:
            best = -_INF
            for m in moves:
                v = self.alphabeta(pos.successor(m), depth - 1, alpha, beta)
                if v > best:
                    best, best_move = v, m
                    if v > alpha:
                        alpha = v
                        if alpha >= beta:
                            break
        else:
            best = _INF
            for m in moves:
                v = self.alphabeta(pos.successor(m), depth - 1, alpha, beta)
                if v < best:
                    best, best_move = v, m
                    if v < beta:
                        beta = v
                        if alpha >= beta:
                            break
        flag = _UPPER if best <= a0 else _LOWER if best >= b0 else _EXACT
        self.tt[pos] = (depth, flag, best, best_move)
        return best

    def best(self, pos: Position, depth: int = EXACT,
             moves: Sequence[Move] | None = None) -> tuple[Move, float]:
        """The best root move (among ``moves``, default all legal ones) and its value."""
        self._prepare(pos)
        if pos.result is not None:
            raise ValueError("the round is over: there is no move to search")
        entry = self.tt.get(pos)
        first = entry[3] if entry is not None else None
        order = self._moves(pos, first) if moves is None else list(moves)
        maxing = bool(self._team[pos.to_move])
        alpha, beta = -_INF, _INF
        best_move, best = order[0], (-_INF if maxing else _INF)
        for m in order:
            v = self.alphabeta(pos.successor(m), depth - 1, alpha, beta)
            if (v > best) if maxing else (v < best):
                best, best_move = v, m
                if maxing:
                    alpha = max(alpha, v)
                else:
                    beta = min(beta, v)
        if moves is None:
            d = EXACT if depth >= plies_left(pos, self.horizon) else depth
            self.tt[pos] = (d, _EXACT, best, best_move)
        return best_move, best

    def values(self, pos: Position, moves: Sequence[Move], depth: int = EXACT,
               cap: float | None = None, order: Sequence[int] | None = None) -> list[float]:
        """The value of each root move, for summing across samples.

        Exact (full-window) by default. With ``cap``, only moves within ``cap`` points
        of the best are valued exactly: the others are searched with the window
        ``(best - cap, +inf)`` and get the upper bound that proves them that much worse,
        which saves most of the work on clearly bad moves at the price of counting a
        disaster in one sample as merely "``cap`` or more worse" (the root seat must be
        the one to move). ``order`` is the order to search the moves in (indices, the
        likely best first, so the window closes early).
        """
        self._prepare(pos)
        if cap is None:
            return [self.alphabeta(pos.successor(m), depth - 1, -_INF, _INF) for m in moves]
        out = [0.0] * len(moves)
        best = -_INF
        for i in (order if order is not None else range(len(moves))):
            v = self.alphabeta(pos.successor(moves[i]), depth - 1, best - cap, _INF)
            out[i] = v
            if v > best:
                best = v
        return out


def best_over_samples(moves: Sequence[Move], samples: int, deadline: float,
                      values: Callable[[int, list[float]], list[float]],
                      fallback: Callable[[], Move] | None = None) -> Move:
    """The move with the best total value over up to ``samples`` determinized searches.

    ``values(k, totals)`` searches the ``k``-th sample and returns each move's value
    (``totals`` so far lets it search the likely best first); it raises
    :class:`SearchAborted` when its deadline cuts the search, and then that sample
    does not count. The loop stops at ``deadline`` after a completed sample. Shared
    by the determinized bots, which differ only in how they search one sample.
    When not even the first sample completes, the move is ``fallback()`` (default:
    the first move)."""
    totals = [0.0] * len(moves)
    done = 0
    for k in range(max(1, samples)):
        try:
            vals = values(k, totals)
        except SearchAborted:
            break
        done += 1
        for i, v in enumerate(vals):
            totals[i] += v
        if time.perf_counter() > deadline:
            break
    if not done and fallback is not None:
        return fallback()
    best = max(range(len(moves)), key=lambda i: totals[i])
    return moves[best]


def search(pos: Position, seat: int | None = None, *, horizon: str = "round",
           depth: int | None = None, deadline: float | None = None,
           max_nodes: int | None = None, evaluate: Evaluator | None = None,
           terminal: Evaluator | None = None, max_moves: int | None = None,
           moves: Sequence[Move] | None = None) -> SearchResult:
    """Search the full position ``pos`` for ``seat`` (default: the seat to move).

    Without a budget (``deadline``, a ``time.perf_counter()`` value, or ``max_nodes``)
    it searches ``depth`` plies (default: to the horizon) in one go. With a budget it
    deepens iteratively and returns the last completed iteration's move; if not even
    depth 1 completes, the first move in search order with its static evaluation.
    """
    seat = pos.to_move if seat is None else seat
    s = Searcher(seat, horizon=horizon, evaluate=evaluate, terminal=terminal,
                 deadline=deadline, max_nodes=max_nodes, max_moves=max_moves)
    full = plies_left(pos, horizon)
    target = full if depth is None else min(depth, full)
    if deadline is None and max_nodes is None:
        m, v = s.best(pos, target, moves)
        return SearchResult(m, v, EXACT if target >= full else target, target >= full, s.nodes)
    result: SearchResult | None = None
    for d in range(1, target + 1):
        try:
            m, v = s.best(pos, d, moves)
        except SearchAborted:
            break
        exact = d >= full
        result = SearchResult(m, v, EXACT if exact else d, exact, s.nodes)
    if result is None:
        order = list(moves) if moves is not None else ordered_moves(pos, None, max_moves)
        m = order[0]
        result = SearchResult(m, s.evaluate(pos.successor(m), seat), 0, False, s.nodes)
    return result


def solve(pos: Position, seat: int | None = None, *, terminal: Evaluator | None = None,
          deadline: float | None = None, max_nodes: int | None = None) -> tuple[Move, float]:
    """The best move and the exact minimax value, for ``seat``, of the rest of the round.

    Exact when no budget is given (the whole tree to the round's end, scored by
    ``terminal``, default ``evaluation.value``: the round's points margin). Meant for
    the last deal; earlier it searches every later deal too, which is only feasible
    near the end of a round.
    """
    r = search(pos, seat, horizon="round", deadline=deadline, max_nodes=max_nodes,
               terminal=terminal)
    return r.move, r.value

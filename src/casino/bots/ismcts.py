"""Information-set Monte Carlo tree search (the top of the ladder) and its oracle twin.

:class:`IsmctsBot` is single-observer ISMCTS (Cowling, Powley and Whitehouse,
"Information Set Monte Carlo Tree Search", IEEE TCIAIG 2012). One tree is grown
over the *information set* of the seat to move, not over one guessed deal:
each iteration samples a deal of the hidden cards consistent with everything
known (:func:`casino.bots.knowledge.sample`), walks down the tree choosing only
among the moves legal in that sample, adds one node, plays the rest out with a
cheap policy and backs the result up. Nodes are keyed by move identity, so an
opponent's move that exists in many samples gathers the statistics of all of
them, and our own moves (legal in every sample) are compared on the same deals.

Because a move is available only in some samples, plain UCB1 would compare a
rarely available move's visits with the parent's total visits and explore it
too little; ISMCTS's *subset-armed bandit* correction uses each child's
*availability count* (how often it was legal when its parent was visited) in
place of the parent's visits (:func:`select_child`).

Rewards are normalised to about [0, 1]: ``0.5 + margin / (2 * scale)`` where
margin is :func:`casino.bots.evaluation.value` (round points of a side less
the best other side's) and ``scale`` the points a round shares out without
sweeps. Each node holds the rewards of the side of the player who moved into
it, so two-player, multi-player and partnership games use one rule. Near the
end of a game the bot plays for the game, not the round: a finished round is
then worth 1 if it wins the game and 0 if it loses it, and the margin, squeezed
in between, if the game goes on or the playout stopped short of the round's end.
Playouts stop at the next deal by default (``horizon="deal"``: about three times
the iterations per second of playing every round out, and no weaker in a first
measurement); in the last deal they always reach the round's end, so there the
search is exact per sample, which is where playing for the game matters most.

:class:`IsmctsOracle` runs the same search on the true position (plain UCT: no
sampling, every card visible). It cannot play fairly, so it only answers
:meth:`IsmctsOracle.choose_full`; it exists to measure how close the fair bot
comes to perfect information.
"""

from __future__ import annotations

import math
import random
import time
from collections import Counter
from collections.abc import Callable, Sequence
from functools import lru_cache
from typing import Any, Literal

from casino.bots import evaluation
from casino.bots.base import EvaluatingBot, Limit
from casino.bots.knowledge import sample
from casino.engine.moves import CAPTURE, TRAIL, Move
from casino.engine.partition import OutOfTime
from casino.engine.partition import deadline as time_limit
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import scheme
from casino.engine.scoring import round_items

Horizon = Literal["round", "deal"]
Policy = Literal["greedy", "random"]

#: Iterations when the limit gives neither iterations nor seconds.
DEFAULT_ITERATIONS = 400
#: At most this many candidate moves per tree node (best by the cheap score), so that
#: the longest complete lists (a 12-card Finnish table's thousands of captures) stay
#: bounded; crowded tables give a short selection anyway (:meth:`Position.candidate_moves`).
MAX_CANDIDATES = 200
#: Longer move lists are first cut to a random subset of this size before scoring.
PREFILTER = 4 * MAX_CANDIDATES
#: Tables with at least this many items have their move lists cached across samples.
BIG_TABLE = 9


# ----------------------------------------------------------------------
# Cheap knowledge of a ruleset: what a card, a sweep and a round are worth


def _seat0_margin(rules: Rules, piles: Sequence[Sequence[int]], sweeps: Sequence[int]) -> float:
    """Seat 0's side's margin for these piles and sweeps (higher is better, Krypkasino too)."""
    totals = {t: 0.0 for t in rules.teams}
    for it in round_items(rules, piles, sweeps):
        totals[it.seat] += it.points
    mine = totals[0]
    others = [v for t, v in totals.items() if t != 0]
    margin = mine - (max(others) if others else 0.0)
    return -margin if scheme(rules).penalty else margin


@lru_cache(maxsize=64)
def card_weights(rules: Rules) -> tuple[float, ...]:
    """Roughly what capturing each card is worth, in round points, for the rollout policy.

    Items named for the card (``Td``, Aces, Tablic's counters, a Krypkasino penalty)
    count in full; majorities (most cards, most spades) a share, since one card rarely
    decides them; every card a little, so that taking more is preferred.
    """
    empty: list[tuple[int, ...]] = [() for _ in range(rules.players)]
    baseline = Counter(round_items(rules, empty, ()))  # tied majorities shared out
    weights = []
    per_spade = scheme(rules).each_spade() is not None  # spades that score one by one
    sign = -1.0 if scheme(rules).penalty else 1.0
    for c in range(52):
        total = 0.02
        for it in Counter(round_items(rules, [(c,), *empty[1:]], ())) - baseline:
            if it.seat != 0:
                continue
            if it.item == "cards":
                total += rules.cards_points / 8
            elif it.item == "spades" and not per_spade:
                total += rules.spades_points / 4
            elif it.item == "last":
                continue
            else:
                total += it.points * sign
        weights.append(total)
    return tuple(weights)


@lru_cache(maxsize=64)
def sweep_gain(rules: Rules) -> float:
    """The swing in seat 0's margin from one sweep by seat 0 (negative in Krypkasino)."""
    empty: list[tuple[int, ...]] = [() for _ in range(rules.players)]
    return _seat0_margin(rules, empty, (0,)) - _seat0_margin(rules, empty, ())


@lru_cache(maxsize=64)
def round_scale(rules: Rules) -> float:
    """The points a round shares out without sweeps (casino: 11): the reward's unit."""
    empty: list[tuple[int, ...]] = [() for _ in range(rules.players)]
    deck = tuple(c for c in range(52) for _ in range(rules.decks))
    return max(1.0, abs(_seat0_margin(rules, [deck, *empty[1:]], ())))


def move_score(pos: Position, move: Move) -> float:
    """A cheap guess at a move's worth: captures of valuable cards and sweeps first,
    then builds, then trailing the card that is worth least to give away."""
    rules = pos.rules
    w = card_weights(rules)
    if move.kind == CAPTURE:
        score = 1.0 + w[move.card]
        for c in move.loose:
            score += w[c]
        for b in move.builds:
            for c in b.cards:
                score += w[c]
        if len(move.loose) + len(move.builds) == len(pos.table):
            score += sweep_gain(rules)
        if rules.mulle_points and not move.builds and move.loose == (move.card,):
            score += rules.mulle_points
        return score
    if move.kind == TRAIL:
        return -w[move.card] - 0.001 * (move.card >> 2)
    score = 0.2 + 0.3 * w[move.card]
    for c in move.loose:
        score += 0.3 * w[c]
    return score


def candidates(pos: Position, moves: list[Move], rng: random.Random,
               limit: int = MAX_CANDIDATES) -> list[Move]:
    """At most ``limit`` of ``moves``, the best by :func:`move_score`, in their list order.

    Very long lists are cut to a random :data:`PREFILTER` first, so the work per
    node stays bounded however many moves the generator found.
    """
    if len(moves) <= limit:
        return moves
    pool = rng.sample(moves, PREFILTER) if len(moves) > PREFILTER else moves
    ranked = sorted(range(len(pool)), key=lambda i: -move_score(pos, pool[i]))[:limit]
    return [pool[i] for i in sorted(ranked)]


# ----------------------------------------------------------------------
# The tree


class Node:
    """A tree node: the move that led here and its statistics.

    ``player`` is the seat that made ``move``; ``total`` sums rewards from the
    viewpoint of that seat's side. ``avail`` counts the visits of the parent in
    which ``move`` was legal (ISMCTS's availability count).
    """

    __slots__ = ("avail", "children", "move", "player", "total", "visits")

    def __init__(self, move: Move | None = None, player: int = -1) -> None:
        self.move = move
        self.player = player
        self.children: dict[Move, Node] = {}
        self.visits = 0
        self.avail = 0
        self.total = 0.0

    def mean(self) -> float:
        """The average reward of the node's visits, from the viewpoint of the seat that made
        its move (0 unvisited)."""
        return self.total / self.visits if self.visits else 0.0


def select_child(node: Node, legal: Sequence[Move], c: float) -> Node:
    """UCB1 over the children whose moves are in ``legal`` (all of them expanded).

    Every such child's availability count goes up by one, and the exploration term
    uses it instead of the parent's visits, so a move legal in few samples is
    explored as often as its own availability warrants (the subset-armed bandit).
    """
    best: Node | None = None
    best_score = -math.inf
    kids = node.children
    for m in legal:
        child = kids[m]
        child.avail += 1
        if child.visits == 0:
            score = math.inf
        else:
            score = child.total / child.visits + c * math.sqrt(
                math.log(child.avail) / child.visits)
        if score > best_score:
            best, best_score = child, score
    if best is None:
        raise ValueError("no legal child to select")
    return best


def game_on(pos: Position) -> bool:
    """Whether this round may decide the game, so the bot plays for the game.

    For target games: some side is within a round's points (without sweeps) of the
    target. For Krypkasino: the round is the match's last game.
    """
    rules = pos.rules
    if rules.win_rule == "lower-after-games":
        return pos.round % rules.games_per_match == 0
    scores = pos.scores or (0,) * rules.players
    return max(scores) + round_scale(rules) >= rules.target


# ----------------------------------------------------------------------
# The search


class _Search:
    """One decision: the tree, the playout policy and the rewards."""

    def __init__(self, root_pos: Position, moves: list[Move], rng: random.Random, *,
                 sampled: bool, horizon: Horizon, policy: Policy, c: float,
                 epsilon: float,
                 evaluate: Callable[[Position, int], float] = evaluation.estimate) -> None:
        self.root_pos = root_pos
        self.rng = rng
        self.sampled = sampled
        self.policy = policy
        self.c = c
        self.epsilon = epsilon
        self.rules = root_pos.rules
        self.scale = round_scale(self.rules)
        self.for_game = game_on(root_pos)
        self.horizon: Horizon = horizon
        self.root = Node()
        self.root_moves = candidates(root_pos, moves, rng)
        self.move_cache: dict[tuple[Any, ...], list[Move]] = {}
        #: When playouts stop short (``time.perf_counter()``), if the search is timed.
        self.deadline: float | None = None
        self.evaluate = evaluate

    # -- one iteration -------------------------------------------------
    def iterate(self) -> None:
        state = sample(self.root_pos, self.rng) if self.sampled else self.root_pos
        node = self.root
        path = [node]
        while state.result is None:
            if node is self.root:
                legal = self.root_moves
            else:
                try:
                    found = self.moves_of(state)
                except OutOfTime:
                    break  # out of time: the position reached is scored as it stands
                legal = candidates(state, found, self.rng)
            kids = node.children
            untried = [m for m in legal if m not in kids]
            if untried:
                for m in legal:
                    if m in kids:
                        kids[m].avail += 1
                move = max(untried, key=lambda m: move_score(state, m))
                child = Node(move, state.to_move)
                child.avail = 1
                kids[move] = child
                path.append(child)
                state = state.successor(move)
                break
            node = select_child(node, legal, self.c)
            path.append(node)
            assert node.move is not None
            state = state.successor(node.move)
        leaf = self.playout(state)
        rewards: dict[int, float] = {}
        team_of = self.rules.team_of
        for n in path[1:]:
            side = team_of(n.player)
            r = rewards.get(side)
            if r is None:
                r = rewards[side] = self.reward(leaf, side)
            n.visits += 1
            n.total += r

    def moves_of(self, state: Position) -> list[Move]:
        """``state.candidate_moves()`` (every legal move on a small table, a bounded
        selection on a crowded one), remembered across samples when the table is large.

        Samples differ in the hidden cards, not in the table or the mover's hand, and a
        large table is where generation costs most, so the same list is reused whenever
        the same hand meets the same table. :class:`OutOfTime` when the search's
        deadline passes while a crowded table's moves are being found.
        """
        if len(state.table) < BIG_TABLE:
            return list(state.candidate_moves().moves)
        key = (state.to_move, state.hands[state.to_move], tuple(sorted(state.loose)),
               tuple(sorted(state.builds)))
        moves = self.move_cache.get(key)
        if moves is None:
            with time_limit(self.deadline):
                found = state.candidate_moves()
            moves = self.move_cache[key] = list(found.moves)
        return moves

    def playout(self, state: Position) -> Position:
        """Play on with the default policy to the horizon (a new deal, or the round's end)."""
        deal = state.deal
        stop_at_deal = self.horizon == "deal"
        rng = self.rng
        greedy = self.policy == "greedy"
        eps = self.epsilon
        deadline = self.deadline
        while state.result is None:
            if stop_at_deal and state.deal != deal:
                break
            if deadline is not None and time.perf_counter() > deadline:
                break  # out of time: the evaluation scores the playout where it stands
            try:
                moves = self.moves_of(state)
            except OutOfTime:
                break
            if len(moves) == 1:
                move = moves[0]
            elif not greedy or rng.random() < eps:
                move = moves[rng.randrange(len(moves))]
            else:
                if len(moves) > PREFILTER:
                    moves = rng.sample(moves, PREFILTER)
                move = max(moves, key=lambda m: move_score(state, m))
            state = state.successor(move)
        return state

    def reward(self, leaf: Position, seat: int) -> float:
        """The playout's worth to ``seat``'s side, about 0..1."""
        result = leaf.result
        margin = (evaluation.value(leaf, seat) if result is not None
                  else self.evaluate(leaf, seat))
        if not self.for_game:
            return 0.5 + margin / (2 * self.scale)
        if result is not None and result.winner is not None:
            return 1.0 if self.rules.team_of(result.winner) == self.rules.team_of(seat) else 0.0
        # The game goes on (or the playout stopped short): the margin, squeezed between
        # a lost game and a won one.
        return 0.25 + 0.5 * self._squash(margin)

    def _squash(self, margin: float) -> float:
        return min(1.0, max(0.0, 0.5 + margin / (2 * self.scale)))

    # -- the decision --------------------------------------------------
    def run(self, limit: Limit, default_iterations: int) -> Move:
        start = time.perf_counter()
        deadline = self.deadline = limit.deadline(start)
        iterations = limit.iterations
        if iterations is None and deadline is None:
            iterations = default_iterations
        done = 0
        while True:
            if iterations is not None and done >= iterations:
                break
            if deadline is not None and done and time.perf_counter() >= deadline:
                break
            self.iterate()
            done += 1
        self.iterations = done
        return self.best()

    def best(self) -> Move:
        """The most visited root move (ties: the better mean, then list order)."""
        kids = self.root.children
        best = self.root_moves[0]
        key = (-1, -math.inf)
        for m in self.root_moves:
            child = kids.get(m)
            k = (child.visits, child.mean()) if child else (0, -math.inf)
            if k > key:
                best, key = m, k
        return best


class IsmctsBot(EvaluatingBot):
    """SO-ISMCTS over samples of the hidden cards (see the module docstring).

    ``horizon`` ``"deal"`` (the default) stops a playout when the next deal is dealt
    and evaluates the piles; ``"round"`` plays on to the round's end (exact scoring,
    about a third of the iterations per second).
    ``policy`` is the playout policy: ``"greedy"`` (the best :func:`move_score`,
    a random move with probability ``epsilon``) or ``"random"``.
    """

    name = "ismcts"
    #: Whether the bot searches the true position (the oracle) or samples.
    sees_all = False

    def __init__(self, seed: int | None = None, *, iterations: int = DEFAULT_ITERATIONS,
                 horizon: Horizon = "deal", policy: Policy = "greedy", c: float = 0.7,
                 epsilon: float = 0.1, eval_params: evaluation.EvalParams | None = None,
                 ) -> None:
        super().__init__(seed, eval_params=eval_params)
        self.iterations = iterations
        self.horizon: Horizon = horizon
        self.policy: Policy = policy
        self.c = c
        self.epsilon = epsilon
        #: The last search, for inspection (statistics of the root's children).
        self.last: _Search | None = None

    def _search(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        search = _Search(pos, moves, self.rng, sampled=not self.sees_all,
                         horizon=self.horizon, policy=self.policy, c=self.c,
                         epsilon=self.epsilon,
                         evaluate=evaluation.evaluator("estimate", self.eval_params))
        move = search.run(limit, self.iterations)
        self.last = search
        return move

    def pick(self, pos: Position, moves: list[Move], limit: Limit) -> Move:
        """The move most visited by the search over samples of the hidden cards."""
        return self._search(pos, moves, limit)


class IsmctsOracle(IsmctsBot):
    """The same search on the true position, every card visible (plain UCT).

    Never an opponent: it cannot be given an observation. The arena calls
    :meth:`choose_full` for bots with ``sees_all``.
    """

    name = "ismcts-oracle"
    sees_all = True

    def choose(self, observation: dict[str, Any] | Position,
               limit: Limit | None = None) -> Move:
        """Refused: the oracle needs the full position (:meth:`choose_full`), which an
        observation never is."""
        raise TypeError("the oracle sees every card and cannot play from an observation; "
                        "call choose_full with the full position")

    def choose_full(self, pos: Position, limit: Limit | None = None) -> Move:
        """A legal move for the seat to move in the full position ``pos``."""
        if isinstance(pos.stock, int) or any(isinstance(h, int) for h in pos.hands):
            raise ValueError("the oracle needs the full position: a hand or the stock is hidden")
        return self.decide(pos, limit or Limit(), self._search)

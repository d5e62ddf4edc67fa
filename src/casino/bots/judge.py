"""The judge: what a move is worth, by a search that sees every card of a full position,
and the one judgement of a decision that the hint, the review and the move helper share.

A decision is judged *fairly* (:func:`judgement`): the player's candidate moves valued
on K deals of the hidden cards sampled consistently with what the player saw
(:func:`casino.bots.knowledge.sample`), each valued by the judge, so that the move
with the best mean is the one the strongest fair search prefers. The hint
(:mod:`casino.teach.hint`) names that move, the move helper ranks by those means, and
the post-game review (:mod:`casino.teach.review`) measures the move played against it,
and once the game is over values the moves *in hindsight* too: on the true deal, which
the record holds.

**One judgement, not three.** The deals are drawn from a seed derived from the
observation itself (:func:`observation_seed`: a stable hash of what the player sees), so
at the same observation the hint, the helper and the review judge the same candidates on
the very same deals with the same budget (:data:`DEFAULT_SAMPLES`,
:data:`DEFAULT_BUDGET`): the hint's move is the review's preferred move there, and a
player who follows the hint is never told by the review that it cost something.

The judge is alpha-beta to the end of the current deal (:class:`~casino.bots.solver.Searcher`
with ``horizon="deal"``), standing on :func:`casino.bots.evaluation.deal_start_estimate`
past it and scoring a finished round by its points margin. Every search has a budget
of work and looks at a bounded number of moves per node, so a crowded table costs
polynomial work: it deepens from one ply (each candidate's successor evaluated, which
generates no moves and always completes) two plies at a time, and the deepest
iteration finished within the budget gives the values. The budget counts nodes and
evaluations, not seconds, so the same observation gives the same values on any machine.

The judge is not the truth (it too stops at the deal's end, and its opponents see the
judged player's hand in every sample), and with a few deals its means are noisy: a
difference between two moves comes with its standard error (:class:`Difference`), which
the review grades by.
"""

from __future__ import annotations

import hashlib
import json
import math
import random
from collections.abc import Sequence
from dataclasses import dataclass

from casino.bots import compiled as bots_core
from casino.bots import evaluation
from casino.bots.expert import candidates as expert_candidates
from casino.bots.expert import perfect_information
from casino.bots.knowledge import sample
from casino.bots.solver import SearchAborted, Searcher, plies_left
from casino.engine.moves import Move
from casino.engine.position import Position

#: Root moves judged at most (the expert's bound: the best-looking first).
MAX_CANDIDATES = 40
#: Moves searched at most at an inner node (a crowded table's list is cut to these).
MAX_INNER = 25
#: What one new evaluation counts for in a search's budget, in interior nodes: it
#: costs several times a node (a millisecond on a Tablić deal of six cards a hand).
EVALUATION_COST = 4
#: A difference's interval is its mean ± this many standard errors, and the review grades
#: a cost by the interval's lower end: a move is graded worse than good only when its
#: cost is above a threshold by two standard errors. Why 2: for a mean of roughly
#: normal differences, a move whose true cost is below the threshold is then graded
#: worse at most about once in 44 (the one-sided 2.3% of 2 standard errors), while a
#: blunder of several points still stands clear of noise of a point or so. With 8 deals
#: Student's t would ask for 2.4 for the same odds, but the preferred move, the best
#: mean of several, already flatters the cost a little upward: the round figure is
#: kept, and it stays one constant.
INTERVAL = 2.0


@dataclass(frozen=True)
class Budget:
    """How hard the judge looks: plies to search (at most to the deal's end) and the
    work one search may do, in interior nodes (a new evaluation counts
    :data:`EVALUATION_COST` of them), before it settles for its last completed depth."""

    depth: int = 8
    nodes: int = 20_000

    def __post_init__(self) -> None:
        if self.depth < 1:
            raise ValueError(f"the judge searches one ply or more, not {self.depth}")
        if self.nodes < 1:
            raise ValueError(f"a node budget is one node or more, not {self.nodes}")


#: Deals of the hidden cards a decision is judged on: the hint's, the review's and the move
#: helper's, one figure so that they judge alike and raising it is one line. The compiled
#: core searches each of them to the deal's end exactly (:func:`core_tables`), so 64 fit
#: a hint's time; where the Python judge answers (no core, or three or four players,
#: whose evaluation the core does not hold) it weighs the first :data:`PYTHON_SAMPLES`.
DEFAULT_SAMPLES = 64
#: The deals the Python judge weighs at most: its budgeted search costs milliseconds a
#: deal, and eight keep a hint within a third of a second (docs/hints.md).
PYTHON_SAMPLES = 8
#: The compiled core's work for one decision, in nodes, counted afresh for each: where it
#: runs out the decision is judged on the deals searched whole before it (every deal,
#: except on the largest tables: Tablić's first moves, crowded tables), so a hint stays
#: within about a second and the same observation meets the same cut in every process.
CORE_NODES = 400_000
#: The judge's budget per deal for the hint, the review and the helper alike: 8 plies (a
#: whole 4-card deal of two players) and the work that keeps a hint quick (a median of
#: a tenth to a third of a second, at most about a second and a half on one core) and a
#: two-player round's review within 30 s on one core (docs/benchmarks.md,
#: docs/review.md). The hint sets it: it is asked for during a game, the review after.
DEFAULT_BUDGET = Budget(depth=8, nodes=1500)


def candidate_moves(pos: Position, played: Move | None = None,
                    cap: int = MAX_CANDIDATES) -> list[Move]:
    """The moves judged at ``pos`` (a full position or an observation of its mover):
    the engine's bounded candidates (:meth:`Position.candidate_moves`, never the full
    list on a crowded table), at most ``cap`` of them the best-looking first, and
    ``played`` too when it is not among them."""
    moves = list(pos.candidate_moves().moves)
    cand = list(expert_candidates(pos, moves, cap))
    if played is not None and played not in cand:
        cand.append(played)
    return cand


def judge(pos: Position, moves: Sequence[Move], budget: Budget = Budget()) -> list[float]:
    """The value of each of ``moves`` on the full position ``pos`` for its player to
    move: the margin in round points its side can expect (higher is better)."""
    return judge_depth(pos, moves, budget)[0]


def judge_depth(pos: Position, moves: Sequence[Move],
                budget: Budget = Budget()) -> tuple[list[float], int]:
    """:func:`judge`'s values and the depth they were searched to.

    Iterative deepening: one ply first (each successor evaluated: no move is
    generated, so it always completes), then 2, 4, ... plies up to ``budget.depth``
    or the deal's end, every iteration sharing one budget of work, counted in
    interior nodes and new evaluations (an evaluation costs as much as several
    nodes); the deepest completed iteration gives the values."""
    seat = pos.to_move
    target = max(1, min(budget.depth, plies_left(pos, "deal")))
    s = Searcher(seat, horizon="deal", evaluate=evaluation.deal_start_estimate,
                 terminal=evaluation.value, max_moves=MAX_INNER)

    def counted(p: Position, who: int) -> float:
        # _evaluate calls this only for a position not evaluated yet (memoised).
        s.nodes += EVALUATION_COST
        if s.max_nodes is not None and s.nodes > s.max_nodes:
            raise SearchAborted
        return evaluation.deal_start_estimate(p, who)

    s.evaluate = counted
    values = s.values(pos, moves, 1)
    done = 1
    s.max_nodes = budget.nodes
    for depth in sorted({*range(2, target, 2), target} - {1}):
        try:
            values = s.values(pos, moves, depth)
        except SearchAborted:
            break
        done = depth
    return values, done


def canonical(seen: Position) -> Position:
    """What the player to move at ``seen`` observes, in one form whatever the path it
    came by: the observation as its JSON reads back (casino-position/1), with the hands
    and piles in card order. A game's live position keeps its piles in the order of the
    captures and a hand in the order dealt, while a hint job carries the observation as
    JSON: judged as they stand, the two would give other candidates' order and other
    deals for the same observation."""
    return Position.from_json(seen.observe(seen.to_move).to_json())


def observation_seed(seen: Position, seed: int = 0) -> int:
    """The seed of the deals judged at ``seen``: a stable hash (SHA-256) of what the
    player to move observes there, its canonical JSON (:func:`canonical`, keys sorted),
    mixed with ``seed``.

    The position is observed first, so two full positions that differ only in cards
    hidden from that player give the same seed: nothing hidden reaches the deals.
    Python's ``hash()`` is salted per process and would give other deals in every
    process; this gives the same on any machine, so the hint at a position and the
    review of that decision sample the very same deals (``seed`` 0, the default of
    both)."""
    view = canonical(seen).to_json()
    text = json.dumps(view, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    digest = hashlib.sha256(f"casino-judgement:{seed}:{text}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


def deals_rng(seen: Position, seed: int = 0) -> random.Random:
    """The generator of the deals judged at ``seen`` (:func:`observation_seed`)."""
    return random.Random(observation_seed(seen, seed))


@dataclass(frozen=True)
class Difference:
    """A paired difference of two moves' values over the deals judged: its ``mean``, its
    ``spread`` (the standard deviation of the per-deal differences), the standard error
    of the mean (``se``: ``spread / sqrt(deals)``; 0 when the one deal judged is the
    one the player could deduce, whose values are exact; infinite for one sampled deal,
    which cannot tell its own noise) and the interval ``mean ± INTERVAL · se``
    (``low`` to ``high``)."""

    mean: float
    spread: float
    se: float
    low: float
    high: float


@dataclass(frozen=True)
class Judgement:
    """One decision judged: the moves, the deals of the hidden cards, and the judge's
    value of each move on each deal (``tables``: one row per deal, in ``moves``' order).

    ``moves[:candidates]`` were searched together, as every hint, review and helper
    ranking searches them; the moves after them (the move played, or a play the caller
    wants among them, when it is not a candidate) were each valued apart on the same
    deals, so that they change nothing of the candidates' values. ``known``: the
    player could deduce every card, and the one deal is the true one. ``depth`` is the
    shallowest depth any search reached."""

    seen: Position
    moves: tuple[Move, ...]
    candidates: int
    deals: tuple[Position, ...]
    tables: tuple[tuple[float, ...], ...]
    known: bool
    depth: int

    @property
    def samples(self) -> int:
        """The deals judged (one when ``known``)."""
        return len(self.tables)

    @property
    def means(self) -> tuple[float, ...]:
        """Each move's mean value over the deals: the expected round margin after it."""
        k = len(self.tables)
        return tuple(sum(t[i] for t in self.tables) / k for i in range(len(self.moves)))

    @property
    def order(self) -> tuple[int, ...]:
        """The moves' indices, best mean first (ties: the earlier move first)."""
        means = self.means
        return tuple(sorted(range(len(self.moves)), key=lambda i: (-means[i], i)))

    @property
    def preferred(self) -> int:
        """The index of the preferred move: the best mean (the hint's move)."""
        return self.order[0]

    def difference(self, i: int, j: int) -> Difference:
        """Move ``i``'s value less move ``j``'s, paired deal by deal."""
        diffs = [t[i] - t[j] for t in self.tables]
        k = len(diffs)
        mean = sum(diffs) / k
        spread = stdev(diffs)
        se = 0.0 if self.known else spread / math.sqrt(k) if k > 1 else math.inf
        return Difference(mean, spread, se, mean - INTERVAL * se, mean + INTERVAL * se)

    def cost(self, i: int) -> Difference:
        """What move ``i`` costs against the preferred move: the preferred move's value
        less move ``i``'s, paired deal by deal (0 for the preferred move itself)."""
        return self.difference(self.preferred, i)


def judgement(seen: Position, played: Move | None = None, *,
              moves: Sequence[Move] | None = None, samples: int = DEFAULT_SAMPLES,
              budget: Budget = DEFAULT_BUDGET, seed: int = 0) -> Judgement:
    """The one judgement of a decision, which the hint, the review and the move
    helper's ranking all call, so that they agree: at the same observation they judge
    the same candidates on the same deals with the same budget, and the hint's move is
    the review's preferred move there.

    ``seen`` is the observation of the player to move (a full position is observed
    first, :func:`canonical`: nothing hidden is used). The moves are ``moves`` when
    given, else the bounded candidates (:func:`candidate_moves`); ``played``, when not
    among them, is valued apart on the same deals (:class:`Judgement`). ``samples``
    deals of the hidden cards come from :func:`deals_rng` (the observation and
    ``seed``), or the one deal the player can deduce, searched with the work of all of
    them; each search has ``budget``."""
    seen, cand, extra, deals, known = decision(seen, played, moves, samples, seed)
    compiled = core_judgement(seen, cand, extra, deals, known)
    if compiled is not None:
        return compiled
    deals = deals[:PYTHON_SAMPLES]  # the same first deals: one generator draws them
    whole = Budget(depth=budget.depth, nodes=budget.nodes * samples) if known else budget
    tables: list[tuple[float, ...]] = []
    depth = budget.depth
    for deal in deals:
        values, reached = judge_moves(deal, cand, extra, whole)
        tables.append(tuple(values))
        depth = min(depth, reached)
    return Judgement(seen=seen, moves=(*cand, *extra), candidates=len(cand),
                     deals=tuple(deals), tables=tuple(tables), known=known, depth=depth)


def decision(seen: Position, played: Move | None, moves: Sequence[Move] | None,
             samples: int, seed: int
             ) -> tuple[Position, list[Move], list[Move], list[Position], bool]:
    """What :func:`judgement` judges at ``seen``: the canonical observation, the
    candidates (``moves``, or the bounded candidates), the move played when it is not
    among them, the deals and whether the one deal is the true one. ValueError for no
    deal asked or no card to play."""
    if samples < 1:
        raise ValueError(f"a judgement judges one sampled deal or more, not {samples}")
    seen = canonical(seen)
    cand = list(dict.fromkeys(moves)) if moves is not None else candidate_moves(seen)
    if not cand:
        raise ValueError("the player to move has no card to play")
    extra = [played] if played is not None and played not in cand else []
    deals, known = fair_deals(seen, samples, deals_rng(seen, seed))
    return seen, cand, extra, deals, known


def preferred_on_core(seen: Position, deadline: float | None = None) -> Move | None:
    """The move :func:`judgement` prefers at ``seen`` with its defaults (the hint's
    move there), judged on the compiled core alone, within ``deadline`` (a
    ``time.perf_counter()`` value) as well as the node budget: the move the expert
    level plays at two players (:class:`casino.bots.judge_bot.JudgeBot`). ``None``
    where the core cannot judge, or the deadline left fewer than two deals searched:
    the bot then plays its own search, never the Python judge, whose work no
    deadline cuts."""
    seen, cand, _, deals, known = decision(seen, None, None, DEFAULT_SAMPLES, 0)
    judged = core_judgement(seen, cand, [], deals, known, deadline)
    return None if judged is None else judged.moves[judged.preferred]


def core_judgement(seen: Position, cand: Sequence[Move], extra: Sequence[Move],
                   deals: Sequence[Position], known: bool,
                   deadline: float | None = None) -> Judgement | None:
    """:func:`judgement` on the compiled core (:func:`core_tables`) of the canonical
    observation ``seen``: ``cand`` judged together and each of ``extra`` apart on
    ``deals`` (the one true deal when ``known``), or ``None`` where the core cannot
    judge. ``deadline`` (a ``time.perf_counter()`` value) cuts the deals searched
    as the node budget does: the expert level's limit, never set by the hint or the
    review, whose answers must not depend on the machine's speed."""
    compiled = core_tables(deals, cand, extra, deadline)
    if compiled is None:
        return None
    rows, searched = compiled
    return Judgement(seen=seen, moves=(*cand, *extra), candidates=len(cand),
                     deals=tuple(deals[:len(rows)]), tables=rows, known=known,
                     depth=searched)


def core_tables(deals: Sequence[Position], moves: Sequence[Move], extra: Sequence[Move],
                deadline: float | None = None
                ) -> tuple[tuple[tuple[float, ...], ...], int] | None:
    """The judge's search on the compiled core: every deal searched exactly to its end
    (the round's end in the last deal), standing on ``deal_start_estimate`` past it,
    every move's value exact (no cap on the moves, no depth), and the plies searched.

    ``moves`` are searched first within :data:`CORE_NODES`, counted afresh, so the deals
    searched whole depend on the deals and ``moves`` alone; each of ``extra`` (a move
    played off the candidates) is then valued on those deals apart, so that a review,
    which adds the move played, judges the candidates on the same deals as the hint.
    ``None`` where the core cannot judge (none built, not two players, a table beyond
    it, fewer than two deals searched whole when several were drawn, or an extra
    move's search cut by the same budget): the Python judge answers there."""
    rows = bots_core.sampled_values(deals, moves, max_nodes=CORE_NODES, fresh=True,
                                    deadline=deadline)
    if rows is None or len(rows) < min(2, len(deals)):
        return None
    if extra:
        more = bots_core.sampled_values(deals[:len(rows)], extra, max_nodes=CORE_NODES,
                                        fresh=True, deadline=deadline)
        if more is None or len(more) < len(rows):
            return None
        rows = [row + add for row, add in zip(rows, more, strict=True)]
    full = deals[0]
    searched = plies_left(full, "deal" if full.stock_size else "round")
    return tuple(tuple(row) for row in rows), searched


def true_deal_values(pos: Position, moves: Sequence[Move], extra: Sequence[Move],
                     budget: Budget = DEFAULT_BUDGET) -> list[float]:
    """The values of ``moves`` and then of ``extra`` on the one full position ``pos``
    (the true deal, which only a finished game's review may use), searched as a
    judgement searches each of its deals: on the compiled core to the deal's end where
    it can (:func:`core_tables`), else by the Python judge with ``budget``
    (:func:`judge_moves`)."""
    compiled = core_tables([pos], moves, extra)
    if compiled is not None:
        return list(compiled[0][0])
    return judge_moves(pos, moves, extra, budget)[0]


def judge_moves(pos: Position, moves: Sequence[Move], extra: Sequence[Move],
                budget: Budget) -> tuple[list[float], int]:
    """The values of ``moves`` and then of ``extra`` on the full position ``pos``, and
    the depth reached: ``moves`` searched together (:func:`judge_depth`), each of
    ``extra`` apart, to the depth ``moves`` reached, so that a move the hint does not
    judge (the move played, off the candidates) changes nothing of the others' values:
    their search shares one budget, which one more move would share too."""
    values, reached = judge_depth(pos, moves, budget)
    for move in extra:
        values += judge_depth(pos, [move], Budget(depth=reached, nodes=budget.nodes))[0]
    return values, reached


def fair_deals(seen: Position, samples: int,
               rng: random.Random) -> tuple[list[Position], bool]:
    """The full positions a :func:`judgement` judges: ``samples`` deals of the hidden
    cards consistent with ``seen`` (drawn from ``rng``), or the one deal the observer
    can deduce, and whether it could (then the list holds that deal only: two players,
    the stock empty, the unseen cards are the other hand)."""
    full = perfect_information(seen)
    if full is not None:
        return [full], True
    return [sample(seen, rng) for _ in range(max(1, samples))], False


def stdev(xs: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    if len(xs) < 2:
        return 0.0
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def information_value(tables: Sequence[Sequence[float]],
                      true_values: Sequence[float]) -> tuple[float, float]:
    """What not seeing the other cards costs a fair player at a decision, by the judge,
    bracketed from both sides over the consistent deals' ``tables``.

    * The *floor*: the mean of the best value in each deal less the best mean value
      (the move a fair player would choose if the judge's values were known for
      every consistent deal). Later decisions are not counted, and the best of K
      noisy means is biased up, so this is estimated low.
    * The *judge's own fair choice*: the move with the best mean over those deals,
      valued on the true deal (``true_values``), as the played move is. That is a
      fair player (PIMC with the judge's full-deal search and K samples), so its
      loss is one that a fair player does achieve, an estimate from above.
    """
    best_each = sum(max(t) for t in tables) / len(tables)
    means = [sum(t[i] for t in tables) / len(tables) for i in range(len(true_values))]
    pick = max(range(len(true_values)), key=lambda i: means[i])
    return best_each - means[pick], max(true_values) - true_values[pick]


__all__ = [
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "EVALUATION_COST",
    "INTERVAL",
    "MAX_CANDIDATES",
    "MAX_INNER",
    "Budget",
    "Difference",
    "Judgement",
    "candidate_moves",
    "canonical",
    "core_judgement",
    "deals_rng",
    "decision",
    "fair_deals",
    "information_value",
    "judge",
    "judge_depth",
    "judge_moves",
    "judgement",
    "observation_seed",
    "preferred_on_core",
    "stdev",
    "true_deal_values",
]

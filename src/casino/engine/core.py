"""The compiled core, when there is one: which engine answers, and the switch that turns it off.

The core (``casino.engine._core``, C built from ``src/ccore/`` by ``pip install`` where a
compiler exists) answers the engine's hottest questions faster. The pure-Python engine
stays the reference and the authority for every move played: the core is held equal to
it by the differential tests (tests/test_core.py), and wherever it cannot hold a
position (a table beyond its masks) the Python engine answers instead.

``CASINO_CORE=off`` (or ``0``, ``no``, ``false``) in the environment turns the core off
for the whole process, so the same program can be run both ways::

    >>> from casino.engine import core
    >>> core.engine_name() in ("compiled core (C)", "pure Python (no compiled core built)",
    ...                        "pure Python (CASINO_CORE=off)")
    True
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from functools import lru_cache
from types import ModuleType
from typing import TYPE_CHECKING

from casino.engine import movegen
from casino.engine.builds import Build
from casino.engine.memo import KEPT, per_rules
from casino.engine.movegen import Budget, TooMuchWork
from casino.engine.moves import KINDS, Move
from casino.engine.rules import Rules
from casino.engine.scheme import (
    CardPoints,
    EachSpade,
    Majority,
    Mulles,
    ScoringItem,
    SpadesAbove,
    Sweeps,
    is_spade,
    scheme,
)

if TYPE_CHECKING:
    from casino.engine.position import Position

#: The environment variable that turns the core off.
SWITCH = "CASINO_CORE"
#: The core's interface version this adapter speaks (``CORE_ABI`` in src/ccore/core.h).
ABI = 1

_OFF_WORDS = frozenset({"off", "0", "no", "false"})


def _load() -> tuple[ModuleType | None, str]:
    """The core module and why not, once per process."""
    if os.environ.get(SWITCH, "").strip().lower() in _OFF_WORDS:
        return None, f"pure Python ({SWITCH}=off)"
    try:
        from casino.engine import _core  # type: ignore[attr-defined]
    except ImportError:
        return None, "pure Python (no compiled core built)"
    if getattr(_core, "ABI", None) != ABI:
        return None, "pure Python (the compiled core is out of date: reinstall to rebuild it)"
    return _core, "compiled core (C)"


_MODULE, _NAME = _load()


def module() -> ModuleType | None:
    """The compiled core, or ``None`` when the Python engine answers alone."""
    return _MODULE


def engine_name() -> str:
    """Which engine answers, in words, for ``casino --version`` and the server's start-up
    line: ``compiled core (C)``, or ``pure Python (...)`` saying why."""
    return _NAME


# ----------------------------------------------------------------------
# Move generation


def _card_tables(rules: Rules) -> object:
    """The ruleset as the core holds it (a capsule), made once per ruleset: the card
    tables of :class:`~casino.engine.rules.CardTable`, the numbers of play, the scoring
    scheme in counting order and the search's ordering weights."""
    table = rules.table
    alt = rules.ace_sum_alt
    sch = scheme(rules)
    play = (
        rules.players, int(rules.partnerships), rules.direction, rules.deal_size,
        int(rules.set_aside_pictures), int(rules.double_sweep), rules.mulle_points,
        int(rules.no_sweep_last_deal), -1 if rules.sweep_limit is None else rules.sweep_limit,
        int(rules.last_card_sweep), int(rules.leftovers_no_capture == "dealer"),
        _WIN_RULES.index(rules.win_rule), rules.target, rules.games_per_match,
        int(sch.penalty),
    )
    assert _MODULE is not None
    return _MODULE.make_rules(
        table.played, table.sum_value, table.sum_alt,
        tuple(tuple(k) for k in table.pair_played), table.pair_table, table.holds,
        tuple(bool(x) for x in table.face_one), table.max_value, table.max_build,
        (alt - rules.ace_sum) if alt else 0, bool(alt), rules.building,
        rules.raise_own_build, rules.compulsory_capture,
        rules.maximal_capture == "cardinality", rules.forced_sweep,
        play, tuple(_scheme_item(i) for i in sch.items), order_weights(),
    )


_WIN_RULES = ("counting-order", "higher-total", "lower-after-games")
_TIES = ("lost", "carry", "split-or-carry")


def _scheme_item(item: ScoringItem) -> tuple[int, int, int, int, int, int]:
    """One scoring item as the core reads it: (code, four numbers, a mask of cards)."""
    if isinstance(item, Majority):
        return (1, int(item.what == "spades"), item.points, _TIES.index(item.ties),
                int(item.carries), 0)
    if isinstance(item, CardPoints):
        return (2, item.card, item.points, 0, 0, 0)
    if isinstance(item, EachSpade):
        return (3, item.points, int(item.by_seat), 0, 0, sum(1 << c for c in item.besides))
    if isinstance(item, SpadesAbove):
        return (4, item.count, 0, 0, 0, 0)
    if isinstance(item, Sweeps):
        return (5, item.points, int(item.cancel), int(item.previous_loses), 0, 0)
    if isinstance(item, Mulles):
        return (6, item.points, 0, 0, 0, 0)
    return (7, item.points, 0, 0, 0, 0)  # LastCapture, the last kind


@lru_cache(maxsize=1)
def order_weights() -> tuple[float, ...]:
    """A rough worth of each card for ordering a search's moves: 1, plus its points under
    the house rules, plus 0.3 for a spade, whatever the ruleset (the order only speeds a
    search up; this is the order the searches were tuned with). One table for the
    Python searcher (:func:`casino.bots.solver.card_weights`) and the core."""
    house = scheme(Rules())
    return tuple(1.0 + house.points_of(c) + (0.3 if is_spade(c) else 0.0) for c in range(52))


_tables = per_rules(_card_tables)


def generate(rules: Rules, hand: Sequence[int], loose: Sequence[int],
             builds: Sequence[Build], seat: int, budget: Budget | None = None) -> list[Move]:
    """Every legal move, exactly as :func:`casino.engine.movegen.generate` lists them (the
    same moves in the same order, shown with the same groups, and the same steps spent
    against ``budget``, raising :class:`TooMuchWork` where it would): from the core when
    there is one and it can hold the table, else from the Python generator."""
    if _MODULE is None:
        return movegen.generate(rules, hand, loose, builds, seat, budget)
    steps = -1 if budget is None else budget.left
    got = _MODULE.generate(_tables(rules), tuple(hand), tuple(loose), tuple(builds), seat,
                           steps)
    if got is NotImplemented:
        return movegen.generate(rules, hand, loose, builds, seat, budget)
    moves, left = got
    if budget is not None:
        budget.left = left
        if moves is None:
            raise TooMuchWork(f"listing every move needs more than {budget.steps} steps")
    return moves  # type: ignore[no-any-return]


def best_capture(rules: Rules, card: int, value: int, loose: Sequence[int],
                 scores: Sequence[int], steps: int) -> tuple[int, ...] | None:
    """Of ``card``'s captures of ``value`` from the ``loose`` cards (builds aside: the
    caller adds them), the one whose cards' ``scores`` (one a loose card, by place) add up
    to the most, found exactly by the core within ``steps`` of its generator: its loose
    cards, sorted (``()``: no capture scores above nothing), or ``None`` when no core is
    built, the table is beyond it or the steps ran out (the bounded selection stands)."""
    if _MODULE is None:
        return None
    got = _MODULE.best_capture(_tables(rules), card, value, tuple(loose), tuple(scores),
                               steps)
    if got is NotImplemented or got[0] is None:
        return None
    return got[0]  # type: ignore[no-any-return]


# ----------------------------------------------------------------------
# Whole positions and the exact search


def state_of(pos: Position) -> tuple[object, ...]:
    """A whole position (every hand and the stock known) as the core reads it."""
    carry = pos.carry
    return (
        pos.to_move, pos.dealer, -1 if pos.last_capture is None else pos.last_capture,
        pos.deal, pos.round, pos.hands, pos.loose, pos.builds, pos.piles, pos.sweeps,
        pos.mulles, pos.stock, pos.set_aside, pos.scores, carry.cards, carry.spades,
    )


def solve(pos: Position, moves: Sequence[Move], *, game: bool = True,
          deadline: float | None = None, max_nodes: int | None = None,
          every_value: bool = False, horizon: str = "round") -> list[float] | None:
    """The value of each of ``moves`` for the player to move of the whole position
    ``pos``, the rest of the round searched exactly by the core (as
    :class:`casino.bots.solver.Searcher` with ``horizon="round"`` does): the round's
    margin, or with ``game`` :func:`casino.bots.solver.game_value`'s (a won or lost game
    weighs 1000 more). ``every_value``: each move's exact value; else the best move's
    is exact and the others only as good as needed to prove them no better.

    ``horizon="deal"``: to the end of the current deal only, where the position is
    valued by the evaluation handed over with :func:`set_evaluation` (the bots'
    ``deal_start_estimate``; two players), and a round that ends is its margin.

    ``None`` when the core cannot answer: none is built, the position is beyond its
    sizes, a move is not legal here, or ``deadline`` (a ``time.perf_counter()`` value)
    or ``max_nodes`` ran out first."""
    rows = solve_each([pos], moves, game=game, deadline=deadline, max_nodes=max_nodes,
                      cap=None if every_value else 0.0, horizon=horizon)
    return rows[0] if rows else None


def solve_each(positions: Sequence[Position], moves: Sequence[Move], *, game: bool = True,
               deadline: float | None = None, max_nodes: int | None = None,
               cap: float | None = None, horizon: str = "round",
               depth: int | None = None, max_moves: int | None = None,
               fresh: bool = False) -> list[list[float]] | None:
    """:func:`solve` on each of ``positions`` (whole positions that agree on what their
    mover sees: samples of the hidden cards) in one call to the core, which keeps what
    it learns from one to the next: one row of ``moves``' values per position searched
    before ``deadline`` or ``max_nodes`` ran out (at least one, else ``None``).

    ``cap`` ``None``: every value exact. Else :meth:`casino.bots.solver.Searcher.values`'
    loss cap: the moves are searched in the order of their totals so far, and a move
    ``cap`` or more worse than the best gets only a bound proving it (0: the best exact).
    ``depth``: plies searched at most, the evaluation standing in past them (two
    players, as Searcher.values(pos, moves, depth); ``None``: to the horizon).
    ``max_moves``: moves searched at most at an inner node (Searcher's ``max_moves``: the
    best-looking first; ``None``: every move). ``fresh``: forget what earlier searches
    stored, so that where ``max_nodes`` stops depends on this call alone (the values
    never depend on them).
    ``None`` too where the core cannot answer at all (see :func:`solve`), and where the
    root's moves cannot be listed within the steps the core allows a node
    (``_core.NODE_STEPS``, a crowded table: the searches in Python choose from a bounded
    selection there)."""
    if _MODULE is None or not positions:
        return None
    first = positions[0]
    if any(p.result is not None or isinstance(p.stock, int)
           or any(isinstance(h, int) for h in p.hands) for p in positions):
        return None
    try:  # the root's moves as the core lists them at every node: within its steps
        legal = generate(first.rules, first.hand(first.to_move), first.loose, first.builds,
                         first.to_move, Budget(_MODULE.NODE_STEPS))
    except TooMuchWork:
        return None
    index = {m: i for i, m in enumerate(legal)}
    roots = tuple(index.get(m, -1) for m in moves)
    if -1 in roots:
        return None
    seconds = 0.0
    if deadline is not None:
        seconds = deadline - time.perf_counter()
        if seconds <= 0:
            return None
    rows, _nodes, _status = _MODULE.solve(
        _tables(first.rules), tuple(state_of(p) for p in positions), first.to_move,
        int(game), roots, -1.0 if cap is None else cap, seconds,
        -1 if max_nodes is None else max_nodes, _HORIZONS.index(horizon),
        _MODULE.EXACT_DEPTH if depth is None else depth, max_moves or 0, fresh)
    return rows or None


_HORIZONS = ("round", "deal")


def set_evaluation(rules: Rules, direct: Sequence[float], cards_points: int,
                   spades_points: int, spades_carries: bool, params: Sequence[float]) -> bool:
    """Hand the core the bots' evaluation for ``rules`` (two players): each card's own
    points (``evaluation.direct_points``), the majorities' points (-1: none) and the
    evaluation's constants (``casino.bots.compiled`` writes them). Whether the core took
    it (``False``: no core, or not a two-player ruleset)."""
    if _MODULE is None or rules.players != 2:
        return False
    tables = _tables(rules)
    _MODULE.set_evaluation(tables, tuple(direct), cards_points, spades_points,
                           spades_carries, rules.deck_size, rules.decks, rules.sweep_points,
                           rules.scoring == "casino", tuple(params))
    if len(_EVALUATED) > KEPT:
        _EVALUATED.clear()
    _EVALUATED[id(tables)] = tables
    return True


#: The core's rulesets (by identity, each held beside its id) that hold an evaluation.
#: Kept apart from the rulesets' own memo: that one starts afresh after 256 rulesets,
#: and a ruleset made again holds no evaluation until it is handed over again.
_EVALUATED: dict[int, object] = {}


def has_evaluation(rules: Rules) -> bool:
    """Whether the core holds an evaluation for ``rules`` (:func:`set_evaluation` was
    called for the ruleset the core holds now)."""
    if _MODULE is None or rules.players != 2:
        return False
    tables = _tables(rules)
    return _EVALUATED.get(id(tables)) is tables


def evaluate(pos: Position, seat: int, *, deal_start: bool = True) -> float | None:
    """The core's evaluation of the whole two-player position ``pos`` for ``seat`` (set by
    :func:`set_evaluation`), or ``None`` where it cannot hold the position (or the
    round is over: then the result says it)."""
    if _MODULE is None or pos.result is not None:
        return None
    got = _MODULE.evaluate(_tables(pos.rules), state_of(pos), seat, deal_start)
    return None if got is NotImplemented else float(got)


if _MODULE is not None:
    _MODULE.bind(Move, KINDS)

"""The compiled core against the Python engine, position by position.

The pure-Python engine is the reference: on every position this script makes, the
core must list the same legal moves in the same order, shown with the same groups,
and spend the same steps against a budget (running out exactly where Python does);
and the position after one of those moves (dealing the next deal, or ending and
scoring the round, where it does) must be the engine's.
Positions come from random rounds of every preset and player count, played three ways
(uniformly random moves; trailing and building often, so tables grow and builds pile
up; and with extra loose cards dealt onto the table, crowded tables of 13 to 30 loose
cards, listed within a step budget as the engine does there).

Usage::

    .venv/bin/python benchmarks/core_equal.py --positions 1000000 [--seed 1] [--jobs 2]

It prints the positions compared per preset and player count, the positions the core
left to Python (a table beyond its masks) and every mismatch; the exit code is 1 when
any position differs. tests/test_core.py runs a sample of the same positions.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import sys
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import replace

from casino import Match, Position
from casino.engine import core, movegen
from casino.engine.moves import Move
from casino.engine.rules import PRESET_NAMES, Rules, player_counts, preset

#: Steps of the budget crowded tables are listed within (the engine's own order of size).
CROWDED_STEPS = (2_000, 20_000, 200_000)


def tables() -> list[Rules]:
    """Every preset at every player count it allows, and Krypkasino's cardinality option."""
    out = [preset(name, players=n) for name in PRESET_NAMES for n in player_counts(name)]
    out.append(preset("krypkasino", maximal_capture="cardinality"))
    return out


def label(rules: Rules) -> str:
    extra = "-cardinality" if rules.maximal_capture == "cardinality" else ""
    return f"{rules.name}{extra}-{rules.players}"


def _pick(moves: list[Move], rng: random.Random, style: str) -> Move:
    if style == "random":
        return rng.choice(moves)
    trails = [m for m in moves if m.kind == "trail"]
    onto = [m for m in moves if m.kind in ("build", "add", "raise")]
    r = rng.random()
    if trails and r < 0.45:
        return rng.choice(trails)
    if onto and r < 0.75:
        return rng.choice(onto)
    return rng.choice(moves)


def _crowd(pos: Position, rng: random.Random) -> Position:
    """``pos`` with cards the mover cannot see (the stock's, then the hands' of seats that
    own no build) moved onto the table until 13 to 30 lie loose: a crowded table of the
    same game, every card still in one place."""
    want = rng.randint(13, 30) - len(pos.loose)
    stock = list(pos.stock) if isinstance(pos.stock, tuple) else []
    hands = [list(h) if isinstance(h, tuple) else h for h in pos.hands]
    extra: list[int] = []
    while len(extra) < want and stock:
        extra.append(stock.pop(rng.randrange(len(stock))))
    owners = {b.owner for b in pos.builds}  # their hands must keep their builds' values
    others = [s for s, h in enumerate(hands)
              if s != pos.to_move and s not in owners and isinstance(h, list)]
    while len(extra) < want and any(hands[s] for s in others):
        s = rng.choice([s for s in others if hands[s]])
        hand = hands[s]
        assert isinstance(hand, list)
        extra.append(hand.pop(rng.randrange(len(hand))))
    if not extra:
        return pos
    return replace(pos, table=pos.table + tuple(extra), stock=tuple(stock),
                   hands=tuple(tuple(h) if isinstance(h, list) else h for h in hands))


def positions(rules: Rules, seed: int) -> Iterator[tuple[Position, int | None]]:
    """The positions of one round of ``rules`` from ``seed``, each with the step budget
    to list it within (``None``: the whole list, a table of at most 12 loose cards)."""
    rng = random.Random(seed)
    style = ("random", "grow", "crowd")[seed % 3]
    match = Match(rules, seed=seed)
    while match.position.result is None:
        pos = match.position
        if style == "crowd" and rng.random() < 0.5:
            crowded = _crowd(pos, rng)
            yield crowded, rng.choice(CROWDED_STEPS)
        steps = None if len(pos.loose) <= 12 else rng.choice(CROWDED_STEPS)
        yield pos, steps
        moves = pos.moves_within(200_000)
        if not moves:
            moves = list(pos.candidate_moves().moves)
        match.play(_pick(moves, rng, style))


def listing(pos: Position, steps: int | None, *, compiled: bool
            ) -> tuple[list[tuple[Move, tuple[tuple[int, ...], ...]]] | None, int | None]:
    """The moves (with the groups they are shown with) and the steps left, from the core
    (``compiled``) or from Python; ``None`` moves when the budget ran out."""
    budget = None if steps is None else movegen.Budget(steps)
    make = core.generate if compiled else movegen.generate
    try:
        moves = make(pos.rules, pos.hand(pos.to_move), pos.loose, pos.builds, pos.to_move,
                     budget)
    except movegen.TooMuchWork:
        return None, budget.left if budget else None
    return [(m, m.groups) for m in moves], budget.left if budget else None


def differs(pos: Position, steps: int | None) -> str | None:
    """What differs between the core and Python on ``pos``, or ``None``."""
    want = listing(pos, steps, compiled=False)
    got = listing(pos, steps, compiled=True)
    if want == got:
        return None
    if want[0] is None or got[0] is None:
        return (f"budget {steps}: Python {'ran out' if want[0] is None else 'finished'}, "
                f"the core {'ran out' if got[0] is None else 'finished'}")
    if want[1] != got[1]:
        return f"steps left: Python {want[1]}, the core {got[1]}"
    for k, (a, b) in enumerate(zip(want[0], got[0], strict=False)):
        if a != b:
            return f"move {k}: Python {a[0]} {a[1]}, the core {b[0]} {b[1]}"
    return f"{len(want[0])} moves from Python, {len(got[0])} from the core"


def engine_state(pos: Position) -> tuple[object, ...]:
    """``pos`` written as the core writes a position (``_core.successor``): the parts the
    core reads, builds as (value, owner, cards, multiple), piles sorted, then whether the
    round is over, its points by side and the game's winner (-1: none)."""
    res = pos.result
    points = res.points_by_seat(pos.rules.players) if res else [0] * pos.rules.players
    return (
        pos.to_move, pos.dealer, -1 if pos.last_capture is None else pos.last_capture,
        pos.deal, pos.round, pos.hands, pos.loose,
        tuple((b.value, b.owner, b.cards, b.multiple) for b in pos.builds),
        tuple(tuple(sorted(p)) for p in pos.piles), pos.sweeps, pos.mulles, pos.stock,
        pos.set_aside, pos.scores, pos.carry.cards, pos.carry.spades, res is not None,
        tuple(points[t] for t in pos.rules.teams),
        -1 if res is None or res.winner is None else res.winner,
    )


def successor_differs(pos: Position, moves: list[Move], index: int) -> str | None:
    """What differs between the core's position after ``moves[index]`` (the legal moves
    of ``pos`` in order) and the engine's, or ``None``; a round's end compares the
    points and the winner too."""
    module = core.module()
    assert module is not None
    got = module.successor(core._tables(pos.rules), core.state_of(pos), index)
    if got is NotImplemented:
        return None
    want = engine_state(pos.successor(moves[index]))
    if got == want:
        return None
    return f"after {moves[index]}: the core {got}, the engine {want}"


def check(pos: Position, steps: int | None, pick: int) -> str | None:
    """What differs on ``pos``: its listing (:func:`differs`), then the position after
    one of its moves (the ``pick``-th, wrapped round), or ``None``."""
    problem = differs(pos, steps)
    if problem is None and fits(pos) and not isinstance(pos.stock, int):
        moves = pos.moves_within(steps) if steps is not None else pos.legal_moves()
        if moves:
            problem = successor_differs(pos, moves, pick * 7919 % len(moves))
    return problem


def fits(pos: Position) -> bool:
    """Whether the core holds ``pos`` (else the Python engine answers for it)."""
    return len(pos.loose) <= 64 and len(pos.builds) <= 24


def run(task: tuple[int, int, int]) -> tuple[Counter[str], Counter[str], list[str]]:
    """Compare the positions of rounds from ``seed`` on, until ``count`` are done, on the
    table ``index`` of :func:`tables` (one task of the pool)."""
    index, seed, count = task
    rules = tables()[index]
    done: Counter[str] = Counter()
    python_only: Counter[str] = Counter()
    bad: list[str] = []
    name = label(rules)
    while done[name] < count:
        for pos, steps in positions(rules, seed):
            if done[name] >= count:
                break
            done[name] += 1
            if not fits(pos):
                python_only[name] += 1
            problem = check(pos, steps, done[name])
            if problem is not None:
                bad.append(f"{name} seed {seed}: {problem}\n  {pos.to_json()}")
        seed += 1
    return done, python_only, bad


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--positions", type=int, default=20_000,
                        help="positions to compare in all (split over the tables)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args(argv)
    if core.module() is None:
        print(f"no compiled core to compare: {core.engine_name()}", file=sys.stderr)
        return 2
    rules = tables()
    per = -(-args.positions // len(rules))
    chunks = max(1, per // 2_000)
    tasks = [(i, args.seed * 1_000_003 + i * 10_007 + k * 1_009, -(-per // chunks))
             for i in range(len(rules)) for k in range(chunks)]
    start = time.perf_counter()
    done: Counter[str] = Counter()
    python_only: Counter[str] = Counter()
    bad: list[str] = []
    if args.jobs > 1:
        with multiprocessing.Pool(args.jobs) as pool:
            results = pool.map(run, tasks)
    else:
        results = [run(t) for t in tasks]
    for d, p, b in results:
        done.update(d)
        python_only.update(p)
        bad.extend(b)
    for name in sorted(done):
        print(f"{name:28} {done[name]:>9} positions"
              + (f", {python_only[name]} left to Python" if python_only[name] else ""))
    print(f"{sum(done.values())} positions compared in {time.perf_counter() - start:.0f} s; "
          f"{len(bad)} differ")
    for line in bad[:20]:
        print(line)
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())

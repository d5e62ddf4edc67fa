"""The search's answers, recorded before it was made faster, must not change.

Speed work on the engine and the solver must keep the same values and moves, to
the last bit. So the search's answers are recorded in
``tests/data/search_answers.json``: for
seeded random rounds of every preset (two players, plus three- and four-player
games where a preset allows them), positions at a deal's first move (searched a
few plies, ``deal_start_estimate`` at the depth), mid-deal (searched exactly to the
deal's end, where the next deal is dealt and evaluated) and in the last deal
(exactly to the round's end, valued by ``game_value``), each root candidate's value
(:meth:`Searcher.values`) and the best move and value of :func:`search`.

Regenerate only when an answer is meant to change (say why in the commit):
``PYTHONPATH=src python -m tests.test_search_answers --write``.
"""

from __future__ import annotations

import json
import random
import sys
from pathlib import Path
from typing import Any

import pytest

from casino import Match, Position
from casino.bots import evaluation
from casino.bots.expert import MAX_INNER, candidates
from casino.bots.solver import Searcher, game_value, plies_left, search
from casino.engine.rules import PRESET_NAMES

DATA = Path(__file__).resolve().parent / "data" / "search_answers.json"

#: (preset, players) searched: every preset with two players, and the crowded games.
TABLES: tuple[tuple[str, int], ...] = (
    *((name, 2) for name in PRESET_NAMES), ("classic", 3), ("kasino", 4))
SEEDS = range(1, 3)
#: Plies searched at a deal's first move (the full deal takes too long for a test).
START_DEPTH = 3
#: Plies left at most in a mid-deal position searched to the deal's end.
MID_PLIES = 4


def cases() -> list[tuple[str, Position, int, int | None]]:
    """(label, position, depth, max_moves) for every position recorded."""
    out: list[tuple[str, Position, int, int | None]] = []
    for name, players in TABLES:
        for seed in SEEDS:
            m = Match(name, seed=seed, players=players)
            rng = random.Random(seed)
            last_deal = 0
            mids = 0
            k = 0
            while m.position.result is None:
                p = m.position
                label = f"{name}/{players}/{seed}/{k}"
                left = plies_left(p, "deal")
                if p.deal != last_deal:
                    out.append((label, p, START_DEPTH, MAX_INNER if k % 2 else None))
                    mids = 0
                elif left <= MID_PLIES and mids < 2:
                    out.append((label, p, left, None if k % 3 else MAX_INNER))
                    mids += 1
                last_deal = p.deal
                m.play(rng.choice(p.legal_moves()))
                k += 1
    return out


def answer(p: Position, depth: int, max_moves: int | None) -> dict[str, Any]:
    moves = candidates(p, list(p.candidate_moves().moves))
    s = Searcher(p.to_move, horizon="deal", evaluate=evaluation.deal_start_estimate,
                 terminal=game_value, max_moves=max_moves)
    vals = s.values(p, moves, depth)
    r = search(p, horizon="deal", depth=depth, evaluate=evaluation.deal_start_estimate,
               terminal=game_value, max_moves=max_moves)
    return {"moves": [str(m) for m in moves], "values": vals,
            "best": str(r.move), "best_value": r.value}


@pytest.fixture(scope="module")
def recorded() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
    return data


def test_enough_positions_of_every_kind_are_recorded(recorded: dict[str, Any]) -> None:
    found = cases()
    assert len(found) == len(recorded) >= 200
    assert sum(p.stock_size == 0 for _, p, _, _ in found) >= 30  # the last deal
    assert sum(d == START_DEPTH for _, _, d, _ in found) >= 50  # deals' first moves
    assert {label.split("/")[0] for label in recorded} == set(PRESET_NAMES)


#: The slowest tables (five-card hands, three and four players): the long checks.
SLOW = {("mulle", 2), ("classic", 3), ("kasino", 4)}


@pytest.mark.parametrize("table", [
    pytest.param(t, id=f"{t[0]}-{t[1]}", marks=[pytest.mark.slow] if t in SLOW else [])
    for t in TABLES])
def test_values_and_best_moves_are_as_recorded(table: tuple[str, int],
                                               recorded: dict[str, Any]) -> None:
    prefix = f"{table[0]}/{table[1]}/"
    checked = 0
    for label, p, depth, max_moves in cases():
        if not label.startswith(prefix):
            continue
        assert answer(p, depth, max_moves) == recorded[label], label
        checked += 1
    assert checked >= 10


def write() -> None:
    """Record the answers of the code on the path (see the module's docstring)."""
    data = {label: answer(p, d, mm) for label, p, d, mm in cases()}
    DATA.write_text(json.dumps(data, indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print(f"{len(data)} positions written to {DATA}")


if __name__ == "__main__" and "--write" in sys.argv:
    write()

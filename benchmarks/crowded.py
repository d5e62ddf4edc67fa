"""Crowded tables: what each user-facing engine question costs, on every preset.

The suite ``benchmarks/positions/crowded-tables.json`` holds crowded positions
of every preset that allows them (Finnish Kasino with 20, 24 and 27 loose
cards and the 10♦ and 2♠ in hand, house rules with 16 loose cards and three
builds, two-deck Krypkasino and Mulle tables, Tablić, Royal), each in the move
helper's text form with a few moves to check (legal and illegal). For each
position it reports, as the median and the worst of several repeats on a
fresh position (nothing remembered between repeats):

- **check**: ``parse_move`` of each move text (legal or not; an illegal one
  includes the explanation of why), the slowest of them;
- **card**: one card's options (``card_options`` and ``moves_of``), the
  slowest card in hand, and how many moves the longest list holds;
- **all**: ``candidate_moves()`` for the whole hand (what bots and hints
  start from);
- **state**: the web game's state message for the player to move (its VIEW,
  with the bounded per-card move lists), built from the seat's observation,
  and its size in bytes as JSON.

The plain enumeration (``legal_moves()``) is not run: on these tables it takes
from seconds to minutes and gigabytes.

Usage::

    .venv/bin/python benchmarks/crowded.py [--repeat 5] [--only NAME ...]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import platform
import statistics
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from casino import IllegalMove, Position
from casino.engine.record import Settings
from casino.tools.helper import position, setup_from_text
from casino.web.views import Public, build_view

SUITE = Path(__file__).resolve().parent / "positions" / "crowded-tables.json"


def load(only: list[str] | None = None) -> list[dict[str, Any]]:
    """The suite's entries (all, or those named in ``only``)."""
    entries: list[dict[str, Any]] = json.loads(SUITE.read_text(encoding="utf-8"))
    return [e for e in entries if not only or e["name"] in only]


def fresh(entry: dict[str, Any]) -> Position:
    """The entry's position, with nothing computed yet."""
    return position(setup_from_text(entry["rules"], entry["table"], entry["hand"]))


def timed(entry: dict[str, Any], repeat: int,
          action: Callable[[Position], object]) -> tuple[float, float, object]:
    """Median and worst milliseconds of ``action`` on a fresh position, and its result."""
    times = []
    result: object = None
    for _ in range(repeat):
        pos = fresh(entry)
        start = time.perf_counter()
        result = action(pos)
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times), result


def check_all(entry: dict[str, Any]) -> Callable[[Position], object]:
    def run(pos: Position) -> object:
        worst = 0.0
        for text in entry["check"]:
            start = time.perf_counter()
            with contextlib.suppress(IllegalMove):
                pos.parse_move(text)
            worst = max(worst, time.perf_counter() - start)
        return worst * 1000
    return run


def card_lists(pos: Position) -> object:
    """The slowest card's options and moves (ms), and the longest list's length."""
    worst = 0.0
    longest = 0
    for card in sorted(set(pos.hand(pos.to_move))):
        start = time.perf_counter()
        pos.card_options(card)
        moves = pos.moves_of(card).moves
        worst = max(worst, time.perf_counter() - start)
        longest = max(longest, len(moves))
    return worst * 1000, longest


def state_message(pos: Position) -> object:
    """The state message of the player to move: (bytes of its JSON)."""
    seat = pos.to_move
    view = pos.observe(seat)
    names = tuple(f"Player {s + 1}" for s in pos.rules.seats)
    public = Public(game="bench", version=1, status="playing", names=names,
                    players=("human",) * pos.rules.players, log=(), rounds=(),
                    can_undo=False, invite=None, rematch=None, settings=Settings(),
                    can_hint=False, resign_words=None, ended=None, winner=None, away=None)
    message = {"type": "state", "version": 1, "events": [],
               "view": build_view(view, seat, public)}
    return len(json.dumps(message).encode())


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", nargs="*")
    args = parser.parse_args()
    print(f"Python {platform.python_version()} on {platform.platform()}, "
          f"{os.cpu_count()} CPUs; median and worst of {args.repeat} repeats, ms")
    print("| position | loose | builds | check (one move) | one card's moves | list "
          "| whole hand | moves | state message | bytes |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|")
    for entry in load(args.only):
        pos = fresh(entry)
        check_all(entry)(fresh(entry))  # warm up: the first explanation imports modules
        checks = [check_all(entry)(fresh(entry)) for _ in range(args.repeat)]
        cards = [card_lists(fresh(entry)) for _ in range(args.repeat)]
        whole = timed(entry, args.repeat, lambda p: p.candidate_moves())
        state = timed(entry, args.repeat, state_message)
        card_ms = [c[0] for c in cards]  # type: ignore[index]
        longest = max(c[1] for c in cards)  # type: ignore[index]
        n_moves = len(whole[2].moves)  # type: ignore[attr-defined]
        print(f"| {entry['name']} | {len(pos.loose)} | {len(pos.builds)} "
              f"| {statistics.median(checks):.1f} / {max(checks):.1f} "  # type: ignore[type-var]
              f"| {statistics.median(card_ms):.1f} / {max(card_ms):.1f} | {longest} "
              f"| {whole[0]:.1f} / {whole[1]:.1f} | {n_moves} "
              f"| {state[0]:.1f} / {state[1]:.1f} | {state[2]:,} |")


if __name__ == "__main__":
    main()

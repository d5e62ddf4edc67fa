"""The player levels against each other, 1,000 games per pairing, in a run that resumes.

The issue asks each level to beat the one below it over at least 1,000 mirrored
games. At the upper levels one game takes seconds of thinking, so a pairing
takes hours on one core: this script appends every finished mirrored pair to a
JSON-lines file at once and, when started again with the same arguments, skips
the pairs already there. A run cut short loses at most the pair in progress.

Each side plays its level's bot *with its level's limit* (``casino.bots.levels``),
as ``casino arena level:A level:B --games N --seed S`` does, on the same deals
with the same bot seeds (``game_seeds``); what this script adds is the file that
a cut run resumes.
Usage::

    .venv/bin/python benchmarks/level_ladder.py hard:medium --pairs 500 --seed 31
    .venv/bin/python benchmarks/level_ladder.py hard:medium --pairs 500 --seed 31 --report

A second process with ``--reverse`` shares the work of a run: it plays from the
last pair back, into the same file. The file is
``benchmarks/results/levels-<A>-<B>-<seed>.jsonl`` unless ``--out``
names another. ``--report`` prints the games won by the first level (95% Wilson
interval), its mean margin per round (95% interval clustered by mirrored pair)
and both sides' think time per decision, for the pairs played so far.

Every pair records each side's bot and limit, and a file whose pairs were played
with other definitions of the levels is refused (play or report), so a change to
``casino.bots.levels`` cannot mix two kinds of games in one run.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
from pathlib import Path
from typing import Any

from casino.arena import GameRecord, PairingResult, game_seeds, limit_json, play_game
from casino.bots.levels import LEVELS
from casino.rules import preset

RESULTS = Path(__file__).resolve().parent / "results"


def parse_pairing(text: str) -> tuple[str, str]:
    a, sep, b = text.partition(":")
    for name in (a, b):
        if name not in LEVELS:
            raise argparse.ArgumentTypeError(
                f"{name!r} is not a level; the levels are {', '.join(LEVELS)}")
    if not sep or a == b:
        raise argparse.ArgumentTypeError(f"a pairing is LEVEL:LEVEL, not {text!r}")
    return a, b


def played(path: Path) -> dict[int, dict[str, Any]]:
    """The pairs already in the file, by index (a torn last line is ignored)."""
    done: dict[int, dict[str, Any]] = {}
    if not path.exists():
        return done
    for line in path.read_text().splitlines():
        try:
            row = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[row["index"]] = row
    return done


def definitions(a: str, b: str) -> dict[str, Any]:
    """What each side played: its level's bot and limit, as recorded in every row."""
    return {"bots": [LEVELS[a].bot, LEVELS[b].bot],
            "limits": [limit_json(LEVELS[a].limit), limit_json(LEVELS[b].limit)]}


def check_definitions(a: str, b: str, rows: list[dict[str, Any]], path: Path) -> int:
    """Refuse a file whose pairs were played with other definitions of these levels.

    The levels are code, so a change to them would otherwise mix two kinds of
    games in one run without a word. Returns how many rows predate the record
    (files written before it); those cannot be checked."""
    want = definitions(a, b)
    unrecorded = 0
    for row in rows:
        if "bots" not in row:
            unrecorded += 1
            continue
        got = {"bots": row["bots"], "limits": row["limits"]}
        if got != want:
            raise SystemExit(
                f"{path}: pair {row['index']} was played as {got}, but {a}:{b} is now "
                f"{want}; the levels have changed since, so start a new file (--out)")
    return unrecorded


def play(a: str, b: str, rules_name: str, seeds: list[int], path: Path,
         max_rounds: int, reverse: bool = False) -> None:
    """Play the pairs not yet in ``path``, appending each as one line.

    The file is read again before each pair, so two processes can share a run: one
    plays the pairs in order, the other (``reverse``) from the last; where they meet
    a pair may be played twice, and the report keeps one."""
    check_definitions(a, b, list(played(path).values()), path)
    rules = preset(rules_name)
    limits = (LEVELS[a].limit, LEVELS[b].limit)
    names = (LEVELS[a].bot, LEVELS[b].bot)
    recorded = definitions(a, b)
    path.parent.mkdir(parents=True, exist_ok=True)
    order = range(len(seeds) - 1, -1, -1) if reverse else range(len(seeds))
    fd = os.open(path, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
    try:
        for index in order:
            if index in played(path):
                continue
            seed = seeds[index]
            games = [play_game(names, rules, seed, mirror, limits, max_rounds=max_rounds)
                     for mirror in (0, 1)]
            row = {"index": index, "seed": seed, "a": a, "b": b, **recorded,
                   "games": [g.to_json(times=True) for g in games]}
            # One write of the whole line, so processes sharing the file never interleave.
            os.write(fd, (json.dumps(row) + "\n").encode())
            print(f"pair {index + 1}/{len(seeds)}: margins {games[0].margins} "
                  f"{games[1].margins}", file=sys.stderr, flush=True)
    finally:
        os.close(fd)


def report(a: str, b: str, path: Path) -> None:
    rows = sorted(played(path).values(), key=lambda r: r["index"])
    if not rows:
        print(f"no pairs played yet in {path}")
        return
    unrecorded = check_definitions(a, b, rows, path)
    games = [GameRecord.from_json(g) for r in rows for g in r["games"]]
    result = PairingResult(a, b, LEVELS[a].limit, LEVELS[b].limit, games)
    won = result.score_a()
    margin = result.margin()
    assert margin is not None
    print(f"{a} ({LEVELS[a].bot}, {LEVELS[a].limit}) v {b} ({LEVELS[b].bot}, "
          f"{LEVELS[b].limit}): {len(rows)} mirrored pairs, {len(games)} games, "
          f"{result.rounds} rounds")
    print(f"  games won by {a}: {result.points_a:g} / {len(games)} = {won.value:.1%} "
          f"[{won.low:.1%}, {won.high:.1%}]; undecided {result.undecided}")
    print(f"  margin per round for {a}: {margin.value:+.2f} "
          f"[{margin.low:+.2f}, {margin.high:+.2f}]")
    for side, level in (("A", a), ("B", b)):
        t = result.think(side)
        if t.decisions:
            print(f"  think time of {level}: median {t.median * 1000:.0f} ms, "
                  f"p95 {t.p95 * 1000:.0f} ms, max {t.max:.2f} s ({t.decisions} decisions)")
    if unrecorded:
        print(f"  {unrecorded} of the pairs predate the record of each side's bot and "
              f"limit, so they were not checked against the levels as defined now")
    print(f"  Python {platform.python_version()} on {platform.machine()}, "
          f"{platform.processor() or platform.platform()}")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("pairing", type=parse_pairing, help="LEVEL:LEVEL, the stronger first")
    ap.add_argument("--pairs", type=int, default=500, help="mirrored pairs (2 games each)")
    ap.add_argument("--seed", type=int, default=31)
    ap.add_argument("--rules", default="casino")
    ap.add_argument("--max-rounds", type=int, default=50)
    ap.add_argument("--out", type=Path, default=None)
    ap.add_argument("--reverse", action="store_true",
                    help="play from the last pair back (a second process sharing the run)")
    ap.add_argument("--report", action="store_true", help="summarise the pairs played so far")
    args = ap.parse_args(argv)
    a, b = args.pairing
    path = args.out or RESULTS / f"levels-{a}-{b}-{args.seed}.jsonl"
    if not args.report:
        play(a, b, args.rules, game_seeds(args.seed, args.pairs), path, args.max_rounds,
             args.reverse)
    report(a, b, path)
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""The computer levels' published strengths, fitted from the arena's journals.

Each level gets a rating on the scale of people's Glicko-2 ratings
(:mod:`casino.measure.glicko2`), one for each preset and player count the journals
measure, written to ``src/casino/measure/level_strengths.json``, which
:mod:`casino.measure.level_strengths` reads for the leaderboard. The ratings come from
games between the levels alone: people's games never move them. Usage, from the
repository root (``make results`` runs it)::

    .venv/bin/python -m research.level_ratings research/journals/*.jsonl \\
        > src/casino/measure/level_strengths.json

``tests/test_level_strengths.py`` checks that the shipped file is this output for the
journals in research/journals/, so it cannot be edited by hand.

How, and why:

* **The scale.** A rating difference ``d`` means an expected score of
  ``1 / (1 + 10^(-d/400))``, Elo's, which is what Glicko-2 means at its display scale
  (``173.7178 = 400 / ln 10``). A pairing's difference is read back from its score
  share ``p`` (a game stopped undecided counting half): ``d = 400·log10(p / (1 - p))``.
* **A chain.** The journals play each level against the one just below it (beginner
  < easy < medium < hard < expert), so each level's rating is its neighbour's plus the
  measured difference, walking out from the anchor; the uncertainties of the steps
  are independent (separate games) and add as variances. Pairings of levels that are
  not neighbours would need a joint fit; they are left out (the journals have none).
  A level the chain does not reach from the anchor is not published.
* **The uncertainty.** A step's standard error is the score share's, clustered by
  mirrored pair (the two games of one deal, seats swapped, are the unit of sampling,
  as everywhere in the arena), carried to the rating scale by the delta method:
  ``se(d) = 400 / ln 10 · se(p) / (p(1 - p))``. Where the pairs do not vary at all
  (every pair won, or every pair split), that would be 0: the binomial
  ``√(p(1 - p)/n)`` is taken instead.
* **No infinity.** A share of 100% or 0% has no finite difference: the share is
  clamped to ``[1/(2n), 1 - 1/(2n)]`` of its ``n`` games, as if half a game had gone
  the other way (+1040 for 200 games all won).
* **The anchor: ``medium`` at 1500.** The arena measures differences between levels
  only; where the ladder sits among people is a choice, since games against the
  computer are never rated. ``medium`` is the level a game against the computer
  starts at unless another is chosen, and 1500 is the rating a new person starts at:
  both mean "not known yet, in the middle", so the default opponent and a newcomer
  read as an even match, and a level's number reads as how much stronger or weaker
  than that default it is.
* **Published as a Glicko-2 rating.** A level's deviation (one standard error, in
  rating points) is at least 30 and at most 350 (the range of
  :class:`~casino.measure.glicko2.Rating`, whose floor is also the anchor's own: it
  is exact by definition), and its rating is kept in [0, 5000], so that every level
  reads as a valid :class:`~casino.measure.glicko2.Rating`.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from casino.bots.levels import LEVELS
from casino.engine.rules import rules_from_json
from casino.measure.arena import MAX_ROUNDS
from casino.measure.glicko2 import (
    DEFAULT_RATING,
    DEVIATION_FLOOR,
    DEVIATION_MAX,
    RATING_MAX,
    RATING_MIN,
)
from casino.measure.level_strengths import FORMAT
from research import results

#: The command that writes the file, as the file states it.
COMMAND = ("python -m research.level_ratings research/journals/*.jsonl "
           "> src/casino/measure/level_strengths.json")
#: The levels, weakest first.
ORDER: tuple[str, ...] = tuple(LEVELS)
#: The level placed at :data:`ANCHOR_RATING` (see the module's notes).
ANCHOR = "medium"
#: The anchor's rating: a new person's.
ANCHOR_RATING = DEFAULT_RATING
#: Rating points per unit of the natural log of the odds (400 / ln 10).
ELO = 400.0 / math.log(10.0)
#: A level bot's name in the journals, ``level:<name>``.
PREFIX = "level:"


@dataclass(frozen=True, slots=True)
class Step:
    """One pairing of neighbouring levels: the higher level's rating less the lower's,
    with its standard error, from ``games`` games in which the higher scored ``share``."""

    higher: str
    lower: str
    games: int
    share: float
    difference: float
    error: float

    def to_json(self) -> dict[str, Any]:
        """The step as the file gives it (points to 0.1, the share to 0.001)."""
        return {"higher": self.higher, "lower": self.lower, "games": self.games,
                "share": round(self.share, 3), "difference": round(self.difference, 1),
                "error": round(self.error, 1)}


def step(higher: str, lower: str, pair_scores: Sequence[float]) -> Step:
    """The difference between ``higher`` and ``lower`` from the higher's score in each
    mirrored pair (0 to 2: two games, an undecided game counting half). The share is
    clamped away from 0 and 1; the error is clustered by pair, or binomial where the
    pairs do not vary (see the module's notes)."""
    pairs = len(pair_scores)
    if pairs == 0:
        raise ValueError(f"no games between {higher} and {lower}")
    games = 2 * pairs
    shares = [s / 2.0 for s in pair_scores]
    raw = math.fsum(shares) / pairs
    share = min(1.0 - 0.5 / games, max(0.5 / games, raw))
    spread = (math.fsum((s - raw) ** 2 for s in shares) / (pairs * (pairs - 1))
              if pairs > 1 else 0.0)
    variance = spread if spread > 0 else share * (1.0 - share) / games
    odds = share * (1.0 - share)
    return Step(higher, lower, games, raw, ELO * math.log(share / (1.0 - share)),
                ELO * math.sqrt(variance) / odds)


@dataclass(frozen=True, slots=True)
class Strength:
    """A level's published rating and deviation (one standard error), in rating points."""

    rating: float
    deviation: float

    def to_json(self) -> dict[str, float]:
        """The strength as the file gives it, to 0.1 point."""
        return {"rating": round(self.rating, 1), "deviation": round(self.deviation, 1)}


def _published(rating: float, variance: float) -> Strength:
    """A chain's sum as a valid Glicko-2 rating: each number kept in its range."""
    deviation = min(DEVIATION_MAX, max(DEVIATION_FLOOR, math.sqrt(variance)))
    return Strength(min(RATING_MAX, max(RATING_MIN, rating)), deviation)


def chain(steps: Sequence[Step], anchor: str = ANCHOR,
          value: float = ANCHOR_RATING) -> dict[str, Strength]:
    """Each level the steps reach from ``anchor`` (at ``value``), weakest first: up and
    down the ladder one neighbour at a time, differences adding, variances adding. A
    level with no step from the anchor's side is left out, and so are those beyond it;
    with no step at all, nothing is measured (an empty result)."""
    by_pair = {(s.higher, s.lower): s for s in steps}
    start = ORDER.index(anchor)
    found = {anchor: (value, 0.0)}
    for direction in (1, -1):
        rating, variance = value, 0.0
        i = start + direction
        while 0 <= i < len(ORDER):
            higher, lower = (ORDER[i], ORDER[i - 1]) if direction > 0 else (ORDER[i + 1],
                                                                          ORDER[i])
            s = by_pair.get((higher, lower))
            if s is None:
                break
            rating += direction * s.difference
            variance += s.error ** 2
            found[ORDER[i]] = (rating, variance)
            i += direction
    if len(found) == 1:
        return {}
    return {level: _published(*found[level]) for level in ORDER if level in found}


@dataclass
class Pool:
    """The levels of one preset at one player count: the steps measured and the
    journals they came from."""

    preset: str
    players: int
    sources: list[str]
    steps: dict[tuple[str, str], Step]

    def to_json(self) -> dict[str, Any]:
        """The pool as the file gives it: its steps, strongest pairing last, and each
        level's strength, weakest first."""
        steps = [self.steps[key] for key in sorted(self.steps,
                                                   key=lambda k: ORDER.index(k[0]))]
        return {"preset": self.preset, "players": self.players, "sources": self.sources,
                "steps": [s.to_json() for s in steps],
                "levels": {name: s.to_json() for name, s in chain(steps).items()}}


def _preset_of(rules: str | dict[str, Any]) -> tuple[str, int] | None:
    """The pool of a journal's rules: a preset and player count, or None for a table
    with options of its own (not any preset's pool)."""
    if isinstance(rules, dict) and set(rules) - {"preset", "players"}:
        return None
    parsed = rules_from_json(rules)
    return parsed.name, parsed.players


def _level_step(pairing: results.Pairing) -> Step | None:
    """A pairing of neighbouring levels as a step, the higher level first; None for any
    other pairing."""
    if not (pairing.a.startswith(PREFIX) and pairing.b.startswith(PREFIX)):
        return None
    a, b = pairing.a.removeprefix(PREFIX), pairing.b.removeprefix(PREFIX)
    if a not in ORDER or b not in ORDER or abs(ORDER.index(a) - ORDER.index(b)) != 1:
        return None
    scores = [g0.score("A") + g1.score("A") for g0, g1 in pairing.result().pairs]
    if ORDER.index(a) > ORDER.index(b):
        return step(a, b, scores)
    return step(b, a, [2.0 - s for s in scores])


def pools(paths: Sequence[Path]) -> list[Pool]:
    """The pools the journals measure, in the order of their file names: whole games
    (the arena's round cap) of presets without options, between neighbouring levels.
    Two ways of playing the same two levels in one pool (other bots or limits, the
    levels changed between runs) are refused: which is the level is not known."""
    ordered = sorted(paths, key=lambda p: (p.name, str(p)))
    found: dict[tuple[str, int], Pool] = {}
    for table in results.read(ordered):
        key = _preset_of(table.rules)
        if key is None or table.max_rounds != MAX_ROUNDS:
            continue
        for pairing in table.pairings.values():
            s = _level_step(pairing)
            if s is None:
                continue
            pool = found.setdefault(key, Pool(key[0], key[1], [], {}))
            if (s.higher, s.lower) in pool.steps:
                raise ValueError(f"{key[0]} with {key[1]} players: {s.higher} and {s.lower} "
                                 "are played more than one way; keep one in the journals")
            pool.steps[(s.higher, s.lower)] = s
            pool.sources += [name for name in table.sources if name not in pool.sources]
    return [pool for pool in found.values() if chain(list(pool.steps.values()))]


def document(paths: Sequence[Path]) -> str:
    """The whole file for these journals, as JSON text."""
    doc = {"format": FORMAT,
           "generated": (f"by `{COMMAND}` (make results) from the arena's journals; do not "
                         "edit: tests/test_level_strengths.py checks it"),
           "anchor": {"level": ANCHOR, "rating": ANCHOR_RATING},
           "pools": [pool.to_json() for pool in pools(paths)]}
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"


def main(argv: list[str] | None = None) -> int:
    """Print the file for the journals given."""
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    parser.add_argument("journals", nargs="+", type=Path, help="arena journals (JSONL)")
    args = parser.parse_args(argv)
    missing = [str(p) for p in args.journals if not p.is_file()]
    if missing:
        parser.error("no such journal: " + ", ".join(missing))
    sys.stdout.write(document(args.journals))
    return 0


if __name__ == "__main__":
    sys.exit(main())

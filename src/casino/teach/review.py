"""The post-game review: each decision of one seat judged fairly, from what it saw.

For a finished game's record and a seat, :func:`review` takes every decision of that
seat that was a choice (a seat with one legal move is not judged) and, from **that
seat's observation at that moment** only (its hand, the table, the piles, the counts
of the other hands and the stock, and what builds tell about their owners' hands):

* values the bounded candidate moves (:func:`casino.teach.judge.candidate_moves`)
  on K deals of the hidden cards sampled consistently with the observation, each
  with the judge's search (:mod:`casino.teach.judge`): the *preferred* move is the
  one with the best mean;
* says what the played move *costs* against it: the mean over the deals of the
  per-deal difference, in expected round points, with its spread (the standard
  deviation of that difference over the deals), and grades it by
  :class:`Thresholds` (good, inaccuracy, mistake, blunder);
* and, labelled *hindsight* because only the finished game can tell it, the cost
  on the true deal the record holds: the best move there less the played one.

The seat's expected round margin after each decision (the played move's mean value,
its points so far included) makes a graph, big swings marked; a summary names the
three costliest decisions with the better move in words and totals the costs by
kind of move (captures, builds, trails, and every move of the last deal).

Every search has a budget of work and the candidates are bounded, so a crowded
table costs polynomial work; the samples of each decision come from a generator
seeded by the review's seed and the decision's place, so the same seed gives the
same review, and a decision's grade does not depend on the other decisions'. The
result is a frozen, JSON-able value (:meth:`Review.to_json`) that the command line,
the web replay page and the terminal game's end screen can all draw.
"""

from __future__ import annotations

import json
import math
import random
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position, table_after
from casino.engine.record import HINT, TAKEOVER, Record
from casino.engine.wording import build_words, cards_words, listing, plural
from casino.teach.judge import Budget, candidate_moves, fair_judgement, judge
from casino.words.narrate import move_phrase

FORMAT = "casino-review/1"

#: Deals of the hidden cards each decision is judged on, by default.
DEFAULT_SAMPLES = 8
#: The judge's default budget: 8 plies (a whole 4-card deal of two players) and the
#: work per search that keeps a two-player round's review within 30 s on one core
#: (docs/review.md has the figures for every preset).
DEFAULT_BUDGET = Budget(depth=8, nodes=1500)

GOOD, INACCURACY, MISTAKE, BLUNDER = "good", "inaccuracy", "mistake", "blunder"
GRADES = (GOOD, INACCURACY, MISTAKE, BLUNDER)

#: The per-kind totals' kinds: a build, an addition to a build and a raise are builds.
KIND_OF = {CAPTURE: "captures", BUILD: "builds", ADD: "builds", RAISE: "builds",
           TRAIL: "trails"}
LAST_DEAL = "last deal"
KINDS = ("captures", "builds", "trails", LAST_DEAL)

#: Candidates kept in a decision besides the played move (the best first).
OPTIONS_KEPT = 5
#: A change of the expected round margin between two decisions marked as a big swing.
BIG_SWING = 3.0
#: Decimals kept of every value: the review's JSON is then the review itself.
DECIMALS = 3


class ReviewError(ValueError):
    """A record that cannot be reviewed as asked: not finished, or no such seat."""


@dataclass(frozen=True)
class Thresholds:
    """The cost, in expected round points, from which a move is graded worse.

    A cost below ``inaccuracy`` is good; from ``inaccuracy`` an inaccuracy, from
    ``mistake`` a mistake, from ``blunder`` a blunder. docs/review.md says why
    these numbers (the costs the review measures on the expert level's games)."""

    inaccuracy: float = 0.5
    mistake: float = 1.5
    blunder: float = 3.0

    def __post_init__(self) -> None:
        if not 0 < self.inaccuracy <= self.mistake <= self.blunder:
            raise ValueError("the thresholds must rise: 0 < inaccuracy <= mistake <= "
                             f"blunder, not {self.inaccuracy}, {self.mistake}, "
                             f"{self.blunder}")

    def grade(self, cost: float) -> str:
        """The grade of a move that costs ``cost`` points against the preferred one."""
        if cost >= self.blunder:
            return BLUNDER
        if cost >= self.mistake:
            return MISTAKE
        if cost >= self.inaccuracy:
            return INACCURACY
        return GOOD


DEFAULT_THRESHOLDS = Thresholds()


@dataclass(frozen=True)
class Option:
    """One candidate move at a decision: its notation, its words and its mean value
    (the expected round margin after it, over the sampled deals)."""

    move: str
    words: str
    value: float


@dataclass(frozen=True)
class Hindsight:
    """The decision judged on the true deal, which only the finished game shows: the
    best move there and what the played move cost against it."""

    best: str
    best_words: str
    cost: float


@dataclass(frozen=True)
class Decision:
    """One judged decision of the reviewed seat.

    ``ply`` is the move's index in its round (0 for the round's first move),
    ``deal`` the deal it was played in. ``cost`` and ``spread`` are the mean and
    the standard deviation, over the ``samples`` deals judged, of the preferred
    move's value less the played move's; ``depth`` is the shallowest search among
    them (plies). ``margin`` is the seat's expected round margin after its move,
    ``swing`` its change since the seat's previous judged decision of the round.
    ``position`` is the seat's observation before the move (casino-position/1
    JSON text: what the seat saw, the other hands as counts)."""

    round: int
    deal: int
    ply: int
    move: str
    words: str
    kind: str
    last_deal: bool
    preferred: str
    preferred_words: str
    cost: float
    spread: float
    grade: str
    samples: int
    depth: int
    margin: float
    swing: float
    big_swing: bool
    hindsight: Hindsight
    options: tuple[Option, ...]
    leaves: str
    preferred_leaves: str
    hinted: bool = False
    by_computer: bool = False
    position: str = ""


@dataclass(frozen=True)
class KindTotal:
    """The decisions of one kind (:data:`KINDS`) and what they cost in all."""

    kind: str
    decisions: int
    cost: float
    grades: tuple[int, int, int, int]


@dataclass(frozen=True)
class Review:
    """A seat's review of a game: its judged decisions and a summary.

    ``costliest`` holds the indices (into ``decisions``) of the three costliest
    decisions, the costliest first, and ``advice`` a sentence for each."""

    rules: str
    seat: int
    name: str
    samples: int
    seed: int
    depth: int
    nodes: int
    thresholds: Thresholds
    decisions: tuple[Decision, ...]
    forced: int
    totals: tuple[KindTotal, ...]
    costliest: tuple[int, ...]
    advice: tuple[str, ...]
    format: str = field(default=FORMAT)

    @property
    def cost(self) -> float:
        """What the seat's decisions cost in all, in expected round points."""
        return round(sum(d.cost for d in self.decisions), DECIMALS)

    def grade_counts(self) -> dict[str, int]:
        """How many decisions got each grade."""
        counts = dict.fromkeys(GRADES, 0)
        for d in self.decisions:
            counts[d.grade] += 1
        return counts

    def to_json(self) -> dict[str, Any]:
        """The review as JSON-able data (a decision's position as a JSON object)."""
        data = asdict(self)
        for d in data["decisions"]:
            d["position"] = json.loads(d["position"]) if d["position"] else None
        return data

    @staticmethod
    def from_json(data: Any) -> Review:
        """The review that :meth:`to_json` gave; ValueError for anything else."""
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} review")
            decisions = tuple(_decision(d) for d in data["decisions"])
            return Review(
                rules=str(data["rules"]), seat=int(data["seat"]), name=str(data["name"]),
                samples=int(data["samples"]), seed=int(data["seed"]),
                depth=int(data["depth"]), nodes=int(data["nodes"]),
                thresholds=Thresholds(**data["thresholds"]), decisions=decisions,
                forced=int(data["forced"]),
                totals=tuple(KindTotal(t["kind"], int(t["decisions"]), float(t["cost"]),
                                       _four(t["grades"])) for t in data["totals"]),
                costliest=tuple(int(i) for i in data["costliest"]),
                advice=tuple(str(a) for a in data["advice"]))
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a {FORMAT} review: {exc!r}") from None


def _four(xs: Sequence[int]) -> tuple[int, int, int, int]:
    a, b, c, d = (int(x) for x in xs)
    return a, b, c, d


def _decision(d: dict[str, Any]) -> Decision:
    fields = dict(d)
    fields["hindsight"] = Hindsight(**d["hindsight"])
    fields["options"] = tuple(Option(**o) for o in d["options"])
    pos = d.get("position")
    fields["position"] = json.dumps(pos, separators=(",", ":")) if pos else ""
    return Decision(**fields)


# ----------------------------------------------------------------------
# Reviewing


#: ``progress(done, total)``: called before the first decision and after each one.
Progress = Callable[[int, int], None]


@dataclass(frozen=True)
class _Spot:
    """A decision to judge: where it is in the record and the true position."""

    round: int
    ply: int
    pos: Position
    move: Move
    hinted: bool
    by_computer: bool


def review(record: Record, seat: int, *, samples: int = DEFAULT_SAMPLES, seed: int = 0,
           progress: Progress | None = None, limit: Budget = DEFAULT_BUDGET,
           thresholds: Thresholds = DEFAULT_THRESHOLDS) -> Review:
    """The review of ``seat``'s decisions in the finished game ``record``.

    ``samples`` deals of the hidden cards are judged at each decision, with the
    judge's ``limit``; ``seed`` makes the samples (the same seed, the same review).
    ReviewError for a game that is not over (a live game's review would tell one
    seat what it cannot see yet) or a seat the game does not have."""
    rules = record.rules
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ReviewError(f"seat {seat} is not a seat of this {rules.players}-player game: "
                          f"the seats are 0 to {rules.players - 1}")
    if not record.is_over:
        raise ReviewError("the game is not finished: only a finished game is reviewed "
                          "(a review tells what the other hands held)")
    if samples < 1:
        raise ReviewError(f"a review judges one sampled deal or more, not {samples}")
    spots, forced = _spots(record, seat)
    if progress is not None:
        progress(0, len(spots))
    decisions: list[Decision] = []
    for n, spot in enumerate(spots):
        previous = decisions[-1] if decisions and decisions[-1].round == spot.round else None
        decisions.append(judge_decision(
            spot.pos, spot.move, ply=spot.ply, samples=samples, seed=seed, limit=limit,
            thresholds=thresholds, previous_margin=None if previous is None else previous.margin,
            hinted=spot.hinted, by_computer=spot.by_computer))
        if progress is not None:
            progress(n + 1, len(spots))
    return _summed(record, seat, samples, seed, limit, thresholds, decisions, forced)


def default_seat(record: Record) -> int:
    """The seat reviewed when none is given: the one person at the table, when the
    record says exactly one seat was played by a person; else seat 0."""
    humans = [s for s, p in enumerate(record.players or ()) if p == "human"]
    return humans[0] if len(humans) == 1 else 0


def _spots(record: Record, seat: int) -> tuple[list[_Spot], int]:
    """The seat's decisions that were choices, and how many were forced."""
    hints = {(n.round, n.moves) for n in record.notes if n.seat == seat and n.kind == HINT}
    takeover = next(((n.round, n.moves) for n in record.notes
                     if n.seat == seat and n.kind == TAKEOVER), None)
    spots: list[_Spot] = []
    forced = 0
    for rnd in record.rounds:
        for ply, (mover, move) in enumerate(zip(rnd.movers, rnd.moves, strict=True)):
            if mover != seat:
                continue
            pos = rnd.positions[ply]
            found = pos.observe(seat).candidate_moves()
            if found.complete and len(found.moves) <= 1:
                forced += 1
                continue
            spots.append(_Spot(rnd.number, ply, pos, move, (rnd.number, ply) in hints,
                               takeover is not None and (rnd.number, ply) >= takeover))
    return spots, forced


def decision_rng(seed: int, round_number: int, ply: int) -> random.Random:
    """The generator of one decision's samples: the review's seed and the decision's
    place only, so a decision's samples do not depend on any other decision."""
    return random.Random(f"review:{seed}:{round_number}:{ply}")


def judge_decision(pos: Position, played: Move, *, ply: int = 0,
                   samples: int = DEFAULT_SAMPLES, seed: int = 0,
                   limit: Budget = DEFAULT_BUDGET, thresholds: Thresholds = DEFAULT_THRESHOLDS,
                   previous_margin: float | None = None, hinted: bool = False,
                   by_computer: bool = False) -> Decision:
    """The judged decision of ``pos``'s mover, who played ``played``, ``ply`` moves into
    its round; ``pos`` is the true, full position (the game is over).

    Everything but the hindsight is computed from ``pos.observe(mover)`` alone: the
    candidates, the sampled deals (from :func:`decision_rng`), the preferred move, the
    cost, its spread and the grade. Only :class:`Hindsight` is judged on ``pos``.
    ``previous_margin`` is the mover's expected margin at its previous judged decision
    of the round, for the swing."""
    rules = pos.rules
    seen = pos.observe(pos.to_move)
    cand = candidate_moves(seen, played)
    tables, depth, known = fair_judgement(seen, cand, samples,
                                          decision_rng(seed, pos.round, ply), limit)
    k = len(tables)
    means = [sum(t[i] for t in tables) / k for i in range(len(cand))]
    best = max(range(len(cand)), key=lambda i: (means[i], -i))
    chosen = cand.index(played)
    diffs = [t[best] - t[chosen] for t in tables]
    cost = rounded(max(0.0, sum(diffs) / k))
    # Hindsight: the one place the true hidden cards are used (when the seat could
    # deduce every card, the deal it judged is the true one).
    true_values = tables[0] if known else judge(pos, cand, limit)
    true_best = max(range(len(cand)), key=lambda i: (true_values[i], -i))
    margin = rounded(means[chosen])
    swing = rounded(margin - previous_margin) if previous_margin is not None else 0.0
    order = sorted(range(len(cand)), key=lambda i: (-means[i], i))
    kept = order[:OPTIONS_KEPT] + ([chosen] if chosen not in order[:OPTIONS_KEPT] else [])
    return Decision(
        round=pos.round, deal=pos.deal, ply=ply, move=str(played),
        words=move_phrase(played, rules), kind=played.kind, last_deal=pos.is_last_deal,
        preferred=str(cand[best]), preferred_words=move_phrase(cand[best], rules),
        cost=cost, spread=rounded(stdev(diffs)), grade=thresholds.grade(cost), samples=k,
        depth=depth, margin=margin, swing=swing, big_swing=abs(swing) >= BIG_SWING,
        hindsight=Hindsight(best=str(cand[true_best]),
                            best_words=move_phrase(cand[true_best], rules),
                            cost=rounded(max(0.0, true_values[true_best] - true_values[chosen]))),
        options=tuple(Option(str(cand[i]), move_phrase(cand[i], rules), rounded(means[i]))
                      for i in kept),
        leaves=leaves_words(seen, played), preferred_leaves=leaves_words(seen, cand[best]),
        hinted=hinted, by_computer=by_computer,
        position=json.dumps(seen.to_json(), separators=(",", ":"), ensure_ascii=False))


def leaves_words(pos: Position, move: Move) -> str:
    """What ``move`` leaves on the table for the next player, from the mover's view:
    ``leaves 5♠, 4♥ and the 8-build``, ``clears the table``."""
    loose, builds = table_after(pos, move)
    parts = ([cards_words(sorted(loose, reverse=True), ", ")] if loose else [])
    parts += [build_words(b, cards=False, kind=False) for b in builds]
    if not parts:
        return "clears the table"
    return "leaves " + listing(parts)


def stdev(xs: Sequence[float]) -> float:
    """The sample standard deviation (0 for fewer than two values)."""
    if len(xs) < 2:
        return 0.0
    mean = sum(xs) / len(xs)
    return math.sqrt(sum((x - mean) ** 2 for x in xs) / (len(xs) - 1))


def rounded(x: float) -> float:
    """``x`` rounded to :data:`DECIMALS` (and never ``-0.0``)."""
    return round(x, DECIMALS) + 0.0


def _summed(record: Record, seat: int, samples: int, seed: int, limit: Budget,
            thresholds: Thresholds, decisions: list[Decision], forced: int) -> Review:
    totals = []
    for kind in KINDS:
        mine = [d for d in decisions if _bucket(d) == kind]
        counts = [sum(1 for d in mine if d.grade == g) for g in GRADES]
        totals.append(KindTotal(kind, len(mine), rounded(sum(d.cost for d in mine)),
                                _four(counts)))
    ranked = sorted((i for i, d in enumerate(decisions) if d.cost > 0),
                    key=lambda i: (-decisions[i].cost, i))[:3]
    return Review(
        rules=record.rules.name, seat=seat, name=record.name(seat), samples=samples,
        seed=seed, depth=limit.depth, nodes=limit.nodes, thresholds=thresholds,
        decisions=tuple(decisions), forced=forced, totals=tuple(totals),
        costliest=tuple(ranked), advice=tuple(advice(decisions[i]) for i in ranked))


def _bucket(d: Decision) -> str:
    return LAST_DEAL if d.last_deal else KIND_OF[d.kind]


def advice(d: Decision) -> str:
    """The costliest decisions' sentence: what was played, what was better and by how
    much, each move with what it leaves on the table."""
    points = plural(1, "point") if d.cost == 1 else f"{d.cost:.1f} points"
    return (f"Round {d.round}, deal {d.deal}: you chose to {d.words}, which {d.leaves}; "
            f"better to {d.preferred_words}, which {d.preferred_leaves} "
            f"({points} better on average, ± {d.spread:.1f} over {d.samples} "
            f"{'deal' if d.samples == 1 else 'deals'} of the hidden cards).")


__all__ = [
    "BIG_SWING",
    "BLUNDER",
    "DEFAULT_BUDGET",
    "DEFAULT_SAMPLES",
    "DEFAULT_THRESHOLDS",
    "FORMAT",
    "GOOD",
    "GRADES",
    "INACCURACY",
    "KINDS",
    "MISTAKE",
    "Decision",
    "Hindsight",
    "KindTotal",
    "Option",
    "Review",
    "ReviewError",
    "Thresholds",
    "advice",
    "decision_rng",
    "default_seat",
    "judge_decision",
    "leaves_words",
    "review",
]

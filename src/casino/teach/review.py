"""The post-game review: each decision of one seat judged fairly, from what it saw.

For a finished game's record and a seat, :func:`review` takes every decision of that
seat that was a choice (a seat with one legal move is not judged) and, from **that
seat's observation at that moment** only (its hand, the table, the piles, the counts
of the other hands and the stock, and what builds tell about their owners' hands):

* judges the decision with the one judgement the hints and the move helper use too
  (:func:`casino.bots.judge.judgement`): the bounded candidate moves valued on K deals
  of the hidden cards sampled consistently with the observation, from a seed derived
  from the observation itself, so the deals are the very ones a hint at that moment
  judged; the *preferred* move, the best mean, is the hint's move there;
* says what the played move *costs* against it: the mean over the deals of the
  per-deal difference, in expected round points, with its interval (the mean ± two
  standard errors of that paired difference, :data:`casino.bots.judge.INTERVAL`), and
  grades it by :class:`Thresholds` from the interval's **lower end**, so that a cost
  within the judge's own noise is never graded an inaccuracy: a good move whose
  interval reaches zero reads *about as good* (as the best), :func:`verdict`;
* and, labelled *hindsight* because only the finished game can tell it, the cost
  on the true deal the record holds: the best move there less the played one.

The seat's expected round margin after each decision (the played move's mean value,
its points so far included) makes a graph, big swings marked; a summary names the
three costliest decisions with the better move in words and totals the costs by
kind of move (captures, builds, trails, and every move of the last deal).

Every search has a budget of work and the candidates are bounded, so a crowded
table costs polynomial work; the samples of each decision come from the decision's
observation (mixed with the review's ``seed``, 0 by default: the hint's deals), so the
same seed gives the same review, and a decision's grade does not depend on the other
decisions'. The
result is a frozen, JSON-able value (:meth:`Review.to_json`) that the command line,
the web replay page and the terminal game's end screen can all draw.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from casino.bots.judge import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    Budget,
    judgement,
    true_deal_values,
)
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.record import HINT, TAKEOVER, Record
from casino.i18n import _, format_number, ngettext, pgettext, pN_
from casino.teach.phrases import leaves_words
from casino.words.narrate import move_phrase

#: Version 2: each decision's cost has its interval (``low``, ``high``) and its words
#: (``verdict``), and the grade is taken from the interval's lower end.
FORMAT = "casino-review/2"

#: Sampled deals a review judges at least: one deal cannot tell its own noise, and the
#: grades stand on it.
MIN_SAMPLES = 2

GOOD, INACCURACY, MISTAKE, BLUNDER = "good", "inaccuracy", "mistake", "blunder"
GRADES = (GOOD, INACCURACY, MISTAKE, BLUNDER)
#: The words of a good move that the judge preferred another to by a cost within its
#: own noise (the cost's interval reaches zero): the two cannot be told apart.
ABOUT_AS_GOOD = "about as good"

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

    The cost graded is the lower end of the cost's interval (the mean less two
    standard errors, :data:`casino.bots.judge.INTERVAL`), what the move surely costs
    by the judge: below ``inaccuracy`` it is good; from ``inaccuracy`` an inaccuracy,
    from ``mistake`` a mistake, from ``blunder`` a blunder. docs/review.md says why
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
        """The grade of a move that costs at least ``cost`` points against the preferred
        one (the lower end of its cost's interval)."""
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
    move's value less the played move's, ``low`` to ``high`` the cost's interval (the
    mean ± two standard errors; the cost itself when the one deal judged is the one
    the seat could deduce, whose values are exact); ``grade`` is taken from ``low``
    and ``verdict`` is its words (:func:`verdict`). ``depth`` is the shallowest search
    among them (plies). ``margin`` is the seat's expected round margin after its move,
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
    low: float
    high: float
    grade: str
    verdict: str
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
    judge's ``limit``, drawn from the decision's observation mixed with ``seed`` (the
    same seed, the same review; the default 0 draws the deals a hint at that decision
    judged, :func:`casino.bots.judge.deals_rng`). ReviewError for a game that is not
    over (a live game's review would tell one seat what it cannot see yet), a seat
    the game does not have, or fewer than :data:`MIN_SAMPLES` deals."""
    rules = record.rules
    if not isinstance(seat, int) or not 0 <= seat < rules.players:
        raise ReviewError(_("seat %(seat)s is not a seat of this %(players)s-player game: "
                            "the seats are 0 to %(last)s") % {
            "seat": seat, "players": rules.players, "last": rules.players - 1})
    if not record.is_over:
        raise ReviewError(_("the game is not finished: only a finished game is reviewed "
                            "(a review tells what the other hands held)"))
    _check_samples(samples)
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


def _check_samples(samples: int) -> None:
    if samples < MIN_SAMPLES:
        raise ReviewError(_("a review judges %(least)s sampled deals or more (one deal "
                            "cannot tell its own noise), not %(samples)s") % {
            "least": MIN_SAMPLES, "samples": samples})


def judge_decision(pos: Position, played: Move, *, ply: int = 0,
                   samples: int = DEFAULT_SAMPLES, seed: int = 0,
                   limit: Budget = DEFAULT_BUDGET, thresholds: Thresholds = DEFAULT_THRESHOLDS,
                   previous_margin: float | None = None, hinted: bool = False,
                   by_computer: bool = False) -> Decision:
    """The judged decision of ``pos``'s mover, who played ``played``, ``ply`` moves into
    its round; ``pos`` is the true, full position (the game is over).

    Everything but the hindsight is :func:`casino.bots.judge.judgement` of
    ``pos.observe(mover)`` alone, the hint's own judgement at that moment (``seed`` 0):
    the candidates, the sampled deals, the preferred move, the cost, its interval and
    the grade. Only :class:`Hindsight` is judged on ``pos``. ``previous_margin`` is the
    mover's expected margin at its previous judged decision of the round, for the
    swing."""
    _check_samples(samples)
    rules = pos.rules
    seen = pos.observe(pos.to_move)
    j = judgement(seen, played, samples=samples, budget=limit, seed=seed)
    cand = j.moves
    means = j.means
    best = j.preferred
    chosen = cand.index(played)
    c = j.cost(chosen)
    cost, low, high = rounded(max(0.0, c.mean)), rounded(c.low), rounded(c.high)
    grade = thresholds.grade(low)
    # Hindsight: the one place the true hidden cards are used (when the seat could
    # deduce every card, the deal it judged is the true one), valued as the judgement
    # values its deals.
    true_values = list(j.tables[0]) if j.known else true_deal_values(
        pos, cand[:j.candidates], cand[j.candidates:], limit)
    true_best = max(range(len(cand)), key=lambda i: (true_values[i], -i))
    margin = rounded(means[chosen])
    swing = rounded(margin - previous_margin) if previous_margin is not None else 0.0
    order = list(j.order)
    kept = order[:OPTIONS_KEPT] + ([chosen] if chosen not in order[:OPTIONS_KEPT] else [])
    return Decision(
        round=pos.round, deal=pos.deal, ply=ply, move=str(played),
        words=move_phrase(played, rules), kind=played.kind, last_deal=pos.is_last_deal,
        preferred=str(cand[best]), preferred_words=move_phrase(cand[best], rules),
        cost=cost, spread=rounded(c.spread), low=low, high=high, grade=grade,
        verdict=verdict(grade, cost, low), samples=j.samples, depth=j.depth,
        margin=margin, swing=swing, big_swing=abs(swing) >= BIG_SWING,
        hindsight=Hindsight(best=str(cand[true_best]),
                            best_words=move_phrase(cand[true_best], rules),
                            cost=rounded(max(0.0, true_values[true_best] - true_values[chosen]))),
        options=tuple(Option(str(cand[i]), move_phrase(cand[i], rules), rounded(means[i]))
                      for i in kept),
        leaves=leaves_words(seen, played), preferred_leaves=leaves_words(seen, cand[best]),
        hinted=hinted, by_computer=by_computer,
        position=json.dumps(seen.to_json(), separators=(",", ":"), ensure_ascii=False))


def verdict(grade: str, cost: float, low: float) -> str:
    """A decision's grade in words: the grade, except a good move that the judge
    preferred another to (``cost`` above 0) by a cost whose interval reaches zero
    (``low``): that one is :data:`ABOUT_AS_GOOD` as the best, the judge cannot tell
    the two apart on the deals it judged."""
    return ABOUT_AS_GOOD if grade == GOOD and cost > 0 and low <= 0 else grade


def cost_words(cost: float, low: float, high: float) -> str:
    """A cost with its interval, one decimal: ``1.4 (−0.3 to 3.1)``; the cost alone when
    the interval is that one value (an exact judgement, or every deal alike). In the
    language in force."""
    if low == high:
        return _signed(cost)
    return _("%(cost)s (%(low)s to %(high)s)") % {
        "cost": _signed(cost), "low": _signed(low), "high": _signed(high)}


def _signed(x: float) -> str:
    """One decimal, as the language in force writes it (``1.4``, ``1,4``), with a minus
    sign (not a hyphen) below zero, and never ``-0.0``."""
    text = format_number(round(x, 1) + 0.0, 1)
    return text.replace("-", "\u2212")


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
    # The costliest: those that surely cost something (the interval above zero); a cost
    # within the judge's noise is no advice.
    ranked = sorted((i for i, d in enumerate(decisions) if d.low > 0),
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
    much (with the cost's interval), each move with what it leaves on the table; in the
    language in force (the moves' and the leaves' words are the decision's own)."""
    if d.cost == 1:
        values = {"points": format_number(1), "low": _signed(d.low),
                  "high": _signed(d.high), "deals": d.samples}
        n = 1
    else:
        values = {"points": format_number(d.cost, 1), "low": _signed(d.low),
                  "high": _signed(d.high), "deals": d.samples}
        n = 2
    if d.samples == 1:
        by = ngettext("%(points)s point better on the one deal the seat could deduce",
                      "%(points)s points better on the one deal the seat could deduce",
                      n) % values
    elif d.low == d.high:
        by = ngettext("%(points)s point better on each of %(deals)s deals of the hidden "
                      "cards", "%(points)s points better on each of %(deals)s deals of "
                      "the hidden cards", n) % values
    else:
        by = ngettext("%(points)s point better on average, %(low)s to %(high)s over "
                      "%(deals)s deals of the hidden cards", "%(points)s points better on "
                      "average, %(low)s to %(high)s over %(deals)s deals of the hidden "
                      "cards", n) % values
    return _("Round %(round)s, deal %(deal)s: you chose to %(played)s, which %(leaves)s; "
             "better to %(better)s, which %(better_leaves)s (%(by)s).") % {
        "round": d.round, "deal": d.deal, "played": d.words, "leaves": d.leaves,
        "better": d.preferred_words, "better_leaves": d.preferred_leaves, "by": by}


def grade_words(grade: str) -> str:
    """A grade or a verdict (:data:`GRADES`, :data:`ABOUT_AS_GOOD`) in the language in
    force; the data keeps the English word."""
    return pgettext("grade", _GRADE_WORDS.get(grade, grade))


#: The grades' and the verdict's words, marked for translation (translated where shown).
_GRADE_WORDS = {GOOD: pN_("grade", "good"), INACCURACY: pN_("grade", "inaccuracy"),
                MISTAKE: pN_("grade", "mistake"), BLUNDER: pN_("grade", "blunder"),
                ABOUT_AS_GOOD: pN_("grade", "about as good")}


__all__ = [
    "ABOUT_AS_GOOD",
    "BIG_SWING",
    "BLUNDER",
    "DEFAULT_THRESHOLDS",
    "FORMAT",
    "GOOD",
    "GRADES",
    "INACCURACY",
    "KINDS",
    "MIN_SAMPLES",
    "MISTAKE",
    "Decision",
    "Hindsight",
    "KindTotal",
    "Option",
    "Review",
    "ReviewError",
    "Thresholds",
    "advice",
    "cost_words",
    "default_seat",
    "grade_words",
    "judge_decision",
    "leaves_words",
    "review",
    "rounded",
    "verdict",
]

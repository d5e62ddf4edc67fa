"""Hints that explain: a turn's plays ranked by the fair judgement, each with its reason.

:func:`advise` takes the **observation** of the player to move (never the full
position: it observes whatever it is given again, so hidden cards cannot reach it)
and:

* judges the decision with the one judgement the post-game review and the move helper
  use too (:func:`casino.bots.judge.judgement`): the bounded candidate moves valued on
  K deals of the hidden cards sampled consistently with the observation, from a seed
  derived from the observation itself, each with the judge's search; the plays are
  ranked by their mean value, the expected round margin after them. So the play ranked
  first is the move the review of that decision prefers, judged on the same deals;
* says for each play **what it takes and scores now**: the cards it takes, those
  of them that score by themselves (the ruleset's scoring data,
  :func:`casino.engine.scheme.scheme`), a sweep where the engine scores one, and
  what the move secures now by the bots' measure
  (:func:`casino.bots.evaluation.immediate_gain`: the points cards, the sweep or
  mulle, and the cards' share of the majorities still open);
* **what it leaves the next player**: on each of the first of the same sampled deals
  (:data:`REPLY_DEALS`), the next
  player's best immediate reply after the play (among their bounded candidates,
  by the same measure of what a move secures now), reported as the mean worth of
  that best reply over the deals and the reply that was best most often, named by
  the table items it uses (never by the card from the sampled hand, which is a
  guess, not a seen card);
* and **the margin**: the play's mean value less the best other play's (for the
  best play, how much better it is than the next best; for the others, a negative
  number: how far behind the best), with its spread over the deals.

Everything is bounded (at most :data:`~casino.bots.judge.MAX_CANDIDATES` plays,
a budget of work per search, bounded replies), and the samples come from the
observation (mixed with ``seed``, 0 by default, as the review's), so the same
observation gives the same advice. The
result is a frozen, JSON-able value (:meth:`Advice.to_json`) with the reason of
each play in words (:attr:`RankedPlay.reason`): the web game's hint, the
terminal game's hint and the move helper show it.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import asdict, dataclass, field
from typing import Any

from casino.bots.evaluation import immediate_gain
from casino.bots.judge import (
    DEFAULT_BUDGET,
    DEFAULT_SAMPLES,
    MAX_CANDIDATES,
    PYTHON_SAMPLES,
    Budget,
    judgement,
)
from casino.engine.builds import Build
from casino.engine.cards import card_symbol, card_text, parse_card
from casino.engine.moves import ADD, BUILD, CAPTURE, RAISE, TRAIL, Move
from casino.engine.position import Position
from casino.engine.rules import Rules
from casino.engine.scheme import scheme
from casino.engine.wording import listing
from casino.i18n import _, ngettext, pgettext, using
from casino.play.session import BotJob, GameSession
from casino.teach.phrases import item_object, leaves_words, points_words, shown_points
from casino.teach.review import rounded
from casino.words.narrate import move_phrase

FORMAT = "casino-advice/1"

#: How hard a hint thinks at each player level (the web server's and the terminal
#: game's ``hint_level``): deals judged and the judge's budget per deal. The expert
#: level, the default, is the shared judgement (the review's and the move helper's:
#: :data:`casino.bots.judge.DEFAULT_SAMPLES`, :data:`~casino.bots.judge.DEFAULT_BUDGET`),
#: so its hint is the review's preferred move; the others are quicker and rougher, and
#: the review may prefer another move than theirs.
EFFORT: dict[str, tuple[int, Budget]] = {
    "beginner": (1, Budget(depth=2, nodes=100)),
    "easy": (2, Budget(depth=4, nodes=200)),
    "medium": (3, Budget(depth=6, nodes=400)),
    "hard": (4, Budget(depth=8, nodes=800)),
    "expert": (DEFAULT_SAMPLES, DEFAULT_BUDGET),
}

#: Decimals kept of every value.
DECIMALS = 3
#: The deals on which the next player's best reply is looked for: the judgement's first
#: ones. Each costs the next player's candidates and their immediate gains in Python,
#: milliseconds a deal, so all of the judgement's 64 would make a hint slow; the reply
#: reports how many deals it saw (:attr:`Reply.deals`).
REPLY_DEALS = PYTHON_SAMPLES


@dataclass(frozen=True)
class Reply:
    """What a play leaves the next player, over the sampled deals where they play next.

    ``worth`` is the mean, over those ``deals``, of their best immediate reply's
    worth to them now (the bots' measure of what a move secures now); ``most`` is the
    most it was worth on one deal. ``words`` and ``items`` name the reply that was
    best on the most deals (``count`` of them): its kind and the table items it uses
    (cards in notation, a build as its notation), without the card played from the
    sampled hand. ``seat`` is the next player."""

    seat: int
    worth: float
    most: float
    kind: str
    items: tuple[str, ...]
    words: str
    count: int
    deals: int


@dataclass(frozen=True)
class RankedPlay:
    """One play, ranked: its mean ``value`` (the expected round margin after it, over
    the sampled deals), ``margin`` over the best other play (negative: behind the
    best) and that margin's ``spread`` (its standard deviation over the deals); what
    it ``takes`` (cards in notation, the played card first, for a capture), the
    ``point_cards`` among them and their ``card_points`` (in the scheme's sign:
    penalty points in Krypkasino), whether it scores a ``sweep``, its worth ``now``
    (:func:`casino.bots.evaluation.immediate_gain`), what it ``leaves`` on the table,
    the next player's ``reply`` (None when nobody plays after it this round), and
    the ``reason`` in words."""

    move: str
    words: str
    value: float
    margin: float
    spread: float
    takes: tuple[str, ...]
    point_cards: tuple[str, ...]
    card_points: int
    sweep: bool
    now: float
    leaves: str
    reply: Reply | None
    reason: str


@dataclass(frozen=True)
class Advice:
    """The plays of one turn, best first, each with its reason.

    ``samples`` deals were judged (one when the player could deduce every card:
    ``known``), the judge searching ``budget_depth`` plies at most and ``nodes`` of
    work per search; ``depth`` is the shallowest depth any search reached. ``complete``
    says whether the plays ranked are every legal play (a crowded table's are a
    bounded selection)."""

    rules: str
    seat: int
    seed: int
    samples: int
    known: bool
    budget_depth: int
    nodes: int
    depth: int
    complete: bool
    plays: tuple[RankedPlay, ...]
    format: str = field(default=FORMAT)

    @property
    def best(self) -> RankedPlay:
        """The play ranked first."""
        return self.plays[0]

    def play(self, move: Move | str) -> RankedPlay | None:
        """The ranked play of ``move`` (its notation), None if it was not ranked."""
        text = str(move)
        return next((p for p in self.plays if p.move == text), None)

    def to_json(self) -> dict[str, Any]:
        """The advice as JSON-able data."""
        return asdict(self)

    @staticmethod
    def from_json(data: Any) -> Advice:
        """The advice that :meth:`to_json` gave; ValueError for anything else."""
        try:
            if data.get("format") != FORMAT:
                raise ValueError(f"not a {FORMAT} advice")
            plays = []
            for p in data["plays"]:
                fields = dict(p)
                fields["takes"] = tuple(p["takes"])
                fields["point_cards"] = tuple(p["point_cards"])
                r = p["reply"]
                fields["reply"] = None if r is None else Reply(**{**r,
                                                                 "items": tuple(r["items"])})
                plays.append(RankedPlay(**fields))
            return Advice(**{**data, "plays": tuple(plays)})
        except (KeyError, TypeError, AttributeError) as exc:
            raise ValueError(f"not a {FORMAT} advice: {exc!r}") from None


# ----------------------------------------------------------------------
# Advising


def advise(pos: Position, *, seed: int = 0, samples: int = DEFAULT_SAMPLES,
           budget: Budget = DEFAULT_BUDGET, extra: Move | None = None,
           moves: Sequence[Move] | None = None) -> Advice:
    """The plays of ``pos``'s player to move, ranked by the fair judgement, with reasons.

    ``pos`` is that player's observation (a full position is observed first, so
    nothing hidden from the player is used). The plays are ``moves`` when given (at
    most :data:`~casino.bots.judge.MAX_CANDIDATES` of them are judged), else the
    bounded candidates; ``extra`` is judged too, apart on the same deals when it is not
    among them (the move helper's computer pick), so it changes nothing of the others'
    values. It is :func:`casino.bots.judge.judgement`: ``samples`` deals of the hidden
    cards drawn from the observation and ``seed`` (0, the default, is the review's),
    each judged with ``budget``."""
    return _advise(pos, seed, samples, budget, extra, moves)[0]


def _advise(pos: Position, seed: int, samples: int, budget: Budget, extra: Move | None,
            moves: Sequence[Move] | None) -> tuple[Advice, list[Move]]:
    """:func:`advise`, and the plays ranked as moves, best first."""
    if samples < 1:
        raise ValueError(f"a hint judges one sampled deal or more, not {samples}")
    seat = pos.to_move
    seen = pos.observe(seat)
    j = judgement(seen, extra, moves=moves, samples=samples, budget=budget, seed=seed)
    cand = j.moves
    complete = False
    if moves is None:
        found = seen.candidate_moves()
        complete = found.complete and len(cand) == len(found.moves)
    means = j.means
    order = j.order
    best = order[0]
    second = order[1] if len(order) > 1 else None
    plays = []
    for i in order:
        rival = (second if i == best else best)
        if rival is None:
            margin, spread = 0.0, 0.0
        else:
            diff = j.difference(i, rival)
            margin, spread = diff.mean, diff.spread
        plays.append(_ranked(seen, j.deals, cand[i], means[i], margin, spread,
                             None if rival is None else cand[rival], i == best))
    advice = Advice(rules=seen.rules.name, seat=seat, seed=seed, samples=j.samples,
                    known=j.known, budget_depth=budget.depth, nodes=budget.nodes,
                    depth=j.depth, complete=complete, plays=tuple(plays))
    return advice, [cand[i] for i in order]


def advise_job(job: BotJob) -> Advice:
    """The advice for a hint job (:meth:`casino.play.session.GameSession.hint_job`):
    its observation and the effort of its level (:data:`EFFORT`). The job's seed is not
    used: the deals come from the observation, so that the hint is the judgement the
    review of this decision makes. The reasons are written in the job's language."""
    samples, budget = EFFORT.get(job.level, EFFORT["expert"])
    with using(job.lang):  # the reasons in the asker's language
        return advise(Position.from_json(job.observation), samples=samples, budget=budget)


def session_hint(session: GameSession, seat: int | None = None) -> tuple[Move, Advice]:
    """The explained hint for the person at ``seat`` of ``session`` (default: its
    person): the advice from their observation (:meth:`GameSession.hint_job`, which
    refuses when hints are off or it is not their turn) and the play it ranks first.
    Call ``session.hint_given`` once it is shown."""
    job = session.hint_job(seat)
    advice = advise_job(job)
    view = session.view_of(session.human if seat is None else seat)
    return view.parse_move(advice.best.move), advice


def rank_plays(pos: Position, moves: Sequence[Move] | None = None,
               extra: Move | None = None) -> list[tuple[Move, float, str]]:
    """The move helper's judge (``casino.tools.helper.Rank``): :func:`advise` on the
    observation ``pos``, as (move, value, reason), best first: the hint's own judgement
    (its deals, its budget), so that the helper's first play is the hint's. ``moves``:
    judge these (the first :data:`~casino.bots.judge.MAX_CANDIDATES` of them), else
    the bounded candidates; and ``extra``."""
    plays = list(moves)[:MAX_CANDIDATES] if moves is not None else None
    advice, ranked = _advise(pos, 0, DEFAULT_SAMPLES, DEFAULT_BUDGET, extra, plays)
    return [(m, p.value, p.reason) for m, p in zip(ranked, advice.plays, strict=True)]


def run_hint_job(job: BotJob) -> str:
    """:func:`advise_job` as JSON text (what a worker process sends back)."""
    return json.dumps(advise_job(job).to_json(), ensure_ascii=False)


def _ranked(seen: Position, deals: Sequence[Position], move: Move, value: float,
            margin: float, spread: float, rival: Move | None, best: bool) -> RankedPlay:
    rules = seen.rules
    sch = scheme(rules)
    taken: list[int] = []
    if move.kind == CAPTURE:
        taken = [move.card, *move.loose]
        for b in move.builds:
            taken.extend(b.cards)
    points = [c for c in taken if sch.points_of(c)]
    card_points = sum(sch.points_of(c) for c in points)
    made = _sweeps_made(deals[0], move)
    reply = _reply(deals[:REPLY_DEALS], move)
    now = immediate_gain(seen, move)
    play = RankedPlay(
        move=str(move), words=move_phrase(move, rules), value=rounded(value),
        margin=rounded(margin),
        spread=rounded(spread), takes=tuple(card_text(c) for c in taken),
        point_cards=tuple(card_text(c) for c in points), card_points=card_points,
        sweep=made > 0, now=rounded(now), leaves=leaves_words(seen, move), reply=reply,
        reason="")
    return RankedPlay(**{**asdict(play), "reply": reply,
                         "reason": reason_words(play, seen, made, rival, best)})


def _sweeps_made(deal: Position, move: Move) -> int:
    """The sweeps ``move`` scores (0, 1, or 2 for a double), by the engine's own rule;
    none where the rules give a sweep no points. Only the mover's visible cards and
    the counts decide it, so any deal consistent with the observation says the same."""
    if move.kind != CAPTURE or not deal.rules.sweep_points:
        return 0
    after = deal.successor(move)
    if after.round != deal.round:
        return 0
    return len(after.sweeps) - len(deal.sweeps)


def _reply(deals: Sequence[Position], move: Move) -> Reply | None:
    """The next player's best immediate reply to ``move`` on each deal, summed up."""
    worths: list[float] = []
    tally: dict[tuple[str, tuple[str, ...]], list[float]] = {}
    first: dict[tuple[str, tuple[str, ...]], str] = {}
    seat = None
    for deal in deals:
        after = deal.successor(move)
        if after.result is not None or after.round != deal.round:
            continue
        replies = after.candidate_moves().moves
        if not replies:
            continue
        gains = [immediate_gain(after, r) for r in replies]
        top = max(range(len(replies)), key=lambda j: (gains[j], -j))
        r = replies[top]
        seat = after.to_move
        worths.append(gains[top])
        used: list[int | Build] = [*r.loose, *r.builds]
        key = (r.kind, tuple(sorted(_item_text(x) for x in used)))
        tally.setdefault(key, []).append(gains[top])
        first.setdefault(key, reply_words(after, r))
    if seat is None:
        return None
    # The reply named: the one that wins the next player most over the deals (the
    # biggest threat), then the one best most often.
    key = max(tally, key=lambda k: (sum(tally[k]), len(tally[k])))
    return Reply(seat=seat, worth=rounded(sum(worths) / len(worths)), most=rounded(max(worths)),
                 kind=key[0], items=key[1], words=first[key], count=len(tally[key]),
                 deals=len(worths))


def _item_text(x: int | Build) -> str:
    return card_text(x) if isinstance(x, int) else x.text()


# ----------------------------------------------------------------------
# Words


def reply_words(pos: Position, move: Move) -> str:
    """A reply named by what it does to the table, never by the card played from the
    (sampled) hand: ``take 5♠ and 4♥, clearing the table``, ``make a build of 8 with
    3♣``, ``add to the 8-build``, ``trail a card``; in the language in force."""
    used: list[int | Build] = [*move.loose, *move.builds]
    items = listing([item_object(x) for x in used])
    if move.kind == CAPTURE:
        cleared = len(move.loose) + len(move.builds) == len(pos.table)
        return (_("take %(items)s, clearing the table") if cleared
                else _("take %(items)s")) % {"items": items}
    if move.kind == BUILD:
        return (_("make a build of %(value)s with %(items)s") if items
                else _("make a build of %(value)s")) % {"value": move.value, "items": items}
    if move.kind in (ADD, RAISE) and move.builds:
        target = {"value": move.builds[0].value}
        return (_("raise the %(value)s-build") if move.kind == RAISE
                else _("add to the %(value)s-build")) % target
    if move.kind in (ADD, RAISE):
        return pgettext("reply", "raise") if move.kind == RAISE else pgettext("reply",
                                                                              "add to")
    if move.kind == TRAIL:
        return _("trail a card")
    return move.kind


def _worth(x: float) -> str:
    """``is worth 1 point``, ``costs 2.4 points``."""
    if x < 0:
        text, n = shown_points(-x)
        return ngettext("costs %(points)s point", "costs %(points)s points", n) % {
            "points": text}
    text, n = shown_points(x)
    return ngettext("is worth %(points)s point", "is worth %(points)s points", n) % {
        "points": text}


def _symbols(cards: Sequence[str]) -> str:
    return listing([card_symbol_of(c) for c in cards])


def _point_cards(play: RankedPlay, penalty: bool) -> str:
    """``, the point card 10♦ (2 points)``: the cards that score by themselves."""
    n = len(play.point_cards)
    values = {"cards": _symbols(play.point_cards), "points": (ngettext(
        "%(points)s penalty point", "%(points)s penalty points", play.card_points)
        if penalty else ngettext("%(points)s point", "%(points)s points",
                                 play.card_points)) % {"points": play.card_points}}
    if penalty:
        return ngettext(", the penalty card %(cards)s (%(points)s)",
                        ", the penalty cards %(cards)s (%(points)s)", n) % values
    return ngettext(", the point card %(cards)s (%(points)s)",
                    ", the point cards %(cards)s (%(points)s)", n) % values


def _sweeps(rules: Rules, made: int) -> str:
    """``, and scores a sweep``; a double sweep; a penalty sweep with its points."""
    if scheme(rules).penalty:
        points = made * rules.sweep_points
        return (ngettext(", and scores a double sweep: %(points)s penalty point",
                         ", and scores a double sweep: %(points)s penalty points", points)
                if made > 1 else
                ngettext(", and scores a sweep: %(points)s penalty point",
                         ", and scores a sweep: %(points)s penalty points", points)
                ) % {"points": points}
    return _(", and scores a double sweep") if made > 1 else _(", and scores a sweep")


def _now_words(play: RankedPlay, rules: Rules, made: int) -> str:
    """The reason's first sentence: what the play takes and scores now, what it is
    worth now and what it leaves."""
    if play.takes:
        what = _("It takes %(cards)s") % {"cards": _symbols(play.takes)}
        if play.point_cards:
            what += _point_cards(play, scheme(rules).penalty)
        if made:
            what += _sweeps(rules, made)
        return _("%(what)s; it %(worth)s now and %(leaves)s.") % {
            "what": what, "worth": _worth(play.now), "leaves": play.leaves}
    if play.now:
        return _("It takes nothing; it %(worth)s now and %(leaves)s.") % {
            "worth": _worth(play.now), "leaves": play.leaves}
    return _("It takes nothing now and %(leaves)s.") % {"leaves": play.leaves}


def _reply_sentence(r: Reply | None) -> str:
    """The reason's second sentence: the next player's best reply and its worth."""
    if r is None:
        return _("Nobody plays after it this round.")
    over = ngettext("over %(deals)s deal of the hidden cards",
                    "over %(deals)s deals of the hidden cards", r.deals) % {"deals": r.deals}
    if r.worth == 0 and r.most == 0:
        return _("The next player can win nothing back at once (%(over)s).") % {
            "over": over}
    return _("The next player's best reply %(worth)s to them on average %(over)s (for "
             "example to %(reply)s, their best on %(count)s of them).") % {
        "worth": _worth(r.worth), "over": over, "reply": r.words, "count": r.count}


def _judge_sentence(play: RankedPlay, rules: Rules, rival: Move | None, best: bool) -> str:
    """The reason's third sentence: the play's margin by the judge."""
    if rival is None:
        return _("It is the only play.")
    values = {"other": pgettext("hint", "the next best") if best
              else pgettext("hint", "the best"), "move": move_phrase(rival, rules)}
    if play.margin == 0:
        return _("By the judge it is as good as %(other)s, to %(move)s.") % values
    text, n = shown_points(abs(play.margin))
    values["points"] = text
    if play.margin > 0:
        return ngettext("By the judge it is %(points)s point better on average than "
                        "%(other)s, to %(move)s.",
                        "By the judge it is %(points)s points better on average than "
                        "%(other)s, to %(move)s.", n) % values
    return ngettext("By the judge it is %(points)s point worse on average than "
                    "%(other)s, to %(move)s.",
                    "By the judge it is %(points)s points worse on average than "
                    "%(other)s, to %(move)s.", n) % values


def reason_words(play: RankedPlay, seen: Position, made: int, rival: Move | None,
                 best: bool) -> str:
    """The play's reason, in the language in force: what it takes and scores now and
    what it leaves on the table; the next player's best reply and its worth; its
    margin by the judge::

        It takes 10♦, 5♠ and 5♥, the point card 10♦ (2 points), and scores a sweep; it
        is worth 3.4 points now and clears the table. The next player's best reply is
        worth 0.2 points to them on average over 8 deals of the hidden cards (for
        example to take 9♣, their best on 1 of them). By the judge it is 1.6 points better on
        average than the next best, to take 5♥ with the 5♠.
    """
    rules = seen.rules
    return " ".join((_now_words(play, rules, made), _reply_sentence(play.reply),
                     _judge_sentence(play, rules, rival, best)))


def card_symbol_of(text: str) -> str:
    """A card's notation (``Td``) as its symbol (``10♦``)."""
    return card_symbol(parse_card(text))


__all__ = [
    "EFFORT",
    "FORMAT",
    "Advice",
    "RankedPlay",
    "Reply",
    "advise",
    "advise_job",
    "points_words",
    "rank_plays",
    "reason_words",
    "reply_words",
    "run_hint_job",
    "session_hint",
]

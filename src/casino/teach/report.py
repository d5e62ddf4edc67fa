"""A review in words: the report that ``casino review`` prints and the terminal game's
plain end screen shows, and the graph of a round's expected margin.

One place for these words, so the command and the games say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.bots.judge import INTERVAL
from casino.engine.record import Record
from casino.engine.wording import plural
from casino.teach.review import (
    ABOUT_AS_GOOD,
    BIG_SWING,
    BLUNDER,
    GOOD,
    GRADES,
    INACCURACY,
    MISTAKE,
    Decision,
    Review,
    cost_words,
)

#: The marks of a big swing of the expected margin (up, down).
UP, DOWN = "▲", "▼"


#: What a cost and its grade mean, under every report (and the terminal game's review).
COST_NOTE = (f"cost: expected round points lost against the preferred move, and in brackets "
             f"the interval the deals judged allow (± {INTERVAL:g} standard errors); a "
             f"grade worse than good needs the whole interval at its threshold or above, "
             f"and a good move whose interval reaches zero is {ABOUT_AS_GOOD} as the best.")


def report_lines(r: Review, record: Record) -> list[str]:
    """The review as the terminal shows it."""
    counts = r.grade_counts()
    about = sum(1 for d in r.decisions if d.verdict == ABOUT_AS_GOOD)
    who = r.name if r.name == f"seat {r.seat}" else f"{r.name} (seat {r.seat})"
    deals = ("the same deals a hint there judged" if r.seed == 0 else
             f"seed {r.seed}, so not the deals a hint there judged")
    good = f"{counts[GOOD]} good" + (f" ({about} of them {ABOUT_AS_GOOD} as the best)"
                                    if about else "")
    lines = [
        f"Review of {who}, {r.rules}, "
        f"{plural(len(record.rounds), 'round')}: {plural(len(r.decisions), 'decision')} "
        f"judged, {plural(r.forced, 'forced move')} not judged.",
        f"Each decision is judged from what seat {r.seat} saw then: {r.samples} deals of "
        f"the hidden cards consistent with it, each searched {r.depth} plies at most "
        f"({r.nodes} nodes); {deals}.",
        f"Grades: {good}, "
        f"{plural(counts[INACCURACY], 'inaccuracy', 'inaccuracies')}, "
        f"{plural(counts[MISTAKE], 'mistake')}, {plural(counts[BLUNDER], 'blunder')}; "
        f"{r.cost:.1f} expected points lost in all.",
    ]
    width = max((len(d.move) for d in r.decisions), default=4)
    better = max((len(d.preferred) for d in r.decisions if d.cost > 0), default=6)
    grades = max(len(w) for w in (*GRADES, ABOUT_AS_GOOD))
    costs = {id(d): cost_words(d.cost, d.low, d.high) for d in r.decisions}
    cw = max((len(c) for c in costs.values()), default=4)
    head = (f"  {'move':>4} {'deal':>4}  {'played':<{width}}  {'grade':<{grades}} "
            f"{'cost':<{cw}}  {'better':<{better}}  {'margin':>6}    {'hindsight':>9}")
    current = None
    for d in r.decisions:
        if d.round != current:
            current = d.round
            lines += ["", f"Round {d.round}", head]
        mark = (UP if d.swing > 0 else DOWN) if d.big_swing else " "
        pref = d.preferred if d.cost > 0 else ""
        flags = " (computer)" if d.by_computer else " (hint)" if d.hinted else ""
        lines.append(f"  {d.ply + 1:>4} {d.deal:>4}  {d.move:<{width}}  "
                     f"{d.verdict:<{grades}} {costs[id(d)]:<{cw}}  {pref:<{better}}  "
                     f"{d.margin:>+6.1f} {mark}  {d.hindsight.cost:>9.2f}{flags}")
    if r.advice:
        lines += ["", "The costliest decisions:"]
        lines += [f"  {k}. {a}" for k, a in enumerate(r.advice, start=1)]
    lines += ["", "By kind of move (the last deal's moves apart):"]
    for t in r.totals:
        lines.append(f"  {t.kind:<10} {plural(t.decisions, 'decision'):>13}, "
                     f"{t.cost:5.2f} points lost")
    lines += ["", COST_NOTE + f" margin: the seat's expected round margin "
                  f"after its move, {UP}{DOWN} a swing of {BIG_SWING:.0f} points or more since "
                  f"its previous decision; hindsight: the cost on the true deal, which "
                  f"the seat could not see."]
    return lines


def margin_graph(decisions: Sequence[Decision], height: int = 6) -> list[str]:
    """A bar chart of the expected round margin after each of ``decisions`` (one round's),
    one column per decision: bars up from the zero line for a lead, down for a deficit,
    and a row under it marking the big swings (▲ ▼).

    >>> from casino.teach.report import margin_graph
    >>> margin_graph([])
    []
    """
    if not decisions:
        return []
    values = [d.margin for d in decisions]
    hi, lo = max(0.0, *values), min(0.0, *values)
    span = (hi - lo) or 1.0
    # Rows above and below the zero line in proportion to the lead and the deficit
    # shown, at least one on a side that has a bar.
    up = max(1 if hi > 0 else 0, round(height * hi / span))
    down = max(1 if lo < 0 else 0, height - up)
    up = max(up, height - down) if hi > 0 else 0
    rows: list[tuple[str, str]] = []
    for r in range(up):
        step = hi / up
        top, bottom = hi - r * step, hi - (r + 1) * step
        rows.append((f"{hi:+.1f}" if r == 0 else "",
                     "".join(_cell(v, bottom, top, step) for v in values)))
    rows.append(("0", "".join("┼" if v == 0 else "─" for v in values)))
    for r in range(down):
        step = -lo / down
        top, bottom = -r * step, -(r + 1) * step
        rows.append((f"{lo:+.1f}" if r == down - 1 else "",
                     "".join(_cell(v, bottom, top, step) for v in values)))
    pad = max(len(label) for label, _ in rows)
    lines = [f"{label:>{pad}} │{cells}" for label, cells in rows]
    marks = "".join((UP if d.swing > 0 else DOWN) if d.big_swing else " " for d in decisions)
    lines.append(f"{'':>{pad}} └{marks}")
    return lines


def _cell(value: float, bottom: float, top: float, step: float) -> str:
    """One cell of a bar from zero to ``value`` in the row from ``bottom`` to ``top``: a
    full block, a half block where the bar covers half of it, or nothing."""
    low, high = min(0.0, value), max(0.0, value)
    middle = (top + bottom) / 2
    upper = min(high, top) - max(low, middle) >= step / 4
    lower = min(high, middle) - max(low, bottom) >= step / 4
    return "█" if upper and lower else "▀" if upper else "▄" if lower else " "


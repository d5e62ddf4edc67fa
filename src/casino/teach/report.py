"""A review in words: the report that ``casino review`` prints and the terminal game's
plain end screen shows, and the graph of a round's expected margin.

One place for these words, so the command and the games say the same thing.
"""

from __future__ import annotations

from collections.abc import Sequence

from casino.bots.judge import INTERVAL
from casino.engine.record import Record
from casino.i18n import _, format_number, ngettext, pgettext, pN_
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
    advice,
    cost_words,
    grade_words,
)

#: The marks of a big swing of the expected margin (up, down).
UP, DOWN = "▲", "▼"


def cost_note() -> str:
    """What a cost and its grade mean, under every report (and the terminal game's
    review), in the language in force."""
    return _("cost: expected round points lost against the preferred move, and in "
             "brackets the interval the deals judged allow (± %(interval)s standard "
             "errors); a grade worse than good needs the whole interval at its threshold "
             "or above, and a good move whose interval reaches zero is about as good as "
             "the best.") % {"interval": format_number(INTERVAL) if INTERVAL % 1 == 0
                             else f"{INTERVAL:g}"}


def kind_words(kind: str) -> str:
    """A kind of the review's totals (:data:`casino.teach.review.KINDS`) in the language
    in force."""
    return pgettext("review kind", _KIND_WORDS.get(kind, kind))


#: The totals' kinds, marked for translation.
_KIND_WORDS = {"captures": pN_("review kind", "captures"),
               "builds": pN_("review kind", "builds"),
               "trails": pN_("review kind", "trails"),
               "last deal": pN_("review kind", "last deal")}


def _heads(r: Review, rounds: int) -> list[str]:
    """The report's first three lines: whose review, how it judged, the grades (the
    game had ``rounds`` rounds)."""
    counts = r.grade_counts()
    about = sum(1 for d in r.decisions if d.verdict == ABOUT_AS_GOOD)
    # A record without names calls a seat "seat N", in English: said in the language.
    who = (_("seat %(seat)s") % {"seat": r.seat} if r.name == f"seat {r.seat}" else
           _("%(name)s (seat %(seat)s)") % {"name": r.name, "seat": r.seat})
    deals = (_("the same deals a hint there judged") if r.seed == 0 else
             _("seed %(seed)s, so not the deals a hint there judged") % {"seed": r.seed})
    good = ngettext("%(n)s good", "%(n)s good", counts[GOOD]) % {"n": counts[GOOD]}
    if about:
        good += " " + ngettext("(%(n)s of them about as good as the best)",
                               "(%(n)s of them about as good as the best)",
                               about) % {"n": about}
    return [
        _("Review of %(who)s, %(rules)s, %(rounds)s: %(decisions)s judged, %(forced)s not "
          "judged.") % {
            "who": who, "rules": r.rules,
            "rounds": ngettext("%(n)s round", "%(n)s rounds", rounds) % {"n": rounds},
            "decisions": ngettext("%(n)s decision", "%(n)s decisions",
                                  len(r.decisions)) % {"n": len(r.decisions)},
            "forced": ngettext("%(n)s forced move", "%(n)s forced moves",
                               r.forced) % {"n": r.forced}},
        _("Each decision is judged from what seat %(seat)s saw then: %(samples)s deals of "
          "the hidden cards consistent with it, each searched %(depth)s plies at most "
          "(%(nodes)s nodes); %(deals)s.") % {
            "seat": r.seat, "samples": r.samples, "depth": r.depth,
            "nodes": r.nodes, "deals": deals},
        _("Grades: %(good)s, %(inaccuracies)s, %(mistakes)s, %(blunders)s; %(cost)s "
          "expected points lost in all.") % {
            "good": good,
            "inaccuracies": ngettext("%(n)s inaccuracy", "%(n)s inaccuracies",
                                     counts[INACCURACY]) % {"n": counts[INACCURACY]},
            "mistakes": ngettext("%(n)s mistake", "%(n)s mistakes",
                                 counts[MISTAKE]) % {"n": counts[MISTAKE]},
            "blunders": ngettext("%(n)s blunder", "%(n)s blunders",
                                 counts[BLUNDER]) % {"n": counts[BLUNDER]},
            "cost": format_number(r.cost, 1)},
    ]


def report_lines(r: Review, record: Record) -> list[str]:
    """The review as the terminal shows it, in the language in force."""
    lines = _heads(r, len(record.rounds))
    labels = {k: pgettext("review column", k) for k in COLUMNS}
    width = max((len(d.move) for d in r.decisions), default=4)
    better = max((len(d.preferred) for d in r.decisions if d.cost > 0), default=6)
    grades = max(len(grade_words(w)) for w in (*GRADES, ABOUT_AS_GOOD))
    costs = {id(d): cost_words(d.cost, d.low, d.high) for d in r.decisions}
    cw = max((len(c) for c in costs.values()), default=4)
    mw, dw = max(4, len(labels["move"])), max(4, len(labels["deal"]))
    gw, hw = max(6, len(labels["margin"])), max(9, len(labels["hindsight"]))
    head = (f"  {labels['move']:>{mw}} {labels['deal']:>{dw}}  {labels['played']:<{width}}"
            f"  {labels['grade']:<{grades}} {labels['cost']:<{cw}}  "
            f"{labels['better']:<{better}}  {labels['margin']:>{gw}}    "
            f"{labels['hindsight']:>{hw}}")
    current = None
    for d in r.decisions:
        if d.round != current:
            current = d.round
            lines += ["", _("Round %(round)s") % {"round": d.round}, head]
        mark = (UP if d.swing > 0 else DOWN) if d.big_swing else " "
        pref = d.preferred if d.cost > 0 else ""
        flags = (" " + _("(computer)") if d.by_computer else
                 " " + _("(hint)") if d.hinted else "")
        lines.append(f"  {d.ply + 1:>{mw}} {d.deal:>{dw}}  {d.move:<{width}}  "
                     f"{grade_words(d.verdict):<{grades}} {costs[id(d)]:<{cw}}  "
                     f"{pref:<{better}}  {number(d.margin, 1, sign=True):>{gw}} {mark}  "
                     f"{number(d.hindsight.cost, 2):>{hw}}{flags}")
    if r.costliest:
        lines += ["", _("The costliest decisions:")]
        lines += [f"  {k}. {advice(r.decisions[i])}"
                  for k, i in enumerate(r.costliest, start=1)]
    lines += ["", _("By kind of move (the last deal's moves apart):")]
    kinds = max([10, *(len(kind_words(t.kind)) for t in r.totals)])
    for t in r.totals:
        lines.append(f"  {kind_words(t.kind):<{kinds}} " + _("%(decisions)13s, %(cost)5s points "
                                                         "lost") % {
            "decisions": ngettext("%(n)s decision", "%(n)s decisions",
                                  t.decisions) % {"n": t.decisions},
            "cost": number(t.cost, 2)})
    lines += ["", cost_note() + " " + _(
        "margin: the seat's expected round margin after its move, %(marks)s a swing of "
        "%(swing)s points or more since its previous decision; hindsight: the cost on the "
        "true deal, which the seat could not see.") % {
        "marks": UP + DOWN, "swing": format_number(BIG_SWING)}]
    return lines


#: The decisions table's columns (after the round's, in the terminal game's table),
#: marked for translation.
COLUMNS = (pN_("review column", "move"), pN_("review column", "deal"),
            pN_("review column", "played"), pN_("review column", "grade"),
            pN_("review column", "cost"), pN_("review column", "better"),
            pN_("review column", "margin"), pN_("review column", "hindsight"))


def number(x: float, decimals: int, *, sign: bool = False) -> str:
    """``x`` with ``decimals`` decimals as the language writes numbers; ``sign``: with
    ``+`` for a positive number, as the margins show."""
    text = format_number(x, decimals)
    return "+" + text if sign and not text.startswith("-") else text


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


"""The review of a finished game in the terminal game: its end screen's "Review".

The decisions of the person's seat are judged in a worker thread
(:func:`casino.teach.review.review`, from what the seat saw at each decision), with
a progress bar and Escape to give up. Then the screen shows the summary, the graph
of the expected round margin of the round of the highlighted decision (the decision
marked under it), every judged decision in a table, and beside it the position the
seat saw before the highlighted move, the better move and what each leaves, and
the hindsight, labelled as such. The words are the review's own
(:mod:`casino.teach.report`), as ``casino review`` prints them.
"""

from __future__ import annotations

import contextvars
import json
import threading
from typing import Any, ClassVar

from textual.app import ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.widgets import DataTable, Footer, ProgressBar, Static

from casino.bots.judge import DEFAULT_BUDGET, DEFAULT_SAMPLES, Budget
from casino.engine.cards import card_symbol
from casino.engine.codec import position_from_json
from casino.engine.record import Record
from casino.i18n import _, current, ngettext, pgettext, pN_, using
from casino.teach.report import (
    COLUMNS,
    DOWN,
    UP,
    cost_note,
    kind_words,
    margin_graph,
    number,
    report_lines,
)
from casino.teach.review import Decision, Review, advice, cost_words, grade_words, review
from casino.tui.keys import translate_keys
from casino.tui.plain import table_line


class _GaveUp(Exception):
    """The person left the screen before the review was done."""


class ReviewScreen(Screen[None]):
    """A finished game's review of one seat, computed here and then browsed."""

    DEFAULT_CSS = """
    ReviewScreen { layout: vertical; }
    #review-title { height: auto; padding: 0 1; text-style: bold; color: $text; }
    #review-status { height: auto; padding: 0 1; }
    #review-progress { height: 1; padding: 0 1; }
    #review-body { height: 1fr; }
    #review-left { width: 3fr; }
    #review-graph { height: auto; padding: 0 1; }
    #review-moves { height: 1fr; }
    #review-detail { width: 2fr; min-width: 30; padding: 0 1;
                     border-left: solid $panel-lighten-2; }
    #review-advice { height: auto; margin-top: 1; }
    """

    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("escape,q", "close", pN_("key", "Back")),
    ]

    def __init__(self, record: Record, seat: int, *, samples: int = DEFAULT_SAMPLES,
                 seed: int = 0, limit: Budget = DEFAULT_BUDGET) -> None:
        super().__init__()
        translate_keys(self)
        #: The language the review is written in: the screen's, for the worker thread.
        self.lang = current()
        self.record = record
        self.seat = seat
        self.settings: dict[str, Any] = {"samples": samples, "seed": seed, "limit": limit}
        self.result: Review | None = None
        self._gave_up = False
        names = record.names or tuple(_("seat %(seat)s") % {"seat": s}
                                      for s in range(record.rules.players))
        self.names: tuple[str, ...] = tuple(names)

    def compose(self) -> ComposeResult:
        """The title and the progress while the review is computed; then the graph and the
        decisions on the left, and the chosen decision's words, the costliest decisions and
        the totals scrolling on the right."""
        yield Static(_("Review of %(name)s's decisions") % {"name": self.names[self.seat]},
                     id="review-title")
        yield Static(_("Judging each decision from what was seen then…"), id="review-status")
        yield ProgressBar(id="review-progress", show_eta=False)
        # The graph and the table stay in view while the cursor moves; the words (the
        # position, the costliest decisions, the totals) scroll on the right.
        with Horizontal(id="review-body"):
            with Vertical(id="review-left"):
                yield Static("", id="review-graph")
                yield DataTable(id="review-moves", cursor_type="row", zebra_stripes=True)
            with VerticalScroll(id="review-detail"):
                yield Static("", id="review-position")
                yield Static("", id="review-advice")
        yield Footer()

    def on_mount(self) -> None:
        """Hide the body until the review is done, and compute it in a thread of its own: it
        takes seconds to minutes, and the screen must stay live (Escape leaves at once)."""
        self.query_one("#review-body").display = False
        # A thread of its own: the review is a plain function of the record, and it
        # stops at its next decision once the person has left (``tick``).
        # In a copy of this context: a thread starts with none, and the review is told in
        # the language in force (casino.i18n).
        threading.Thread(target=contextvars.copy_context().run, args=(self._work,),
                         name="review", daemon=True).start()

    def _work(self) -> None:
        app = self.app

        def tick(done: int, total: int) -> None:
            if self._gave_up:
                raise _GaveUp
            app.call_from_thread(self._progress, done, total)

        try:
            with using(self.lang):  # a thread does not inherit the screen's language
                result = review(self.record, self.seat, progress=tick, **self.settings)
        except _GaveUp:
            return
        except Exception as exc:  # shown on the screen, not lost in a thread
            if not self._gave_up:
                app.call_from_thread(self._failed, exc)
            return
        if not self._gave_up:
            app.call_from_thread(self.show, result)

    def _failed(self, exc: Exception) -> None:
        self.query_one("#review-status", Static).update(
            Content.styled(_("No review: %(error)s") % {"error": exc}, "bold red"))

    def _progress(self, done: int, total: int) -> None:
        for bar in self.query(ProgressBar):
            bar.update(total=total, progress=done)
        self.query_one("#review-status", Static).update(
            _("Judging decision %(n)s of %(total)s from what was seen then…")
            % {"n": min(done + 1, total), "total": total})

    def show(self, r: Review) -> None:
        """Draw the finished review."""
        self.result = r
        self.query_one(ProgressBar).remove()
        lines = report_lines(r, self.record)
        # The title says the grades; the status line how to browse.
        self.query_one("#review-title", Static).update(
            Content.styled(f"{lines[0]} {lines[2]}", "bold"))
        self.query_one("#review-status", Static).update(
            _("↑/↓: a decision (the graph and the position follow).  Escape: back."))
        table = self.query_one(DataTable)
        table.add_columns(pgettext("review column", "rd"),
                          *(pgettext("review column", c) for c in COLUMNS if c != "deal"))
        for d in r.decisions:
            mark = (UP if d.swing > 0 else DOWN) if d.big_swing else ""
            table.add_row(str(d.round), str(d.ply + 1), d.move, grade_words(d.verdict),
                          cost_words(d.cost, d.low, d.high),
                          d.preferred if d.cost > 0 else "",
                          f"{number(d.margin, 1, sign=True)}{mark}",
                          number(d.hindsight.cost, 2))
        self.query_one("#review-advice", Static).update(
            Content("\n").join(Content(s) for s in self.summary(r)))
        self.query_one("#review-body").display = True
        if r.decisions:
            table.focus()
            self.highlight(0)
        else:
            self.query_one("#review-position", Static).update(
                _("Every move of this seat was forced: nothing to judge."))

    @staticmethod
    def summary(r: Review) -> list[str]:
        """The costliest decisions in words, the totals by kind and what a cost means."""
        lines = [_("The costliest decisions:"), *(f"{k}. {advice(r.decisions[i])}" for k, i
                                                   in enumerate(r.costliest, start=1))] \
            if r.costliest else [_("No decision surely cost anything.")]
        lines += ["", _("By kind of move (the last deal's moves apart):")]
        lines += [ngettext("%(kind)s: %(n)s decided, %(cost)s points lost",
                           "%(kind)s: %(n)s decided, %(cost)s points lost", t.decisions)
                  % {"kind": kind_words(t.kind), "n": t.decisions, "cost": number(t.cost, 2)}
                  for t in r.totals]
        return [*lines, "", cost_note()]

    def on_data_table_row_highlighted(self, event: DataTable.RowHighlighted) -> None:
        """The cursor moved to another decision: the graph and the position follow it."""
        self.highlight(event.cursor_row)

    def highlight(self, index: int) -> None:
        """Show the graph of the round of decision ``index``, marked, and its position."""
        r = self.result
        if r is None or not 0 <= index < len(r.decisions):
            return
        d = r.decisions[index]
        same = [x for x in r.decisions if x.round == d.round]
        graph = margin_graph(same)
        column = same.index(d)
        pad = graph[-1].index("└") + 1
        pointer = " " * (pad + column) + "↑ " + _("this move")
        self.query_one("#review-graph", Static).update(Content("\n").join(
            Content(s) for s in [_("Round %(round)s: expected margin after each decision")
                                 % {"round": d.round},
                                 *graph, pointer]))
        self.query_one("#review-position", Static).update(
            Content("\n").join(Content(s) for s in self.detail(d)))

    def detail(self, d: Decision) -> list[str]:
        """What the seat saw before decision ``d``, what it played, the better move and
        the hindsight, in words."""
        lines = [_("Round %(round)s, deal %(deal)s, move %(move)s: %(verdict)s") % {
            "round": d.round, "deal": d.deal, "move": d.ply + 1,
            "verdict": grade_words(d.verdict)}, ""]
        if d.position:
            view = position_from_json(json.loads(d.position))
            hand = view.hands[self.seat]
            lines += [table_line(view, self.names, self.seat),
                      _("Your hand: %(cards)s") % {"cards": " ".join(
                          card_symbol(c) for c in hand) if isinstance(hand, tuple) else "?"},
                      ""]
        lines += [_("Played: %(words)s (%(move)s)") % {"words": d.words, "move": d.move},
                  "  " + _("which %(leaves)s.") % {"leaves": d.leaves}]
        if d.cost > 0:
            lines += ["", _("Better: %(words)s (%(move)s)") % {"words": d.preferred_words,
                                                             "move": d.preferred},
                      "  " + _("which %(leaves)s.") % {"leaves": d.preferred_leaves},
                      ngettext("Cost: %(cost)s expected points, over the %(n)s deal judged.",
                               "Cost: %(cost)s expected points, over the %(n)s deals judged.",
                               d.samples) % {"cost": cost_words(d.cost, d.low, d.high),
                                             "n": d.samples}]
        else:
            lines += ["", _("This was the move the judge prefers.")]
        h = d.hindsight
        lines += ["", _("Hindsight (the true deal, which could not be seen then):"),
                  "  " + _("best was %(words)s (%(move)s); the move played cost %(cost)s "
                           "there.") % {"words": h.best_words, "move": h.best,
                                        "cost": number(h.cost, 2)}]
        return lines

    def action_close(self) -> None:
        """Escape or ``q``: back to the end screen; a review still being computed stops at
        its next decision."""
        self._gave_up = True
        self.dismiss(None)


__all__ = ["ReviewScreen"]

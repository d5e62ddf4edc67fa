"""The replay viewer: ``casino replay FILE`` and ``casino demo`` on a terminal (textual).

A game is a list of :class:`~casino.tui.replay.Step` values (each round's
deal, every move, the notes of the table), and the viewer shows one at a
time: the table, each seat's hand, pile and score, the step in words, the
round's moves with the current one marked, and a round's result at the move
that ended it. The person steps back and forth (←/→), jumps a round at a time
(PgUp/PgDn), to a numbered round (g), to the start or the end (Home/End), and
lets it play by itself (space).

A record holds each round's whole deck, so every hand is shown, and the top
bar says so. A game a person may still resume is the exception
(:func:`~casino.tui.replay.hides_hands`): it shows what that person saw, and
``v`` shows every hand on request.

``casino demo`` opens the same viewer while the computers play: a thread
plays the game and hands each step over, and the viewer follows the newest
step unless the person stepped back to look at an earlier one.
"""

from __future__ import annotations

import contextvars
import threading
from collections.abc import Callable, Sequence
from typing import Any, ClassVar

from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.timer import Timer
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option

from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.match import Match, shuffle_words
from casino.engine.moves import CAPTURE, Move
from casino.engine.position import Position
from casino.engine.record import Record
from casino.engine.rules import Rules, describe
from casino.engine.scheme import scheme
from casino.i18n import _, ngettext, pgettext, pN_
from casino.play.session import HUMAN
from casino.tui.keys import translate_keys
from casino.tui.replay import (
    DEAL,
    Step,
    demo_steps,
    ending_words,
    hides_hands,
    record_steps,
    seat_names,
    side_names,
    unit,
)
from casino.tui.screens import RulesScreen
from casino.tui.widgets import (
    BuildStack,
    CardFace,
    SeatBox,
    card_backs,
    cards_label,
    seat_boxes,
    table_rows,
)
from casino.words.narrate import result_lines, tally, winner_words

#: Seconds per step when the viewer plays by itself.
DEFAULT_PACE = 0.8

#: The viewer's keys, for its help screen (F1), translated there (``pgettext("keys", ...)``).
VIEWER_KEYS = (
    pN_("keys", "→ or l: the next step (a deal, a move, or a hint or take-back at the "
                "table)."),
    pN_("keys", "← or h: the step before."),
    pN_("keys", "PgDn or ]: the next round's deal.  PgUp or [: this round's deal, then the "
                "one before."),
    pN_("keys", "Home: the start of the game.  End: its end (in a demo: the newest move)."),
    pN_("keys", "g: go to a round by its number."),
    pN_("keys", "Space: play the moves one after another by themselves; again to pause."),
    pN_("keys", "v: show every hand, or only what the player saw (a game that can still be "
                "resumed)."),
    pN_("keys", "F1: this screen.  q or Escape: quit."),
)


#: The go-to-a-round dialog's sentences for each name of a game's rounds (``round``;
#: Krypkasino's ``game``), whole, so that each language can say them its own way.
GOTO_WORDS = {
    "round": (pN_("go to", "Go to round"),
              pN_("go to", "Enter goes to the round's deal; Escape cancels."),
              pN_("go to", "the only round is %(first)s"),
              pN_("go to", "the rounds are %(first)s to %(last)s"),
              pN_("go to", "There is no round %(text)s"),
              pN_("go to", "There is no round without a number")),
    "game": (pN_("go to", "Go to game"),
             pN_("go to", "Enter goes to the game's deal; Escape cancels."),
             pN_("go to", "the only game is %(first)s"),
             pN_("go to", "the games are %(first)s to %(last)s"),
             pN_("go to", "There is no game %(text)s"),
             pN_("go to", "There is no game without a number")),
}


class SeatView(SeatBox):
    """One seat at one step: its hand (face up, or a count when hidden), pile and score."""

    def __init__(self, seat: int) -> None:
        super().__init__(seat, classes="seat-view")

    def show(self, pos: Position, name: str, who: str, *, hidden: bool) -> None:
        """Draw the seat at ``pos``: its hand face up, or its backs and count when the
        record hides it (``hidden``, or a hand the position gives only as a number)."""
        seat = self.seat
        h = pos.hands[seat]
        count = pos.hand_size(seat)
        if isinstance(h, int) or hidden:
            hand = card_backs(count, ngettext(" %(n)s card, hidden", " %(n)s cards, hidden",
                                              count) % {"n": count} if count
                              else _("no cards"))
        elif h:
            hand = cards_label(h, on_dark=True)
        else:
            hand = Content.styled(_("no cards"), "dim")
        self.draw(pos, name, who, hand, tally(pos, seat))


class GoToRoundScreen(ModalScreen[int | None]):
    """Ask for a round's number; dismisses with it, or None."""

    BINDINGS: ClassVar[list[BindingType]] = [Binding("escape", "cancel", pN_("key", "Cancel"))]

    def __init__(self, rounds: Sequence[int], word: str) -> None:
        """``word`` is the game's name for its rounds (``round``, or Krypkasino's
        ``game``): its sentences are chosen by it (:data:`GOTO_WORDS`)."""
        super().__init__()
        translate_keys(self)
        self.rounds = list(rounds)
        self.word = word if word in GOTO_WORDS else "round"

    def _words(self, index: int) -> str:
        """The ``index``-th sentence of :data:`GOTO_WORDS` for this game's rounds, in the
        language in force."""
        return pgettext("go to", GOTO_WORDS[self.word][index])

    def compose(self) -> ComposeResult:
        """The round asked for, with the range of rounds the game has as its placeholder."""
        first, last = self.rounds[0], self.rounds[-1]
        with Vertical(id="goto-box", classes="dialog"):
            yield Static(Content.styled(self._words(0), "bold"), classes="dialog-title")
            yield Input(placeholder=_("%(first)s to %(last)s") % {"first": first, "last": last},
                        id="goto-round", type="integer")
            yield Static(id="goto-error")
            yield Static(Content.styled(self._words(1), "dim"))

    def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter: go to the round typed when the game has it; otherwise say which rounds
        there are and ask again."""
        event.stop()
        text = event.value.strip()
        first, last = self.rounds[0], self.rounds[-1]
        if text.isdigit() and int(text) in self.rounds:
            self.dismiss(int(text))
            return
        words = {"first": first, "last": last, "text": text}
        there = (self._words(2) if first == last else self._words(3)) % words
        missing = (self._words(4) if text else self._words(5)) % words
        self.query_one("#goto-error", Static).update(
            Content.styled(f"{missing}: {there}.", "bold #ff7b72"))

    def action_cancel(self) -> None:
        """Escape: stay where the viewer is."""
        self.dismiss(None)


class ViewerScreen(Screen[None]):
    """The game at one step, and the keys to move through it.

    ``steps`` may grow while the screen is shown (a demo being played):
    :meth:`add_steps` appends, and the view follows the newest step while
    the person has not stepped back.
    """

    AUTO_FOCUS = ""
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("left,h", "step(-1)", pN_("key", "Back"), key_display="←"),
        Binding("right,l", "step(1)", pN_("key", "Next"), key_display="→"),
        # The key bar holds the keys that fit 80 columns in every language; the others
        # are on the keys' screen (F1, VIEWER_KEYS).
        Binding("pageup,left_square_bracket", "round(-1)", pN_("key", "Round back"),
                key_display="PgUp", show=False),
        Binding("pagedown,right_square_bracket", "round(1)", pN_("key", "Next round"),
                key_display="PgDn", show=False),
        Binding("home", "jump('start')", pN_("key", "Start"), show=False),
        Binding("end", "jump('end')", pN_("key", "End"), show=False),
        Binding("g", "goto", pN_("key", "Go to round")),
        Binding("space", "play", pN_("key", "Play/pause")),
        Binding("v", "reveal", pN_("key", "Every hand"), show=False),
        Binding("f1", "help", pN_("key", "Keys")),
        Binding("q,escape", "quit", pN_("key", "Quit")),
    ]

    #: True for a demo's viewer (its hands are all shown, even once it is over).
    demo = False

    def __init__(self, rules: Rules, names: Sequence[str], players: Sequence[str] | None,
                 steps: Sequence[Step], *, title: str, seed: int | None,
                 hide_for: int | None = None, pace: float = DEFAULT_PACE,
                 live: bool = False, ending: str = "") -> None:
        super().__init__()
        translate_keys(self)
        self.rules = rules
        self.names = tuple(names)
        self.players = tuple(players) if players is not None else None
        self.steps: list[Step] = list(steps)
        self.title_text = title
        self.seed = seed
        #: The seat whose view is shown instead of every hand (a game that can be resumed).
        self.hide_for = hide_for
        self.reveal = hide_for is None
        self.pace = pace
        #: True while a demo is being played: more steps are coming.
        self.live = live
        #: What the last line says once every step is in (who won, or unfinished).
        self.ending = ending
        self.index = 0
        self.playing = False
        self._timer: Timer | None = None
        self._drawn_width = 0
        self._drawing = False
        self._dirty = False

    # ------------------------------------------------------------------
    # Layout

    def compose(self) -> ComposeResult:
        """The bar (title, step, keys) and where the game is, over the board (seats, table,
        the step in words) and the side (score and the round's log)."""
        yield Static(id="viewer-bar")
        yield Static(id="viewer-where")
        with Horizontal(id="viewer-main"):
            with Vertical(id="viewer-board"):
                yield Horizontal(id="viewer-seats")
                yield VerticalScroll(id="viewer-table")
                yield Static(id="viewer-event")
            with Vertical(id="viewer-side"):
                yield Static(id="viewer-score")
                yield OptionList(id="viewer-log")
        yield Footer()

    async def on_mount(self) -> None:
        """Make the seats' panels and draw the first step; a demo starts playing at its
        newest step, since its game is being played now."""
        log = self.query_one("#viewer-log", OptionList)
        log.can_focus = False
        self.query_one("#viewer-score").border_title = pgettext("panel", "Score")
        await seat_boxes(self.query_one("#viewer-seats", Horizontal), SeatView,
                         self.rules.seats)
        if self.live:
            self.playing = True  # a demo plays as it comes, until the person steps back
            self.index = max(len(self.steps) - 1, 0)
            self._start_timer()
        await self.draw()

    # ------------------------------------------------------------------
    # Where we are

    @property
    def step(self) -> Step | None:
        """The step shown now (None until a demo's first step comes)."""
        return self.steps[self.index] if self.steps else None

    @property
    def rounds(self) -> list[int]:
        """The numbers of the rounds the steps reach so far, in order."""
        return sorted({s.round for s in self.steps})

    def _round_start(self, number: int) -> int:
        return next(i for i, s in enumerate(self.steps) if s.round == number and s.kind == DEAL)

    def who(self, seat: int) -> str:
        """How a seat is played: ``player``, or a computer's level (``computer, medium`` when
        two play and the panels are wide); nothing when the record does not say."""
        if self.players is None:
            return ""
        p = self.players[seat]
        if p == HUMAN:
            return _("player")
        return _("computer, %(level)s") % {"level": p} if self.rules.players == 2 else p

    # ------------------------------------------------------------------
    # Drawing

    async def draw(self) -> None:
        """Show the current step: bar, seats, table, the step in words, the round's log.

        Drawings never overlap (a timer's step and a key's may come at once, and the
        table is rebuilt in several awaits): one asked for while another runs is done
        once that one ends, showing the step current then."""
        self._dirty = True
        if self._drawing:
            return
        self._drawing = True
        try:
            while self._dirty:
                self._dirty = False
                await self._draw_now()
        finally:
            self._drawing = False

    async def _draw_now(self) -> None:
        step = self.step
        with self.app.batch_update():
            self._draw_bar()
            if step is None:
                self.query_one("#viewer-event", Static).update(
                    Content.styled(_("The first deal is coming…"), "italic"))
                return
            pos = step.position
            shown = pos if self.reveal or self.hide_for is None else pos.observe(self.hide_for)
            for view in self.query(SeatView):
                hidden = not self.reveal and view.seat != self.hide_for
                view.show(shown, self.names[view.seat], self.who(view.seat), hidden=hidden)
            await self._draw_table(step)
            self._draw_event(step)
            self._draw_score(pos)
            self._draw_log(step)

    def _draw_bar(self) -> None:
        bar = self.query_one("#viewer-bar", Static)
        state = _("▶ playing") if self.playing else _("‖ paused")
        if self.live:
            state += " · " + _("the computers are playing")
        bar.update(Content.assemble((f" {self.title_text} ", "bold"), f" {state}"))
        where = self.query_one("#viewer-where", Static)
        step = self.step
        if step is None:
            where.update("")
            return
        pos = step.position
        rules = self.rules
        total = len(self.steps)
        rnd_word = unit(rules)
        last_round = self.rounds[-1]
        more = "+" if self.live else ""
        moves = sum(1 for s in self.steps if s.round == step.round and s.kind == "move")
        more_moves = "+" if self.live and step.round == last_round else ""
        here = (_("at the deal of %(n)s%(more)s") if step.kind == DEAL
                else _("move %(k)s of %(n)s%(more)s")) % {
                    "k": step.number, "n": moves, "more": more_moves}
        parts = [_("%(unit)s %(k)s of %(n)s%(more)s") % {
                     "unit": rnd_word, "k": step.round, "n": last_round, "more": more},
                 _("deal %(k)s of %(n)s") % {"k": pos.deal, "n": rules.deals_per_round},
                 here,
                 ngettext("stock %(n)s card", "stock %(n)s cards", pos.stock_size)
                 % {"n": pos.stock_size},
                 _("step %(k)s of %(n)s%(more)s") % {"k": self.index + 1, "n": total,
                                                     "more": more}]
        where.update(Content.styled(" · ".join(parts), "bold"))

    async def _draw_table(self, step: Step) -> None:
        pos = step.position
        box = self.query_one("#viewer-table", VerticalScroll)
        width = box.content_region.width or 70
        self._drawn_width = width
        last_card = step.move.card if step.move is not None and step.move.kind != CAPTURE \
            else None
        widgets: list[CardFace | BuildStack] = []
        for i, item in enumerate(pos.table):
            if isinstance(item, Build):
                stack = BuildStack(item, i, "", self.names[item.owner], True)
                stack.remove_class("mine")
                stack.add_class("replay-build")
                stack.set_class(last_card in item.cards, "last")
                widgets.append(stack)
            else:
                face = CardFace(item, "table", i)
                face.set_class(item == last_card, "last")
                widgets.append(face)
        await box.remove_children()
        parts: list[Any] = list(table_rows(widgets, width)) if widgets else []
        if not widgets and pos.result is None:
            parts.append(Static(Content.styled(_("The table is empty."), "italic #9fd3b0"),
                                classes="empty-table"))
        if pos.result is not None and step.round == pos.round:
            parts.append(Static(self._result_content(pos), id="viewer-result"))
        if parts:
            await box.mount_all(parts)
        title = ngettext("Table · %(n)s item", "Table · %(n)s items", len(pos.table)) % {
            "n": len(pos.table)}
        if pos.set_aside:
            title += _(" · set aside ") + " ".join(card_symbol(c) for c in pos.set_aside)
        if pos.result is not None:
            title = _("%(unit)s %(n)s is over: its result") % {"unit": unit(self.rules),
                                                              "n": pos.round}
        box.border_title = title

    def _result_content(self, pos: Position) -> Content:
        """The round's items in counting order, the verdict, and (at the end) the winner."""
        result = pos.result
        assert result is not None
        rules = self.rules
        sides = side_names(rules, self.names)
        lines = [Content.styled(_("In counting order:"), "bold")]
        lines += [Content(line) for line in result_lines(result, rules, sides, pos.scores)]
        if not result.items:
            lines.append(Content.styled(_("Nothing was scored."), "dim"))
        totals = ", ".join(f"{sides[t]} {result.scores[t]}" for t in rules.teams)
        lines += [Content(_("Totals: %(totals)s") % {"totals": totals}),
                  Content.styled(winner_words(result, rules, sides, pos.scores), "bold")]
        if self.index == len(self.steps) - 1 and self.ending and not self.live:
            lines.append(Content.styled(self.ending, "bold #1f7a45"))
        return Content("\n").join(lines)

    def _draw_event(self, step: Step) -> None:
        bar = self.query_one("#viewer-event", Static)
        if step.kind == DEAL:
            head = f"{unit(self.rules)} {step.round} · "
        elif step.kind == "move":
            head = _("Move %(n)s · ") % {"n": step.number}
        else:
            head = _("At the table · ")
        text = Content.assemble((head, "bold"), step.words)
        if step.move is not None:
            text = Content.assemble(text, ("   ", ""), (str(step.move), "dim"))
        last = self.index == len(self.steps) - 1
        if last and not self.live and self.ending and step.position.result is None:
            text = Content.assemble(text, "   ", (self.ending, "bold"))
        bar.update(text)

    def _draw_score(self, pos: Position) -> None:
        rules = self.rules
        sides = side_names(rules, self.names)
        scores = pos.result.scores if pos.result is not None else pos.scores
        width = max(len(sides[t]) for t in rules.teams)
        lines = [Content(f"{sides[t].ljust(width)}  {scores[t]:>3}") for t in rules.teams]
        if scheme(rules).penalty:
            lines.append(Content.styled(_("penalty points: lower wins after %(n)s games")
                                        % {"n": rules.games_per_match}, "dim"))
        else:
            lines.append(Content.styled(_("first to %(n)s wins") % {"n": rules.target},
                                        "dim"))
        if self.seed is not None:
            lines.append(Content.styled(shuffle_words(self.seed), "dim"))
        lines.append(Content.styled(self.hands_words(), "italic #9fd3b0"))
        self.query_one("#viewer-score", Static).update(Content("\n").join(lines))

    def hands_words(self) -> str:
        """What the seats show of the hands, and why."""
        if self.hide_for is None:
            return (_("Every hand is shown: a demo plays in the open.") if self.live
                    or self.demo else
                    _("Every hand is shown: the record holds the whole deck."))
        if self.reveal:
            return _("Every hand is shown (v: only what you saw).")
        return (_("%(name)s's view: this game can still be resumed, so the other hands stay "
                  "hidden (v: show them).") % {"name": self.names[self.hide_for]})

    def _draw_log(self, current: Step) -> None:
        """The round's steps: those before plain, the current one marked, those after dim."""
        box = self.query_one("#viewer-log", OptionList)
        box.border_title = f"{unit(self.rules)} {current.round}"
        options: list[Option] = []
        at = 0
        for i, s in enumerate(self.steps):
            if s.round != current.round:
                continue
            label = f"{s.number:>2}. " if s.kind == "move" else "    "
            if i == self.index:
                at = len(options)
            style = "dim" if i > self.index else ""
            options.append(Option(Content.styled(label + s.words, style)))
        box.clear_options()
        box.add_options(options)
        box.highlighted = at

    # ------------------------------------------------------------------
    # Moving through the game

    async def go(self, index: int, *, stop: bool = True) -> None:
        """Show step ``index`` (kept within the steps); ``stop`` pauses the playing."""
        if not self.steps:
            return
        if stop:
            self._stop_timer()
        self.index = max(0, min(index, len(self.steps) - 1))
        await self.draw()

    async def action_step(self, delta: int) -> None:
        """Left and right: one step back or on (and stop playing)."""
        await self.go(self.index + delta)

    async def action_round(self, delta: int) -> None:
        """Page up and down: the round's deal before or after; back from within a round goes
        first to its own deal, on from the last round to the game's end."""
        step = self.step
        if step is None:
            return
        rounds = self.rounds
        start = self._round_start(step.round)
        if delta < 0 and self.index > start:
            await self.go(start)  # back to this round's deal first
            return
        k = rounds.index(step.round) + delta
        if 0 <= k < len(rounds):
            await self.go(self._round_start(rounds[k]))
        elif delta > 0:
            await self.go(len(self.steps) - 1)

    async def action_jump(self, where: str) -> None:
        """Home and End: the game's first step or its last."""
        await self.go(0 if where == "start" else len(self.steps) - 1)

    def action_goto(self) -> None:
        """``g``: ask for a round's number and go to its deal."""
        if not self.steps:
            return
        self.app.push_screen(GoToRoundScreen(self.rounds, unit(self.rules).lower()),
                             self._went)

    async def _went(self, number: int | None) -> None:
        if number is not None:
            await self.go(self._round_start(number))

    async def action_play(self) -> None:
        """Space: play the steps one by one at the viewer's pace, or pause; at the end of a
        recorded game it plays from the start again."""
        if self.playing:
            self._stop_timer()
            await self.draw()
            return
        if self.index >= len(self.steps) - 1 and not self.live:
            self.index = 0  # at the end: play from the start again
        self._start_timer()
        await self.draw()

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """``v`` is offered only for a game whose other hands are hidden."""
        if action == "reveal" and self.hide_for is None:
            return None
        return True

    async def action_reveal(self) -> None:
        """``v``: show every hand, or again only the saved seat's view (a game that can
        still be resumed)."""
        if self.hide_for is None:
            return
        self.reveal = not self.reveal
        await self.draw()

    def action_help(self) -> None:
        """F1: the rules of the game's ruleset and the viewer's keys."""
        lines = describe(self.rules)
        self.app.push_screen(RulesScreen(_("Rules: %(rules)s") % {"rules": lines[0]},
                                         lines[1:], keys=VIEWER_KEYS,
                                         keys_title=pN_("keys", "The viewer's keys")))

    def action_quit(self) -> None:
        """``q`` or Escape: leave the viewer (a demo's game is saved by the command)."""
        self.app.exit()

    def _start_timer(self) -> None:
        self.playing = True
        if self._timer is None:
            self._timer = self.set_interval(self.pace if self.pace > 0 else 0.01, self._tick)

    def _stop_timer(self) -> None:
        self.playing = False
        if self._timer is not None:
            self._timer.stop()
            self._timer = None

    def _tick(self) -> None:
        """The timer's step. Timers run apart from the screen's messages, so drawing is
        left to the screen (``call_later``), one drawing at a time; a tick that comes
        while the last step is still being drawn waits for the next."""
        if self._drawing:
            return
        if self.index < len(self.steps) - 1:
            self.index += 1
        elif not self.live:
            self._stop_timer()
        else:
            return
        self.call_later(self.draw)

    async def add_steps(self, steps: Sequence[Step]) -> None:
        """More steps of a game being played; the view follows them while playing and the
        person is at the newest step (the timer steps there one at a time)."""
        if not steps:
            return
        first = not self.steps
        self.steps.extend(steps)
        if first:
            self.index = 0
            await self.draw()
        else:
            self._draw_bar()

    async def finish(self, ending: str) -> None:
        """The demo's game is over (or was stopped): no more steps are coming."""
        self.live = False
        self.ending = ending
        await self.draw()

    async def on_resize(self) -> None:
        """A new width lays the table out again; a new height alone changes nothing drawn."""
        box = self.query_one("#viewer-table", VerticalScroll)
        if self.step is not None and box.content_region.width != self._drawn_width:
            await self.draw()


class ViewerApp(App[None]):
    """The viewer on its own: a recorded game (``casino replay``) or a demo being played."""

    CSS_PATH = ["app.tcss", "viewer.tcss"]  # noqa: RUF012
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, screen: ViewerScreen) -> None:
        super().__init__()
        self.title = _("Casino replay")
        self.viewer = screen

    def get_default_screen(self) -> Screen[Any]:
        """The viewer's screen, made by the caller (a record's or a demo's)."""
        return self.viewer


def record_viewer(record: Record, *, source: str = "", pace: float = DEFAULT_PACE
                  ) -> ViewerScreen:
    """The viewer's screen for a recorded game."""
    rules = record.rules
    names = seat_names(rules, record.names)
    title = describe(rules)[0] + (f" · {source}" if source else "")
    return ViewerScreen(rules, names, record.players, record_steps(record), title=title,
                        seed=record.seed, hide_for=hides_hands(record), pace=pace,
                        ending=ending_words(record.winner, rules, names, record.is_over))


def run_replay(record: Record, *, source: str = "") -> None:
    """``casino replay`` on a terminal: step through ``record`` until the person quits."""
    ViewerApp(record_viewer(record, source=source)).run()


class DemoPlayer:
    """Plays a demo game in a thread of its own and keeps its steps for the viewer.

    The viewer takes the steps waiting (:meth:`take`) a few times a second:
    the thread never calls into the screen, so it can be stopped between any
    two moves and the match saved as it stands.
    """

    def __init__(self, match: Match, choose: Callable[[Position], Move],
                 names: Sequence[str], delay: float) -> None:
        self.match = match
        self.choose = choose
        self.names = tuple(names)
        self.delay = delay
        self._stop = threading.Event()
        self._lock = threading.Lock()
        self._waiting: list[Step] = []
        self.finished: bool | None = None  # None while playing
        self.error: BaseException | None = None
        self._thread = threading.Thread(target=self._run, name="casino-demo", daemon=True)

    def start(self) -> None:
        """Start playing in the thread (the viewer calls it once its screen is up), in the
        caller's context: a thread starts with none, and the steps are told in the
        language in force (:mod:`casino.i18n`)."""
        context = contextvars.copy_context()
        self._thread = threading.Thread(target=context.run, args=(self._run,),
                                        name="casino-demo", daemon=True)
        self._thread.start()

    def _emit(self, step: Step) -> None:
        with self._lock:
            self._waiting.append(step)
        if self.delay > 0 and step.kind != DEAL:
            self._stop.wait(self.delay)

    def _run(self) -> None:
        try:
            self.finished = demo_steps(self.match, self.choose, self.names, self._emit,
                                       stop=self._stop.is_set)
        except BaseException as exc:  # shown by the viewer instead of lost in a thread
            self.error = exc
            self.finished = False

    def take(self) -> list[Step]:
        """The steps played since the last call, taken away: each is handed to the viewer
        once."""
        with self._lock:
            out, self._waiting = self._waiting, []
        return out

    @property
    def done(self) -> bool:
        """Whether the game's thread has ended: played to its end, stopped, or failed
        (:attr:`error`)."""
        return self.finished is not None

    def stop(self) -> bool:
        """Stop between two moves and wait for the thread; True if the game was finished."""
        self._stop.set()
        if self._thread.is_alive():
            self._thread.join()
        return bool(self.finished)


class DemoViewer(ViewerScreen):
    """The viewer following a game the computers are playing (``casino demo``)."""

    demo = True

    def __init__(self, player: DemoPlayer, *, pace: float, level: str) -> None:
        rules = player.match.rules
        names = seat_names(rules, None)
        title = _("Demo · %(rules)s · computers at %(level)s") % {
            "rules": describe(rules)[0], "level": level}
        super().__init__(rules, names, tuple(level for _ in rules.seats), [], title=title,
                         seed=player.match.seed, pace=pace, live=True)
        self.player = player
        self._finishing = False

    async def on_mount(self) -> None:
        """Draw the empty viewer, start the game's thread, and collect its steps twenty
        times a second."""
        await super().on_mount()
        self.player.start()
        self.set_interval(0.05, self._collect)

    def _collect(self) -> None:
        """Take the steps played since (a timer: the screen draws them, see _tick)."""
        if not self.live or self._finishing:
            return
        done = self.player.done  # before taking: every step of a finished game is waiting
        self.call_later(self.add_steps, self.player.take())
        if done:
            match = self.player.match
            if self.player.error is not None:
                ending = _("The demo stopped: %(error)s") % {"error": self.player.error}
            else:
                ending = ending_words(match.winner, self.rules, self.names,
                                      match.is_over)
            self._finishing = True  # once: finish() ends the live following
            self.call_later(self.finish, ending)


def run_demo(match: Match, choose: Callable[[Position], Move], *, delay: float = DEFAULT_PACE,
             level: str = "") -> bool:
    """``casino demo`` on a terminal: the computers play ``match`` while the person watches.

    Returns True when the game was played to its end (the person may quit
    before: the match is then left between two moves, ready to be saved).
    """
    player = DemoPlayer(match, choose, seat_names(match.rules, None), delay)
    try:
        ViewerApp(DemoViewer(player, pace=delay, level=level)).run()
    finally:
        finished = player.stop()
    if player.error is not None:
        raise player.error
    return finished


__all__ = ["DEFAULT_PACE", "VIEWER_KEYS", "DemoPlayer", "DemoViewer", "GoToRoundScreen",
           "SeatView", "ViewerApp", "ViewerScreen", "record_viewer", "run_demo", "run_replay"]

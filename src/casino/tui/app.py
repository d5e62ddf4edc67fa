"""The full-screen terminal game (``casino play``), built with textual.

The screen draws a :class:`~casino.session.GameSession` and only what the
person may see of it (:attr:`GameSession.view`: hidden cards stay hidden). The
person plays by picking a card of the hand (1-9, arrows and Enter, or a click)
and the table items it uses (a, b, c..., or clicks); the legal options for
that choice are listed (ranked and capped: a crowded table has hundreds of
thousands of moves, and none is listed by enumerating them), so a build's
announced value is chosen there, and Enter plays the highlighted one. A move can
also be typed in notation, with completion from the legal moves (on a crowded
table, from a selection of them). Anything illegal is explained in words by the
engine and changes nothing.

The computers think in worker threads, one move at a time with a short pause
after each so a person can follow them, and the screen stays responsive while
they do. The session saves the game after every move, so quitting loses nothing.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import Screen
from textual.suggester import Suggester
from textual.widgets import Footer, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from casino.builds import Build
from casino.cards import card_symbol
from casino.errors import IllegalMove
from casino.legality import MoveList, ranked
from casino.moves import CAPTURE, Move
from casino.narrate import result_lines, tally, winner_words
from casino.position import Position
from casino.rules import describe
from casino.session import GameSession
from casino.shortlist import MAX_SHOWN, Shortlist, rest_words, shortlist
from casino.tui.choice import attempt_text, chosen_words, uses
from casino.tui.screens import RoundOverScreen, RulesScreen, SaveScreen
from casino.tui.widgets import (
    HAND_KEYS,
    TABLE_KEYS,
    BuildStack,
    CardFace,
    ItemClicked,
    SeatPanel,
    TableArea,
    game_content,
    log_content,
    option_words,
    score_content,
    table_rows,
    team_name,
)

#: Seconds each computer move stays on screen before the next one (readable, not slow).
DEFAULT_PAUSE = 0.8

NewGame = Callable[[], GameSession]


class MoveSuggester(Suggester):
    """Completes typed notation from the texts of the legal moves of the moment."""

    def __init__(self, texts: Callable[[], Sequence[str]]) -> None:
        # No cache: the legal moves change with every move.
        super().__init__(use_cache=False, case_sensitive=True)
        self._texts = texts

    async def get_suggestion(self, value: str) -> str | None:
        typed = value.lstrip()
        if not typed:
            return None
        low = typed.lower()
        for text in self._texts():
            if text.lower().startswith(low) and len(text) > len(typed):
                return value + text[len(typed):]
        return None


class GameScreen(Screen[None]):
    """The table, the hands, the scores and the log; all of the playing happens here.

    ``phase`` tells what the game waits for: ``human`` (the person's move),
    ``computer`` (a computer is thinking or its move is being shown),
    ``round-over`` (the round's scoring is shown) or ``game-over``.
    """

    AUTO_FOCUS = ""
    # Classes for the stylesheet: a narrower side panel and smaller cards on small
    # terminals. (textual types these oddly, as ClassVar inside a union: hence no annotation.)
    HORIZONTAL_BREAKPOINTS = [(0, "-narrow"), (110, "-wide")]  # noqa: RUF012
    VERTICAL_BREAKPOINTS = [(0, "-short"), (30, "-medium"), (36, "-tall")]  # noqa: RUF012
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("enter", "confirm", "Play"),
        Binding("escape", "cancel", "Cancel"),
        Binding("left", "cursor(-1)", "Card left", show=False),
        Binding("right", "cursor(1)", "Card right", show=False),
        Binding("up", "option(-1)", "Option up", show=False),
        Binding("down", "option(1)", "Option down", show=False),
        Binding("tab", "type_move", "Type a move"),
        Binding("question_mark", "hint", "Hint", key_display="?"),
        Binding("u", "undo", "Undo"),
        Binding("s", "save", "Save as"),
        Binding("f1", "rules", "Rules"),
        Binding("q", "quit", "Quit"),
    ]

    def __init__(self, session: GameSession, new_game: NewGame | None, *,
                 pause: float = DEFAULT_PAUSE) -> None:
        super().__init__()
        self.session = session
        self.new_game = new_game
        self.pause = pause
        self.view: Position = session.view
        self.phase = "human"
        self.picked: int | None = None
        self.cursor = 0
        self.selected: list[int] = []
        self.options: list[Move] = []
        #: What the options list leaves out, when it does not show every option.
        self.options_rest: Shortlist | None = None
        self.hint_move: Move | None = None
        self.message = ""
        self.version = 0
        self._hand_widgets: list[CardFace] = []
        self._table_widgets: list[CardFace | BuildStack] = []
        self._table_width = 0
        self._table_drawn: tuple[object, ...] = ()
        self._hand_drawn: tuple[int, ...] = ()

    # ------------------------------------------------------------------
    # Layout

    def compose(self) -> ComposeResult:
        yield Static(id="turn")
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Horizontal(id="seats")
                yield TableArea(id="table")
                yield Static(id="last-move")
                yield Horizontal(id="hand")
                yield OptionList(id="options")
                yield Input(id="move-input",
                            placeholder="Tab: type a move, e.g. 9d x 9c 5h+4c, 5d+3s =8, 7h",
                            suggester=MoveSuggester(self._move_texts))
                yield Static(id="message")
            with Vertical(id="side"):
                yield Static(id="score")
                yield Static(id="game-info")
                with VerticalScroll(id="log-box"):
                    yield Static(id="log")
        yield Footer()

    async def on_mount(self) -> None:
        options = self.query_one("#options", OptionList)
        options.can_focus = False
        self.query_one("#table").border_title = "Table"
        self.query_one("#hand").border_title = "Your hand"
        self.query_one("#log-box").border_title = "Moves"
        self.query_one("#score").border_title = "Score"
        self.query_one("#game-info").border_title = "Game"
        rules = self.session.rules
        players = ", ".join(self.session.describe_players())
        self.say(f"{rules.name}: {players}. F1 shows the rules and the keys.")
        await self.refresh_all()
        self.advance()

    # ------------------------------------------------------------------
    # Drawing

    @property
    def hand(self) -> tuple[int, ...]:
        h = self.view.hands[self.session.human]
        return h if isinstance(h, tuple) else ()

    def _move_texts(self) -> list[str]:
        """What typed text completes to: the person's moves (every legal move on a small
        table, a selection on a crowded one), asked for only while they type."""
        s = self.session
        return [str(m) for m in s.legal_moves()] if s.human_to_move else []

    async def refresh_all(self) -> None:
        """Read the person's view of the game again and redraw everything from it."""
        s = self.session
        self.version += 1
        self.view = s.view
        hand = self.hand
        if self.picked is not None and self.picked >= len(hand):
            self.picked = None
        self.cursor = min(self.cursor, max(len(hand) - 1, 0))
        self.selected = [i for i in self.selected if i < len(self.view.table)]
        with self.app.batch_update():  # one repaint for the whole change
            await self._draw_seats()
            await self._draw_table()
            await self._draw_hand()
            self._draw_side()
            self._draw_last_move()
            self.update_choice()  # and the turn bar

    async def _draw_seats(self) -> None:
        s = self.session
        seats = self.query_one("#seats", Horizontal)
        panels = list(seats.query(SeatPanel))
        if len(panels) != s.rules.players:
            await seats.remove_children()
            panels = [SeatPanel(seat) for seat in s.rules.seats]
            await seats.mount_all(panels)
        for panel in panels:
            panel.show(self.view, s.names, s.human, tally(self.view, panel.seat))

    async def _draw_table(self, force: bool = False) -> None:
        view = self.view
        box = self.query_one("#table", TableArea)
        width = box.content_region.width or 76
        drawn = (view.table, width)
        if drawn == self._table_drawn and not force:
            return
        self._table_drawn = drawn
        self._table_width = width
        widgets: list[CardFace | BuildStack] = []
        for i, item in enumerate(view.table):
            key = TABLE_KEYS[i] if i < len(TABLE_KEYS) else ""
            if isinstance(item, Build):
                owner = self.session.names[item.owner]
                mine = view.rules.team_of(item.owner) == view.rules.team_of(self.session.human)
                widgets.append(BuildStack(item, i, key, owner, mine))
            else:
                widgets.append(CardFace(item, "table", i, key))
        self._table_widgets = widgets
        await box.remove_children()
        if widgets:
            await box.mount_all(table_rows(widgets, width))
        else:
            await box.mount(Static(Content.styled("The table is empty.", "italic #9fd3b0"),
                                   classes="empty-table"))
        title = f"Table · {len(view.table)} item{'s' if len(view.table) != 1 else ''}"
        if view.set_aside:
            title += " · set aside " + " ".join(card_symbol(c) for c in view.set_aside)
        box.border_title = title

    async def _draw_hand(self) -> None:
        box = self.query_one("#hand", Horizontal)
        if self.hand == self._hand_drawn and self._hand_widgets:
            return
        self._hand_drawn = self.hand
        widgets = [CardFace(c, "hand", i, HAND_KEYS[i] if i < len(HAND_KEYS) else "")
                   for i, c in enumerate(self.hand)]
        self._hand_widgets = widgets
        await box.remove_children()
        if widgets:
            await box.mount_all(widgets)
        else:
            await box.mount(Static(Content.styled("No cards in hand.", "italic #9fd3b0"),
                                   classes="empty-hand"))

    def _draw_side(self) -> None:
        s = self.session
        self.query_one("#score", Static).update(score_content(self.view, s.names, s.human))
        levels = sorted({lv for seat in s.rules.seats if (lv := s.level_of(seat))})
        who = f"computer{'s' if s.rules.players > 2 else ''}: {', '.join(levels)}"
        self.query_one("#game-info", Static).update(game_content(self.view, who, s.match.seed))
        self.query_one("#log", Static).update(log_content(s.log, s.rules))
        box = self.query_one("#log-box", VerticalScroll)
        box.call_after_refresh(box.scroll_end, animate=False)  # once the new text is laid out

    def _draw_last_move(self) -> None:
        log = self.session.log
        bar = self.query_one("#last-move", Static)
        if log:
            bar.update(Content.assemble(("Last move: ", "bold"), log[-1].words))
        else:
            bar.update(Content.styled("No move yet.", "italic"))
        last_card = log[-1].move.card if log and log[-1].move.kind != CAPTURE else None
        for w in self._table_widgets:
            on_table = (isinstance(w, CardFace) and w.card == last_card) or (
                isinstance(w, BuildStack) and last_card in w.build.cards)
            w.set_class(on_table, "last")

    def _draw_turn(self) -> None:
        s = self.session
        bar = self.query_one("#turn", Static)
        for phase in ("human", "computer", "round-over", "game-over"):
            bar.set_class(self.phase == phase, phase)
        title = Content.styled(" ♠ ♥ CASINO ♣ ♦ ", "bold")
        if self.phase == "human":
            n = len(self.hand)
            keys = f"1-{n}" if n > 1 else "1"
            text = (f"▶ Your turn: pick a card ({keys}, or ←/→ and Enter), then table items "
                    "(a, b, …); Enter plays")
            chosen = self._highlighted()
            if self.picked is not None:
                text = (f"▶ Enter plays: {option_words(chosen)}" if chosen is not None
                        else "▶ No legal move uses these cards: change them, or Escape")
        elif self.phase == "computer":
            text = f"⏳ {s.names[s.to_move]} is playing…" if not s.round_over else "Round over"
        elif self.phase == "game-over":
            text = "The game is over"
        else:
            unit = "game" if s.rules.scoring == "krypkasino" else "round"
            text = f"The {unit} is over"
        bar.update(Content.assemble(title, " ", text))

    def say(self, text: str, kind: str = "info") -> None:
        """Show a message under the board: ``info``, ``error`` (illegal moves) or ``hint``."""
        self.message = text
        bar = self.query_one("#message", Static)
        for k in ("info", "error", "hint"):
            bar.set_class(kind == k, k)
        bar.update(Content(text))

    # ------------------------------------------------------------------
    # The choice being made: a hand card, table items, the options they allow

    def _option_moves(self) -> list[Move]:
        """The legal moves of the picked card that use every selected item: those using
        exactly them first, then the others strongest first, at most ``MAX_SHOWN``
        (:attr:`options_rest` says what was left out). Asked of the engine for this
        card and these items, never by listing every move of a crowded table."""
        self.options_rest = None
        if self.picked is None:
            return []
        items = [self.view.table[i] for i in self.selected]
        found = self.session.moves_using(self.hand[self.picked], items)
        exact = ranked(found.exact)[:MAX_SHOWN]
        short = shortlist(MoveList(found.more, found.complete),
                          limit=max(1, MAX_SHOWN - len(exact)))
        if not short.everything:
            self.options_rest = short
        return [*exact, *short.moves][:MAX_SHOWN]

    def update_choice(self) -> None:
        """Mark the picked card and the chosen table items, and list the options they allow."""
        hint = self.hint_move
        for w in self._hand_widgets:
            w.set_class(w.index == self.picked, "picked")
            w.set_class(self.phase == "human" and w.index == self.cursor
                        and self.picked is None, "cursor")
            w.set_class(hint is not None and w.card == hint.card, "hinted")
        hinted = uses(hint) if hint is not None else Counter()
        for t in self._table_widgets:
            t.set_class(t.index in self.selected, "selected")
            t.set_class(hinted[self.view.table[t.index]] > 0, "hinted")
        self._draw_options()
        self._draw_turn()

    def _draw_options(self) -> None:
        box = self.query_one("#options", OptionList)
        self.options = self._option_moves()
        box.clear_options()
        if self.phase != "human":
            box.border_title = "Options"
            box.add_option(Option(Content.styled("Wait for your turn.", "dim"), disabled=True))
            return
        if self.picked is None:
            box.border_title = "Options"
            box.add_option(Option(Content.styled(
                "Pick a card of your hand to see what it can do.", "dim"), disabled=True))
            return
        card = self.hand[self.picked]
        box.border_title = f"Options for the {card_symbol(card)} (↑/↓, Enter plays)"
        if not self.options:
            items = chosen_words(self.view.table, self.selected)
            what = f" with {items}" if items else ""
            box.add_option(Option(Content.styled(
                f"No legal move plays the {card_symbol(card)}{what}: Enter says why; "
                "Escape starts again.", "italic"), disabled=True))
            return
        box.add_options(Option(Content.assemble((option_words(m), "bold"), "   ",
                                                (str(m), "dim")))
                        for m in self.options)
        if self.options_rest is not None:
            rest = rest_words(self.options_rest, "option")
            box.add_option(Option(Content.styled(
                f"… {rest}: choose table items (a, b, …) to see those using them, or Tab "
                "to type a move", "dim italic"), disabled=True))
        box.highlighted = 0

    def _highlighted(self) -> Move | None:
        """The option Enter would play now, if any."""
        index = self.query_one("#options", OptionList).highlighted
        if index is None or not 0 <= index < len(self.options):
            return None
        return self.options[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        event.stop()
        self._draw_turn()

    def _ready(self) -> bool:
        """True when the person may act; otherwise say why not."""
        s = self.session
        if self.phase == "computer":
            self.say(f"Wait: {s.names[s.to_move]} is playing.")
            return False
        if self.phase != "human" or not s.human_to_move:
            self.say("It is not your turn.")
            return False
        return True

    def pick(self, index: int) -> None:
        """Pick the hand card at ``index`` (again: put it back)."""
        if not self._ready():
            return
        hand = self.hand
        if index >= len(hand):
            self.say(f"You hold {len(hand)} card{'s' if len(hand) != 1 else ''}: "
                     f"there is no card {index + 1}.", "error")
            return
        if self.picked == index:
            self.picked = None
        else:
            self.picked = index
            self.cursor = index
        self.update_choice()

    def toggle(self, index: int) -> None:
        """Choose the table item at ``index``, or let it go if it was chosen."""
        if not self._ready():
            return
        if index >= len(self.view.table):
            n = len(self.view.table)
            last = TABLE_KEYS[n - 1] if n else ""
            self.say(f"The table has {n} item{'s' if n != 1 else ''}"
                     + (f" (a to {last})" if n > 1 else "") + ".", "error")
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)
        self.update_choice()

    def reset_choice(self) -> None:
        self.picked = None
        self.selected = []
        self.hint_move = None

    # ------------------------------------------------------------------
    # Input

    def on_key(self, event: events.Key) -> None:
        if isinstance(self.focused, Input) or event.character is None:
            return
        ch = event.character
        if ch in HAND_KEYS:
            event.stop()
            self.pick(HAND_KEYS.index(ch))
        elif ch in TABLE_KEYS:
            event.stop()
            self.toggle(TABLE_KEYS.index(ch))

    def on_item_clicked(self, event: ItemClicked) -> None:
        if event.zone == "hand":
            self.pick(event.index)
        else:
            self.toggle(event.index)

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if self._ready() and 0 <= event.option_index < len(self.options):
            await self.play(self.options[event.option_index])

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self._ready():
            return
        text = event.value.strip()
        if not text:
            self.say("Type a move in notation, e.g. 9d x 9c, 5d+3s =8 or 7h.", "error")
            return
        if await self.play(text):
            event.input.value = ""
            self.set_focus(None)

    def action_cursor(self, step: int) -> None:
        if not self._ready() or not self.hand:
            return
        self.cursor = (self.cursor + step) % len(self.hand)
        if self.picked is not None:
            self.picked = self.cursor
        self.update_choice()

    def action_option(self, step: int) -> None:
        box = self.query_one("#options", OptionList)
        if self.options:
            current = box.highlighted if box.highlighted is not None else -step
            box.highlighted = (current + step) % len(self.options)

    async def action_confirm(self) -> None:
        """Enter: pick the card under the cursor, or play the highlighted option."""
        if not self._ready():
            return
        if self.picked is None:
            self.pick(self.cursor)
            return
        chosen = self._highlighted()
        if chosen is None:  # nothing legal fits: let the engine say why
            await self.play(attempt_text(self.hand[self.picked], self.view.table,
                                         self.selected))
        else:
            await self.play(chosen)

    def action_cancel(self) -> None:
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        if self.picked is not None or self.selected or self.hint_move is not None:
            self.reset_choice()
            self.say("Choose again: pick a card of your hand.")
            self.update_choice()

    def action_type_move(self) -> None:
        self.query_one("#move-input", Input).focus()

    # ------------------------------------------------------------------
    # Playing

    async def play(self, move: Move | str) -> bool:
        """Play the person's move; an illegal one is explained and changes nothing."""
        try:
            entry = self.session.play(move)
        except IllegalMove as exc:
            self.say(f"Not allowed: {exc}", "error")
            return False
        self.reset_choice()
        self.say(entry.words + ".")
        self.phase = "computer"
        await self.refresh_all()
        self.advance()
        return True

    def advance(self) -> None:
        """Go on with the game: the person's turn, a computer's move, or the round's end."""
        s = self.session
        if s.round_over:
            self.phase = "game-over" if s.game_over else "round-over"
            self.update_choice()
            self._later(self.show_round_over)
        elif s.computer_to_move:
            self.phase = "computer"
            self.update_choice()
            self.run_worker(self._computer_move, name="computer", group="computer",
                            thread=True)
        else:
            self.phase = "human"
            self.update_choice()

    def _later(self, callback: Callable[[], Any]) -> None:
        """Run ``callback`` after the pause that lets a person read the last move."""
        if self.pause > 0:
            self.set_timer(self.pause, callback)
        else:
            self.call_later(callback)

    def _computer_move(self) -> None:
        """In a worker thread: the computer chooses and plays (this takes its time)."""
        self.session.computer_move()

    def _hint(self, version: int) -> tuple[int, Move]:
        """In a worker thread: the strongest level's suggestion for the person."""
        return version, self.session.hint()

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        worker = event.worker
        if worker.name == "computer":
            if event.state == WorkerState.SUCCESS:
                await self.refresh_all()
                if self.session.human_to_move:
                    self.advance()
                else:
                    self._later(self.advance)
            elif event.state == WorkerState.ERROR:
                self.say(f"The computer failed to move: {worker.error}", "error")
        elif worker.name == "hint":
            if event.state == WorkerState.SUCCESS and isinstance(worker.result, tuple):
                version, move = worker.result
                if version != self.version or self.phase != "human":
                    return  # the game moved on while the hint was being found
                self.hint_move = move
                self.session.hint_given()  # the record notes every hint shown
                self.say(f"Hint: {option_words(move)}  ({move})", "hint")
                self.update_choice()
            elif event.state == WorkerState.ERROR:
                self.say(f"No hint: {worker.error}", "error")

    def show_round_over(self) -> None:
        """The round's items in counting order, and who won and why."""
        s = self.session
        result = self.view.result
        if result is None:  # pragma: no cover - advance only calls this after a round
            return
        rules = s.rules
        krypkasino = rules.scoring == "krypkasino"
        unit = "Game" if krypkasino else "Round"
        # Points go to sides: name a partnership by both partners.
        names = [team_name(rules, s.names, rules.team_of(seat)) for seat in rules.seats]
        lines = result_lines(result, rules, names, s.scores_before_round, s.view)
        verdict = winner_words(result, rules, names, s.scores_before_round)
        if s.game_over and result.winner is not None:
            winner = names[result.winner]
            verb = "win" if winner == "You" or "&" in winner else "wins"
            title = f"{'The match' if krypkasino else 'Game'} is over: {winner} {verb}!"
        else:
            title = f"{unit} {self.view.round} is over"
        totals = ", ".join(f"{names[t]} {result.scores[t]}" for t in rules.teams)
        lines = [*lines, "", f"Totals: {totals}"]
        saved = str(s.save_path) if s.save_path is not None else None
        self.app.push_screen(
            RoundOverScreen(title, lines, verdict, game_over=s.game_over,
                            can_replay=self.new_game is not None, saved=saved),
            self._after_round)

    async def _after_round(self, choice: str | None) -> None:
        if choice == "next" and not self.session.game_over:
            self.session.next_round()
        elif choice == "again" and self.new_game is not None:
            self.session = self.new_game()
            self.say("A new game: good luck!")
        else:
            self.app.exit()
            return
        self.reset_choice()
        self.phase = "computer"
        await self.refresh_all()
        self.advance()

    # ------------------------------------------------------------------
    # Commands

    def action_hint(self) -> None:
        if not self._ready():
            return
        self.say("Looking for the best move…", "hint")
        self.run_worker(partial(self._hint, self.version), name="hint", group="hint",
                        thread=True, exclusive=True, exit_on_error=False)

    async def action_undo(self) -> None:
        s = self.session
        if self.phase == "computer":
            self.say(f"Wait: {s.names[s.to_move]} is playing.")
            return
        try:
            taken = s.undo()
        except IllegalMove as exc:
            text = str(exc)
            self.say(text[:1].upper() + text[1:], "error")
            return
        self.reset_choice()
        more = len(taken) - 1
        extra = f" (and {more} move{'s' if more != 1 else ''} after it)" if more else ""
        self.say(f"Taken back: {taken[0].words}{extra}.")
        await self.refresh_all()
        self.advance()

    def action_save(self) -> None:
        if self.phase == "computer":
            self.say("Wait for the computer's move, then save.")
            return
        path = self.session.save_path
        self.app.push_screen(SaveScreen(str(path) if path else "casino-game.rec"), self._saved)

    def _saved(self, text: str | None) -> None:
        if text is None:
            self.say("Not saved.")
            return
        path = Path(text).expanduser()
        try:
            self.session.save_as(path)
        except OSError as exc:
            self.say(f"Could not save to {path}: {exc.strerror or exc}", "error")
            return
        self.say(f"Saved to {path}; every move from now on is saved there too.")

    def action_rules(self) -> None:
        rules = self.session.rules
        lines = describe(rules)
        saving = self.session.save_path is not None
        self.app.push_screen(RulesScreen(f"Rules: {lines[0]}", lines[1:], saving=saving,
                                         guide=rules.name))

    def action_quit(self) -> None:
        self.app.exit()

    async def on_table_area_width_changed(self, event: TableArea.WidthChanged) -> None:
        box = self.query_one("#table", TableArea)
        if box.content_region.width and box.content_region.width != self._table_width:
            await self._draw_table()
            self._draw_last_move()
            self.update_choice()


class CasinoApp(App[None]):
    """The terminal game: ``CasinoApp(session, new_game).run()``.

    ``new_game`` makes a fresh session with the same settings when the person
    asks to play again (None: no replay offered). ``pause`` is how long each
    computer move stays on screen before the next (0 in tests).
    """

    CSS_PATH = "app.tcss"
    TITLE = "Casino"
    ENABLE_COMMAND_PALETTE = False

    def __init__(self, session: GameSession, new_game: NewGame | None = None, *,
                 pause: float = DEFAULT_PAUSE) -> None:
        super().__init__()
        self.game = GameScreen(session, new_game, pause=pause)

    def get_default_screen(self) -> Screen[Any]:
        return self.game

    @property
    def session(self) -> GameSession:
        """The session being played (a new one after "play again")."""
        return self.game.session


def run_app(session: GameSession, new_game: NewGame | None, *,
            pause: float = DEFAULT_PAUSE) -> GameSession:
    """Play ``session`` full screen until the person quits.

    ``pause`` is how long each computer move stays on screen before the next.
    Returns the session played last: a new one when the person chose to play
    again, so the caller can say where *that* game was saved.
    """
    app = CasinoApp(session, new_game, pause=pause)
    app.run()
    return app.session


__all__ = ["CasinoApp", "GameScreen", "MoveSuggester", "run_app"]

"""The full-screen terminal game (``casino play``), built with textual.

The screen draws a :class:`~casino.play.session.GameSession` and only what the
person may see of it (:attr:`GameSession.view`: hidden cards stay hidden). The
person plays by picking a card of the hand (1-9, arrows and Enter, or a click)
and the table items it uses (a, b, c..., or clicks); the legal options for
that choice are listed (ranked and capped: a crowded table has hundreds of
thousands of moves, and none is listed by enumerating them; captures first, the
trail last), so a build's announced value is chosen there, and Enter plays the
highlighted one. What cannot be played is greyed beforehand, and a play the
rules force is named in the top bar. A move can also be typed in notation at any
time: the keys reach the move box even when they began as picks (see
:meth:`GameScreen.on_key`), with completion from the legal moves (on a crowded
table, from a selection of them). Anything illegal is explained in words by the
engine and changes nothing.

Beside the board: the score with the round's points so far and who captured
last, and (F2) the cards seen and unseen, all from the person's view.

The computers think in worker threads, one move at a time with a short pause
after each so a person can follow them, and the screen stays responsive while
they do. The session saves the game after every move (unless told not to), and
quitting mid-game asks first, saying whether the game is saved.
"""

from __future__ import annotations

import contextvars
import re
from collections import Counter
from collections.abc import Callable, Sequence
from functools import partial
from pathlib import Path
from typing import Any, ClassVar, TypeVar

from textual import events
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import Horizontal, Vertical, VerticalScroll
from textual.content import Content
from textual.screen import ModalScreen, Screen
from textual.suggester import Suggester
from textual.widgets import Button, Footer, Input, OptionList, Static
from textual.widgets.option_list import Option
from textual.worker import Worker, WorkerState

from casino.bots.levels import LEVELS
from casino.engine.builds import Build
from casino.engine.cards import card_symbol
from casino.engine.errors import IllegalMove
from casino.engine.explain import forced_play
from casino.engine.legality import MoveList, ranked
from casino.engine.moves import CAPTURE, Move
from casino.engine.position import Position
from casino.engine.record import read_record
from casino.engine.rules import describe
from casino.i18n import _, current, ngettext, pgettext, pN_, using
from casino.play.names import shown_name
from casino.play.session import GameSession
from casino.play.standing import unseen
from casino.teach.hint import session_hint
from casino.tui.choice import attempt_text, chosen_words, uses
from casino.tui.keys import translate_keys
from casino.tui.review import ReviewScreen
from casino.tui.screens import RoundOverScreen, RulesScreen, SaveScreen
from casino.tui.widgets import (
    HAND_KEYS,
    TABLE_KEYS,
    BuildStack,
    CardFace,
    ItemClicked,
    SeatPanel,
    TableArea,
    cards_content,
    game_content,
    log_content,
    option_words,
    score_content,
    score_note,
    seat_boxes,
    table_rows,
    team_name,
)
from casino.words.narrate import result_lines, tally, winner_words
from casino.words.shortlist import MAX_SHOWN, Shortlist, rest_words, shortlist

#: Seconds each computer move stays on screen before the next one (readable, not slow).
DEFAULT_PAUSE = 0.8

NewGame = Callable[[], GameSession]

_T = TypeVar("_T")


def in_this_context(work: Callable[[], _T]) -> Callable[[], _T]:
    """``work`` to run in a worker thread in a copy of this context: textual's thread
    workers start in none, and the computer's moves and the hints are told in the
    language in force (:mod:`casino.i18n`), which the context holds."""
    return partial(contextvars.copy_context().run, work)


class MoveSuggester(Suggester):
    """Completes typed notation from the texts of the legal moves of the moment."""

    def __init__(self, texts: Callable[[], Sequence[str]]) -> None:
        # No cache: the legal moves change with every move.
        super().__init__(use_cache=False, case_sensitive=True)
        self._texts = texts

    async def get_suggestion(self, value: str) -> str | None:
        """The first of the moment's move texts that begins with what is typed, in any case;
        what is typed stays as typed and the rest is added."""
        typed = value.lstrip()
        if not typed:
            return None
        low = typed.lower()
        for text in self._texts():
            if text.lower().startswith(low) and len(text) > len(typed):
                return value + text[len(typed):]
        return None


#: Characters that begin a card in notation: its rank (1 begins 10, or is an Ace).
RANK_CHARS = frozenset("123456789atjqkATJQK")
#: Characters that end a card in notation: its suit.
SUIT_CHARS = frozenset("schdSCHD♠♣♥♦")
#: Characters that only notation uses (a table letter x is a pick when the table has it).
NOTATION_CHARS = frozenset(" +=[]@0x")
_CARD = re.compile(r"(10|[1-9atjqk])[schd♠♣♥♦]", re.IGNORECASE)
_RANK = re.compile(r"10|[1-9atjqk]", re.IGNORECASE)


def notation_tail(keys: str) -> str | None:
    """The end of ``keys`` that reads as the start of a move in notation, if any.

    Keys pressed on the board pick cards and table items, and the same keys
    begin notation (``2`` picks card 2 and begins ``2s``); once a key shows that
    notation is being typed, the keys from its first card on are moved to the
    move box. That is the shortest end of ``keys`` beginning with a whole card
    (``"ac2s"`` gives ``"2s"``: ``a`` and ``c`` were picks), else a lone rank
    (``"Q"``, ``"10"``).
    """
    for i in range(len(keys) - 1, -1, -1):
        if _CARD.match(keys[i:]):
            return keys[i:]
    for n in (2, 1):
        if len(keys) >= n and _RANK.fullmatch(keys[-n:]):
            return keys[-n:]
    return None


class MoveInput(Input):
    """The move box: notation with completion; ``?`` in an empty box asks for a hint,
    since a person who keeps typing moves should not have to leave the box for one."""

    async def _on_key(self, event: events.Key) -> None:
        if event.character == "?" and not self.value and isinstance(self.screen, GameScreen):
            event.stop()
            event.prevent_default()
            self.screen.action_hint()
            return
        await super()._on_key(event)


class QuitScreen(ModalScreen[str]):
    """"Quit the game?" Dismisses with ``quit``, ``stay``, or ``type:`` and a suit.

    ``q`` is both the quit key and a queen's rank: a suit typed right after it
    (``qh``) means a move was being typed, so the dialog closes and hands the
    two keys to the move box instead of quitting.
    """

    AUTO_FOCUS = "#quit-yes"
    BINDINGS: ClassVar[list[BindingType]] = [
        Binding("y,enter", "choose('quit')", pN_("key", "Quit")),
        Binding("n,escape", "choose('stay')", pN_("key", "Keep playing")),
    ]

    def __init__(self, saved: Path | None) -> None:
        super().__init__()
        translate_keys(self)
        self.saved = saved

    def compose(self) -> ComposeResult:
        """The question, where the game is saved (or that quitting loses it), and the two
        buttons."""
        if self.saved is not None:
            where = (_("The game is saved in %(path)s: casino play --resume %(path)s goes "
                       "on with it.") % {"path": self.saved})
        else:
            where = _("This game is not being saved (--no-save): quitting loses it for "
                      "good. Press n, then s, to save it first.")
        with Vertical(id="quit-box", classes="dialog"):
            yield Static(Content.styled(_("Quit the game?"), "bold"), classes="dialog-title")
            yield Static(Content(where), id="quit-text")
            with Horizontal(classes="dialog-buttons"):
                yield Button(_("Quit (y)"), id="quit-yes", variant="error")
                yield Button(_("Keep playing (n)"), id="quit-no", variant="primary")

    def on_key(self, event: events.Key) -> None:
        """A suit right after ``q`` means a queen was being typed: close with ``type:`` and
        the suit, for the move box."""
        if event.character is not None and event.character in SUIT_CHARS:
            event.stop()
            self.dismiss("type:" + event.character)

    def action_choose(self, choice: str) -> None:
        """``y`` or Enter quits, ``n`` or Escape stays (the bindings name the choice)."""
        self.dismiss(choice)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        """A click on a button chooses as its key does."""
        self.dismiss("quit" if event.button.id == "quit-yes" else "stay")


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
        Binding("enter", "confirm", pN_("key", "Play")),
        Binding("escape", "cancel", pN_("key", "Cancel")),
        Binding("left", "cursor(-1)", pN_("key", "Card left"), show=False),
        Binding("right", "cursor(1)", pN_("key", "Card right"), show=False),
        Binding("up", "option(-1)", pN_("key", "Option up"), show=False),
        Binding("down", "option(1)", pN_("key", "Option down"), show=False),
        Binding("tab", "type_move", pN_("key", "Type a move"), show=False),  # the move box says so
        Binding("question_mark", "hint", pN_("key", "Hint"), key_display="?"),
        Binding("u", "undo", pN_("key", "Undo")),
        Binding("s", "save", pN_("key", "Save")),
        Binding("f1", "rules", pN_("key", "Rules")),
        Binding("f2", "cards", pN_("key", "Cards")),
        Binding("q", "quit", pN_("key", "Quit")),
    ]

    def __init__(self, session: GameSession, new_game: NewGame | None, *,
                 pause: float = DEFAULT_PAUSE, lesson: bool = False) -> None:
        super().__init__()
        translate_keys(self)
        self.session = session
        self.new_game = new_game
        self.pause = pause
        #: A lesson game ("learn to play"): the lesson panel shows the step (tui/lesson).
        self.lesson = lesson
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
        #: The keys pressed on the board since the choice was last empty: if notation
        #: turns out to be typed (``2s``), its start is taken back from the picks.
        self.keyed = ""
        #: Whether the cards panel is shown (None: when the screen is tall enough to
        #: show it with the move log; F2 decides otherwise).
        self.show_cards: bool | None = None
        #: How the end screen's review judges (the review's defaults unless a test
        #: asks for less work).
        self.review_settings: dict[str, Any] = {}

    # ------------------------------------------------------------------
    # Layout

    def compose(self) -> ComposeResult:
        """The turn bar on top; the board (seats, table, last move, hand, options, move box,
        message) beside the side panel (the lesson, score, game, cards and move log)."""
        yield Static(id="turn")
        with Horizontal(id="main"):
            with Vertical(id="board"):
                yield Horizontal(id="seats")
                yield TableArea(id="table")
                yield Static(id="last-move")
                yield Horizontal(id="hand")
                yield OptionList(id="options")
                yield MoveInput(id="move-input", select_on_focus=False,
                                placeholder=_("Type a move (or Tab), e.g. 9d x 9c 5h+4c, 7h"),
                                suggester=MoveSuggester(self._move_texts))
                yield Static(id="message")
            with Vertical(id="side"):
                if self.lesson:
                    from casino.tui.lesson import LessonPanel

                    yield LessonPanel(id="lesson")
                yield Static(id="score")
                yield Static(id="game-info")
                yield Static(id="cards")
                with VerticalScroll(id="log-box"):
                    yield Static(id="log")
        yield Footer()

    async def on_mount(self) -> None:
        """Title the boxes, say the rules and the players, draw everything, and start: a
        computer may lead."""
        options = self.query_one("#options", OptionList)
        options.can_focus = False
        self.query_one("#table").border_title = pgettext("panel", "Table")
        self.query_one("#hand").border_title = pgettext("panel", "Your hand")
        self.query_one("#log-box").border_title = pgettext("panel", "Moves")
        self.query_one("#score").border_title = pgettext("panel", "Score")
        self.query_one("#game-info").border_title = pgettext("panel", "Game")
        self._apply_side()
        rules = self.session.rules
        players = ", ".join(self.session.describe_players())
        self.say(_("%(rules)s: %(players)s. F1 shows the rules and the keys.")
                 % {"rules": rules.name, "players": players})
        await self.refresh_all()
        self.advance()

    # ------------------------------------------------------------------
    # Drawing

    @property
    def hand(self) -> tuple[int, ...]:
        """The person's cards as the view shows them (none where it gives only their
        number)."""
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
            if self.lesson:
                from casino.tui.lesson import LessonPanel

                self.query_one(LessonPanel).show(s)

    async def _draw_seats(self) -> None:
        s = self.session
        panels = await seat_boxes(self.query_one("#seats", Horizontal), SeatPanel, s.rules.seats)
        for panel in panels:
            panel.show(self.view, s.shown_names, s.human, tally(self.view, panel.seat))

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
                owner = self.session.shown_names[item.owner]
                mine = view.rules.team_of(item.owner) == view.rules.team_of(self.session.human)
                widgets.append(BuildStack(item, i, key, owner, mine))
            else:
                widgets.append(CardFace(item, "table", i, key))
        self._table_widgets = widgets
        await box.remove_children()
        if widgets:
            await box.mount_all(table_rows(widgets, width))
        else:
            await box.mount(Static(Content.styled(_("The table is empty."), "italic #9fd3b0"),
                                   classes="empty-table"))
        n = len(view.table)
        title = ngettext("Table · %(n)s item", "Table · %(n)s items", n) % {"n": n}
        if view.set_aside:
            title += _(" · set aside ") + " ".join(card_symbol(c) for c in view.set_aside)
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
            await box.mount(Static(Content.styled(_("No cards in hand."), "italic #9fd3b0"),
                                   classes="empty-hand"))

    def _draw_side(self) -> None:
        s = self.session
        score = self.query_one("#score", Static)
        score.update(score_content(self.view, s.shown_names, s.human))
        score.border_subtitle = score_note(s.rules)
        levels = sorted({lv for seat in s.rules.seats if (lv := s.level_of(seat))})
        who = ngettext("computer: %(levels)s", "computers: %(levels)s",
                       s.rules.players - 1) % {"levels": ", ".join(
                           LEVELS[lv].shown_name() if lv in LEVELS else lv for lv in levels)}
        self.query_one("#game-info", Static).update(game_content(self.view, who, s.match.seed))
        self._draw_cards()
        self.query_one("#log", Static).update(log_content(s.log, s.rules))
        box = self.query_one("#log-box", VerticalScroll)
        box.call_after_refresh(box.scroll_end, animate=False)  # once the new text is laid out

    def _draw_cards(self) -> None:
        """The cards panel: what the person has seen this round and what is still unseen."""
        s = self.session
        box = self.query_one("#cards", Static)
        left = unseen(self.view, s.human)
        box.update(cards_content(left, self.view, s.shown_names, s.human))
        box.border_title = _("Cards · %(n)s unseen") % {"n": left.count}
        box.border_subtitle = _("F2 hides") if self.show_cards else "F2"

    def _apply_side(self) -> None:
        """Show the cards panel with the move log on a tall screen; on a smaller one,
        in its place while F2 asks for it."""
        tall = self.size.height >= 36
        shown = self.show_cards if self.show_cards is not None else tall
        self.query_one("#cards", Static).display = shown
        self.query_one("#log-box").display = tall or not shown

    def on_resize(self, event: events.Resize) -> None:
        """A change of height may move the cards panel beside the move log or into its
        place."""
        self._apply_side()

    def action_cards(self) -> None:
        """F2: show or hide the cards panel (seen and unseen cards)."""
        tall = self.size.height >= 36
        shown = self.show_cards if self.show_cards is not None else tall
        self.show_cards = not shown
        self._apply_side()
        self._draw_cards()
        if self.show_cards and not tall:
            self.say(_("The cards panel replaces the move log: F2 brings the log back."))

    def _draw_last_move(self) -> None:
        log = self.session.log
        bar = self.query_one("#last-move", Static)
        if log:
            bar.update(Content.assemble((_("Last move: "), "bold"), log[-1].words))
        else:
            bar.update(Content.styled(_("No move yet."), "italic"))
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
        # On a narrow screen every column of the bar is needed for what it says.
        title = Content.styled(" ♠ ♥ CASINO ♣ ♦ " if self.size.width >= 110 else "", "bold")
        if self.phase == "human":
            n = len(self.hand)
            keys = f"1-{n}" if n > 1 else "1"
            text = _("▶ Your turn: pick a card (%(keys)s, or ←/→ and Enter), then table items "
                     "(a, b, …); Enter plays") % {"keys": keys}
            if isinstance(self.focused, Input):
                text = _("▶ Your turn: type a move, Enter plays it; Escape picks cards instead")
            chosen = self._highlighted()
            if self.picked is not None:
                text = (_("▶ Enter plays: %(move)s") % {"move": option_words(chosen)}
                        if chosen is not None
                        else _("▶ No legal move uses these cards: change them, or Escape"))
            forced = self.forced()
            if forced:  # first: it is what the person must know before anything else
                text = f"▶ {forced[:1].upper()}{forced[1:]} · {text[2:]}"
        elif self.phase == "computer":
            text = (_("⏳ %(name)s is playing…") % {"name": s.shown_names[s.to_move]}
                    if not s.round_over else _("Round over"))
        elif self.phase == "game-over":
            text = _("The game is over")
        else:
            text = (_("The game is over") if s.rules.round_word == "game"
                    else _("The round is over"))
        bar.update(Content.assemble(title, " ", text))

    def forced(self) -> str | None:
        """What the rules force on the person now, in the engine's words (one place for
        the header and the explanation of a refused move), or None."""
        if self.phase != "human" or not self.session.human_to_move:
            return None
        view = self.view
        return view.memo("tui:forced", lambda: forced_play(view))

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
        """The legal moves of the picked card that use every selected item, at most
        ``MAX_SHOWN`` (:attr:`options_rest` says what was left out). With no item
        chosen: the card's moves ranked, captures first and the trail last, so Enter
        never trails a card that can take something. With items: those using exactly
        them first, then the others strongest first. A hint's move is always among
        them. Asked of the engine for this card and these items, never by listing
        every move of a crowded table."""
        self.options_rest = None
        if self.picked is None:
            return []
        card = self.hand[self.picked]
        hint = self.hint_move if self.hint_move is not None and self.hint_move.card == card \
            else None
        if not self.selected:
            short = shortlist(self.session.options_of(card), keep=hint)
            if not short.everything:
                self.options_rest = short
            return list(short.moves)
        items = [self.view.table[i] for i in self.selected]
        found = self.session.moves_using(card, items)
        exact = ranked(found.exact)[:MAX_SHOWN]
        short = shortlist(MoveList(found.more, found.complete),
                          limit=max(1, MAX_SHOWN - len(exact)))
        if not short.everything:
            self.options_rest = short
        moves = [*exact, *short.moves][:MAX_SHOWN]
        if hint is not None and hint not in moves and uses(hint) >= Counter(items):
            moves = [hint, *moves[:MAX_SHOWN - 1]]
        return moves

    def update_choice(self) -> None:
        """Mark the picked card and the chosen table items, and list the options they allow.

        What cannot be played is dimmed before the person tries: hand cards with no
        legal move, and, once a card is picked, table items no legal move of it can
        use together with the items chosen already."""
        hint = self.hint_move
        mine = self.phase == "human" and self.session.human_to_move
        playable = self._playable() if mine else {}
        for w in self._hand_widgets:
            w.set_class(w.index == self.picked, "picked")
            w.set_class(self.phase == "human" and w.index == self.cursor
                        and self.picked is None, "cursor")
            w.set_class(hint is not None and w.card == hint.card, "hinted")
            w.set_class(mine and not playable.get(w.card, True), "unplayable")
        fits = self._fitting_items() if mine and self.picked is not None else None
        hinted = uses(hint) if hint is not None else Counter()
        for t in self._table_widgets:
            t.set_class(t.index in self.selected, "selected")
            t.set_class(hinted[self.view.table[t.index]] > 0, "hinted")
            t.set_class(fits is not None and t.index not in fits, "unfit")
        self._draw_options()
        self._draw_turn()

    def _playable(self) -> dict[int, bool]:
        """Whether each card of the hand has a legal move (the engine's per-card answer,
        bounded on any table; worked out once per position)."""
        view = self.view
        return view.memo("tui:playable", lambda: {
            c: view.card_options(c).playable for c in set(self.hand)})

    def _fitting_items(self) -> set[int]:
        """The places of the table items that some legal move of the picked card uses
        together with the items chosen already (those chosen count as fitting).

        One bounded question to the engine per item (:meth:`GameSession.moves_using`:
        is there a move of this card with these items?), kept per position, card and
        choice; no list of every legal move is made."""
        assert self.picked is not None
        view = self.view
        card = self.hand[self.picked]
        chosen = sorted(self.selected)

        def work() -> set[int]:
            fits = set(chosen)
            base = [view.table[i] for i in chosen]
            tried: dict[object, bool] = {}
            for i, item in enumerate(view.table):
                if i in fits:
                    continue
                if item not in tried:  # two decks: the same card twice asks once
                    found = self.session.moves_using(card, [*base, item])
                    tried[item] = bool(found.exact or found.more)
                if tried[item]:
                    fits.add(i)
            return fits
        return view.memo(f"tui:fits:{card}:{chosen}", work)

    def _draw_options(self) -> None:
        box = self.query_one("#options", OptionList)
        self.options = self._option_moves()
        box.clear_options()
        box.border_subtitle = ""  # until _mark_more counts what is out of sight
        if self.phase != "human":
            box.border_title = _("Options")
            box.add_option(Option(Content.styled(_("Wait for your turn."), "dim"),
                                  disabled=True))
            return
        if self.picked is None:
            box.border_title = _("Options")
            box.add_option(Option(Content.styled(
                _("Pick a card of your hand to see what it can do."), "dim"), disabled=True))
            return
        card = self.hand[self.picked]
        box.border_title = _("Options for the %(card)s (↑/↓, Enter plays)") % {
            "card": card_symbol(card)}
        if not self.options:
            items = chosen_words(self.view.table, self.selected)
            words = (_("No legal move plays the %(card)s with %(items)s: Enter says why; "
                       "Escape starts again.") if items
                     else _("No legal move plays the %(card)s: Enter says why; Escape starts "
                            "again."))
            box.add_option(Option(Content.styled(
                words % {"card": card_symbol(card), "items": items}, "italic"),
                disabled=True))
            return
        box.add_options(Option(Content.assemble((option_words(m), "bold"), "   ",
                                                (str(m), "dim")))
                        for m in self.options)
        if self.options_rest is not None:
            rest = rest_words(self.options_rest, "option")
            box.add_option(Option(Content.styled(
                _("… %(rest)s: choose table items (a, b, …) to see those using them, or Tab "
                  "to type a move") % {"rest": rest}, "dim italic"), disabled=True))
        hint = self.hint_move
        box.highlighted = (self.options.index(hint) if hint is not None and hint in self.options
                           else 0)
        box.call_after_refresh(self._mark_more)

    def _mark_more(self) -> None:
        """Say on the options box's frame how many options lie beyond what it shows:
        on a small terminal it has room for two or three."""
        box = self.query_one("#options", OptionList)
        shown = box.scrollable_content_region.height
        total = box.option_count
        top = round(box.scroll_y)
        above, below = top, max(0, total - top - shown)
        if shown <= 0 or (not above and not below):
            box.border_subtitle = ""
            return
        parts = []
        if above:
            parts.append(_("↑ %(n)s more") % {"n": above})
        if below:
            parts.append(_("↓ %(n)s more") % {"n": below})
        box.border_subtitle = " · ".join(parts)

    def _highlighted(self) -> Move | None:
        """The option Enter would play now, if any."""
        index = self.query_one("#options", OptionList).highlighted
        if index is None or not 0 <= index < len(self.options):
            return None
        return self.options[index]

    def on_option_list_option_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        """Another option highlighted: the turn bar says what Enter plays now, and the frame
        counts the options out of sight."""
        event.stop()
        event.option_list.call_after_refresh(self._mark_more)
        self._draw_turn()

    def _ready(self) -> bool:
        """True when the person may act; otherwise say why not."""
        s = self.session
        if self.phase == "computer":
            self.say(_("Wait: %(name)s is playing.") % {"name": s.shown_names[s.to_move]})
            return False
        if self.phase != "human" or not s.human_to_move:
            self.say(_("It is not your turn."))
            return False
        return True

    def pick(self, index: int) -> None:
        """Pick the hand card at ``index`` (again: put it back)."""
        if not self._ready():
            return
        hand = self.hand
        if index >= len(hand):
            self.say(ngettext("You hold %(n)s card: there is no card %(index)s.",
                              "You hold %(n)s cards: there is no card %(index)s.", len(hand))
                     % {"n": len(hand), "index": index + 1}, "error")
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
            words = (_("The table has %(n)s items (a to %(last)s).") if n > 1
                     else ngettext("The table has %(n)s item.", "The table has %(n)s items.", n))
            self.say(words % {"n": n, "last": last}, "error")
            return
        if index in self.selected:
            self.selected.remove(index)
        else:
            self.selected.append(index)
        self.update_choice()

    def reset_choice(self) -> None:
        """Forget the picked card, the chosen items, the hint and the keys pressed: the next
        choice starts afresh."""
        self.picked = None
        self.selected = []
        self.hint_move = None
        self.keyed = ""

    # ------------------------------------------------------------------
    # Input

    def on_key(self, event: events.Key) -> None:
        """Keys on the board: picks (1-9 for the hand, a, b, … for the table), and
        notation, which reaches the move box however it is begun.

        The same keys pick and begin notation (``2`` picks card 2 and begins
        ``2s``), so each key pressed on the board is remembered (:attr:`keyed`)
        and a key that only notation explains moves the notation begun so far to
        the move box, taking back the picks it made: a suit right after a rank
        (``2s``; ``c``, ``d`` and ``h`` only when the table has no such item), a
        ``0`` after ``1``, a space, ``+``, ``=``, brackets, or a capital letter
        (capitals are never keys). Commands do not fire in the middle of a move:
        ``s`` after a rank is a suit, and ``q`` asks first (a suit typed then goes
        to the move box as well).
        """
        if isinstance(self.focused, Input):
            return
        ch = event.character
        if ch is None or not event.is_printable:
            if event.key not in ("shift", "ctrl", "alt"):
                self.keyed = ""  # Enter, arrows, Escape...: no notation runs across them
            return
        keyed = self.keyed
        after_rank = bool(keyed) and keyed[-1] in RANK_CHARS
        table_key = ch in TABLE_KEYS and TABLE_KEYS.index(ch) < len(self.view.table)
        typed: str | None = None
        if ch.isupper() or ch in "♠♣♥♦":
            typed = notation_tail(keyed + ch) or ch
        elif ch in SUIT_CHARS and after_rank and not table_key:
            typed = notation_tail(keyed + ch)
        elif ch == "0" and keyed.endswith("1"):
            typed = "10"
        elif ch in NOTATION_CHARS and not table_key:
            typed = notation_tail(keyed + ch)
            if typed is None and ch != "x":
                event.stop()  # a space or a sign alone means nothing on the board
                self.keyed = ""
                return
        if typed is not None:
            event.stop()
            self.start_typing(typed)
            return
        if ch in HAND_KEYS:
            event.stop()
            self.keyed = (keyed + ch)[-8:]
            self.pick(HAND_KEYS.index(ch))
        elif ch in TABLE_KEYS:
            event.stop()
            self.keyed = (keyed + ch)[-8:]
            self.toggle(TABLE_KEYS.index(ch))
        else:
            self.keyed = ""  # a command key (?, u, s, q...): its binding runs

    def start_typing(self, text: str) -> None:
        """Move to the move box with ``text`` typed, taking back the picks those keys made."""
        had_choice = self.picked is not None or bool(self.selected)
        self.reset_choice()
        box = self.query_one("#move-input", Input)
        box.value = text
        box.cursor_position = len(text)
        box.focus()
        if had_choice:
            self.update_choice()
        self.say(_("Typing a move: Enter plays it, Escape goes back to picking cards."))
        self._draw_turn()

    def on_descendant_focus(self, event: events.DescendantFocus) -> None:
        """The move box took the focus: the turn bar says that keys now type a move."""
        self._draw_turn()

    def on_descendant_blur(self, event: events.DescendantBlur) -> None:
        """The move box lost the focus: the turn bar says that keys pick cards again."""
        self._draw_turn()

    def on_item_clicked(self, event: ItemClicked) -> None:
        """A click picks a card or a table item as its key would; it leaves an empty move
        box, so that Enter plays what the clicks chose."""
        self.keyed = ""
        box = self.query_one("#move-input", Input)
        if box.has_focus and not box.value:
            self.set_focus(None)  # so that Enter plays what the clicks chose
        if event.zone == "hand":
            self.pick(event.index)
        else:
            self.toggle(event.index)

    async def on_option_list_option_selected(self, event: OptionList.OptionSelected) -> None:
        """Enter or a click on an option plays it."""
        event.stop()
        if self._ready() and 0 <= event.option_index < len(self.options):
            await self.play(self.options[event.option_index])

    async def on_input_submitted(self, event: Input.Submitted) -> None:
        """Enter in the move box plays the typed move; the box keeps the focus for the next
        one."""
        event.stop()
        if not self._ready():
            return
        text = event.value.strip()
        if not text:
            self.say(_("Type a move in notation, e.g. 9d x 9c, 5d+3s =8 or 7h."), "error")
            return
        if await self.play(text):
            # The box keeps the focus: whoever types one move types the next.
            event.input.value = ""

    def choose(self, move: Move) -> None:
        """Pick ``move``'s card and table items and highlight it, so Enter plays it."""
        hand = self.hand
        if move.card not in hand:
            return
        self.reset_choice()
        self.hint_move = move
        self.picked = self.cursor = hand.index(move.card)
        wanted = uses(move)
        for i, item in enumerate(self.view.table):
            if wanted[item] > 0:
                wanted[item] -= 1
                self.selected.append(i)
        box = self.query_one("#move-input", Input)
        if box.has_focus and not box.value:
            self.set_focus(None)  # Enter is for the hint now, not the empty box
        self.update_choice()

    def action_cursor(self, step: int) -> None:
        """Left and right: move the cursor along the hand, and the pick with it once a card
        is picked."""
        if not self._ready() or not self.hand:
            return
        self.cursor = (self.cursor + step) % len(self.hand)
        if self.picked is not None:
            self.picked = self.cursor
        self.update_choice()

    def action_option(self, step: int) -> None:
        """Up and down: move through the options, round from the last to the first."""
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
        """Escape: leave the move box, or else drop the choice being made."""
        if isinstance(self.focused, Input):
            self.set_focus(None)
            return
        if self.picked is not None or self.selected or self.hint_move is not None:
            self.reset_choice()
            self.say(_("Choose again: pick a card of your hand."))
            self.update_choice()

    def action_type_move(self) -> None:
        """Tab: go to the move box, to type a move in notation."""
        self.query_one("#move-input", Input).focus()

    # ------------------------------------------------------------------
    # Playing

    async def play(self, move: Move | str) -> bool:
        """Play the person's move; an illegal one is explained and changes nothing."""
        try:
            entry = self.session.play(move)
        except IllegalMove as exc:
            self.say(_("Not allowed: %(why)s") % {"why": exc}, "error")
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
            self.run_worker(in_this_context(self._computer_move), name="computer",
                            group="computer", thread=True)
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

    def _hint(self, version: int, lang: str) -> tuple[int, Move, str]:
        """In a worker thread: the explained hint for the person (the play the judge
        ranks first, from their observation) and its reason (:mod:`casino.teach.hint`),
        in the screen's language ``lang`` (a thread does not inherit it)."""
        with using(lang):
            move, advice = session_hint(self.session)
        return version, move, advice.best.reason

    async def on_worker_state_changed(self, event: Worker.StateChanged) -> None:
        """A computer's move or a hint is ready, or failed. A hint found for an earlier
        position is dropped (``version`` tells); one shown is noted in the record and
        picked, so Enter plays it."""
        worker = event.worker
        if worker.name == "computer":
            if event.state == WorkerState.SUCCESS:
                await self.refresh_all()
                if self.session.human_to_move:
                    self.advance()
                else:
                    self._later(self.advance)
            elif event.state == WorkerState.ERROR:
                self.say(_("The computer failed to move: %(error)s") % {"error": worker.error},
                         "error")
        elif worker.name == "hint":
            if event.state == WorkerState.SUCCESS and isinstance(worker.result, tuple):
                version, move, reason = worker.result
                if version != self.version or self.phase != "human":
                    return  # the game moved on while the hint was being found
                self.session.hint_given()  # the record notes every hint shown
                self.choose(move)
                self.say(_("Hint: %(words)s  (%(move)s): Enter plays it")
                         % {"words": option_words(move), "move": move} + f"\n{reason}", "hint")
            elif event.state == WorkerState.ERROR:
                self.say(_("No hint: %(error)s") % {"error": worker.error}, "error")

    def show_round_over(self) -> None:
        """The round's items in counting order, and who won and why."""
        s = self.session
        result = self.view.result
        if result is None:  # pragma: no cover - advance only calls this after a round
            return
        rules = s.rules
        unit = pgettext("unit", rules.round_word).capitalize()
        # Where a round is called a game (Krypkasino), the games make up a match.
        games = rules.round_word == "game"
        # Points go to sides: name a partnership by both partners.
        names = [team_name(rules, s.shown_names, rules.team_of(seat)) for seat in rules.seats]
        lines = result_lines(result, rules, names, s.scores_before_round, s.view)
        verdict = winner_words(result, rules, names, s.scores_before_round)
        if s.game_over and result.winner is not None:
            winner = names[result.winner]
            many = winner == shown_name("You") or "&" in winner  # "You win", "A & B win"
            title = ((_("The match is over: %(winner)s win!") if many
                      else _("The match is over: %(winner)s wins!")) if games
                     else (_("Game is over: %(winner)s win!") if many
                           else _("Game is over: %(winner)s wins!"))) % {"winner": winner}
        else:
            title = _("%(unit)s %(n)s is over") % {"unit": unit, "n": self.view.round}
        totals = ", ".join(f"{names[t]} {result.scores[t]}" for t in rules.teams)
        lines = [*lines, "", _("Totals: %(totals)s") % {"totals": totals}]
        saved = str(s.save_path) if s.save_path is not None else None
        self.app.push_screen(
            RoundOverScreen(title, lines, verdict, game_over=s.game_over,
                            can_replay=self.new_game is not None, saved=saved,
                            review=self._review_screen),
            self._after_round)

    def _review_screen(self) -> ReviewScreen:
        """The review of the person's play in the game just finished: judging it tells
        nobody a hidden card of a live game."""
        record = read_record(self.session.record_text())
        return ReviewScreen(record, self.session.human, **self.review_settings)

    async def _after_round(self, choice: str | None) -> None:
        if choice == "next" and not self.session.game_over:
            self.session.next_round()
        elif choice == "again" and self.new_game is not None:
            self.session = self.new_game()
            self.say(_("A new game: good luck!"))
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
        """``?``: ask for a hint in a worker thread, since the judge takes its time; the
        screen stays live."""
        if not self._ready():
            return
        self.say(_("Looking for the best move…"), "hint")
        self.run_worker(partial(self._hint, self.version, current()), name="hint",
                        group="hint", thread=True, exclusive=True, exit_on_error=False)

    async def action_undo(self) -> None:
        """``u``: take back the person's last move and the computers' moves after it, within
        the current deal."""
        s = self.session
        if self.phase == "computer":
            self.say(_("Wait: %(name)s is playing.") % {"name": s.shown_names[s.to_move]})
            return
        try:
            taken = s.undo()
        except IllegalMove as exc:
            text = str(exc)
            self.say(text[:1].upper() + text[1:], "error")
            return
        self.reset_choice()
        more = len(taken) - 1
        if more:
            self.say(ngettext("Taken back: %(move)s (and %(n)s move after it).",
                              "Taken back: %(move)s (and %(n)s moves after it).", more)
                     % {"move": taken[0].words, "n": more})
        else:
            self.say(_("Taken back: %(move)s.") % {"move": taken[0].words})
        await self.refresh_all()
        self.advance()

    def action_save(self) -> None:
        """``s``: ask where to save the game (the file it is saved in, if any, is offered)."""
        if self.phase == "computer":
            self.say(_("Wait for the computer's move, then save."))
            return
        path = self.session.save_path
        self.app.push_screen(SaveScreen(str(path) if path else "casino-game.rec"), self._saved)

    def _saved(self, text: str | None) -> None:
        if text is None:
            self.say(_("Not saved."))
            return
        path = Path(text).expanduser()
        try:
            self.session.save_as(path)
        except OSError as exc:
            self.say(_("Could not save to %(path)s: %(why)s")
                     % {"path": path, "why": exc.strerror or exc}, "error")
            return
        self.say(_("Saved to %(path)s; every move from now on is saved there too.")
                 % {"path": path})

    def action_rules(self) -> None:
        """F1: the rules of this game and the keys, with its how-to-play guide."""
        rules = self.session.rules
        lines = describe(rules)
        saving = self.session.save_path is not None
        self.app.push_screen(RulesScreen(_("Rules: %(title)s") % {"title": lines[0]}, lines[1:],
                                         saving=saving,
                                         guide=rules))

    def action_quit(self) -> None:
        """Quit, after asking when a game is going on (the dialog says whether it is saved)."""
        if self.phase in ("human", "computer") and not self.session.game_over:
            self.app.push_screen(QuitScreen(self.session.save_path), self._quit_chosen)
        else:
            self.app.exit()

    def _quit_chosen(self, choice: str | None) -> None:
        if choice == "quit":
            self.app.exit()
        elif choice is not None and choice.startswith("type:"):
            self.start_typing("q" + choice[len("type:"):])  # "qh": a queen, not quitting
        else:
            self.say(_("Still playing."))

    async def on_table_area_width_changed(self, event: TableArea.WidthChanged) -> None:
        """The table's width changed: lay its cards out again in rows that fit."""
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
                 pause: float = DEFAULT_PAUSE, lesson: bool = False) -> None:
        super().__init__()
        self.game = GameScreen(session, new_game, pause=pause, lesson=lesson)

    def get_default_screen(self) -> Screen[Any]:
        """The game screen, made in ``__init__`` so that callers and tests reach it as
        ``app.game``."""
        return self.game

    async def action_quit(self) -> None:
        """Ctrl+Q asks first as q does, while the game is on screen."""
        if self.screen is self.game:
            self.game.action_quit()
        else:
            self.exit()

    @property
    def session(self) -> GameSession:
        """The session being played (a new one after "play again")."""
        return self.game.session


def run_app(session: GameSession, new_game: NewGame | None, *,
            pause: float = DEFAULT_PAUSE, lesson: bool = False) -> GameSession:
    """Play ``session`` full screen until the person quits.

    ``pause`` is how long each computer move stays on screen before the next.
    Returns the session played last: a new one when the person chose to play
    again, so the caller can say where *that* game was saved.
    """
    app = CasinoApp(session, new_game, pause=pause, lesson=lesson)
    app.run()
    return app.session


__all__ = ["CasinoApp", "GameScreen", "MoveSuggester", "run_app"]
